#pragma once
// What a seat may know, as one JSON document: the "screen" a participant's front-end draws
// (docs/web-api.md). Built only from what the state lets the seat see (State::observationJson,
// the seat's own legal actions, gains only when public), so a server can send it as it is.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/params.h"
#include "core/state.h"

namespace ddalab {

// No screen of a built-in game at any size its parameters allow comes near this many bytes of
// compact JSON (with each legal move's description: a 101 x 101 maze with 32 marks measured
// 20.0 KB, a radius-6 HexaLines board with its hundreds of rotations 47 KB in random play);
// front-ends may refuse bigger.
inline constexpr size_t kMaxScreenBytes = 64 * 1024;

// How seat `seat` reads player `player`: "you" or "opponent <player>".
std::string seatLabel(int seat, int player);

// The screen of seat `seat` of `state` in game `gameId`: {"game", "seat", "observation",
// "round", "actor" ("you", "opponent k", "environment" or "over"), "legal" (only when the seat is
// on turn: [{"action", "label", "does"}] in the state's order, "does" the action's actionJson and
// left out when that is empty), "gains" (only when gainsPublic()), "winner" (only when over: a
// seatLabel or "none")}.
Json seatScreen(const State& state, int seat, std::string_view gameId);

}  // namespace ddalab
