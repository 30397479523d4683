#include "results/statistics.h"

#include <algorithm>
#include <array>
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

// Wilcoxon signed-rank test of `differences` (normal approximation, ties and continuity
// corrected); 1 when no difference is non-zero.
double wilcoxonP(std::span<const double> differences) {
  std::vector<double> magnitudes;
  std::vector<bool> positive;
  for (double d : differences)
    if (d != 0 && std::isfinite(d)) magnitudes.push_back(std::abs(d));
  const size_t n = magnitudes.size();
  if (n == 0) return 1;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return magnitudes[a] < magnitudes[b]; });
  std::vector<double> rank(n);
  double tieTerm = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && magnitudes[order[j + 1]] == magnitudes[order[i]]) ++j;
    const double average = (static_cast<double>(i + j) + 2) / 2;  // ranks i+1 .. j+1
    for (size_t k = i; k <= j; ++k) rank[order[k]] = average;
    const double t = static_cast<double>(j - i + 1);
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  double plus = 0;
  size_t k = 0;
  for (double d : differences)
    if (d != 0 && std::isfinite(d)) plus += d > 0 ? rank[k++] : (++k, 0.0);
  const double nn = static_cast<double>(n);
  const double mean = nn * (nn + 1) / 4;
  const double variance = nn * (nn + 1) * (2 * nn + 1) / 24 - tieTerm / 48;
  if (variance <= 0) return 1;
  const double distance = std::max(0.0, std::abs(plus - mean) - 0.5);
  return std::min(1.0, 2 * normalUpperTail(distance / std::sqrt(variance)));
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
  r.wilcoxonP = wilcoxonP(differences);
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

std::pair<double, double> percentileInterval(std::vector<double> values, double level) {
  if (values.empty()) return {0, 0};
  std::sort(values.begin(), values.end());
  const auto at = [&values](double q) {
    const double position = q * static_cast<double>(values.size() - 1);
    const auto below = static_cast<size_t>(std::floor(position));
    const size_t above = std::min(below + 1, values.size() - 1);
    return values[below] +
           (position - static_cast<double>(below)) * (values[above] - values[below]);
  };
  const double tail = (1.0 - level) / 2.0;
  return {at(tail), at(1.0 - tail)};
}

void resampleCounts(size_t n, Rng& rng, std::vector<uint32_t>& counts) {
  counts.assign(n, 0);
  for (size_t draw = 0; draw < n; ++draw) ++counts[rng.below(static_cast<uint32_t>(n))];
}

}  // namespace ddalab
