#pragma once
// The power of a study's design under the mixed model its analysis fits:
// answers are drawn from
//     answer = midpoint + participant + planted(condition) + period step x period + residual,
// participant ~ N(0, participantSd), residual ~ N(0, residualSd), rounded and clamped to the
// item's scale, for the protocol's own plan (conditions, games per condition, order rows, period
// as the analysis defines it); each simulated study is fitted by answer ~ condition + period +
// (1 | participant) (studies/mixed_model.h) and its primary contrast tested as the analysis tests
// it. No game is played: thousands of studies take seconds (docs/user-study.md, "Power").
#include <string>
#include <vector>

#include "studies/protocol.h"
#include "studies/simulate.h"

namespace ddalab {

struct PowerModel {
  int participants = 12;
  uint64_t seed = 1;
  // In the tested item's scale points; NaN: the default for its scale (defaultParticipantSd,
  // defaultResidualSd).
  double participantSd = NAN, residualSd = NAN;
  double periodStep = 0;  // points added per period (0 for the first game of a round)
  std::vector<PlantedEffect> effects;
};

// The defaults (docs/user-study.md, "Power"): 0.15 of the scale's range each (0.9 points on 1-7,
// 0.6 on 0-4, 15 on 0-100): a total SD of 0.21 of the range, half of it between participants.
double defaultParticipantSd(const StudyItem& item);
double defaultResidualSd(const StudyItem& item);

// One contrast's rejections over the simulated studies.
struct ModelPowerRow {
  std::string first, second;
  double planted = 0;  // first minus second, in scale points
  size_t rejected = 0, repetitions = 0;
  double rate = 0, low = 0, high = 0;  // Wilson 95 % interval
};
struct ModelPower {
  std::string item;  // the tested item: the primary one, else the first planted, else the first
  bool preregistered = false;  // the contrast is the protocol's primary (alone, unadjusted)
  double participantSd = 0, residualSd = 0, alpha = 0.05;
  // The primary contrast, or each condition against the first (Holm over them).
  std::vector<ModelPowerRow> rows;
};

// Throws InputError naming the option for a negative or non-finite SD, fewer than 2 participants.
void checkPowerModel(const PowerModel& model);

// Throws InputError (--power) with nothingToCompare's reason (studies/analysis.h) when there is
// one: a power analysis of one condition has nothing to compare.
void checkSomethingToCompare(const StudyProtocol& protocol);

// How often the contrasts are rejected over `repetitions` studies drawn from `model` (seeded).
// InputError (--power) for a protocol with nothing to compare.
ModelPower modelPower(const StudyProtocol& protocol, const PowerModel& model, int repetitions);

// The smallest effect (in scale points, planted on the first row's first condition over any
// planted effects) that the first row rejects in `target` of `repetitions` studies: bisection
// over [0, the scale's range] with the same seeds at every step (common random numbers), to
// `precision` points. NaN when even the whole range falls short. InputError (--power) for a
// protocol with nothing to compare.
struct DetectableEffect {
  double effect = NAN, precision = 0;
  ModelPowerRow atEffect;  // the power evaluated at `effect`
};
DetectableEffect minimumDetectableEffect(const StudyProtocol& protocol, const PowerModel& model,
                                         int repetitions, double target = 0.8,
                                         double precision = 0.01);

// The fewest participants whose exact Wilcoxon check (minimum two-sided p 2/2^n) can reach the
// protocol's alpha after Holm over its exploratory tests (the primary test alone, unadjusted).
int participantsForWilcoxon(const StudyProtocol& protocol);
// A one-line warning when `participants` cannot make the study's tests significant ("" when they
// can or there is nothing to compare), naming the number needed.
std::string designWarning(const StudyProtocol& protocol, size_t participants);

// A line for validate and analyze: the minimum detectable effect (80 % power) of the mixed model
// for `participants`, at the default variances, on the item and contrast the power analysis
// tests; it starts "WARNING:" when that effect is above a sixth of the item's scale range (or the
// design detects nothing) and more participants are needed; nothingToCompare's warning for a
// protocol of one condition.
std::string mixedModelDesignNote(const StudyProtocol& protocol, size_t participants);

}  // namespace ddalab
