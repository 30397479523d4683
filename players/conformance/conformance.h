#pragma once
// The game authors' kit: the conformance checks every game must pass (like OpenSpiel's
// RandomSimTest), what `ddalab check-game` runs on any game of the catalog, a plug-in's included,
// and what the Catch2 test of the built-in games (tests/players/conformance/test_conformance.cpp) runs on each. Three
// parts: the state checks (random playouts with every invariant of core/state.h checked along the
// way, state_checks.h), the match checks (games through the match loop, match_checks.h) and the
// trace oracle (every metric scored again from a trace, trace_oracle.h). It lives in players/
// because the match checks play the registered "random" and "e-random" players; it checks games.
#include <cstdint>

#include "core/registry.h"
#include "players/conformance/report.h"

namespace ddalab {

struct ConformanceOptions {
  int games = 24;     // random playouts per configuration (each played twice)
  uint64_t seed = 1;  // the first playout's seed; the others follow it
};

// Runs every check on `info`'s default configuration and each other allowed player count (a
// "players" parameter). A game that throws, or builds no game, fails the check that asked it.
ConformanceReport checkGame(const GameInfo& info, const ConformanceOptions& options = {});

}  // namespace ddalab
