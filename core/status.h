#pragma once
// Status of each player computed from the game's gains (metrics.md, "Status").
#include <span>

#include "core/state.h"

namespace ddalab {

// True when two gains count as equal for the lead (relative tolerance 1e-9).
bool gainsTied(double a, double b);

// Fills statuses[p] from gains[p] and returns the unique leader, or -1 when the lead is
// tied or there is a single player. n = 1: status = gain. Players marked in `out` (empty: none)
// cannot lead: the leader and the gains it is measured against are those of the others (of all
// players when nobody else is left), and an out player's status is min(0, gain - top).
int computeStatuses(std::span<const double> gains, std::span<double> statuses,
                    std::span<const bool> out = {});

// computeStatuses of `state`'s gains and out-of-game players; statuses has numPlayers() entries.
int statusesOf(const State& state, std::span<double> statuses);

}  // namespace ddalab
