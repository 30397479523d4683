#pragma once
// Base of the environment players that steer outcomes towards fun (players.md, thesis 4.2).
#include <vector>

#include "core/metrics.h"
#include "core/objective.h"
#include "core/params.h"
#include "core/player.h"
#include "core/registry.h"
#include "core/state.h"

namespace ddalab {

class FunSeekingEnvironment : public EnvironmentPlayer {
 public:
  // Pursues `setup.objective` (the weighted sum of `setup.coefficients` by default), drawing
  // naturally with the probability `setup.params.random_prob` (funSeekingParams).
  explicit FunSeekingEnvironment(const PlayerSetup& setup)
      : weights_(setup.coefficients),
        objective_(setup.objective),
        randomProb_(setup.params.at("random_prob").get<double>()),
        weighsExtended_(objective_.weighsExtended(setup.coefficients)) {}

  // With probability random_prob the natural draw (from the nature stream, so random_prob = 1
  // is e-random bit for bit), otherwise the outcome the search finds best for the objective
  // among the outcomes its filter keeps (constrained, lexicographic; all for the others).
  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng& own, Rng& nature) final;

 protected:
  // The most fun of `outcomes` at `state` given the trace so far.
  virtual Action search(const State& state, const MetricsTracker& trace,
                        std::span<const Outcome> outcomes, Rng& own) = 0;
  // The value per outcome (in outcome order) the last search compared; empty when it keeps none.
  virtual std::span<const double> searchValues() const { return {}; }
  const FunWeights& weights() const { return weights_; }
  const Objective& objective() const { return objective_; }

 private:
  // search() among the outcomes the objective's filter keeps; fills kept_ and keptValues_.
  Action searchKept(const State& state, const MetricsTracker& trace,
                    std::span<const Outcome> outcomes, Rng& own);

  FunWeights weights_;  // the coefficients
  Objective objective_;
  double randomProb_;
  bool weighsExtended_;             // whether the searches must track the extended metrics
  MetricsTracker lean_;             // the trace the search sees
  std::vector<Outcome> kept_;       // the outcomes the filter kept (filtering objectives)
  std::vector<double> keptValues_;  // the search's values over every outcome, NaN if removed
};

// The parameters every fun-seeking environment player has (random_prob).
inline std::vector<ParamSpec> funSeekingParams() {
  return {{"random_prob", ParamType::Double, 0.2, 0, 1,
           "probability of drawing the outcome naturally instead of steering it"}};
}

}  // namespace ddalab
