#pragma once
// The results of a swept batch as one table (sweep.csv, the GUI's sweep charts): a row per grid
// point and experiment with the point's values and, per column, a value and its 95 % interval.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/params.h"
#include "results/aggregate.h"
#include "results/significance.h"

namespace ddalab {

struct SweepValue {
  double value = 0, low = 0, high = 0;  // the interval is 95 %
};

struct SweepRow {
  std::string experiment, comparison;
  std::string series;  // the experiment's name without its point ("ludo-4mn/e-hillclimber")
  Json point;          // the axes' values by name
  size_t games = 0;
  std::vector<std::optional<SweepValue>> values;  // per column; none: not available
};

struct SweepTable {
  std::vector<std::string> axes;  // in name order
  // Every metric's key, win_ratio, score9, score4, score_ext, then "<key>_vs_random" for every
  // paired test (the difference to the comparison's e-random reference row).
  std::vector<std::string> columns;
  std::vector<SweepRow> rows;

  // The column named `key`, if any.
  std::optional<size_t> column(const std::string& key) const;
  // The axes (in `axes` order) along which the rows of `series` take two or more values.
  std::vector<std::string> variedAxes(const std::string& series) const;
};

// The table of the experiments of `summaries` that are grid points (`points[i]`, an object of
// the varied values of summaries[i]; empty for the others), with the analyses of their
// comparisons (score intervals, paired tests).
SweepTable sweepTable(std::span<const ExperimentSummary> summaries, std::span<const Json> points,
                      std::span<const ComparisonAnalysis> analyses);

}  // namespace ddalab
