#pragma once
// Histograms of per-game metric values (the GUI's histogram window, thesis figure 22). Several
// experiments share one set of bins so that their histograms can be overlaid.
#include <span>
#include <vector>

namespace ddalab {

struct Histogram {
  double low = 0, high = 1;    // the range of the bins: [low, high], every bin of equal width
  std::vector<size_t> counts;  // games per bin; the last bin includes `high`
  size_t total() const;        // games counted (every finite value given)
  double width() const { return (high - low) / static_cast<double>(counts.size()); }
  double binLow(size_t bin) const { return low + width() * static_cast<double>(bin); }
};

// The smallest and largest finite value among all `samples` (0 and 1 when there is none; a
// single value v gives v - 0.5 .. v + 0.5, so that it has a bin of its own).
std::pair<double, double> commonRange(std::span<const std::span<const double>> samples);

// Counts `values` into `bins` equal bins over [low, high] (values outside are clamped to the
// first or last bin; non-finite values are skipped).
Histogram makeHistogram(std::span<const double> values, size_t bins, double low, double high);

}  // namespace ddalab
