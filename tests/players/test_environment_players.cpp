// The search environment players e-maxmax, e-maxn and e-montecarlo (players.md).
#include <catch2/catch.hpp>
#include <set>

#include "experiments/batch.h"
#include "experiments/runner.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "players/environment/settling.h"
#include "players/registry.h"
#include "players/search/tie_breaking.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

const char* const kSearchPlayers[] = {"e-maxmax", "e-maxn", "e-montecarlo"};

// A batch of one experiment: `game` (registry id, default parameters, at most 20 rounds) with
// random regular players and the environment `environment` with `params`.
Batch searchBatch(const std::string& game, const std::string& environment, const Json& params,
                  int iterations, uint64_t seed = 5) {
  const auto& info = findById<GameInfo>(gameRegistry(), game, "game", "");
  const int n = info.make(validateParams(info.params, nullptr, "g"))->numPlayers();
  Json players = Json::array();
  for (int p = 0; p < n; ++p) players.push_back({{"id", "random"}});
  const Json document = {
      {"format", "ddalab-batch/1"},
      {"seed", seed},
      {"experiments",
       {{{"name", "e"},
         {"game", shortGame(game)},
         {"players", players},
         {"environment", {{"id", environment}, {"params", params}}},
         {"coefficients", {{"believability", 10}, {"tension", 10}, {"lead", 3}, {"freedom", 1}}},
         {"iterations", iterations}}}}};
  return parseBatch(document, "test");
}

// Fingerprint of every record of the batch's only experiment.
uint64_t signature(const Batch& batch) {
  RunOptions options;
  options.threads = 2;
  const auto results = runBatch(batch, options);
  uint64_t h = 1;
  for (const auto& r : results.front().records) h = fingerprint(r, h);
  return h;
}

// A cheap configuration of each search player, so tests on every game stay fast.
Json cheapParams(const std::string& id) {
  if (id == "e-maxmax") return {{"depth", 1}};
  if (id == "e-maxn") return {{"depth", 1}, {"width", 3}, {"chance_width", 3}};
  return {{"iterations", 20}, {"horizon", 3}};
}

// Two-player Ludo with the pieces of player 0 (to roll) and player 1 on the given relative
// squares; the fun score weighs only `metric`.
struct LeaderPosition {
  LeaderPosition(std::array<int, 4> first, std::array<int, 4> second, Metric metric) {
    const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
    game = info.make(validateParams(info.params, Json{{"players", 2}}, "g"));
    state = game->newGame(0);
    auto& ludo = dynamic_cast<ludo::LudoState&>(*state);
    ludo.setPieces(0, first);
    ludo.setPieces(2, second);
    const Gains gains = gainsOf(*state);
    trace = MetricsTracker(std::span(gains.data(), 2));
    coefficients[static_cast<size_t>(metric)] = 1;
  }

  // The outcome the environment `id` with `params` (random_prob 0) picks here.
  Action choice(const std::string& id, Json params, uint64_t seed = 1) const {
    const auto& eInfo = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    params["random_prob"] = 0.0;
    auto environment = eInfo.makeEnvironment(
        {*game, 100, validateParams(eInfo.params, params, "p"), coefficients});
    Rng own(seed), nature(2);
    return environment->chooseOutcome(*state, trace, own, nature);
  }

  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;
  MetricsTracker trace;
  Coefficients coefficients{};
};

}  // namespace

TEST_CASE("search E-players give the leader the smallest roll", "[e-players]") {
  // Rewarding only a small lead: a roll of 1 for the far leader is best at once and later.
  const LeaderPosition position({30, 31, 32, 33}, {0, 1, 2, 3}, Metric::Lead);
  for (const char* id : kSearchPlayers) {
    INFO(id);
    CHECK(position.choice(id, Json::object()) == 1);
  }
}

TEST_CASE("search E-players look past the round where e-hillclimber is indifferent",
          "[e-players]") {
  // Rewarding only lead changes: the leader's roll cannot change the lead in its own round, so
  // every settled F ties and e-hillclimber picks at random; a roll of 1 is the one that lets the
  // opponent overtake next round, which only a deeper search sees.
  const LeaderPosition position({11, 12, 13, 14}, {10, 11, 12, 13}, Metric::LeadChanges);
  std::vector<Outcome> outcomes;
  position.state->outcomes(outcomes);
  std::vector<double> settled;
  settledFuns(*position.state, position.trace, outcomes, position.coefficients, settled);
  CHECK(bestIndices(settled).size() == outcomes.size());
  std::set<Action> hillclimberChoices;
  for (uint64_t seed = 1; seed <= 8; ++seed)
    hillclimberChoices.insert(position.choice("e-hillclimber", Json::object(), seed));
  CHECK(hillclimberChoices.size() > 1);
  for (const char* id : kSearchPlayers)
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      INFO(id << " seed " << seed);
      CHECK(position.choice(id, Json::object(), seed) == 1);
    }
}

TEST_CASE("search E-players with random_prob 1 reproduce e-random bit for bit", "[e-players]") {
  const uint64_t natural = signature(searchBatch("ludo", "e-random", Json::object(), 6));
  for (const char* id : kSearchPlayers) {
    INFO(id);
    Json params = cheapParams(id);
    params["random_prob"] = 1.0;
    CHECK(signature(searchBatch("ludo", id, params, 6)) == natural);
    params["random_prob"] = 0.2;
    CHECK(signature(searchBatch("ludo", id, params, 6)) != natural);
  }
}

TEST_CASE("search E-players are deterministic for a fixed seed", "[e-players]") {
  for (const char* id : kSearchPlayers) {
    INFO(id);
    const Json params = cheapParams(id);
    const uint64_t first = signature(searchBatch("ludo", id, params, 4));
    CHECK(signature(searchBatch("ludo", id, params, 4)) == first);
    CHECK(signature(searchBatch("ludo", id, params, 4, 6)) != first);
  }
}

TEST_CASE("search E-players play 20 rounds of every registered game", "[e-players]") {
  for (const auto& game : gameRegistry()) {
    for (const char* id : kSearchPlayers) {
      INFO(game.id << " " << id);
      RunOptions options;
      options.threads = 2;
      const auto results = runBatch(searchBatch(game.id, id, cheapParams(id), 2), options);
      REQUIRE(results.front().records.size() == 2);
      for (const auto& record : results.front().records)
        for (double m : record.metrics) CHECK(std::isfinite(m));
    }
  }
}

TEST_CASE("the settler keeps the line of the outcome it picks, as settling it afresh gives it",
          "[e-players]") {
  // e-maxmax goes on from the kept line instead of playing the outcome and its reply again.
  Coefficients coefficients{};
  for (auto [metric, c] : {std::pair{Metric::Believability, 10.0},
                           {Metric::Tension, 10.0},
                           {Metric::Lead, 3.0},
                           {Metric::Freedom, 1.0}})
    coefficients[static_cast<size_t>(metric)] = c;
  const auto sameMetrics = [](const MetricValues& a, const MetricValues& b) {
    for (size_t k = 0; k < a.size(); ++k)
      if (!(a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k])))) return false;
    return true;
  };
  for (const auto& info : gameRegistry()) {
    INFO(info.id);
    const auto game = info.make(validateParams(info.params, nullptr, "g"));
    auto state = game->newGame(3);
    MetricsTracker trace(*state);
    Settler settler;
    Rng rng(7);
    std::vector<Action> legal;
    std::vector<Outcome> outcomes;
    int compared = 0;
    for (int step = 0; step < 300 && !state->isTerminal(); ++step) {
      if (!state->isEnvironmentNode()) {
        state->legalActions(legal);
        const auto n = static_cast<uint32_t>(legal.size());
        applyTracked(*state, trace, legal[rng.below(n)], static_cast<int>(n));
        continue;
      }
      const Action picked = settler.best(*state, trace, coefficients);
      state->outcomes(outcomes);
      for (const Outcome& o : outcomes)
        if (o.action != picked) CHECK(settler.kept(o.action) == nullptr);
      // Kept unless an earlier outcome ties within bestIndices' tolerance without being equal.
      if (const Line* kept = settler.kept(picked)) {
        Settler another;
        const Line& fresh = another.settle(*state, trace, picked);
        CHECK(kept->state->toString() == fresh.state->toString());
        CHECK(kept->roundOpen == fresh.roundOpen);
        CHECK(sameMetrics(kept->metrics(), fresh.metrics()));
        ++compared;
      }
      applyTracked(*state, trace, picked, 0);
    }
    CHECK(compared > 10);
  }
}
