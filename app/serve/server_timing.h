#pragma once
// ddalab serve's own latency bookkeeping around cpp-httplib (docs/web-api.md, "Latency"): the
// time each request took to handle, per endpoint, and the time each connection waited for one of
// the request threads.
#include <httplib.h>

#include <chrono>
#include <string>
#include <vector>

#include "app/serve/request_latency.h"
#include "app/serve/study_api.h"

namespace ddalab::serve {

// The latency table's name for the time a connection waited for a request thread.
inline constexpr const char* kConnectionWait = "connection wait for a thread";
// The latency table's name for the compiled-in pages, after the method ("GET page").
inline constexpr const char* kPageName = "page";

// The names timed: every endpoint (kEndpoints), the pages and the connections' wait; any other
// request counts as "other".
inline std::vector<std::string> timedNames() {
  std::vector<std::string> names;
  for (const Endpoint& endpoint : kEndpoints) names.push_back(endpoint.name());
  names.push_back(std::string("GET ") + kPageName);
  names.push_back(kConnectionWait);
  return names;
}

// httplib's thread pool, noting how long each connection waited in its queue for a thread.
class TimedThreadPool : public httplib::TaskQueue {
 public:
  TimedThreadPool(size_t threads, LatencyTable& table) : pool_(threads), table_(table) {}
  void enqueue(std::function<void()> fn) override {
    pool_.enqueue([this, fn = std::move(fn), queued = std::chrono::steady_clock::now()] {
      table_.record(kConnectionWait, std::chrono::steady_clock::now() - queued);
      fn();
    });
  }
  void shutdown() override { pool_.shutdown(); }

 private:
  httplib::ThreadPool pool_;
  LatencyTable& table_;
};

// One line per endpoint for the log: count, p50, p95 and max in milliseconds.
inline std::vector<std::string> latencyLines(const Json& summary) {
  std::vector<std::string> lines;
  char line[200];
  for (const auto& [name, s] : summary.items()) {
    std::snprintf(line, sizeof line, "latency %s: n=%llu p50 %.1f ms p95 %.1f ms max %.1f ms",
                  name.c_str(), static_cast<unsigned long long>(s["count"].get<uint64_t>()),
                  s["p50_ms"].get<double>(), s["p95_ms"].get<double>(), s["max_ms"].get<double>());
    lines.push_back(line);
  }
  return lines;
}

}  // namespace ddalab::serve
