#pragma once
// Settling: the fun score of a hypothetical continuation of the game (a Line), and the
// e-hillclimber evaluation of an outcome (its continuation settled to the end of its round), which
// every fun-seeking environment player builds on.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/match.h"
#include "core/metrics.h"
#include "core/objective.h"
#include "core/state.h"
#include "core/state_copy.h"
#include "players/search/greedy.h"

namespace ddalab {

class OpponentModel;

// The largest magnitude of a fun score as the players compare and sum it: room for 10^8 of them.
inline constexpr double kFunBound = 1e300;

// `fun` made safe to compare and sum: a score that overflowed to +-inf saturates at +-kFunBound,
// NaN (the inf - inf of overflowing terms) counts as the worst score, -kFunBound; every score
// of valid coefficients (|c| <= 1e6) is far inside the bound and passes unchanged.
double boundedFun(double fun);

// A hypothetical continuation of the game: a state, the trace kept in step with it, whether the
// last action applied left its round open (F closes such a round with the board as it stands),
// and who plays the regular decisions (null: value-greedy; not owned, copied with the line).
struct Line {
  Line(const State& root, const MetricsTracker& trace, OpponentModel* replies = nullptr)
      : state(root.clone()), tracker(trace), model(replies) {}
  Line(const Line& other)
      : state(other.state->clone()),
        tracker(other.tracker),
        roundOpen(other.roundOpen),
        model(other.model) {}
  // Copies `other` into this line, reusing its state's memory where the game can (State::assign).
  Line& operator=(const Line& other);
  // Starts the line over at `root` and `trace` (same model), reusing its memory.
  void reset(const State& root, const MetricsTracker& trace);

  // Applies an action of the current actor (`legalCount` unused at environment nodes).
  void apply(Action action, int legalCount);
  // Applies the regular actor's reply: value-greedy, or the model's; `memo` (greedy replies only)
  // when the line stands right after an outcome of the environment node the memo is for.
  void applyReply(ReplyMemo* memo = nullptr);
  // True at the end of the game or once round number `roundLimit` (of the whole game) ended.
  bool done(int roundLimit) const { return state->isTerminal() || tracker.rounds() >= roundLimit; }
  // The objective's value (the weighted sum F by default) of the extended trace, an open round
  // closed without a further decision (boundedFun).
  double fun(const FunWeights& weights, const Objective& objective = weightedSum()) const;
  // The metrics of the extended trace, an open round closed without a further decision.
  MetricValues metrics() const;
  // The tracker of the extended trace, an open round closed without a further decision.
  MetricsTracker closedTracker() const;

  std::unique_ptr<State> state;
  MetricsTracker tracker;
  bool roundOpen = false;
  OpponentModel* model = nullptr;

 private:
  std::vector<Action> legal_;  // scratch for greedy decisions
  ScratchState scratch_;       // their one-ply evaluations
};

// E-hillclimber's evaluation of outcomes (players.md): the trace extended by an outcome and then
// settled — if the round still needs a decision of the regular actor, it plays its value-greedy
// action (or the reply of `model` when given); a round still open after that (e.g. another roll of
// the same turn) is closed with the board unchanged. One line is reused for every outcome, so the
// searches that settle thousands of outcomes a decision allocate nothing after the first.
class Settler {
 public:
  explicit Settler(OpponentModel* model = nullptr) : model_(model) {}
  // The objective's value (F by default) of the settled continuation of `outcome` (boundedFun).
  double fun(const State& state, const MetricsTracker& trace, Action outcome,
             const FunWeights& weights, const Objective& objective = weightedSum());
  // The settled continuation of `outcome` (its metrics, F, ...); valid until the next call.
  const Line& settle(const State& state, const MetricsTracker& trace, Action outcome);
  // funs[i] = fun of outcomes[i].
  void funs(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
            const FunWeights& weights, std::vector<double>& funs,
            const Objective& objective = weightedSum());
  // The outcome of `state` e-hillclimber would pick with ties to the first: deterministic for
  // simulations (with a random model, as deterministic as the model's stream).
  Action best(const State& state, const MetricsTracker& trace, const FunWeights& weights,
              const Objective& objective = weightedSum());
  // The settled continuation of `outcome` from the last funs() or best(), or null when it was not
  // kept (only the first of the best-valued outcomes is): a search that goes on with the outcome
  // best() picked takes this line instead of playing the outcome and its reply again.
  const Line* kept(Action outcome) const;

 private:
  // settle() with the replies' values shared through memo_ (outcomes of one state).
  const Line& settleShared(const State& state, const MetricsTracker& trace, Action outcome);

  OpponentModel* model_;
  // The line being settled and the best-valued one so far in funs(): swapping their roles keeps
  // the best without a copy.
  std::array<std::optional<Line>, 2> lines_;
  int working_ = 0;
  std::optional<Action> kept_;  // the outcome the other line settled
  std::vector<Outcome> outcomes_;
  std::vector<double> funs_;
  ReplyMemo memo_;
};

// Settler::fun, Settler::funs and Settler::best for a single use (tests, descriptions).
double settledFun(const State& state, const MetricsTracker& trace, Action outcome,
                  const Coefficients& coefficients, OpponentModel* model = nullptr);
void settledFuns(const State& state, const MetricsTracker& trace, std::span<const Outcome> outcomes,
                 const Coefficients& coefficients, std::vector<double>& funs,
                 OpponentModel* model = nullptr);
Action hillclimbOutcome(const State& state, const MetricsTracker& trace,
                        const Coefficients& coefficients, OpponentModel* model = nullptr);

// Plays the line's regular replies (Line::applyReply) until an environment node (returns true),
// the end of the game or the end of round number `roundLimit` (false); the first reply through
// `memo` when given (the line stands right after an outcome of the memo's environment node).
bool playRepliesToEnvironment(Line& line, int roundLimit, ReplyMemo* memo = nullptr);

// Plays to the end of round `roundLimit` (or of the game): regular players by the line's replies
// (the first through `memo`, as playRepliesToEnvironment), the environment by
// `chooseOutcome(const Line&) -> Action`.
template <typename OutcomeChooser>
void playRounds(Line& line, int roundLimit, ReplyMemo* memo, OutcomeChooser&& chooseOutcome) {
  for (; playRepliesToEnvironment(line, roundLimit, memo); memo = nullptr)
    line.apply(chooseOutcome(line), 0);
}

// The outcomes the objective's filter keeps (Objective::allowedOutcomes over the settled
// continuations; every outcome when the objective filters none).
std::vector<bool> allowedOutcomes(const State& state, const MetricsTracker& trace,
                                  std::span<const Outcome> outcomes, const Objective& objective);

}  // namespace ddalab
