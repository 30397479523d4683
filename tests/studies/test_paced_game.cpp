// The paced game on its own (studies/paced_game.h), driven as ddalab-gui and `ddalab serve` drive
// it but with a clock that moves only when the test says and decisions made on the calling
// thread: a decision is held until its pace has passed, a pause holds it, and a person's turn is
// timed from its first showing with the pauses left out. No test here sleeps.
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>

#include "studies/paced_game.h"

using namespace ddalab;
using namespace std::chrono_literals;

namespace {

// A clock that moves only when told (both the monotonic and the wall clock).
class FakeClock final : public TimeSource {
 public:
  std::chrono::steady_clock::time_point now() const override { return steady_; }
  std::chrono::system_clock::time_point utcNow() const override { return utc_; }
  void advance(std::chrono::milliseconds by) {
    steady_ += by;
    utc_ += by;
  }

 private:
  std::chrono::steady_clock::time_point steady_{1h};
  // 2026-11-27T10:23:36.000Z
  std::chrono::system_clock::time_point utc_{std::chrono::seconds(1'795'775'016)};
};

// Runs a decision at once on the calling thread; `during` runs before the decision is made (a
// decision that takes fake time advances the clock there).
class InlineExecutor final : public DecisionExecutor {
 public:
  void run(std::function<void()> work, std::function<void()> done) override {
    ++decisions;
    if (during) during();
    work();
    done();
  }
  std::function<void()> during;
  int decisions = 0;
};

// A Ludo game of four seats, `person` the person's (-1: none), the others and the environment
// random.
PacedGame pacedLudo(InlineExecutor& executor, const TimeSource& clock, int person = -1) {
  Json players = Json::array();
  std::vector<bool> people;
  for (int seat = 0; seat < 4; ++seat) {
    players.push_back({{"id", seat == person ? kPersonSeat : "random"}});
    people.push_back(seat == person);
  }
  const Json experiment = {{"name", "paced"},
                           {"game", {{"id", "ludo"}}},
                           {"players", players},
                           {"environment", {{"id", "e-random"}}},
                           {"iterations", 1}};
  return PacedGame(parsePlayedExperiment(experiment, 5, "test"), people, 5, executor, clock);
}

// Decides and shows the AIs' and the environment's moves (each due at once: pace 0) until a
// person is to move or the game is over.
void playToPerson(PacedGame& game) {
  while (!game.over() && !game.personToMove()) {
    game.decide();
    REQUIRE(game.heldDue());
    game.showHeld();
  }
}

}  // namespace

TEST_CASE("a paced game holds a decision until its pace has passed since it began",
          "[paced_game]") {
  FakeClock clock;
  InlineExecutor executor;
  PacedGame game = pacedLudo(executor, clock);
  game.setPace(300, true);
  int arrived = 0;
  game.onDecided([&] { ++arrived; });
  game.decide();
  CHECK(arrived == 1);
  CHECK_FALSE(game.deciding());
  REQUIRE(game.holding());
  CHECK_FALSE(game.personToMove());
  CHECK(game.due() == clock.now() + 300ms);
  clock.advance(299ms);
  CHECK_FALSE(game.heldDue());
  clock.advance(1ms);
  CHECK(game.heldDue());
  game.showHeld();
  CHECK_FALSE(game.holding());
  CHECK(game.lateDecisions() == 0);

  SECTION("a decision slower than the pace is due at once and counted late") {
    executor.during = [&] { clock.advance(450ms); };
    game.decide();
    CHECK(game.heldDue());
    CHECK(game.lateDecisions() == 1);
  }
  SECTION("without a fixed pace a decision is due as it is made, paused or not") {
    game.setPace(300, false);
    game.setPaused(true);
    game.decide();
    CHECK(game.heldDue());
    CHECK(game.lateDecisions() == 0);
  }
}

TEST_CASE("a pause holds a paced game's decision past its pace until it ends", "[paced_game]") {
  FakeClock clock;
  InlineExecutor executor;
  PacedGame game = pacedLudo(executor, clock);
  game.setPace(100, true);
  game.decide();
  game.setPaused(true);
  clock.advance(10s);
  CHECK_FALSE(game.heldDue());
  CHECK(game.holding());
  game.setPaused(false);
  CHECK(game.heldDue());
}

TEST_CASE("a paced game times a person's turn from its first showing, pauses left out",
          "[paced_game]") {
  FakeClock clock;
  InlineExecutor executor;
  PacedGame game = pacedLudo(executor, clock, 1);
  playToPerson(game);
  REQUIRE(game.personToMove());
  const Action first = game.legal()[0];
  CHECK_FALSE(game.personDecision(first));  // no clock runs before the turn is marked

  game.markTurnBegan();
  clock.advance(40ms);
  game.markTurnShown();  // the board shows the turn 40 ms after it came
  clock.advance(100ms);
  game.setPaused(true);
  clock.advance(400ms);
  game.setPaused(false);
  clock.advance(50ms);
  const int round = game.match().state().roundsCompleted();
  REQUIRE(game.act(first));
  REQUIRE(game.personDecisions().size() == 1);
  const DecisionTiming& d = game.personDecisions()[0];
  CHECK(d.round == round);
  CHECK(d.seat == 1);
  CHECK(d.action == first);
  CHECK(d.timing.responseMs == 150);  // 100 + 50 ms: the pause left out
  CHECK(d.timing.shownAt == "2026-11-27T10:23:36.040Z");
  CHECK(d.timing.answeredAt == "2026-11-27T10:23:36.590Z");  // the pause included
  CHECK(game.personMoved());

  SECTION("a turn never shown is timed from when it came") {
    playToPerson(game);
    REQUIRE(game.personToMove());
    game.markTurnBegan();
    clock.advance(70ms);
    const Action action = game.legal()[0];
    const std::optional<DecisionTiming> next = game.personDecision(action);
    REQUIRE(next);
    CHECK(next->timing.responseMs == 70);
    REQUIRE(game.applyPersonMove(action, next));
    CHECK(game.personDecisions().back().timing.responseMs == 70);
  }
  SECTION("a move that is not legal changes nothing") {
    playToPerson(game);
    REQUIRE(game.personToMove());
    CHECK_FALSE(game.act(-1));
    CHECK(game.personDecisions().size() == 1);
  }
}

TEST_CASE("a paced game played to its end records its trace with the result and the people",
          "[paced_game]") {
  FakeClock clock;
  InlineExecutor executor;
  PacedGame game = pacedLudo(executor, clock, 0);
  game.setPace(0, true);
  while (!game.over()) {
    playToPerson(game);
    if (game.over()) break;
    game.markTurnShown();
    clock.advance(20ms);
    REQUIRE(game.act(game.legal()[0]));
  }
  const GameRecord record = game.finish();
  const Json line = game.traceLine();
  CHECK(line.contains("result"));
  CHECK(line.at("people") == Json::array({true, false, false, false}));
  CHECK_FALSE(game.personDecisions().empty());
  for (const DecisionTiming& d : game.personDecisions()) CHECK(d.timing.responseMs == 20);
  CHECK(executor.decisions > 0);
  CHECK(record.numPlayers == 4);
}
