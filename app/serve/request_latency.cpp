#include "app/serve/request_latency.h"

#include <algorithm>
#include <cmath>

namespace ddalab::serve {
namespace {

// Bucket 0 holds durations under 1 µs; bucket b >= 1 holds [2^((b-1)/k), 2^(b/k)) µs, the last
// one everything longer.
int bucketOf(double micros) {
  if (micros < 1) return 0;
  const int b =
      1 + static_cast<int>(std::floor(std::log2(micros) * LatencyHistogram::kBucketsPerDoubling));
  return std::min(b, LatencyHistogram::kBuckets - 1);
}

double upperEdgeMs(int bucket) {
  return std::exp2(static_cast<double>(bucket) / LatencyHistogram::kBucketsPerDoubling) / 1000;
}

double rounded(double ms) {
  return std::round(ms * 1000) / 1000;
}  // to the microsecond

}  // namespace

void LatencyHistogram::add(std::chrono::nanoseconds duration) {
  const int64_t ns = std::max<int64_t>(0, duration.count());
  ++buckets_[static_cast<size_t>(bucketOf(static_cast<double>(ns) / 1000))];
  ++count_;
  sumNs_ += ns;
  maxNs_ = std::max(maxNs_, ns);
}

double LatencyHistogram::meanMs() const {
  return count_ == 0 ? 0 : static_cast<double>(sumNs_ / count_) / 1e6;
}

double LatencyHistogram::quantileMs(double q) const {
  if (count_ == 0) return 0;
  // The nearest rank: the smallest sample with at least q of all samples at or below it.
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * count_)));
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += buckets_[static_cast<size_t>(b)];
    if (seen >= rank) return b == kBuckets - 1 ? maxMs() : std::min(upperEdgeMs(b), maxMs());
  }
  return maxMs();
}

LatencyTable::LatencyTable(const std::vector<std::string>& endpoints) {
  for (const std::string& name : endpoints) histograms_[name];
  histograms_["other"];
}

void LatencyTable::record(std::string_view endpoint, std::chrono::nanoseconds duration) {
  std::lock_guard lock(mutex_);
  auto it = histograms_.find(endpoint);
  if (it == histograms_.end()) it = histograms_.find(std::string_view("other"));
  it->second.add(duration);
}

Json LatencyTable::summary() const {
  std::lock_guard lock(mutex_);
  Json table = Json::object();
  for (const auto& [name, h] : histograms_)
    if (h.count() > 0)
      table[name] = {{"count", h.count()},
                     {"mean_ms", rounded(h.meanMs())},
                     {"p50_ms", rounded(h.quantileMs(0.5))},
                     {"p95_ms", rounded(h.quantileMs(0.95))},
                     {"max_ms", rounded(h.maxMs())}};
  return table;
}

}  // namespace ddalab::serve
