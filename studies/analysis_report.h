#pragma once
// A user study's analysis as a terminal shows it (`ddalab study analyze`).
#include <iosfwd>

#include "studies/analysis.h"

namespace ddalab {

// The tables writeStudyAnalysis writes (analysis_files.h), for a terminal.
void printStudyAnalysis(std::ostream& out, const StudyAnalysis& analysis);

}  // namespace ddalab
