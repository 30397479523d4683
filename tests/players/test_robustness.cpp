// Robustness of the players and games: a best choice exists among NaN and infinite
// scores, fun-score coefficients of +-1e308 crash nothing, every long-thinking player gives up
// within a second when the run stops, and random valid experiments drawn from the registries'
// parameter schemas play without crashing or producing non-finite metrics ("[property]").
#include <algorithm>
#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <mutex>
#include <thread>

#include "core/match.h"
#include "experiments/batch.h"
#include "games/registry.h"
#include "players/dda/dynamic_level.h"
#include "players/dda/posm.h"
#include "players/environment/settling.h"
#include "players/registry.h"
#include "players/regular/level.h"
#include "players/search/score_order.h"
#include "players/search/tie_breaking.h"
#include "tests/support.h"

using namespace ddalab;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::shared_ptr<const Game> makeGame(const std::string& id, const Json& params = nullptr) {
  const auto& info = findById<GameInfo>(gameRegistry(), id, "game", "");
  return info.make(validateParams(info.params, params, "params"));
}

const PlayerInfo& playerInfo(const std::string& id) {
  return findById<PlayerInfo>(playerRegistry(), id, "player", "");
}

PlayerSetup setupFor(const Game& game, const std::string& id, const Json& params,
                     const Coefficients& coefficients = {}, StopToken stop = {}) {
  return {game, 100, validateParams(playerInfo(id).params, params, "params"), coefficients, stop};
}

// Checks the stop token before every decision, as a stoppable match loop does, so that a game of
// players that decide quickly (and never poll) ends soon after the stop too; and checks that the
// player picks one of the legal actions.
class CheckedPlayer final : public Player {
 public:
  CheckedPlayer(std::unique_ptr<Player> inner, StopToken stop)
      : inner_(std::move(inner)), stop_(stop) {}
  Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) override {
    stop_.check();
    const Action action = inner_->chooseAction(state, legal, rng);
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw std::logic_error("a player chose an illegal action");
    return action;
  }

 private:
  std::unique_ptr<Player> inner_;
  StopToken stop_;
};

// The environment counterpart of CheckedPlayer.
class CheckedEnvironment final : public EnvironmentPlayer {
 public:
  CheckedEnvironment(std::unique_ptr<EnvironmentPlayer> inner, StopToken stop)
      : inner_(std::move(inner)), stop_(stop) {}
  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng& own, Rng& nature) override {
    stop_.check();
    const Action action = inner_->choose(state, outcomes, trace, own, nature);
    state.outcomes(outcomes_);
    if (std::none_of(outcomes_.begin(), outcomes_.end(),
                     [action](const Outcome& o) { return o.action == action; }))
      throw std::logic_error("an environment player chose an impossible outcome");
    return action;
  }

 private:
  std::unique_ptr<EnvironmentPlayer> inner_;
  StopToken stop_;
  std::vector<Outcome> outcomes_;
};

// Sets `flag` once `budget` has passed, unless destroyed before.
class Watchdog {
 public:
  Watchdog(std::atomic<bool>& flag, std::chrono::milliseconds budget)
      : thread_([this, &flag, budget] {
          std::unique_lock lock(mutex_);
          if (!wake_.wait_for(lock, budget, [this] { return done_; })) flag.store(true);
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

// Why `record` is not a sane game result ("" when it is): every metric and score finite.
std::string recordProblem(const GameRecord& record) {
  for (const auto& info : allMetrics())
    if (!std::isfinite(record.metrics[static_cast<size_t>(info.metric)]))
      return "metric " + std::string(info.key) + " is not finite";
  for (int p = 0; p < record.numPlayers; ++p)
    if (!std::isfinite(record.scores[p])) return "a score is not finite";
  return "";
}

// Plays one game of `players` (regular ids with params) and `environment` on `game`.
GameRecord playWith(const Game& game, const std::vector<std::pair<std::string, Json>>& players,
                    const std::string& environment, const Json& environmentParams,
                    const Coefficients& coefficients, uint64_t seed) {
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> seats;
  for (const auto& [id, params] : players) {
    owned.push_back(std::make_unique<CheckedPlayer>(
        playerInfo(id).makeRegular(setupFor(game, id, params, coefficients)), StopToken()));
    seats.push_back(owned.back().get());
  }
  CheckedEnvironment env(
      playerInfo(environment)
          .makeEnvironment(setupFor(game, environment, environmentParams, coefficients)),
      StopToken());
  return playGame(game, seats, env, seed);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Best choices among NaN and infinite scores

TEST_CASE("bestIndices is never empty: NaN is the worst value, infinities tie with themselves",
          "[robustness]") {
  using V = std::vector<double>;
  using I = std::vector<size_t>;
  CHECK(bestIndices(V{kNaN, kNaN, kNaN}) == I{0, 1, 2});
  CHECK(bestIndices(V{kNaN, 1.0, kNaN, 1.0}) == I{1, 3});
  CHECK(bestIndices(V{kInf, 1.0, kInf, kNaN}) == I{0, 2});
  CHECK(bestIndices(V{-kInf, -kInf}) == I{0, 1});
  CHECK(bestIndices(V{-kInf, kNaN, -kInf}) == I{0, 2});
  CHECK(bestIndices(V{kInf, -kInf, kNaN}) == I{0});
  CHECK(bestIndices(V{1e308, -1e308}) == I{0});
  CHECK(bestIndices(V{2.0, 2.0 - 1e-13, 1.0}) == I{0, 1});  // the tolerance is unchanged
}

TEST_CASE("firstBestIndex is the first of bestIndices", "[robustness]") {
  using V = std::vector<double>;
  CHECK(firstBestIndex(V{}) == 0);
  CHECK(firstBestIndex(V{1.0, 2.0 - 1e-13, 2.0}) == 1);  // ties within the tolerance count
  Rng rng(12);
  const std::array<double, 7> pool = {kNaN, -kInf, 0.0, 1.0, 1.0 + 1e-13, 2.5, kInf};
  for (int round = 0; round < 500; ++round) {
    V values(1 + rng.below(7));
    for (double& v : values) v = pool[rng.below(pool.size())];
    CHECK(firstBestIndex(values) == bestIndices(values).front());
  }
}

TEST_CASE("randomBestIndex picks bestIndices[rng.below(count)] with the same draw",
          "[robustness]") {
  using V = std::vector<double>;
  Rng rng(13);
  const std::array<double, 7> pool = {kNaN, -kInf, 0.0, 1.0, 1.0 + 1e-13, 2.5, kInf};
  std::array<int, 3> picked{};  // of three tied values, how often each is picked
  for (int round = 0; round < 3000; ++round) {
    V values(1 + rng.below(7));
    for (double& v : values) v = pool[rng.below(pool.size())];
    const uint64_t seed = rng.next();
    Rng viaList(seed), direct(seed);
    const auto best = bestIndices(values);
    CHECK(randomBestIndex(values, direct) ==
          best[viaList.below(static_cast<uint32_t>(best.size()))]);
    CHECK(direct.next() == viaList.next());  // one draw each
    ++picked[randomBestIndex(V{kNaN, 1.0, 0.0, 1.0, 1.0 + 1e-13}, direct) / 2];
  }
  for (int n : picked) CHECK(n > 900);  // 1000 each expected: index 1, 3 and 4 (as 4 / 2 = 2)
}

TEST_CASE("bestFirst ranks NaN last and keeps index order among ties", "[robustness]") {
  using V = std::vector<double>;
  using I = std::vector<size_t>;
  CHECK(bestFirst(V{kNaN, 2.0, kInf, -kInf, kNaN, 2.0}, 0) == I{2, 1, 5, 3, 0, 4});
  CHECK(bestFirst(V{kNaN, kNaN, kNaN}, 2) == I{0, 1});

  // Exactly a stable sort by scoreAbove then truncation, for every limit, on scores with many
  // ties, NaNs and infinities (the searches' choices rest on this order).
  Rng rng(11);
  const std::array<double, 6> pool = {kNaN, -kInf, 0.0, 1.0, 2.5, kInf};
  std::vector<size_t> into = {99, 98};  // reused: its old contents must not leak
  for (int round = 0; round < 500; ++round) {
    V scores(rng.below(40));
    for (double& x : scores) x = pool[rng.below(static_cast<uint32_t>(pool.size()))];
    I sorted(scores.size());
    for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = i;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](size_t a, size_t b) { return scoreAbove(scores[a], scores[b]); });
    for (size_t limit : {size_t{0}, size_t{1}, size_t{5}, size_t{50}}) {
      I expected = sorted;
      if (limit > 0 && limit < expected.size()) expected.resize(limit);
      REQUIRE(bestFirst(scores, limit) == expected);
      bestFirst(scores, limit, into);
      REQUIRE(into == expected);
    }
  }
}

TEST_CASE("level scaling picks a valid rank among NaN and infinite scores", "[robustness]") {
  Rng rng(7);
  const std::vector<double> allNaN(5, kNaN);
  const std::vector<double> mixed = {kNaN, -kInf, kInf, 1.0, kNaN};
  for (int level : {0, 1, 50, 100}) {
    for (double sigma : {0.0, 0.4, 10.0}) {
      CHECK(pickByLevel(allNaN, level, sigma, rng) < allNaN.size());
      CHECK(pickByLevel(mixed, level, sigma, rng) < mixed.size());
    }
  }
  // Ascending: the NaNs (0, 4) in random order, then -inf (1), 1.0 (3), +inf (2).
  CHECK(pickByLevel(mixed, 100, 0.0, rng) == 2);
  CHECK(pickByLevel(mixed, 75, 0.0, rng) == 3);
  CHECK(pickByLevel(mixed, 50, 0.0, rng) == 1);
  const size_t worst = pickByLevel(mixed, 0, 0.0, rng);
  CHECK((worst == 0 || worst == 4));
}

TEST_CASE("the fun score the players compare is bounded and never NaN", "[robustness]") {
  CHECK(boundedFun(kNaN) == -kFunBound);
  CHECK(boundedFun(kInf) == kFunBound);
  CHECK(boundedFun(-kInf) == -kFunBound);
  CHECK(boundedFun(-3.25) == -3.25);
  CHECK(boundedFun(1e299) == 1e299);
}

TEST_CASE("the DDA level rules keep a valid level whatever the status", "[robustness]") {
  Rng rng(1);
  DynamicLevelRule rule(50, 1e-300);
  CHECK(rule.nextLevel(kNaN, rng) == 50);  // a NaN status leaves the level
  CHECK(rule.nextLevel(1.0, rng) == 0);    // a step of 1e300 levels: the lowest level
  CHECK(rule.nextLevel(-kInf, rng) == 100);
  PosmRule posm(1e-6, 0.0);
  for (double status : {kNaN, kInf, -kInf, 1e308, -1e308, 0.0}) {
    const int level = posm.nextLevel(status, rng);
    CHECK((level >= 10 && level <= 100));
  }
}

// ---------------------------------------------------------------------------------------------
// Parameter ranges

namespace {

// Why the numeric `spec` has no finite, meaningful range ("" when it has): the schema's default
// range of +-1e300 would let a weight overflow every value it multiplies.
std::string rangeProblem(const ParamSpec& spec) {
  if (spec.type != ParamType::Int && spec.type != ParamType::Double &&
      spec.type != ParamType::IntList)
    return "";
  if (!(spec.min <= spec.max)) return "empty range";
  if (std::abs(spec.min) > 1e12 || std::abs(spec.max) > 1e12) return "range beyond 1e12";
  if (spec.defaultValue.is_number()) {
    const double d = spec.defaultValue.get<double>();
    if (d < spec.min || d > spec.max) return "default out of range";
  }
  return "";
}

}  // namespace

TEST_CASE("every numeric parameter of a game or player has a finite range", "[robustness]") {
  for (const auto& info : gameRegistry())
    for (const auto& spec : info.params) {
      INFO(info.id << "." << spec.name);
      CHECK(rangeProblem(spec) == "");
    }
  for (const auto& info : playerRegistry())
    for (const auto& spec : info.params) {
      INFO(info.id << "." << spec.name);
      CHECK(rangeProblem(spec) == "");
    }
}

// ---------------------------------------------------------------------------------------------
// Overflowing coefficients

namespace {

// Cheap parameters of each environment player (random_prob 0: every decision is searched).
Json cheapEnvironmentParams(const std::string& id) {
  if (id == "e-maxmax") return {{"random_prob", 0.0}, {"depth", 1}};
  if (id == "e-maxn") return {{"random_prob", 0.0}, {"width", 3}, {"chance_width", 3}};
  if (id == "e-montecarlo") return {{"random_prob", 0.0}, {"iterations", 30}, {"horizon", 3}};
  if (id == "e-random") return Json::object();
  return {{"random_prob", 0.0}};
}

// Coefficient sets whose fun score overflows to +inf, -inf or NaN (inf - inf).
std::vector<Coefficients> overflowingCoefficients() {
  Coefficients leadHigh{}, leadLow{}, allHigh{}, allLow{}, alternating{};
  leadHigh[static_cast<size_t>(Metric::Lead)] = 1e308;
  leadLow[static_cast<size_t>(Metric::Lead)] = -1e308;
  for (size_t k = 0; k < kBuiltInMetrics; ++k) {
    allHigh[k] = 1e308;
    allLow[k] = -1e308;
    alternating[k] = k % 2 ? 1e308 : -1e308;
  }
  return {leadHigh, leadLow, allHigh, allLow, alternating};
}

}  // namespace

TEST_CASE("the reproducer: Ludo, e-hillclimber and a lead coefficient of 1e308 plays",
          "[robustness]") {
  const auto game = makeGame("ludo");
  Coefficients c{};
  c[static_cast<size_t>(Metric::Lead)] = 1e308;
  const std::vector<std::pair<std::string, Json>> randoms(4, {"random", Json::object()});
  for (const char* id : {"e-hillclimber", "e-maxmax", "e-maxn"}) {
    INFO(id);
    const GameRecord record = playWith(*game, randoms, id, Json::object(), c, 1);
    CHECK(recordProblem(record) == "");
  }
}

TEST_CASE("E-players play every game with coefficients of +-1e308", "[robustness]") {
  for (const auto& gameInfo : gameRegistry()) {
    const auto game = makeGame(gameInfo.id, shortGameParams(gameInfo.id));
    const std::vector<std::pair<std::string, Json>> randoms(static_cast<size_t>(game->numPlayers()),
                                                            {"random", Json::object()});
    const auto sets = overflowingCoefficients();
    for (size_t set = 0; set < sets.size(); ++set) {
      for (const char* id : {"e-hillclimber", "e-maxmax", "e-maxn", "e-montecarlo"}) {
        INFO(gameInfo.id << " " << id << " coefficient set " << set);
        const GameRecord record =
            playWith(*game, randoms, id, cheapEnvironmentParams(id), sets[set], 10 + set);
        CHECK(recordProblem(record) == "");
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A game whose every score is NaN or infinite

namespace {

// `players` players (1 or 2) take 6 rounds; in each the environment draws one of three outcomes,
// then the player on turn picks one of three actions. Every gain, value, believability and
// opponent-view score is `score`.
class ScoreState final : public State {
 public:
  ScoreState(int players, double score) : players_(players), score_(score) {}
  std::unique_ptr<State> clone() const override { return std::make_unique<ScoreState>(*this); }
  int numPlayers() const override { return players_; }
  int actor() const override {
    if (round_ >= kRounds) return kTerminal;
    return rolled_ ? round_ % players_ : kEnvironment;
  }
  void legalActions(std::vector<Action>& out) const override {
    out.clear();
    if (actor() >= 0) out = {0, 1, 2};
  }
  void outcomes(std::vector<Outcome>& out) const override {
    out.clear();
    if (actor() == kEnvironment) out = {{0, 0.25}, {1, 0.25}, {2, 0.5}};
  }
  void apply(Action) override {
    if (!rolled_) {
      rolled_ = true;
      return;
    }
    rolled_ = false;
    ++round_;
  }
  int winner() const override { return -1; }
  bool capped() const override { return false; }
  double gain(int) const override { return score_; }
  int roundsCompleted() const override { return round_; }
  double believability() const override { return score_; }
  bool isPass(Action) const override { return false; }
  std::string actionToString(Action action) const override { return std::to_string(action); }
  std::string toString() const override { return "round " + std::to_string(round_); }
  bool scoreOutcomesAsOpponent(std::span<const Outcome> outcomes,
                               std::span<double> scores) const override {
    std::fill(scores.begin(), scores.begin() + static_cast<long>(outcomes.size()), score_);
    return true;
  }

  static constexpr int kRounds = 6;

 private:
  int players_;
  double score_;
  int round_ = 0;
  bool rolled_ = false;
};

class ScoreGame final : public Game {
 public:
  ScoreGame(int players, double score) : players_(players), score_(score) {}
  int numPlayers() const override { return players_; }
  std::unique_ptr<State> newGame(uint64_t) const override {
    return std::make_unique<ScoreState>(players_, score_);
  }
  double statusScale() const override { return 1.0; }

 private:
  int players_;
  double score_;
};

}  // namespace

TEST_CASE("every player decides legally when every score is NaN or infinite", "[robustness]") {
  const std::vector<std::pair<std::string, Json>> regulars = {
      {"random", Json::object()},
      {"hillclimber", Json::object()},
      {"hillclimber-is", {{"samples", 3}}},
      {"maxn", {{"depth", 3}}},
      {"mcts", {{"iterations", 200}}},
      {"posm", {{"base", "hillclimber"}}},
      {"dynamic-level", {{"base", "hillclimber"}}},
      {"posm", {{"base", "maxn"}}},
      {"dynamic-level", {{"base", "mcts"}, {"base_params", {{"iterations", 50}}}}},
  };
  const std::vector<std::string> environments = {"e-random", "e-hillclimber", "e-maxmax", "e-maxn",
                                                 "e-montecarlo"};
  Coefficients all{};
  all.fill(1.0);
  for (double score : {kNaN, kInf, -kInf}) {
    const ScoreGame game(2, score);
    for (const auto& [id, params] : regulars) {
      for (const auto& environment : environments) {
        INFO(id << " " << params.dump() << " vs " << environment << ", every score " << score);
        const auto record = playWith(game, {{id, params}, {id, params}}, environment,
                                     cheapEnvironmentParams(environment), all, 3);
        CHECK(record.metrics[static_cast<size_t>(Metric::Rounds)] == ScoreState::kRounds);
      }
    }
    const ScoreGame solo(1, score);  // the DDA players as the opponent of a one-player game
    for (const char* environment : {"posm", "dynamic-level"}) {
      INFO(environment << ", every score " << score);
      const auto record =
          playWith(solo, {{"hillclimber", Json::object()}}, environment, Json::object(), all, 4);
      CHECK(record.metrics[static_cast<size_t>(Metric::Rounds)] == ScoreState::kRounds);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stop latency

namespace {

// A state of `game` (dealt from seed 1, played on with random moves and natural outcomes) where
// the regular player (`environment` false) or the environment decides among several choices.
std::unique_ptr<State> decisionNode(const Game& game, bool environment) {
  auto state = game.newGame(1);
  Rng rng(2);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (;;) {
    REQUIRE_FALSE(state->isTerminal());
    state->legalActions(legal);
    state->outcomes(outcomes);
    if (environment ? outcomes.size() > 1 : legal.size() > 1) return state;
    state->apply(state->isEnvironmentNode()
                     ? sampleOutcome(outcomes, rng)
                     : legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
}

struct LongDecider {
  std::string label;
  std::string game;
  Json gameParams;
  std::string player;
  Json params;
  bool environment;
};

// Every player whose single decision can take long, at its largest budget.
std::vector<LongDecider> longDeciders() {
  const Json ludo4 = {{"players", 4}};
  const Json mctsMax = {{"iterations", 10000000}, {"horizon", 100000}};
  const Json maxnMax = {{"depth", 10}, {"max_nodes", 1000000000}};
  const Json minimaxMax = {
      {"iterations", {10000, 10000, 10000}}, {"depths", {10, 10, 10}}, {"widths", {0, 0}}};
  const Json hcisMax = {{"samples", 100000}};
  return {
      {"mcts", "ludo", ludo4, "mcts", mctsMax, false},
      {"maxn", "ludo", ludo4, "maxn", maxnMax, false},
      {"hillclimber-is", "lost-cities", nullptr, "hillclimber-is", hcisMax, false},
      {"minimax-is", "lost-cities", nullptr, "minimax-is", minimaxMax, false},
      {"posm over mcts",
       "ludo",
       ludo4,
       "posm",
       {{"base", "mcts"}, {"base_params", mctsMax}},
       false},
      {"posm over maxn",
       "ludo",
       ludo4,
       "posm",
       {{"base", "maxn"}, {"base_params", maxnMax}},
       false},
      {"dynamic-level over minimax-is",
       "lost-cities",
       nullptr,
       "dynamic-level",
       {{"base", "minimax-is"}, {"base_params", minimaxMax}},
       false},
      {"dynamic-level over hillclimber-is",
       "lost-cities",
       nullptr,
       "dynamic-level",
       {{"base", "hillclimber-is"}, {"base_params", hcisMax}},
       false},
      {"e-montecarlo",
       "ludo",
       ludo4,
       "e-montecarlo",
       {{"random_prob", 0.0}, {"iterations", 10000000}, {"horizon", 1000}},
       true},
      {"e-maxn",
       "ludo",
       ludo4,
       "e-maxn",
       {{"random_prob", 0.0},
        {"depth", 20},
        {"width", 0},
        {"chance_width", 0},
        {"max_nodes", 100000000}},
       true},
      {"e-maxmax",
       "lost-cities",
       nullptr,
       "e-maxmax",
       {{"random_prob", 0.0}, {"depth", 100}},
       true},
  };
}

// What a decision thread reports.
struct StopReport {
  std::atomic<bool> finished{false};
  bool abandoned = false;
  std::string error;
  Clock::time_point abandonedAt;
  int decisions = 0;  // decisions completed before the stop
};

// Everything one decision thread uses, shared so that a thread that never stops stays safe.
struct DecisionWork {
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;
  std::unique_ptr<Player> player;
  std::unique_ptr<EnvironmentPlayer> environment;
  std::atomic<bool> stop{false};
  StopReport report;
};

// Decides again and again at the work's state until the stop arrives.
void decideUntilStopped(DecisionWork& work) {
  try {
    std::vector<Action> legal;
    work.state->legalActions(legal);
    MetricsTracker trace;
    Rng own(1), nature(2);
    for (;;) {
      if (work.player)
        work.player->chooseAction(*work.state, legal, own);
      else
        work.environment->chooseOutcome(*work.state, trace, own, nature);
      ++work.report.decisions;
    }
  } catch (const GameAbandoned&) {
    work.report.abandonedAt = Clock::now();
    work.report.abandoned = true;
  } catch (const std::exception& e) {
    work.report.error = e.what();
  }
  work.report.finished.store(true);
}

}  // namespace

TEST_CASE("long decisions give up soon after the run stops", "[robustness][stop]") {
  for (const LongDecider& d : longDeciders()) {
    INFO(d.label);
    auto work = std::make_shared<DecisionWork>();
    work->game = makeGame(d.game, d.gameParams);
    work->state = decisionNode(*work->game, d.environment);
    Coefficients coefficients{};
    coefficients.fill(1.0);
    const PlayerSetup setup =
        setupFor(*work->game, d.player, d.params, coefficients, StopToken(work->stop));
    REQUIRE(playerInfo(d.player)
                .whyNot(*work->game, setup.params,
                        d.environment ? PlayerKind::Environment : PlayerKind::Regular)
                .empty());
    if (d.environment)
      work->environment = playerInfo(d.player).makeEnvironment(setup);
    else
      work->player = playerInfo(d.player).makeRegular(setup);
    std::thread thread([work] { decideUntilStopped(*work); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto stoppedAt = Clock::now();
    work->stop.store(true);
    const auto limit = stoppedAt + std::chrono::seconds(5);  // generous: the machine is shared
    while (!work->report.finished.load() && Clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!work->report.finished.load()) {
      thread.detach();  // it keeps `work` alive; the failure below is the finding
      FAIL(d.label << " did not stop within 5 s");
    }
    thread.join();
    CHECK(work->report.error == "");
    REQUIRE(work->report.abandoned);
    const double latencyMs =
        std::chrono::duration<double, std::milli>(work->report.abandonedAt - stoppedAt).count();
    std::cout << "stop latency " << d.label << ": " << latencyMs << " ms ("
              << work->report.decisions << " decisions finished in the first 100 ms)\n";
    CHECK(latencyMs < 5000);
  }
}

// ---------------------------------------------------------------------------------------------
// Property test: random valid experiments

namespace {

// Draws random experiments from the registries' schemas: extremes (min, max, 0, the default)
// often, anything in range otherwise.
class ExperimentDrawer {
 public:
  explicit ExperimentDrawer(uint64_t seed) : rng_(seed) {}

  // A batch document of one experiment with one iteration.
  Json document() {
    Json experiment = {{"name", "case"}, {"iterations", 1}};
    const auto& games = gameRegistry();
    const GameInfo& gameInfo = games[below(games.size())];
    const auto [gameParams, game] = drawGame(gameInfo);
    experiment["game"] = {{"id", gameInfo.id}, {"params", gameParams}};
    Json players = Json::array();
    for (int p = 0; p < game->numPlayers(); ++p) players.push_back(drawSeat(*game));
    experiment["players"] = players;
    experiment["environment"] = drawActor(*game, PlayerKind::Environment);
    experiment["coefficients"] = drawCoefficients();
    if (chance(0.2)) experiment["salt"] = rng_.next() >> 12;
    return {{"format", kBatchFormat},
            {"seed", rng_.next() >> 12},
            {"experiments", Json::array({experiment})}};
  }

 private:
  size_t below(size_t n) { return rng_.below(static_cast<uint32_t>(n)); }
  bool chance(double p) { return rng_.uniform() < p; }

  // Parameters that make a game (a few tries; the defaults when the draws keep failing).
  std::pair<Json, std::shared_ptr<const Game>> drawGame(const GameInfo& info) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      const Json params = drawParams(info.params, 0);
      try {
        return {params, info.make(validateParams(info.params, params, "params"))};
      } catch (const InputError&) {
      }
    }
    return {Json::object(), info.make(validateParams(info.params, nullptr, "params"))};
  }

  // A regular player with a level (mostly), or sometimes the level left out.
  Json drawSeat(const Game& game) {
    Json seat = drawActor(game, PlayerKind::Regular);
    if (chance(0.8)) seat["level"] = chance(0.4) ? (chance(0.5) ? 1 : 100) : 1 + int(below(100));
    return seat;
  }

  // A player for `role` that says it can play `game` (mostly: sometimes any, to exercise the
  // refusals), with random parameters.
  Json drawActor(const Game& game, PlayerKind role) {
    std::vector<const PlayerInfo*> able;
    for (const auto& info : playerRegistry())
      if (info.canAct(role)) able.push_back(&info);
    const bool filter = chance(0.95);
    for (int attempt = 0; attempt < 20; ++attempt) {
      const PlayerInfo& info = *able[below(able.size())];
      const Json params = drawParams(info.params, 0);
      if (filter && !canPlay(info, game, params, role)) continue;
      return {{"id", info.id}, {"params", params}};
    }
    return {{"id", role == PlayerKind::Regular ? "random" : "e-random"}};
  }

  static bool canPlay(const PlayerInfo& info, const Game& game, const Json& params,
                      PlayerKind role) {
    try {
      return info.whyNot(game, validateParams(info.params, params, "params"), role).empty();
    } catch (const InputError&) {
      return false;
    }
  }

  // Some parameters of `schema` (each with probability 1/2); a DDA player's `base_params` are
  // drawn from the schema of the `base` drawn, recursively up to a small depth.
  Json drawParams(const std::vector<ParamSpec>& schema, int depth) {
    Json params = Json::object();
    std::string base;
    for (const ParamSpec& spec : schema) {
      if (spec.name == "base") {
        base = drawBase();
        if (chance(0.8)) params["base"] = base;
        if (!params.contains("base")) base = spec.defaultValue.get<std::string>();
      } else if (spec.name == "base_params") {
        if (depth < 3 && chance(0.7))
          params["base_params"] = drawParams(baseSchema(base), depth + 1);
      } else if (chance(0.5)) {
        params[spec.name] = drawValue(spec);
      }
    }
    return params;
  }

  // A base id: usually a player that ranks actions, sometimes any regular player (refused).
  std::string drawBase() {
    static const std::vector<std::string> ranking = {"hillclimber", "hillclimber-is", "minimax-is",
                                                     "maxn", "mcts"};
    if (chance(0.9)) return ranking[below(ranking.size())];
    const auto& all = playerRegistry();
    return all[below(all.size())].id;
  }

  static std::vector<ParamSpec> baseSchema(const std::string& id) {
    for (const auto& info : playerRegistry())
      if (info.id == id) return info.params;
    return {};
  }

  Json drawValue(const ParamSpec& spec) {
    if (!spec.choices.empty()) return spec.choices[below(spec.choices.size())];
    switch (spec.type) {
      case ParamType::Int:
        return static_cast<long long>(std::llround(drawNumber(spec, true)));
      case ParamType::Double:
        return drawNumber(spec, false);
      case ParamType::Bool:
        return chance(0.5);
      case ParamType::IntList: {
        const size_t n = spec.listLength ? spec.listLength : below(13);
        Json list = Json::array();
        for (size_t i = 0; i < n; ++i)
          list.push_back(static_cast<long long>(std::llround(drawNumber(spec, true))));
        return list;
      }
      case ParamType::String:
      case ParamType::Object:
        break;
    }
    return spec.defaultValue;
  }

  // A number in [min, max]: min, max, 0 or the default often, otherwise uniform or log-uniform
  // over the range.
  double drawNumber(const ParamSpec& spec, bool integer) {
    const double lo = spec.min, hi = spec.max;
    const double u = rng_.uniform();
    double x;
    if (u < 0.2)
      x = lo;
    else if (u < 0.4)
      x = hi;
    else if (u < 0.5 && lo <= 0 && hi >= 0)
      x = 0;
    else if (u < 0.6 && spec.defaultValue.is_number())
      x = spec.defaultValue.get<double>();
    else if (u < 0.8 || hi - lo < 100)
      x = lo + (hi - lo) * rng_.uniform();
    else
      x = lo + std::pow(10.0, std::log10(hi - lo + 1) * rng_.uniform()) - 1;
    x = std::clamp(x, lo, hi);
    return integer ? std::clamp(std::floor(x), std::ceil(lo), std::floor(hi)) : x;
  }

  // Coefficients anywhere in [-1e6, 1e6], extremes and 0 often.
  Json drawCoefficients() {
    Json coefficients = Json::object();
    for (const auto& info : allMetrics()) {
      if (chance(0.4)) continue;
      const double u = rng_.uniform();
      const double sign = chance(0.5) ? 1.0 : -1.0;
      double c;
      if (u < 0.25)
        c = sign * 1e6;
      else if (u < 0.35)
        c = 0;
      else if (u < 0.6)
        c = sign * std::pow(10.0, 6 * rng_.uniform());
      else
        c = sign * 1e6 * rng_.uniform();
      coefficients[std::string(info.key)] = c;
    }
    return coefficients;
  }

  Rng rng_;
};

size_t envOr(const char* name, size_t fallback) {
  const char* text = std::getenv(name);
  return text && *text ? static_cast<size_t>(std::strtoull(text, nullptr, 10)) : fallback;
}

enum class CaseResult { Rejected, Played, Abandoned };

// Validates `document`, then plays its game under a watchdog of `budget`; a problem throws
// std::runtime_error.
CaseResult runCase(const Json& document, std::chrono::milliseconds budget) {
  Batch batch;
  try {
    batch = parseBatch(document, "property");
  } catch (const InputError&) {
    return CaseResult::Rejected;
  }
  const Experiment& e = batch.experiments.at(0);
  std::atomic<bool> stop{false};
  const StopToken token(stop);
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> seats;
  for (const PlayerEntry& p : e.players) {
    owned.push_back(std::make_unique<CheckedPlayer>(
        p.info->makeRegular({*e.game, p.level, p.params, e.coefficients, token}), token));
    seats.push_back(owned.back().get());
  }
  CheckedEnvironment environment(e.environment.info->makeEnvironment(
                                     {*e.game, 100, e.environment.params, e.coefficients, token}),
                                 token);
  try {
    const Watchdog watchdog(stop, budget);
    const GameRecord record =
        playGame(*e.game, seats, environment, deriveGameSeed(batch.seed, 0, e.salt));
    if (const std::string problem = recordProblem(record); !problem.empty())
      throw std::runtime_error(problem);
    return CaseResult::Played;
  } catch (const GameAbandoned&) {
    return CaseResult::Abandoned;
  }
}

}  // namespace

TEST_CASE("random valid experiments play without crashes or non-finite metrics",
          "[robustness][property]") {
  // DDALAB_PROPERTY_CASES / _FIRST / _BUDGET_MS widen a local run (thousands of cases).
  const size_t cases = envOr("DDALAB_PROPERTY_CASES", 120);
  const size_t first = envOr("DDALAB_PROPERTY_FIRST", 0);
  const auto budget = std::chrono::milliseconds(envOr("DDALAB_PROPERTY_BUDGET_MS", 250));
  size_t rejected = 0, played = 0, abandoned = 0, failed = 0;
  const auto start = Clock::now();
  for (size_t i = first; i < first + cases; ++i) {
    const Json document = ExperimentDrawer(splitmix64(0x9e0b0e57 + i)).document();
    try {
      switch (runCase(document, budget)) {
        case CaseResult::Rejected:
          ++rejected;
          break;
        case CaseResult::Played:
          ++played;
          break;
        case CaseResult::Abandoned:
          ++abandoned;
          break;
      }
    } catch (const std::exception& error) {
      ++failed;
      FAIL_CHECK("case " << i << ": " << error.what() << "\n" << document.dump());
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << "property cases " << first << ".." << first + cases << ": " << played << " played, "
            << abandoned << " abandoned at " << budget.count() << " ms, " << rejected
            << " refused by validation, " << failed << " failed, " << seconds << " s\n";
  CHECK(played + abandoned > cases / 2);  // the drawer mostly makes valid experiments
}
