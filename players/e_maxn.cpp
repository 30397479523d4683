// `e-maxn`: a Max^n tree over regular decisions that carries the players' values and the fun
// score F; the environment takes the outcome whose subtree promises the highest F. Every node
// polls the run's stop token, so a large tree gives up within milliseconds when the run stops.
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/registry.h"
#include "players/fun_seeking.h"
#include "players/score_order.h"
#include "players/simulation.h"

namespace ddalab {

namespace {

struct Limits {
  int depth;        // regular decisions below the root
  int width;        // actions expanded at a regular node (0 = all)
  int chanceWidth;  // outcomes expanded at an environment node below the root (0 = all)
  int maxNodes;     // node budget of one decision, shared evenly by the root outcomes
};

// What a subtree promises: each player's value (what the players steer by) and F.
struct Evaluation {
  Gains values{};
  double fun = 0;
};

class EMaxN final : public FunSeekingEnvironment {
 public:
  EMaxN(const Coefficients& coefficients, double randomProb, const Limits& limits, StopToken stop)
      : FunSeekingEnvironment(coefficients, randomProb), limits_(limits), stop_(stop) {}

 protected:
  Action search(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
                Rng& own) override {
    if (outcomes.size() == 1) return outcomes[0].action;
    const long budget = std::max<long>(1, limits_.maxNodes / static_cast<long>(outcomes.size()));
    funs_.resize(outcomes.size());
    for (size_t i = 0; i < outcomes.size(); ++i) {
      nodesLeft_ = budget;  // an even share, so no root outcome is judged by a shallower tree
      Line line(state, trace);
      line.apply(outcomes[i].action, 0);
      funs_[i] = evaluate(line, 0).fun;
    }
    const auto best = bestIndices(funs_);
    return outcomes[best[own.below(static_cast<uint32_t>(best.size()))]].action;
  }

 protected:
  std::span<const double> searchValues() const override { return funs_; }

 private:
  // The subtree below `line`, `decisions` regular decisions below the root.
  Evaluation evaluate(Line& line, int decisions) {
    stop_.check();
    if (line.state->isTerminal() || decisions >= limits_.depth || --nodesLeft_ < 0)
      return leaf(line);
    return line.state->isEnvironmentNode() ? chanceNode(line, decisions)
                                           : decisionNode(line, decisions);
  }

  // A leaf: the players' static values and F of the extended trace.
  Evaluation leaf(const Line& line) const {
    Evaluation e;
    for (int p = 0; p < line.state->numPlayers(); ++p) e.values[p] = line.state->value(p);
    e.fun = line.fun(coefficients());
    return e;
  }

  // The actor's best child by its own component (ties to the first; a NaN component is never the
  // best, and if all are NaN the first child is taken), among the `width` actions of the best
  // static value.
  Evaluation decisionNode(const Line& line, int decisions) {
    const int actor = line.state->actor();
    std::vector<Action> legal;
    line.state->legalActions(legal);
    std::vector<double> scores(legal.size());
    if (limits_.width > 0 && static_cast<int>(legal.size()) > limits_.width)
      scoreByValue(*line.state, legal, scores);  // otherwise all are expanded, order kept
    Evaluation best;
    bool first = true;
    for (size_t i : bestFirst(scores, static_cast<size_t>(limits_.width))) {
      Line child = line;
      child.apply(legal[i], static_cast<int>(legal.size()));
      const Evaluation e = evaluate(child, decisions + 1);
      if (std::exchange(first, false) || scoreAbove(e.values[actor], best.values[actor])) best = e;
    }
    return best;
  }

  // Players expect the probability-weighted mean of their values (re-weighted over the expanded
  // outcomes); F is the maximum, as the environment chooses (F is bounded, never NaN: Line::fun).
  // With chance_width set, the outcomes expanded are those of the best settled F (e-hillclimber's
  // view; ties to the first), the ones the environment would consider.
  Evaluation chanceNode(const Line& line, int decisions) {
    std::vector<Outcome> outcomes;
    line.state->outcomes(outcomes);
    std::vector<double> settled(outcomes.size());
    if (limits_.chanceWidth > 0 && static_cast<int>(outcomes.size()) > limits_.chanceWidth)
      settledFuns(*line.state, line.tracker, outcomes, coefficients(), settled);
    Evaluation result;
    result.fun = -INFINITY;
    double weight = 0;
    for (size_t i : bestFirst(settled, static_cast<size_t>(limits_.chanceWidth))) {
      Line child = line;
      child.apply(outcomes[i].action, 0);
      const Evaluation e = evaluate(child, decisions);
      for (int p = 0; p < line.state->numPlayers(); ++p)
        result.values[p] += outcomes[i].probability * e.values[p];
      weight += outcomes[i].probability;
      result.fun = std::max(result.fun, e.fun);
    }
    for (double& v : result.values) v /= weight;
    return result;
  }

  Limits limits_;
  StopToken stop_;
  long nodesLeft_ = 0;
  std::vector<double> funs_;
};

}  // namespace

PlayerInfo eMaxNInfo() {
  auto params = funSeekingParams();
  params.push_back(
      {"depth", ParamType::Int, 2, 1, 20, "regular decisions searched below the root"});
  params.push_back({"width", ParamType::Int, 5, 0, 1000,
                    "actions expanded at a regular node, best static value first (0 = all)"});
  params.push_back({"chance_width", ParamType::Int, 6, 0, 1000,
                    "outcomes expanded at an environment node below the root, best settled fun "
                    "score first (0 = all)"});
  params.push_back({"max_nodes", ParamType::Int, 20000, 1, 100000000,
                    "nodes per decision, shared evenly by the root outcomes; beyond it nodes are "
                    "leaves"});
  return {.id = "e-maxn",
          .kind = PlayerKind::Environment,
          .description =
              "Max^n over the players' values carrying the fun score; picks the outcome "
              "whose tree promises the best fun score",
          .params = std::move(params),
          .makeEnvironment = [](const PlayerSetup& setup) {
            const Json& p = setup.params;
            const Limits limits{p.at("depth").get<int>(), p.at("width").get<int>(),
                                p.at("chance_width").get<int>(), p.at("max_nodes").get<int>()};
            return std::make_unique<EMaxN>(setup.coefficients, p.at("random_prob").get<double>(),
                                           limits, setup.stop);
          }};
}

}  // namespace ddalab
