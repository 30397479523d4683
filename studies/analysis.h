#pragma once
// The analysis of a user study's sessions (docs/user-study.md): what participants answered under
// each condition, whether conditions differ within participants, which computed fun metrics go
// with which answers, whether participants noticed the manipulation, and the coefficients of F
// fitted to what they said they enjoyed. The sessions are read by read_sessions.h; the results
// are written by analysis_files.h and printed by analysis_report.h.
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "results/statistics.h"
#include "studies/mixed_model.h"
#include "studies/participant_fit.h"
#include "studies/read_sessions.h"

namespace ddalab {

struct StudyAnalysis {
  // An item's answers under one condition: mean over the games, 95 % t interval over the
  // participants' means.
  struct ItemMean {
    std::string condition, item;
    double mean = 0, low = 0, high = 0;
    size_t games = 0, participants = 0;
  };
  // Two conditions compared within participants on one item (Wilcoxon signed-rank on the
  // participants' means, Holm over every exploratory pair and item): the nonparametric check.
  struct Comparison {
    std::string item, first, second;
    double meanDifference = 0;  // first minus second, over the participants' means
    WilcoxonTest test;
    double holmP = 1;      // the primary test's own p (unadjusted)
    bool primary = false;  // the protocol's pre-registered test
  };
  // The primary analysis of one item: answer ~ condition + period + (1 | participant) by REML
  // (period: the game's position in its round of one game per condition).
  struct MixedItem {
    std::string item;
    double participantVariance = NAN, residualVariance = NAN, remlCriterion = NAN;
    bool singular = false, withPeriod = true;
    std::string failure;  // why no model was fitted ("" when one was)
    // With a covariate (StudyCovariate): its coefficient per unit, and the participants the
    // model holds (those with a value).
    std::optional<MixedContrast> covariate;
    size_t participants = 0;
  };
  // Two conditions compared by the item's mixed model (first minus second, Satterthwaite df),
  // Holm over every exploratory pair and item; the pre-registered one alone and unadjusted.
  struct MixedComparison {
    std::string item, first, second;
    MixedContrast contrast;
    double holmP = 1;
    bool primary = false;
  };
  // A computed metric against an item over the games (Spearman), its 95 % interval from a
  // bootstrap of the participants (each drawn participant brings all its games).
  struct Correlation {
    std::string metric, item;
    double rho = 0, low = 0, high = 0;
    size_t games = 0, participants = 0;
  };
  // Whether the manipulation was noticed: the share of games whose "seemed manipulated" answer
  // is above the scale's midpoint, beside the game's believability metric and the decile test
  // of the outcomes dealt to the participant's seat.
  struct Noticed {
    std::string condition;
    size_t games = 0;
    double rateAbove = 0, rateLow = 0, rateHigh = 0;  // Wilson 95 % interval
    double believability = 0;                         // mean of the metric
    double decilesP = 1;                              // NaN: too few outcomes
  };

  // A subscale's internal consistency: Cronbach's alpha over every answered questionnaire (its
  // items scored, reversed where marked), with a 95 % percentile interval from a bootstrap that
  // resamples participants (each answers after every game: questionnaires are not independent).
  struct Reliability {
    std::string subscale, instrument;
    size_t items = 0, questionnaires = 0, participants = 0;
    double alpha = 0, low = 0, high = 0;  // NaN when undefined (one item, no variance)
  };

  std::string protocol;
  // The questionnaire's items in its order, then one per subscale (the mean of its items, scored),
  // analysed alike in the means, comparisons and correlations.
  std::vector<StudyItem> items;
  std::vector<Reliability> reliability;
  size_t participants = 0, games = 0;
  std::vector<ItemMean> means;
  std::vector<Comparison> comparisons;
  std::vector<MixedItem> mixedItems;
  // The mixed model's covariate ("" none) and the participants left out for want of its value.
  std::string covariate;
  size_t covariateLeftOut = 0;
  std::vector<MixedComparison> mixedComparisons;
  StudyAnalysisPlan plan;  // the protocol's pre-registration (alpha, primary test)
  std::vector<Correlation> correlations;
  std::string manipulationItem;  // the item asked for "seemed manipulated" ("" when none)
  std::vector<Noticed> noticed;
  // The ridge regression of the enjoyment item (the first item when there is none called so) on
  // the standardized metrics with participants as the unit (participant_fit.h), and its weights
  // per unit of each metric, signed as F uses them: the coefficients an experiment can use.
  std::string fittedItem;
  ParticipantRidge ridge;
  std::vector<std::string> fittedMetrics;
  Json coefficients = Json::object();
  // Whether the fit beat the constant model by the margin (kFitMargin), and why (or why not).
  bool fitReliable = false;
  std::string fitVerdict;
  std::vector<std::string> notes;
  std::string flow;  // SessionFlow::text() of the sessions read
};

// "" when the protocol has two conditions or more; else why its conditions cannot be compared:
// one condition (the analysis reports descriptives and reliability only; validate warns of it).
std::string nothingToCompare(const StudyProtocol& protocol);

// A participant-level covariate of the mixed model (the skill from participant_ratings.h): one
// value per session of the study, in session order; none leaves that participant out of the model.
struct StudyCovariate {
  std::string name;
  std::vector<std::optional<double>> values;
};

// Analyzes every answered game of the sessions; `seed` drives the bootstrap and the folds. Without
// `full`, only the means and the within-participant comparisons (what a power analysis needs).
// With `covariate`, every item's mixed model is answer ~ condition + period + covariate +
// (1 | participant) over the participants with a value.
StudyAnalysis analyzeStudy(const StudySessions& study, uint64_t seed = 0x5713ull, bool full = true,
                           const StudyCovariate* covariate = nullptr);

// A batch of one comparison that plays each of the protocol's conditions with an AI in the
// participant's seat, and a row "<protocol>/fitted": the first condition that steers (not
// e-random) with `coefficients`; `iterations` games a row, the protocol's seed. A non-empty
// `unreliable` (why the fit did not beat the constant model) goes in as "unreliable_fit".
Json fittedBatch(const StudyProtocol& protocol, const Json& coefficients, int iterations,
                 const std::string& unreliable = "");

// Cronbach's alpha of `rows` (one per respondent, one value per item): k / (k - 1) (1 - sum of the
// items' variances / variance of the sum); NaN for fewer than 2 items or 2 rows, or no variance.
double cronbachAlpha(const std::vector<std::vector<double>>& rows);
// Its percentile interval at `level` from `replicates` bootstrap samples of whole clusters
// (`cluster[r]`: the participant of row r), seeded by `rng`.
std::pair<double, double> cronbachAlphaInterval(const std::vector<std::vector<double>>& rows,
                                                std::span<const size_t> cluster, double level,
                                                int replicates, Rng& rng);

// `v` with `digits` decimals, "-" for NaN: how the analysis's texts (the fit's verdict, the report)
// show a number.
std::string analysisDecimals(double v, int digits);

}  // namespace ddalab
