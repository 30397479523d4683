#pragma once
// Random play for tests and test tools that need positions of any game: a uniform legal action
// of the seat on turn, or an outcome drawn with its natural probability.
#include <vector>

#include "core/player.h"
#include "core/rng.h"
#include "core/state.h"

namespace ddalab {

// A random move of whoever acts at `s` (not terminal).
inline Action randomMove(const State& s, Rng& rng) {
  if (s.isEnvironmentNode()) {
    std::vector<Outcome> outcomes;
    s.outcomes(outcomes);
    return sampleOutcome(outcomes, rng);
  }
  std::vector<Action> legal;
  s.legalActions(legal);
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

}  // namespace ddalab
