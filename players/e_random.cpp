// `e-random`: the environment draws by natural probabilities (the game without DDA).
#include "core/registry.h"

namespace ddalab {

namespace {

class NaturalEnvironment final : public EnvironmentPlayer {
 public:
  Action chooseOutcome(const State& state, const MetricsTracker&, Rng&, Rng& nature) override {
    state.outcomes(outcomes_);
    return sampleOutcome(outcomes_, nature);
  }

 private:
  std::vector<Outcome> outcomes_;
};

}  // namespace

PlayerInfo eRandomInfo() {
  return {
      .id = "e-random",
      .kind = PlayerKind::Environment,
      .description = "no DDA: every outcome by its natural probability",
      .params = {},
      .makeEnvironment = [](const PlayerSetup&) { return std::make_unique<NaturalEnvironment>(); }};
}

}  // namespace ddalab
