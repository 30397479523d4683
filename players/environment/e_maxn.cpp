// `e-maxn`: a Max^n tree over regular decisions that carries the players' values and the fun
// score F; the environment takes the outcome whose subtree promises the highest F. With an
// opponent model other than greedy, a regular node follows the modelled seat's reply instead of
// maximizing the actor's value over `width` actions (the thesis: E-Max^n makes the decisions the
// players make). Every node
// polls the run's stop token, so a large tree gives up within milliseconds when the run stops.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <utility>

#include "core/registry.h"
#include "players/environment/opponent_model.h"
#include "players/environment/settling.h"
#include "players/environment/simulating_environment.h"
#include "players/search/greedy.h"
#include "players/search/score_order.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

namespace {

// Which outcomes an environment node below the root expands when chance_width limits them.
enum class ChanceOrder {
  SettledFun,   // the best settled F first: the outcomes the environment would consider
  Probability,  // the most probable first (maxn's choice; ties in the game's order)
};

struct Limits {
  int depth;        // regular decisions below the root
  int width;        // actions expanded at a regular node (0 = all)
  int chanceWidth;  // outcomes expanded at an environment node below the root (0 = all)
  ChanceOrder chanceOrder;
  int maxNodes;  // node budget of one decision, shared evenly by the root outcomes
};

// The vectors of one node, reused by every node of its tree level (a search allocates nothing
// once warm).
struct Buffers {
  std::vector<Action> actions;
  std::vector<Outcome> outcomes;
  std::vector<double> keys;    // what the actions or outcomes are ranked by
  std::vector<double> values;  // the actor's value after each action whose child is a leaf
  std::vector<size_t> order;   // the indices expanded, best first
};

// What a subtree promises: each player's value (what the players steer by) and F.
struct Evaluation {
  Gains values{};
  double fun = 0;
};

class EMaxN final : public SimulatingEnvironment {
 public:
  EMaxN(const PlayerSetup& setup, const Limits& limits)
      : SimulatingEnvironment(setup), limits_(limits) {}

 protected:
  Action searchOutcomes(const State& state, const MetricsTracker& trace,
                        std::span<const Outcome> outcomes, Rng& own) override {
    const long budget = std::max<long>(1, limits_.maxNodes / static_cast<long>(outcomes.size()));
    funs_.resize(outcomes.size());
    for (size_t i = 0; i < outcomes.size(); ++i) {
      nodesLeft_ = budget;  // an even share, so no root outcome is judged by a shallower tree
      Line& line = lineAt(0, state, trace);
      line.apply(outcomes[i].action, 0);
      funs_[i] = evaluate(line, 0, 0).fun;
    }
    return outcomes[randomBestIndex(funs_, own)].action;
  }

 protected:
  std::span<const double> searchValues() const override { return funs_; }

 private:
  // The line of tree level `level` (the root's outcome is level 0), `parent` copied into it: each
  // level keeps its line from one node to the next, so the tree allocates no state per node.
  Line& lineAt(size_t level, const Line& parent) {
    while (level >= lines_.size()) lines_.push_back(std::make_unique<Line>(parent));
    return *lines_[level] = parent;
  }
  // The line child `k` of `count` of the node `line` (at tree level `level`) is played in: a copy
  // at the next level, or for the last child `line` itself (no copy; the node is done with it).
  Line& childLine(Line& line, size_t level, size_t k, size_t count) {
    return k + 1 < count ? lineAt(level + 1, line) : line;
  }
  Line& lineAt(size_t level, const State& root, const MetricsTracker& trace) {
    while (level >= lines_.size()) lines_.push_back(std::make_unique<Line>(root, trace, &model()));
    lines_[level]->reset(root, trace);
    return *lines_[level];
  }

  // The subtree below `line` (at tree level `level`), `decisions` regular decisions below the root;
  // `line` may be played on (its caller copies it afresh for each of its children).
  Evaluation evaluate(Line& line, int decisions, size_t level) {
    checkStop();
    if (line.state->isTerminal() || decisions >= limits_.depth || --nodesLeft_ < 0)
      return leaf(line);
    return line.state->isEnvironmentNode() ? chanceNode(line, decisions, level)
                                           : decisionNode(line, decisions, level);
  }

  // A leaf: the players' static values and F of the extended trace.
  Evaluation leaf(const Line& line) const {
    Evaluation e;
    for (int p = 0; p < line.state->numPlayers(); ++p) e.values[p] = line.state->value(p);
    e.fun = line.fun(weights(), objective());
    return e;
  }

  // The actor's best child by its own component (ties to the first; a NaN component is never the
  // best, and if all are NaN the first child is taken), among the `width` actions of the best
  // static value.
  Evaluation decisionNode(Line& line, int decisions, size_t level) {
    if (model().random()) {
      line.applyReply();  // the modelled seat decides: one child
      return evaluate(line, decisions + 1, level);
    }
    const int actor = line.state->actor();
    Buffers& b = buffersAt(level);
    std::vector<Action>& legal = b.actions;
    line.state->legalActions(legal);
    const bool ranked = limits_.width > 0 && static_cast<int>(legal.size()) > limits_.width;
    if (ranked) {
      b.keys.resize(legal.size());
      scoreByValue(*line.state, legal, b.keys, &scratch_);
      bestFirst(b.keys, static_cast<size_t>(limits_.width), b.order);
    } else {
      inGameOrder(legal.size(), b.order);  // all of them
    }
    if (decisions + 1 >= limits_.depth)  // the children are leaves: play only the chosen one
      if (const std::optional<size_t> i = bestLeafChild(
              *line.state, legal, b.order, ranked ? b.keys : std::span<const double>(), b.values)) {
        checkStop();
        line.apply(legal[*i], static_cast<int>(legal.size()));  // its only child: no copy
        return leaf(line);
      }
    Evaluation best;
    bool first = true;
    for (size_t k = 0; k < b.order.size(); ++k) {
      const size_t i = b.order[k];
      Line& child = childLine(line, level, k, b.order.size());
      child.apply(legal[i], static_cast<int>(legal.size()));
      const Evaluation e = evaluate(child, decisions + 1, level + 1);
      if (std::exchange(first, false) || scoreAbove(e.values[actor], best.values[actor])) best = e;
    }
    return best;
  }

  // Players expect the probability-weighted mean of their values (re-weighted over the expanded
  // outcomes); F is the maximum, as the environment chooses (F is bounded, never NaN: Line::fun).
  // With chance_width set, the outcomes expanded are the first by chance_order (ties to the
  // first).
  Evaluation chanceNode(Line& line, int decisions, size_t level) {
    Buffers& b = buffersAt(level);
    std::vector<Outcome>& outcomes = b.outcomes;
    line.state->outcomes(outcomes);
    Evaluation result;
    result.fun = -INFINITY;
    double weight = 0;
    expandOutcomes(line, b);
    const int players = line.state->numPlayers();
    for (size_t k = 0; k < b.order.size(); ++k) {
      const size_t i = b.order[k];
      Line& child = childLine(line, level, k, b.order.size());
      child.apply(outcomes[i].action, 0);
      const Evaluation e = evaluate(child, decisions, level + 1);
      for (int p = 0; p < players; ++p) result.values[p] += outcomes[i].probability * e.values[p];
      weight += outcomes[i].probability;
      result.fun = std::max(result.fun, e.fun);
    }
    for (double& v : result.values) v /= weight;
    return result;
  }

  // Sets b.order to the indices of b.outcomes a chance node expands: all, or the chance_width
  // first by the order.
  void expandOutcomes(const Line& line, Buffers& b) {
    const std::span<const Outcome> outcomes = b.outcomes;
    if (limits_.chanceWidth == 0 || static_cast<int>(outcomes.size()) <= limits_.chanceWidth)
      return inGameOrder(outcomes.size(), b.order);
    b.keys.resize(outcomes.size());
    if (limits_.chanceOrder == ChanceOrder::SettledFun)
      settler_.funs(*line.state, line.tracker, outcomes, weights(), b.keys, objective());
    else
      for (size_t i = 0; i < outcomes.size(); ++i) b.keys[i] = outcomes[i].probability;
    bestFirst(b.keys, static_cast<size_t>(limits_.chanceWidth), b.order);
  }

  // The work space of the nodes at tree level `level` (a node's children are at the next level).
  Buffers& buffersAt(size_t level) {
    while (buffers_.size() <= level) buffers_.push_back(std::make_unique<Buffers>());
    return *buffers_[level];
  }

  Limits limits_;
  long nodesLeft_ = 0;
  std::vector<double> funs_;
  std::vector<std::unique_ptr<Line>> lines_;       // one per tree level (reused, never moved)
  std::vector<std::unique_ptr<Buffers>> buffers_;  // one per tree level (reused, never moved)
  Settler settler_{&model()};                      // chance_order settled-fun
  ScratchState scratch_;                           // width-limited one-ply scores
};

}  // namespace

PlayerInfo eMaxNInfo() {
  auto params = funSeekingParams();
  params.push_back(
      {"depth", ParamType::Int, 2, 1, 20, "regular decisions searched below the root"});
  params.push_back({"width", ParamType::Int, 5, 0, 1000,
                    "actions expanded at a regular node, best static value first (0 = all; "
                    "greedy model only: other models follow the seat's reply)"});
  params.push_back({"chance_width", ParamType::Int, 6, 0, 1000,
                    "outcomes expanded at an environment node below the root, the first by "
                    "chance_order (0 = all; the root always weighs every outcome)"});
  params.push_back({"chance_order",
                    ParamType::String,
                    "settled-fun",
                    0,
                    0,
                    "which outcomes chance_width keeps: settled-fun (best settled fun score, as "
                    "e-hillclimber sees them) or probability (most probable, as maxn)",
                    {"settled-fun", "probability"}});
  params.push_back(
      opponentModelParam("Max^n: the actor takes its best value among the width best actions"));
  params.push_back({"max_nodes", ParamType::Int, 20000, 1, 100000000,
                    "nodes per decision, shared evenly by the root outcomes; beyond it nodes are "
                    "leaves"});
  return {.id = "e-maxn",
          .kind = PlayerKind::Environment,
          .description =
              "Max^n over the players' values carrying the fun score; picks the outcome "
              "whose tree promises the best fun score",
          .params = std::move(params),
          .makeEnvironment =
              [](const PlayerSetup& setup) {
                const Json& p = setup.params;
                const Limits limits{p.at("depth").get<int>(), p.at("width").get<int>(),
                                    p.at("chance_width").get<int>(),
                                    p.at("chance_order").get<std::string>() == "probability"
                                        ? ChanceOrder::Probability
                                        : ChanceOrder::SettledFun,
                                    p.at("max_nodes").get<int>()};
                return std::make_unique<EMaxN>(setup, limits);
              },
          .pursuesObjective = true};
}

}  // namespace ddalab
