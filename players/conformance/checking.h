#pragma once
// What every conformance check shares: an expectation that fails in words, Catch2's Approx, the
// bound every playout and match keeps, and the Recorder that tallies each run of a check into the
// report with the first failure's words.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "players/conformance/report.h"

namespace ddalab::conformance {

// A playout and a match must end within this many actions.
inline constexpr int kMaxActions = 10000;

// A failed expectation: what was expected, in words.
struct Failed {
  std::string what;
};

// Throws Failed{what}: the check that runs it fails with "expected <what>".
[[noreturn]] inline void fail(std::string what) {
  throw Failed{std::move(what)};
}

// fail(what) unless `condition`.
inline void expect(bool condition, const char* what) {
  if (!condition) fail(what);
}

// Catch2's Approx, which the checks used before they moved here: within `margin`, or within
// 100 float epsilons of the expected value.
inline bool approx(double actual, double expected, double margin = 0.0) {
  const double difference = std::abs(actual - expected);
  return difference <= margin ||
         difference <= std::numeric_limits<float>::epsilon() * 100 *
                           (std::isinf(expected) ? 0.0 : std::abs(expected));
}

// The checks' tallies, and where the playouts are (for the first failure's words).
class Recorder {
 public:
  explicit Recorder(ConformanceReport& report) : report_(report) {}

  // Runs `body` as one run of `check`; records a failure (or anything thrown) with `where`.
  // Returns whether it passed.
  bool run(Check check, const std::function<std::string()>& where,
           const std::function<void()>& body);

 private:
  ConformanceReport& report_;
};

}  // namespace ddalab::conformance
