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

// The central `level` interval of `values` by percentiles (sorts a copy; linear interpolation
// between order statistics); {0, 0} for no values.
std::pair<double, double> percentileInterval(std::vector<double> values, double level);

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

// Holm's step-down adjustment of `p` (same order; adjusted values are monotone and <= 1).
std::vector<double> holmAdjust(std::span<const double> p);

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
