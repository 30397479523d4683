#pragma once
// belPC: how far a frequency array is from the most even one (metrics.md).
#include <span>

namespace ddalab {

// max(0, (var(counts) - var(most even counts with the same total)) - threshold),
// variances over the bins (population).
double belPC(std::span<const int> counts, double threshold);

}  // namespace ddalab
