#pragma once
// Base of the environment players that steer outcomes towards fun (players.md, thesis 4.2).
#include <vector>

#include "core/params.h"
#include "core/player.h"
#include "players/simulation.h"

namespace ddalab {

class FunSeekingEnvironment : public EnvironmentPlayer {
 public:
  FunSeekingEnvironment(const Coefficients& coefficients, double randomProb)
      : coefficients_(coefficients), randomProb_(randomProb) {}

  // With probability random_prob the natural draw (from the nature stream, so random_prob = 1
  // is e-random bit for bit), otherwise the outcome the search finds most fun.
  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng& own, Rng& nature) final {
    const bool natural = own.uniform() < randomProb_;
    const Action chosen =
        natural ? sampleOutcome(outcomes, nature) : search(state, trace, outcomes, own);
    if (decision_)
      describeDecision(state, trace, outcomes, coefficients_, chosen, natural,
                       natural ? std::span<const double>() : searchValues(), *decision_);
    return chosen;
  }

 protected:
  // The most fun of `outcomes` at `state` given the trace so far.
  virtual Action search(const State& state, const MetricsTracker& trace,
                        std::span<const Outcome> outcomes, Rng& own) = 0;
  // The value per outcome (in outcome order) the last search compared; empty when it keeps none.
  virtual std::span<const double> searchValues() const { return {}; }
  const Coefficients& coefficients() const { return coefficients_; }

 private:
  Coefficients coefficients_;
  double randomProb_;
};

// The parameters every fun-seeking environment player has (random_prob).
inline std::vector<ParamSpec> funSeekingParams() {
  return {{"random_prob", ParamType::Double, 0.2, 0, 1,
           "probability of drawing the outcome naturally instead of steering it"}};
}

}  // namespace ddalab
