#pragma once
// A user study's analysis as a terminal shows it (`ddalab study analyze`).
#include <iosfwd>

#include "studies/analysis.h"
#include "studies/participant_ratings.h"

namespace ddalab {

// The tables writeStudyAnalysis writes (analysis_files.h), for a terminal.
void printStudyAnalysis(std::ostream& out, const StudyAnalysis& analysis);
// The participants' ratings (`study analyze --ratings`): the prior, the rated AI seats, the
// conditions rated from and left out, each participant's rating with its interval and results.
void printParticipantRatings(std::ostream& out, const ParticipantRatings& ratings);

}  // namespace ddalab
