#pragma once
// Simulation and evaluation shared by the players: scoring actions by the game's value,
// the value-greedy policy, and the fun score of a hypothetical continuation.
#include <array>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/match.h"
#include "core/metrics.h"
#include "core/objective.h"
#include "core/state.h"
#include "core/state_copy.h"
#include "players/score_order.h"

namespace ddalab {

class OpponentModel;

// value(player) of the state `action` of `state`'s actor leads to: the game's valueAfter, or a copy
// into `scratch` with the action applied.
double valueAfter(const State& state, Action action, int player, ScratchState& scratch);

// The one-ply values of the replies after the outcomes of one environment node that do not depend
// on the outcome (State::outcomeMatters false): worked out after the first outcome tried, reused
// after the others. Cleared whenever the searches move to another environment node.
class ReplyMemo {
 public:
  void clear() { values_.clear(); }
  // valueAfter, from the memo where the outcome does not matter.
  double valueAfter(const State& state, Action action, int player, ScratchState& scratch);

 private:
  std::unordered_map<uint64_t, double> values_;  // by action and player
};

// scores[i] = value for the actor of the state reached by legal[i] (one ply); `scratch` (null: a
// local one) is where positions are copied.
void scoreByValue(const State& state, std::span<const Action> legal, std::span<double> scores,
                  ScratchState* scratch = nullptr);

// The legal action with the best one-ply value for the actor; ties go to the first in order. A NaN
// value is never the best; when every value is NaN the first action is taken.
Action greedyAction(const State& state, std::span<const Action> legal,
                    ScratchState* scratch = nullptr, ReplyMemo* memo = nullptr);

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

// Fills `decision` for the choice of `chosen` among `outcomes` at `state`: every outcome appraised
// as e-hillclimber sees it (the settled continuation's metrics, the objective's value and terms,
// whether the objective's filter kept it), with the values the player's search compared where
// `searchValues` has one per outcome (NaN: none, the outcome was filtered out).
void describeDecision(const State& state, const MetricsTracker& trace,
                      std::span<const Outcome> outcomes, const Coefficients& coefficients,
                      Action chosen, bool natural, std::span<const double> searchValues,
                      EnvironmentDecision& decision, const Objective& objective = weightedSum());

// The outcomes the objective's filter keeps (Objective::allowedOutcomes over the settled
// continuations; every outcome when the objective filters none).
std::vector<bool> allowedOutcomes(const State& state, const MetricsTracker& trace,
                                  std::span<const Outcome> outcomes, const Objective& objective);

// At a node whose children are leaves, the index of the action a search keeps when it takes a
// child only if the actor's value after it ranks strictly above the best so far (firstBestOf over
// `order`), found without playing the children: by `known`, the actor's values after each action
// when the search already has them (its width ranking's), else by State::valueAfterEach into
// `values`; nullopt when the game cannot tell them without copies.
inline std::optional<size_t> bestLeafChild(const State& state, std::span<const Action> actions,
                                           std::span<const size_t> order,
                                           std::span<const double> known,
                                           std::vector<double>& values) {
  if (!known.empty()) return firstBestOf(known, order);
  values.resize(actions.size());
  if (!state.valueAfterEach(actions, state.actor(), values)) return std::nullopt;
  return firstBestOf(values, order);
}

// order = 0, 1, ..., n - 1: every child, in the game's order (its capacity reused).
inline void inGameOrder(size_t n, std::vector<size_t>& order) {
  order.resize(n);
  std::iota(order.begin(), order.end(), size_t{0});
}

// Indices of the `limit` highest scores, best first, ties in index order (limit 0 = all); NaN
// scores come last (score_order.h).
std::vector<size_t> bestFirst(std::span<const double> scores, size_t limit);
// bestFirst into `order` (its capacity reused).
void bestFirst(std::span<const double> scores, size_t limit, std::vector<size_t>& order);

// Indices of the maximal entries (within a relative tolerance of 1e-12; an infinite maximum ties
// only with itself), never empty for non-empty `values`: NaN counts as the worst value, so it is
// best only when every value is NaN, and then all of them tie. The players choose with the
// list-free firstBestIndex and randomBestIndex below; this list defines them (the tests check them
// against it).
std::vector<size_t> bestIndices(std::span<const double> values);
// bestIndices(values).front() without the list (0 for no values): the searches ask it at every
// simulated environment node.
size_t firstBestIndex(std::span<const double> values);
// bestIndices(values)[rng.below(count)] without the list: one of the maximal entries, uniformly,
// with the same one draw from `rng` (non-empty `values`); the players' choice among ties.
size_t randomBestIndex(std::span<const double> values, Rng& rng);

}  // namespace ddalab
