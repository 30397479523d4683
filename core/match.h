#pragma once
// The match loop: players and an environment player play one game to its end.
#include <array>
#include <cstdint>
#include <span>

#include "core/metrics.h"
#include "core/params.h"
#include "core/player.h"
#include "core/stop.h"

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

// Folds every field of `record` into the hash `h` (FNV-1a over the bits): equal hashes of
// whole batches mean, for practical purposes, identical behaviour.
uint64_t fingerprint(const GameRecord& record, uint64_t h = 0xcbf29ce484222325ull);

// Applies `action` of the current actor to `state` and keeps `tracker` in step with it
// (decision or environment event, round end). `legalCount` is the number of legal actions at a
// regular decision (unused at environment nodes). Returns true when the action ended a round.
bool applyTracked(State& state, MetricsTracker& tracker, Action action, int legalCount);

// Plays the game dealt from `seed` to its end; `players[p]` decides for regular player p.
// With `trace` non-null, fills it with the per-round trace of docs/trace-format.md. Throws
// GameAbandoned when `stop` is requested before the game ends (checked before every action).
GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace = nullptr,
                    StopToken stop = {});

}  // namespace ddalab
