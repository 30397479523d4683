#pragma once
// The primary analysis of a user study's condition comparison: a linear mixed model with
// one random intercept per participant,
//     answer ~ condition + period + (1 | participant),
// optionally with one numeric covariate as a fixed effect (answer ~ condition + period + skill +
// (1 | participant): a participant's rating, studies/participant_ratings.h),
// fitted by REML, with Satterthwaite's degrees of freedom for each contrast as lmerTest computes
// them. Checked against R's lme4 + lmerTest on the data sets in tests/studies/data/
// (tests/studies/lme4_reference.R).
//
// Factors use treatment coding: the first level of `conditions` (and of `periods`) is the
// reference, as R's lm/lmer code a factor whose levels are given in that order.
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ddalab {

// One answer: the participant who gave it, the indices of its condition and period level.
struct MixedObservation {
  size_t participant = 0;
  size_t condition = 0;
  size_t period = 0;
  double answer = 0;
  double covariate = 0;  // the covariate's value (used when MixedData::covariate is named)
};

// A study's answers in long form with the names of the factors' levels (first = reference).
struct MixedData {
  std::vector<std::string> participants, conditions, periods;
  std::vector<MixedObservation> observations;
  std::string covariate = "";  // "" none; else the covariate's name, its column after the periods'
};

// A linear combination of the fixed effects tested against 0 (t with Satterthwaite's df).
struct MixedContrast {
  std::string name;
  double estimate = 0, se = 0, df = 0, t = 0, p = 1, low = 0, high = 0;  // 95 % interval
};

struct MixedFit {
  // "(Intercept)", "condition<level>", "period<level>", then the covariate's name (if any)
  std::vector<std::string> coefficientNames;
  std::vector<double> coefficients, standardErrors;
  double participantVariance = 0, residualVariance = 0;
  double remlCriterion = 0;  // -2 REML log-likelihood, as lme4's "REML criterion at convergence"
  bool singular = false;     // the participant variance is estimated at its boundary 0
  size_t observations = 0, participants = 0;
  // Each non-reference condition against the reference (coefficient order), Satterthwaite df.
  std::vector<MixedContrast> conditionEffects;
  // The covariance of the fixed effects and what Satterthwaite's df need (private to the fit).
  std::vector<double> covariance;                       // p x p, row-major
  std::vector<std::vector<double>> covarianceGradient;  // d cov / d variance parameter (p x p each)
  std::vector<double> parameterCovariance;              // 2 H^-1 over the variance parameters
};

// The REML fit of answer ~ condition + period + (1 | participant); nullopt with `why` set when the
// model cannot be fitted (fewer observations than coefficients, condition and period confounded,
// a covariate that does not vary or is confounded with them, no variation). Periods with one
// level or none are left out of the model.
std::optional<MixedFit> fitMixedModel(const MixedData& data, std::string* why = nullptr);

// answer ~ condition + period by least squares with every answer independent (the participant
// ignored, df = answers - coefficients): the game-level analysis, kept to show what it gets wrong.
std::optional<MixedFit> fitGameLevelModel(const MixedData& data, std::string* why = nullptr);

// The contrast `weights` (one per coefficient) of a fit: estimate, SE, Satterthwaite df, t, p, CI.
MixedContrast mixedContrast(const MixedFit& fit, std::span<const double> weights,
                            const std::string& name);

// The coefficient `name` (one of fit.coefficientNames) tested against 0; none when the fit has
// no such coefficient.
std::optional<MixedContrast> mixedCoefficient(const MixedFit& fit, const std::string& name);

// Condition `first` minus condition `second` (indices into data.conditions) of a fit of `data`.
MixedContrast conditionDifference(const MixedFit& fit, size_t first, size_t second,
                                  const std::string& name);

// Reads a long table with the columns participant, condition, period, answer (any order, others
// ignored, a header row, RFC 4180 quoting); levels in order of first appearance, periods sorted as
// numbers. With a column item, only the rows of `item` (required when it holds several). A
// non-empty `covariate` names a numeric column taken as the model's covariate, as it is (no
// centring: R's lmer sees the same column). Throws InputError naming the file, line and column of
// anything unreadable.
MixedData readMixedCsv(const std::string& file, const std::string& item = "",
                       const std::string& covariate = "");

// The fit as CSV (what `ddalab study mixed-model` prints, full precision): a row per coefficient
// (term,estimate,se,df,t,p,ci95_low,ci95_high; Satterthwaite df as lmerTest's summary gives them),
// then var_participant, var_residual and reml_criterion with their value as estimate.
std::string mixedFitTable(const MixedFit& fit);

}  // namespace ddalab
