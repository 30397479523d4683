#pragma once
// The files of a user study's analysis (docs/user-study.md): its tables as CSV, the fitted
// coefficients and the batch that plays them.
#include <filesystem>

#include "studies/analysis.h"

namespace ddalab {

// <dir>/study-means.csv, study-mixed.csv, study-comparisons.csv, study-correlations.csv,
// study-noticed.csv, study-ridge.csv and fitted-coefficients.json (an experiment's "coefficients",
// the penalty, both nested CV errors, the margin and the verdict), and fitted-batch.json
// (fittedBatch at 500 games a row) when the fit is reliable, or when `writeUnreliableFit` and there
// is a fit: then marked "unreliable_fit", which ddalab run refuses. A fitted-batch.json of an
// earlier analysis that is not rewritten is removed (a runnable file must be this analysis's).
// Returns whether it wrote one.
bool writeStudyAnalysis(const std::filesystem::path& dir, const StudyAnalysis& analysis,
                        const StudyProtocol& protocol, bool writeUnreliableFit = false);

}  // namespace ddalab
