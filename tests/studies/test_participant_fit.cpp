// Participants as the unit of a study's metric-answer statistics: Spearman's interval
// resamples participants, the ridge fit's cross-validation holds out whole participants and is
// nested, and a fit that does not beat the constant model is never written as a runnable batch.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "experiments/batch.h"
#include "core/file_io.h"
#include "studies/analysis.h"
#include "studies/analysis_files.h"
#include "studies/simulate.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

StudyProtocol shippedLudo() {
  return loadStudyProtocol(fs::path(__FILE__).parent_path().parent_path().parent_path() /
                           "studies/protocols/user-study-ludo.json");
}

// `participants` simulated participants of the shipped Ludo protocol in `dir`, read back.
StudySessions simulatedLudo(const fs::path& dir, int participants) {
  StudySimulation s;
  s.participants = participants;
  s.threads = 2;
  simulateStudy(shippedLudo(), dir, s);
  const std::vector<fs::path> folders = {dir};
  return readStudySessions(folders);
}

double gaussian(Rng& rng) {
  const double u = std::max(rng.uniform(), 1e-300), v = rng.uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

// 12 participants of 10 games: y = link * (a within-participant metric) + a participant's bias +
// noise; five more columns are constant within a participant and random between them.
struct ClusteredData {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  std::vector<size_t> participant;
};
ClusteredData clusteredData(double link, uint64_t seed) {
  Rng rng(seed);
  ClusteredData d;
  for (size_t p = 0; p < 12; ++p) {
    const double bias = 1.5 * gaussian(rng);
    std::vector<double> traits(5);
    for (double& t : traits) t = gaussian(rng);
    for (int g = 0; g < 10; ++g) {
      std::vector<double> row = {gaussian(rng)};
      row.insert(row.end(), traits.begin(), traits.end());
      d.y.push_back(link * row[0] + bias + 0.3 * gaussian(rng));
      d.x.push_back(row);
      d.participant.push_back(p);
    }
  }
  return d;
}

const std::vector<double> kLambdas = {0.01, 0.1, 1, 3, 10, 30, 100, 300, 1000};

}  // namespace

TEST_CASE("Spearman's interval resamples participants: 30 copies of a game are one participant",
          "[study][statistics]") {
  // Three participants, each 30 games with the same metric and answer, ranked alike: every game
  // resample (90 games) has rho 1, but a participant resample draws one participant three times
  // (rho 0, constant sides) with probability 3/27 > 2.5 %.
  std::vector<double> x, y;
  std::vector<size_t> of;
  for (size_t p = 0; p < 3; ++p)
    for (int g = 0; g < 30; ++g) {
      x.push_back(static_cast<double>(p));
      y.push_back(2.0 * static_cast<double>(p) + 1);
      of.push_back(p);
    }
  Rng games(5), people(5);
  CHECK(spearmanInterval(x, y, 0.95, 1000, games) == std::pair(1.0, 1.0));
  const auto [low, high] = participantSpearmanInterval(x, y, {of, 3}, 0.95, 1000, people);
  CHECK(low <= 0.0);
  CHECK(high == 1.0);
  // Deterministic: the same seed, the same interval; fewer than 3 participants say nothing.
  Rng again(5);
  CHECK(participantSpearmanInterval(x, y, {of, 3}, 0.95, 1000, again) == std::pair(low, high));
  const std::vector<size_t> two(x.size(), 1);
  CHECK(participantSpearmanInterval(x, y, {two, 2}, 0.95, 1000, again) == std::pair(-1.0, 1.0));
}

TEST_CASE(
    "the ridge fit's folds hold out participants: traits that only tell people apart are "
    "no fit",
    "[study][statistics]") {
  // No link: the answers follow the participants' biases, which five participant-level columns
  // can partly reproduce. Game-level folds see those participants in training and call it a fit.
  const ClusteredData noise = clusteredData(0.0, 11);
  const RidgeSelection games = ridgeCrossValidated(noise.x, noise.y, kLambdas, 5, 3);
  INFO("game folds: " << games.cvRmse << " against " << games.constantCvRmse);
  CHECK(games.cvRmse < 0.9 * games.constantCvRmse);
  const ParticipantRidge people =
      participantRidge(noise.x, noise.y, {noise.participant, 12}, kLambdas, 3);
  INFO("nested, participant folds: " << people.nestedRmse << " against " << people.constantRmse
                                     << ", gain [" << people.gainLow << ", " << people.gainHigh
                                     << "]");
  CHECK_FALSE(people.beatsConstant);
  CHECK(people.outerLambdas.size() == 5);
  CHECK(people.folds == 5);
  // A real within-participant link beats the constant, with a weight whose interval excludes 0.
  const ClusteredData linked = clusteredData(2.0, 11);
  const ParticipantRidge fit =
      participantRidge(linked.x, linked.y, {linked.participant, 12}, kLambdas, 3);
  INFO("linked: " << fit.nestedRmse << " against " << fit.constantRmse << ", gain [" << fit.gainLow
                  << ", " << fit.gainHigh << "]");
  CHECK(fit.beatsConstant);
  CHECK(fit.relativeGain() > kFitMargin);
  CHECK(fit.gainLow > 0);
  CHECK(fit.weightIntervals[0].first > 0);
  CHECK(fit.selectionRmse <= fit.nestedRmse + 1e-12);  // the minimum over penalties is optimistic
  // The same seed, the same fit.
  const ParticipantRidge again =
      participantRidge(linked.x, linked.y, {linked.participant, 12}, kLambdas, 3);
  CHECK(again.nestedRmse == fit.nestedRmse);
  CHECK(again.weightIntervals == fit.weightIntervals);
  CHECK_THROWS_AS(participantRidge(linked.x, linked.y, {linked.participant, 2}, kLambdas, 3),
                  std::invalid_argument);
}

TEST_CASE("a 2-participant study writes no runnable fit, even with write-unreliable-fit",
          "[study][simulate]") {
  const TempDir dir;
  const StudySessions study = simulatedLudo(dir.path() / "pilot", 2);
  const StudyAnalysis a = analyzeStudy(study);
  CHECK(a.games == 12);  // enough games for the old fit, which wrote a 500-game "fitted" row
  CHECK(a.coefficients.empty());
  CHECK_FALSE(a.fitReliable);
  CHECK_THAT(a.fitVerdict, Catch::Contains("2 participants (a fit needs 6)"));
  CHECK_FALSE(writeStudyAnalysis(dir.path() / "analysis", a, study.protocol, true));
  CHECK_FALSE(fs::exists(dir.path() / "analysis/fitted-batch.json"));
  const Json fitted = Json::parse(std::ifstream(dir.path() / "analysis/fitted-coefficients.json"));
  CHECK(fitted["verdict"] == "no fit");
  CHECK(fitted["coefficients"].empty());
}

TEST_CASE("an unreliable fit is written only when asked, marked so, and ddalab run refuses it",
          "[study][simulate]") {
  const TempDir dir;
  const StudySessions study = simulatedLudo(dir.path() / "pilot", 6);
  const StudyAnalysis a = analyzeStudy(study);
  REQUIRE_FALSE(a.coefficients.empty());
  REQUIRE_FALSE(a.fitReliable);  // 6 participants: 1.8 % below the constant, the gain spans 0
  CHECK(a.ridge.gainLow <= 0);
  CHECK_THAT(a.fitVerdict, Catch::Contains("no fitted-batch.json is written"));
  // A runnable fitted-batch.json of an earlier analysis is not left to be mistaken for this one.
  const fs::path out = dir.path() / "analysis";
  fs::create_directories(out);
  std::ofstream(out / "fitted-batch.json") << "{}";
  CHECK_FALSE(writeStudyAnalysis(out, a, study.protocol));
  CHECK_FALSE(fs::exists(out / "fitted-batch.json"));
  const Json fitted = Json::parse(std::ifstream(out / "fitted-coefficients.json"));
  CHECK(fitted["verdict"] == "unreliable");
  CHECK(fitted["nested_cv_rmse"].get<double>() == a.ridge.nestedRmse);
  CHECK(fitted["constant_cv_rmse"].get<double>() == a.ridge.constantRmse);
  CHECK(fitted["lambda"].get<double>() == a.ridge.fit.lambda);
  CHECK(fitted["margin"]["nested_cv_rmse_below_constant"].get<double>() == kFitMargin);
  // A fitted-batch.json that is a link (here to a runnable batch) is neither followed, replaced
  // nor left unexplained: refused, after the other files are written.
  const fs::path elsewhere = dir.path() / "elsewhere.json";
  writeFileAtomically(elsewhere, fittedBatch(study.protocol, a.coefficients, 500).dump());
  fs::remove(out / "fitted-coefficients.json");
  fs::create_symlink(elsewhere, out / "fitted-batch.json");
  CHECK_THAT(refusalOf([&] { writeStudyAnalysis(out, a, study.protocol, true); }),
             Catch::Contains("fitted-batch.json: is not a regular file"));
  CHECK(fs::is_symlink(out / "fitted-batch.json"));
  CHECK(fs::exists(out / "fitted-coefficients.json"));
  CHECK_FALSE(Json::parse(std::ifstream(elsewhere)).contains("unreliable_fit"));
  fs::remove(out / "fitted-batch.json");
  // Asked for, it is written with the verdict in a key the batch loader refuses.
  CHECK(writeStudyAnalysis(out, a, study.protocol, true));
  const Json batch = Json::parse(std::ifstream(out / "fitted-batch.json"));
  CHECK(batch["unreliable_fit"] == a.fitVerdict);
  CHECK_THAT(refusalOf([&] { loadBatch(out / "fitted-batch.json"); }),
             Catch::Contains("fitted-batch.json: $.unreliable_fit") &&
                 Catch::Contains("did not beat the constant model"));
}

TEST_CASE("24 simulated participants: the fit is written and points the way the answer rule does",
          "[study][simulate]") {
  const TempDir dir;
  const StudySessions study = simulatedLudo(dir.path() / "pilot", 24);
  const StudyAnalysis a = analyzeStudy(study);
  INFO(a.fitVerdict);
  REQUIRE(a.fitReliable);
  CHECK(a.ridge.relativeGain() >= kFitMargin);
  CHECK(a.ridge.gainLow > 0);
  const auto weight = [&](const std::string& metric) {
    const auto k =
        static_cast<size_t>(std::find(a.fittedMetrics.begin(), a.fittedMetrics.end(), metric) -
                            a.fittedMetrics.begin());
    REQUIRE(k < a.fittedMetrics.size());
    return std::tuple(a.ridge.fit.weights[k], a.ridge.weightIntervals[k].first,
                      a.ridge.weightIntervals[k].second);
  };
  // The rule: enjoyment +0.5 points per sd of lead_changes, -0.3 per sd of tension; fairness
  // moves only the fairness item.
  const auto [leadChanges, leadLow, leadHigh] = weight("lead_changes");
  CHECK(leadLow > 0);
  const auto [tension, tensionLow, tensionHigh] = weight("tension");
  CHECK(tensionHigh < 0);
  const auto [fairness, fairnessLow, fairnessHigh] = weight("fairness");
  CHECK(fairnessLow < 0);
  CHECK(fairnessHigh > 0);
  // In F's units: lead_changes (higher is better) keeps its sign, tension (lower is better)
  // turns it; per unit of the metric, not rescaled to 100.
  const std::vector<double> raw = a.ridge.fit.rawWeights();
  CHECK(a.coefficients["lead_changes"].get<double>() > 0);
  CHECK(a.coefficients["tension"].get<double>() > 0);
  REQUIRE(a.fittedMetrics.front() == "lead_changes");
  CHECK(a.coefficients["lead_changes"].get<double>() == raw.front());
  REQUIRE(writeStudyAnalysis(dir.path() / "analysis", a, study.protocol));
  const Batch batch = loadBatch(dir.path() / "analysis/fitted-batch.json");
  CHECK(batch.experiments.back().name == "user-study-ludo/fitted");
  const Json fitted = Json::parse(std::ifstream(dir.path() / "analysis/fitted-coefficients.json"));
  CHECK(fitted["verdict"] == "reliable");
  CHECK(fitted["coefficients"] == a.coefficients);
}
