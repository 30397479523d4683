#include "studies/analysis_report.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace ddalab {

namespace {

const char* role(bool primary) {
  return primary ? "PRIMARY " : "";
}

void printMixedRow(std::ostream& out, const StudyAnalysis::MixedComparison& c, double alpha) {
  const MixedContrast& m = c.contrast;
  out << "  " << std::left << std::setw(14) << c.item << role(c.primary) << c.first << " - "
      << c.second << std::right << ": " << analysisDecimals(m.estimate, 2) << " ["
      << analysisDecimals(m.low, 2) << ", " << analysisDecimals(m.high, 2) << "], SE "
      << analysisDecimals(m.se, 3) << ", df " << analysisDecimals(m.df, 1) << ", p "
      << analysisDecimals(m.p, 4) << (c.primary ? "" : ", Holm " + analysisDecimals(c.holmP, 4))
      << (c.holmP < alpha ? "  *" : "") << "\n";
}

// The covariate's coefficient in each item's model, and who the models leave out.
void printCovariate(std::ostream& out, const StudyAnalysis& a) {
  if (a.covariate.empty()) return;
  out << "  " << a.covariate << " (the participant's rating, centred, per 100 Elo): "
      << a.covariateLeftOut << " participant" << (a.covariateLeftOut == 1 ? "" : "s")
      << " without a rated game left out of these models\n";
  for (const auto& m : a.mixedItems)
    if (m.covariate)
      out << "  " << std::left << std::setw(14) << m.item << std::right << a.covariate << " "
          << analysisDecimals(m.covariate->estimate, 3) << " ["
          << analysisDecimals(m.covariate->low, 3) << ", " << analysisDecimals(m.covariate->high, 3)
          << "] points per 100 Elo, p " << analysisDecimals(m.covariate->p, 4) << ", "
          << m.participants << " participants\n";
}

// The primary analysis: the pre-registered test alone, then every other contrast (exploratory).
void printMixed(std::ostream& out, const StudyAnalysis& a) {
  const auto primary = std::find_if(a.mixedComparisons.begin(), a.mixedComparisons.end(),
                                    [](const auto& c) { return c.primary; });
  if (primary != a.mixedComparisons.end()) {
    out << "\nPrimary test (pre-registered in the protocol; unadjusted, alpha " << a.plan.alpha
        << ")\n";
    printMixedRow(out, *primary, a.plan.alpha);
  } else if (!a.plan.primaryItem.empty()) {
    out << "\nPrimary test (" << a.plan.primaryItem << "): no mixed model, see the notes\n";
  }
  out << "\nConditions compared: linear mixed model answer ~ condition + period + "
      << (a.covariate.empty() ? "" : a.covariate + " + ")
      << "(1 | participant), REML, Satterthwaite df, 95 % CI"
      << (primary != a.mixedComparisons.end() ? "; the rest exploratory, Holm"
                                              : "; exploratory, Holm")
      << "\n";
  for (const auto& m : a.mixedItems)
    if (m.failure.empty())
      out << "  " << std::left << std::setw(14) << m.item << std::right << "participant variance "
          << analysisDecimals(m.participantVariance, 3) << (m.singular ? " (singular fit)" : "")
          << ", residual " << analysisDecimals(m.residualVariance, 3)
          << (m.withPeriod ? "" : ", no period") << "\n";
  printCovariate(out, a);
  for (const auto& c : a.mixedComparisons)
    if (!c.primary) printMixedRow(out, c, a.plan.alpha);
}

}  // namespace

void printStudyAnalysis(std::ostream& out, const StudyAnalysis& a) {
  out << "Study " << a.protocol << ": " << a.participants << " participants, " << a.games
      << " answered games\n";
  if (!a.flow.empty()) out << "  participants: " << a.flow << "\n";
  for (const std::string& note : a.notes) out << "  note: " << note << "\n";
  out << "\nAnswers per condition (mean over games, 95 % interval over participants' means)\n";
  for (const auto& m : a.means)
    out << "  " << std::left << std::setw(24) << m.condition << std::setw(14) << m.item
        << std::right << std::setw(7) << analysisDecimals(m.mean, 2) << "  ["
        << analysisDecimals(m.low, 2) << ", " << analysisDecimals(m.high, 2) << "]  " << m.games
        << " games\n";
  const bool compared = !a.mixedItems.empty();  // none: one condition (a note says so)
  if (compared) {
    printMixed(out, a);
    out << "\nWithin participants, the nonparametric check (Wilcoxon signed-rank on "
           "participants' means; exploratory: Holm)\n";
  }
  for (const auto& c : a.comparisons)
    out << "  " << std::left << std::setw(14) << c.item << role(c.primary) << c.first << " - "
        << c.second << std::right << ": " << analysisDecimals(c.meanDifference, 2) << ", W+ "
        << analysisDecimals(c.test.plus, 1) << " of n " << c.test.n << ", p "
        << analysisDecimals(c.test.p, 4) << (c.test.exact ? " exact" : "") << ", Holm "
        << analysisDecimals(c.holmP, 4) << ", r " << analysisDecimals(c.test.effect, 2)
        << (c.holmP < a.plan.alpha ? "  *" : "") << "\n";
  out << "\nMetrics against answers (Spearman over games, 95 % interval by a bootstrap of the "
         "participants)\n";
  for (const auto& c : a.correlations)
    out << "  " << std::left << std::setw(16) << c.metric << std::setw(14) << c.item << std::right
        << std::setw(7) << analysisDecimals(c.rho, 2) << "  [" << analysisDecimals(c.low, 2) << ", "
        << analysisDecimals(c.high, 2) << "]" << (c.low > 0 || c.high < 0 ? "  *" : "") << "\n";
  if (!a.noticed.empty()) {
    out << "\nNoticed: '" << a.manipulationItem << "' above the midpoint, the believability "
        << "metric, the deciles of the participant's outcomes\n";
    for (const auto& n : a.noticed)
      out << "  " << std::left << std::setw(24) << n.condition << std::right
          << analysisDecimals(100 * n.rateAbove, 0) << " % ["
          << analysisDecimals(100 * n.rateLow, 0) << ", " << analysisDecimals(100 * n.rateHigh, 0)
          << "] of " << n.games << " games, believability " << analysisDecimals(n.believability, 2)
          << ", deciles p " << analysisDecimals(n.decilesP, 4)
          << (n.decilesP < 0.05 ? " (detected)" : "") << "\n";
  }
  if (!a.reliability.empty()) {
    out << "\nReliability of the subscales (Cronbach's alpha over the questionnaires, 95 % "
           "interval from a bootstrap of participants)\n";
    for (const auto& r : a.reliability)
      out << "  " << std::left << std::setw(28) << r.subscale << std::right << "alpha "
          << analysisDecimals(r.alpha, 2) << "  [" << analysisDecimals(r.low, 2) << ", "
          << analysisDecimals(r.high, 2) << "]  " << r.items << " items, " << r.questionnaires
          << " questionnaires\n";
  }
  if (!a.fittedMetrics.empty()) {
    out << "\nFitted coefficients (ridge regression of " << a.fittedItem << " on the games' "
        << "metrics, penalty " << a.ridge.fit.lambda << " by cross-validation over participants; "
        << a.fitVerdict << ")\n";
    out << "  " << (a.fitReliable ? "" : "UNRELIABLE, not for use: ")
        << "\"coefficients\": " << a.coefficients.dump() << "\n";
  }
}
void printParticipantRatings(std::ostream& out, const ParticipantRatings& r) {
  out << "\nParticipants on the AI's scale (" << r.file << "; Elo, posterior mode under the prior N("
      << analysisDecimals(r.priorMean, 0) << ", " << analysisDecimals(r.priorSd, 0) << "^2)"
      << (r.priorMeanGiven ? "" : ": the mean rating of the rated AI seats") << ", "
      << analysisDecimals(100 * r.confidence, 0) << " % interval)\n";
  for (const RatedSeat& seat : r.seats)
    out << "  seat " << seat.seat << " " << seat.player << ": "
        << (seat.entrant ? "entrant '" + seat.entrant->name + "' rated " +
                               analysisDecimals(seat.entrant->rating, 0)
                         : std::string("not in the file, left out"))
        << "\n";
  std::string rated;
  for (const std::string& c : r.rated) rated += (rated.empty() ? "" : ", ") + c;
  out << "  rated from the games of: " << rated << " (--rating-conditions "
      << ratedConditionsName(r.used) << ")\n";
  for (const std::string& c : r.leftOut) out << "  left out: " << c << "\n";
  for (const ParticipantRating& p : r.participants) {
    out << "  " << std::left << std::setw(16) << p.participant << std::right;
    if (!p.rating) {
      out << "no rated game\n";
      continue;
    }
    out << std::setw(6) << analysisDecimals(p.rating->rating, 0) << "  ["
        << analysisDecimals(p.rating->interval.low, 0) << ", "
        << analysisDecimals(p.rating->interval.high, 0) << "]  " << p.wins << " won, " << p.draws
        << " drawn, " << p.losses << " lost\n";
  }
  if (r.unrated() > 0)
    out << "  " << r.unrated() << " participant" << (r.unrated() == 1 ? "" : "s")
        << " without a rated game\n";
}

}  // namespace ddalab
