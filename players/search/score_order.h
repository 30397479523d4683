#pragma once
// The order in which players choose the best of some scores. A score can be NaN when a fun
// score overflows (inf - inf) or a game misbehaves; NaN ranks below every number, so sorting
// stays a strict weak order and some best choice always exists. On numbers it is plain `>`, so
// choices among ordinary scores are exactly what they were.
#include <cmath>
#include <span>

namespace ddalab {

// Whether score a ranks strictly above score b; NaN ranks below every number and ties with NaN.
inline bool scoreAbove(double a, double b) {
  if (std::isnan(a)) return false;
  return std::isnan(b) || a > b;
}

// Whether score a ranks strictly below score b (the same order reversed).
inline bool scoreBelow(double a, double b) {
  return scoreAbove(b, a);
}

// The index in `order` (never empty) of the best score, ties to the first in `order`: what a
// search keeps when it takes a child only if it ranks strictly above the best so far.
inline size_t firstBestOf(std::span<const double> scores, std::span<const size_t> order) {
  size_t best = order.front();
  for (const size_t i : order)
    if (scoreAbove(scores[i], scores[best])) best = i;
  return best;
}

}  // namespace ddalab
