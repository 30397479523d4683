#pragma once
// What the differences of a comparison can be trusted for (beyond the thesis): paired
// tests of every row against the no-DDA row, bootstrap intervals of the table-8/9 scores with
// the probability of each rank, and whether a player could detect the environment player from
// the outcomes dealt to them. Rows of a comparison play the same game seeds, iteration by
// iteration, so every analysis pairs the rows' games by iteration.
#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/experiment_result.h"
#include "results/scoring.h"
#include "results/statistics.h"

namespace ddalab {

// One metric of one row against the reference row, game by game.
struct PairedTest {
  std::string experiment;
  std::string metric;  // a scored metric's key, "rounds", or a per-round rate
  size_t pairs = 0;
  double difference = 0;  // mean of row minus reference
  double ci95Low = 0, ci95High = 0;
  std::string test;      // "paired-t" (per-game metrics) or "bootstrap" (win_ratio)
  double p = 1;          // two-sided p of `test`
  double wilcoxonP = 1;  // Wilcoxon signed-rank p (per-game metrics; NaN for win_ratio)
  // p after Holm's correction over its family in the comparison: the extended metrics' tests form
  // a family of their own, so that adding them leaves the thesis metrics' corrections as they were.
  double holmP = 1;
  bool significant() const { return holmP < 0.05; }
};

// A row's table-8/9 and score-ext scores with bootstrap 95 % intervals and the probability of
// each rank (rank 1 = the highest score; index 0 of the vectors).
struct ScoreInterval {
  std::string experiment;
  double score9 = 0, score9Low = 0, score9High = 0;
  double score4 = 0, score4Low = 0, score4High = 0;
  double scoreExt = 0, scoreExtLow = 0, scoreExtHigh = 0;
  std::vector<double> rank9, rank4, rankExt;
  // Share of replicates in which the row scores above the reference row (0 for the reference):
  // how sure the comparison is that the row beats no DDA.
  double above9 = 0, above4 = 0, aboveExt = 0;
  // Per scored metric, the 95 % interval of the row's ratio to the best of the comparison
  // (the best re-chosen in every replicate); NaN where the metric is not scored.
  std::vector<double> ratioLow, ratioHigh;  // per column of ComparisonScores

  // The 95 % interval of the score in `table`.
  std::pair<double, double> interval(ScoreTable table) const;
};

// Whether `seat` of an experiment could tell the environment from natural chance: the deciles
// of the outcomes dealt to it, pooled over the games, against uniform (chi-square, 9 df).
struct Detectability {
  std::string experiment;
  size_t seat = 0;
  SeatLabel player;
  uint64_t outcomes = 0;  // environment outcomes dealt to the seat
  double chi2 = 0;
  int df = 0;
  double p = 1;  // NaN when too few outcomes (fewer than 5 expected per decile)
  // The fewest games (of a 1-2-5 grid) whose random subsets reject at 5 % in at least 95 % of
  // draws; none when even all games do not.
  std::optional<size_t> gamesToDetect;
  bool detected() const { return p < 0.05; }
};

// The chi-square test of pooled outcome deciles against uniform (9 df): whether outcomes dealt to a
// seat fell where natural chance puts them. NaN p when fewer than 5 are expected per decile.
ChiSquareTest chanceUniformity(const ChanceBins& pooled);

struct ComparisonAnalysis {
  std::string comparison;
  std::string reference;  // the row every other row is tested against (e-random)
  size_t pairs = 0;       // games paired (the iterations every row played)
  int replicates = 0;     // bootstrap replicates behind the score intervals
  std::vector<PairedTest> tests;
  std::vector<ScoreInterval> scores;
  std::vector<Detectability> detectability;
  std::vector<std::string> notes;
};

// How the score intervals are drawn from the bootstrap replicates: the percentile interval, or
// BCa (bias-corrected and accelerated, jackknife acceleration). The coverage simulation of
// docs/score-intervals.md, with the scores' win_ratio term of scoredWinRatio, has the
// percentile closer to 95 % in most cells and BCa under it, so the percentile is the default.
enum class IntervalMethod { Percentile, BCa };

struct AnalysisOptions {
  IntervalMethod scoreIntervals = IntervalMethod::Percentile;
  int replicates = 1000;              // bootstrap replicates (fewer for large samples: see cpp)
  int subsamples = 200;               // draws per subset size for gamesToDetect
  uint64_t seed = 0x51'9a1f'1ca7ull;  // the analyses' own random stream: fixed, so reproducible
};

// Analyzes the rows of one comparison (records sorted by iteration). The reference row is the
// one named e-random (the thesis's no-DDA row), else the first with an e-random environment.
ComparisonAnalysis analyzeComparison(const std::string& comparison,
                                     std::span<const ExperimentResult> rows,
                                     const AnalysisOptions& options = {});

// Analyzes every comparison of two or more rows among `results` (held in memory).
std::vector<ComparisonAnalysis> analyzeAll(std::span<const ExperimentResult> results,
                                           const AnalysisOptions& options = {});

// The paired test of `metric` (a scored metric key) for `experiment`, if the analysis has one.
const PairedTest* findTest(const ComparisonAnalysis& analysis, const std::string& experiment,
                           const std::string& metric);

// '*' when the row's mean of `metric` differs from the reference row's significantly
// (Holm-adjusted paired test), "" otherwise or without an analysis: the mark of the score tables.
std::string significanceMark(const ComparisonAnalysis* analysis, const std::string& experiment,
                             const ScoredMetric& metric);

}  // namespace ddalab
