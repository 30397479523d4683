#pragma once
// The value-greedy policy every search shares: scoring actions by the game's value of the state
// they lead to (one ply), and the action with the best such value.
#include <cstdint>
#include <span>
#include <unordered_map>

#include "core/state.h"
#include "core/state_copy.h"

namespace ddalab {

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

}  // namespace ddalab
