#pragma once
// Comparison scoring of DDA algorithms (metrics.md; thesis tables 8 and 9).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "results/aggregate.h"

namespace ddalab {

// A column of the comparison scores: a scored per-game metric of the catalog, or win_ratio
// (an experiment-level value).
struct ScoredMetric {
  std::optional<Metric> metric;  // none: win_ratio

  // The file key ("lead_changes", ..., "win_ratio").
  std::string_view key() const;
  // Whether a higher mean is better (only "higher is better" metrics; randomness, whose sign
  // its coefficient sets, scores as minimized, as in the thesis).
  bool maximized() const;
  // Whether the game of `summary` can have it (fairness needs two players or more).
  bool appliesTo(const ExperimentSummary& summary) const;
  // Whether it scores in score-ext rather than table 8 (MetricInfo::extended).
  bool extended() const;
};

// The columns of the score tables: every scored metric of the catalog that is not extended, in
// catalog order, then win_ratio (the thesis's table 8 uses the nine built-in ones), then the
// extended ones (score-ext) in catalog order.
std::vector<ScoredMetric> scoredMetrics();

// The score tables: thesis table 8 (every column but the extended ones), table 9 (four of its
// columns) and score-ext (the extended columns only, so that score9 + scoreExt sums them all).
enum class ScoreTable { AllMetrics, FourMetrics, Extended };

struct ScoreRow {
  std::string experiment;
  std::vector<double> means;   // per column; raw means (win_ratio: the experiment value)
  std::vector<double> ratios;  // per column; 1 = best of the comparison; NaN: not scored
  double score9 = 0;           // the sum of the scored non-extended columns' ratios (table 8)
  double score4 = 0;           // lead_changes, tension, lead, win_ratio (table 9)
  double scoreExt = 0;         // the sum of the scored extended columns' ratios (score-ext)

  // The row's score in `table`.
  double score(ScoreTable table) const;
};

// The score column's key in files and tables ("score9", "score4", "score_ext").
std::string_view scoreKey(ScoreTable table);
// The table's name in headings ("thesis table 8", "thesis table 9", "score-ext").
std::string_view scoreTableName(ScoreTable table);
// Every score table, in the order files and tables list them.
inline constexpr ScoreTable kScoreTables[] = {ScoreTable::AllMetrics, ScoreTable::FourMetrics,
                                              ScoreTable::Extended};

struct ComparisonScores {
  std::string comparison;
  std::vector<ScoredMetric> columns;  // scoredMetrics() when scored
  std::vector<ScoreRow> rows;
  std::vector<std::string> notes;  // e.g. where a zero mean needed the division guard
  // Which columns score: a metric the game cannot have (fairness with one player, always 0)
  // must not hand every row a free point (the thesis scores the Maze on eight metrics).
  std::vector<bool> scored;
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

// One of the score tables across comparisons (thesis tables 8 and 9, score-ext): rows are the
// algorithms, named by what follows the last '/' of the experiment name ("e-hillclimber"),
// columns the comparisons of two or more rows.
// The row key of an experiment in a comparison (its row of the cross tables): what follows its
// last '/' ("e-hillclimber" of "ludo-2hc/e-hillclimber").
std::string rowKey(const std::string& experiment);

struct CrossScores {
  std::vector<std::string> rows;
  std::vector<std::string> comparisons;
  std::vector<std::vector<std::optional<double>>> scores;  // [row][comparison]
  // The mean over the comparisons every row takes part in (so that a row missing from one
  // comparison, like e-maxn in the Maze, is averaged over the same comparisons as the others).
  std::vector<double> means;
  std::vector<std::string> commonComparisons;  // those the means are over
};
CrossScores crossScores(std::span<const ComparisonScores> comparisons, ScoreTable table);

}  // namespace ddalab
