// ddalab-gui, what a user study records besides the answers, driven as a
// participant and a researcher drive it: a person's decisions in a game with their timing (a
// pause left out), the questionnaire's timing, and the pages around the games (consent,
// demographics, instructions, debrief) clicked through, declined, escaped and double-clicked.
// With DDALAB_SCREENSHOTS=DIR the tests also save the pictures of the pages.
#include <QAccessible>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <chrono>
#include <fstream>
#include <span>

#include "app/gui/play/live_panel.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/play/session.h"
#include "app/gui/study/demographics_page.h"
#include "app/gui/study/study_dialogs.h"
#include "app/gui/study/study_pages.h"
#include "studies/allocation.h"
#include "tests/app/gui/study_support.h"

using namespace ddalab;
using namespace ddalab::gui;
namespace fs = std::filesystem;

namespace {

// A Ludo game of one person (seat 0) against a random AI, at no pace.
void startPersonGame(GameSession& session, uint64_t seed) {
  GameSetup setup = PlayMode::defaultSetup("ludo", seed);
  setup.experiment["players"][1] = Json{{"id", "random"}};
  session.setDelay(0);
  session.start(setup);
}

// Waits for the person's turn and plays their first legal action after `thinkMs`; false when the
// game ended first.
bool decideAfter(GameSession& session, int thinkMs) {
  if (!waitForPerson(session) || session.match().over()) return false;
  QTest::qWait(thinkMs);
  return session.act(session.legal().front());
}

// The short two-condition study with every page: a consent, two demographics questions (one of
// buttons, one a list of seven age bands), instructions and a debrief; six-round games.
StudyProtocol protocolWithPages() {
  Json document = shortProtocol().document;
  document["name"] = "with-pages";
  document["game"]["params"]["max_rounds"] = 6;
  document["consent"] = {
      {"text",
       "You will play two short games of Ludo against the computer and answer a few questions "
       "after each. It takes about ten minutes.\n\nYour answers are kept under a pseudonym; "
       "you may stop at any time without giving a reason."},
      {"agree", "I agree to take part"},
      {"decline", "I do not agree"}};
  document["demographics"] = Json::array(
      {{{"key", "age_band"},
        {"text", "How old are you?"},
        {"options",
         {"18-24", "25-34", "35-44", "45-54", "55-64", "65 or older", "rather not say"}}},
       {{"key", "gaming"},
        {"text", "How often do you play board or video games?"},
        {"options", {"never", "a few times a year", "a few times a month", "weekly or more"}}}});
  document["instructions"] =
      "Roll the die and move your pieces by clicking them. The computer plays the other colour. "
      "Press Pause whenever you need a break.";
  document["debrief"] =
      "Thank you. The study compares ways in which the computer steers the dice to make games "
      "more exciting; the two games you played used different ways.";
  return parseStudyProtocol(document, "with-pages.json");
}

fs::path folderOf(const QTemporaryDir& dir, const char* id) {
  return fs::path(dir.path().toStdString()) / id;
}

// Waits until `run` shows a page of type `Page` (null on a timeout or another page).
template <class Page>
Page* waitForPage(StudyRun& run) {
  QElapsedTimer clock;
  clock.start();
  while (!run.page() && !run.over() && clock.elapsed() < 60'000) QTest::qWait(1);
  auto* page = qobject_cast<Page*>(run.page());
  if (page && !QTest::qWaitForWindowExposed(page)) return nullptr;
  return page;
}

// Esc, the close box and Enter (no button is the default) leave `page` open and unanswered.
void verifyStaysOpen(StudyPage& page) {
  QTest::keyClick(&page, Qt::Key_Escape);
  page.close();
  QTest::keyClick(&page, Qt::Key_Return);
  QTest::qWait(10);
  QVERIFY(page.isVisible());
  QVERIFY(!page.answered());
}

// Every text of `page` is whole: the page lies within the 1024 x 700 window, and its labels and
// buttons show their text uncut.
void verifyReadable(QWidget& page) {
  QVERIFY2(page.width() <= 1024 && page.height() <= 700,
           qPrintable(QString("%1 x %2").arg(page.width()).arg(page.height())));
  for (const QLabel* label : page.findChildren<QLabel*>())
    if (label->isVisible() && !label->wordWrap())
      QVERIFY2(label->width() >= label->sizeHint().width(), qPrintable(label->text()));
  for (const QAbstractButton* b : page.findChildren<QAbstractButton*>())
    if (b->isVisible()) QVERIFY2(b->width() >= b->sizeHint().width(), qPrintable(b->text()));
}

// Goes through whatever `run` shows next until the session is over: agrees, answers the
// demographics, reads, plays by clicks and answers every questionnaire.
void completeByClicks(MainWindow& window, StudyRun& run, std::mt19937& random) {
  while (!run.over()) {
    QVERIFY(waitForTurnOrQuestions(window, run));
    StudyPage* page = run.page();
    if (!page) {
      playToQuestions(window, run, random);
    } else if (auto* q = qobject_cast<Questionnaire*>(page)) {
      QTRY_VERIFY(q->isVisible());
      answerByClicks(*q, run.session().protocol(), 0);
    } else {
      passPage(run);
    }
    if (QTest::currentTestFailed()) return;
    QTRY_VERIFY(run.page() != page);
  }
}

// A person's double click on `button`: press, release, press (a double click), release.
void doubleClick(QAbstractButton* button) {
  QTest::mousePress(button, Qt::LeftButton);
  QTest::mouseRelease(button, Qt::LeftButton);
  QTest::mouseDClick(button, Qt::LeftButton);
  QTest::mouseRelease(button, Qt::LeftButton);
}

// Closes every message box shown while it lives and keeps its text (the pages, dialogs too, are
// left alone).
class MessageBoxes : public QObject {
 public:
  MessageBoxes() { qApp->installEventFilter(this); }
  ~MessageBoxes() override { qApp->removeEventFilter(this); }
  QStringList seen;

 protected:
  bool eventFilter(QObject* object, QEvent* event) override {
    if (auto* box = qobject_cast<QMessageBox*>(object); box && event->type() == QEvent::Show) {
      seen << box->text();
      QTimer::singleShot(0, box, &QMessageBox::reject);
    }
    return false;
  }
};

// Shows `window` at 1024 x 700 and runs participant P01's session of `protocol` in `folder`.
StudyRun& openSession(MainWindow& window, const fs::path& folder, const StudyProtocol& protocol) {
  showOnASmallScreen(window);
  window.runStudy(StudySession::open(folder, protocol, "P01"));
  return *window.study();
}

Json readJson(const fs::path& file) {
  return Json::parse(std::ifstream(file));
}

// A protocol text that rich text would draw as something else: a coloured word, a link, a local
// picture, an entity and an '&' that a button would take for a mnemonic.
QString markup(const QString& where) {
  return where + R"( <font color="red">red</font> <a href="https://example.org">link</a> )" +
         R"(<img src="/etc/hosts"> &amp; R&D)";
}

// The short study with HTML in every text a participant reads: the consent and its buttons, the
// demographics' questions and options (buttons and a list), the instructions, the debrief, the
// items of its questionnaire with their ends, and an instrument's labels of every point.
StudyProtocol protocolWithMarkup() {
  Json document = protocolWithPages().document;
  const auto m = [](const char* where) { return markup(where).toStdString(); };
  document["consent"] = {{"text", m("consent")}, {"agree", m("agree")}, {"decline", m("decline")}};
  document["demographics"] = Json::array(
      {{{"key", "listed"},
        {"text", m("list question")},
        {"options", {m("l0"), m("l1"), m("l2"), m("l3"), m("l4"), m("l5"), m("l6")}}},
       {{"key", "buttons"}, {"text", m("button question")}, {"options", {m("b0"), m("b1")}}}});
  document["instructions"] = m("instructions");
  document["debrief"] = m("debrief");
  document["questionnaire"] = {
      {"items",
       {{{"key", "own"}, {"text", m("item")}, {"low", m("low")}, {"high", m("high")}},
        {{"key", "moved"}, {"text", m("slider")}, {"scale", "slider100"},
         {"low", m("none")}, {"high", m("all")}}}},
      {"comment", true}};
  document["instruments"] = Json::array({{{"format", "ddalab-instrument/1"},
                                          {"id", "marked"},
                                          {"name", "marked"},
                                          {"source",
                                           {{"authors", "a"},
                                            {"year", 2026},
                                            {"title", "t"},
                                            {"publisher", "p"}}},
                                          {"licence", {{"texts_included", true}, {"note", "n"}}},
                                          {"scale", "likert5"},
                                          {"from", 1},
                                          {"anchors", {m("p1"), m("p2"), m("p3"), m("p4"), m("p5")}},
                                          {"items", {{{"key", "pointed"}, {"text", m("pointed")}}}},
                                          {"reverse_scored", Json::array()},
                                          {"subscales", Json::array()}}});
  return parseStudyProtocol(document, "markup.json");
}

// What `page` shows, as a person reads it: every label is plain text (never rich text), and each
// of `texts` is shown literally by a label, a button (its '&' not a mnemonic), a list entry or a
// text browser.
void verifyShownLiterally(QWidget& page, const QStringList& texts) {
  QStringList shown;
  for (const QLabel* label : page.findChildren<QLabel*>()) {
    QVERIFY2(label->textFormat() == Qt::PlainText, qPrintable("rich text: " + label->text()));
    shown << label->text();
  }
  for (QAbstractButton* b : page.findChildren<QAbstractButton*>())
    shown << QAccessible::queryAccessibleInterface(b)->text(QAccessible::Name);
  for (const QComboBox* list : page.findChildren<QComboBox*>())
    for (int i = 0; i < list->count(); ++i) shown << list->itemText(i);
  for (const QTextBrowser* browser : page.findChildren<QTextBrowser*>()) {
    shown << browser->toPlainText();
    QVERIFY2(!browser->document()->toHtml().contains("<img"), "a picture in the text");
  }
  for (const QString& text : texts)
    QVERIFY2(shown.contains(text), qPrintable("not shown as written: " + text + "\nshown: " +
                                              shown.join(" | ")));
}

// The markup of `wheres` (markup("l0"), markup("l1"), ...).
QStringList markups(std::initializer_list<const char*> wheres) {
  QStringList texts;
  for (const char* where : wheres) texts << markup(where);
  return texts;
}

// The board and the live panel show nothing of a game: no board, no players, metrics, F or
// environment decision — only the heading.
void verifyBlankBoard(PlayMode& mode) {
  QVERIFY(mode.blank());
  QVERIFY(!mode.view() || !mode.view()->isVisible());
  for (const QTableWidget* t : mode.panel()->findChildren<QTableWidget*>())
    QVERIFY2(t->rowCount() == 0, qPrintable(QString("%1 rows").arg(t->rowCount())));
  for (const QString& text : visibleTexts())
    for (const char* told : {"drawn naturally", "steered", "F (", "fun score"})
      QVERIFY2(!text.contains(told), qPrintable("shown: " + text));
}

}  // namespace

class StudyPagesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // A participant goes through every page by clicks, as the protocol orders them: consent (Esc,
  // the close box and Enter do nothing; agree goes on), demographics (Submit only once both are
  // answered), instructions, the two games with their questionnaires, the debrief; the session is
  // then complete, and every page, decision and answer is kept with its timing. Nothing shown names
  // the condition or a seed.
  void participantGoesThroughEveryPage() {
    QTemporaryDir dir;
    const StudyProtocol protocol = protocolWithPages();
    MainWindow window;
    StudyRun& run = openSession(window, folderOf(dir, "P01"), protocol);
    PlayMode& mode = *window.playMode();
    bool completed = false;
    connect(&run, &StudyRun::completed, this, [&] { completed = true; });

    auto* consent = waitForPage<ConsentPage>(run);
    QVERIFY(consent);
    QCOMPARE(mode.panel()->headingText(), QString("Welcome"));
    QVERIFY(consent->findChild<QTextBrowser*>()->toPlainText().startsWith("You will play two"));
    QCOMPARE(consent->agreeButton()->text(), QString("I agree to take part"));
    QCOMPARE(consent->declineButton()->text(), QString("I do not agree"));
    verifyStaysOpen(*consent);
    verifyReadable(*consent);
    verifyNothingRevealsTheCondition(protocol, run.session());
    verifyNothingButTheGameAnswers(window);
    if (QTest::currentTestFailed()) return;
    screenshot(*consent, "study-consent.png");
    QTest::qWait(30);  // a participant reads
    QTest::mouseClick(consent->agreeButton(), Qt::LeftButton);

    auto* demographics = waitForPage<DemographicsPage>(run);
    QVERIFY(demographics);
    QVERIFY(demographics->list(0));       // seven age bands: a list
    QVERIFY(demographics->option(1, 3));  // four frequencies: buttons
    verifyStaysOpen(*demographics);
    verifyReadable(*demographics);
    if (QTest::currentTestFailed()) return;
    std::vector<std::string> chosen;
    answerDemographics(*demographics, protocol.pages.demographics, &chosen);
    if (QTest::currentTestFailed()) return;
    screenshot(*demographics, "study-demographics.png");
    QTest::mouseClick(demographics->submit(), Qt::LeftButton);

    auto* instructions = waitForPage<TextPage>(run);
    QVERIFY(instructions);
    QCOMPARE(instructions->goOn()->text(), QString("Start the first game"));
    QVERIFY(!mode.session()->started() || !mode.studyGame());  // no game before it is read
    verifyStaysOpen(*instructions);
    verifyReadable(*instructions);
    if (QTest::currentTestFailed()) return;
    screenshot(*instructions, "study-instructions.png");
    QTest::mouseClick(instructions->goOn(), Qt::LeftButton);

    mode.session()->setDelay(0);
    std::mt19937 random(38);
    for (int game = 0; game < 2; ++game) {
      QVERIFY(waitForTurnOrQuestions(window, run));
      QVERIFY(!run.page());
      QVERIFY(mode.panel()->headingText().startsWith(QString("Game %1 of 2").arg(game + 1)));
      playToQuestions(window, run, random);
      if (QTest::currentTestFailed()) return;
      Questionnaire* q = run.questionnaire();
      QTRY_VERIFY(q && q->isVisible());
      verifyStaysOpen(*q);
      QTest::qWait(20);
      answerByClicks(*q, protocol, game);
      if (QTest::currentTestFailed()) return;
    }

    auto* debrief = waitForPage<TextPage>(run);
    QVERIFY(debrief);
    QCOMPARE(debrief->goOn()->text(), QString("Finish"));
    QVERIFY(!run.over() && !completed);
    verifyStaysOpen(*debrief);
    verifyReadable(*debrief);
    verifyNothingRevealsTheCondition(protocol, run.session());
    if (QTest::currentTestFailed()) return;
    screenshot(*debrief, "study-debrief.png");
    QTest::mouseClick(debrief->goOn(), Qt::LeftButton);
    QTRY_VERIFY(completed);
    QCOMPARE(run.session().step(), SessionStep::Complete);
    QCOMPARE(mode.panel()->headingText(), QString("The session is complete — thank you"));
    QVERIFY(window.lockedForStudy());  // until the researcher ends it
    endAsTheResearcher(window);

    // What the folder keeps, read back by the library.
    const StudySession kept = StudySession::read(folderOf(dir, "P01"));
    QCOMPARE(kept.step(), SessionStep::Complete);
    QVERIFY(kept.consent() && kept.consent()->responseMs >= 30);
    QVERIFY(kept.demographics());
    QVERIFY(kept.demographics()->values == chosen);
    for (const char* file :
         {"consent.json", "demographics.json", "instructions.json", "debrief.json"})
      QVERIFY2(fs::exists(folderOf(dir, "P01") / file), file);
    for (const SessionGame& game : kept.games()) {
      QVERIFY(!game.decisions.empty());
      int64_t lastRound = 0;
      for (const DecisionTiming& d : game.decisions) {
        QCOMPARE(d.seat, 0);
        QVERIFY(d.timing.responseMs >= 0);
        QVERIFY(d.round >= lastRound);
        lastRound = d.round;
      }
      QVERIFY(game.answers && game.answers->timing);
      const ResponseTiming& t = *game.answers->timing;
      QVERIFY2(t.responseMs >= 20, qPrintable(QString::number(t.responseMs)));
      QCOMPARE(game.answers->itemMs.size(), protocol.items.size());
      for (const int64_t ms : game.answers->itemMs) QVERIFY(ms >= 0 && ms <= t.responseMs);
      // Answered in order: each item's last change comes after the one before.
      QVERIFY(std::is_sorted(game.answers->itemMs.begin(), game.answers->itemMs.end()));
    }
  }

  // Every text of a protocol is shown as written (Qt::PlainText): HTML in the consent, its
  // buttons, the demographics, the instructions, the debrief, the items, their ends and an
  // instrument's point labels is neither drawn nor followed (no link, no local picture loaded).
  void protocolTextsAreShownAsPlainText() {
    QTemporaryDir dir;
    const StudyProtocol protocol = protocolWithMarkup();
    MainWindow window;
    StudyRun& run = openSession(window, folderOf(dir, "P01"), protocol);
    auto* consent = waitForPage<ConsentPage>(run);
    QVERIFY(consent);
    verifyShownLiterally(*consent, markups({"consent", "agree", "decline"}));
    if (QTest::currentTestFailed()) return;
    screenshot(*consent, "gui-b-plain-consent.png");
    QTest::mouseClick(consent->agreeButton(), Qt::LeftButton);
    auto* demographics = waitForPage<DemographicsPage>(run);
    QVERIFY(demographics);
    verifyShownLiterally(*demographics, markups({"list question", "button question", "l0", "l6",
                                                 "b0", "b1"}));
    if (QTest::currentTestFailed()) return;
    screenshot(*demographics, "gui-b-plain-demographics.png");
    answerDemographics(*demographics, protocol.pages.demographics);
    QTest::mouseClick(demographics->submit(), Qt::LeftButton);
    auto* instructions = waitForPage<TextPage>(run);
    QVERIFY(instructions);
    verifyShownLiterally(*instructions, markups({"instructions"}));
    if (QTest::currentTestFailed()) return;
    // The questionnaire and the debrief as the run shows them after a game.
    Questionnaire q(protocol, "Game 1 of 2", &window);
    q.show();
    QVERIFY(QTest::qWaitForWindowExposed(&q));
    verifyShownLiterally(q, markups({"item", "low", "high", "slider", "none", "all", "pointed",
                                     "p1", "p3", "p5"}));
    if (QTest::currentTestFailed()) return;
    screenshot(q, "gui-b-plain-questionnaire.png");
    TextPage debrief("About this study", "Thank you for taking part",
                     QString::fromStdString(protocol.pages.debrief), "Finish", &window);
    debrief.show();
    verifyShownLiterally(debrief, markups({"debrief"}));
    // A refusal of the Run study dialog may quote a protocol's text: plain too.
    QCOMPARE(StartStudyDialog().problem()->textFormat(), Qt::PlainText);
  }

  // A protocol without a debrief: once the last questionnaire is submitted the window stays the
  // participant's — menus hidden, every key but the researcher's dead, the close box refused, the
  // board and the panel blank (nothing of the last game's F, metrics or environment) — until the
  // researcher presses StudyRun::endKeys(). Then File → Run study… → Cancel still shows nothing of
  // the study's games, the next participant's consent opens over a blank board, a minimised page
  // comes back with its window, and the sessions list numbers the participants as
  // allocation.jsonl does (from 0).
  void studyStaysLockedUntilTheResearcherEndsIt() {
    QTemporaryDir dir;
    Json document = protocolWithPages().document;
    document.erase("debrief");
    const StudyProtocol protocol = parseStudyProtocol(document, "no-debrief.json");
    MainWindow window;
    StudyRun& run = openSession(window, folderOf(dir, "P01"), protocol);
    PlayMode& mode = *window.playMode();
    auto* consent = waitForPage<ConsentPage>(run);
    QVERIFY(consent);
    QVERIFY(!(consent->windowFlags() & Qt::WindowMinimizeButtonHint));
    consent->setWindowState(Qt::WindowMinimized);  // a window manager's minimise
    QTRY_VERIFY(!consent->isMinimized() && consent->isVisible() && !window.isMinimized());
    mode.session()->setDelay(0);
    std::mt19937 random(49);
    completeByClicks(window, run, random);
    if (QTest::currentTestFailed()) return;
    QVERIFY(run.session().complete());
    verifyNothingButTheGameAnswers(window);
    verifyBlankBoard(mode);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(mode.panel()->headingText(), QString("The session is complete — thank you"));
    screenshot(window, "gui-b-study-over-locked.png");
    {
      DialogScript none({});
      QVERIFY(!window.close());  // the close box: nothing happens, nothing is asked
      QVERIFY(none.seen.isEmpty());
    }
    QVERIFY(window.isVisible() && window.study() == &run && window.lockedForStudy());

    endAsTheResearcher(window);
    if (QTest::currentTestFailed()) return;
    QVERIFY(window.menuBar()->isVisible());
    verifyBlankBoard(mode);
    QAction* runStudy = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == "Run study…") runStudy = a;
    QVERIFY(runStudy);
    {
      DialogScript cancel({[](QDialog* d) { d->reject(); }});
      runStudy->trigger();
      QCOMPARE(cancel.seen, QStringList{"Run a study session"});
    }
    verifyBlankBoard(mode);
    if (QTest::currentTestFailed()) return;
    screenshot(window, "gui-b-study-ended-by-researcher.png");

    window.runStudy(StudySession::open(folderOf(dir, "P02"), protocol, "P02"));
    auto* next = waitForPage<ConsentPage>(*window.study());
    QVERIFY(next);
    verifyBlankBoard(mode);
    QCOMPARE(mode.panel()->headingText(), QString("Welcome"));
    screenshot(window, "gui-b-study-next-participant.png");

    SessionsDialog sessions(dir.path());
    QCOMPARE(sessions.table()->rowCount(), 2);
    for (const Allocation& a : readAllocations(dir.path().toStdString()))
      for (int r = 0; r < 2; ++r)
        if (sessions.table()->item(r, SessionsDialog::Participant)->text().toStdString() ==
            a.participant)
          QCOMPARE(sessions.table()->item(r, SessionsDialog::Number)->text(),
                   QString::number(a.ordinal));
    QCOMPARE(sessions.table()->item(0, SessionsDialog::Number)->text(), QString("0"));
  }

  // Declining consent asks nothing more: the board says the session has ended, no game starts,
  // the window is the researcher's again, and consent.json records the refusal; resumed, the
  // session stays ended.
  void decliningConsentEndsTheSession() {
    QTemporaryDir dir;
    const StudyProtocol protocol = protocolWithPages();
    MainWindow window;
    StudyRun& run = openSession(window, folderOf(dir, "P01"), protocol);
    bool ended = false;
    connect(&run, &StudyRun::ended, this, [&] { ended = true; });
    auto* consent = waitForPage<ConsentPage>(run);
    QVERIFY(consent);
    QTest::mouseClick(consent->declineButton(), Qt::LeftButton);
    QTRY_VERIFY(ended);
    QTest::qWait(50);
    QVERIFY(!run.page());
    QCOMPARE(window.playMode()->panel()->headingText(),
             QString("Thank you, the session has ended"));
    QVERIFY(!window.playMode()->studyGame());
    QVERIFY(window.lockedForStudy());  // until the researcher ends it
    endAsTheResearcher(window);
    const StudySession kept = StudySession::read(folderOf(dir, "P01"));
    QCOMPARE(kept.step(), SessionStep::Declined);
    QVERIFY(kept.consent());
    QVERIFY(!kept.dropoutReason().empty());
    const std::string consentFile = readJson(folderOf(dir, "P01") / "consent.json").dump();
    QVERIFY2(consentFile.find("declin") != std::string::npos ||
                 consentFile.find("false") != std::string::npos,
             consentFile.c_str());
    // Opened again: nothing is asked.
    MainWindow again;
    again.runStudy(StudySession::open(folderOf(dir, "P01"), protocol, "P01"));
    QTest::qWait(50);
    QVERIFY(!again.study()->page());
    QCOMPARE(again.playMode()->panel()->headingText(), QString("Thank you, the session has ended"));
  }

  // A careless participant: a double click on agree, on Submit and on the questionnaire's Submit
  // answers each once (no error, nothing skipped); the window destroyed on the instructions page
  // (closed, crashed) resumes at the instructions, and destroyed with the questionnaire open
  // resumes at that questionnaire.
  void carelessParticipantLosesNothing() {
    QTemporaryDir dir;
    const StudyProtocol protocol = protocolWithPages();
    const fs::path folder = folderOf(dir, "P01");
    MessageBoxes errors;  // "could not be kept" would be one
    {
      MainWindow window;
      StudyRun& run = openSession(window, folder, protocol);
      auto* consent = waitForPage<ConsentPage>(run);
      QVERIFY(consent);
      doubleClick(consent->agreeButton());
      QTest::mouseClick(consent->declineButton(), Qt::LeftButton);  // too late: agreed
      auto* demographics = waitForPage<DemographicsPage>(run);
      QVERIFY(demographics);
      answerDemographics(*demographics, protocol.pages.demographics);
      if (QTest::currentTestFailed()) return;
      doubleClick(demographics->submit());
      QVERIFY(waitForPage<TextPage>(run));
      QCOMPARE(run.session().step(), SessionStep::Instructions);
    }  // gone on the instructions page
    QCOMPARE(StudySession::read(folder).step(), SessionStep::Instructions);
    std::mt19937 random(4);
    {
      MainWindow window;
      StudyRun& run = openSession(window, folder, protocol);
      auto* instructions = waitForPage<TextPage>(run);
      QVERIFY(instructions);
      QCOMPARE(instructions->goOn()->text(), QString("Start the first game"));
      doubleClick(instructions->goOn());
      window.playMode()->session()->setDelay(0);
      playToQuestions(window, run, random);
      if (QTest::currentTestFailed()) return;
      QTRY_VERIFY(run.questionnaire() && run.questionnaire()->isVisible());
    }  // gone with the questionnaire open
    QCOMPARE(StudySession::read(folder).step(), SessionStep::Questionnaire);
    {
      MainWindow window;
      StudyRun& run = openSession(window, folder, protocol);
      auto* q = waitForPage<Questionnaire>(run);
      QVERIFY(q);
      answerByClicks(*q, protocol, 0);  // its Submit clicked once ...
      if (QTest::currentTestFailed()) return;
      doubleClick(q->submit());  // ... and twice more
      QTRY_VERIFY(run.session().answered() == 1);
      QTest::qWait(50);
      QCOMPARE(run.session().step(), SessionStep::Game);
    }
    QCOMPARE(StudySession::read(folder).answered(), size_t{1});
    QVERIFY2(errors.seen.isEmpty(), qPrintable(errors.seen.join(", ")));
  }

  // The researcher's side: an id left empty or made by New id is a generated pseudonym, one typed
  // is the researcher's; the sessions list says where each session stands; Mark as dropped out
  // (confirmed) is offered for a session in progress only, and the next participant then takes
  // the row the one who left had.
  void researcherMarksADropoutAndTheRowIsReused() {
    QTemporaryDir dir;
    const QString protocolFile = dir.filePath("with-pages.json");
    std::ofstream(protocolFile.toStdString()) << protocolWithPages().document.dump(2);
    const auto start = [&](const QString& typed, bool newId) {
      StartStudyDialog dialog;
      dialog.setProtocol(protocolFile);
      dialog.setStudyFolder(dir.path());
      if (newId) QTest::mouseClick(dialog.newIdButton(), Qt::LeftButton);
      QTest::keyClicks(dialog.participantField(), typed);
      QTest::mouseClick(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                        Qt::LeftButton);
      if (!dialog.session()) qWarning() << dialog.problem()->text();
      return dialog.session();
    };
    const std::optional<StudySession> typed = start("P01", false);
    QVERIFY(typed);
    QCOMPARE(typed->idOrigin(), StudySession::IdOrigin::Given);
    const std::optional<StudySession> made = start("", true);
    QVERIFY(made);
    QCOMPARE(made->idOrigin(), StudySession::IdOrigin::Generated);
    QVERIFY2(QString::fromStdString(made->participant())
                 .contains(QRegularExpression("^p-[0-9a-z]{12}$")),
             made->participant().c_str());
    // P01 completes; the generated participant leaves after the consent.
    std::mt19937 random(6);
    {
      MainWindow window;
      showOnASmallScreen(window);
      window.runStudy(*typed);
      window.playMode()->session()->setDelay(0);
      completeByClicks(window, *window.study(), random);
      if (QTest::currentTestFailed()) return;
    }
    SessionsDialog sessions(dir.path());
    sessions.show();
    QCOMPARE(sessions.table()->rowCount(), 2);
    const auto rowOf = [&](const std::string& id) {
      for (int r = 0; r < sessions.table()->rowCount(); ++r)
        if (sessions.table()->item(r, SessionsDialog::Participant)->text().toStdString() == id)
          return r;
      return -1;
    };
    const auto status = [&](const std::string& id) {
      return sessions.table()->item(rowOf(id), SessionsDialog::Status)->text();
    };
    QCOMPARE(status("P01"), QString("complete"));
    QCOMPARE(status(made->participant()), QString("0 of 2 answered"));
    sessions.table()->selectRow(rowOf("P01"));
    QVERIFY(!sessions.markDroppedOutButton()->isEnabled());  // complete: cannot be marked
    {
      MessageBoxes asked;  // a confirmation would be answered Cancel, and seen
      sessions.markDroppedOut();
      QVERIFY(asked.seen.isEmpty());
    }
    QCOMPARE(status("P01"), QString("complete"));
    sessions.table()->selectRow(rowOf(made->participant()));
    QVERIFY(sessions.markDroppedOutButton()->isEnabled());
    {
      DialogScript cancel({press("Cancel")});
      QTest::mouseClick(sessions.markDroppedOutButton(), Qt::LeftButton);
      QCOMPARE(cancel.seen.size(), 1);
    }
    QCOMPARE(status(made->participant()), QString("0 of 2 answered"));
    {
      DialogScript confirm({press("Yes")});
      QTest::mouseClick(sessions.markDroppedOutButton(), Qt::LeftButton);
      QVERIFY2(confirm.seen.size() == 1 && confirm.seen[0].contains("dropped out"),
               qPrintable(confirm.seen.join(", ")));
    }
    QCOMPARE(status(made->participant()), QString("dropped out: withdrawn"));
    QVERIFY(!sessions.markDroppedOutButton()->isEnabled());
    screenshot(sessions, "study-sessions-status.png");
    // The next participant takes the row of the one who left (the other is used by P01).
    const std::optional<StudySession> next = start("P03", false);
    QVERIFY(next);
    QCOMPARE(next->row(), StudySession::read(folderOf(dir, made->participant().c_str())).row());
    QVERIFY(next->row() != typed->row());
  }

  // Each of a person's decisions is kept with its round, seat, action and timing: the response
  // time is at least what they took, both times are UTC timestamps, and they pass the library's
  // own check; an illegal click records nothing; a new game starts with none.
  void personDecisionsAreTimed() {
    GameSession session;
    startPersonGame(session, 7);
    std::vector<int> rounds;
    for (int d = 0; d < 4; ++d) {
      QVERIFY(waitForPerson(session));
      rounds.push_back(session.match().tracker().rounds());
      QVERIFY(!session.act(-12345));  // not legal: nothing changes, nothing recorded
      QCOMPARE(session.personDecisions().size(), static_cast<size_t>(d));
      QVERIFY(decideAfter(session, 40));
    }
    const std::vector<DecisionTiming>& decisions = session.personDecisions();
    QCOMPARE(decisions.size(), size_t{4});
    for (size_t d = 0; d < decisions.size(); ++d) {
      QCOMPARE(decisions[d].seat, 0);
      QCOMPARE(decisions[d].round, rounds[d]);
      QVERIFY2(decisions[d].timing.responseMs >= 40,
               qPrintable(QString::number(decisions[d].timing.responseMs)));
      QVERIFY(decisions[d].timing.responseMs < 5'000);
      const DecisionTiming back = parseDecision(decisionJson(decisions[d]), "test");
      QCOMPARE(back.timing.shownAt, decisions[d].timing.shownAt);
      QVERIFY(back.timing.answeredAt >= back.timing.shownAt);
    }
    // The trace has the decision's action in its round, made by the person's seat.
    const Json trace = session.traceLine();
    const Json& round = trace.at("rounds").at(static_cast<size_t>(decisions[0].round));
    bool found = false;
    for (const Json& a : round.at("actions"))
      found = found || (a.at("by") == "player" && a.at("id") == decisions[0].action);
    QVERIFY(found);
    startPersonGame(session, 8);
    QVERIFY(session.personDecisions().empty());
  }

  // Under a study's fixed pace the person's turn begins when the held decision before it is shown,
  // not when the AI began deciding it: a person who moves at once has a short response time
  // although every AI and environment decision before took the pace (300 ms).
  void decisionClockStartsWhenTheBoardShowsTheTurn() {
    GameSession session;
    session.setFixedPace(true);
    startPersonGame(session, 5);
    session.setDelay(300);
    for (int d = 0; d < 3; ++d) QVERIFY(decideAfter(session, 0));
    QCOMPARE(session.personDecisions().size(), size_t{3});
    for (const DecisionTiming& d : std::span(session.personDecisions()).subspan(1))
      QVERIFY2(d.timing.responseMs < 150, qPrintable(QString::number(d.timing.responseMs)));
  }

  // A pause while it is the person's turn does not count in the decision's response time (it
  // does in answered_at - shown_at): paused 400 ms of a 450 ms turn, the response time is under
  // 300 ms.
  void pauseDoesNotCountInADecisionsTime() {
    GameSession session;
    startPersonGame(session, 3);
    QVERIFY(waitForPerson(session));
    session.setPaused(true);
    QTest::qWait(400);
    session.setPaused(false);
    QVERIFY(decideAfter(session, 50));
    // Paused again across the act itself: what is paused up to the act is left out too.
    QVERIFY(waitForPerson(session));
    QTest::qWait(20);
    session.setPaused(true);
    QTest::qWait(300);
    QVERIFY(session.act(session.legal().front()));
    session.setPaused(false);
    const std::vector<DecisionTiming>& decisions = session.personDecisions();
    QCOMPARE(decisions.size(), size_t{2});
    for (const DecisionTiming& d : decisions) {
      QVERIFY2(d.timing.responseMs < 250, qPrintable(QString::number(d.timing.responseMs)));
      QVERIFY(d.timing.answeredAt > d.timing.shownAt);
    }
    QVERIFY(decisions[0].timing.responseMs >= 50);
  }
};

QTEST_MAIN(StudyPagesTest)
#include "test_study_pages.moc"
