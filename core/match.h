#pragma once
// The match loop: players and an environment player play one game to its end.
#include <array>
#include <cstdint>
#include <span>

#include "core/metrics.h"
#include "core/params.h"
#include "core/player.h"

namespace ddalab {

// Everything kept of one finished game (small: a million of them fit in memory).
struct GameRecord {
  uint64_t iteration = 0;
  uint64_t seed = 0;
  int numPlayers = 0;
  int winner = -1;  // -1: draw
  bool capped = false;
  MetricValues metrics{};
  std::array<double, kMaxPlayers> scores{};  // final gains
  std::array<PlayerCounters, kMaxPlayers> counters{};
};

// Plays the game dealt from `seed` to its end; `players[p]` decides for regular player p.
// With `trace` non-null, fills it with the per-round trace of docs/trace-format.md.
GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace = nullptr);

}  // namespace ddalab
