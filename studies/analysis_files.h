#pragma once
// The files of a user study's analysis (docs/user-study.md): its tables as CSV, the fitted
// coefficients and the batch that plays them.
#include <filesystem>

#include "studies/analysis.h"
#include "studies/participant_ratings.h"

namespace ddalab {

// <dir>/study-means.csv, study-mixed.csv, study-comparisons.csv, study-correlations.csv,
// study-noticed.csv, study-ridge.csv and fitted-coefficients.json (an experiment's "coefficients",
// the penalty, both nested CV errors, the margin and the verdict), and fitted-batch.json
// (fittedBatch at 500 games a row) when the fit is reliable, or when `writeUnreliableFit` and there
// is a fit: then marked "unreliable_fit", which ddalab run refuses. A fitted-batch.json of an
// earlier analysis that is not rewritten is removed (a runnable file must be this analysis's).
// With `ratings` (`--ratings`), participants_ratings.csv (a row per participant: participant,
// rated, rating, se, low, high, games, score, wins, draws, losses, prior_mean, prior_sd; the
// rating's cells empty when rated is 0); with a covariate in the analysis, study-covariate.csv
// (a row per item: item, covariate, estimate, se, df, t, p, ci95_low, ci95_high, participants,
// left_out). Either file of an earlier analysis that is not rewritten is removed.
// Returns whether it wrote fitted-batch.json.
bool writeStudyAnalysis(const std::filesystem::path& dir, const StudyAnalysis& analysis,
                        const StudyProtocol& protocol, bool writeUnreliableFit = false,
                        const ParticipantRatings* ratings = nullptr);

}  // namespace ddalab
