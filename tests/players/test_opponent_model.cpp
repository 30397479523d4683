// The opponent models of the searching E-players: greedy, ranking, players; the e-montecarlo
// final choice and the e-maxn chance expansion.
#include <catch2/catch.hpp>

#include "experiments/batch.h"
#include "experiments/runner.h"
#include "games/registry.h"
#include "players/environment/opponent_model.h"
#include "players/registry.h"
#include "players/regular/ranking.h"
#include "players/search/greedy.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

const char* const kSearchPlayers[] = {"e-maxmax", "e-maxn", "e-montecarlo"};

// Two-player Ludo with seats `first` and `second` (level 50 and 100).
struct LudoSeats {
  LudoSeats(const std::string& first, const std::string& second) {
    const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
    game = info.make(validateParams(info.params, Json{{"players", 2}}, "g"));
    seats = {seat(first, 50), seat(second, 100)};
  }

  static SeatSetup seat(const std::string& id, int level) {
    const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    return {&info, level, validateParams(info.params, nullptr, "p")};
  }

  // The seat's own player, built as the runner builds it.
  std::unique_ptr<Player> player(size_t index) const {
    const SeatSetup& s = seats[index];
    return s.info->makeRegular({*game, s.level, s.params, {}});
  }

  OpponentModel model(OpponentModelKind kind) const {
    return OpponentModel(kind, {*game, 100, Json::object(), {}, {}, seats});
  }

  std::shared_ptr<const Game> game;
  std::vector<SeatSetup> seats;
};

// Calls `visit(state, legal)` at every regular decision of a random playout of `game`.
template <typename Visit>
void forEachDecision(const Game& game, uint64_t seed, Visit&& visit) {
  auto state = game.newGame(seed);
  Rng rng(seed);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (int step = 0; step < 400 && !state->isTerminal(); ++step) {
    if (state->isEnvironmentNode()) {
      state->outcomes(outcomes);
      state->apply(sampleOutcome(outcomes, rng));
      continue;
    }
    state->legalActions(legal);
    visit(*state, std::span<const Action>(legal));
    state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
}

// A batch of one two-player Ludo experiment, seats maxn 50 and hillclimber 100.
Batch ludoBatch(const std::string& environment, const Json& params, int iterations) {
  const Json document = {
      {"format", "ddalab-batch/1"},
      {"seed", 9},
      {"experiments",
       {{{"name", "e"},
         {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
         {"players", {{{"id", "maxn"}, {"level", 50}}, {{"id", "hillclimber"}}}},
         {"environment", {{"id", environment}, {"params", params}}},
         {"coefficients", {{"believability", 1000}, {"tension", 10}, {"lead", 3}}},
         {"iterations", iterations}}}}};
  return parseBatch(document, "test");
}

uint64_t signature(const Batch& batch) {
  RunOptions options;
  options.threads = 2;
  uint64_t h = 1;
  // Held in a variable: a range-for over a member of the temporary would read freed memory.
  const std::vector<ExperimentResult> results = runBatch(batch, options);
  for (const auto& r : results.front().records) h = fingerprint(r, h);
  return h;
}

Json cheapParams(const std::string& id) {
  if (id == "e-maxmax") return {{"depth", 1}};
  if (id == "e-maxn") return {{"depth", 2}};
  return {{"iterations", 30}, {"horizon", 3}};
}

}  // namespace

TEST_CASE("the players model replies as the seat's own player would, same state and rng",
          "[opponent-model]") {
  const LudoSeats ludo("maxn", "hillclimber");
  OpponentModel model = ludo.model(OpponentModelKind::Players);
  std::vector<std::unique_ptr<Player>> own;
  own.push_back(ludo.player(0));
  own.push_back(ludo.player(1));
  int compared = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed)
    forEachDecision(*ludo.game, seed, [&](const State& state, std::span<const Action> legal) {
      const uint64_t stream = seed * 1000 + static_cast<uint64_t>(compared);
      model.reseed(stream);
      Rng rng(stream);
      const Action expected =
          own[static_cast<size_t>(state.actor())]->chooseAction(state, legal, rng);
      CHECK(model.reply(state, legal) == expected);
      ++compared;
    });
  CHECK(compared > 50);
}

TEST_CASE("the ranking model plays the exact rank of the seat's level", "[opponent-model]") {
  const std::vector<double> scores = {0.5, 2.0, 1.0, 2.0, -1.0};
  CHECK(exactRank(scores, 100) == 1);  // the best, ties to the first
  CHECK(exactRank(scores, 0) == 4);    // the worst
  CHECK(exactRank(scores, 50) == 2);   // the middle of 2.0, 2.0, 1.0, 0.5, -1.0
  // A HillClimber at level 100 ranks by one-ply value: its reply is the greedy one.
  const LudoSeats ludo("hillclimber", "hillclimber");
  OpponentModel model = ludo.model(OpponentModelKind::Ranking);
  forEachDecision(*ludo.game, 4, [&](const State& state, std::span<const Action> legal) {
    if (state.actor() == 1) CHECK(model.reply(state, legal) == greedyAction(state, legal));
  });
}

TEST_CASE("the greedy model and a seat without a player reply value-greedily", "[opponent-model]") {
  const LudoSeats ludo("maxn", "maxn");
  OpponentModel greedy = ludo.model(OpponentModelKind::Greedy);
  CHECK_FALSE(greedy.random());
  OpponentModel people(OpponentModelKind::Players,
                       {*ludo.game, 100, Json::object(), {}, {}, {SeatSetup{}, SeatSetup{}}});
  forEachDecision(*ludo.game, 5, [&](const State& state, std::span<const Action> legal) {
    CHECK(greedy.reply(state, legal) == greedyAction(state, legal));
    CHECK(people.reply(state, legal) == greedyAction(state, legal));
  });
}

TEST_CASE("the new E-player parameters are validated", "[opponent-model]") {
  const auto check = [](const char* id, const Json& params, const char* valid) {
    const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    INFO(id << " " << params.dump());
    CHECK_THROWS_WITH(validateParams(info.params, params, "params"), Catch::Contains(valid));
  };
  for (const char* id : kSearchPlayers) check(id, {{"opponent_model", "oracle"}}, "players");
  check("e-montecarlo", {{"choose", "robust"}}, "best-value");
  check("e-maxn", {{"chance_order", "random"}}, "probability");
}

TEST_CASE("the defaults are the greedy model, best-value and settled-fun expansion",
          "[opponent-model]") {
  const Json explicitDefaults[] = {{{"opponent_model", "greedy"}},
                                   {{"opponent_model", "greedy"}, {"chance_order", "settled-fun"}},
                                   {{"opponent_model", "greedy"}, {"choose", "best-value"}}};
  for (size_t i = 0; i < 3; ++i) {
    const std::string id = kSearchPlayers[i];
    INFO(id);
    Json params = cheapParams(id);
    const uint64_t defaults = signature(ludoBatch(id, params, 3));
    params.update(explicitDefaults[i]);
    CHECK(signature(ludoBatch(id, params, 3)) == defaults);
  }
}

TEST_CASE("search E-players with the seats' models are deterministic and differ from greedy",
          "[opponent-model]") {
  for (const char* id : kSearchPlayers)
    for (const char* model : {"ranking", "players"}) {
      INFO(id << " " << model);
      Json params = cheapParams(id);
      const uint64_t greedy = signature(ludoBatch(id, params, 4));
      params["opponent_model"] = model;
      const uint64_t modelled = signature(ludoBatch(id, params, 4));
      CHECK(signature(ludoBatch(id, params, 4)) == modelled);
      CHECK(modelled != greedy);
    }
}

TEST_CASE("e-montecarlo with choose best-value takes the root outcome of the best mean fun",
          "[opponent-model]") {
  const LudoSeats ludo("hillclimber", "hillclimber");
  const auto& info = findById<PlayerInfo>(playerRegistry(), "e-montecarlo", "player", "");
  Coefficients coefficients{};
  coefficients[static_cast<size_t>(Metric::Tension)] = 10;
  coefficients[static_cast<size_t>(Metric::Lead)] = 3;
  const Json params = {{"random_prob", 0.0}, {"iterations", 60}, {"choose", "best-value"}};
  auto environment = info.makeEnvironment(
      {*ludo.game, 100, validateParams(info.params, params, "p"), coefficients, {}, ludo.seats});
  EnvironmentDecision decision;
  environment->describeDecisionsTo(&decision);
  int checked = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    auto state = ludo.game->newGame(seed);
    const Gains gains = gainsOf(*state);
    MetricsTracker trace(std::span(gains.data(), 2));
    if (!state->isEnvironmentNode()) continue;
    Rng own(seed), nature(seed + 1);
    environment->chooseOutcome(*state, trace, own, nature);
    double best = -INFINITY;
    for (const auto& a : decision.appraisals) best = std::max(best, a.searchValue.value_or(best));
    for (const auto& a : decision.appraisals)
      if (a.outcome == decision.chosen) CHECK(a.searchValue == best);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("search E-players with the players model play 20 rounds of every registered game",
          "[opponent-model]") {
  for (const auto& game : gameRegistry())
    for (const char* id : kSearchPlayers) {
      INFO(game.id << " " << id);
      const int n = game.make(validateParams(game.params, nullptr, "g"))->numPlayers();
      Json players = Json::array();
      for (int p = 0; p < n; ++p) players.push_back({{"id", "random"}});
      Json params = cheapParams(id);
      params["opponent_model"] = "players";
      const Json document = {{"format", "ddalab-batch/1"},
                             {"seed", 3},
                             {"experiments",
                              {{{"name", "e"},
                                {"game", shortGame(game.id)},
                                {"players", players},
                                {"environment", {{"id", id}, {"params", params}}},
                                {"coefficients", {{"tension", 10}, {"lead", 3}}},
                                {"iterations", 2}}}}};
      RunOptions options;
      options.threads = 2;
      const auto results = runBatch(parseBatch(document, "test"), options);
      REQUIRE(results.front().records.size() == 2);
    }
}
