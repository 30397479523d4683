#include "players/environment/simulation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "players/environment/opponent_model.h"
#include "players/search/score_order.h"

namespace ddalab {

double valueAfter(const State& state, Action action, int player, ScratchState& scratch) {
  if (const std::optional<double> value = state.valueAfter(action, player)) return *value;
  State& next = scratch.copyOf(state);
  next.apply(action);
  return next.value(player);
}

void scoreByValue(const State& state, std::span<const Action> legal, std::span<double> scores,
                  ScratchState* scratch) {
  const int actor = state.actor();
  if (state.valueAfterEach(legal, actor, scores)) return;
  ScratchState local;
  ScratchState& into = scratch ? *scratch : local;
  for (size_t i = 0; i < legal.size(); ++i) scores[i] = valueAfter(state, legal[i], actor, into);
}

double ReplyMemo::valueAfter(const State& state, Action action, int player, ScratchState& scratch) {
  if (state.outcomeMatters(action)) return ddalab::valueAfter(state, action, player, scratch);
  const uint64_t key =
      (static_cast<uint64_t>(static_cast<uint32_t>(action)) << 8) | static_cast<uint8_t>(player);
  const auto [it, added] = values_.try_emplace(key, 0.0);
  if (added) it->second = ddalab::valueAfter(state, action, player, scratch);
  return it->second;
}

Action greedyAction(const State& state, std::span<const Action> legal, ScratchState* scratch,
                    ReplyMemo* memo) {
  if (legal.size() == 1) return legal[0];
  const int actor = state.actor();
  Action best = legal[0];
  double bestValue = -INFINITY;
  const auto consider = [&](Action a, double v) {
    if (v > bestValue) {
      bestValue = v;
      best = a;
    }
  };
  // All at once where the game can (the values are the same; a memo only saves asking twice).
  std::array<double, 128> values;
  if (legal.size() <= values.size() &&
      state.valueAfterEach(legal, actor, std::span(values.data(), legal.size()))) {
    for (size_t i = 0; i < legal.size(); ++i) consider(legal[i], values[i]);
    return best;
  }
  ScratchState local;
  ScratchState& into = scratch ? *scratch : local;
  for (Action a : legal)
    consider(a, memo ? memo->valueAfter(state, a, actor, into) : valueAfter(state, a, actor, into));
  return best;
}

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

void describeDecision(const State& state, const MetricsTracker& trace,
                      std::span<const Outcome> outcomes, const Coefficients& coefficients,
                      Action chosen, bool natural, std::span<const double> searchValues,
                      EnvironmentDecision& decision, const Objective& objective) {
  decision.chosen = chosen;
  decision.natural = natural;
  decision.appraisals.clear();
  Settler settler;
  std::vector<MetricValues> settled;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const Line& line = settler.settle(state, trace, outcomes[i].action);
    const MetricsTracker closed = line.closedTracker();
    const double believability = line.state->believability();
    OutcomeAppraisal appraisal;
    appraisal.outcome = outcomes[i].action;
    appraisal.probability = outcomes[i].probability;
    appraisal.metrics = closed.values(believability);
    appraisal.fun = boundedFun(objective.value(closed, believability, coefficients));
    appraisal.terms = objective.terms(closed, believability, coefficients);
    if (searchValues.size() == outcomes.size() && !std::isnan(searchValues[i]))
      appraisal.searchValue = searchValues[i];
    settled.push_back(appraisal.metrics);
    decision.appraisals.push_back(std::move(appraisal));
  }
  if (!objective.filtersOutcomes()) return;
  const std::vector<bool> allowed = objective.allowedOutcomes(settled);
  for (size_t i = 0; i < outcomes.size(); ++i) decision.appraisals[i].allowed = allowed[i];
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

namespace {

// Whether `value` ties with the maximum `top` of bestIndices (NaN only when every value is).
bool tiesWithTop(double value, double top) {
  if (std::isnan(top)) return true;
  if (std::isinf(top)) return value == top;                    // inf - inf would be NaN
  return top - value <= 1e-12 * std::max(1.0, std::abs(top));  // false for a NaN value
}

// The maximum bestIndices ties the values with (NaN only when every value is).
double topOf(std::span<const double> values) {
  double top = NAN;
  for (double v : values)
    if (scoreAbove(v, top)) top = v;
  return top;
}

}  // namespace

std::vector<size_t> bestIndices(std::span<const double> values) {
  const double top = topOf(values);
  std::vector<size_t> best;
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top)) best.push_back(i);
  return best;
}

size_t randomBestIndex(std::span<const double> values, Rng& rng) {
  const double top = topOf(values);
  uint32_t ties = 0;
  for (const double v : values) ties += tiesWithTop(v, top) ? 1 : 0;
  uint32_t skip = rng.below(ties);
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top) && skip-- == 0) return i;
  return 0;
}

size_t firstBestIndex(std::span<const double> values) {
  const double top = topOf(values);
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top)) return i;
  return 0;
}

void bestFirst(std::span<const double> scores, size_t limit, std::vector<size_t>& order) {
  const size_t keep = limit > 0 ? std::min(limit, scores.size()) : scores.size();
  order.clear();
  // Insertion into the `keep` best so far, after those it does not rank above: what a stable sort
  // then truncation gives (scoreAbove is a strict weak order), in O(n keep) with no buffer.
  for (size_t i = 0; i < scores.size(); ++i) {
    size_t j = order.size();
    while (j > 0 && scoreAbove(scores[i], scores[order[j - 1]])) --j;
    if (j >= keep) continue;
    if (order.size() < keep) order.push_back(i);
    for (size_t m = order.size() - 1; m > j; --m) order[m] = order[m - 1];
    order[j] = i;
  }
}

std::vector<size_t> bestFirst(std::span<const double> scores, size_t limit) {
  std::vector<size_t> order;
  bestFirst(scores, limit, order);
  return order;
}

}  // namespace ddalab
