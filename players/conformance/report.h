#pragma once
// What the conformance checks report: each check's tally and first failure, in report order.
#include <cstddef>
#include <string>
#include <vector>

namespace ddalab {

// One check over every configuration and playout: how often it ran, how often it failed, and
// the first failure in words (configuration, parameters, seed, move and what was expected).
struct ConformanceCheck {
  std::string name;     // one word: "builds", "nodes", ...
  std::string summary;  // what it checks, in one line
  long runs = 0;
  long failures = 0;
  std::string firstFailure;
  bool passed() const { return runs > 0 && failures == 0; }
};

struct ConformanceReport {
  std::vector<std::string> configurations;  // "pig (defaults)", "ludo (players 2)", ...
  std::vector<ConformanceCheck> checks;     // in the order of conformanceChecks()
  // Whether every check ran and none failed.
  bool passed() const;
};

// The checks, in report order, with nothing run yet.
std::vector<ConformanceCheck> conformanceChecks();

namespace conformance {

// The checks' ids: the index of each in ConformanceReport::checks (conformanceChecks' order).
enum Check : size_t { Builds, Nodes, Replay, Copies, Observations, Shortcuts, Matches, kChecks };

}  // namespace conformance

}  // namespace ddalab
