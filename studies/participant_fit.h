#pragma once
// Participants as the unit of a study's metric-answer statistics (docs/user-study.md
// "Fits that are never written from noise"): a participant's games share that participant's
// leanings, so intervals resample participants (cluster bootstrap) and cross-validation holds out
// whole participants. A game-level resample or fold treats 6 games of one person as 6 people.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "results/statistics.h"

namespace ddalab {

// Which participant each observation belongs to: participant[i] in 0 .. count - 1.
struct Participants {
  std::span<const size_t> of;
  size_t count = 0;
  // The observations of each participant, in order.
  std::vector<std::vector<size_t>> groups() const;
};

// A percentile `level` interval of spearman(x, y) over `replicates` resamples of the participants
// with replacement, each drawn participant bringing all its observations; {-1, 1} for fewer than
// 3 participants (nothing to resample that could say more).
std::pair<double, double> participantSpearmanInterval(std::span<const double> x,
                                                      std::span<const double> y,
                                                      const Participants& participants,
                                                      double level, int replicates, Rng& rng);

// A fit counts as better than the constant model when its nested cross-validated RMSE is at least
// kFitMargin below the constant's (1 - 0.95^2: it explains at least ~10 % of the held-out
// participants' answer variance) and the 95 % participant-bootstrap interval of the constant's MSE
// minus the fit's lies above 0 (the gain is not one lucky split of a few people).
inline constexpr double kFitMargin = 0.05;
// The fewest participants a fit is attempted with. Nested cross-validation needs 3 (an outer
// fold to hold out, two inner folds among the rest), but a bootstrap of fewer than 6 clusters
// gives intervals far too narrow (its percentile interval acts like +-1.96 se where t with 3 df
// needs +-3.18), so the verdict itself would be noise; 6 is also two full Latin squares of a
// 3-condition protocol.
inline constexpr size_t kFitMinParticipants = 6;

// The ridge regression of y on the columns of x with participants as the unit.
struct ParticipantRidge {
  // On every observation with the penalty that predicts held-out participants best (whole
  // participants left out; min(5, participants) folds).
  RidgeFit fit;
  double selectionRmse = 0;  // that selection's minimum: optimistic, shown for comparison only
  // Nested cross-validation: each outer fold's participants are predicted by a fit whose penalty
  // was chosen by an inner cross-validation over the other participants only.
  double nestedRmse = 0, constantRmse = 0;  // the constant: the training participants' mean
  std::vector<double> outerLambdas;         // the penalty each outer fold chose
  int folds = 0;
  // 95 % participant-bootstrap interval of (constant MSE - fit MSE) of the nested predictions.
  double gainLow = 0, gainHigh = 0;
  // 95 % participant-bootstrap interval of each standardized weight (refits at fit.lambda).
  std::vector<std::pair<double, double>> weightIntervals;
  // nestedRmse <= (1 - kFitMargin) constantRmse and gainLow > 0.
  bool beatsConstant = false;
  double relativeGain() const { return constantRmse > 0 ? 1 - nestedRmse / constantRmse : 0; }
};
// Needs at least 3 participants (throws std::invalid_argument below); `seed`
// drives the folds and the bootstraps (the same seed, the same result).
ParticipantRidge participantRidge(const std::vector<std::vector<double>>& x,
                                  std::span<const double> y, const Participants& participants,
                                  std::span<const double> lambdas, uint64_t seed);

}  // namespace ddalab
