// `e-random`: the environment draws by natural probabilities (the game without DDA).
#include "core/registry.h"
#include "players/environment/decision_report.h"

namespace ddalab {

namespace {

class NaturalEnvironment final : public EnvironmentPlayer {
 public:
  explicit NaturalEnvironment(const Coefficients& coefficients) : coefficients_(coefficients) {}

  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng&, Rng& nature) override {
    const Action chosen = sampleOutcome(outcomes, nature);
    if (decision_)
      describeDecision(state, trace, outcomes, coefficients_, chosen, true, {}, *decision_);
    return chosen;
  }

 private:
  Coefficients coefficients_;  // only to describe what each outcome would have done to F
};

}  // namespace

PlayerInfo eRandomInfo() {
  return {.id = "e-random",
          .kind = PlayerKind::Environment,
          .description = "no DDA: every outcome by its natural probability",
          .params = {},
          .makeEnvironment = [](const PlayerSetup& setup) {
            return std::make_unique<NaturalEnvironment>(setup.coefficients);
          }};
}

}  // namespace ddalab
