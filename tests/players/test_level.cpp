// The level models of level-scaled players (players/regular/level.h): which candidates a level
// ranks.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "core/params.h"
#include "games/lost-cities/lost_cities.h"
#include "players/registry.h"
#include "players/regular/level.h"
#include "players/regular/ranking.h"
#include "players/search/score_order.h"

using namespace ddalab;

namespace {

// A Lost Cities position after the deal, its legal actions and a random score for each.
struct Decision {
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;
  std::vector<Action> legal;
  std::vector<double> scores;
};

Decision lostCitiesDecision(uint64_t seed) {
  const GameInfo info = lostcities::gameInfo();
  Decision d;
  d.game = info.make(validateParams(info.params, Json(), "params"));
  d.state = d.game->newGame(seed);
  // Two turns of discards from the deck fill piles, so some groups have several draw sources.
  for (int turn = 0; turn < 2; ++turn) {
    d.state->legalActions(d.legal);
    const auto discard = std::find_if(d.legal.begin(), d.legal.end(), [](Action a) {
      return lostcities::decodeAction(a).discard &&
             lostcities::decodeAction(a).source == lostcities::kDeckSource;
    });
    d.state->apply(*discard);
    std::vector<Outcome> outcomes;
    d.state->outcomes(outcomes);
    d.state->apply(outcomes.front().action);
  }
  d.state->legalActions(d.legal);
  Rng rng(seed + 99);
  for (size_t i = 0; i < d.legal.size(); ++i) d.scores.push_back(rng.uniform());
  return d;
}

// Whether legal[pick] is the best-scored member of its group.
bool bestOfItsGroup(const Decision& d, size_t pick) {
  for (size_t i = 0; i < d.legal.size(); ++i)
    if (d.state->actionGroup(d.legal[i]) == d.state->actionGroup(d.legal[pick]) &&
        d.scores[i] > d.scores[pick])
      return false;
  return true;
}

size_t bestIndex(const std::vector<double>& scores) {
  return static_cast<size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

}  // namespace

TEST_CASE("level model: Lost Cities groups an action by its card and play or discard") {
  using namespace lostcities;
  const Decision d = lostCitiesDecision(1);
  const Action play = makeAction(kindOf(2, 5), false, kDeckSource);
  CHECK(d.state->actionGroup(play) == d.state->actionGroup(makeAction(kindOf(2, 5), false, 3)));
  CHECK(d.state->actionGroup(play) != d.state->actionGroup(makeAction(kindOf(2, 5), true, 0)));
  CHECK(d.state->actionGroup(play) != d.state->actionGroup(makeAction(kindOf(2, 6), false, 0)));
}

TEST_CASE("level model: the default is pickByLevel exactly, drawing the same numbers") {
  const Decision d = lostCitiesDecision(2);
  for (int level : {1, 37, 50, 100}) {
    Rng a(level), b(level);
    const LevelScaling scaling;  // actions, sigma 0.4, no top-k, no proposals
    CHECK(pickByLevelModel(*d.state, d.legal, d.scores, {}, level, scaling, a) ==
          pickByLevel(d.scores, level, 0.4, b));
    CHECK(a.next() == b.next());
  }
}

TEST_CASE("level model: level 100 with sigma 0 plays the best-scored action under every model") {
  const Decision d = lostCitiesDecision(3);
  const std::vector<uint8_t> proposed(d.legal.size(), 1);
  for (auto model : {LevelModel::Actions, LevelModel::Groups, LevelModel::States})
    for (int topK : {0, 1, 5})
      for (bool proposedOnly : {false, true}) {
        Rng rng(4);
        const LevelScaling scaling{0.0, model, topK, proposedOnly};
        CHECK(pickByLevelModel(*d.state, d.legal, d.scores, proposed, 100, scaling, rng) ==
              bestIndex(d.scores));
      }
}

TEST_CASE("level model: groups plays the best member of the group the level ranks") {
  const Decision d = lostCitiesDecision(5);
  std::map<Action, double> groupBest;  // group -> its best score
  for (size_t i = 0; i < d.legal.size(); ++i) {
    auto [it, fresh] = groupBest.try_emplace(d.state->actionGroup(d.legal[i]), d.scores[i]);
    if (!fresh) it->second = std::max(it->second, d.scores[i]);
  }
  REQUIRE(groupBest.size() < d.legal.size());  // some group has several draw sources
  double worstGroup = 2.0;
  for (const auto& [group, best] : groupBest) worstGroup = std::min(worstGroup, best);
  Rng rng(6);
  const LevelScaling exact{0.0, LevelModel::Groups, 0, false};
  CHECK(d.scores[pickByLevelModel(*d.state, d.legal, d.scores, {}, 0, exact, rng)] == worstGroup);
  const LevelScaling noisy{0.4, LevelModel::Groups, 0, false};
  for (int i = 0; i < 200; ++i)
    CHECK(bestOfItsGroup(d, pickByLevelModel(*d.state, d.legal, d.scores, {}, 30, noisy, rng)));
}

TEST_CASE("level model: top-k ranks the k best candidates only") {
  const Decision d = lostCitiesDecision(7);
  std::vector<double> sorted = d.scores;
  std::sort(sorted.rbegin(), sorted.rend());
  Rng rng(8);
  const LevelScaling top3{0.0, LevelModel::Actions, 3, false};
  CHECK(d.scores[pickByLevelModel(*d.state, d.legal, d.scores, {}, 0, top3, rng)] == sorted[2]);
  const LevelScaling noisy{0.4, LevelModel::Actions, 3, false};
  for (int i = 0; i < 200; ++i)
    CHECK(d.scores[pickByLevelModel(*d.state, d.legal, d.scores, {}, 1, noisy, rng)] >= sorted[2]);
}

TEST_CASE("level model: only proposed actions are ranked, no proposals rank every action") {
  const Decision d = lostCitiesDecision(9);
  std::vector<uint8_t> proposed(d.legal.size(), 0);
  proposed[0] = proposed[d.legal.size() - 1] = 1;
  Rng rng(10);
  for (auto model : {LevelModel::Actions, LevelModel::Groups}) {
    const LevelScaling scaling{0.4, model, 0, true};
    for (int i = 0; i < 200; ++i) {
      const size_t pick = pickByLevelModel(*d.state, d.legal, d.scores, proposed, 1, scaling, rng);
      CHECK(proposed[pick] == 1);
    }
    const std::vector<uint8_t> none(d.legal.size(), 0);
    Rng a(13), b(13);
    CHECK(pickByLevelModel(*d.state, d.legal, d.scores, none, 20, scaling, a) ==
          pickByLevelModel(*d.state, d.legal, d.scores, {}, 20, {0.4, model, 0, false}, b));
  }
}

TEST_CASE("level model: registered on every level-scaled player, default actions") {
  for (const char* id : {"hillclimber", "hillclimber-is", "minimax-is", "maxn", "mcts"}) {
    const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    const Json params = validateParams(info.params, Json(), "params");
    CHECK(params.at("level_model") == "actions");
    CHECK(params.at("level_top_k") == 0);
    CHECK(params.at("level_proposed") == false);
    CHECK(levelScalingFrom(params).model == LevelModel::Actions);
  }
  const auto& mmis = findById<PlayerInfo>(playerRegistry(), "minimax-is", "player", "");
  CHECK_THROWS_AS(validateParams(mmis.params, Json{{"level_model", "cards"}}, "params"),
                  InputError);
  const Json groups = validateParams(mmis.params, Json{{"level_model", "groups"}}, "params");
  CHECK(levelScalingFrom(groups).model == LevelModel::Groups);
}

TEST_CASE("level model: minimax-is proposes the moves that won a vote") {
  const Decision d = lostCitiesDecision(11);
  const auto& info = findById<PlayerInfo>(playerRegistry(), "minimax-is", "player", "");
  const Json params =
      validateParams(info.params, Json{{"iterations", {3, 3, 3}}, {"depths", {1, 1, 1}}}, "params");
  auto player = info.makeRegular({*d.game, 100, params, {}});
  auto* ranking = dynamic_cast<RankingPlayer*>(player.get());
  REQUIRE(ranking != nullptr);
  std::vector<double> scores(d.legal.size());
  Rng rng(12);
  ranking->scoreActions(*d.state, d.legal, scores, rng);
  std::vector<uint8_t> proposed;
  ranking->proposals(proposed);
  REQUIRE(proposed.size() == d.legal.size());
  const auto voted = std::count(proposed.begin(), proposed.end(), uint8_t{1});
  CHECK(voted >= 1);
  CHECK(voted <= 3);
  CHECK(proposed[bestIndex(scores)] == 1);  // the most-voted move ranks first
}

// pickByLevel at sigma 0 as players.md states it, written the plain way: the actions shuffled,
// sorted by std::stable_sort (NaN lowest, score_order.h), the one at the level's position picked.
size_t pickByLevelPlainly(std::span<const double> scores, int level, Rng& rng) {
  const size_t m = scores.size();
  if (m <= 1) return 0;
  std::vector<size_t> order(m);
  for (size_t i = 0; i < m; ++i) order[i] = i;
  for (size_t i = m - 1; i > 0; --i)
    std::swap(order[i], order[rng.below(static_cast<uint32_t>(i + 1))]);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scoreBelow(scores[a], scores[b]); });
  return order[static_cast<size_t>(std::lround(level / 100.0 * static_cast<double>(m - 1)))];
}

TEST_CASE("pickByLevel is the stable sort of the shuffled actions, few or many, ties and NaN") {
  Rng rng(5);
  const std::array<double, 6> pool = {NAN, -INFINITY, 0.0, 0.5, 1.0, INFINITY};
  for (int round = 0; round < 2000; ++round) {
    std::vector<double> scores(1 + rng.below(70));  // past the 32 sorted on the stack
    for (double& s : scores) s = rng.below(3) == 0 ? rng.uniform() : pool[rng.below(6)];
    const int level = static_cast<int>(rng.below(101));
    const uint64_t seed = rng.next();
    Rng a(seed), b(seed);
    CHECK(pickByLevel(scores, level, 0.0, a) == pickByLevelPlainly(scores, level, b));
    CHECK(a.next() == b.next());
  }
}
