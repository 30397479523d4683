#include "core/believability.h"

#include <algorithm>

namespace ddalab {

double belPC(std::span<const int> counts, double threshold) {
  long long total = 0, squares = 0;
  for (int c : counts) {
    total += c;
    squares += static_cast<long long>(c) * c;
  }
  return belPCOfSums(static_cast<long long>(counts.size()), total, squares, threshold);
}

double belPCOfSums(long long k, long long total, long long squares, double threshold) {
  if (k == 0) return 0.0;
  // Population variance = (sum c^2)/k - (total/k)^2; the mean is the same for both arrays.
  const long long low = total / k, high = low + 1, highBins = total % k;
  const long long evenSquares = (k - highBins) * low * low + highBins * high * high;
  const double excess = static_cast<double>(squares - evenSquares) / static_cast<double>(k);
  return std::max(0.0, excess - threshold);
}

}  // namespace ddalab
