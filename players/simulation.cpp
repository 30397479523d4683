#include "players/simulation.h"

#include <algorithm>
#include <cmath>

namespace ddalab {

void scoreByValue(const State& state, std::span<const Action> legal, std::span<double> scores) {
  const int actor = state.actor();
  for (size_t i = 0; i < legal.size(); ++i) {
    auto next = state.clone();
    next->apply(legal[i]);
    scores[i] = next->value(actor);
  }
}

Action greedyAction(const State& state, std::span<const Action> legal) {
  if (legal.size() == 1) return legal[0];
  const int actor = state.actor();
  Action best = legal[0];
  double bestValue = -INFINITY;
  for (Action a : legal) {
    auto next = state.clone();
    next->apply(a);
    if (const double v = next->value(actor); v > bestValue) {
      bestValue = v;
      best = a;
    }
  }
  return best;
}

double settledFun(const State& state, const MetricsTracker& trace, Action outcome,
                  const Coefficients& coefficients) {
  auto line = state.clone();
  MetricsTracker tracker = trace;
  bool roundEnded = applyTracked(*line, tracker, outcome, 0);
  if (!roundEnded && line->actor() >= 0) {
    std::vector<Action> legal;
    line->legalActions(legal);
    const Action settle = greedyAction(*line, legal);
    roundEnded = applyTracked(*line, tracker, settle, static_cast<int>(legal.size()));
  }
  if (!roundEnded) {
    const Gains gains = gainsOf(*line);
    tracker.endRound(std::span(gains.data(), static_cast<size_t>(line->numPlayers())));
  }
  return tracker.fun(coefficients, line->believability());
}

std::vector<size_t> bestIndices(std::span<const double> values) {
  const double top = *std::max_element(values.begin(), values.end());
  std::vector<size_t> best;
  for (size_t i = 0; i < values.size(); ++i)
    if (top - values[i] <= 1e-12 * std::max(1.0, std::abs(top))) best.push_back(i);
  return best;
}

}  // namespace ddalab
