#pragma once
// The conformance checks every game must pass (like OpenSpiel's RandomSimTest): random playouts
// with every invariant of core/state.h checked along the way, and games played through the match
// loop whose traces are scored again. One implementation for the Catch2 test of the built-in
// games (tests/experiments/test_conformance.cpp) and for `ddalab check-game`, which runs them on any game of
// the catalog, a plug-in's included.
#include <cstdint>
#include <string>
#include <vector>

#include "core/match.h"
#include "core/registry.h"

namespace ddalab {

struct ConformanceOptions {
  int games = 24;     // random playouts per configuration (each played twice)
  uint64_t seed = 1;  // the first playout's seed; the others follow it
};

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
  bool passed() const;
};

// The checks, in report order, with nothing run yet.
std::vector<ConformanceCheck> conformanceChecks();

// Runs every check on `info`'s default configuration and each other allowed player count (a
// "players" parameter). A game that throws, or builds no game, fails the check that asked it.
ConformanceReport checkGame(const GameInfo& info, const ConformanceOptions& options = {});

// One game of `game` between "random" players and "e-random" (their default parameters), with
// its trace when `trace` is given, cut off after `maxActions` actions.
GameRecord playRandomGame(const Game& game, uint64_t seed, Json* trace = nullptr,
                          uint64_t maxActions = kMatchActionLimit);

// Every metric scored again from a trace alone (the legal counts, the environment rounds, the
// gains and, with `useOut` where the trace has them, who was out).
MetricValues metricsFromTrace(const Json& trace, double believability, bool useOut);

}  // namespace ddalab
