// The server's own latency bookkeeping (app/serve/request_latency.h): percentiles from its
// histogram against the exact nearest-rank percentiles of the same samples.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <thread>

#include "app/serve/request_latency.h"

using namespace ddalab;
using namespace ddalab::serve;
using std::chrono::nanoseconds;

namespace {

double exactQuantileMs(std::vector<int64_t> ns, double q) {
  std::sort(ns.begin(), ns.end());
  const auto rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(q * ns.size())));
  return static_cast<double>(ns[rank - 1]) / 1e6;
}

}  // namespace

TEST_CASE("latency histogram percentiles bound the exact ones within one bucket", "[latency]") {
  std::mt19937_64 rng(39);
  for (const double sigma : {0.3, 1.0, 2.5}) {
    std::lognormal_distribution<double> micros(std::log(3000.0), sigma);  // around 3 ms
    LatencyHistogram h;
    std::vector<int64_t> samples;
    long double sum = 0;
    for (int i = 0; i < 5001; ++i) {
      const auto ns = static_cast<int64_t>(micros(rng) * 1000);
      samples.push_back(ns);
      sum += ns;
      h.add(nanoseconds(ns));
    }
    CHECK(h.count() == samples.size());
    CHECK(h.maxMs() == Approx(*std::max_element(samples.begin(), samples.end()) / 1e6));
    CHECK(h.meanMs() == Approx(static_cast<double>(sum / samples.size()) / 1e6));
    const double step = std::exp2(1.0 / LatencyHistogram::kBucketsPerDoubling);
    for (const double q : {0.01, 0.5, 0.95, 0.99, 1.0}) {
      const double exact = exactQuantileMs(samples, q);
      INFO("sigma " << sigma << " q " << q << " exact " << exact << " ms");
      CHECK(h.quantileMs(q) >= exact);
      CHECK(h.quantileMs(q) <= exact * step);
    }
  }
}

TEST_CASE("latency histogram edge durations", "[latency]") {
  LatencyHistogram h;
  CHECK(h.quantileMs(0.95) == 0);
  CHECK(h.meanMs() == 0);
  h.add(nanoseconds(-5));  // a clock that went back counts as 0
  CHECK(h.maxMs() == 0);
  CHECK(h.quantileMs(1) == 0);
  h.add(std::chrono::hours(100));  // beyond the last bucket: kept there, reported as the maximum
  CHECK(h.maxMs() == Approx(100 * 3600e3));
  CHECK(h.quantileMs(1) == Approx(100 * 3600e3));
  CHECK(h.quantileMs(0.5) <= 0.001);  // the first bucket: under 1 µs
  h.add(nanoseconds(999));            // under 1 µs
  CHECK(h.quantileMs(0.5) <= 0.001);
}

TEST_CASE("latency table counts unknown endpoints as other and adds up across threads",
          "[latency]") {
  LatencyTable table({"GET /api/v1/session", "POST /api/v1/session/action"});
  CHECK(table.summary().empty());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&table, t] {
      for (int i = 0; i < 1000; ++i)
        table.record(t % 2 ? "GET /api/v1/session" : "GET /../../etc/passwd",
                     std::chrono::microseconds(100 + i));
    });
  for (std::thread& t : threads) t.join();
  const Json summary = table.summary();
  CHECK(summary.size() == 2);
  CHECK(summary["GET /api/v1/session"]["count"] == 2000);
  CHECK(summary["other"]["count"] == 2000);
  CHECK(!summary.contains("POST /api/v1/session/action"));  // nothing recorded: left out
  CHECK(summary["other"]["max_ms"].get<double>() == Approx(1.099));
  CHECK(summary["other"]["mean_ms"].get<double>() == Approx(0.5995).margin(0.001));
  const double p95 = summary["other"]["p95_ms"].get<double>();
  CHECK(p95 >= 1.049);
  CHECK(p95 <= 1.049 * std::exp2(1.0 / LatencyHistogram::kBucketsPerDoubling) + 0.001);
}
