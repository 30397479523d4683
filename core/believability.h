#pragma once
// belPC: how far a frequency array is from the most even one (metrics.md).
#include <span>

namespace ddalab {

// max(0, (var(counts) - var(most even counts with the same total)) - threshold),
// variances over the bins (population).
double belPC(std::span<const int> counts, double threshold);

// belPC of k counts from their sum and their sum of squares (games that keep both as the counts
// grow ask for it in constant time).
double belPCOfSums(long long k, long long total, long long squares, double threshold);

}  // namespace ddalab
