#pragma once
// Every player ddalab knows, regular and environment.
#include <span>

#include "core/registry.h"

namespace ddalab {

// The players of the catalog in display order, the built-ins registered on the first call.
std::span<const PlayerInfo> playerRegistry();

// Whether `info` with its default parameters can take `role` in `game` (a check that throws,
// as a plug-in's might, counts as no).
bool canPlay(const PlayerInfo& info, const Game& game, PlayerKind role);

// The AI a seat of `game` gets when nobody chose one: the first player of the catalog offered as
// a default AI (PlayerInfo::defaultAi) that can play the game with its default parameters;
// random when none can.
const PlayerInfo& defaultAi(const Game& game);

}  // namespace ddalab
