#pragma once
// How the players choose among scores, ties included: the maximal entries (the first of them, or
// one at random), the k best in order, and the child a search keeps when its children are leaves.
// The order of the scores themselves (NaN below every number) is score_order.h's.
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "core/rng.h"
#include "core/state.h"
#include "players/search/score_order.h"

namespace ddalab {

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
