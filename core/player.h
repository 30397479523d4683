#pragma once
// What regular players and environment players implement.
#include <optional>
#include <span>
#include <vector>

#include "core/metrics.h"
#include "core/objective.h"
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

// How an environment player saw one outcome of a decision (for replays: why it chose).
struct OutcomeAppraisal {
  Action outcome = 0;
  double probability = 0;  // its natural probability
  // The game so far extended by this outcome and settled (the rest of the round played
  // value-greedily): its metrics, the objective's value of it (the weighted sum: F = the sum of
  // the terms coefficient x value) and that value's terms.
  MetricValues metrics{};
  double fun = 0;
  std::vector<ObjectiveTerm> terms;
  bool allowed = true;  // false: a bound or a lexicographic step excluded it before the search
  std::optional<double> searchValue;  // what the player's own search made of the outcome
};

// One decision of an environment player, with the outcomes it weighed.
struct EnvironmentDecision {
  Action chosen = 0;
  bool natural = false;  // drawn by its natural probability (random_prob fired, or e-random)
  std::vector<OutcomeAppraisal> appraisals;  // every outcome, in the game's order
};

class EnvironmentPlayer {
 public:
  virtual ~EnvironmentPlayer() = default;
  // Chooses one of `outcomes` (those of `state`'s environment node, in the game's order) given
  // the game's trace so far; `own` is the environment player's stream, `nature` the game's
  // natural-chance stream.
  virtual Action choose(const State& state, std::span<const Outcome> outcomes,
                        const MetricsTracker& trace, Rng& own, Rng& nature) = 0;
  // choose() among the outcomes `state` lists (for callers that have not asked for them).
  Action chooseOutcome(const State& state, const MetricsTracker& trace, Rng& own, Rng& nature);
  // From now on, describes each decision into `*decision` (null: stop). Costs time: only for
  // detailed traces and the GUI. Players that weigh nothing report natural draws.
  virtual void describeDecisionsTo(EnvironmentDecision* decision) { decision_ = decision; }

 protected:
  EnvironmentDecision* decision_ = nullptr;
};

// An outcome drawn by its natural probability from `nature` (one uniform draw); throws
// GameContractError (core/match.h) when there is none.
Action sampleOutcome(std::span<const Outcome> outcomes, Rng& nature);

}  // namespace ddalab
