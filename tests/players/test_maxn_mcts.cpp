// The search players `maxn` and `mcts` on hand-made game trees with known values, and on Ludo.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>

#include "core/match.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "players/registry.h"
#include "players/regular/ranking.h"

using namespace ddalab;

namespace {

// One node of a test-only game tree: actor, children (actions 0..k-1 lead to children[k]),
// outcome probabilities (environment nodes) and the value vector (also of inner nodes, which
// the search uses as static values).
struct TreeNode {
  int actor;
  std::vector<int> children;
  std::vector<double> probabilities;
  Gains values;
  int winner = -1;
};

// A game played on a table of TreeNodes from node 0; each move is one round. With
// `valuesWithoutCopy` it values the mover's actions without a copy (State::valueAfterEach,
// State::valuesAfter), which the searches take where a game offers it: their results must not
// change.
class TreeState final : public State {
 public:
  TreeState(const std::vector<TreeNode>* tree, int players, bool valuesWithoutCopy)
      : tree_(tree), players_(players), valuesWithoutCopy_(valuesWithoutCopy) {}
  std::unique_ptr<State> clone() const override { return std::make_unique<TreeState>(*this); }
  int numPlayers() const override { return players_; }
  int actor() const override { return node().actor; }
  void legalActions(std::vector<Action>& out) const override {
    out.clear();
    if (actor() < 0) return;
    for (size_t i = 0; i < node().children.size(); ++i) out.push_back(static_cast<Action>(i));
  }
  void outcomes(std::vector<Outcome>& out) const override {
    out.clear();
    if (actor() != kEnvironment) return;
    for (size_t i = 0; i < node().children.size(); ++i)
      out.push_back({static_cast<Action>(i), node().probabilities[i]});
  }
  void apply(Action action) override {
    id_ = node().children.at(static_cast<size_t>(action));
    ++rounds_;
  }
  int winner() const override { return node().winner; }
  bool capped() const override { return false; }
  double gain(int p) const override { return node().values[p]; }
  bool valueAfterEach(std::span<const Action> actions, int p,
                      std::span<double> values) const override {
    if (!valuesWithoutCopy_ || actor() < 0) return false;
    for (size_t i = 0; i < actions.size(); ++i)
      values[i] = (*tree_)[static_cast<size_t>(node().children.at(static_cast<size_t>(actions[i])))]
                      .values[static_cast<size_t>(p)];
    return true;
  }
  bool valuesAfter(Action action, unsigned wanted, std::span<double> values) const override {
    if (!valuesWithoutCopy_ || actor() < 0) return false;
    const TreeNode& child =
        (*tree_)[static_cast<size_t>(node().children.at(static_cast<size_t>(action)))];
    for (size_t p = 0; p < values.size(); ++p)
      if ((wanted >> p) & 1u) values[p] = child.values[p];
    return true;
  }
  int roundsCompleted() const override { return rounds_; }
  double believability() const override { return 0; }
  bool isPass(Action) const override { return false; }
  std::string actionToString(Action action) const override { return std::to_string(action); }
  std::string toString() const override { return "node " + std::to_string(id_); }

 private:
  const TreeNode& node() const { return (*tree_)[static_cast<size_t>(id_)]; }
  const std::vector<TreeNode>* tree_;
  int players_;
  bool valuesWithoutCopy_;
  int id_ = 0;
  int rounds_ = 0;
};

class TreeGame final : public Game {
 public:
  TreeGame(std::vector<TreeNode> tree, int players, bool valuesWithoutCopy = false)
      : tree_(std::move(tree)), players_(players), valuesWithoutCopy_(valuesWithoutCopy) {}
  int numPlayers() const override { return players_; }
  std::unique_ptr<State> newGame(uint64_t) const override {
    return std::make_unique<TreeState>(&tree_, players_, valuesWithoutCopy_);
  }
  double statusScale() const override { return 1.0; }

 private:
  std::vector<TreeNode> tree_;
  int players_;
  bool valuesWithoutCopy_;
};

constexpr int E = kEnvironment;
constexpr int T = kTerminal;

// Three players; a chance node between the root decision and the next ones.
//   0 (p0) --a0--> 1 (chance: 0.25 -> 3, 0.75 -> 4)
//          --a1--> 2 (p1)
//   3 (p1): 5 (4,2,1) | 6 (1,3,9)            terminal leaves
//   4 (p2): 7 (8,0,1) | 8 (2,0,5)            terminal leaves
//   2 (p1): 9 (p2, static (3,1,0)) | 10 (1.5,2,0) terminal
//   9 (p2): 11 (0,6,2) | 12 (5,0,1)          terminal leaves
// Static values of inner nodes: 1 (1,1,1), 2 (3,0,0), 3 (2,0,0), 4 (6,0,0).
// `secondFirst`: node 2 lists its children the other way round (10, then 9).
TreeGame threePlayerTree(bool valuesWithoutCopy, bool secondFirst = false) {
  const std::vector<int> node2 = secondFirst ? std::vector<int>{10, 9} : std::vector<int>{9, 10};
  return TreeGame({{0, {1, 2}, {}, {0, 0, 0, 0}},
                   {E, {3, 4}, {0.25, 0.75}, {1, 1, 1, 0}},
                   {1, node2, {}, {3, 0, 0, 0}},
                   {1, {5, 6}, {}, {2, 0, 0, 0}},
                   {2, {7, 8}, {}, {6, 0, 0, 0}},
                   {T, {}, {}, {4, 2, 1, 0}},
                   {T, {}, {}, {1, 3, 9, 0}},
                   {T, {}, {}, {8, 0, 1, 0}},
                   {T, {}, {}, {2, 0, 5, 0}},
                   {2, {11, 12}, {}, {3, 1, 0, 0}},
                   {T, {}, {}, {1.5, 2, 0, 0}},
                   {T, {}, {}, {0, 6, 2, 0}},
                   {T, {}, {}, {5, 0, 1, 0}}},
                  3, valuesWithoutCopy);
}

std::unique_ptr<Player> makePlayer(const std::string& id, const Game& game, const Json& params,
                                   int level = 100) {
  const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
  const Json validated = validateParams(info.params, params, "params");
  REQUIRE(info.whyNot(game, validated, PlayerKind::Regular).empty());
  return info.makeRegular({game, level, validated, {}});
}

// The score of every root action of `state` by the player `id` with `params`.
std::vector<double> rootScores(const std::string& id, const Game& game, const State& state,
                               const Json& params, uint64_t seed = 1) {
  auto player = makePlayer(id, game, params);
  auto* ranking = dynamic_cast<RankingPlayer*>(player.get());
  REQUIRE(ranking != nullptr);
  std::vector<Action> legal;
  state.legalActions(legal);
  std::vector<double> scores(legal.size(), -12345.0);
  Rng rng(seed);
  ranking->scoreActions(state, legal, scores, rng);
  return scores;
}

std::shared_ptr<const Game> makeLudo(int players) {
  const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  return info.make(validateParams(info.params, Json{{"players", players}}, "g"));
}

// Plays one Ludo game with all seats taken by `id` at `level`; returns the record.
GameRecord playLudo(const Game& game, const std::string& id, const Json& params, int level,
                    uint64_t seed) {
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> seats;
  for (int p = 0; p < game.numPlayers(); ++p) {
    owned.push_back(makePlayer(id, game, params, level));
    seats.push_back(owned.back().get());
  }
  const auto& eInfo = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  auto environment =
      eInfo.makeEnvironment({game, 100, validateParams(eInfo.params, nullptr, "e"), {}});
  return playGame(game, seats, *environment, seed);
}

}  // namespace

TEST_CASE("maxn backs up the hand-computed vectors of a 3-player tree with chance", "[maxn]") {
  const bool valuesWithoutCopy = GENERATE(false, true);
  const TreeGame game = threePlayerTree(valuesWithoutCopy);
  const auto root = game.newGame(0);
  // Depth 2: node 3: p1 takes 6 (3 > 2) -> (1,3,9); node 4: p2 takes 8 (5 > 1) -> (2,0,5);
  // node 1 = 0.25 (1,3,9) + 0.75 (2,0,5) = (1.75, 0.75, 6). Node 2: p1 compares node 9 scored
  // statically (3,1,0) with 10 (1.5,2,0) and takes 10 (2 > 1). Root scores: 1.75, 1.5.
  CHECK(rootScores("maxn", game, *root, {{"depth", 2}}) == std::vector<double>{1.75, 1.5});
  // Depth 3: node 9 is searched: p2 takes 11 (2 > 1) -> (0,6,2); p1 at node 2 now prefers 9
  // (6 > 2), so the root's second action is worth 0 to p0.
  CHECK(rootScores("maxn", game, *root, {{"depth", 3}}) == std::vector<double>{1.75, 0.0});
  // Depth 1 scores each root child statically: (1,1,1) and (3,0,0).
  CHECK(rootScores("maxn", game, *root, {{"depth", 1}}) == std::vector<double>{1.0, 3.0});
  // With node 2's children the other way round p1 still takes 9 by its own value (6 > 2), not the
  // first child: a search that works out only the root player's values would see a tie.
  const TreeGame swapped = threePlayerTree(valuesWithoutCopy, true);
  CHECK(rootScores("maxn", swapped, *swapped.newGame(0), {{"depth", 3}}) ==
        std::vector<double>{1.75, 0.0});
}

TEST_CASE("maxn width and chance_width prune as specified", "[maxn]") {
  const bool valuesWithoutCopy = GENERATE(false, true);
  const TreeGame game = threePlayerTree(valuesWithoutCopy);
  const auto root = game.newGame(0);
  // width 1 at depth 3: node 2 keeps only its statically best child for p1: node 9 has
  // static 1, node 10 has 2, so node 10 (1.5,2,0) -> 1.5 instead of 0. Nodes 3 and 4 keep the
  // children they would choose anyway.
  CHECK(rootScores("maxn", game, *root, {{"depth", 3}, {"width", 1}}) ==
        std::vector<double>{1.75, 1.5});
  // chance_width 1: node 1 keeps only its most probable outcome (node 4, 0.75), re-weighted
  // to 1: (2,0,5) -> 2.
  CHECK(rootScores("maxn", game, *root, {{"depth", 2}, {"chance_width", 1}}) ==
        std::vector<double>{2.0, 1.5});
}

TEST_CASE("maxn scores nodes past max_nodes statically", "[maxn]") {
  const bool valuesWithoutCopy = GENERATE(false, true);
  const TreeGame game = threePlayerTree(valuesWithoutCopy);
  const auto root = game.newGame(0);
  // max_nodes 1: node 1 is the first node and is expanded; its children (nodes 2 and 3 of the
  // count) are static: 0.25 * 2 + 0.75 * 6 = 5. Node 2 (4th) is static: 3.
  CHECK(rootScores("maxn", game, *root, {{"depth", 3}, {"max_nodes", 1}}) ==
        std::vector<double>{5.0, 3.0});
  // Leaves count too: at depth 2 node 2 is the 8th node visited (1, 3, its leaves 5 and 6, 4,
  // 7, 8), so max_nodes 7 scores it statically (3) and max_nodes 8 searches it (1.5).
  CHECK(rootScores("maxn", game, *root, {{"depth", 2}, {"max_nodes", 7}}) ==
        std::vector<double>{1.75, 3.0});
  CHECK(rootScores("maxn", game, *root, {{"depth", 2}, {"max_nodes", 8}}) ==
        std::vector<double>{1.75, 1.5});
}

TEST_CASE("maxn plays 4-player Ludo at depth 2 to the end, deterministically", "[maxn]") {
  const auto game = makeLudo(4);
  const auto start = std::chrono::steady_clock::now();
  const GameRecord a = playLudo(*game, "maxn", Json::object(), 50, 7);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(a.winner >= 0);
  CHECK_FALSE(a.capped);
  CHECK(a.metrics[static_cast<size_t>(Metric::Rounds)] > 40);  // a whole game was played
  CHECK(seconds < 20.0);
  const GameRecord b = playLudo(*game, "maxn", Json::object(), 50, 7);
  CHECK(fingerprint(a) == fingerprint(b));
  // Another seed plays a different game (the fingerprint can tell games apart).
  CHECK(fingerprint(playLudo(*game, "maxn", Json::object(), 50, 8)) != fingerprint(a));
}

namespace {

// Two players; p0 wins at once with action 1, loses with action 0, and after action 2 p1
// chooses between its own win and a draw.
TreeGame winningMoveTree() {
  return TreeGame({{0, {1, 2, 3}, {}, {0, 0, 0, 0}},
                   {T, {}, {}, {0, 1, 0, 0}, 1},
                   {T, {}, {}, {1, 0, 0, 0}, 0},
                   {1, {4, 5}, {}, {0, 0, 0, 0}},
                   {T, {}, {}, {0, 1, 0, 0}, 1},
                   {T, {}, {}, {0, 0, 0, 0}, -1}},
                  2);
}

// A 2-player Ludo position after a few natural rolls and random moves, at a decision with a
// choice.
std::unique_ptr<State> ludoDecision(const Game& game, uint64_t seed) {
  auto state = game.newGame(seed);
  Rng rng(seed);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (int moves = 0; moves < 40 || state->actor() < 0 || legal.size() < 2; ++moves) {
    if (state->isEnvironmentNode()) {
      state->outcomes(outcomes);
      state->apply(sampleOutcome(outcomes, rng));
      legal.clear();
      continue;
    }
    state->legalActions(legal);
    if (moves >= 40 && legal.size() >= 2) break;
    state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  REQUIRE(state->actor() >= 0);
  return state;
}

}  // namespace

TEST_CASE("mcts finds the winning move and scores root actions by mean reward", "[mcts]") {
  const TreeGame game = winningMoveTree();
  const auto root = game.newGame(0);
  const auto scores = rootScores("mcts", game, *root, {{"iterations", 300}});
  CHECK(scores[0] == 0.0);  // a loss every time it is tried
  CHECK(scores[1] == 1.0);  // a win every time
  CHECK(scores[2] < 0.5);   // p1 answers with its win (reward 0) more often than the draw (1/2)
  CHECK(scores[2] >= 0.0);
  auto player = makePlayer("mcts", game, {{"iterations", 300}, {"sigma", 0.0}});
  const std::vector<Action> legal = {0, 1, 2};
  Rng rng(3);
  CHECK(player->chooseAction(*root, legal, rng) == 1);
  // Fewer iterations than actions: the untried action scores -1, below every tried one.
  CHECK(rootScores("mcts", game, *root, {{"iterations", 2}}) == std::vector<double>{0, 1, -1});
}

TEST_CASE("mcts lets each node maximize the reward of its own mover", "[mcts]") {
  // p0: action 0 hands p1 a choice between its own win and a draw; action 1 is a sure draw.
  // A p1 that maximized p0's reward would choose the draw and make both actions worth 1/2.
  const TreeGame game({{0, {1, 2}, {}, {0, 0, 0, 0}},
                       {1, {3, 4}, {}, {0, 0, 0, 0}},
                       {T, {}, {}, {0, 0, 0, 0}, -1},
                       {T, {}, {}, {0, 1, 0, 0}, 1},
                       {T, {}, {}, {0, 0, 0, 0}, -1}},
                      2);
  const auto root = game.newGame(0);
  const auto scores = rootScores("mcts", game, *root, {{"iterations", 1000}});
  CHECK(scores[0] < 0.2);  // mostly p1's win (reward 0 for p0); a few exploring draws
  CHECK(scores[1] == 0.5);
}

TEST_CASE("mcts scores every root action of a Ludo position, deterministically", "[mcts]") {
  const auto game = makeLudo(2);
  const auto state = ludoDecision(*game, 5);
  const Json params = {{"iterations", 200}};
  const auto a = rootScores("mcts", *game, *state, params, 1);
  REQUIRE(a.size() >= 2);
  for (const double s : a) {
    CHECK(s > 0.0);  // a mean of rewards in (0, 1]; the sentinel -12345 or -1 would fail
    CHECK(s <= 1.0);
  }
  CHECK(rootScores("mcts", *game, *state, params, 1) == a);
  CHECK(rootScores("mcts", *game, *state, params, 2) != a);  // the seed matters
}

TEST_CASE("mcts plays 2-player Ludo to the end, deterministically", "[mcts]") {
  const auto game = makeLudo(2);
  const Json params = {{"iterations", 100}};
  const GameRecord a = playLudo(*game, "mcts", params, 100, 3);
  CHECK(a.winner >= 0);
  CHECK_FALSE(a.capped);
  CHECK(fingerprint(playLudo(*game, "mcts", params, 100, 3)) == fingerprint(a));
}
