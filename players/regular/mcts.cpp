// `mcts`: UCT for n players with environment nodes sampled by their probabilities.
//
// Each iteration searches a fresh determinization of the acting player (a plain copy in
// perfect-information games), so the tree is keyed by actions and a node's children are the
// actions met so far (the legal set may differ between determinizations). Selection: at an
// environment node an outcome is drawn by its probability; at a regular node an untried legal
// action is expanded (the first in the game's order) and the descent stops there, otherwise the
// legal child with the best mean reward of that node's mover + c sqrt(ln N / n) is taken (ties:
// first in order). The rollout then plays uniformly random actions and natural outcomes for
// `horizon` rounds counted from its start. Rewards: terminal win 1 / loss 0 / draw 1/2; else
// reward_p = 1 / (1 + exp(-status_p / scale)), status from the gains (metrics.md) and scale the
// game's statusScale(). Root actions are scored by their mean reward for the root mover; an
// action never tried (fewer iterations than actions) scores -1, below every tried one.
//
// A decision polls the run's stop token at every iteration and rollout step, so even 10^7
// iterations give up within milliseconds when the run stops (GameAbandoned).
#include <algorithm>
#include <cmath>

#include "core/registry.h"
#include "core/status.h"
#include "players/regular/ranking.h"
#include "players/search/score_order.h"

namespace ddalab {

namespace {

using Vec = std::array<double, kMaxPlayers>;

struct MctsConfig {
  int iterations;
  double c;
  int horizon;
  double scale;  // the game's status scale: the logistic squash's unit
};

// A tree node in the flat vector; children form a singly linked list of indices.
struct Node {
  int32_t firstChild = -1;
  int32_t nextSibling = -1;
  Action action = 0;  // the action (or outcome) leading here from the parent
  int32_t visits = 0;
  Vec rewardSum{};  // per player, summed over the iterations through this node
};

class Mcts final : public RankingPlayer {
 public:
  Mcts(int level, const LevelScaling& scaling, const MctsConfig& config, StopToken stop)
      : RankingPlayer(level, scaling), config_(config), stop_(stop) {}

  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng& rng) override {
    nodes_.assign(1, Node{});
    for (int it = 0; it < config_.iterations; ++it) {
      stop_.check();
      auto world = state.determinize(state.actor(), rng, {});
      iterate(*world, rng);
    }
    const int mover = state.actor();
    for (size_t i = 0; i < legal.size(); ++i) {
      const int32_t child = findChild(0, legal[i]);
      scores[i] = child < 0 || nodes_[child].visits == 0
                      ? -1.0
                      : nodes_[child].rewardSum[mover] / nodes_[child].visits;
    }
  }

 private:
  // One selection / expansion / rollout / backup pass on `world` (changed in place).
  void iterate(State& world, Rng& rng) {
    path_.assign(1, 0);
    descend(world, rng);
    const Vec reward = rollout(world, rng);
    for (const int32_t n : path_) {
      ++nodes_[n].visits;
      for (int p = 0; p < kMaxPlayers; ++p) nodes_[n].rewardSum[p] += reward[p];
    }
  }

  // Walks the tree from the root, applying its actions to `world`; stops at a terminal state or
  // right after expanding a new regular child. Appends the visited nodes to path_.
  void descend(State& world, Rng& rng) {
    while (!world.isTerminal()) {
      const int32_t node = path_.back();
      if (world.isEnvironmentNode()) {
        world.outcomes(outcomes_);
        const Action outcome = sampleOutcome(outcomes_, rng);
        path_.push_back(childFor(node, outcome));
        world.apply(outcome);
        continue;
      }
      world.legalActions(actions_);
      const int32_t untried = firstUntried(node);
      const int32_t next = untried >= 0 ? untried : bestUct(node, world.actor());
      world.apply(nodes_[next].action);
      path_.push_back(next);
      if (untried >= 0) return;
    }
  }

  // The new child of `node` for the first legal action (actions_) without one; -1 if none.
  int32_t firstUntried(int32_t node) {
    for (const Action a : actions_)
      if (findChild(node, a) < 0) return addChild(node, a);
    return -1;
  }

  // The legal child of `node` with the best UCT value for `mover` (every legal action has a
  // child); a NaN value is never the best, and if all are NaN the first action's child is taken.
  int32_t bestUct(int32_t node, int mover) const {
    const double logN = std::log(std::max(1, nodes_[node].visits));
    int32_t best = -1;
    double bestValue = -INFINITY;
    for (const Action a : actions_) {
      const int32_t child = findChild(node, a);
      const Node& n = nodes_[child];
      const double v = n.rewardSum[mover] / n.visits + config_.c * std::sqrt(logN / n.visits);
      if (best < 0 || scoreAbove(v, bestValue)) {
        bestValue = v;
        best = child;
      }
    }
    return best;
  }

  // The child of `node` reached by `action`, created if absent.
  int32_t childFor(int32_t node, Action action) {
    const int32_t child = findChild(node, action);
    return child >= 0 ? child : addChild(node, action);
  }

  // The child of `node` reached by `action`, or -1.
  int32_t findChild(int32_t node, Action action) const {
    for (int32_t c = nodes_[node].firstChild; c >= 0; c = nodes_[c].nextSibling)
      if (nodes_[c].action == action) return c;
    return -1;
  }

  // Appends a child of `node` for `action` (front of its list) and returns its index.
  int32_t addChild(int32_t node, Action action) {
    Node child;
    child.action = action;
    child.nextSibling = nodes_[node].firstChild;
    nodes_.push_back(child);
    const auto index = static_cast<int32_t>(nodes_.size() - 1);
    nodes_[node].firstChild = index;
    return index;
  }

  // Plays `world` on randomly for `horizon` rounds (or to its end) and returns the rewards.
  Vec rollout(State& world, Rng& rng) {
    const int end = world.roundsCompleted() + config_.horizon;
    while (!world.isTerminal() && world.roundsCompleted() < end) {
      stop_.check();
      if (world.isEnvironmentNode()) {
        world.outcomes(outcomes_);
        world.apply(sampleOutcome(outcomes_, rng));
      } else {
        world.legalActions(actions_);
        world.apply(actions_[rng.below(static_cast<uint32_t>(actions_.size()))]);
      }
    }
    return rewardOf(world);
  }

  // Terminal: 1 for the winner, 0 for the others, 1/2 for all on a draw; otherwise the
  // logistic squash of each player's status.
  Vec rewardOf(const State& world) const {
    const int n = world.numPlayers();
    Vec reward{};
    if (world.isTerminal()) {
      const int w = world.winner();
      for (int p = 0; p < n; ++p) reward[p] = w < 0 ? 0.5 : (p == w ? 1.0 : 0.0);
      return reward;
    }
    Vec status{};
    statusesOf(world, status);
    for (int p = 0; p < n; ++p) reward[p] = 1.0 / (1.0 + std::exp(-status[p] / config_.scale));
    return reward;
  }

  MctsConfig config_;
  StopToken stop_;
  std::vector<Node> nodes_;  // reused across decisions; [0] is the root
  std::vector<int32_t> path_;
  std::vector<Action> actions_;
  std::vector<Outcome> outcomes_;
};

}  // namespace

PlayerInfo mctsInfo() {
  return {
      .id = "mcts",
      .kind = PlayerKind::Regular,
      .description =
          "UCT for n players, chance sampled by probability, random rollouts of `horizon` rounds "
          "rewarded by a logistic squash of the status (terminal: win 1, draw 1/2, loss 0); "
          "hidden information: a fresh determinization of the acting player per iteration; "
          "root actions scored by mean reward, level-scaled",
      .params = withLevelParams(
          {{"iterations", ParamType::Int, 1000, 1, 10000000, "iterations per decision"},
           {"c", ParamType::Double, 0.7, 0, 100, "UCT exploration constant"},
           {"horizon", ParamType::Int, 20, 0, 100000,
            "rounds a rollout plays before it is scored by the status"}}),
      .makeRegular =
          [](const PlayerSetup& setup) {
            const Json& p = setup.params;
            return std::make_unique<Mcts>(
                setup.level, levelScalingFrom(p),
                MctsConfig{p.at("iterations").get<int>(), p.at("c").get<double>(),
                           p.at("horizon").get<int>(), setup.game.statusScale()},
                setup.stop);
          },
      .ranksActions = true,
      .defaultAi = true};
}

}  // namespace ddalab
