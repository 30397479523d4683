#include "players/search/tie_breaking.h"

#include <algorithm>
#include <cmath>

namespace ddalab {

namespace {

// Whether `value` ties with the maximum `top` of bestIndices (NaN only when every value is).
bool tiesWithTop(double value, double top) {
  if (std::isnan(top)) return true;
  if (std::isinf(top)) return value == top;                    // inf - inf would be NaN
  return top - value <= 1e-12 * std::max(1.0, std::abs(top));  // false for a NaN value
}

// The maximum bestIndices ties the values with (NaN only when every value is).
double topOf(std::span<const double> values) {
  double top = NAN;
  for (double v : values)
    if (scoreAbove(v, top)) top = v;
  return top;
}

}  // namespace

std::vector<size_t> bestIndices(std::span<const double> values) {
  const double top = topOf(values);
  std::vector<size_t> best;
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top)) best.push_back(i);
  return best;
}

size_t randomBestIndex(std::span<const double> values, Rng& rng) {
  const double top = topOf(values);
  uint32_t ties = 0;
  for (const double v : values) ties += tiesWithTop(v, top) ? 1 : 0;
  uint32_t skip = rng.below(ties);
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top) && skip-- == 0) return i;
  return 0;
}

size_t firstBestIndex(std::span<const double> values) {
  const double top = topOf(values);
  for (size_t i = 0; i < values.size(); ++i)
    if (tiesWithTop(values[i], top)) return i;
  return 0;
}

void bestFirst(std::span<const double> scores, size_t limit, std::vector<size_t>& order) {
  const size_t keep = limit > 0 ? std::min(limit, scores.size()) : scores.size();
  order.clear();
  // Insertion into the `keep` best so far, after those it does not rank above: what a stable sort
  // then truncation gives (scoreAbove is a strict weak order), in O(n keep) with no buffer.
  for (size_t i = 0; i < scores.size(); ++i) {
    size_t j = order.size();
    while (j > 0 && scoreAbove(scores[i], scores[order[j - 1]])) --j;
    if (j >= keep) continue;
    if (order.size() < keep) order.push_back(i);
    for (size_t m = order.size() - 1; m > j; --m) order[m] = order[m - 1];
    order[j] = i;
  }
}

std::vector<size_t> bestFirst(std::span<const double> scores, size_t limit) {
  std::vector<size_t> order;
  bestFirst(scores, limit, order);
  return order;
}

}  // namespace ddalab
