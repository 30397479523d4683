#pragma once
// The statistics behind the comparisons (issue "scores that mean something"): distribution
// functions, paired differences with a t interval, the paired t and Wilcoxon signed-rank
// tests, Holm's correction, and a chi-square test of balanced win counts.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "core/rng.h"

namespace ddalab {

// Two-sided 95 % critical value of Student's t with `df` >= 1 degrees of freedom.
double studentT95(size_t df);
// Two-sided p-value of Student's t statistic `t` with `df` > 0 degrees of freedom.
double studentTwoSidedP(double t, double df);
// P(X >= x) for X chi-square distributed with `df` > 0 degrees of freedom.
double chiSquareUpperTail(double x, double df);
// P(Z >= z) for a standard normal Z.
double normalUpperTail(double z);
// The z of a central `confidence` interval (0 < confidence < 1) of the standard normal: 1.96 for
// 0.95 (normalUpperTail inverted by bisection, to double precision).
double normalCentralZ(double confidence);

// The central `level` interval of `values` by percentiles (sorts a copy; linear interpolation
// between order statistics); {0, 0} for no values.
std::pair<double, double> percentileInterval(std::vector<double> values, double level);

// A bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987; Efron and Tibshirani
// 1993, ch. 14) with the quantities behind it.
struct BcaInterval {
  double low = 0, high = 0;
  double biasCorrection = 0;           // z0
  double acceleration = 0;             // a, from the jackknife
  double lowLevel = 0, highLevel = 0;  // the percentiles of the replicates taken as the ends
};

// The central `level` BCa interval of a statistic estimated at `observed`, from its bootstrap
// `replicates` and its jackknife (leave-one-out, or leave-one-group-out) values; the ends are
// percentiles of the replicates (linear interpolation, as percentileInterval). Zeroes for no
// replicates.
BcaInterval bcaInterval(std::vector<double> replicates, double observed,
                        std::span<const double> jackknife, double level);

// One bootstrap replicate of n items as counts: how often each index is drawn in n draws with
// replacement (counts[i] for item i; they sum to n).
void resampleCounts(size_t n, Rng& rng, std::vector<uint32_t>& counts);

// Paired differences (row minus baseline, game by game).
struct PairedDifference {
  size_t n = 0;
  double mean = 0;
  double ci95Low = 0, ci95High = 0;  // Student-t interval of the mean difference
  double tP = 1;                     // paired t-test, two-sided (1 when undefined)
  double wilcoxonP = 1;  // Wilcoxon signed-rank, two-sided, normal approximation with tie and
                         // continuity correction (zero differences dropped); 1 when undefined
};

// The paired statistics of `differences`.
PairedDifference pairedDifference(std::span<const double> differences);

// Wilson's 95 % interval of a proportion of `hits` in `n` ({0, 1} for n = 0).
std::pair<double, double> wilsonInterval(size_t hits, size_t n);
// The same for an observed share `rate` of `n` trials that may count part (a draw of three
// seats counts a third): Wilson's score interval at p̂ = rate ({0, 1} for n = 0).
std::pair<double, double> wilsonRateInterval(double rate, double n);

// Holm's step-down adjustment of `p` (same order; adjusted values are monotone and <= 1).
std::vector<double> holmAdjust(std::span<const double> p);

// The Wilcoxon signed-rank test of paired differences: zero differences dropped, tied magnitudes
// given their mean rank.
struct WilcoxonTest {
  size_t n = 0;                // non-zero differences
  double plus = 0, minus = 0;  // the rank sums of the positive and the negative ones (W+, W-)
  double p = 1;                // two-sided
  bool exact = false;          // p from the exact null distribution (else normal approximation)
  // Effect size: the matched-pairs rank-biserial correlation (W+ - W-) / (W+ + W-), in [-1, 1].
  double effect = 0;
};
// Exact p (all 2^n sign patterns of the ranks as they are, ties included, by counting) for
// n <= kExactWilcoxonLimit; above, the normal approximation with tie and continuity corrections.
// n = 0: p = 1.
inline constexpr size_t kExactWilcoxonLimit = 50;
WilcoxonTest wilcoxonSignedRank(std::span<const double> differences);

// Ranks 1..n of `values` (ties get their mean rank), in the order of `values`.
std::vector<double> averageRanks(std::span<const double> values);
// Spearman's rank correlation (Pearson's of the average ranks); 0 when either side is constant.
double spearman(std::span<const double> x, std::span<const double> y);
// A bootstrap `level` interval of spearman(x, y): `replicates` resamples of the pairs (percentile).
std::pair<double, double> spearmanInterval(std::span<const double> x, std::span<const double> y,
                                           double level, int replicates, Rng& rng);

// A ridge regression of y on the columns of x (rows = observations), the columns standardized
// (mean 0, sd 1; a constant column gets weight 0) and y centred: weights minimizing
// |y - y0 - Xz w|^2 + lambda |w|^2.
struct RidgeFit {
  double lambda = 0;
  double intercept = 0;               // the mean of y
  std::vector<double> weights;        // per standardized column
  std::vector<double> means, scales;  // of the columns (scale 0: constant)
  // The prediction for one observation of the original columns.
  double predict(std::span<const double> row) const;
  // The weights per unit of the original columns (weights[j] / scales[j]; 0 for constants).
  std::vector<double> rawWeights() const;
};
RidgeFit ridgeRegression(const std::vector<std::vector<double>>& x, std::span<const double> y,
                         double lambda);
// The ridge fit with the penalty of `lambdas` that predicts best in `folds`-fold cross-validation
// (folds by a shuffle from `seed`), its cross-validated root mean squared error, and that of the
// constant model (each fold's training mean) for comparison.
struct RidgeSelection {
  RidgeFit fit;  // on all observations, with the chosen penalty
  double cvRmse = 0;
  double constantCvRmse = 0;
  std::vector<std::pair<double, double>> path;  // every penalty tried with its CV RMSE
};
RidgeSelection ridgeCrossValidated(const std::vector<std::vector<double>>& x,
                                   std::span<const double> y, std::span<const double> lambdas,
                                   int folds, uint64_t seed);

// The result of a chi-square test.
struct ChiSquareTest {
  double chi2 = 0;
  int df = 0;
  double p = 1;
};

// Chi-square test that every seat is equally likely to win: `wins[i]` games won by seat i out of
// `games` (draws count for nobody). With one seat the game is balanced when it is won half the
// time (wins against losses). df = seats - 1 (1 for one seat).
ChiSquareTest winBalance(std::span<const size_t> wins, size_t games);

}  // namespace ddalab
