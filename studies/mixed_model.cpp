#include "studies/mixed_model.h"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

#include "core/params.h"
#include "core/json_input.h"
#include "results/statistics.h"

namespace ddalab {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// A participant's block of the model: V_i = s I + s_b J (J the all-ones matrix of its n answers)
// and every matrix the REML computations meet is a I + b J, so the fit needs only these sums.
struct Block {
  double n = 0;
  MatrixXd xtx;  // X_i' X_i
  VectorXd sum;  // X_i' 1: the column sums
  VectorXd xty;  // X_i' y_i
  double ySum = 0, yy = 0;
};

// a I + b J on a block of n: products stay in this form because J J = n J.
struct IJ {
  double a = 0, b = 0;
  IJ times(const IJ& o, double n) const { return {a * o.a, a * o.b + b * o.a + n * b * o.b}; }
  double trace(double n) const { return n * (a + b); }
};

// The design, its blocks and residual parts a fit at given variance parameters needs.
struct Design {
  MatrixXd x;  // rows grouped by participant, in block order
  VectorXd y;
  std::vector<Block> blocks;
  std::vector<size_t> begin;  // each block's first row
  std::vector<std::string> names;
  size_t conditions = 0;  // condition levels (coefficients 1..conditions-1)
};

// V_i^-1 for variance parameters (s_b, s): (1/s) (I - s_b / (s + n s_b) J).
IJ inverseBlock(double sb, double s, double n) {
  return {1 / s, -sb / (s * (s + n * sb))};
}

// X_i' (a I + b J) X_i summed over blocks, with `form(block)` giving a, b.
template <typename Form>
MatrixXd xFormX(const Design& d, Form form) {
  MatrixXd sum = MatrixXd::Zero(d.x.cols(), d.x.cols());
  for (const Block& b : d.blocks) {
    const IJ f = form(b);
    sum += f.a * b.xtx + f.b * b.sum * b.sum.transpose();
  }
  return sum;
}

// Generalised least squares at variance parameters (s_b, s).
struct Gls {
  MatrixXd covariance;  // (X' V^-1 X)^-1
  VectorXd beta;
  double quadratic = 0;  // (y - X b)' V^-1 (y - X b)
  double logDetV = 0, logDetXVX = 0;
};

Gls gls(const Design& d, double sb, double s) {
  const auto p = d.x.cols();
  MatrixXd xvx = MatrixXd::Zero(p, p);
  VectorXd xvy = VectorXd::Zero(p);
  Gls g;
  double yvy = 0;
  for (const Block& b : d.blocks) {
    const IJ v = inverseBlock(sb, s, b.n);
    xvx += v.a * b.xtx + v.b * b.sum * b.sum.transpose();
    xvy += v.a * b.xty + v.b * b.sum * b.ySum;
    yvy += v.a * b.yy + v.b * b.ySum * b.ySum;
    g.logDetV += (b.n - 1) * std::log(s) + std::log(s + b.n * sb);
  }
  const Eigen::LLT<MatrixXd> llt(xvx);
  g.beta = llt.solve(xvy);
  g.covariance = llt.solve(MatrixXd::Identity(p, p));
  g.quadratic = std::max(0.0, yvy - g.beta.dot(xvy));
  g.logDetXVX = 2 * llt.matrixLLT().diagonal().array().log().sum();
  return g;
}

double residualDf(const Design& d) {
  return static_cast<double>(d.x.rows() - d.x.cols());
}

// lme4's REML criterion with the residual variance profiled out, at variance ratio theta = s_b/s.
double profiledReml(const Design& d, double theta) {
  const Gls g = gls(d, theta, 1);
  const double dfr = residualDf(d);
  return g.logDetV + g.logDetXVX + dfr * (1 + std::log(2 * std::numbers::pi * g.quadratic / dfr));
}

// The largest variance ratio searched (participant variance a million times the residual's).
constexpr double kLargestRatio = 1e6;

// The ratio theta >= 0 minimising the profiled criterion: a grid over sqrt(theta) (lme4's relative
// standard deviation) finds the basin, Brent polishes it, and 0 wins ties (a singular fit).
double optimalRatio(const Design& d) {
  const auto criterion = [&](double u) { return profiledReml(d, u * u); };
  std::vector<double> grid = {0};
  for (int k = -40; k <= 30; ++k) grid.push_back(std::pow(10.0, k / 10.0));  // to sqrt(1e6)
  size_t best = 0;
  std::vector<double> value(grid.size());
  for (size_t k = 0; k < grid.size(); ++k) {
    value[k] = criterion(grid[k]);
    if (value[k] < value[best]) best = k;
  }
  const double low = grid[best == 0 ? 0 : best - 1];
  const double high = grid[std::min(best + 1, grid.size() - 1)];
  const auto [u, f] = boost::math::tools::brent_find_minima(criterion, low, high, 52);
  // A gain below rounding is no gain: lme4 reports such a fit as singular too.
  return f < value.front() - 1e-10 * std::max(1.0, std::abs(f)) ? u * u : 0.0;
}

// The second derivatives of the REML deviance in (s_b, s), -tr(P V_k P V_l) + 2 y'P V_k P V_l P y,
// and its first derivatives' pieces d cov(beta) / d parameter = M Q_k M, from the block sums.
struct Derivatives {
  Eigen::Matrix2d hessian;
  Eigen::Vector2d gradient;
  std::vector<MatrixXd> covarianceGradient;  // per parameter
};

Derivatives derivatives(const Design& d, double sb, double s, const Gls& g) {
  const std::array<IJ, 2> vk = {IJ{0, 1}, IJ{1, 0}};  // dV/ds_b = J, dV/ds = I
  const MatrixXd& m = g.covariance;
  Derivatives out;
  std::array<MatrixXd, 2> q;  // Q_k = X' V^-1 V_k V^-1 X
  for (size_t k = 0; k < 2; ++k) {
    q[k] = xFormX(d, [&](const Block& b) {
      const IJ a = inverseBlock(sb, s, b.n);
      return a.times(vk[k], b.n).times(a, b.n);
    });
    out.covarianceGradient.push_back(m * q[k] * m);
  }
  // r~ = V^-1 (y - X beta) per block, and u_k = V_k r~.
  const VectorXd e = d.y - d.x * g.beta;
  VectorXd r(e.size());
  std::array<VectorXd, 2> u = {VectorXd(e.size()), VectorXd(e.size())};
  std::array<VectorXd, 2> xau = {VectorXd::Zero(m.rows()), VectorXd::Zero(m.rows())};
  std::array<std::array<double, 2>, 2> uau{};
  for (size_t i = 0; i < d.blocks.size(); ++i) {
    const Block& b = d.blocks[i];
    const auto n = static_cast<Eigen::Index>(b.n);
    const auto at = static_cast<Eigen::Index>(d.begin[i]);
    const IJ a = inverseBlock(sb, s, b.n);
    const VectorXd ei = e.segment(at, n);
    r.segment(at, n) = a.a * ei + VectorXd::Constant(n, a.b * ei.sum());
    for (size_t k = 0; k < 2; ++k) {
      const VectorXd ri = r.segment(at, n);
      u[k].segment(at, n) = vk[k].a * ri + VectorXd::Constant(n, vk[k].b * ri.sum());
    }
    std::array<VectorXd, 2> au;
    for (size_t k = 0; k < 2; ++k) {
      const VectorXd uk = u[k].segment(at, n);
      au[k] = a.a * uk + VectorXd::Constant(n, a.b * uk.sum());
      xau[k] += d.x.middleRows(at, n).transpose() * au[k];
    }
    for (size_t k = 0; k < 2; ++k)
      for (size_t l = 0; l < 2; ++l) uau[k][l] += u[k].segment(at, n).dot(au[l]);
  }
  for (size_t k = 0; k < 2; ++k) {
    double traceAV = 0;
    for (const Block& b : d.blocks)
      traceAV += inverseBlock(sb, s, b.n).times(vk[k], b.n).trace(b.n);
    out.gradient(k) = traceAV - (m * q[k]).trace() - r.dot(u[k]);
    for (size_t l = 0; l < 2; ++l) {
      double traceAAVV = 0;
      for (const Block& b : d.blocks) {
        const IJ a = inverseBlock(sb, s, b.n);
        traceAAVV += a.times(a, b.n).times(vk[k], b.n).times(vk[l], b.n).trace(b.n);
      }
      const MatrixXd a3 = xFormX(d, [&](const Block& b) {
        const IJ a = inverseBlock(sb, s, b.n);
        return a.times(a, b.n).times(a, b.n).times(vk[k], b.n).times(vk[l], b.n);
      });
      const double tracePVPV = traceAAVV - 2 * (m * a3).trace() + (m * q[k] * m * q[l]).trace();
      const double quadratic = uau[k][l] - xau[k].dot(m * xau[l]);
      out.hessian(k, l) = -tracePVPV + 2 * quadratic;
    }
  }
  return out;
}

// 2 H^-1 by the Moore-Penrose inverse over the positive eigenvalues (as lmerTest does); on the
// boundary only the residual variance is a free parameter.
MatrixXd parameterCovariance(const Derivatives& der, bool singular) {
  if (singular) {
    MatrixXd a = MatrixXd::Zero(2, 2);
    if (der.hessian(1, 1) > 0) a(1, 1) = 2 / der.hessian(1, 1);
    return a;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(der.hessian);
  MatrixXd a = MatrixXd::Zero(2, 2);
  const double tolerance = 1e-8 * std::max(1.0, eigen.eigenvalues().cwiseAbs().maxCoeff());
  for (int k = 0; k < 2; ++k)
    if (eigen.eigenvalues()(k) > tolerance)
      a += 2 / eigen.eigenvalues()(k) * eigen.eigenvectors().col(k) *
           eigen.eigenvectors().col(k).transpose();
  return a;
}

std::vector<double> flat(const MatrixXd& m) {
  std::vector<double> v(static_cast<size_t>(m.size()));
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) v[static_cast<size_t>(r * m.cols() + c)] = m(r, c);
  return v;
}

MatrixXd unflat(const std::vector<double>& v, size_t p) {
  MatrixXd m(p, p);
  for (size_t r = 0; r < p; ++r)
    for (size_t c = 0; c < p; ++c) m(r, c) = v[r * p + c];
  return m;
}

// The levels a factor contributes columns for: those with an observation, the reference first.
std::vector<size_t> usedLevels(const MixedData& data, size_t MixedObservation::*level,
                               size_t count) {
  std::vector<bool> used(count, false);
  for (const MixedObservation& o : data.observations) used.at(o.*level) = true;
  std::vector<size_t> levels;
  for (size_t l = 0; l < count; ++l)
    if (used[l]) levels.push_back(l);
  return levels;
}

// The design matrix: intercept, condition dummies, period dummies (treatment coding); rows grouped
// by participant. Conditions must all have answers (their contrasts are reported by index).
std::optional<Design> design(const MixedData& data, std::string& why) {
  if (usedLevels(data, &MixedObservation::condition, data.conditions.size()).size() !=
      data.conditions.size()) {
    why = "a condition has no answers";
    return std::nullopt;
  }
  const std::vector<size_t> periods =
      usedLevels(data, &MixedObservation::period, std::max<size_t>(1, data.periods.size()));
  Design d;
  d.conditions = data.conditions.size();
  d.names.push_back("(Intercept)");
  for (size_t c = 1; c < data.conditions.size(); ++c)
    d.names.push_back("condition" + data.conditions[c]);
  for (size_t k = 1; k < periods.size(); ++k)
    d.names.push_back("period" + data.periods[periods[k]]);
  const bool covariate = !data.covariate.empty();
  if (covariate) d.names.push_back(data.covariate);
  std::vector<size_t> column(std::max<size_t>(1, data.periods.size()), 0);
  for (size_t k = 1; k < periods.size(); ++k) column[periods[k]] = d.conditions - 1 + k;
  std::vector<const MixedObservation*> rows;
  for (const MixedObservation& o : data.observations) rows.push_back(&o);
  std::stable_sort(rows.begin(), rows.end(),
                   [](auto* a, auto* b) { return a->participant < b->participant; });
  const auto p = static_cast<Eigen::Index>(d.names.size());
  d.x = MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), p);
  d.y.resize(static_cast<Eigen::Index>(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    d.x(r, 0) = 1;
    if (rows[i]->condition > 0) d.x(r, static_cast<Eigen::Index>(rows[i]->condition)) = 1;
    if (column[rows[i]->period] > 0) d.x(r, static_cast<Eigen::Index>(column[rows[i]->period])) = 1;
    if (covariate) d.x(r, p - 1) = rows[i]->covariate;
    d.y(r) = rows[i]->answer;
    if (i == 0 || rows[i]->participant != rows[i - 1]->participant) {
      d.begin.push_back(i);
      d.blocks.emplace_back();
    }
    Block& b = d.blocks.back();
    const VectorXd xi = d.x.row(r).transpose();
    if (b.n == 0) b = {0, MatrixXd::Zero(p, p), VectorXd::Zero(p), VectorXd::Zero(p), 0, 0};
    b.n += 1;
    b.xtx += xi * xi.transpose();
    b.sum += xi;
    b.xty += xi * d.y(r);
    b.ySum += d.y(r);
    b.yy += d.y(r) * d.y(r);
  }
  if (d.x.rows() <= p) {
    why = std::to_string(d.x.rows()) + " answers for " + std::to_string(p) + " coefficients";
    return std::nullopt;
  }
  if (covariate && Eigen::ColPivHouseholderQR<MatrixXd>(d.x.leftCols(p - 1)).rank() == p - 1 &&
      Eigen::ColPivHouseholderQR<MatrixXd>(d.x).rank() < p) {
    why = "the covariate " + data.covariate +
          " does not vary, or is a combination of condition and period: it cannot be estimated";
    return std::nullopt;
  }
  if (Eigen::ColPivHouseholderQR<MatrixXd>(d.x).rank() < p) {
    why =
        "condition and period are confounded (every participant met the conditions in the same "
        "periods): the model cannot tell them apart";
    return std::nullopt;
  }
  return d;
}

// The t quantile for a 95 % interval; NaN (no interval) when df is so small that the quantile
// overflows (a Satterthwaite df near 0: two participants with one game a condition), instead of
// Boost's overflow_error ending the analysis.
double tQuantile975(double df) {
  if (!(df > 0) || !std::isfinite(df)) return 1.959963984540054;
  using Quiet = boost::math::policies::policy<
      boost::math::policies::overflow_error<boost::math::policies::ignore_error>>;
  const double q =
      boost::math::quantile(boost::math::students_t_distribution<double, Quiet>(df), 0.975);
  return std::isfinite(q) ? q : std::nan("");
}

}  // namespace

namespace {

// The fit at variance ratio `theta` (the REML optimum, or 0 for the game-level model).
std::optional<MixedFit> fitAt(const MixedData& data, std::optional<double> fixedRatio,
                              std::string* why) {
  std::string reason;
  const std::optional<Design> d = design(data, reason);
  if (d && residualDf(*d) > 0 && (d->y.array() - d->y.mean()).abs().maxCoeff() == 0)
    reason = "every answer is the same: nothing varies";
  if (!d || !reason.empty()) {
    if (why) *why = reason;
    return std::nullopt;
  }
  const double theta = fixedRatio ? *fixedRatio : optimalRatio(*d);
  const Gls unit = gls(*d, theta, 1);
  MixedFit fit;
  fit.residualVariance = unit.quadratic / residualDf(*d);
  // Answers constant within every participant (beyond condition and period) leave no residual:
  // the criterion falls without end as the ratio grows, to the top of the search.
  if (theta >= 0.99 * kLargestRatio || !(fit.residualVariance > 0)) {
    if (why) *why = "no answer varies within a participant: the residual variance is 0";
    return std::nullopt;
  }
  fit.participantVariance = theta * fit.residualVariance;
  fit.singular = theta == 0;
  fit.remlCriterion = profiledReml(*d, theta);
  fit.observations = static_cast<size_t>(d->x.rows());
  fit.participants = d->blocks.size();
  const Gls g = gls(*d, fit.participantVariance, fit.residualVariance);
  fit.coefficientNames = d->names;
  for (Eigen::Index k = 0; k < g.beta.size(); ++k) {
    fit.coefficients.push_back(g.beta(k));
    fit.standardErrors.push_back(std::sqrt(g.covariance(k, k)));
  }
  const Derivatives der = derivatives(*d, fit.participantVariance, fit.residualVariance, g);
  fit.covariance = flat(g.covariance);
  for (const MatrixXd& m : der.covarianceGradient) fit.covarianceGradient.push_back(flat(m));
  fit.parameterCovariance = flat(parameterCovariance(der, fit.singular));
  for (size_t c = 1; c < d->conditions; ++c)
    fit.conditionEffects.push_back(conditionDifference(fit, c, 0, d->names[c]));
  return fit;
}

}  // namespace

std::optional<MixedFit> fitMixedModel(const MixedData& data, std::string* why) {
  return fitAt(data, std::nullopt, why);
}

std::optional<MixedFit> fitGameLevelModel(const MixedData& data, std::string* why) {
  return fitAt(data, 0.0, why);
}

MixedContrast mixedContrast(const MixedFit& fit, std::span<const double> weights,
                            const std::string& name) {
  const size_t p = fit.coefficients.size();
  const Eigen::Map<const VectorXd> l(weights.data(), static_cast<Eigen::Index>(p));
  const Eigen::Map<const VectorXd> beta(fit.coefficients.data(), static_cast<Eigen::Index>(p));
  const MatrixXd c = unflat(fit.covariance, p);
  MixedContrast out;
  out.name = name;
  out.estimate = l.dot(beta);
  const double variance = l.dot(c * l);
  out.se = std::sqrt(variance);
  Eigen::Vector2d gradient;
  for (size_t k = 0; k < 2; ++k) gradient(k) = l.dot(unflat(fit.covarianceGradient[k], p) * l);
  const double denominator = gradient.dot(unflat(fit.parameterCovariance, 2) * gradient);
  out.df = denominator > 0 ? 2 * variance * variance / denominator : INFINITY;
  out.t = out.se > 0 ? out.estimate / out.se : NAN;
  out.p = std::isfinite(out.df) ? studentTwoSidedP(out.t, out.df)
                                : 2 * normalUpperTail(std::abs(out.t));
  const double half = tQuantile975(out.df) * out.se;
  out.low = out.estimate - half;
  out.high = out.estimate + half;
  return out;
}

std::optional<MixedContrast> mixedCoefficient(const MixedFit& fit, const std::string& name) {
  const auto at = std::find(fit.coefficientNames.begin(), fit.coefficientNames.end(), name);
  if (at == fit.coefficientNames.end()) return std::nullopt;
  std::vector<double> weights(fit.coefficients.size(), 0.0);
  weights[static_cast<size_t>(at - fit.coefficientNames.begin())] = 1;
  return mixedContrast(fit, weights, name);
}

MixedContrast conditionDifference(const MixedFit& fit, size_t first, size_t second,
                                  const std::string& name) {
  std::vector<double> weights(fit.coefficients.size(), 0.0);
  if (first > 0) weights.at(first) += 1;
  if (second > 0) weights.at(second) -= 1;
  return mixedContrast(fit, weights, name);
}

}  // namespace ddalab
