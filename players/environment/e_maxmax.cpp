// `e-maxmax`: the outcome whose continuation of `depth` more rounds, played by the modelled
// players (value-greedy by default) and a hill-climbing environment, has the best fun score F. The
// simulation polls the run's stop token at every environment decision, so deep simulations give up
// within milliseconds when the run stops.
#include <utility>

#include "core/registry.h"
#include "players/environment/opponent_model.h"
#include "players/environment/settling.h"
#include "players/environment/simulating_environment.h"
#include "players/search/greedy.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

namespace {

class EMaxMax final : public SimulatingEnvironment {
 public:
  EMaxMax(const PlayerSetup& setup, int depth) : SimulatingEnvironment(setup), depth_(depth) {}

 protected:
  Action searchOutcomes(const State& state, const MetricsTracker& trace,
                        std::span<const Outcome> outcomes, Rng& own) override {
    funs_.resize(outcomes.size());
    for (size_t i = 0; i < outcomes.size(); ++i) funs_[i] = simulatedFun(state, trace, outcomes[i]);
    return outcomes[randomBestIndex(funs_, own)].action;
  }

 protected:
  std::span<const double> searchValues() const override { return funs_; }

 private:
  // F after `outcome`, the rest of its round and `depth_` further rounds. The simulated
  // environment breaks ties to the first outcome and settles with the same model, so only a
  // random model's stream draws random numbers.
  double simulatedFun(const State& state, const MetricsTracker& trace, const Outcome& outcome) {
    checkStop();
    if (line_)
      line_->reset(state, trace);
    else
      line_.emplace(state, trace, &model());
    line_->apply(outcome.action, 0);
    const int roundLimit = trace.rounds() + 1 + depth_;
    // The reply right after the outcome shares its values with the other outcomes' (ReplyMemo).
    for (ReplyMemo* memo = &rootMemo(); playRepliesToEnvironment(*line_, roundLimit, memo);
         memo = nullptr) {
      checkStop();
      const Action picked = settler_.best(*line_->state, line_->tracker, weights(), objective());
      // The settler played the picked outcome and the reply after it as this line would: take its
      // line rather than play them again (a random model's replies draw anew, so those replay).
      const Line* settled = model().random() ? nullptr : settler_.kept(picked);
      if (settled)
        *line_ = *settled;
      else
        line_->apply(picked, 0);
    }
    return line_->fun(weights(), objective());
  }

  int depth_;
  std::vector<double> funs_;
  std::optional<Line> line_;   // the simulated continuation (reused)
  Settler settler_{&model()};  // the simulated environment's hill climbing
};

}  // namespace

PlayerInfo eMaxMaxInfo() {
  auto params = funSeekingParams();
  params.push_back({"depth", ParamType::Int, 3, 0, 100,
                    "rounds simulated after the outcome's own round (modelled players, "
                    "hill-climbing environment)"});
  params.push_back(opponentModelParam());
  return {.id = "e-maxmax",
          .kind = PlayerKind::Environment,
          .description =
              "picks the outcome with the best fun score after simulating a few rounds "
              "of modelled players and a hill-climbing environment",
          .params = std::move(params),
          .makeEnvironment =
              [](const PlayerSetup& setup) {
                return std::make_unique<EMaxMax>(setup, setup.params.at("depth").get<int>());
              },
          .pursuesObjective = true};
}

}  // namespace ddalab
