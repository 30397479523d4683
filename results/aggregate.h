#pragma once
// Aggregation of per-game records into experiment statistics (metrics.md, app.md).
#include <array>
#include <vector>

#include "core/metrics.h"
#include "results/experiment_result.h"

namespace ddalab {

// Distribution of one metric over the games of an experiment.
struct Stats {
  double mean = 0, std = 0, min = 0, max = 0;  // std: sample standard deviation (n - 1)
  double ci95Low = 0, ci95High = 0;            // Student-t 95 % interval of the mean
  size_t n = 0;
};

// Summary statistics of a sample (n = 0: all zero; n = 1: std 0, interval = the value).
Stats describeSample(const std::vector<double>& values);

struct PlayerSummary {
  SeatLabel label;
  double winRate = 0;
  double movesMean = 0;
  int movesMin = 0, movesMax = 0;
  double turnsMean = 0;
  double leadRoundsMean = 0;
};

struct ExperimentSummary {
  std::array<Stats, kNumMetrics> metrics{};  // per-game metrics, indexed like MetricValues
  double winRatio = 0;  // population std over players of win rates; n = 1: |w - 1/2|
  double drawRate = 0;
  double cappedRate = 0;
  std::vector<PlayerSummary> players;
  size_t games = 0;
};

ExperimentSummary summarize(const ExperimentResult& result);

}  // namespace ddalab
