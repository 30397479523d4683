#include "core/status.h"

#include <algorithm>
#include <cmath>

namespace ddalab {

bool gainsTied(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

int computeStatuses(std::span<const double> gains, std::span<double> statuses) {
  const size_t n = gains.size();
  if (n == 1) {
    statuses[0] = gains[0];
    return -1;
  }
  size_t best = 0;
  for (size_t p = 1; p < n; ++p)
    if (gains[p] > gains[best]) best = p;
  const double top = gains[best];
  bool tie = false;
  double second = -INFINITY;
  for (size_t p = 0; p < n; ++p) {
    if (p == best) continue;
    if (gainsTied(gains[p], top)) tie = true;
    second = std::max(second, gains[p]);
  }
  for (size_t p = 0; p < n; ++p) {
    if (tie && gainsTied(gains[p], top))
      statuses[p] = 0.0;
    else
      statuses[p] = (p == best) ? top - second : gains[p] - top;
  }
  return tie ? -1 : static_cast<int>(best);
}

}  // namespace ddalab
