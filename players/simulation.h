#pragma once
// Simulation and evaluation shared by the players: scoring actions by the game's value,
// the value-greedy policy, and the fun score of a hypothetical continuation.
#include <span>
#include <vector>

#include "core/match.h"
#include "core/metrics.h"
#include "core/state.h"

namespace ddalab {

// scores[i] = value for the actor of the state reached by legal[i] (one ply).
void scoreByValue(const State& state, std::span<const Action> legal, std::span<double> scores);

// The legal action with the best one-ply value for the actor; ties go to the first in order.
Action greedyAction(const State& state, std::span<const Action> legal);

// F of the trace extended by `outcome` and then settled (players.md, e-hillclimber): if the
// round still needs a decision of the regular actor, it plays its value-greedy action; a round
// still open after that (e.g. another roll of the same turn) is closed with the board unchanged.
double settledFun(const State& state, const MetricsTracker& trace, Action outcome,
                  const Coefficients& coefficients);

// Indices of the maximal entries (within a relative tolerance of 1e-12).
std::vector<size_t> bestIndices(std::span<const double> values);

}  // namespace ddalab
