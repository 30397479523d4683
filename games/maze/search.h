#pragma once
// Work space of the maze's breadth-first searches, one per thread, so that searching allocates
// nothing once warm and the states stay small value types.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ddalab::maze {

struct SearchScratch {
  std::vector<uint32_t> stamp;  // tile visited in pass `stamp[i]`
  std::vector<int> queue;
  uint32_t pass = 0;

  // Starts a group of passes; every pass of the group is >= the returned id (stamps of earlier
  // groups are all smaller). A group may use up to a million passes.
  uint32_t beginCall() {
    if (pass > UINT32_MAX - (1u << 20)) {
      std::fill(stamp.begin(), stamp.end(), 0u);
      pass = 0;
    }
    return pass + 1;
  }
  // A fresh pass id: no tile carries it yet.
  uint32_t beginPass() { return ++pass; }
};

// This thread's work space, sized for at least `tiles` tiles.
inline SearchScratch& searchScratch(size_t tiles) {
  thread_local SearchScratch scratch;
  if (scratch.stamp.size() < tiles) {
    scratch.stamp.resize(tiles, 0u);
    scratch.queue.resize(tiles);
  }
  return scratch;
}

}  // namespace ddalab::maze
