#pragma once
// belPC: how far a frequency array is from the most even one (metrics.md).
#include <algorithm>
#include <span>

namespace ddalab {

// max(0, (var(counts) - var(most even counts with the same total)) - threshold),
// variances over the bins (population).
double belPC(std::span<const int> counts, double threshold);

// belPC of k counts from their sum and their sum of squares (games that keep both as the counts
// grow ask for it in constant time; inline: the searches ask at every line's end).
inline double belPCOfSums(long long k, long long total, long long squares, double threshold) {
  if (k == 0) return 0.0;
  // Population variance = (sum c^2)/k - (total/k)^2; the mean is the same for both arrays.
  const long long low = total / k, high = low + 1, highBins = total % k;
  const long long evenSquares = (k - highBins) * low * low + highBins * high * high;
  const double excess = static_cast<double>(squares - evenSquares) / static_cast<double>(k);
  return std::max(0.0, excess - threshold);
}

}  // namespace ddalab
