#pragma once
// The estimates a win-rate objective steers by (docs/objectives.md). An experiment's games are
// played in blocks of B iterations; every game of block b steers by the seat's win rate over the
// experiment's games of blocks 0..b-1 (block 0 by none). No game depends on a game of its own
// block, so the games are the same for any thread count and after a resume.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/objective.h"

namespace ddalab {

class WinRateBlocks {
 public:
  // The blocks of an experiment of `iterations` games pursuing `objective` (inactive unless it
  // is a win-rate objective).
  WinRateBlocks(const Objective& objective, size_t iterations);

  bool active() const { return block_ > 0; }
  // Counts the finished game of `iteration` won by `winner` (-1: a draw). Games must come in
  // iteration order from iteration 0; any other is ignored (a stop's gap; a resume replays it).
  // Not thread-safe: one thread adds, and publishes the count before games read estimateFor.
  void add(uint64_t iteration, int winner);
  // Games counted so far (the next iteration expected).
  size_t counted() const { return counted_; }
  // The first iteration of the block of `iteration` (0 when inactive).
  size_t blockStart(size_t iteration) const;
  // The estimate the game of `iteration` steers by: none in the first block (or when inactive);
  // only valid once every game before its block's start was added.
  std::optional<double> estimateFor(size_t iteration) const;

 private:
  int seat_ = 0;
  size_t block_ = 0;  // 0: inactive
  size_t counted_ = 0;
  size_t wins_ = 0;
  std::vector<double> estimates_;  // per block, written once when its start is reached
};

}  // namespace ddalab
