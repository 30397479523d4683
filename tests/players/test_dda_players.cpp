// The DDA players (posm, dynamic-level): the POSM weights follow the thesis, Dynamic Level moves
// its level by the status, both wrap a base player in the regular role and build the Maze as its
// opponent in the environment role.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>

#include "core/match.h"
#include "experiments/batch.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "players/dda/dynamic_level.h"
#include "players/dda/posm.h"
#include "players/registry.h"

using namespace ddalab;

namespace {

std::shared_ptr<const Game> makeGame(const std::string& id, const Json& params = nullptr) {
  const auto& info = findById<GameInfo>(gameRegistry(), id, "game", "");
  return info.make(validateParams(info.params, params, "params"));
}

const PlayerInfo& playerInfo(const std::string& id) {
  return findById<PlayerInfo>(playerRegistry(), id, "player", "");
}

// Why player `id` with `params` cannot take `role` in `game` ("" when it can).
std::string whyNot(const std::string& id, const Game& game, const Json& params, PlayerKind role) {
  const auto& info = playerInfo(id);
  return info.whyNot(game, validateParams(info.params, params, "params"), role);
}

std::unique_ptr<Player> makeRegular(const std::string& id, const Game& game, const Json& params) {
  const auto& info = playerInfo(id);
  const Json validated = validateParams(info.params, params, "params");
  REQUIRE(info.whyNot(game, validated, PlayerKind::Regular).empty());
  return info.makeRegular({game, 100, validated, {}});
}

std::unique_ptr<EnvironmentPlayer> makeEnvironment(const std::string& id, const Game& game,
                                                   const Json& params) {
  const auto& info = playerInfo(id);
  const Json validated = validateParams(info.params, params, "params");
  REQUIRE(info.whyNot(game, validated, PlayerKind::Environment).empty());
  return info.makeEnvironment({game, 100, validated, {}});
}

// A maze right after the explorer opened a start door: the environment builds its corridor.
std::unique_ptr<State> mazeCorridorNode(const Game& maze) {
  auto state = maze.newGame(3);
  std::vector<Action> legal;
  state->legalActions(legal);
  state->apply(legal.front());
  REQUIRE(state->isEnvironmentNode());
  return state;
}

// The opponent scores of the outcomes at `state` and the one `environment` picks.
struct OpponentChoice {
  std::vector<Outcome> outcomes;
  std::vector<double> scores;
  double chosenScore = 0;
};
OpponentChoice opponentChoice(const State& state, EnvironmentPlayer& environment) {
  OpponentChoice c;
  state.outcomes(c.outcomes);
  c.scores.resize(c.outcomes.size());
  REQUIRE(state.scoreOutcomesAsOpponent(c.outcomes, c.scores));
  Rng own(1), nature(2);
  const Action chosen = environment.chooseOutcome(state, MetricsTracker(), own, nature);
  for (size_t i = 0; i < c.outcomes.size(); ++i)
    if (c.outcomes[i].action == chosen) c.chosenScore = c.scores[i];
  return c;
}

// One game of Ludo with 4 players: posm and dynamic-level (base hillclimber) against
// hillclimbers.
GameRecord ludoWithDda(uint64_t seed) {
  const auto game = makeGame("ludo");
  std::vector<std::unique_ptr<Player>> owned;
  owned.push_back(makeRegular("posm", *game, {{"base", "hillclimber"}}));
  owned.push_back(makeRegular("dynamic-level", *game, {{"base", "hillclimber"}}));
  owned.push_back(makeRegular("hillclimber", *game, nullptr));
  owned.push_back(makeRegular("hillclimber", *game, nullptr));
  std::vector<Player*> seats;
  for (auto& p : owned) seats.push_back(p.get());
  auto environment = makeEnvironment("e-random", *game, nullptr);
  return playGame(*game, seats, *environment, seed);
}

// One Maze game with a hillclimber explorer and the DDA player `id` building the maze.
GameRecord mazeAgainst(const std::string& id, uint64_t seed) {
  const auto game = makeGame("maze", {{"width", 21}, {"height", 21}});
  auto explorer = makeRegular("hillclimber", *game, {{"sigma", 0.0}});
  Player* seats[] = {explorer.get()};
  auto environment = makeEnvironment(id, *game, nullptr);
  return playGame(*game, seats, *environment, seed);
}

std::string batchError(const Json& experiment) {
  const Json document = {{"format", "ddalab-batch/1"}, {"seed", 1}, {"experiments", {experiment}}};
  try {
    parseBatch(document, "f.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A Ludo experiment whose first seat is `first`, the others hillclimbers.
Json ludoExperiment(const Json& first) {
  return {{"name", "x"},
          {"game", {{"id", "ludo"}}},
          {"players",
           {first, {{"id", "hillclimber"}}, {{"id", "hillclimber"}}, {{"id", "hillclimber"}}}},
          {"iterations", 1}};
}

}  // namespace

TEST_CASE("POSM reproduces the balloon example of the thesis", "[dda]") {
  // 10 settings, beta 0.5: first setting 5 or 6 (ties), after "too easy" at 5 it is 7.
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed);
    PosmWeights weights(10, 0.5);
    const int first = weights.choose(rng);
    CHECK((first == 4 || first == 5));
    weights.update(4, +1);
    for (int k = 0; k < 10; ++k) CHECK(weights.weight(k) == (k <= 4 ? 0.5 : 1.0));
    CHECK(weights.choose(rng) == 6);
  }
  // The mirror image: "too hard" at setting 6 makes settings 6..10 lighter, the choice is 4.
  Rng rng(1);
  PosmWeights weights(10, 0.5);
  weights.update(5, -1);
  CHECK(weights.choose(rng) == 3);
  weights.update(3, 0);  // balanced: nothing changes
  CHECK(weights.choose(rng) == 3);
}

TEST_CASE("POSM weights never underflow", "[dda]") {
  PosmWeights weights(10, 0.75);
  // Every setting too easy a million times: plain weights would all reach 0 and tie.
  for (int i = 0; i < 1'000'000; ++i) weights.update(9, +1);
  weights.update(4, +1);
  Rng rng(3);
  CHECK(weights.choose(rng) == 5);  // the easier half is lighter: a harder setting
  // A million random observations about the chosen setting keep every weight finite.
  for (int i = 0; i < 1'000'000; ++i) {
    const int k = weights.choose(rng);
    REQUIRE((k >= 0 && k < 10));
    weights.update(k, static_cast<int>(rng.below(3)) - 1);
  }
  double top = 0;
  for (int k = 0; k < 10; ++k) {
    REQUIRE(std::isfinite(weights.weight(k)));
    top = std::max(top, weights.weight(k));
  }
  CHECK(top == 1.0);
}

TEST_CASE("the POSM rule observes its previous choice at the next decision", "[dda]") {
  Rng rng(5);
  PosmRule rule(0.5, 10.0);
  CHECK(rule.observe(-10.5) == +1);  // the opponents lead: too easy for them
  CHECK(rule.observe(10.5) == -1);
  CHECK(rule.observe(10.0) == 0);
  const int first = rule.nextLevel(-100, rng);  // nothing to observe yet
  CHECK((first == 50 || first == 60));
  for (int k = 0; k < 10; ++k) CHECK(rule.weights().weight(k) == 1.0);
  const int second = rule.nextLevel(-100, rng);  // too easy at `first`: harder now
  CHECK(second > first);
  CHECK(rule.weights().weight(first / 10 - 1) == 0.5);
  CHECK(rule.weights().weight(9) == 1.0);
}

TEST_CASE("Dynamic Level moves its level against the status", "[dda]") {
  Rng rng(1);
  DynamicLevelRule rule(50, 5);
  CHECK(rule.nextLevel(10, rng) == 48);  // leading by 10: two levels weaker
  CHECK(rule.nextLevel(-2.5, rng) == 49);
  CHECK(rule.level() == 48.5);
  CHECK(rule.nextLevel(1000, rng) == 0);
  CHECK(rule.nextLevel(-1e9, rng) == 100);
  CHECK(rule.nextLevel(0, rng) == 100);
}

TEST_CASE("Dynamic Level plays the exact rank of its level", "[dda]") {
  const auto game = makeGame("ludo");
  auto state = game->newGame(0);
  dynamic_cast<ludo::LudoState&>(*state).setPieces(0, {2, 9, 17, 30});
  state->apply(3);  // player 0 rolls a 3: every piece can move, to squares of different value
  std::vector<Action> legal;
  state->legalActions(legal);
  REQUIRE(legal.size() > 2);
  std::vector<double> values;
  for (Action a : legal) {
    auto next = state->clone();
    next->apply(a);
    values.push_back(next->value(0));
  }
  const double best = *std::max_element(values.begin(), values.end());
  const double worst = *std::min_element(values.begin(), values.end());
  REQUIRE(best > worst);
  // A huge alpha: the level stays where it starts.
  for (const auto& [level, expected] : {std::pair{100, best}, std::pair{0, worst}}) {
    auto player = makeRegular("dynamic-level", *game,
                              {{"base", "hillclimber"}, {"initial_level", level}, {"alpha", 1e12}});
    Rng rng(2);
    const Action chosen = player->chooseAction(*state, legal, rng);
    auto next = state->clone();
    next->apply(chosen);
    CHECK(next->value(0) == expected);
  }
}

TEST_CASE("the DDA players are deterministic and finish a 4-player Ludo game", "[dda]") {
  const GameRecord a = ludoWithDda(11);
  CHECK(fingerprint(a) == fingerprint(ludoWithDda(11)));
  CHECK(a.metrics[static_cast<size_t>(Metric::Rounds)] > 0);
  CHECK((a.winner >= 0 || a.capped));
}

TEST_CASE("the maze-building opponent ranks corridors by the explorer's best reply", "[dda]") {
  const auto game = makeGame("maze");
  const auto state = mazeCorridorNode(*game);
  // A level that stays put (huge alpha): 100 builds the worst corridor for the explorer.
  auto hardest = makeEnvironment("dynamic-level", *game, {{"initial_level", 100}, {"alpha", 1e12}});
  const OpponentChoice c = opponentChoice(*state, *hardest);
  const double top = *std::max_element(c.scores.begin(), c.scores.end());
  const double bottom = *std::min_element(c.scores.begin(), c.scores.end());
  REQUIRE(top > bottom);
  CHECK(c.chosenScore == top);
  auto easiest = makeEnvironment("dynamic-level", *game, {{"initial_level", 0}, {"alpha", 1e12}});
  CHECK(opponentChoice(*state, *easiest).chosenScore == bottom);
  // Default alpha = scale / 10 = 5: the explorer's status (far below -250 at the start) is the
  // opponent's lead, which drops the level from 50 to 0.
  REQUIRE(statusOf(*state, 0) < -5 * 50);
  REQUIRE(c.outcomes.size() >= 3);
  auto adaptive = makeEnvironment("dynamic-level", *game, nullptr);
  CHECK(opponentChoice(*state, *adaptive).chosenScore == bottom);
}

TEST_CASE("posm and dynamic-level build whole mazes deterministically", "[dda]") {
  for (const std::string id : {"posm", "dynamic-level"}) {
    const GameRecord a = mazeAgainst(id, 4);
    CHECK(fingerprint(a) == fingerprint(mazeAgainst(id, 4)));
    CHECK(a.metrics[static_cast<size_t>(Metric::Rounds)] > 1);
    CHECK(std::isfinite(a.metrics[static_cast<size_t>(Metric::Believability)]));
  }
}

TEST_CASE("the DDA players refuse roles and bases they cannot play", "[dda]") {
  const auto ludo = makeGame("ludo");
  const auto maze = makeGame("maze");
  const auto lostCities = makeGame("lost-cities");
  for (const std::string id : {"posm", "dynamic-level"}) {
    CHECK(whyNot(id, *ludo, nullptr, PlayerKind::Regular).empty());
    CHECK(whyNot(id, *maze, nullptr, PlayerKind::Environment).empty());
    CHECK(whyNot(id, *maze, nullptr, PlayerKind::Regular).find("one-player") != std::string::npos);
    CHECK(whyNot(id, *ludo, nullptr, PlayerKind::Environment).find("one-player") !=
          std::string::npos);
    // The base decides which games it plays.
    CHECK(whyNot(id, *lostCities, nullptr, PlayerKind::Regular).find("base 'hillclimber'") !=
          std::string::npos);
    CHECK(whyNot(id, *lostCities, {{"base", "hillclimber-is"}, {"base_params", {{"samples", 2}}}},
                 PlayerKind::Regular)
              .empty());
    CHECK(whyNot(id, *lostCities, {{"base", "hillclimber-is"}, {"base_params", {{"samples", 0}}}},
                 PlayerKind::Regular)
              .find("samples") != std::string::npos);
  }
  // Only Maze states have an opponent's view of the environment.
  std::vector<Outcome> outcomes;
  auto roll = ludo->newGame(0);
  roll->outcomes(outcomes);
  std::vector<double> scores(outcomes.size());
  CHECK_FALSE(roll->scoreOutcomesAsOpponent(outcomes, scores));
}

TEST_CASE("batch files take DDA players with a base and name the valid bases", "[dda]") {
  CHECK(batchError(ludoExperiment({{"id", "posm"}, {"params", {{"base", "hillclimber"}}}})) == "");
  CHECK(batchError(ludoExperiment({{"id", "dynamic-level"}, {"level", 30}})) == "");
  const std::string error =
      batchError(ludoExperiment({{"id", "posm"}, {"params", {{"base", "nope"}}}}));
  CHECK(error.find("players[0].id") != std::string::npos);
  CHECK(error.find("unknown base 'nope'") != std::string::npos);
  CHECK(error.find("valid: hillclimber, hillclimber-is, minimax-is") != std::string::npos);
  CHECK(error.find("random,") == std::string::npos);  // does not rank actions
  CHECK(error.find(", posm") == std::string::npos);   // a DDA player is no base
  CHECK(batchError(ludoExperiment({{"id", "posm"}, {"params", {{"base_params", 3}}}}))
            .find("expected object") != std::string::npos);
  const Json maze = {{"name", "m"},
                     {"game", {{"id", "maze"}}},
                     {"players", {{{"id", "hillclimber"}}}},
                     {"environment", {{"id", "posm"}, {"params", {{"beta", 0.5}}}}},
                     {"iterations", 1}};
  CHECK(batchError(maze) == "");
}

TEST_CASE("a DDA player is no base, and deep base_params are checked in linear time", "[dda]") {
  const auto ludo = makeGame("ludo");
  CHECK(whyNot("posm", *ludo, {{"base", "dynamic-level"}}, PlayerKind::Regular)
            .find("base 'dynamic-level' is a DDA player") != std::string::npos);
  // posm over posm over ... 2,000 levels deep (past the parser's nesting limit, so given to the
  // check directly): only the outermost base is looked at. Building each level used to copy the
  // rest of the nesting: seconds and gigabytes.
  Json deep = Json::object();
  for (int level = 0; level < 2000; ++level) {
    Json outer = {{"base", "posm"}};
    outer["base_params"] = std::move(deep);
    deep = std::move(outer);
  }
  const auto& posm = playerInfo("posm");
  Json params = validateParams(posm.params, {{"base", "posm"}}, "params");
  params["base_params"] = std::move(deep);
  const auto start = std::chrono::steady_clock::now();
  const std::string why = posm.whyNot(*ludo, params, PlayerKind::Regular);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(why.find("base 'posm' is a DDA player") != std::string::npos);
  CHECK(why.find("valid: hillclimber, hillclimber-is, minimax-is, maxn, mcts") !=
        std::string::npos);
  CHECK(seconds < 1.0);  // about a millisecond
}
