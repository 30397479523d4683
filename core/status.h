#pragma once
// Status of each player computed from the game's gains (metrics.md, "Status").
#include <algorithm>
#include <cmath>
#include <span>

#include "core/state.h"

namespace ddalab {

// True when two gains count as equal for the lead (relative tolerance 1e-9).
inline bool gainsTied(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

// computeStatuses when every player contends for the lead (nobody is out, or everybody is), n >= 2:
// the first of the highest gains leads by its distance to the second; the others' statuses are
// their distance to it; a lead tied within gainsTied is nobody's.
inline int statusesAllContending(std::span<const double> gains, std::span<double> statuses) {
  const size_t n = gains.size();
  size_t best = 0;
  for (size_t p = 1; p < n; ++p)
    if (gains[p] > gains[best]) best = p;
  const double top = gains[best];
  bool tie = false;
  double second = -INFINITY;
  for (size_t p = 0; p < n; ++p) {
    if (p == best) continue;
    second = std::max(second, gains[p]);
    const bool tied = gainsTied(gains[p], top);
    tie = tie || tied;
    statuses[p] = tied ? 0.0 : gains[p] - top;
  }
  statuses[best] = tie ? 0.0 : top - second;
  return tie ? -1 : static_cast<int>(best);
}

// computeStatuses of a game of two or more players some of whom are out.
int computeStatusesWithOut(std::span<const double> gains, std::span<double> statuses,
                           std::span<const bool> out);

// Fills statuses[p] from gains[p] and returns the unique leader, or -1 when the lead is
// tied or there is a single player. n = 1: status = gain. Players marked in `out` (empty: none)
// cannot lead: the leader and the gains it is measured against are those of the others (of all
// players when nobody else is left), and an out player's status is min(0, gain - top).
inline int computeStatuses(std::span<const double> gains, std::span<double> statuses,
                           std::span<const bool> out = {}) {
  if (gains.size() == 1) {
    statuses[0] = gains[0];
    return -1;
  }
  if (out.empty()) return statusesAllContending(gains, statuses);
  return computeStatusesWithOut(gains, statuses, out);
}

// computeStatuses of `state`'s gains and out-of-game players; statuses has numPlayers() entries.
int statusesOf(const State& state, std::span<double> statuses);

}  // namespace ddalab
