// The analyses of a comparison (results/significance): paired tests against the reference row
// worked out by hand, bootstrap intervals at their nominal coverage, rank probabilities, and the
// detectability test at its nominal false-positive rate under natural chance.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>

#include "core/match.h"
#include "experiments/runner.h"
#include "results/significance.h"
#include "results/statistics.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

// A row of `games` two-player games whose lead is `lead(i)`, every other metric 1.
ExperimentResult row(const std::string& name, const std::string& environment, size_t games,
                     double (*lead)(size_t)) {
  ExperimentResult r;
  static_cast<ExperimentLabel&>(r) = {name,        "c",
                                      "ludo",      {{"hillclimber", 50}, {"hillclimber", 100}},
                                      environment, static_cast<int>(games)};
  for (size_t i = 0; i < games; ++i) {
    GameRecord g;
    g.iteration = i;
    g.numPlayers = 2;
    g.winner = static_cast<int>(i % 2);
    g.metrics.fill(1.0);
    g.metrics[static_cast<size_t>(Metric::Lead)] = lead(i);
    r.records.push_back(g);
  }
  return r;
}

double exponentialQuantile(double u) {
  return -std::log1p(-u);
}

}  // namespace

TEST_CASE("paired tests against the reference row, by hand", "[significance]") {
  // lead differences (row minus e-random) are 1, 2, 3, 4, 5: mean 3, paired t p = 0.013236.
  const std::vector<ExperimentResult> rows = {
      row("c/e-hc", "e-hillclimber", 5, [](size_t i) { return 10.0 + 2.0 * i + 1; }),
      row("c/e-random", "e-random", 5, [](size_t i) { return 10.0 + i; })};
  const ComparisonAnalysis a = analyzeComparison("c", rows);
  CHECK(a.reference == "c/e-random");
  CHECK(a.pairs == 5);
  const PairedTest* lead = findTest(a, "c/e-hc", "lead");
  REQUIRE(lead != nullptr);
  CHECK(lead->difference == Approx(3));
  CHECK(lead->ci95Low == Approx(3 - 2.776445 * std::sqrt(0.5)));
  CHECK(lead->p == Approx(0.013236).margin(1e-6));
  CHECK(lead->holmP >= lead->p);
  // Equal metrics differ by 0 everywhere: p = 1, never significant.
  const PairedTest* tension = findTest(a, "c/e-hc", "tension");
  REQUIRE(tension != nullptr);
  CHECK(tension->difference == 0);
  CHECK(tension->p == 1);
  CHECK_FALSE(tension->significant());
  CHECK(findTest(a, "c/e-random", "lead") == nullptr);  // the reference is not tested
  // Same winners in both rows: the win_ratio difference is exactly 0 in every replicate.
  const PairedTest* winRatio = findTest(a, "c/e-hc", "win_ratio");
  REQUIRE(winRatio != nullptr);
  CHECK(winRatio->test == "bootstrap");
  CHECK(winRatio->difference == 0);
  CHECK(winRatio->p == 1);
}

TEST_CASE("games are paired by iteration, rows that lack a game leave it out", "[significance]") {
  std::vector<ExperimentResult> rows = {
      row("c/e-hc", "e-hillclimber", 6, [](size_t i) { return 2.0 * i; }),
      row("c/e-random", "e-random", 6, [](size_t i) { return 1.0 * i; })};
  rows[0].records.erase(rows[0].records.begin() + 2);  // iteration 2 missing from one row
  const ComparisonAnalysis a = analyzeComparison("c", rows);
  CHECK(a.pairs == 5);
  // Differences i over i = 0, 1, 3, 4, 5: mean 13 / 5.
  CHECK(findTest(a, "c/e-hc", "lead")->difference == Approx(13.0 / 5));
}

TEST_CASE("bootstrap intervals cover a known mean at the nominal rate", "[significance]") {
  // Exponential(1) samples of 200: the percentile interval of the mean should hold 1 in about
  // 95 % of samples (a little less for a skewed distribution).
  Rng data(11), resampling(12);
  constexpr int kSamples = 300, kReplicates = 400;
  constexpr size_t n = 200;
  int covered = 0;
  std::vector<double> sample(n), means(kReplicates);
  std::vector<uint32_t> counts;
  for (int s = 0; s < kSamples; ++s) {
    for (double& x : sample) x = exponentialQuantile(data.uniform());
    for (double& m : means) {
      resampleCounts(n, resampling, counts);
      REQUIRE(std::accumulate(counts.begin(), counts.end(), size_t{0}) == n);
      double sum = 0;
      for (size_t i = 0; i < n; ++i) sum += counts[i] * sample[i];
      m = sum / n;
    }
    const auto [low, high] = percentileInterval(means, 0.95);
    covered += low <= 1.0 && 1.0 <= high;
  }
  const double coverage = static_cast<double>(covered) / kSamples;
  CHECK(coverage >= 0.90);
  CHECK(coverage <= 0.98);
}

TEST_CASE("score and ratio intervals hold their values, a clearly better row ranks first",
          "[significance]") {
  // lead is minimized: the e-random row's lead is smaller by 5 in every game, so it is first in
  // every replicate.
  const std::vector<ExperimentResult> rows = {
      row("c/e-hc", "e-hillclimber", 40, [](size_t i) { return 20.0 + (i % 7); }),
      row("c/e-random", "e-random", 40, [](size_t i) { return 15.0 + (i % 5); })};
  const ComparisonAnalysis a = analyzeComparison("c", rows);
  REQUIRE(a.scores.size() == 2);
  CHECK(a.replicates == 1000);
  for (const ScoreInterval& s : a.scores) {
    CHECK(s.score9Low <= s.score9);
    CHECK(s.score9 <= s.score9High);
    CHECK(std::accumulate(s.rank9.begin(), s.rank9.end(), 0.0) == Approx(1.0));
  }
  CHECK(a.scores[1].rank9[0] == Approx(1.0));
  CHECK(a.scores[0].rank9[1] == Approx(1.0));
  CHECK(a.scores[0].above9 == 0);  // never above the reference
  CHECK(a.scores[1].above9 == 0);  // the reference itself
  CHECK(findTest(a, "c/e-hc", "lead")->significant());
  // Ratio intervals: e-random is the best of every replicate in lead (ratio exactly 1); e-hc's
  // interval holds its ratio, e-random's mean over its own, below 1.
  const auto columns = scoredMetrics();
  const auto column = [&](std::string_view key) {
    return static_cast<size_t>(
        std::find_if(columns.begin(), columns.end(), [&](auto& c) { return c.key() == key; }) -
        columns.begin());
  };
  const size_t lead = column("lead");
  CHECK(a.scores[1].ratioLow[lead] == 1.0);
  CHECK(a.scores[1].ratioHigh[lead] == 1.0);
  double hc = 0, random = 0;
  for (size_t i = 0; i < 40; ++i) hc += 20.0 + (i % 7), random += 15.0 + (i % 5);
  CHECK(a.scores[0].ratioLow[lead] < random / hc);
  CHECK(random / hc < a.scores[0].ratioHigh[lead]);
  CHECK(a.scores[0].ratioHigh[lead] < 1.0);
  // Equal metrics: every replicate gives both rows 1.
  for (const ScoreInterval& s : a.scores) CHECK(s.ratioLow[column("tension")] == 1.0);
}

TEST_CASE("chance quantiles are uniform under natural chance", "[significance]") {
  // A skewed four-outcome distribution sampled naturally: the deciles of the randomized
  // quantile are uniform (chi-square with 9 df far from rejecting at 20,000 draws).
  const std::vector<Outcome> outcomes = {{7, 0.5}, {3, 0.3}, {9, 0.15}, {1, 0.05}};
  Rng rng(5);
  ChanceBins bins{};
  for (int i = 0; i < 20000; ++i) {
    const Action a = sampleOutcome(outcomes, rng);
    const double u = chanceQuantile(outcomes, a, rng.uniform());
    ++bins[static_cast<size_t>(std::min(9, static_cast<int>(u * 10)))];
  }
  double chi2 = 0;
  for (uint32_t c : bins) chi2 += (c - 2000.0) * (c - 2000.0) / 2000.0;
  CHECK(chiSquareUpperTail(chi2, 9) > 0.001);
  CHECK(chanceQuantile(outcomes, 7, 0.0) == 0.0);
  CHECK(chanceQuantile(outcomes, 1, 1.0) == Approx(1.0));
}

namespace {

// The share of 20-game slices of `games` whose seats' outcomes the detectability test rejects.
double rejectionRate(const ExperimentResult& games) {
  int rejected = 0, tests = 0;
  for (size_t start = 0; start + 20 <= games.records.size(); start += 20) {
    ExperimentResult part = games;
    part.records.assign(games.records.begin() + static_cast<long>(start),
                        games.records.begin() + static_cast<long>(start + 20));
    const ComparisonAnalysis a = analyzeComparison("c", std::vector<ExperimentResult>{part, part});
    REQUIRE(a.detectability.size() == 4);  // two seats of each of the two copies
    for (size_t k = 0; k < 2; ++k) {
      ++tests;
      rejected += a.detectability[k].detected();
    }
  }
  return static_cast<double>(rejected) / tests;
}

}  // namespace

TEST_CASE("detectability: nominal false positives under natural chance, steering detected",
          "[significance]") {
  // 2,400 Ludo games with natural dice (e-random, and E-HillClimber with random_prob 1, which
  // always draws naturally), as 120 experiments of 20 games: each rejects in about 5 % of them.
  // E-HillClimber steering by tension and lead alone (no believability term to keep its dice
  // looking natural) must be found.
  Json steering = ludoExperiment("c/e-hillclimber", "e-hillclimber", 300);
  steering["coefficients"] = {{"tension", 10}, {"lead", 3}};
  Json natural = steering;
  natural["name"] = "c/natural";
  natural["iterations"] = 2400;
  natural["environment"]["params"] = {{"random_prob", 1.0}};
  const Json document = {
      {"format", "ddalab-batch/1"},
      {"seed", 3},
      {"experiments", {ludoExperiment("c/e-random", "e-random", 2400), steering, natural}}};
  RunOptions options;
  const auto results = runBatch(parseBatch(document, "test"), options);
  for (const ExperimentResult* games : {&results[0], &results[2]}) {
    CAPTURE(games->name);
    const double rate = rejectionRate(*games);
    CHECK(rate >= 0.01);
    CHECK(rate <= 0.10);
  }
  const ComparisonAnalysis full = analyzeComparison("c", results);
  for (const Detectability& d : full.detectability) {
    CAPTURE(d.experiment, d.seat, d.p);
    if (d.experiment == "c/e-hillclimber") {
      CHECK(d.detected());
      REQUIRE(d.gamesToDetect.has_value());
      CHECK(*d.gamesToDetect <= 300);
    }
  }
}
