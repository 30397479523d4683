// `maxn`: Max^n search to a fixed number of regular decisions; environment nodes are
// probability-weighted means, leaves the vector of every player's value.
//
// Depth: `depth` counts regular decisions on a path, the root decision being the first. The
// search stops at the first node reached after `depth` decisions, whatever its actor, and scores
// it statically, so depth 1 is exactly the hillclimber. Environment nodes between decisions
// cost no depth. A node visited after `max_nodes` nodes of the current decision is scored
// statically too (the guard keeps a decision's cost bounded; the root's children always get a
// score). Terminal states are scored by the game's value vector like any leaf. Every inner node
// polls the run's stop token, so a deep search gives up within milliseconds when the run stops.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

#include "core/registry.h"
#include "players/regular/ranking.h"
#include "players/search/greedy.h"
#include "players/search/score_order.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

namespace {

using Vec = std::array<double, kMaxPlayers>;

struct MaxnConfig {
  int depth;
  int width;        // children a regular node below the root expands; 0 = all
  int chanceWidth;  // outcomes an environment node expands; 0 = all
  long long maxNodes;
};

// Reused buffers of one level of the recursion (no allocation once warmed up): the children of
// a node are searched one after another, each copied into the level's scratch state.
struct Level {
  std::vector<Action> actions;
  std::vector<Outcome> outcomes;
  ScratchState child;
  std::vector<double> priority;  // the mover's static value of each child (empty: not ranked)
  std::vector<double> values;    // the mover's value of each child that is a leaf
  std::vector<size_t> order;
};

class Maxn final : public RankingPlayer {
 public:
  Maxn(int level, const LevelScaling& scaling, const MaxnConfig& config, StopToken stop)
      : RankingPlayer(level, scaling), config_(config), stop_(stop) {}

  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng& rng) override {
    // A fresh determinization per decision: the search never sees what the actor cannot.
    const auto world = state.determinize(state.actor(), rng, {});
    const int mover = state.actor();
    visited_ = 0;
    for (size_t i = 0; i < legal.size(); ++i) {
      State& child = rootChild_.copyOf(*world);
      child.apply(legal[i]);
      scores[i] = search(child, config_.depth - 1, 0, 1u << mover)[mover];
    }
  }

 private:
  // The backed-up value vector of `node` with `decisions` regular decisions left to search;
  // `ply` indexes the scratch buffers. Only the entries of the players in the bit set `wanted` are
  // worked out (the others are 0): the movers above the node read no others. `node` is a scratch
  // copy its caller reads no more: the search may play its last child in it instead of copying
  // it once more.
  Vec search(State& node, int decisions, size_t ply, unsigned wanted) {
    stop_.check();
    ++visited_;
    if (node.isTerminal() || decisions == 0 || visited_ > config_.maxNodes)
      return valuesOf(node, wanted);
    while (levels_.size() <= ply) levels_.push_back(std::make_unique<Level>());
    return node.isEnvironmentNode() ? expectation(node, decisions, ply, wanted)
                                    : bestChild(node, decisions, ply, wanted);
  }

  // Probability-weighted mean over the `chance_width` most probable outcomes, re-weighted.
  Vec expectation(State& node, int decisions, size_t ply, unsigned wanted) {
    Level& lv = *levels_[ply];
    node.outcomes(lv.outcomes);
    keepMostProbable(lv.outcomes, config_.chanceWidth);
    double total = 0;
    for (const auto& o : lv.outcomes) total += o.probability;
    node.prepareCopies();
    const int players = node.numPlayers();
    Vec mean{};
    for (size_t k = 0; k < lv.outcomes.size(); ++k) {
      const Outcome o = lv.outcomes[k];
      State& child = childOf(node, lv, k + 1 == lv.outcomes.size());
      child.apply(o.action);
      const Vec v = search(child, decisions, ply + 1, wanted);
      for (int p = 0; p < players; ++p) mean[p] += o.probability / total * v[p];
    }
    return mean;
  }

  // The child vector best for the mover among its `width` statically best actions; ties go to
  // the first action in the game's order, and so does the choice when every value is NaN (a NaN
  // value is never the best).
  Vec bestChild(State& node, int decisions, size_t ply, unsigned wanted) {
    const int mover = node.actor();
    expandRanked(node, ply);
    if (decisions == 1)
      if (const std::optional<Vec> leaf = bestLeaf(node, ply, wanted)) return *leaf;
    Vec best{};
    double bestScore = -INFINITY;
    bool first = true;
    Level& lv = *levels_[ply];
    for (size_t k = 0; k < lv.order.size(); ++k) {
      const size_t i = lv.order[k];
      State& child = childOf(node, lv, k + 1 == lv.order.size());
      child.apply(lv.actions[i]);
      const Vec v = search(child, decisions - 1, ply + 1, wanted | 1u << mover);
      if (std::exchange(first, false) || scoreAbove(v[mover], bestScore)) {
        bestScore = v[mover];
        best = v;
      }
    }
    return best;
  }

  // bestChild of a node whose children are leaves, where the mover's values after its actions are
  // known without copies (nullopt: they are not): only the chosen child is played for the wanted
  // values, unless the game tells them too (State::valuesAfter).
  std::optional<Vec> bestLeaf(State& node, size_t ply, unsigned wanted) {
    Level& lv = *levels_[ply];
    const std::optional<size_t> picked =
        bestLeafChild(node, lv.actions, lv.order, lv.priority, lv.values);
    if (!picked) return std::nullopt;
    visited_ += static_cast<long long>(lv.order.size());  // each leaf counts as visited
    Vec values{};
    const auto n = static_cast<size_t>(node.numPlayers());
    if (node.valuesAfter(lv.actions[*picked], wanted, std::span(values.data(), n))) return values;
    node.apply(lv.actions[*picked]);  // its only child searched: no copy
    return valuesOf(node, wanted);
  }

  // The state to play a child of `node` in: the level's scratch copy of it, or `node` itself for
  // its `last` child (nothing reads `node` after its last child: see search).
  static State& childOf(State& node, Level& lv, bool last) {
    return last ? node : lv.child.copyOf(node);
  }

  // Fills the level's actions of `node` and `order`: the indices of the children to search, in
  // the game's order, restricted to the `width` best by the mover's static value.
  void expandRanked(const State& node, size_t ply) {
    Level& lv = *levels_[ply];
    node.legalActions(lv.actions);
    inGameOrder(lv.actions.size(), lv.order);
    lv.priority.clear();  // empty: not ranked
    const size_t width = static_cast<size_t>(config_.width);
    if (width == 0 || lv.actions.size() <= width) return;
    lv.priority.resize(lv.actions.size());
    scoreByValue(node, lv.actions, lv.priority, &lv.child);
    bestFirst(lv.priority, width, lv.order);
    std::sort(lv.order.begin(), lv.order.end());  // back to the game's order for tie-breaks
  }

  // Keeps the `width` most probable outcomes (0 = all); equal probabilities keep the game's order.
  static void keepMostProbable(std::vector<Outcome>& outcomes, int width) {
    if (width == 0 || outcomes.size() <= static_cast<size_t>(width)) return;
    std::stable_sort(outcomes.begin(), outcomes.end(), [](const Outcome& a, const Outcome& b) {
      return a.probability > b.probability;
    });
    outcomes.resize(static_cast<size_t>(width));
  }

  // The static values of `state` of the players in `wanted` (the other entries are 0).
  static Vec valuesOf(const State& state, unsigned wanted) {
    Vec v{};
    for (int p = 0; p < state.numPlayers(); ++p)
      if ((wanted >> p) & 1u) v[p] = state.value(p);
    return v;
  }

  MaxnConfig config_;
  StopToken stop_;
  long long visited_ = 0;
  ScratchState rootChild_;                      // the root's children, searched one after another
  std::vector<std::unique_ptr<Level>> levels_;  // one per ply (reused, never moved)
};

}  // namespace

PlayerInfo maxnInfo() {
  return {
      .id = "maxn",
      .kind = PlayerKind::Regular,
      .description =
          "Max^n to a fixed number of regular decisions (depth 1 = the hillclimber); environment "
          "nodes are expectations, leaves the value vector; hidden information: searches one "
          "fresh determinization of the acting player per decision; level-scaled",
      .params = withLevelParams(
          {{"depth", ParamType::Int, 2, 1, 10,
            "regular decisions searched, the root decision included (1 = one ply)"},
           {"width", ParamType::Int, 0, 0, 1000,
            "below the root a regular node expands only its best actions by the mover's static "
            "value (0 = all)"},
           {"chance_width", ParamType::Int, 0, 0, 1000,
            "an environment node expands only its most probable outcomes, re-weighted to sum "
            "to 1 (0 = all)"},
           {"max_nodes", ParamType::Int, 200000, 1, 1e9,
            "nodes per decision; past it the remaining nodes are scored statically"}}),
      .makeRegular =
          [](const PlayerSetup& setup) {
            const Json& p = setup.params;
            return std::make_unique<Maxn>(
                setup.level, levelScalingFrom(p),
                MaxnConfig{p.at("depth").get<int>(), p.at("width").get<int>(),
                           p.at("chance_width").get<int>(), p.at("max_nodes").get<long long>()},
                setup.stop);
          },
      .ranksActions = true,
      .defaultAi = true};
}

}  // namespace ddalab
