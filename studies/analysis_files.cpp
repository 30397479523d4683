#include "studies/analysis_files.h"

#include <algorithm>
#include <cmath>

#include "results/csv.h"
#include "core/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// A number in a table of the analysis; "" for NaN (a value that could not be computed).
std::string tableNumber(double v) {
  return std::isnan(v) ? "" : csvNumber(v);
}

// Removes `file` when it is a regular file (a table of an earlier analysis this one does not
// rewrite), so that a folder holds one analysis's tables.
void removeStaleTable(const fs::path& file) {
  std::error_code error;
  if (fs::is_regular_file(fs::symlink_status(file))) fs::remove(file, error);
}

std::string roleName(bool primary) {
  return primary ? "primary" : "exploratory";
}

// study-mixed.csv: a row per item and pair of conditions, with the item's variance components.
std::string mixedCsv(const StudyAnalysis& a) {
  std::string csv =
      "item,first,second,estimate,se,df,t,p,ci95_low,ci95_high,holm_p,role,participant_variance,"
      "residual_variance,singular,period_in_model\n";
  for (const auto& c : a.mixedComparisons) {
    const auto m = std::find_if(a.mixedItems.begin(), a.mixedItems.end(),
                                [&](const auto& i) { return i.item == c.item; });
    const MixedContrast& k = c.contrast;
    csv += c.item + "," + csvField(c.first) + "," + csvField(c.second);
    for (double v : {k.estimate, k.se, k.df, k.t, k.p, k.low, k.high, c.holmP}) {
      csv += ',';
      csv += tableNumber(v);
    }
    for (const std::string& field :
         {roleName(c.primary), tableNumber(m->participantVariance),
          tableNumber(m->residualVariance), std::string(m->singular ? "1" : "0"),
          std::string(m->withPeriod ? "1" : "0")}) {
      csv += ',';
      csv += field;
    }
    csv += '\n';
  }
  return csv;
}

// study-ridge.csv: each metric's standardized weight with its participant-bootstrap interval,
// its weight per unit and its coefficient of F.
void writeRidgeTable(const fs::path& dir, const StudyAnalysis& a) {
  std::string ridge = "metric,weight_standardized,ci95_low,ci95_high,weight_per_unit,coefficient\n";
  const std::vector<double> raw = a.ridge.fit.rawWeights();
  for (size_t k = 0; k < a.fittedMetrics.size(); ++k) {
    const std::string& key = a.fittedMetrics[k];
    ridge += key + "," + tableNumber(a.ridge.fit.weights[k]) + "," +
             tableNumber(a.ridge.weightIntervals[k].first) + "," +
             tableNumber(a.ridge.weightIntervals[k].second) + "," + tableNumber(raw[k]) + "," +
             (a.coefficients.contains(key) ? tableNumber(a.coefficients[key].get<double>()) : "0") +
             "\n";
  }
  writeFileAtomically(dir / "study-ridge.csv", ridge);
}

Json fittedJson(const StudyAnalysis& a) {
  const ParticipantRidge& r = a.ridge;
  Json fitted = {{"item", a.fittedItem},
                 {"verdict", a.fittedMetrics.empty() ? "no fit"
                             : a.fitReliable         ? "reliable"
                                                     : "unreliable"},
                 {"reason", a.fitVerdict},
                 {"margin",
                  {{"nested_cv_rmse_below_constant", kFitMargin},
                   {"bootstrap",
                    "the 95 % participant-bootstrap interval of the constant's MSE "
                    "minus the fit's lies above 0"}}},
                 {"coefficients", a.coefficients},
                 {"coefficient_units",
                  "answer scale points per unit of the metric, signed as F uses them (F = sum "
                  "c_k sign_k m_k); not rescaled"}};
  if (a.fittedMetrics.empty()) return fitted;
  fitted["lambda"] = r.fit.lambda;
  fitted["nested_cv_rmse"] = r.nestedRmse;
  fitted["constant_cv_rmse"] = r.constantRmse;
  fitted["relative_gain"] = r.relativeGain();
  fitted["mse_gain_ci95"] = {r.gainLow, r.gainHigh};
  fitted["selection_cv_rmse"] = r.selectionRmse;
  fitted["outer_fold_lambdas"] = r.outerLambdas;
  fitted["folds"] = r.folds;
  fitted["participants"] = a.participants;
  return fitted;
}

// fitted-coefficients.json always; fitted-batch.json as writeStudyAnalysis says.
bool writeFitFiles(const fs::path& dir, const StudyAnalysis& a, const StudyProtocol& protocol,
                   bool writeUnreliableFit) {
  writeRidgeTable(dir, a);
  writeFileAtomically(dir / "fitted-coefficients.json", fittedJson(a).dump(2) + "\n");
  const fs::path batch = dir / "fitted-batch.json";
  // Checked after every other file is written: a refusal loses nothing computed.
  if (const fs::file_status status = fs::symlink_status(batch);
      fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(batch.string(),
                     "is not a regular file (a link, a folder, ...); expected a regular file or "
                     "none: it is left as it is and no fitted batch is written");
  const bool write = !a.coefficients.empty() && (a.fitReliable || writeUnreliableFit);
  if (!write) {
    removeStaleTable(batch);
    return false;
  }
  writeFileAtomically(
      batch,
      fittedBatch(protocol, a.coefficients, 500, a.fitReliable ? "" : a.fitVerdict).dump(2) + "\n");
  return true;
}

// Appends ",cell" (appended in two steps: GCC 12 warns of a false overlap in "," + cell).
void appendCell(std::string& csv, const std::string& cell) {
  csv += ',';
  csv += cell;
}

std::string participantRatingsCsv(const ParticipantRatings& r) {
  std::string csv =
      "participant,rated,rating,se,low,high,games,score,wins,draws,losses,prior_mean,prior_sd\n";
  for (const ParticipantRating& p : r.participants) {
    csv += csvField(p.participant);
    appendCell(csv, p.rating ? "1" : "0");
    const std::optional<SingleRating>& s = p.rating;
    for (double v : {s ? s->rating : NAN, s ? s->se : NAN, s ? s->interval.low : NAN,
                     s ? s->interval.high : NAN})
      appendCell(csv, tableNumber(v));
    appendCell(csv, std::to_string(s ? s->games : 0));
    appendCell(csv, s ? tableNumber(s->score) : "");
    for (size_t count : {p.wins, p.draws, p.losses}) appendCell(csv, std::to_string(count));
    appendCell(csv, tableNumber(r.priorMean));
    appendCell(csv, tableNumber(r.priorSd));
    csv += '\n';
  }
  return csv;
}

std::string covariateCsv(const StudyAnalysis& a) {
  std::string csv = "item,covariate,estimate,se,df,t,p,ci95_low,ci95_high,participants,left_out\n";
  for (const auto& m : a.mixedItems) {
    if (!m.covariate) continue;
    const MixedContrast& k = *m.covariate;
    csv += m.item;
    appendCell(csv, csvField(a.covariate));
    for (double v : {k.estimate, k.se, k.df, k.t, k.p, k.low, k.high})
      appendCell(csv, tableNumber(v));
    appendCell(csv, std::to_string(m.participants));
    appendCell(csv, std::to_string(a.covariateLeftOut));
    csv += '\n';
  }
  return csv;
}

void writeRatingTables(const fs::path& dir, const StudyAnalysis& a,
                       const ParticipantRatings* ratings) {
  if (ratings)
    writeFileAtomically(dir / "participants_ratings.csv", participantRatingsCsv(*ratings));
  else
    removeStaleTable(dir / "participants_ratings.csv");
  if (!a.covariate.empty())
    writeFileAtomically(dir / "study-covariate.csv", covariateCsv(a));
  else
    removeStaleTable(dir / "study-covariate.csv");
}

}  // namespace

bool writeStudyAnalysis(const fs::path& dir, const StudyAnalysis& a, const StudyProtocol& protocol,
                        bool writeUnreliableFit, const ParticipantRatings* ratings) {
  fs::create_directories(dir);
  writeRatingTables(dir, a, ratings);
  std::string means = "condition,item,mean,ci95_low,ci95_high,games,participants\n";
  for (const auto& m : a.means)
    means += csvField(m.condition) + "," + m.item + "," + tableNumber(m.mean) + "," +
             tableNumber(m.low) + "," + tableNumber(m.high) + "," + std::to_string(m.games) + "," +
             std::to_string(m.participants) + "\n";
  writeFileAtomically(dir / "study-means.csv", means);
  writeFileAtomically(dir / "study-mixed.csv", mixedCsv(a));
  std::string comparisons =
      "item,first,second,mean_difference,participants,w_plus,w_minus,p,exact,holm_p,rank_"
      "biserial,role\n";
  for (const auto& c : a.comparisons)
    comparisons += c.item + "," + csvField(c.first) + "," + csvField(c.second) + "," +
                   tableNumber(c.meanDifference) + "," + std::to_string(c.test.n) + "," +
                   tableNumber(c.test.plus) + "," + tableNumber(c.test.minus) + "," +
                   tableNumber(c.test.p) + "," + (c.test.exact ? "1" : "0") + "," +
                   tableNumber(c.holmP) + "," + tableNumber(c.test.effect) + "," +
                   roleName(c.primary) + "\n";
  writeFileAtomically(dir / "study-comparisons.csv", comparisons);
  std::string correlations = "metric,item,spearman,ci95_low,ci95_high,games\n";
  for (const auto& c : a.correlations)
    correlations += c.metric + "," + c.item + "," + tableNumber(c.rho) + "," + tableNumber(c.low) +
                    "," + tableNumber(c.high) + "," + std::to_string(c.games) + "\n";
  writeFileAtomically(dir / "study-correlations.csv", correlations);
  std::string noticed =
      "condition,games,rate_above_midpoint,ci95_low,ci95_high,believability,deciles_p\n";
  for (const auto& n : a.noticed)
    noticed += csvField(n.condition) + "," + std::to_string(n.games) + "," +
               tableNumber(n.rateAbove) + "," + tableNumber(n.rateLow) + "," +
               tableNumber(n.rateHigh) + "," + tableNumber(n.believability) + "," +
               tableNumber(n.decilesP) + "\n";
  writeFileAtomically(dir / "study-noticed.csv", noticed);
  std::string reliability =
      "subscale,instrument,items,questionnaires,participants,cronbach_alpha,ci95_low,ci95_high\n";
  for (const auto& r : a.reliability)
    reliability += r.subscale + "," + csvField(r.instrument) + "," + std::to_string(r.items) + "," +
                   std::to_string(r.questionnaires) + "," + std::to_string(r.participants) + "," +
                   tableNumber(r.alpha) + "," + tableNumber(r.low) + "," + tableNumber(r.high) +
                   "\n";
  writeFileAtomically(dir / "study-reliability.csv", reliability);
  return writeFitFiles(dir, a, protocol, writeUnreliableFit);
}

}  // namespace ddalab
