// hexalines-ai, the HexaLines author's AI (hexalines-notes.md section 3): the test cases 10..12
// of section 6 on constructed positions, P1, the strict total order it exposes, and whole games.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "core/match.h"
#include "games/hexalines/hexalines.h"
#include "games/registry.h"
#include "players/registry.h"
#include "players/regular/ranking.h"

using namespace ddalab;
using namespace ddalab::hexalines;

namespace {

std::shared_ptr<const Game> hexaLinesGame() {
  const auto& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "");
  return info.make(validateParams(info.params, nullptr, "params"));
}

// An empty board of `game` (nothing placed, red on turn once something is revealed).
std::unique_ptr<HexaLinesState> emptyBoard(const Game& game) {
  auto state = game.newGame(1);
  return std::unique_ptr<HexaLinesState>(dynamic_cast<HexaLinesState*>(state.release()));
}

// A shape with one segment joining `sides`, walls elsewhere.
Shape path(std::initializer_list<int> sides) {
  std::array<uint8_t, kSides> segmentOf;
  segmentOf.fill(kWall);
  for (int side : sides) segmentOf[static_cast<size_t>(side)] = 0;
  return normalized(segmentOf);
}

const PlayerInfo& aiInfo() {
  return findById<PlayerInfo>(playerRegistry(), "hexalines-ai", "player", "");
}

// hexalines-ai at level 100 with sigma 0: the author's AI exactly.
std::unique_ptr<RankingPlayer> makeAi(const Game& game) {
  auto player =
      aiInfo().makeRegular({game, 100, validateParams(aiInfo().params, {{"sigma", 0.0}}, "p"), {}});
  return std::unique_ptr<RankingPlayer>(dynamic_cast<RankingPlayer*>(player.release()));
}

Action choose(Player& player, const State& state, uint64_t seed = 7) {
  std::vector<Action> legal;
  state.legalActions(legal);
  Rng rng(seed);
  return player.chooseAction(state, legal, rng);
}

// The field `steps` fields from `from` in direction `side`.
int walk(const HexaLinesState& s, int from, int side, int steps) {
  for (int i = 0; i < steps; ++i) from = s.board().neighbour(from, side);
  return from;
}

// Plays `action` for player p with `shape` revealed.
void play(HexaLinesState& s, int p, const Shape& shape, Action action) {
  s.revealForTest(p, shape);
  s.apply(action);
}

// Red has a one-cell path out of its source and an uncoloured own cell far away (a harmless
// rotation, P2 true); the revealed cell cannot extend red's path, so the AI would rotate.
struct IdleRed {
  std::unique_ptr<HexaLinesState> state;
  int ownIdle = -1;  // red's uncoloured cell
  int grey = -1;     // a grey cell far away
};

IdleRed idleRed(const Game& game) {
  IdleRed p{emptyBoard(game)};
  HexaLinesState& s = *p.state;
  const int centre = s.board().centre();
  s.placeForTest(s.frontField(0), path({3, 0}), 0);
  p.ownIdle = walk(s, centre, 3, 3);
  p.grey = walk(s, centre, 5, 3);
  s.placeForTest(p.ownIdle, path({0, 1}), 0);
  s.placeForTest(p.grey, path({0, 1}), kNobody);
  s.recomputeForTest(0);
  s.revealForTest(0, path({1, 4}));
  return p;
}

}  // namespace

TEST_CASE("hexalines-ai plays HexaLines only", "[hexalines-ai]") {
  const auto& ludo = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  const auto game = ludo.make(validateParams(ludo.params, nullptr, "params"));
  const Json params = validateParams(aiInfo().params, nullptr, "p");
  CHECK(aiInfo().whyNot(*game, params, PlayerKind::Regular).find("HexaLines only") !=
        std::string::npos);
  CHECK(aiInfo().whyNot(*hexaLinesGame(), params, PlayerKind::Regular).empty());
}

TEST_CASE("P1: an add extending the own path beats an add that does not", "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  auto s = emptyBoard(*game);
  const int front = s->frontField(0);
  s->placeForTest(front, path({3, 0}), 0);
  s->recomputeForTest(0);
  s->revealForTest(0, path({3, 0}));
  const int extending = s->board().neighbour(front, 0);
  const int beside = s->board().neighbour(front, 1);
  std::vector<Action> legal;
  s->legalActions(legal);
  std::vector<double> scores(legal.size());
  Rng rng(1);
  makeAi(*game)->scoreActions(*s, legal, scores, rng);
  const auto scoreOf = [&](Action a) {
    return scores[static_cast<size_t>(std::find(legal.begin(), legal.end(), a) - legal.begin())];
  };
  CHECK(scoreOf(s->addAction(extending)) > scoreOf(s->addAction(beside)));
  CHECK(choose(*makeAi(*game), *s) == s->addAction(extending));
}

TEST_CASE("case 10: after six own rotations the AI adds", "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  IdleRed p = idleRed(*game);
  CHECK_FALSE(p.state->isAdd(choose(*makeAi(*game), *p.state)));  // no history: it rotates
  // Red turns its idle cell by 1, 2, 3, 4, 5, 1 sixths; green and blue add on distinct rim
  // fields, so no block of moves repeats.
  std::vector<int> rim;
  for (int field = 0; field < p.state->fields(); ++field)
    if (distanceFromCentre(p.state->board().hexOf(field)) == 3 && field != p.ownIdle &&
        field != p.grey)
      rim.push_back(field);
  const int sixths[] = {1, 2, 3, 4, 5, 1};
  for (size_t round = 0; round < 6; ++round) {
    play(*p.state, 0, path({1, 4}), p.state->rotateAction(p.ownIdle, sixths[round]));
    play(*p.state, 1, path({1, 4}), p.state->addAction(rim[2 * round]));
    play(*p.state, 2, path({1, 4}), p.state->addAction(rim[2 * round + 1]));
  }
  p.state->revealForTest(0, path({1, 4}));
  CHECK(p.state->isAdd(choose(*makeAi(*game), *p.state)));
}

TEST_CASE("case 10: a block of moves repeated twice in a row makes the AI add", "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  IdleRed p = idleRed(*game);
  for (int twice = 0; twice < 2; ++twice) {
    play(*p.state, 0, path({1, 4}), p.state->rotateAction(p.ownIdle, 1));
    play(*p.state, 1, path({1, 4}), p.state->rotateAction(p.grey, 1));
    play(*p.state, 2, path({1, 4}), p.state->rotateAction(p.grey, 1));
  }
  p.state->revealForTest(0, path({1, 4}));
  CHECK(p.state->isAdd(choose(*makeAi(*game), *p.state)));
}

TEST_CASE("when the loop guard fires the AI proposes only the adds, so a weak level adds too",
          "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  IdleRed p = idleRed(*game);
  // Level 50 at its exact rank, over every move or over the AI's proposals.
  const auto weak = [&](bool overProposals) {
    const Json params = {{"sigma", 0.0}, {"level_proposed", overProposals}};
    return aiInfo().makeRegular({*game, 50, validateParams(aiInfo().params, params, "p"), {}});
  };
  std::vector<Action> legal;
  p.state->legalActions(legal);
  auto ai = makeAi(*game);
  std::vector<double> scores(legal.size());
  Rng rng(1);
  ai->scoreActions(*p.state, legal, scores, rng);
  std::vector<uint8_t> proposed;
  ai->proposals(proposed);
  CHECK(proposed.empty());  // no loop: every move is the AI's own
  for (int twice = 0; twice < 2; ++twice) {
    play(*p.state, 0, path({1, 4}), p.state->rotateAction(p.ownIdle, 1));
    play(*p.state, 1, path({1, 4}), p.state->rotateAction(p.grey, 1));
    play(*p.state, 2, path({1, 4}), p.state->rotateAction(p.grey, 1));
  }
  p.state->revealForTest(0, path({1, 4}));
  p.state->legalActions(legal);
  scores.resize(legal.size());
  ai->scoreActions(*p.state, legal, scores, rng);
  ai->proposals(proposed);
  REQUIRE(proposed.size() == legal.size());
  for (size_t i = 0; i < legal.size(); ++i) CHECK(bool(proposed[i]) == p.state->isAdd(legal[i]));
  // Three level-50 seats over the proposals never rotate seven times in a row, and their games
  // end by the rules (over every move, the median-ranked moves are mostly rotations).
  for (uint64_t seed = 0; seed < 3; ++seed) {
    auto state = game->newGame(seed);
    auto& s = static_cast<HexaLinesState&>(*state);
    std::vector<std::unique_ptr<Player>> seats;
    for (int p = 0; p < 3; ++p) seats.push_back(weak(true));
    std::array<int, 3> rotationsInARow{};
    Rng nature(seed), own(seed + 1);
    std::vector<Outcome> outcomes;
    while (!s.isTerminal()) {
      if (s.isEnvironmentNode()) {
        s.outcomes(outcomes);
        s.apply(sampleOutcome(outcomes, nature));
        continue;
      }
      const int p = s.actor();
      s.legalActions(legal);
      const Action move = seats[static_cast<size_t>(p)]->chooseAction(s, legal, own);
      rotationsInARow[p] = s.isAdd(move) ? 0 : rotationsInARow[p] + 1;
      CHECK(rotationsInARow[p] <= 6);
      s.apply(move);
    }
    CHECK_FALSE(s.capped());
  }
}

TEST_CASE("case 11: with the field before its source empty the AI covers it", "[hexalines-ai]") {
  // Green: a chain of three cells out of its source, the first branching towards a grey cell.
  // Blue: two cells ending at that grey cell; turning it pours blue into green's chain.
  const auto game = hexaLinesGame();
  auto s = emptyBoard(*game);
  const int centre = s->board().centre();
  const int green1 = s->frontField(1);
  s->placeForTest(green1, path({5, 2, 3}), 1);
  s->placeForTest(walk(*s, green1, 2, 1), path({5, 2}), 1);
  s->placeForTest(walk(*s, green1, 2, 2), path({5, 2}), 1);
  const int blue1 = s->frontField(2);
  const int blue2 = s->board().neighbour(blue1, 2);
  const int grey = s->board().neighbour(blue2, 2);
  REQUIRE(s->board().neighbour(grey, 0) == green1);
  s->placeForTest(blue1, path({1, 2}), 2);
  s->placeForTest(blue2, path({5, 2}), 2);
  s->placeForTest(grey, path({0, 1}), kNobody);
  s->recomputeForTest(0);
  s->revealForTest(0, path({3, 0}));
  REQUIRE(s->cell(s->frontField(0)).empty());
  REQUIRE(s->board().neighbour(s->frontField(0), 3) == centre);
  // The rotation that blows up green's chain gains more points than covering the source.
  const auto pointsOf = [&](Action action) {
    HexaLinesState after = *s;
    after.apply(action);
    return (after.gain(0) - s->gain(0)) - (after.gain(1) - s->gain(1)) -
           (after.gain(2) - s->gain(2));
  };
  const Action cover = s->addAction(s->frontField(0));
  REQUIRE(pointsOf(s->rotateAction(grey, 5)) > pointsOf(cover));
  CHECK(choose(*makeAi(*game), *s) == cover);
}

TEST_CASE("case 12: the AI kills by a rotation and turns the cell back next turn",
          "[hexalines-ai]") {
  // Red's path runs from its source past the grey cell in front of green's source; turning that
  // cell by 4 sixths pours red into green's source.
  const auto game = hexaLinesGame();
  auto s = emptyBoard(*game);
  const int red1 = s->frontField(0);
  const int red2 = s->board().neighbour(red1, 2);
  const int grey = s->board().neighbour(red2, 3);
  REQUIRE(grey == s->frontField(1));
  s->placeForTest(red1, path({3, 2}), 0);
  s->placeForTest(red2, path({5, 3}), 0);
  s->placeForTest(grey, path({1, 2}), kNobody);
  s->recomputeForTest(0);
  s->revealForTest(0, path({0, 3}));
  auto ai = makeAi(*game);
  const Action kill = choose(*ai, *s);
  CHECK(kill == s->rotateAction(grey, 4));
  s->apply(kill);
  REQUIRE_FALSE(s->alive(1));
  play(*s, 2, path({1, 4}), s->addAction(s->frontField(2)));
  s->revealForTest(0, path({0, 3}));
  CHECK(choose(*ai, *s) == s->rotateAction(grey, 2));
  CHECK(choose(*makeAi(*game), *s) != s->rotateAction(grey, 2));  // only the killer turns back
}

TEST_CASE("hexalines-ai ranks every legal move strictly and plays games to the end",
          "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  auto ai = makeAi(*game);
  auto state = game->newGame(5);
  Rng rng(3);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  int decisions = 0;
  while (!state->isTerminal()) {
    if (state->isEnvironmentNode()) {
      state->outcomes(outcomes);
      state->apply(sampleOutcome(outcomes, rng));
      continue;
    }
    state->legalActions(legal);
    std::vector<double> scores(legal.size());
    ai->scoreActions(*state, legal, scores, rng);
    CHECK(std::set<double>(scores.begin(), scores.end()).size() == legal.size());
    state->apply(legal[static_cast<size_t>(std::max_element(scores.begin(), scores.end()) -
                                           scores.begin())]);
    ++decisions;
  }
  CHECK(decisions > 10);
}

namespace {

// One game of hexalines-ai (red, level 100, sigma 0) against two `opponent` players.
GameRecord aiAgainst(const Game& game, const std::string& opponent, uint64_t seed) {
  const auto& other = findById<PlayerInfo>(playerRegistry(), opponent, "player", "");
  const Json params = validateParams(other.params, nullptr, "p");
  auto ai = makeAi(game);
  auto second = other.makeRegular({game, 100, params, {}});
  auto third = other.makeRegular({game, 100, params, {}});
  Player* seats[] = {ai.get(), second.get(), third.get()};
  const auto& environment = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  auto env = environment.makeEnvironment(
      {game, 100, validateParams(environment.params, nullptr, "p"), {}});
  return playGame(game, seats, *env, seed);
}

}  // namespace

TEST_CASE("hexalines-ai is deterministic for a seed and beats two random players",
          "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  CHECK(fingerprint(aiAgainst(*game, "random", 9)) == fingerprint(aiAgainst(*game, "random", 9)));
  int wins = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) wins += aiAgainst(*game, "random", seed).winner == 0;
  CHECK(wins > 40);
}

TEST_CASE("posm and dynamic-level play HexaLines over hexalines-ai", "[hexalines-ai]") {
  const auto game = hexaLinesGame();
  std::vector<std::unique_ptr<Player>> owned;
  for (const std::string id : {"posm", "dynamic-level"}) {
    const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    const Json params = validateParams(info.params, {{"base", "hexalines-ai"}}, "p");
    REQUIRE(info.whyNot(*game, params, PlayerKind::Regular).empty());
    owned.push_back(info.makeRegular({*game, 100, params, {}}));
  }
  owned.push_back(makeAi(*game));
  Player* seats[] = {owned[0].get(), owned[1].get(), owned[2].get()};
  const auto& environment = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  auto env = environment.makeEnvironment(
      {*game, 100, validateParams(environment.params, nullptr, "p"), {}});
  const GameRecord record = playGame(*game, seats, *env, 4);
  CHECK(record.metrics[static_cast<size_t>(Metric::Rounds)] > 10);
}

TEST_CASE("the general players play HexaLines: random, hillclimber, maxn, mcts", "[hexalines-ai]") {
  // Short games (40 rounds) with cheap budgets: what is tested is that each decides legally on
  // HexaLines' boards and 42-way chance nodes, and that the match records finite metrics.
  const auto& gameInfo = findById<GameInfo>(gameRegistry(), "hexalines", "game", "");
  const auto game = gameInfo.make(validateParams(gameInfo.params, {{"max_rounds", 40}}, "g"));
  const std::vector<std::pair<std::string, Json>> players = {
      {"random", Json::object()},
      {"hillclimber", Json::object()},
      {"maxn", {{"depth", 2}, {"width", 3}, {"chance_width", 4}}},
      {"mcts", {{"iterations", 50}, {"horizon", 4}}}};
  const auto& environment = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  for (const auto& [id, params] : players) {
    INFO(id);
    const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
    const Json valid = validateParams(info.params, params, "p");
    REQUIRE(info.whyNot(*game, valid, PlayerKind::Regular).empty());
    std::vector<std::unique_ptr<Player>> owned;
    for (int seat = 0; seat < 3; ++seat) owned.push_back(info.makeRegular({*game, 100, valid, {}}));
    Player* seats[] = {owned[0].get(), owned[1].get(), owned[2].get()};
    auto env = environment.makeEnvironment(
        {*game, 100, validateParams(environment.params, nullptr, "p"), {}});
    const GameRecord record = playGame(*game, seats, *env, 5);
    CHECK(record.metrics[static_cast<size_t>(Metric::Rounds)] > 0);
    for (double m : record.metrics) CHECK(std::isfinite(m));
  }
}
