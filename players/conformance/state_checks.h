#pragma once
// The state checks: random playouts of a game with every invariant of core/state.h checked along
// the way (the nodes, copies, observations and shortcuts checks): what a state promises the match
// loop and the searches, held against the long way.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/state.h"
#include "players/conformance/checking.h"

namespace ddalab::conformance {

// What a playout did: its moves and the final state's text (a replay must do the same).
struct Playout {
  std::vector<Action> actions;
  std::string finalText;
};

// One random playout of `game` from `seed` with every invariant checked along the way, each run
// tallied by `recorder` at `where`, the seed and the move; nothing when a check failed (the
// playout stops there).
std::optional<Playout> randomPlayout(const Game& game, uint64_t seed, Recorder& recorder,
                                     const std::string& where);

}  // namespace ddalab::conformance
