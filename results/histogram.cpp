#include "results/histogram.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ddalab {

size_t Histogram::total() const {
  return std::accumulate(counts.begin(), counts.end(), size_t{0});
}

std::pair<double, double> commonRange(std::span<const std::span<const double>> samples) {
  double low = INFINITY, high = -INFINITY;
  for (std::span<const double> sample : samples)
    for (double v : sample)
      if (std::isfinite(v)) {
        low = std::min(low, v);
        high = std::max(high, v);
      }
  if (low > high) return {0.0, 1.0};
  if (low == high) return {low - 0.5, high + 0.5};
  return {low, high};
}

Histogram makeHistogram(std::span<const double> values, size_t bins, double low, double high) {
  Histogram h;
  h.low = low;
  h.high = high > low ? high : low + 1;
  h.counts.assign(std::max<size_t>(1, bins), 0);
  const double scale = static_cast<double>(h.counts.size()) / (h.high - h.low);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    const double position = std::floor((v - h.low) * scale);
    const double last = static_cast<double>(h.counts.size() - 1);
    ++h.counts[static_cast<size_t>(std::clamp(position, 0.0, last))];
  }
  return h;
}

}  // namespace ddalab
