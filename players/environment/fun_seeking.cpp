#include "players/environment/fun_seeking.h"

#include <cmath>

#include "players/environment/decision_report.h"
#include "players/environment/settling.h"

namespace ddalab {

Action FunSeekingEnvironment::choose(const State& state, std::span<const Outcome> outcomes,
                                     const MetricsTracker& trace, Rng& own, Rng& nature) {
  const bool natural = own.uniform() < randomProb_;
  Action chosen;
  if (natural) {
    chosen = sampleOutcome(outcomes, nature);
  } else {
    // The search's lines copy this trace: without the extended metrics unless they are weighed.
    lean_ = trace;
    if (!weighsExtended_) lean_.dropExtended();
    chosen = objective_.filtersOutcomes() ? searchKept(state, lean_, outcomes, own)
                                          : search(state, lean_, outcomes, own);
  }
  if (decision_) {
    const std::span<const double> values = natural ? std::span<const double>()
                                           : objective_.filtersOutcomes() ? keptValues_
                                                                          : searchValues();
    describeDecision(state, trace, outcomes, weights_.coefficients(), chosen, natural, values,
                     *decision_, objective_);
  }
  return chosen;
}

Action FunSeekingEnvironment::searchKept(const State& state, const MetricsTracker& trace,
                                         std::span<const Outcome> outcomes, Rng& own) {
  const std::vector<bool> allowed = allowedOutcomes(state, trace, outcomes, objective_);
  kept_.clear();
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (allowed[i]) kept_.push_back(outcomes[i]);
  const Action chosen = search(state, trace, kept_, own);
  // The search's values in the order of every outcome (NaN where the filter removed one).
  const std::span<const double> values = searchValues();
  keptValues_.assign(outcomes.size(), NAN);
  for (size_t i = 0, k = 0; i < outcomes.size() && values.size() == kept_.size(); ++i)
    if (allowed[i]) keptValues_[i] = values[k++];
  return chosen;
}

}  // namespace ddalab
