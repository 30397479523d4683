#include "players/environment/settling.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "players/environment/opponent_model.h"
#include "players/search/score_order.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

double boundedFun(double fun) {
  return std::isnan(fun) ? -kFunBound : std::clamp(fun, -kFunBound, kFunBound);
}

const Line& Settler::settle(const State& state, const MetricsTracker& trace, Action outcome) {
  memo_.clear();  // a single outcome: nothing to share
  kept_.reset();
  return settleShared(state, trace, outcome);
}

const Line& Settler::settleShared(const State& state, const MetricsTracker& trace, Action outcome) {
  std::optional<Line>& line = lines_[working_];
  if (line)
    line->reset(state, trace);
  else
    line.emplace(state, trace, model_);
  line->apply(outcome, 0);
  if (line->roundOpen && line->state->actor() >= 0) line->applyReply(&memo_);
  return *line;
}

double Settler::fun(const State& state, const MetricsTracker& trace, Action outcome,
                    const FunWeights& weights, const Objective& objective) {
  return settle(state, trace, outcome).fun(weights, objective);
}

void Settler::funs(const State& state, const MetricsTracker& trace,
                   std::span<const Outcome> outcomes, const FunWeights& weights,
                   std::vector<double>& funs, const Objective& objective) {
  funs.resize(outcomes.size());
  memo_.clear();
  kept_.reset();
  double top = NAN;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    funs[i] = settleShared(state, trace, outcomes[i].action).fun(weights, objective);
    if (!scoreAbove(funs[i], top)) continue;
    top = funs[i];  // the first of the best so far: keep its line, settle into the other
    kept_ = outcomes[i].action;
    working_ ^= 1;
  }
}

const Line* Settler::kept(Action outcome) const {
  return kept_ == outcome ? &*lines_[working_ ^ 1] : nullptr;
}

Action Settler::best(const State& state, const MetricsTracker& trace, const FunWeights& weights,
                     const Objective& objective) {
  state.outcomes(outcomes_);
  funs(state, trace, outcomes_, weights, funs_, objective);
  return outcomes_[firstBestIndex(funs_)].action;
}

double settledFun(const State& state, const MetricsTracker& trace, Action outcome,
                  const Coefficients& coefficients, OpponentModel* model) {
  return Settler(model).fun(state, trace, outcome, coefficients);
}

void settledFuns(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
                 const Coefficients& coefficients, std::vector<double>& funs,
                 OpponentModel* model) {
  Settler(model).funs(state, trace, outcomes, coefficients, funs);
}

Action hillclimbOutcome(const State& state, const MetricsTracker& trace,
                        const Coefficients& coefficients, OpponentModel* model) {
  return Settler(model).best(state, trace, coefficients);
}

Line& Line::operator=(const Line& other) {
  if (this != &other) {
    if (!state->assign(*other.state)) state = other.state->clone();
    tracker = other.tracker;
    roundOpen = other.roundOpen;
    model = other.model;
  }
  return *this;
}

void Line::reset(const State& root, const MetricsTracker& trace) {
  if (!state->assign(root)) state = root.clone();
  tracker = trace;
  roundOpen = false;
}

void Line::apply(Action action, int legalCount) {
  roundOpen = !applyTracked(*state, tracker, action, legalCount);
}

void Line::applyReply(ReplyMemo* memo) {
  state->legalActions(legal_);
  const Action action =
      model ? model->reply(*state, legal_, memo) : greedyAction(*state, legal_, &scratch_, memo);
  apply(action, static_cast<int>(legal_.size()));
}

double Line::fun(const FunWeights& weights, const Objective& objective) const {
  const auto value = [&](const MetricsTracker& t) {  // the weighted sum without a detour
    return objective.kind == ObjectiveKind::WeightedSum
               ? t.fun(weights, state->believability())
               : objective.value(t, state->believability(), weights);
  };
  if (!roundOpen) return boundedFun(value(tracker));
  MetricsTracker closed = tracker;
  closed.endRound(*state);
  return boundedFun(value(closed));
}

MetricsTracker Line::closedTracker() const {
  MetricsTracker closed = tracker;
  if (roundOpen) closed.endRound(*state);
  return closed;
}

MetricValues Line::metrics() const {
  if (!roundOpen) return tracker.values(state->believability());
  MetricsTracker closed = tracker;
  closed.endRound(*state);
  return closed.values(state->believability());
}

std::vector<bool> allowedOutcomes(const State& state, const MetricsTracker& trace,
                                  std::span<const Outcome> outcomes, const Objective& objective) {
  if (!objective.filtersOutcomes()) return std::vector<bool>(outcomes.size(), true);
  Settler settler;
  std::vector<MetricValues> settled;
  for (const Outcome& o : outcomes)
    settled.push_back(settler.settle(state, trace, o.action).metrics());
  return objective.allowedOutcomes(settled);
}

bool playRepliesToEnvironment(Line& line, int roundLimit, ReplyMemo* memo) {
  while (!line.done(roundLimit)) {
    if (line.state->isEnvironmentNode()) return true;
    line.applyReply(std::exchange(memo, nullptr));
  }
  return false;
}

}  // namespace ddalab
