#pragma once
// Aggregation of per-game records into experiment statistics (metrics.md, app.md), in one pass
// and constant memory whatever the number of games.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "core/metrics.h"
#include "results/experiment_result.h"
#include "results/statistics.h"

namespace ddalab {

// Distribution of one metric over the games of an experiment.
struct Stats {
  double mean = 0, std = 0, min = 0, max = 0;  // std: sample standard deviation (n - 1)
  double ci95Low = 0, ci95High = 0;            // Student-t 95 % interval of the mean
  size_t n = 0;
};

// One metric's values seen one at a time: mean as the plain sum over n (in the order given),
// variance by Welford's update, so a sample never has to be held in memory.
class SampleMoments {
 public:
  // Adds one value.
  void add(double value);
  // The statistics so far (n = 0: all zero; n = 1: std 0, interval = the value).
  Stats stats() const;

 private:
  size_t n_ = 0;
  double sum_ = 0, runningMean_ = 0, m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
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

// `metric` of `record` per round of its game (0 for a game without rounds).
double perRound(const GameRecord& record, Metric metric);

// metrics.md's win_ratio of per-seat win rates: their population std; one seat: |w - 1/2|.
double winRatioOf(std::span<const double> winRates);

// The game count the score's win_ratio term refers to (docs/score-intervals.md): the study's.
inline constexpr double kWinRatioReferenceGames = 1000;

// The score's win_ratio term, squared (docs/score-intervals.md): an unbiased estimate, from the
// seats' win rates over `games` games (draws: 1 - their sum), of the squared win_ratio a run of
// kWinRatioReferenceGames games shows in expectation, V + S / N: V the squared spread of the
// true win probabilities, S / n the binomial noise it gains from n games. Not floored: it can be
// negative below N games. `games` infinite: the rates are the true probabilities (V + S / N
// exactly); fewer than 2 games: winRatioOf squared (no noise estimate).
double scoredWinVariance(std::span<const double> winRates, double games);
// The term itself: the root of scoredWinVariance raised to its lower bound S / N where it falls
// below (V >= 0; S estimated without bias). At N games it is winRatioOf unless the seats' spread
// is smaller than the noise of N games (then that noise: every such row is as even as N games
// can tell).
double scoredWinRatio(std::span<const double> winRates, double games);

struct ExperimentSummary {
  ExperimentLabel label;                     // the experiment summarized
  std::array<Stats, kMaxMetrics> metrics{};  // per-game metrics, indexed like MetricValues
  // lead_changes and leading_time per round of each game: the counts grow with a game's length,
  // these rates do not (reported beside the thesis's counts, not scored).
  Stats leadChangesPerRound, leadingTimePerRound;
  double winRatio = 0;  // population std over players of win rates; n = 1: |w - 1/2|
  // win_ratio's 95 % interval: percentile bootstrap over the games (resampled win counts).
  double winRatioLow = 0, winRatioHigh = 0;
  ChiSquareTest balance;  // chi-square test that every seat is equally likely to win
  double drawRate = 0;
  double cappedRate = 0;
  std::vector<PlayerSummary> players;
  size_t games = 0;
};

// Summarizes an experiment's games as they come (in iteration order, for reproducible bits).
class SummaryBuilder {
 public:
  explicit SummaryBuilder(ExperimentLabel label);
  // Adds one finished game.
  void add(const GameRecord& record);
  // The summary of the games added so far; without `withIntervals` win_ratio's bootstrap
  // interval is left at 0 (cheap enough for a live table redrawn many times a second). The
  // interval is computed once per number of games and kept (so, like add(), one thread at a time).
  ExperimentSummary summary(bool withIntervals = true) const;
  size_t games() const { return games_; }
  const ExperimentLabel& label() const { return label_; }
  // Gives the games added so far another label (the experiment was renamed, regrouped or given
  // more games: the games are the same).
  void relabel(ExperimentLabel label) { label_ = std::move(label); }

 private:
  struct SeatTotals {
    size_t wins = 0;
    long long moves = 0, turns = 0, leadRounds = 0;
    int movesMin = 0, movesMax = 0;
  };
  ExperimentLabel label_;
  size_t games_ = 0, draws_ = 0, capped_ = 0;
  std::array<SampleMoments, kMaxMetrics> metrics_{};
  SampleMoments leadChangesPerRound_, leadingTimePerRound_;
  std::vector<SeatTotals> seats_;
  mutable size_t intervalGames_ = SIZE_MAX;  // games_ when winRatioInterval_ was computed
  mutable std::pair<double, double> winRatioInterval_;
};

// The summary of an experiment held in memory.
ExperimentSummary summarize(const ExperimentResult& result);

}  // namespace ddalab
