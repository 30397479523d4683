#include "players/search/greedy.h"

#include <array>
#include <cmath>

namespace ddalab {

double valueAfter(const State& state, Action action, int player, ScratchState& scratch) {
  if (const std::optional<double> value = state.valueAfter(action, player)) return *value;
  State& next = scratch.copyOf(state);
  next.apply(action);
  return next.value(player);
}

void scoreByValue(const State& state, std::span<const Action> legal, std::span<double> scores,
                  ScratchState* scratch) {
  const int actor = state.actor();
  if (state.valueAfterEach(legal, actor, scores)) return;
  ScratchState local;
  ScratchState& into = scratch ? *scratch : local;
  for (size_t i = 0; i < legal.size(); ++i) scores[i] = valueAfter(state, legal[i], actor, into);
}

double ReplyMemo::valueAfter(const State& state, Action action, int player, ScratchState& scratch) {
  if (state.outcomeMatters(action)) return ddalab::valueAfter(state, action, player, scratch);
  const uint64_t key =
      (static_cast<uint64_t>(static_cast<uint32_t>(action)) << 8) | static_cast<uint8_t>(player);
  const auto [it, added] = values_.try_emplace(key, 0.0);
  if (added) it->second = ddalab::valueAfter(state, action, player, scratch);
  return it->second;
}

Action greedyAction(const State& state, std::span<const Action> legal, ScratchState* scratch,
                    ReplyMemo* memo) {
  if (legal.size() == 1) return legal[0];
  const int actor = state.actor();
  Action best = legal[0];
  double bestValue = -INFINITY;
  const auto consider = [&](Action a, double v) {
    if (v > bestValue) {
      bestValue = v;
      best = a;
    }
  };
  // All at once where the game can (the values are the same; a memo only saves asking twice).
  std::array<double, 128> values;
  if (legal.size() <= values.size() &&
      state.valueAfterEach(legal, actor, std::span(values.data(), legal.size()))) {
    for (size_t i = 0; i < legal.size(); ++i) consider(legal[i], values[i]);
    return best;
  }
  ScratchState local;
  ScratchState& into = scratch ? *scratch : local;
  for (Action a : legal)
    consider(a, memo ? memo->valueAfter(state, a, actor, into) : valueAfter(state, a, actor, into));
  return best;
}

}  // namespace ddalab
