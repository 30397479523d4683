#include "players/environment/decision_report.h"

#include <cmath>
#include <utility>

#include "players/environment/settling.h"

namespace ddalab {

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

}  // namespace ddalab
