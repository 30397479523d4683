#pragma once
// What the Qt Tests of user studies share: a short two-condition protocol, a participant's clicks
// (a game's moves, a questionnaire's answers), waits for the next thing a participant sees, the
// checks that nothing on screen reveals the condition, and the screenshots of the walk-through
// (DDALAB_SCREENSHOTS=DIR).
#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QShortcut>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTextEdit>
#include <random>

#include "app/gui/main_window.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/study/demographics_page.h"
#include "app/gui/study/questionnaire.h"
#include "app/gui/study/study_pages.h"
#include "app/gui/study/study_run.h"
#include "tests/app/gui/gui_support.h"

namespace ddalab::gui {

// Short two-player Ludo (16 rounds) under two conditions, one game each: quick to play by clicks.
inline StudyProtocol shortProtocol() {
  return parseStudyProtocol(Json::parse(R"({
    "format": "ddalab-study/1", "name": "two-conditions", "seed": 11,
    "game": {"id": "ludo", "params": {"players": 2, "max_rounds": 16}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "no-dda", "environment": {"id": "e-random"}},
                   {"name": "e-hillclimber", "environment": {"id": "e-hillclimber"},
                    "coefficients": {"lead_changes": 10, "believability": 100}}],
    "games_per_condition": 1})"),
                            "two-conditions.json");
}

inline void screenshot(QWidget& widget, const QString& name) {
  const QByteArray dir = qgetenv("DDALAB_SCREENSHOTS");
  if (dir.isEmpty()) return;
  widget.grab().save(QString::fromUtf8(dir) + "/" + name);
}

// Shows `window` as a participant's laptop does: 1024 x 700.
inline void showOnASmallScreen(MainWindow& window) {
  window.resize(1024, 700);
  window.show();
}

// Waits until a page (a questionnaire, ...) is open or the person is to move (or the session is
// over).
inline bool waitForTurnOrQuestions(MainWindow& window, StudyRun& run) {
  QElapsedTimer clock;
  clock.start();
  GameSession& session = *window.playMode()->session();
  while (!run.page() && !session.personToMove() && !run.over()) {
    if (clock.elapsed() > 60'000) return false;
    QTest::qWait(1);
  }
  return true;
}

// Answers the open questionnaire by clicking: item i gets its scale's third point + (i + game) % 4,
// at most its last (a slider is moved to 30-60).
inline void answerByClicks(Questionnaire& q, const StudyProtocol& protocol, int game) {
  QVERIFY(!q.submit()->isEnabled());  // nothing answered yet
  // Every text of every item is whole across: the items scroll only up and down (the anchor
  // after the last point was cut to "very difficul").
  QWidget* viewport = q.scrollArea()->viewport();
  for (const QLabel* label : q.scrollArea()->widget()->findChildren<QLabel*>())
    QVERIFY2(label->mapTo(viewport, QPoint(label->width(), 0)).x() <= viewport->width(),
             qPrintable(label->text()));
  for (size_t i = 0; i < protocol.items.size(); ++i) {
    const StudyItem& item = protocol.items[i];
    const int step = static_cast<int>(i + static_cast<size_t>(game)) % 4;
    const int value = item.scale == StudyItem::Scale::Slider100
                          ? 3 + step
                          : std::min(item.min() + 2 + step, item.max());
    if (QAbstractButton* b = q.button(i, value))
      QTest::mouseClick(b, Qt::LeftButton);
    else
      q.slider(i)->setValue(value * 10);
  }
  QVERIFY(q.submit()->isEnabled());
  QTest::keyClicks(q.comment(), "game " + QString::number(game + 1));
  QTest::mouseClick(q.submit(), Qt::LeftButton);
}

// Answers the demographics page by clicks: item i its option (i + 1) % its count, the buttons'
// Submit enabled only once every item is answered.
inline void answerDemographics(DemographicsPage& page, const std::vector<DemographicItem>& items,
                               std::vector<std::string>* chosen = nullptr) {
  for (size_t i = 0; i < items.size(); ++i) {
    QVERIFY(!page.submit()->isEnabled());
    const size_t o = (i + 1) % items[i].options.size();
    if (QAbstractButton* b = page.option(i, o)) {
      QTest::mouseClick(b, Qt::LeftButton);
    } else {
      QComboBox* list = page.list(i);
      QVERIFY(list && list->currentIndex() < 0);
      list->setCurrentIndex(static_cast<int>(o));  // as a person picks from the list
    }
    if (chosen) chosen->push_back(items[i].options[o]);
  }
  QVERIFY(page.submit()->isEnabled());
}

// Answers the page `run` shows, not a questionnaire, as a participant who goes on: agrees to the
// consent, answers the demographics, reads the instructions or the debrief.
inline void passPage(StudyRun& run) {
  StudyPage* page = run.page();
  if (auto* consent = qobject_cast<ConsentPage*>(page)) {
    QTest::mouseClick(consent->agreeButton(), Qt::LeftButton);
  } else if (auto* d = qobject_cast<DemographicsPage*>(page)) {
    answerDemographics(*d, run.session().protocol().pages.demographics);
    QTest::mouseClick(d->submit(), Qt::LeftButton);
  } else {
    QTest::mouseClick(page->buttons().front(), Qt::LeftButton);
  }
}

// Plays the current game of `run` by clicks until its questionnaire opens (agreeing to and
// reading the pages before the first game).
inline void playToQuestions(MainWindow& window, StudyRun& run, std::mt19937& random) {
  PlayMode& mode = *window.playMode();
  while (!run.questionnaire()) {
    QVERIFY(waitForTurnOrQuestions(window, run));
    const SessionStep step = run.session().step();
    if (run.page() && (step == SessionStep::Consent || step == SessionStep::Demographics ||
                       step == SessionStep::Instructions)) {
      passPage(run);
      if (QTest::currentTestFailed()) return;
      QTRY_VERIFY(run.session().step() != step);
      continue;
    }
    if (run.page() || run.over()) return;
    clickAMove(*mode.view(), *mode.session(), random);
    if (QTest::currentTestFailed()) return;
  }
}

// A study whose conditions, environments and parameters have names found nowhere else, so that
// any of them on the screen is a leak.
inline StudyProtocol secretProtocol() {
  Json document = shortProtocol().document;
  document["name"] = "blinding";
  document["game"]["params"]["max_rounds"] = 6;
  document["conditions"][0]["name"] = "cond-zebra";
  document["conditions"][1]["name"] = "cond-yak";
  document["conditions"][1]["environment"]["params"]["random_prob"] = 0.37;
  return parseStudyProtocol(document, "blinding.json");
}

// Everything a person can read on the screen now: the texts and tooltips of every visible
// widget (labels, buttons, fields, tables, tabs, combo boxes, window titles, status bars).
inline QStringList visibleTexts() {
  QStringList texts;
  for (QWidget* w : QApplication::allWidgets()) {
    if (!w->isVisible()) continue;
    texts << w->toolTip() << w->windowTitle();
    if (auto* l = qobject_cast<QLabel*>(w)) texts << l->text();
    if (auto* b = qobject_cast<QAbstractButton*>(w)) texts << b->text();
    if (auto* e = qobject_cast<QLineEdit*>(w)) texts << e->text();
    if (auto* e = qobject_cast<QPlainTextEdit*>(w)) texts << e->toPlainText();
    if (auto* e = qobject_cast<QTextEdit*>(w)) texts << e->toPlainText();
    if (auto* c = qobject_cast<QComboBox*>(w))
      for (int i = 0; i < c->count(); ++i) texts << c->itemText(i);
    if (auto* t = qobject_cast<QTabWidget*>(w))
      for (int i = 0; i < t->count(); ++i) texts << t->tabText(i) << t->tabToolTip(i);
    if (auto* bar = qobject_cast<QStatusBar*>(w)) texts << bar->currentMessage();
    if (auto* t = qobject_cast<QTableWidget*>(w))
      for (int r = 0; r < t->rowCount(); ++r)
        for (int c = 0; c < t->columnCount(); ++c)
          if (const QTableWidgetItem* item = t->item(r, c))
            texts << item->text() << item->toolTip();
  }
  texts.removeAll(QString());
  return texts;
}

// No visible text names a condition, its environment player or its parameters, or a game's seed.
inline void verifyNothingRevealsTheCondition(const StudyProtocol& protocol,
                                             const StudySession& session) {
  QStringList secrets = {"random_prob", "random prob", "0.37", "hillclimber", "e-random"};
  for (const auto& condition : protocol.conditions)
    secrets << QString::fromStdString(condition.name);
  for (const PlannedGame& game : session.plan()) secrets << QString::number(game.seed);
  for (const QString& text : visibleTexts())
    for (const QString& secret : secrets)
      QVERIFY2(!text.contains(secret, Qt::CaseInsensitive),
               qPrintable("\"" + secret + "\" shown in: " + text));
}

// The researcher ends the study session with the keys no participant presses
// (StudyRun::endKeys): the window is theirs again.
inline void endAsTheResearcher(MainWindow& window) {
  QTest::keySequence(&window, StudyRun::endKeys());
  QTRY_VERIFY(!window.study());
  QVERIFY(!window.lockedForStudy());
}

// Every action and shortcut of the window is hidden or disabled; each action's keys, pressed,
// open nothing and leave the study where it is.
inline void verifyNothingButTheGameAnswers(MainWindow& window) {
  QVERIFY(window.lockedForStudy());
  QVERIFY(!window.menuBar()->isVisible());
  const QList<QAction*> actions = window.findChildren<QAction*>();
  QVERIFY(actions.size() > 20);  // the menus' and the toolbar's
  for (QAction* a : actions)
    QVERIFY2(!a->isVisible() || !a->isEnabled(), qPrintable("reachable: " + a->text()));
  for (QShortcut* s : window.findChildren<QShortcut*>())
    QVERIFY2(!s->isEnabled(), qPrintable("shortcut on: " + s->key().toString()));
  StudyRun* run = window.study();
  DialogScript script({});
  for (QAction* a : actions)
    for (const QKeySequence& key : a->shortcuts()) QTest::keySequence(&window, key);
  QTest::qWait(20);
  QVERIFY2(script.seen.isEmpty(), qPrintable("opened: " + script.seen.join(", ")));
  QCOMPARE(window.study(), run);
  QVERIFY(window.playMode()->isVisible() && window.playMode()->studyMode());
}

}  // namespace ddalab::gui
