// ddalab-gui, what a user study records besides the answers (issue 38, item 5), driven as a
// participant and a researcher drive it: a person's decisions in a game with their timing (a
// pause left out), the questionnaire's timing, and the pages around the games (consent,
// demographics, instructions, debrief) clicked through, declined, escaped and double-clicked.
// With DDALAB_SCREENSHOTS=DIR the tests also save the pictures of the pages.
#include <QPushButton>
#include <QTest>
#include <chrono>
#include <span>

#include "app/gui/play/play_mode.h"
#include "app/gui/play/session.h"
#include "tests/gui/gui_support.h"

using namespace ddalab;
using namespace ddalab::gui;

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

}  // namespace

class StudyPagesTest : public QObject {
  Q_OBJECT

 private slots:
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
