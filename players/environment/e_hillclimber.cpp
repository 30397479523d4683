// `e-hillclimber`: the outcome whose settled continuation has the best fun score F.
#include "core/registry.h"
#include "players/environment/fun_seeking.h"
#include "players/environment/settling.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

namespace {

class EHillClimber final : public FunSeekingEnvironment {
 public:
  using FunSeekingEnvironment::FunSeekingEnvironment;

 protected:
  Action search(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
                Rng& own) override {
    settler_.funs(state, trace, outcomes, weights(), funs_, objective());
    return outcomes[randomBestIndex(funs_, own)].action;
  }

 protected:
  std::span<const double> searchValues() const override { return funs_; }

 private:
  Settler settler_;
  std::vector<double> funs_;
};

}  // namespace

PlayerInfo eHillClimberInfo() {
  return {.id = "e-hillclimber",
          .kind = PlayerKind::Environment,
          .description = "picks the outcome with the best fun score after settling the round",
          .params = funSeekingParams(),
          .makeEnvironment =
              [](const PlayerSetup& setup) { return std::make_unique<EHillClimber>(setup); },
          .pursuesObjective = true};
}

}  // namespace ddalab
