// Level scaling, the registry's validation, and the environment players' contracts.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "experiments/batch.h"
#include "experiments/runner.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "players/environment/settling.h"
#include "players/registry.h"
#include "players/regular/level.h"
#include "players/search/greedy.h"
#include "players/search/tie_breaking.h"

using namespace ddalab;

TEST_CASE("level scaling with sigma 0 plays the exact rank") {
  const std::vector<double> scores = {3.0, -1.0, 7.0, 0.5, 2.0};  // ascending: 1, 3, 4, 0, 2
  Rng rng(1);
  CHECK(pickByLevel(scores, 100, 0.0, rng) == 2);
  CHECK(pickByLevel(scores, 1, 0.0, rng) == 1);   // round(0.01 * 4) = 0: the worst
  CHECK(pickByLevel(scores, 50, 0.0, rng) == 4);  // round(0.5 * 4) = 2: the median
  CHECK(pickByLevel(scores, 75, 0.0, rng) == 0);  // round(0.75 * 4) = 3
  CHECK(pickByLevel(std::vector<double>{5.0}, 1, 0.4, rng) == 0);
}

TEST_CASE("level scaling orders equal scores randomly") {
  const std::vector<double> scores = {1.0, 1.0, 1.0, 0.0};
  std::map<size_t, int> picks;
  Rng rng(3);
  for (int i = 0; i < 3000; ++i) ++picks[pickByLevel(scores, 100, 0.0, rng)];
  CHECK(picks.count(3) == 0);
  for (size_t i = 0; i < 3; ++i) CHECK(picks[i] == Approx(1000).margin(150));
}

TEST_CASE("level scaling with sigma draws ranks around level/100") {
  std::vector<double> scores(11);
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<double>(i);
  Rng rng(5);
  double sumLow = 0, sumHigh = 0;
  for (int i = 0; i < 4000; ++i) {
    sumLow += static_cast<double>(pickByLevel(scores, 20, 0.4, rng));
    sumHigh += static_cast<double>(pickByLevel(scores, 90, 0.4, rng));
  }
  // Truncated normals on [0, 1]: means about 0.38 and 0.63 of the range of 10 ranks.
  CHECK(sumLow / 4000 == Approx(3.8).margin(0.4));
  CHECK(sumHigh / 4000 == Approx(6.3).margin(0.4));
}

TEST_CASE("every registered player has a unique id and constructs on every game") {
  std::map<std::string, int> ids;
  for (const auto& info : playerRegistry()) {
    ++ids[info.id];
    CHECK(info.canAct(info.kind));
    for (const auto& gameInfo : gameRegistry()) {
      const auto game = gameInfo.make(validateParams(gameInfo.params, nullptr, "g"));
      const PlayerSetup setup{*game, 100, validateParams(info.params, nullptr, "p"), {}};
      for (const auto role : {PlayerKind::Regular, PlayerKind::Environment}) {
        if (!info.canAct(role) || !info.whyNot(*game, setup.params, role).empty()) continue;
        if (role == PlayerKind::Regular)
          CHECK(info.makeRegular(setup) != nullptr);
        else
          CHECK(info.makeEnvironment(setup) != nullptr);
      }
    }
  }
  for (const auto& [id, count] : ids) CHECK(count == 1);
}

namespace {

Batch environmentBatch(const std::string& environment, Json params, int iterations) {
  const Json document = {
      {"format", "ddalab-batch/1"},
      {"seed", 11},
      {"experiments",
       {{{"name", "e"},
         {"game", {{"id", "ludo"}}},
         {"players", Json::array({{{"id", "hillclimber"}, {"level", 50}},
                                  {{"id", "hillclimber"}},
                                  {{"id", "random"}},
                                  {{"id", "hillclimber"}, {"level", 80}}})},
         {"environment", {{"id", environment}, {"params", params}}},
         {"coefficients", {{"believability", 1000}, {"tension", 10}, {"lead", 3}}},
         {"iterations", iterations}}}}};
  return parseBatch(document, "test");
}

uint64_t signature(const Batch& batch) {
  RunOptions options;
  options.threads = 2;
  uint64_t h = 1;
  const auto results = runBatch(batch, options);  // named: front() of a temporary would dangle
  for (const auto& r : results.front().records) h = fingerprint(r, h);
  return h;
}

}  // namespace

TEST_CASE("an E-player with random_prob 1 reproduces e-random bit for bit") {
  const uint64_t natural = signature(environmentBatch("e-random", Json::object(), 20));
  CHECK(signature(environmentBatch("e-hillclimber", {{"random_prob", 1.0}}, 20)) == natural);
  CHECK(signature(environmentBatch("e-hillclimber", {{"random_prob", 0.2}}, 20)) != natural);
  for (const char* id : {"e-maxmax", "e-maxn", "e-montecarlo"})
    CHECK(signature(environmentBatch(id, {{"random_prob", 1.0}}, 20)) == natural);
}

TEST_CASE("e-hillclimber picks an outcome with the best settled fun score") {
  // Two players; coefficients reward only small leads, so the environment helps the loser.
  const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  const auto game = info.make(validateParams(info.params, Json{{"players", 2}}, "g"));
  auto state = game->newGame(0);
  auto& ludo = dynamic_cast<ludo::LudoState&>(*state);
  ludo.setPieces(0, {30, 31, 32, 33});  // player 0 far ahead
  ludo.setPieces(2, {0, 1, 2, 3});
  const Gains gains = gainsOf(*state);
  const MetricsTracker trace(std::span(gains.data(), 2));
  Coefficients coefficients{};
  coefficients[static_cast<size_t>(Metric::Lead)] = 1;

  std::vector<Outcome> outcomes;
  state->outcomes(outcomes);
  std::vector<double> funs;
  for (const auto& o : outcomes) funs.push_back(settledFun(*state, trace, o.action, coefficients));
  // The leader moving least keeps the lead smallest: a roll of 1 is best for the fun score.
  const auto best = bestIndices(funs);
  REQUIRE(best.size() == 1);
  CHECK(outcomes[best[0]].action == 1);
  for (size_t i = 1; i < funs.size(); ++i) CHECK(funs[i] < funs[i - 1]);

  const auto& eInfo = findById<PlayerInfo>(playerRegistry(), "e-hillclimber", "player", "");
  auto environment = eInfo.makeEnvironment(
      {*game, 100, validateParams(eInfo.params, Json{{"random_prob", 0.0}}, "p"), coefficients});
  Rng own(1), nature(2);
  CHECK(environment->chooseOutcome(*state, trace, own, nature) == 1);
}

TEST_CASE("the value-greedy settle takes the best move, ties to the first") {
  const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  const auto game = info.make(validateParams(info.params, Json{{"players", 2}}, "g"));
  auto state = game->newGame(0);
  state->apply(6);  // player 0 rolls a 6: all four pieces on 0..3 can move
  std::vector<Action> legal;
  state->legalActions(legal);
  std::vector<double> scores(legal.size());
  scoreByValue(*state, legal, scores);
  const auto best = bestIndices(scores);
  CHECK(greedyAction(*state, legal) == legal[best.front()]);
}

namespace {

// Upper 0.1 % point of the chi-square distribution (Wilson-Hilferty approximation).
double chiSquareCritical(int df) {
  const double z = 3.090, k = 2.0 / (9.0 * df);
  return df * std::pow(1 - k + z * std::sqrt(k), 3);
}

// A state of a game at an environment node, reached by random play from `seed`.
std::unique_ptr<State> environmentNode(const Game& game, uint64_t seed, int minRounds) {
  auto state = game.newGame(seed);
  Rng rng(seed);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  while (state->roundsCompleted() < minRounds || !state->isEnvironmentNode()) {
    if (state->isEnvironmentNode()) {
      state->outcomes(outcomes);
      state->apply(sampleOutcome(outcomes, rng));
    } else {
      state->legalActions(legal);
      state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
  }
  return state;
}

}  // namespace

TEST_CASE("E-players with random_prob 1 draw outcomes with their natural probabilities") {
  // Chi-square goodness of fit at the 0.1 % level on a uniform die (Ludo) and on a Lost Cities
  // deck draw (probabilities count/remaining: wagers are three times as likely as numbers).
  for (const std::string gameId : {"ludo", "lost-cities"}) {
    const auto& gameInfo = findById<GameInfo>(gameRegistry(), gameId, "game", "");
    const auto game = gameInfo.make(validateParams(gameInfo.params, nullptr, "g"));
    const auto state = environmentNode(*game, 4, 6);
    std::vector<Outcome> outcomes;
    state->outcomes(outcomes);
    REQUIRE(outcomes.size() > 1);
    const Gains gains = gainsOf(*state);
    const MetricsTracker trace(std::span(gains.data(), static_cast<size_t>(game->numPlayers())));
    for (const auto& info : playerRegistry()) {
      if (!info.makeEnvironment || info.params.empty() || info.params[0].name != "random_prob")
        continue;
      auto environment = info.makeEnvironment(
          {*game, 100, validateParams(info.params, Json{{"random_prob", 1.0}}, "p"), {}});
      std::map<Action, int> counts;
      Rng own(1), nature(2);
      constexpr int kDraws = 20000;
      for (int i = 0; i < kDraws; ++i)
        ++counts[environment->chooseOutcome(*state, trace, own, nature)];
      double chi2 = 0;
      for (const auto& o : outcomes) {
        const double expected = kDraws * o.probability;
        chi2 += (counts[o.action] - expected) * (counts[o.action] - expected) / expected;
      }
      INFO(gameId << " " << info.id << " chi2 " << chi2);
      CHECK(chi2 < chiSquareCritical(static_cast<int>(outcomes.size()) - 1));
      CHECK(counts.size() <= outcomes.size());  // nothing outside the outcomes
    }
  }
}
