#pragma once
// ddalab serve's own latency bookkeeping around cpp-httplib (docs/web-api.md, "Latency"): the
// time each request took to handle, per endpoint, and the time each connection waited for one of
// the request threads.
#include <httplib.h>

#include <chrono>
#include <string>
#include <vector>

#include "studies/request_latency.h"

namespace ddalab::cli {

// The endpoints timed by name; any other request counts as "other".
inline std::vector<std::string> servedEndpoints() {
  return {"POST /api/v1/sessions",        "GET /api/v1/session",
          "POST /api/v1/session/consent", "POST /api/v1/session/demographics",
          "POST /api/v1/session/read",    "POST /api/v1/session/action",
          "POST /api/v1/session/answers", "GET /api/v1/admin/progress",
          "GET /api/v1/admin/archive",    "GET page",
          "connection wait for a thread"};
}

// httplib's thread pool, noting how long each connection waited in its queue for a thread.
class TimedThreadPool : public httplib::TaskQueue {
 public:
  TimedThreadPool(size_t threads, LatencyTable& table) : pool_(threads), table_(table) {}
  void enqueue(std::function<void()> fn) override {
    pool_.enqueue([this, fn = std::move(fn), queued = std::chrono::steady_clock::now()] {
      table_.record("connection wait for a thread", std::chrono::steady_clock::now() - queued);
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

}  // namespace ddalab::cli
