#pragma once
// Comparison scoring of DDA algorithms (metrics.md; thesis tables 8 and 9).
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/aggregate.h"

namespace ddalab {

// The metrics a score can use: the nine per-game ones of table 8 in the thesis order.
enum class ScoredMetric {
  LeadChanges,
  Tension,
  Lead,
  Fairness,
  Believability,
  Freedom,
  Randomness,
  LeadingTime,
  WinRatio
};
inline constexpr size_t kNumScoredMetrics = 9;

// The file key of a scored metric ("lead_changes", ..., "win_ratio").
std::string_view scoredMetricKey(ScoredMetric metric);

struct ScoreRow {
  std::string experiment;
  std::array<double, kNumScoredMetrics> means{};   // raw means (win_ratio: the experiment value)
  std::array<double, kNumScoredMetrics> ratios{};  // 1 = best of the comparison
  double score9 = 0;                               // all nine metrics (table 8)
  double score4 = 0;  // lead_changes, tension, lead, win_ratio (table 9)
};

struct ComparisonScores {
  std::string comparison;
  std::vector<ScoreRow> rows;
  std::vector<std::string> notes;  // e.g. where a zero mean needed the division guard
};

// Scores the rows of one comparison: names[i] is the experiment summarized by summaries[i].
ComparisonScores scoreComparison(const std::string& comparison,
                                 const std::vector<std::string>& names,
                                 const std::vector<ExperimentSummary>& summaries);

// Experiments sharing a non-empty comparison, in batch order; an experiment without a
// comparison forms a group of its own with an empty name.
struct ComparisonGroup {
  std::string comparison;
  std::vector<size_t> members;  // indices into the batch
};

// The comparison groups of a batch's experiments, in batch order.
std::vector<ComparisonGroup> groupByComparison(std::span<const ExperimentSummary> summaries);

// Scores every comparison of a batch (experiments without a comparison are not scored).
std::vector<ComparisonScores> scoreAll(std::span<const ExperimentSummary> summaries);

}  // namespace ddalab
