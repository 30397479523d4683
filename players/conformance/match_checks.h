#pragma once
// The match checks: games played through the match loop (core/match.h) by "random" players and
// "e-random", deterministic for a seed, their traces complete and every metric scored again from
// them by the trace oracle.
#include <cstdint>

#include "core/match.h"
#include "core/params.h"
#include "core/state.h"

namespace ddalab {

// One game of `game` between "random" players and "e-random" (their default parameters), with
// its trace when `trace` is given, cut off after `maxActions` actions.
GameRecord playRandomGame(const Game& game, uint64_t seed, Json* trace = nullptr,
                          uint64_t maxActions = kMatchActionLimit);

namespace conformance {

// playGame from `seed`: the same record and trace twice, the trace complete and scored again;
// the match loop ends the game within the playouts' bound. Throws Failed (or the match loop's
// GameContractError) on the first broken promise.
void checkMatch(const Game& game, uint64_t seed);

// Two seeds (`seed`, `seed` + 1) play two different games; throws Failed when they do not.
void checkSeedsDiffer(const Game& game, uint64_t seed);

}  // namespace conformance

}  // namespace ddalab
