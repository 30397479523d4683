#include "studies/participant_fit.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace ddalab {

std::vector<std::vector<size_t>> Participants::groups() const {
  std::vector<std::vector<size_t>> groups(count);
  for (size_t i = 0; i < of.size(); ++i) groups.at(of[i]).push_back(i);
  return groups;
}

namespace {

// `count` participants drawn with replacement.
std::vector<size_t> drawParticipants(size_t count, Rng& rng) {
  std::vector<size_t> drawn(count);
  for (size_t& p : drawn) p = rng.below(static_cast<uint32_t>(count));
  return drawn;
}

// The observations of the participants `chosen` (a participant drawn twice brings its games twice).
std::vector<size_t> observationsOf(const std::vector<std::vector<size_t>>& groups,
                                   std::span<const size_t> chosen) {
  std::vector<size_t> rows;
  for (size_t p : chosen) rows.insert(rows.end(), groups[p].begin(), groups[p].end());
  return rows;
}

struct Rows {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
};
Rows rowsOf(const std::vector<std::vector<double>>& x, std::span<const double> y,
            std::span<const size_t> rows) {
  Rows r;
  for (size_t i : rows) {
    r.x.push_back(x[i]);
    r.y.push_back(y[i]);
  }
  return r;
}

// The participants `members` split into min(5, size) folds by a shuffle: fold k's participants.
std::vector<std::vector<size_t>> participantFolds(std::vector<size_t> members, Rng& rng) {
  for (size_t i = members.size(); i > 1; --i)
    std::swap(members[i - 1], members[rng.below(static_cast<uint32_t>(i))]);
  std::vector<std::vector<size_t>> folds(std::min<size_t>(5, members.size()));
  for (size_t k = 0; k < members.size(); ++k) folds[k % folds.size()].push_back(members[k]);
  return folds;
}

// Every member not in fold `k`.
std::vector<size_t> trainingOf(const std::vector<std::vector<size_t>>& folds, size_t k) {
  std::vector<size_t> train;
  for (size_t f = 0; f < folds.size(); ++f)
    if (f != k) train.insert(train.end(), folds[f].begin(), folds[f].end());
  return train;
}

struct Selection {
  double lambda = 1, rmse = INFINITY;
};
// The penalty of `lambdas` whose fits on the other folds predict each fold of `members` best.
Selection chooseLambda(const std::vector<std::vector<double>>& x, std::span<const double> y,
                       const std::vector<std::vector<size_t>>& groups,
                       const std::vector<size_t>& members, std::span<const double> lambdas,
                       Rng& rng) {
  const auto folds = participantFolds(members, rng);
  Selection best;
  for (double lambda : lambdas) {
    double squares = 0;
    size_t n = 0;
    for (size_t k = 0; k < folds.size(); ++k) {
      const Rows train = rowsOf(x, y, observationsOf(groups, trainingOf(folds, k)));
      const RidgeFit fit = ridgeRegression(train.x, train.y, lambda);
      for (size_t i : observationsOf(groups, folds[k])) {
        squares += std::pow(y[i] - fit.predict(x[i]), 2);
        ++n;
      }
    }
    const double rmse = n ? std::sqrt(squares / static_cast<double>(n)) : INFINITY;
    if (rmse < best.rmse) best = {lambda, rmse};
  }
  return best;
}

// Per participant, the squared errors of the nested predictions (fit and constant).
struct NestedErrors {
  std::vector<double> fit, constant, games;
  std::vector<double> lambdas;
};
NestedErrors nestedErrors(const std::vector<std::vector<double>>& x, std::span<const double> y,
                          const std::vector<std::vector<size_t>>& groups,
                          std::span<const double> lambdas, Rng& rng, int& folds) {
  std::vector<size_t> everyone(groups.size());
  std::iota(everyone.begin(), everyone.end(), size_t{0});
  const auto outer = participantFolds(everyone, rng);
  folds = static_cast<int>(outer.size());
  NestedErrors e;
  e.fit.assign(groups.size(), 0.0);
  e.constant.assign(groups.size(), 0.0);
  e.games.assign(groups.size(), 0.0);
  for (size_t k = 0; k < outer.size(); ++k) {
    const std::vector<size_t> train = trainingOf(outer, k);
    const Selection inner = chooseLambda(x, y, groups, train, lambdas, rng);
    e.lambdas.push_back(inner.lambda);
    const Rows rows = rowsOf(x, y, observationsOf(groups, train));
    const RidgeFit fit = ridgeRegression(rows.x, rows.y, inner.lambda);
    for (size_t p : outer[k])
      for (size_t i : groups[p]) {
        e.fit[p] += std::pow(y[i] - fit.predict(x[i]), 2);
        e.constant[p] += std::pow(y[i] - fit.intercept, 2);  // the training mean
        e.games[p] += 1;
      }
  }
  return e;
}

double rmseOf(const std::vector<double>& squares, const std::vector<double>& games) {
  const double n = std::accumulate(games.begin(), games.end(), 0.0);
  return n > 0 ? std::sqrt(std::accumulate(squares.begin(), squares.end(), 0.0) / n) : 0.0;
}

constexpr int kReplicates = 1000;

// 95 % participant-bootstrap interval of (constant MSE - fit MSE).
std::pair<double, double> gainInterval(const NestedErrors& e, Rng& rng) {
  std::vector<double> gains;
  for (int r = 0; r < kReplicates; ++r) {
    double fit = 0, constant = 0, games = 0;
    for (size_t p : drawParticipants(e.games.size(), rng)) {
      fit += e.fit[p];
      constant += e.constant[p];
      games += e.games[p];
    }
    gains.push_back(games > 0 ? (constant - fit) / games : 0.0);
  }
  return percentileInterval(std::move(gains), 0.95);
}

// 95 % participant-bootstrap intervals of the standardized weights at `lambda`.
std::vector<std::pair<double, double>> weightIntervals(
    const std::vector<std::vector<double>>& x, std::span<const double> y,
    const std::vector<std::vector<size_t>>& groups, double lambda, Rng& rng) {
  const size_t k = x.empty() ? 0 : x.front().size();
  std::vector<std::vector<double>> weights(k);
  for (int r = 0; r < kReplicates; ++r) {
    const Rows rows = rowsOf(x, y, observationsOf(groups, drawParticipants(groups.size(), rng)));
    const RidgeFit fit = ridgeRegression(rows.x, rows.y, lambda);
    for (size_t j = 0; j < k; ++j) weights[j].push_back(fit.weights[j]);
  }
  std::vector<std::pair<double, double>> intervals;
  for (auto& w : weights) intervals.push_back(percentileInterval(std::move(w), 0.95));
  return intervals;
}

}  // namespace

std::pair<double, double> participantSpearmanInterval(std::span<const double> x,
                                                      std::span<const double> y,
                                                      const Participants& participants,
                                                      double level, int replicates, Rng& rng) {
  if (participants.count < 3) return {-1, 1};
  const auto groups = participants.groups();
  std::vector<double> rhos, xs, ys;
  for (int r = 0; r < replicates; ++r) {
    xs.clear();
    ys.clear();
    for (size_t i : observationsOf(groups, drawParticipants(participants.count, rng))) {
      xs.push_back(x[i]);
      ys.push_back(y[i]);
    }
    rhos.push_back(spearman(xs, ys));
  }
  return percentileInterval(std::move(rhos), level);
}

ParticipantRidge participantRidge(const std::vector<std::vector<double>>& x,
                                  std::span<const double> y, const Participants& participants,
                                  std::span<const double> lambdas, uint64_t seed) {
  if (participants.count < 3 || participants.of.size() != y.size())
    throw std::invalid_argument("participantRidge: fewer than 3 participants");
  const auto groups = participants.groups();
  Rng folds(seed), bootstrap(splitmix64(seed ^ 0xb007ull));
  std::vector<size_t> everyone(groups.size());
  std::iota(everyone.begin(), everyone.end(), size_t{0});
  ParticipantRidge r;
  const Selection selected = chooseLambda(x, y, groups, everyone, lambdas, folds);
  r.fit = ridgeRegression(x, y, selected.lambda);
  r.selectionRmse = selected.rmse;
  const NestedErrors e = nestedErrors(x, y, groups, lambdas, folds, r.folds);
  r.outerLambdas = e.lambdas;
  r.nestedRmse = rmseOf(e.fit, e.games);
  r.constantRmse = rmseOf(e.constant, e.games);
  std::tie(r.gainLow, r.gainHigh) = gainInterval(e, bootstrap);
  r.weightIntervals = weightIntervals(x, y, groups, selected.lambda, bootstrap);
  r.beatsConstant = r.nestedRmse <= (1 - kFitMargin) * r.constantRmse && r.gainLow > 0;
  return r;
}

}  // namespace ddalab
