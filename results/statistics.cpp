#include "results/statistics.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <numeric>

namespace ddalab {

namespace {

// Boost.Math's distributions and special functions (tested to full double precision), computing
// in double and returning NaN instead of throwing where a value is undefined.
using Quiet = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<boost::math::policies::ignore_error>,
    boost::math::policies::promote_double<false>>;

// The signed ranks of the non-zero finite differences: rank sums and the tie term.
struct SignedRanks {
  size_t n = 0;
  double plus = 0, minus = 0;
  double tieTerm = 0;         // sum over tie groups of t^3 - t
  std::vector<double> ranks;  // of the magnitudes, tied ones at their mean rank
};

SignedRanks signedRanks(std::span<const double> differences) {
  std::vector<double> magnitudes, signs;
  for (double d : differences)
    if (d != 0 && std::isfinite(d)) {
      magnitudes.push_back(std::abs(d));
      signs.push_back(d > 0 ? 1 : -1);
    }
  SignedRanks r;
  r.n = magnitudes.size();
  r.ranks = averageRanks(magnitudes);
  for (size_t i = 0; i < r.n; ++i) (signs[i] > 0 ? r.plus : r.minus) += r.ranks[i];
  std::vector<double> sorted = magnitudes;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < r.n;) {
    size_t j = i;
    while (j + 1 < r.n && sorted[j + 1] == sorted[i]) ++j;
    const double t = static_cast<double>(j - i + 1);
    r.tieTerm += t * t * t - t;
    i = j + 1;
  }
  return r;
}

// Two-sided p of W+ = r.plus by the normal approximation (ties and continuity corrected).
double normalWilcoxonP(const SignedRanks& r) {
  if (r.n == 0) return 1;
  const double nn = static_cast<double>(r.n);
  const double mean = nn * (nn + 1) / 4;
  const double variance = nn * (nn + 1) * (2 * nn + 1) / 24 - r.tieTerm / 48;
  if (variance <= 0) return 1;
  const double distance = std::max(0.0, std::abs(r.plus - mean) - 0.5);
  return std::min(1.0, 2 * normalUpperTail(distance / std::sqrt(variance)));
}

// Two-sided exact p of W+ = w given the ranks (tied ones at their mean rank): the share of the
// 2^n sign patterns whose W+ is at least as far from the mean. Counted over doubled ranks, which
// are whole numbers even for mean ranks.
double exactWilcoxonP(std::span<const double> ranks, double w) {
  std::vector<size_t> doubled;
  for (double r : ranks) doubled.push_back(static_cast<size_t>(std::llround(2 * r)));
  const size_t total = std::accumulate(doubled.begin(), doubled.end(), size_t{0});
  std::vector<double> ways(total + 1, 0.0);  // patterns with 2 W+ = s
  ways[0] = 1;
  for (size_t rank : doubled)
    for (size_t s = total; s >= rank; --s) ways[s] += ways[s - rank];
  const double patterns = std::ldexp(1.0, static_cast<int>(ranks.size()));
  const auto plus = static_cast<size_t>(std::llround(2 * w));
  double below = 0, above = 0;
  for (size_t s = 0; s <= total; ++s) {
    if (s <= plus) below += ways[s];
    if (s >= plus) above += ways[s];
  }
  return std::min(1.0, 2 * std::min(below, above) / patterns);
}

}  // namespace

double studentT95(size_t df) {
  if (df == 0) return std::nan("");
  return boost::math::quantile(
      boost::math::students_t_distribution<double, Quiet>(static_cast<double>(df)), 0.975);
}

double studentTwoSidedP(double t, double df) {
  if (!std::isfinite(t)) return std::isnan(t) ? 1.0 : 0.0;
  // I_{df/(df+t^2)}(df/2, 1/2): the two tails at once, exact for small p as well.
  return boost::math::ibeta(df / 2, 0.5, df / (df + t * t), Quiet());
}

double chiSquareUpperTail(double x, double df) {
  if (x <= 0) return 1;
  return boost::math::gamma_q(df / 2, x / 2, Quiet());
}

double normalUpperTail(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

PairedDifference pairedDifference(std::span<const double> differences) {
  PairedDifference r;
  r.n = differences.size();
  if (r.n == 0) return r;
  double sum = 0;
  for (double d : differences) sum += d;
  r.mean = sum / static_cast<double>(r.n);
  r.ci95Low = r.ci95High = r.mean;
  r.wilcoxonP = normalWilcoxonP(signedRanks(differences));
  if (r.n < 2) return r;
  double squares = 0;
  for (double d : differences) squares += (d - r.mean) * (d - r.mean);
  const double sd = std::sqrt(squares / static_cast<double>(r.n - 1));
  const double se = sd / std::sqrt(static_cast<double>(r.n));
  const double half = studentT95(r.n - 1) * se;
  r.ci95Low = r.mean - half;
  r.ci95High = r.mean + half;
  r.tP = se > 0 ? studentTwoSidedP(r.mean / se, static_cast<double>(r.n - 1))
                : (r.mean == 0 ? 1.0 : 0.0);
  return r;
}

std::vector<double> holmAdjust(std::span<const double> p) {
  const size_t m = p.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (size_t i = 0; i < m; ++i) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - i) * p[order[i]]));
    adjusted[order[i]] = running;
  }
  return adjusted;
}

ChiSquareTest winBalance(std::span<const size_t> wins, size_t games) {
  ChiSquareTest test;
  if (wins.empty() || games == 0) return test;
  std::vector<double> observed(wins.begin(), wins.end());
  if (wins.size() == 1) observed.push_back(static_cast<double>(games - wins[0]));  // losses
  const double total = std::accumulate(observed.begin(), observed.end(), 0.0);
  if (total == 0) return test;
  const double expected = total / static_cast<double>(observed.size());
  for (double o : observed) test.chi2 += (o - expected) * (o - expected) / expected;
  test.df = static_cast<int>(observed.size()) - 1;
  test.p = chiSquareUpperTail(test.chi2, test.df);
  return test;
}

namespace {

// The q-quantile of sorted `values` by linear interpolation between order statistics (R's
// quantile type 7).
double sortedQuantile(const std::vector<double>& values, double q) {
  const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

double normalQuantile(double p) {
  return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}
double normalCdf(double z) {
  return 1.0 - normalUpperTail(z);
}

// The bias correction z0: the normal quantile of the share of replicates below the estimate
// (ties count half, so that a statistic with a point mass at the estimate is not pushed to one
// side), kept within half a replicate of 0 and 1 so that it stays finite.
double biasCorrection(const std::vector<double>& sorted, double observed) {
  const auto below = std::lower_bound(sorted.begin(), sorted.end(), observed) - sorted.begin();
  const auto notAbove = std::upper_bound(sorted.begin(), sorted.end(), observed) - sorted.begin();
  const double b = static_cast<double>(sorted.size());
  const double share =
      (static_cast<double>(below) + 0.5 * static_cast<double>(notAbove - below)) / b;
  return normalQuantile(std::clamp(share, 0.5 / b, 1.0 - 0.5 / b));
}

// The acceleration a from the jackknife values: sum d^3 / (6 (sum d^2)^1.5), d = mean - value
// (Efron and Tibshirani 1993, eq. 14.15); 0 when the jackknife values do not vary.
double acceleration(std::span<const double> jackknife) {
  if (jackknife.empty()) return 0;
  const double mean = std::accumulate(jackknife.begin(), jackknife.end(), 0.0) /
                      static_cast<double>(jackknife.size());
  double squares = 0, cubes = 0;
  for (double value : jackknife) {
    const double d = mean - value;
    squares += d * d;
    cubes += d * d * d;
  }
  return squares > 0 ? cubes / (6.0 * std::pow(squares, 1.5)) : 0.0;
}

}  // namespace

std::pair<double, double> percentileInterval(std::vector<double> values, double level) {
  if (values.empty()) return {0, 0};
  std::sort(values.begin(), values.end());
  const double tail = (1.0 - level) / 2.0;
  return {sortedQuantile(values, tail), sortedQuantile(values, 1.0 - tail)};
}

BcaInterval bcaInterval(std::vector<double> replicates, double observed,
                        std::span<const double> jackknife, double level) {
  BcaInterval r;
  if (replicates.empty()) return r;
  std::sort(replicates.begin(), replicates.end());
  r.biasCorrection = biasCorrection(replicates, observed);
  r.acceleration = acceleration(jackknife);
  // The percentile the interval's end of nominal tail `tail` moves to (Efron 1987, eq. 2.3);
  // past the pole 1 - a (z0 + z) <= 0 the end is the extreme replicate on its side.
  const auto adjusted = [&](double tail) {
    const double z = r.biasCorrection + normalQuantile(tail);
    const double denominator = 1.0 - r.acceleration * z;
    if (denominator <= 0) return tail < 0.5 ? 0.0 : 1.0;
    return normalCdf(r.biasCorrection + z / denominator);
  };
  const double tail = (1.0 - level) / 2.0;
  r.lowLevel = adjusted(tail);
  r.highLevel = adjusted(1.0 - tail);
  r.low = sortedQuantile(replicates, r.lowLevel);
  r.high = sortedQuantile(replicates, r.highLevel);
  return r;
}

void resampleCounts(size_t n, Rng& rng, std::vector<uint32_t>& counts) {
  counts.assign(n, 0);
  for (size_t draw = 0; draw < n; ++draw) ++counts[rng.below(static_cast<uint32_t>(n))];
}

}  // namespace ddalab

namespace ddalab {

std::vector<double> averageRanks(std::span<const double> values) {
  const size_t n = values.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(n);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    const double average = (static_cast<double>(i + j) + 2) / 2;  // ranks i+1 .. j+1
    for (size_t k = i; k <= j; ++k) rank[order[k]] = average;
    i = j + 1;
  }
  return rank;
}

WilcoxonTest wilcoxonSignedRank(std::span<const double> differences) {
  const SignedRanks r = signedRanks(differences);
  WilcoxonTest t;
  t.n = r.n;
  t.plus = r.plus;
  t.minus = r.minus;
  if (r.n == 0) return t;
  t.exact = r.n <= kExactWilcoxonLimit;
  t.p = t.exact ? exactWilcoxonP(r.ranks, r.plus) : normalWilcoxonP(r);
  t.effect = (r.plus - r.minus) / (r.plus + r.minus);
  return t;
}

namespace {

double pearson(std::span<const double> x, std::span<const double> y) {
  const size_t n = x.size();
  if (n < 2) return 0;
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

}  // namespace

double spearman(std::span<const double> x, std::span<const double> y) {
  return pearson(averageRanks(x), averageRanks(y));
}

std::pair<double, double> spearmanInterval(std::span<const double> x, std::span<const double> y,
                                           double level, int replicates, Rng& rng) {
  const size_t n = x.size();
  if (n < 3) return {-1, 1};
  std::vector<double> rhos, xs(n), ys(n);
  for (int r = 0; r < replicates; ++r) {
    for (size_t i = 0; i < n; ++i) {
      const size_t pick = rng.below(static_cast<uint32_t>(n));
      xs[i] = x[pick];
      ys[i] = y[pick];
    }
    rhos.push_back(spearman(xs, ys));
  }
  return percentileInterval(std::move(rhos), level);
}

namespace {

// Solves a x = b for a symmetric positive definite `a` (k x k, row-major) by Cholesky.
std::vector<double> solveSpd(std::vector<double> a, std::vector<double> b, size_t k) {
  for (size_t j = 0; j < k; ++j) {
    double d = a[j * k + j];
    for (size_t m = 0; m < j; ++m) d -= a[j * k + m] * a[j * k + m];
    d = std::sqrt(std::max(d, 1e-300));
    a[j * k + j] = d;
    for (size_t i = j + 1; i < k; ++i) {
      double v = a[i * k + j];
      for (size_t m = 0; m < j; ++m) v -= a[i * k + m] * a[j * k + m];
      a[i * k + j] = v / d;
    }
  }
  for (size_t i = 0; i < k; ++i) {  // L z = b
    for (size_t m = 0; m < i; ++m) b[i] -= a[i * k + m] * b[m];
    b[i] /= a[i * k + i];
  }
  for (size_t i = k; i-- > 0;) {  // L^T x = z
    for (size_t m = i + 1; m < k; ++m) b[i] -= a[m * k + i] * b[m];
    b[i] /= a[i * k + i];
  }
  return b;
}

}  // namespace

double RidgeFit::predict(std::span<const double> row) const {
  double y = intercept;
  for (size_t j = 0; j < weights.size(); ++j)
    if (scales[j] > 0) y += weights[j] * (row[j] - means[j]) / scales[j];
  return y;
}

std::vector<double> RidgeFit::rawWeights() const {
  std::vector<double> raw(weights.size(), 0.0);
  for (size_t j = 0; j < weights.size(); ++j)
    if (scales[j] > 0) raw[j] = weights[j] / scales[j];
  return raw;
}

RidgeFit ridgeRegression(const std::vector<std::vector<double>>& x, std::span<const double> y,
                         double lambda) {
  const size_t n = y.size(), k = x.empty() ? 0 : x.front().size();
  RidgeFit fit;
  fit.lambda = lambda;
  fit.means.assign(k, 0.0);
  fit.scales.assign(k, 0.0);
  fit.weights.assign(k, 0.0);
  if (n == 0) return fit;
  fit.intercept = std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(n);
  for (size_t j = 0; j < k; ++j) {
    for (size_t i = 0; i < n; ++i) fit.means[j] += x[i][j];
    fit.means[j] /= static_cast<double>(n);
    double squares = 0;
    for (size_t i = 0; i < n; ++i) squares += (x[i][j] - fit.means[j]) * (x[i][j] - fit.means[j]);
    fit.scales[j] = std::sqrt(squares / static_cast<double>(n));
  }
  // (Z^T Z + lambda I) w = Z^T (y - mean y); a constant column's z is 0 (its weight stays 0).
  std::vector<double> a(k * k, 0.0), b(k, 0.0);
  std::vector<double> z(k);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < k; ++j)
      z[j] = fit.scales[j] > 0 ? (x[i][j] - fit.means[j]) / fit.scales[j] : 0.0;
    for (size_t j = 0; j < k; ++j) {
      b[j] += z[j] * (y[i] - fit.intercept);
      for (size_t m = 0; m < k; ++m) a[j * k + m] += z[j] * z[m];
    }
  }
  for (size_t j = 0; j < k; ++j) a[j * k + j] += fit.scales[j] > 0 ? lambda : 1.0;
  fit.weights = solveSpd(std::move(a), std::move(b), k);
  return fit;
}

RidgeSelection ridgeCrossValidated(const std::vector<std::vector<double>>& x,
                                   std::span<const double> y, std::span<const double> lambdas,
                                   int folds, uint64_t seed) {
  const size_t n = y.size();
  std::vector<size_t> fold(n);
  for (size_t i = 0; i < n; ++i) fold[i] = i % static_cast<size_t>(folds);
  Rng rng(seed);
  for (size_t i = n; i > 1; --i) std::swap(fold[i - 1], fold[rng.below(static_cast<uint32_t>(i))]);
  // Squared errors of the held-out predictions of `predictor(train, test)` over every fold.
  const auto cvRmse = [&](auto&& predict) {
    double squares = 0;
    for (int f = 0; f < folds; ++f) {
      std::vector<std::vector<double>> trainX;
      std::vector<double> trainY;
      for (size_t i = 0; i < n; ++i)
        if (fold[i] != static_cast<size_t>(f)) {
          trainX.push_back(x[i]);
          trainY.push_back(y[i]);
        }
      if (trainY.empty()) continue;
      for (size_t i = 0; i < n; ++i)
        if (fold[i] == static_cast<size_t>(f)) {
          const double e = y[i] - predict(trainX, trainY, x[i]);
          squares += e * e;
        }
    }
    return n ? std::sqrt(squares / static_cast<double>(n)) : 0.0;
  };
  RidgeSelection best;
  best.constantCvRmse = cvRmse([](const auto&, const std::vector<double>& trainY, const auto&) {
    return std::accumulate(trainY.begin(), trainY.end(), 0.0) / static_cast<double>(trainY.size());
  });
  double bestRmse = INFINITY, bestLambda = lambdas.empty() ? 1.0 : lambdas.front();
  for (double lambda : lambdas) {
    const double rmse = cvRmse([lambda](const auto& trainX, const std::vector<double>& trainY,
                                        const std::vector<double>& row) {
      return ridgeRegression(trainX, trainY, lambda).predict(row);
    });
    best.path.emplace_back(lambda, rmse);
    if (rmse < bestRmse) {
      bestRmse = rmse;
      bestLambda = lambda;
    }
  }
  best.fit = ridgeRegression(x, y, bestLambda);
  best.cvRmse = bestRmse;
  return best;
}

}  // namespace ddalab

namespace ddalab {

std::pair<double, double> wilsonInterval(size_t hits, size_t n) {
  if (n == 0) return {0, 1};
  return wilsonRateInterval(static_cast<double>(hits) / static_cast<double>(n),
                            static_cast<double>(n));
}

std::pair<double, double> wilsonRateInterval(double rate, double n) {
  if (n <= 0) return {0, 1};
  const double z = 1.959963984540054, p = rate;
  const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double normalCentralZ(double confidence) {
  const double tail = (1 - confidence) / 2;
  double low = 0, high = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (normalUpperTail(mid) > tail ? low : high) = mid;
  }
  return (low + high) / 2;
}

}  // namespace ddalab
