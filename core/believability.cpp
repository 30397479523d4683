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

}  // namespace ddalab
