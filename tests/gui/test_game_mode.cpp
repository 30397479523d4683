// ddalab-gui, game mode (issue 11), driven the way a person drives it: a person's seat plays a
// whole game of every game by clicking the view's own hit areas against AIs with an E-player
// steering, and the game ends with the record the core's match loop gives for those choices; an
// illegal click changes nothing and says why; a replay rebuilds every round's gains and statuses
// and the recorded F breakdowns add up; the window answers while an AI thinks.
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <random>

#include "app/gui/main_window.h"
#include "app/gui/play/live_panel.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/play/replay.h"
#include "app/gui/views/game_view.h"
#include "core/status.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

const QString kCli = DDALAB_CLI;

// A person on seat 0 against cheap AIs, e-hillclimber steering with the thesis's coefficients.
GameSetup personAgainstAis(const std::string& game, uint64_t seed) {
  GameSetup setup = PlayMode::defaultSetup(game, seed);
  for (size_t seat = 1; seat < setup.experiment["players"].size(); ++seat)
    if (game == "lost-cities")
      setup.experiment["players"][seat] = {{"id", "hillclimber-is"}, {"params", {{"samples", 3}}}};
  return setup;
}

// Waits until a person is to move or the game is over; false on a timeout.
bool waitForPerson(GameSession& session) {
  QElapsedTimer clock;
  clock.start();
  while (!session.personToMove() &&
         !(session.started() && !session.thinking() && session.match().over())) {
    if (clock.elapsed() > 60'000) return false;
    QTest::qWait(1);
  }
  return true;
}

// Clicks hit areas of `view` (chosen by `random`) until the person's action is applied.
// Destinations come before new choices, so a half-made choice (a card) is completed.
void clickAMove(GameView& view, GameSession& session, std::mt19937& random) {
  const Match& match = session.match();
  const int rounds = match.tracker().rounds();
  const int actor = match.actor();
  for (int click = 0; click < 20 && session.personToMove() && match.tracker().rounds() == rounds &&
                      match.actor() == actor;
       ++click) {
    auto areas = view.hitAreas();
    QVERIFY(!areas.empty());
    std::vector<GameView::HitArea> next;
    for (const auto& a : areas)
      if (!a.label.startsWith("choose")) next.push_back(a);
    if (next.empty() || click == 0) next = areas;
    const auto& area = next[random() % next.size()];
    QTest::mouseClick(&view, Qt::LeftButton, {}, area.rect.center().toPoint());
  }
}

// The record the core's match loop gives when a person's seat plays `personMoves` in order and
// the AIs and the environment are built as the session built them.
GameRecord coreRecord(const GameSetup& setup, const std::vector<Action>& personMoves) {
  const Experiment e = parseSetup(setup);
  const auto human = humanSeats(setup);
  std::vector<std::unique_ptr<Player>> players;
  for (size_t seat = 0; seat < e.players.size(); ++seat)
    players.push_back(
        human[seat] ? nullptr
                    : e.players[seat].info->makeRegular({*e.game, e.players[seat].level,
                                                         e.players[seat].params, e.coefficients}));
  auto environment =
      e.environment.info->makeEnvironment({*e.game, 100, e.environment.params, e.coefficients});
  Match match(*e.game, setup.seed);
  size_t next = 0;
  while (!match.over()) {
    const int actor = match.actor();
    if (actor == kEnvironment)
      match.apply(match.decide(*environment));
    else if (human[static_cast<size_t>(actor)])
      match.apply(personMoves.at(next++));
    else
      match.apply(match.decide(*players[static_cast<size_t>(actor)]));
  }
  return match.record();
}

}  // namespace

class GameModeTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // A person plays a whole game of each game with the mouse; the record equals the core's.
  void personPlaysEveryGameByClicks() {
    for (const std::string game : {"ludo", "lost-cities", "maze"}) {
      MainWindow window;
      window.show();
      PlayMode& mode = *window.playMode();
      GameSession& session = *mode.session();
      const GameSetup setup = personAgainstAis(game, 7);
      session.setDelay(0);
      QVERIFY(mode.newGame(setup));
      std::vector<Action> moves;
      // Hit areas only lead to legal actions, so every chosen action is applied.
      connect(mode.view(), &GameView::actionChosen, this, [&](Action a) { moves.push_back(a); });
      std::mt19937 random(42);
      while (true) {
        QVERIFY2(waitForPerson(session), game.c_str());
        if (session.match().over()) break;
        clickAMove(*mode.view(), session, random);
        if (QTest::currentTestFailed()) return;
      }
      const GameRecord played = session.match().record();
      qInfo("%s: %d rounds, %zu moves by clicks, winner %d", game.c_str(),
            session.match().tracker().rounds(), moves.size(), played.winner);
      QVERIFY(moves.size() >= 10);
      QCOMPARE(fingerprint(played), fingerprint(coreRecord(setup, moves)));
    }
  }

  // A click on something that is not a legal target changes nothing and says why.
  void illegalClickChangesNothing() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.newGame(personAgainstAis("ludo", 3)));
    QVERIFY(waitForPerson(*mode.session()));
    const std::string before = mode.session()->match().state().toString();
    QSignalSpy refused(mode.view(), &GameView::refused);
    QTest::mouseClick(mode.view(), Qt::LeftButton, {}, QPoint(3, 3));  // the board's corner
    QCOMPARE(refused.count(), 1);
    QVERIFY(!refused.front().front().toString().isEmpty());
    QCOMPARE(mode.session()->match().state().toString(), before);
    QVERIFY(mode.session()->personToMove());
  }

  // A replay rebuilds every round's recorded gains and statuses; F breakdowns add up.
  void replayReproducesTheRecordedGame() {
    QTemporaryDir dir;
    QProcess cli;
    cli.start(kCli, {"run", QString(DDALAB_SOURCE_DIR) + "/experiments/quick.json", "--out",
                     dir.filePath("out"), "--trace", dir.filePath("trace"), "--trace-detail", "-n",
                     "2", "--quiet"});
    QVERIFY(cli.waitForFinished(60'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    window.show();
    const QString trace = dir.filePath("trace/ludo-4hc__e-hillclimber.trace.jsonl");
    QVERIFY(window.openTrace(trace, 1, true));
    PlayMode& mode = *window.playMode();
    QVERIFY(mode.replaying());
    std::ifstream in(trace.toStdString());
    std::string text;
    std::getline(in, text);
    std::getline(in, text);
    const Json line = Json::parse(text);
    const Replay replay(line, *gameOfTrace(line), coefficientsOfTrace(line));
    QCOMPARE(replay.rounds(), int(line.at("rounds").size()));
    int decisions = 0;
    for (int r = 0; r <= replay.rounds(); ++r) {
      const State& state = replay.stateAt(r);
      const Gains gains = gainsOf(state);
      Gains statuses{};
      computeStatuses(std::span(gains.data(), 4), std::span(statuses.data(), 4));
      const auto recordedGains = replay.recordedGains(r);
      const auto recordedStatuses = replay.recordedStatuses(r);
      for (size_t p = 0; p < 4; ++p) {
        QCOMPARE(gains[p], recordedGains[p]);
        QCOMPARE(statuses[p], recordedStatuses[p]);
      }
      if (const DecisionReport* d = replay.decisionAt(r)) {
        for (const auto& row : d->rows) {
          double sum = 0;
          for (double term : row.terms) sum += term;
          QVERIFY(row.fun);
          QVERIFY(std::abs(sum - *row.fun) <= 1e-9 * std::max(1.0, std::abs(*row.fun)));
        }
        ++decisions;
      }
      mode.showRound(r);  // the view and the panel follow the replay
      QCOMPARE(mode.round(), r);
    }
    QVERIFY(decisions > 10);
    QVERIFY(mode.panel()->decisionTable()->rowCount() == 6);  // the die's six faces
  }

  // The AI decides on a worker thread: the event loop turns and clicks are handled meanwhile.
  void windowAnswersWhileAnAiThinks() {
    MainWindow window;
    window.show();
    PlayMode& mode = *window.playMode();
    GameSetup setup = PlayMode::defaultSetup("ludo", 5);
    setup.experiment["players"][0] = {{"id", "mcts"}, {"params", {{"iterations", 2'000'000}}}};
    mode.session()->setDelay(0);
    QVERIFY(mode.newGame(setup));
    // The environment rolls first; then MCTS decides for seat 0 on the worker thread.
    QTRY_VERIFY_WITH_TIMEOUT(mode.session()->thinking() && mode.session()->thinker() == 0, 10'000);
    QElapsedTimer clock;
    clock.start();
    qint64 worst = 0, last = 0;
    int turns = 0;
    while (clock.elapsed() < 800 && mode.session()->thinking()) {
      QTest::qWait(10);
      worst = std::max(worst, clock.elapsed() - last);
      last = clock.elapsed();
      ++turns;
    }
    QVERIFY2(mode.session()->thinking(), "the MCTS decision should still run");
    QVERIFY(turns > 20);
    QVERIFY2(worst < 300, "the event loop stalled while the AI thought");
    window.showBatchMode();  // a person clicks around meanwhile
    window.showGameMode();
    QVERIFY(mode.session()->thinking());
    qInfo("longest event-loop gap while MCTS thought: %lld ms", worst);
  }
};

QTEST_MAIN(GameModeTest)
#include "test_game_mode.moc"
