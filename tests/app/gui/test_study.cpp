// ddalab-gui, user studies, driven as a participant and a researcher drive it: a
// participant plays a two-condition study by clicking the board's own hit areas and the
// questionnaire's buttons, with the conditions hidden; a session cut off (the window destroyed
// mid-game, or between a game and its questionnaire) resumes without losing a submitted answer;
// the analysis view shows the library's numbers; a game of the game mode is saved and replayed.
// With DDALAB_SCREENSHOTS=DIR the tests also save the pictures of the README's walk-through.
#include <QAbstractButton>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <fstream>
#include <random>
#include <set>

#include "app/gui/charts/sweep_charts.h"
#include "app/gui/main_window.h"
#include "app/gui/play/live_panel.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/study/questionnaire.h"
#include "app/gui/study/study_analysis_view.h"
#include "app/gui/study/study_dialogs.h"
#include "app/gui/study/study_run.h"
#include "studies/analysis.h"
#include "studies/simulate.h"
#include "tests/app/gui/study_support.h"

using namespace ddalab;
using namespace ddalab::gui;
namespace fs = std::filesystem;

class StudyTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // A participant plays both games by clicks, the condition never shown, and answers each
  // questionnaire by clicks; every game and answer is in the session folder.
  void participantCompletesTwoConditionsByClicks() {
    QTemporaryDir dir;
    const StudyProtocol protocol = shortProtocol();
    MainWindow window;
    showOnASmallScreen(window);
    window.runStudy(
        StudySession::open(fs::path(dir.path().toStdString()) / "P01", protocol, "P01"));
    StudyRun& run = *window.study();
    PlayMode& mode = *window.playMode();
    mode.session()->setDelay(0);
    QVERIFY(mode.studyMode());
    std::mt19937 random(5);
    for (int game = 0; game < 2; ++game) {
      QVERIFY(waitForTurnOrQuestions(window, run));
      const QString heading = mode.panel()->headingText();
      QVERIFY2(heading.startsWith(QString("Game %1 of 2").arg(game + 1)), qPrintable(heading));
      for (const auto& condition : protocol.conditions)  // the condition stays hidden
        QVERIFY(!heading.contains(
            QString::fromStdString(condition.environment.at("id").get<std::string>())));
      playToQuestions(window, run, random);
      if (QTest::currentTestFailed()) return;
      Questionnaire* q = run.questionnaire();
      QVERIFY(q);
      QTRY_VERIFY(q->isVisible());
      QTest::keyClick(q, Qt::Key_Escape);  // Esc: the questionnaire stays
      QVERIFY(q->isVisible());
      answerByClicks(*q, protocol, game);
      if (QTest::currentTestFailed()) return;
    }
    QTRY_VERIFY(run.session().complete());
    const StudySession kept = StudySession::read(fs::path(dir.path().toStdString()) / "P01");
    QCOMPARE(kept.answered(), size_t{2});
    QCOMPARE(kept.games()[1].answers->comment, std::string("game 2"));
    QCOMPARE(kept.games()[0].answers->values[0], 3.0);
    // The trace (kept in game-01.json, not in memory) says who played: seat 0 a person.
    const Json game =
        Json::parse(std::ifstream(fs::path(dir.path().toStdString()) / "P01/game-01.json"));
    QVERIFY(game.at("trace").at("people") == Json({true, false}));
    QVERIFY(fs::exists(fs::path(dir.path().toStdString()) / "P01/answers.csv"));
  }

  // A participant reaches nothing but the board, the questionnaire and the pause: no menu, no
  // action or shortcut (Game settings showed the condition, Ctrl+1 left the study), no text that
  // names the condition or the seed, the AI pace fixed whatever the researcher's slider said;
  // after the session the next game is the researcher's, with neither the study's seed nor its
  // settings.
  void participantCannotReachTheCondition() {
    QTemporaryDir dir;
    const StudyProtocol protocol = secretProtocol();
    MainWindow window;
    showOnASmallScreen(window);
    PlayMode& mode = *window.playMode();
    window.showGameMode();  // the researcher's own game at their pace: the fastest
    auto* pace = mode.findChild<QSlider*>();
    pace->setValue(0);
    window.runStudy(
        StudySession::open(fs::path(dir.path().toStdString()) / "P01", protocol, "P01"));
    StudyRun& run = *window.study();
    QCOMPARE(mode.session()->delay(), PlayMode::kStudyPaceMs);
    QVERIFY(!pace->isVisible());
    bool pauseShown = false;  // the participant's one control besides the board
    for (QPushButton* b : mode.findChildren<QPushButton*>())
      pauseShown = pauseShown || (b->text() == "Pause" && b->isVisible());
    QVERIFY(pauseShown);
    QVERIFY(waitForTurnOrQuestions(window, run));
    verifyNothingButTheGameAnswers(window);
    verifyNothingRevealsTheCondition(protocol, run.session());
    if (QTest::currentTestFailed()) return;
    mode.session()->setDelay(0);  // the test plays fast
    std::mt19937 random(3);
    for (int game = 0; game < 2; ++game) {
      playToQuestions(window, run, random);
      if (QTest::currentTestFailed()) return;
      QTRY_VERIFY(run.questionnaire() && run.questionnaire()->isVisible());
      verifyNothingButTheGameAnswers(window);
      verifyNothingRevealsTheCondition(protocol, run.session());
      if (QTest::currentTestFailed()) return;
      answerByClicks(*run.questionnaire(), protocol, game);
      if (QTest::currentTestFailed()) return;
    }
    QTRY_VERIFY(run.session().complete());
    verifyNothingRevealsTheCondition(protocol, run.session());  // the last board stays blind
    QCOMPARE(mode.panel()->headingText(), QString("The session is complete — thank you"));
    std::set<uint64_t> studySeeds;
    for (const PlannedGame& game : run.session().plan()) studySeeds.insert(game.seed);
    // The researcher's again: New game is a default game of a new seed at their pace.
    QVERIFY(window.lockedForStudy());  // until the researcher ends it
    endAsTheResearcher(window);
    QVERIFY(window.menuBar()->isVisible());
    QAction* newGame = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == "New game") newGame = a;
    QVERIFY(newGame && newGame->isVisible() && newGame->isEnabled());
    newGame->trigger();
    QVERIFY(!window.study());
    QVERIFY(pace->isVisible());
    QCOMPARE(mode.session()->delay(), 0);
    QVERIFY(!studySeeds.count(mode.session()->setup().seed));
    const Json& played = mode.session()->setup().experiment;
    QVERIFY2(played == PlayMode::defaultSetup("ludo", 1).experiment,
             qPrintable(QString::fromStdString(played.dump())));
  }

  // The window is destroyed in the middle of game 2 (a crash, a closed laptop): the answers of
  // game 1 are kept and the session resumes at game 2; destroyed again between game 2 and its
  // questionnaire, it resumes at that questionnaire.
  void killedSessionResumesWithoutLosingAnswers() {
    QTemporaryDir dir;
    const StudyProtocol protocol = shortProtocol();
    const fs::path folder = fs::path(dir.path().toStdString()) / "P02";
    std::mt19937 random(9);
    {
      MainWindow window;
      window.show();
      window.runStudy(StudySession::open(folder, protocol, "P02"));
      window.playMode()->session()->setDelay(0);
      playToQuestions(window, *window.study(), random);
      if (QTest::currentTestFailed()) return;
      answerByClicks(*window.study()->questionnaire(), protocol, 0);
      QVERIFY(waitForTurnOrQuestions(window, *window.study()));
      clickAMove(*window.playMode()->view(), *window.playMode()->session(), random);
    }  // gone, game 2 half played
    QCOMPARE(StudySession::read(folder).answered(), size_t{1});
    {
      MainWindow window;
      window.show();
      window.runStudy(StudySession::open(folder, protocol, "P02"));
      QCOMPARE(window.study()->session().answered(), size_t{1});
      window.playMode()->session()->setDelay(0);
      QVERIFY(waitForTurnOrQuestions(window, *window.study()));
      QVERIFY(window.playMode()->panel()->headingText().startsWith("Game 2 of 2"));
      playToQuestions(window, *window.study(), random);
    }  // gone between the game and its questionnaire: the game is kept
    QCOMPARE(StudySession::read(folder).games().size(), size_t{2});
    MainWindow window;
    window.show();
    window.runStudy(StudySession::open(folder, protocol, "P02"));
    QTRY_VERIFY(window.study()->questionnaire());
    answerByClicks(*window.study()->questionnaire(), protocol, 1);
    QTRY_VERIFY(window.study()->session().complete());
    QCOMPARE(StudySession::read(folder).answered(), size_t{2});
  }

  // The analysis view shows the library's analysis: a chart per item, the comparisons, the heat
  // map of the metrics against the items and the fitted coefficients.
  void analysisViewShowsTheLibrarysNumbers() {
    QTemporaryDir dir;
    const StudyProtocol protocol = parseStudyProtocol(
        Json::parse(std::ifstream(DDALAB_SOURCE_DIR "/studies/protocols/user-study-ludo.json")),
        "user-study-ludo.json");
    StudySimulation simulation;
    simulation.participants = 6;
    simulation.effects = parsePlantedEffects("enjoyment:e-hillclimber=1", protocol, "--effect");
    simulateStudy(protocol, dir.path().toStdString(), simulation);
    const std::vector<fs::path> folders = {dir.path().toStdString()};
    const StudyAnalysis analysis = analyzeStudy(readStudySessions(folders));
    StudyAnalysisView view(analysis);
    view.resize(1024, 700);
    view.show();
    QCOMPARE(view.tabs()->count(), 5);
    QVERIFY(view.findChild<QWidget*>("chart_enjoyment"));
    // The mixed model's contrasts, one row each, with the library's estimate and df.
    const auto* mixed = view.findChild<QTableWidget*>("mixedTable");
    QVERIFY(mixed);
    QCOMPARE(mixed->rowCount(), static_cast<int>(analysis.mixedComparisons.size()));
    QVERIFY(mixed->rowCount() > 0);
    const auto& first = analysis.mixedComparisons.front();
    QCOMPARE(mixed->item(0, 3)->text(), QString::number(first.contrast.estimate, 'f', 2));
    QCOMPARE(mixed->item(0, 7)->text(), QString::number(first.contrast.df, 'f', 1));
    QCOMPARE(mixed->item(0, 10)->text(), QString("exploratory"));
    view.tabs()->setCurrentIndex(2);
    QTest::qWait(50);
    bool cellSaysItsValue = false;  // hovering a cell tells its rho and interval
    for (int x = 0; x < view.heatMap()->width(); x += 8)
      for (int y = 0; y < view.heatMap()->height(); y += 8)
        cellSaysItsValue = cellSaysItsValue || !view.heatMap()->cellText({x, y}).isEmpty();
    QVERIFY(cellSaysItsValue);
    view.tabs()->setCurrentIndex(0);
    const QString coefficients = view.findChild<QPlainTextEdit*>()->toPlainText();
    QVERIFY(coefficients.contains(QString::fromStdString(analysis.coefficients.dump(2))));
    // Beside them the fit's verdict (nested CV against the constant model), and "UNRELIABLE"
    // exactly when the fit did not beat the constant.
    bool verdictShown = false, unreliableShown = false;
    for (const QLabel* label : view.findChildren<QLabel*>()) {
      verdictShown =
          verdictShown || label->text().contains(QString::fromStdString(analysis.fitVerdict));
      unreliableShown = unreliableShown || label->text().contains("UNRELIABLE");
    }
    QVERIFY(!analysis.fitVerdict.empty());
    QVERIFY(verdictShown);
    QCOMPARE(unreliableShown, !analysis.fitReliable);
    // The participants' flow and every note are shown, wrapped: the dialog stays 1024 wide.
    bool flowShown = false;
    for (const QLabel* label : view.findChildren<QLabel*>())
      flowShown = flowShown || label->text() ==
                                   "Participants: 6 sessions: 6 complete; analysed: "
                                   "the 6 with an answered game";
    QVERIFY(flowShown);
    QVERIFY2(view.width() <= 1024, qPrintable(QString::number(view.width())));
    screenshot(view, "study-analysis.png");
    view.tabs()->setCurrentIndex(2);
    screenshot(view, "study-correlations.png");
  }

  // The README's walk-through: three participants play the shipped Ludo protocol by clicks, each
  // started from the Run study dialog (typed id, Start clicked), the condition never shown; the
  // researcher's list shows the three sessions complete. DDALAB_WALKTHROUGH=DIR keeps the study
  // folder (scripts/study-walkthrough.sh analyses it); DDALAB_SCREENSHOTS=DIR takes the pictures.
  // The shipped iGEQ study: refused as shipped (the GEQ's texts are not), run by clicks once its
  // instrument is a copy with the texts filled in; its 22-item questionnaire fits a 1024 x 700
  // window, scrolls to every item, keeps Submit in view, and its answers are kept.
  void participantAnswersTheIgeqStudyByClicks() {
    QTemporaryDir temp;
    const fs::path dir = temp.path().toStdString();
    const QString shipped = DDALAB_SOURCE_DIR "/studies/protocols/user-study-ludo-igeq.json";
    MainWindow window;
    showOnASmallScreen(window);
    StartStudyDialog refused(&window);
    refused.setProtocol(shipped);
    refused.setStudyFolder(temp.path());
    QTest::keyClicks(refused.participantField(), "P00");
    QTest::mouseClick(refused.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QVERIFY(!refused.session());
    QVERIFY2(refused.problem()->text().contains("have no text"),
             qPrintable(refused.problem()->text()));
    Json igeq = builtinInstrument("igeq", "test");
    for (Json& item : igeq["items"])
      item["text"] = "Item " + item["key"].get<std::string>() + " as the GEQ report words it";
    std::ofstream(dir / "igeq-filled.json") << igeq.dump(2);
    Json document = Json::parse(std::ifstream(shipped.toStdString()));
    document["instruments"][0] = "igeq-filled.json";
    document["game"]["params"]["max_rounds"] = 12;  // a short game: the questionnaire is the test
    std::ofstream(dir / "igeq-study.json") << document.dump(2);
    const StudyProtocol protocol = loadStudyProtocol(dir / "igeq-study.json");
    window.runStudy(StudySession::open(dir / "P01", protocol, "P01"));
    StudyRun& run = *window.study();
    window.playMode()->session()->setDelay(0);
    std::mt19937 random(38);
    playToQuestions(window, run, random);
    if (QTest::currentTestFailed()) return;
    Questionnaire* q = run.questionnaire();
    QTRY_VERIFY(q && q->isVisible());
    QVERIFY2(q->height() <= 700 && q->width() <= 1024,
             qPrintable(QString("%1 x %2").arg(q->width()).arg(q->height())));
    QVERIFY(q->scrollArea()->verticalScrollBar()->maximum() > 0);  // 22 items scroll
    const QRect submit(q->submit()->mapTo(q, QPoint(0, 0)), q->submit()->size());
    QVERIFY(q->rect().contains(submit));  // Submit in view without scrolling
    screenshot(*q, "study-igeq-questionnaire.png");
    // Every point of every item can be scrolled into view and clicked; the last item scrolled to
    // shows all its points.
    for (size_t i = 0; i < protocol.items.size(); ++i) {
      const StudyItem& item = protocol.items[i];
      for (int v = item.min(); v <= item.max(); ++v) QVERIFY(q->button(i, v));
      QVERIFY(!q->button(i, item.max() + 1));
      q->scrollArea()->ensureWidgetVisible(q->button(i, item.max()));
      QWidget* viewport = q->scrollArea()->viewport();
      const QRect shown(q->button(i, item.min())->mapTo(viewport, QPoint(0, 0)),
                        q->button(i, item.max())->mapTo(viewport, QPoint(0, 0)) +
                            QPoint(q->button(i, item.max())->width(), 0));
      QVERIFY2(viewport->rect().contains(shown), qPrintable(QString::number(i)));
    }
    screenshot(*q, "study-igeq-questionnaire-end.png");
    answerByClicks(*q, protocol, 0);
    if (QTest::currentTestFailed()) return;
    QTRY_VERIFY(run.session().answered() == 1);
    const StudySession kept = StudySession::read(dir / "P01");
    QCOMPARE(kept.games()[0].answers->values.size(), size_t{22});
    QCOMPARE(kept.games()[0].answers->values[0], 2.0);   // igeq_01 (0-4): its third point
    QCOMPARE(kept.games()[0].answers->values[14], 5.0);  // imi_01 (1-7): 1 + 2 + 14 % 4
    // The researcher's analysis view shows the subscales as items and their reliability.
    const fs::path folders[] = {dir / "P01"};
    StudyAnalysisView view(analyzeStudy(readStudySessions(folders)));
    view.show();
    QVERIFY(view.findChild<QWidget*>("chart_igeq_positive_affect"));
    auto* reliability = view.findChild<QTableWidget*>("reliability");
    QVERIFY(reliability);
    QCOMPARE(reliability->rowCount(), 8);
    QCOMPARE(reliability->item(7, 0)->text(), QString("imi_interest_enjoyment"));
  }

  void threeParticipantsPlayTheShippedLudoStudy() {
    QTemporaryDir temp;
    const QByteArray keep = qgetenv("DDALAB_WALKTHROUGH");
    const QString folder = keep.isEmpty() ? temp.path() : QString::fromUtf8(keep);
    const QString file = DDALAB_SOURCE_DIR "/studies/protocols/user-study-ludo.json";
    const StudyProtocol protocol = loadStudyProtocol(file.toStdString());
    const size_t games =
        protocol.conditions.size() * static_cast<size_t>(protocol.gamesPerCondition);
    std::mt19937 random(2026);
    for (const QString id : {"P01", "P02", "P03"}) {
      MainWindow window;
      window.resize(1024, 700);
      window.show();
      StartStudyDialog dialog(&window);
      dialog.setProtocol(file);
      dialog.setStudyFolder(folder);
      dialog.show();
      QTest::keyClicks(dialog.participantField(), id);
      QTest::mouseClick(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                        Qt::LeftButton);
      QVERIFY2(dialog.session(), qPrintable(dialog.problem()->text()));
      window.runStudy(*dialog.session());
      StudyRun& run = *window.study();
      PlayMode& mode = *window.playMode();
      mode.session()->setDelay(0);
      for (size_t game = 0; game < games; ++game) {
        QVERIFY(waitForTurnOrQuestions(window, run));
        const QString heading = mode.panel()->headingText();
        QVERIFY2(heading.startsWith(QString("Game %1 of %2").arg(game + 1).arg(games)),
                 qPrintable(heading));
        for (const auto& condition : protocol.conditions)
          QVERIFY(!heading.contains(QString::fromStdString(condition.name)));
        if (id == "P01" && game == 1) {  // a few moves into the game
          for (int move = 0; move < 12 && !run.questionnaire(); ++move) {
            QVERIFY(waitForTurnOrQuestions(window, run));
            if (!run.questionnaire()) clickAMove(*mode.view(), *mode.session(), random);
          }
          QVERIFY(waitForTurnOrQuestions(window, run));
          screenshot(window, "study-game.png");
        }
        playToQuestions(window, run, random);
        if (QTest::currentTestFailed()) return;
        QTRY_VERIFY(run.questionnaire() && run.questionnaire()->isVisible());
        if (id == "P01" && game == 1) screenshot(*run.questionnaire(), "study-questionnaire.png");
        answerByClicks(*run.questionnaire(), protocol, static_cast<int>(random() % 7));
        if (QTest::currentTestFailed()) return;
      }
      QTRY_VERIFY(run.session().complete());
    }
    SessionsDialog sessions(folder);
    sessions.resize(760, 300);
    sessions.show();
    QCOMPARE(sessions.table()->rowCount(), 3);
    for (int row = 0; row < 3; ++row)
      QCOMPARE(sessions.table()->item(row, 2)->text(), QString("%1 of %1").arg(games));
    screenshot(sessions, "study-sessions.png");
  }

  // How long the environment thinks must not tell the condition: under the study's pace every
  // environment decision is shown no sooner than the pace after it began, in the condition whose
  // environment decides at once (e-random) as in the one that searches (e-hillclimber), and the
  // status bar never says that an AI thinks (before: shown after the decision's own time, from
  // ~0 ms to a search's, with "the AI thinks…" lit while it ran).
  void environmentTakesThePaceInEveryCondition() {
    QTemporaryDir dir;
    const StudyProtocol protocol = shortProtocol();
    MainWindow window;
    showOnASmallScreen(window);
    QStringList messages;
    connect(window.statusBar(), &QStatusBar::messageChanged, this,
            [&](const QString& m) { messages << m; });
    window.runStudy(
        StudySession::open(fs::path(dir.path().toStdString()) / "P01", protocol, "P01"));
    StudyRun& run = *window.study();
    GameSession& session = *window.playMode()->session();
    QVERIFY(session.fixedPace());
    constexpr int pace = 120;  // the test plays faster than a person would
    session.setDelay(pace);
    QElapsedTimer clock;
    int thinker = kTerminal;
    std::vector<std::vector<qint64>> shownAfter(2);  // a condition's environment decisions
    connect(&session, &GameSession::thinkingChanged, this, [&](bool thinking) {
      if (thinking) {
        clock.start();
        thinker = session.thinker();
      } else if (thinker == kEnvironment && run.playing() >= 0) {
        const PlannedGame& game = run.session().plan()[static_cast<size_t>(run.playing())];
        shownAfter[game.condition].push_back(clock.elapsed());
      }
    });
    std::mt19937 random(8);
    for (int game = 0; game < 2; ++game) {
      playToQuestions(window, run, random);
      if (QTest::currentTestFailed()) return;
      QTRY_VERIFY(run.questionnaire() && run.questionnaire()->isVisible());
      answerByClicks(*run.questionnaire(), protocol, game);
      if (QTest::currentTestFailed()) return;
    }
    QTRY_VERIFY(run.session().complete());
    for (const std::vector<qint64>& times : shownAfter) {
      QVERIFY(times.size() >= 10);  // every roll of the dice
      for (const qint64 ms : times) QVERIFY2(ms >= pace, qPrintable(QString::number(ms)));
    }
    for (const QString& m : messages) QVERIFY2(!m.contains("think"), qPrintable(m));
  }

  // A participant's pause holds a decision computed under the study's pace until they resume,
  // however long the pause: nothing moves on the board while paused.
  void pauseHoldsADecisionUntilResumed() {
    GameSession session;
    session.setFixedPace(true);
    session.setDelay(50);
    int shown = 0;
    connect(&session, &GameSession::changed, this, [&] { ++shown; });
    GameSetup setup = PlayMode::defaultSetup("ludo", 4);
    for (Json& seat : setup.experiment["players"]) seat = Json{{"id", "random"}};
    session.start(setup);  // the first decision begins at once
    session.setPaused(true);
    const int before = shown;
    QTest::qWait(300);
    QCOMPARE(shown, before);
    QVERIFY(session.thinking());  // held, not dropped
    session.setPaused(false);
    QTRY_VERIFY(shown > before + 2);  // the held decision, then the game goes on
  }

  // A game of the game mode is saved (Game → Save game…) as a detailed trace that Open trace
  // replays, with its games-CSV row; people's seats are marked.
  void savedGameIsReplayable() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.newGame(PlayMode::defaultSetup("ludo", 3)));
    mode.session()->fastForward(1'000'000);
    QTRY_VERIFY(mode.session()->match().over());
    const fs::path stem = fs::path(dir.path().toStdString()) / "mine";
    mode.saveGame(stem);
    QVERIFY(fs::exists(stem.string() + ".games.csv"));
    std::ifstream in(stem.string() + ".trace.jsonl");
    std::string line;
    std::getline(in, line);
    const Json trace = Json::parse(line);
    QVERIFY(trace.at("people")[0] == Json(true));
    QVERIFY(trace.at("players")[0].at("id") == Json("human"));
    QString error;
    QVERIFY2(
        window.openTrace(QString::fromStdString(stem.string() + ".trace.jsonl"), 0, true, &error),
        qPrintable(error));
    QVERIFY(mode.replaying());
  }
};

QTEST_MAIN(StudyTest)
#include "test_study.moc"
