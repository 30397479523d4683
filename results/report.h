#pragma once
// Terminal tables after a batch: thesis-style metric tables (tables 5-7), per-player
// statistics and comparison scores (tables 8 and 9).
#include <iosfwd>
#include <span>
#include <vector>

#include "results/aggregate.h"
#include "results/scoring.h"
#include "results/significance.h"

namespace ddalab {

// Per experiment: every metric's mean (± CI half-width), win_ratio, and the per-player table.
void printSummaryTables(std::ostream& out, std::span<const ExperimentSummary> summaries);

// Per comparison with two or more rows: the ratio-to-best table and the 9- and 4-metric scores;
// with two comparisons or more, tables 8 and 9 across them (algorithm x comparison, and the mean
// over the comparisons every algorithm takes part in). With `analyses`, significance marks, score
// intervals with rank probabilities, and detectability per comparison.
void printComparisonScores(std::ostream& out, const std::vector<ComparisonScores>& comparisons,
                           std::span<const ComparisonAnalysis> analyses = {});

}  // namespace ddalab
