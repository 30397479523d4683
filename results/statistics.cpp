#include "results/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace ddalab {

namespace {

constexpr double kEpsilon = 1e-15;
constexpr int kMaxIterations = 500;

// ln Gamma(x) (std::lgamma is not thread-safe on every platform: it may write signgam).
double logGamma(double x) {
  static constexpr std::array<double, 6> kCoefficients = {
      76.18009172947146,  -86.50532032941677,    24.01409824083091,
      -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5};
  double y = x, sum = 1.000000000190015;
  const double tmp = x + 5.5 - (x + 0.5) * std::log(x + 5.5);
  for (double c : kCoefficients) sum += c / ++y;
  return -tmp + std::log(2.5066282746310005 * sum / x);
}

// The continued fraction of the regularized incomplete beta function (modified Lentz).
double betaFraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::abs(d) < tiny ? tiny : d);
  double h = d;
  for (int m = 1; m <= kMaxIterations; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    d = 1 / (std::abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    c = std::abs(c) < tiny ? tiny : c;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    d = 1 / (std::abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    c = std::abs(c) < tiny ? tiny : c;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) break;
  }
  return h;
}

// The regularized incomplete beta function I_x(a, b).
double incompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * std::log(x) + b * std::log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return front * betaFraction(a, b, x) / a;
  return 1 - front * betaFraction(b, a, 1 - x) / b;
}

// The regularized upper incomplete gamma function Q(a, x).
double upperIncompleteGamma(double a, double x) {
  if (x <= 0) return 1;
  const double logFront = -x + a * std::log(x) - logGamma(a);
  if (x < a + 1) {  // series for P(a, x)
    double sum = 1 / a, term = sum;
    for (int n = 1; n <= kMaxIterations; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * kEpsilon) break;
    }
    return std::max(0.0, 1 - sum * std::exp(logFront));
  }
  const double tiny = 1e-300;  // continued fraction for Q(a, x)
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i <= kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) break;
  }
  return std::min(1.0, std::exp(logFront) * h);
}

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
  static constexpr std::array<double, 30> kTable = {
      12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
      2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
      2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
      2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272};
  if (df <= kTable.size()) return kTable[df - 1];
  // Cornish-Fisher expansion around the normal quantile; beyond df = 30 its error is below 1e-7.
  const double z = 1.959963984540054;
  const double d = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d) +
         (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * d * d * d * d);
}

double studentTwoSidedP(double t, double df) {
  if (!std::isfinite(t)) return std::isnan(t) ? 1.0 : 0.0;
  return incompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double chiSquareUpperTail(double x, double df) {
  return upperIncompleteGamma(df / 2, x / 2);
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
