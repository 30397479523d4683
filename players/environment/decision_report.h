#pragma once
// What an environment player reports about one of its decisions (EnvironmentDecision, for the
// detailed traces and the GUI): every outcome appraised as e-hillclimber sees it.
#include <span>

#include "core/metrics.h"
#include "core/objective.h"
#include "core/player.h"
#include "core/state.h"

namespace ddalab {

// Fills `decision` for the choice of `chosen` among `outcomes` at `state`: every outcome appraised
// as e-hillclimber sees it (the settled continuation's metrics, the objective's value and terms,
// whether the objective's filter kept it), with the values the player's search compared where
// `searchValues` has one per outcome (NaN: none, the outcome was filtered out).
void describeDecision(const State& state, const MetricsTracker& trace,
                      std::span<const Outcome> outcomes, const Coefficients& coefficients,
                      Action chosen, bool natural, std::span<const double> searchValues,
                      EnvironmentDecision& decision, const Objective& objective = weightedSum());

}  // namespace ddalab
