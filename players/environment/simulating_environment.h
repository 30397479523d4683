#pragma once
// Base of the environment players that search simulated continuations in which an opponent model
// plays the regular seats (e-maxmax, e-maxn, e-montecarlo): what they read from the setup and how
// every one of their searches opens, written once.
#include <span>

#include "core/registry.h"
#include "core/stop.h"
#include "players/environment/fun_seeking.h"
#include "players/environment/opponent_model.h"
#include "players/search/greedy.h"

namespace ddalab {

class SimulatingEnvironment : public FunSeekingEnvironment {
 public:
  // random_prob and the opponent model (opponent_model) from `setup.params`, and the run's stop
  // token, which the simulations poll.
  explicit SimulatingEnvironment(const PlayerSetup& setup)
      : FunSeekingEnvironment(setup), model_(makeOpponentModel(setup)), stop_(setup.stop) {}

 protected:
  // A single outcome is taken without a search (nothing drawn); otherwise the model's stream is
  // reseeded from `own` (a random model only), the root memo cleared and searchOutcomes run.
  Action search(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
                Rng& own) final {
    if (outcomes.size() == 1) return outcomes[0].action;
    model_.startDecision(own);
    rootMemo_.clear();
    return searchOutcomes(state, trace, outcomes, own);
  }
  // The most fun of `outcomes` (two or more) at `state` given the trace so far.
  virtual Action searchOutcomes(const State& state, const MetricsTracker& trace,
                                std::span<const Outcome> outcomes, Rng& own) = 0;

  // Who plays the regular seats in the simulations.
  OpponentModel& model() { return model_; }
  // Polled by the simulations: throws once the run stops.
  void checkStop() const { stop_.check(); }
  // The replies' values after the root's outcomes, shared by the searches that play the replies
  // right after a root outcome (ReplyMemo); cleared at each decision.
  ReplyMemo& rootMemo() { return rootMemo_; }

 private:
  OpponentModel model_;
  StopToken stop_;
  ReplyMemo rootMemo_;
};

}  // namespace ddalab
