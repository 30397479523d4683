#include "players/conformance/report.h"

#include <algorithm>
#include <array>

namespace ddalab {

namespace {

constexpr std::array<std::array<const char*, 2>, conformance::kChecks> kCheckText = {{
    {"builds", "every configuration builds a game with 1..kMaxPlayers seats, statusScale > 0"},
    {"nodes",
     "actors, legal actions, outcomes (probabilities > 0 summing to 1), finite gains, "
     "rounds, action strings, the end within 10000 actions"},
    {"replay", "the same seed deals the same game and plays the same moves to the same end"},
    {"copies",
     "a clone is the state and independent of it, destroying it leaves the original, "
     "determinize keeps what the actor sees"},
    {"observations", "what each seat sees; without hidden information, everything"},
    {"shortcuts",
     "assign, gains(), playersCanDropOut, prepareCopies, valueAfter, "
     "valueAfterEach, valuesAfter and outcomeMatters agree with the long way"},
    {"match",
     "playGame accepts what the game returns, ends within 10000 actions, is deterministic, its "
     "trace is complete and every metric is scored again from it; other seeds play other games"},
}};

}  // namespace

bool ConformanceReport::passed() const {
  return std::all_of(checks.begin(), checks.end(),
                     [](const ConformanceCheck& c) { return c.passed(); });
}

std::vector<ConformanceCheck> conformanceChecks() {
  std::vector<ConformanceCheck> checks;
  for (const auto& [name, summary] : kCheckText) {
    ConformanceCheck& check = checks.emplace_back();
    check.name = name;
    check.summary = summary;
  }
  return checks;
}

}  // namespace ddalab
