#pragma once
// What regular players and environment players implement.
#include <span>

#include "core/metrics.h"
#include "core/rng.h"
#include "core/state.h"

namespace ddalab {

class Player {
 public:
  virtual ~Player() = default;
  // Chooses one of `legal` (the legal actions of `state`'s regular actor, in the game's order);
  // `rng` is this player's own stream.
  virtual Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) = 0;
};

class EnvironmentPlayer {
 public:
  virtual ~EnvironmentPlayer() = default;
  // Chooses an outcome at an environment node given the game's trace so far; `own` is the
  // environment player's stream, `nature` the game's natural-chance stream.
  virtual Action chooseOutcome(const State& state, const MetricsTracker& trace, Rng& own,
                               Rng& nature) = 0;
};

// An outcome drawn by its natural probability from `nature` (one uniform draw).
Action sampleOutcome(std::span<const Outcome> outcomes, Rng& nature);

}  // namespace ddalab
