#pragma once
// Terminal tables of a tournament's or balance run's folder (experiments/rating_results.h), in the
// style of results/report.h.
#include <iosfwd>

#include "experiments/rating_results.h"

namespace ddalab {

// The ratings with their intervals (highest first), the first-seat advantage, the pairwise
// comparisons, each level curve (a step whose interval holds 0 marked "flat", a fall "falls"),
// and each balance condition's summary and curve. Prints nothing for a folder without tables.
void printRatingTables(std::ostream& out, const RatingTablesRead& tables);

}  // namespace ddalab
