#pragma once
// Status of each player computed from the game's gains (metrics.md, "Status").
#include <span>

namespace ddalab {

// True when two gains count as equal for the lead (relative tolerance 1e-9).
bool gainsTied(double a, double b);

// Fills statuses[p] from gains[p] and returns the unique leader, or -1 when the lead is
// tied or there is a single player. n = 1: status = gain.
int computeStatuses(std::span<const double> gains, std::span<double> statuses);

}  // namespace ddalab
