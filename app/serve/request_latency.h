#pragma once
// How long `ddalab serve` took to handle its requests, per endpoint (docs/web-api.md, "Latency"):
// count, mean and maximum exactly, the median and the 95th percentile from a log-scale histogram
// (memory bounded whatever the number of requests). Measured by the server itself, so the numbers
// do not depend on the clients' CPU.
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.h"

namespace ddalab::serve {

// Durations of one kind of request. A percentile is the upper edge of the histogram bucket that
// holds the nearest-rank sample: at least the true value, at most 2^(1/32) (2.2 %) above it.
class LatencyHistogram {
 public:
  static constexpr int kBucketsPerDoubling = 32;
  static constexpr int kBuckets = 1 + 32 * kBucketsPerDoubling;  // up to 2^32 µs (71 minutes)

  void add(std::chrono::nanoseconds duration);
  uint64_t count() const { return count_; }
  double meanMs() const;
  double maxMs() const { return static_cast<double>(maxNs_) / 1e6; }
  // The q-quantile (0 < q <= 1) in milliseconds; 0 when nothing was added.
  double quantileMs(double q) const;

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  long double sumNs_ = 0;
  int64_t maxNs_ = 0;
};

// The histograms of a fixed set of endpoints, shared by the request threads. A name outside the
// set is counted as "other" (a request's path never makes a new entry).
class LatencyTable {
 public:
  explicit LatencyTable(const std::vector<std::string>& endpoints);
  void record(std::string_view endpoint, std::chrono::nanoseconds duration);
  // {endpoint: {"count", "mean_ms", "p50_ms", "p95_ms", "max_ms"}} for every endpoint seen.
  Json summary() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, LatencyHistogram, std::less<>> histograms_;
};

}  // namespace ddalab::serve
