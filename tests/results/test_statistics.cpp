// The statistics of the comparisons against values worked out by hand (and tables).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "results/statistics.h"

using namespace ddalab;

TEST_CASE("distribution tails match the tables", "[statistics]") {
  CHECK(studentTwoSidedP(2.228139, 10) == Approx(0.05).margin(1e-6));
  CHECK(studentTwoSidedP(2.0, 10) == Approx(0.073388).margin(1e-6));
  CHECK(studentTwoSidedP(0.0, 7) == Approx(1.0));
  CHECK(studentTwoSidedP(-12.706205, 1) == Approx(0.05).margin(1e-6));
  CHECK(chiSquareUpperTail(3.841459, 1) == Approx(0.05).margin(1e-7));
  CHECK(chiSquareUpperTail(5.991465, 2) == Approx(0.05).margin(1e-7));
  CHECK(chiSquareUpperTail(2.0, 2) == Approx(std::exp(-1.0)).margin(1e-12));  // exp(-x/2)
  CHECK(chiSquareUpperTail(18.307038, 10) == Approx(0.05).margin(1e-7));
  CHECK(chiSquareUpperTail(0.0, 3) == 1.0);
  CHECK(normalUpperTail(1.959964) == Approx(0.025).margin(1e-7));
  for (size_t df : {1, 5, 30, 31, 100, 1000})
    CHECK(studentTwoSidedP(studentT95(df), static_cast<double>(df)) == Approx(0.05).margin(2e-6));
}

TEST_CASE("paired differences: mean, t interval, paired t and Wilcoxon by hand", "[statistics]") {
  // d = 1..5: mean 3, sd sqrt(2.5), se sqrt(0.5), t = 3 / sqrt(0.5) = 4.2426 with 4 df.
  const std::vector<double> d = {1, 2, 3, 4, 5};
  const PairedDifference r = pairedDifference(d);
  CHECK(r.n == 5);
  CHECK(r.mean == 3);
  CHECK(r.ci95Low == Approx(3 - 2.776445 * std::sqrt(0.5)));
  CHECK(r.ci95High == Approx(3 + 2.776445 * std::sqrt(0.5)));
  CHECK(r.tP == Approx(0.013236).margin(1e-6));
  // Wilcoxon: W+ = 15 of n = 5, mean 7.5, variance 13.75, z = (15 - 7.5 - 0.5) / sqrt(13.75).
  CHECK(r.wilcoxonP == Approx(2 * normalUpperTail(7.0 / std::sqrt(13.75))));
  CHECK(r.wilcoxonP == Approx(0.05906).margin(1e-5));

  // Ties and zeros: zeros are dropped, tied magnitudes share their average rank.
  // |d| = 1, 1, 2, 3 (one zero dropped): ranks 1.5, 1.5, 3, 4; W+ = 1.5 + 3 + 4 = 8.5 (the
  // single negative is -1). mean = 5, variance = 4*5*9/24 - (8 - 2)/48 = 7.5 - 0.125.
  const std::vector<double> tied = {1, -1, 2, 3, 0};
  const double z = (8.5 - 5 - 0.5) / std::sqrt(7.375);
  CHECK(pairedDifference(tied).wilcoxonP == Approx(2 * normalUpperTail(z)));

  const PairedDifference none = pairedDifference(std::vector<double>{0, 0, 0});
  CHECK(none.tP == 1);
  CHECK(none.wilcoxonP == 1);
  CHECK(pairedDifference(std::vector<double>{}).n == 0);
}

TEST_CASE("Holm's adjustment by hand", "[statistics]") {
  const std::vector<double> p = {0.01, 0.04, 0.03};
  // Sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04 -> monotone 0.03, 0.06, 0.06.
  const std::vector<double> adjusted = holmAdjust(p);
  CHECK(adjusted[0] == Approx(0.03));
  CHECK(adjusted[1] == Approx(0.06));
  CHECK(adjusted[2] == Approx(0.06));
  CHECK(holmAdjust(std::vector<double>{0.6, 0.9})[1] == 1.0);  // capped at 1
}

TEST_CASE("the balance test of win counts by hand", "[statistics]") {
  // 30, 20, 10 wins of 60: expected 20 each, chi2 = (100 + 0 + 100) / 20 = 10 with 2 df.
  const std::vector<size_t> three = {30, 20, 10};
  const ChiSquareTest t = winBalance(three, 60);
  CHECK(t.chi2 == Approx(10));
  CHECK(t.df == 2);
  CHECK(t.p == Approx(std::exp(-5.0)));
  // One seat: 30 wins and 10 losses of 40 against half each.
  const std::vector<size_t> one = {30};
  const ChiSquareTest solo = winBalance(one, 40);
  CHECK(solo.chi2 == Approx(10));
  CHECK(solo.df == 1);
  CHECK(solo.p == Approx(0.0015654).margin(1e-6));
  // Draws count for nobody: 10, 10 of 50 games is balanced.
  const std::vector<size_t> even = {10, 10};
  CHECK(winBalance(even, 50).p == Approx(1.0));
}

TEST_CASE("the distributions give the published quantiles and tail probabilities", "[statistics]") {
  // Student's t 97.5 % quantiles (any statistics table; R's qt(0.975, df)).
  CHECK(studentT95(1) == Approx(12.706204736174707).epsilon(1e-12));
  CHECK(studentT95(5) == Approx(2.570581835636314).epsilon(1e-12));
  CHECK(studentT95(30) == Approx(2.042272456301238).epsilon(1e-12));
  CHECK(studentT95(100) == Approx(1.983971518523552).epsilon(1e-12));
  // Two-sided p of t (R's 2 * pt(-|t|, df)).
  CHECK(studentTwoSidedP(2.0, 10) == Approx(0.07338803477074).epsilon(1e-10));
  CHECK(studentTwoSidedP(-2.0, 10) == Approx(0.07338803477074).epsilon(1e-10));
  CHECK(studentTwoSidedP(studentT95(30), 30) == Approx(0.05).epsilon(1e-12));
  CHECK(studentTwoSidedP(0, 7) == Approx(1.0));
  // Chi-square upper tails at the 5 % and 1 % critical values.
  CHECK(chiSquareUpperTail(3.841458820694124, 1) == Approx(0.05).epsilon(1e-12));
  CHECK(chiSquareUpperTail(16.918977604620448, 9) == Approx(0.05).epsilon(1e-12));
  CHECK(chiSquareUpperTail(21.665994333461924, 9) == Approx(0.01).epsilon(1e-12));
  CHECK(chiSquareUpperTail(0, 9) == 1.0);
  // Far tails stay accurate instead of rounding to 0 (a paired t of 50 over 200 games).
  const double tiny = studentTwoSidedP(50, 199);
  CHECK(tiny > 0);
  CHECK(tiny < 1e-100);
}
