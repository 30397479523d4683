// Tests of the results layer: statistics, summaries, comparison scoring, CSV files and reports.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <locale>
#include <random>
#include <sstream>

#include "core/params.h"
#include "results/aggregate.h"
#include "results/csv.h"
#include "results/experiment_result.h"
#include "results/histogram.h"
#include "results/report.h"
#include "results/scoring.h"
#include "tests/support.h"

namespace ddalab {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

constexpr size_t at(Metric m) {
  return static_cast<size_t>(m);
}
// The score column of the metric with `key` ("win_ratio" included).
size_t col(std::string_view key) {
  const auto columns = scoredMetrics();
  for (size_t k = 0; k < columns.size(); ++k)
    if (columns[k].key() == key) return k;
  FAIL("no score column " << key);
  return 0;
}

GameRecord gameWonBy(int winner, int numPlayers) {
  GameRecord g;
  g.numPlayers = numPlayers;
  g.winner = winner;
  return g;
}

ExperimentResult experimentWithWinners(const std::vector<int>& winners, int numPlayers) {
  ExperimentResult r;
  r.name = "test";
  r.players.assign(numPlayers, SeatLabel{"random", 100});
  for (size_t i = 0; i < winners.size(); ++i) {
    r.records.push_back(gameWonBy(winners[i], numPlayers));
    r.records.back().iteration = i;
  }
  return r;
}

// The t critical value a Stats was built with, recovered from its interval.
double impliedT(const Stats& s) {
  return (s.ci95High - s.mean) / (s.std / std::sqrt(static_cast<double>(s.n)));
}

// ---------------------------------------------------------------------------------------------
// Stats

TEST_CASE("describeSample: mean, sample std and Student-t interval of a small sample") {
  const Stats s = describeSample({1, 2, 3, 4, 5});
  CHECK(s.n == 5);
  CHECK(s.mean == Approx(3));
  CHECK(s.std == Approx(std::sqrt(2.5)));  // sum of squares 10 over n - 1 = 4
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  const double halfWidth = 2.776445 * std::sqrt(2.5) / std::sqrt(5.0);  // t(df = 4)
  CHECK(s.ci95Low == Approx(3 - halfWidth).epsilon(1e-7));
  CHECK(s.ci95High == Approx(3 + halfWidth).epsilon(1e-7));
}

TEST_CASE("describeSample: t critical values are the exact 97.5 % quantiles") {
  auto sampleOfSize = [](size_t n) {
    std::vector<double> values;
    for (size_t i = 0; i < n; ++i) values.push_back(static_cast<double>(i % 7));
    return describeSample(values);
  };
  // R's qt(0.975, df) for df = 1, 30, 31 (the old table held them rounded to 6 decimals).
  CHECK(impliedT(sampleOfSize(2)) == Approx(12.706204736174707).epsilon(1e-10));
  CHECK(impliedT(sampleOfSize(31)) == Approx(2.042272456301238).epsilon(1e-10));
  CHECK(impliedT(sampleOfSize(32)) == Approx(2.0395134464).epsilon(1e-9));
  CHECK(impliedT(sampleOfSize(101)) == Approx(1.983972).epsilon(1e-6));
  CHECK(impliedT(sampleOfSize(1001)) == Approx(1.962339).epsilon(1e-6));
}

TEST_CASE("describeSample: one value and no values") {
  const Stats one = describeSample({4.5});
  CHECK(one.n == 1);
  CHECK(one.mean == 4.5);
  CHECK(one.std == 0);
  CHECK(one.min == 4.5);
  CHECK(one.max == 4.5);
  CHECK(one.ci95Low == 4.5);
  CHECK(one.ci95High == 4.5);

  const Stats none = describeSample({});
  CHECK(none.n == 0);
  CHECK(none.mean == 0);
  CHECK(none.std == 0);
  CHECK(none.min == 0);
  CHECK(none.max == 0);
  CHECK(none.ci95Low == 0);
  CHECK(none.ci95High == 0);
}

// ---------------------------------------------------------------------------------------------
// summarize

TEST_CASE("summarize: two players, win rates, win_ratio and per-player counters") {
  ExperimentResult r = experimentWithWinners({0, 0, 1}, 2);
  const int moves[3] = {3, 5, 4};
  for (size_t g = 0; g < 3; ++g) {
    r.records[g].metrics[at(Metric::Tension)] = static_cast<double>(g + 1);
    r.records[g].counters[0] = {moves[g], 10, static_cast<int>(g)};
    r.records[g].counters[1] = {7, 9, 0};
  }
  r.records[2].capped = true;
  const ExperimentSummary s = summarize(r);

  CHECK(s.games == 3);
  REQUIRE(s.players.size() == 2);
  CHECK(s.players[0].winRate == Approx(2.0 / 3));
  CHECK(s.players[1].winRate == Approx(1.0 / 3));
  CHECK(s.winRatio == Approx(1.0 / 6));  // population std of {2/3, 1/3}
  CHECK(s.drawRate == 0);
  CHECK(s.cappedRate == Approx(1.0 / 3));
  CHECK(s.players[0].movesMean == Approx(4));
  CHECK(s.players[0].movesMin == 3);
  CHECK(s.players[0].movesMax == 5);
  CHECK(s.players[0].turnsMean == Approx(10));
  CHECK(s.players[0].leadRoundsMean == Approx(1));
  CHECK(s.players[1].movesMean == Approx(7));
  CHECK(s.players[0].label.id == "random");
  CHECK(s.metrics[at(Metric::Tension)].mean == Approx(2));
  CHECK(s.metrics[at(Metric::Tension)].std == Approx(1));
  CHECK(s.metrics[at(Metric::Tension)].n == 3);
}

TEST_CASE("summarize: a draw is nobody's win") {
  const ExperimentSummary s = summarize(experimentWithWinners({0, -1}, 2));
  CHECK(s.players[0].winRate == Approx(0.5));
  CHECK(s.players[1].winRate == 0);
  CHECK(s.drawRate == Approx(0.5));
  CHECK(s.winRatio == Approx(0.25));
}

TEST_CASE("summarize: one player's win_ratio is |w - 1/2|") {
  CHECK(summarize(experimentWithWinners({0, -1, -1, -1}, 1)).winRatio == Approx(0.25));
  CHECK(summarize(experimentWithWinners({0, 0}, 1)).winRatio == Approx(0.5));
  CHECK(summarize(experimentWithWinners({0, -1}, 1)).winRatio == Approx(0).margin(1e-12));
}

// ---------------------------------------------------------------------------------------------
// Scoring

// The thesis's order of table 8, in which the tests below give means and expected ratios.
constexpr std::array<std::string_view, 9> kThesisOrder = {
    "lead_changes", "tension",    "lead",         "fairness", "believability",
    "freedom",      "randomness", "leading_time", "win_ratio"};

// A two-player experiment's summary with these means (in the thesis's order); the extended
// metrics (score-ext) have mean 1 in every row, so they leave no note.
ExperimentSummary summaryWithMeans(const std::array<double, 9>& means, size_t players = 2) {
  ExperimentSummary s;
  s.players.resize(players);
  for (size_t k = kThesisMetrics; k < kBuiltInMetrics; ++k) s.metrics[k].mean = 1;
  for (size_t k = 0; k + 1 < kThesisOrder.size(); ++k)
    s.metrics[at(*metricByKey(kThesisOrder[k]))].mean = means[k];
  s.winRatio = means.back();
  return s;
}

TEST_CASE("scoreComparison: ratios to the best, score9 and score4") {
  // Columns: lead_changes, tension, lead, fairness, believability, freedom, randomness,
  // leading_time, win_ratio. Maximized: lead_changes and freedom; the rest minimized.
  const std::vector<ExperimentSummary> summaries = {
      summaryWithMeans({2, 1, 2, 1, 10, 3, 0.5, 4, 0.1}),
      summaryWithMeans({4, 2, 2, 1, 5, 6, 0.25, 2, 0.2}),
      summaryWithMeans({1, 4, 1, 1, 20, 6, 1, 8, 0.4}),
  };
  const ComparisonScores scores = scoreComparison("cmp", {"a", "b", "c"}, summaries);
  REQUIRE(scores.rows.size() == 3);
  CHECK(scores.comparison == "cmp");
  CHECK(scores.notes.empty());
  const std::array<std::array<double, 9>, 3> expected = {{
      {0.5, 1, 0.5, 1, 0.5, 0.5, 0.5, 0.5, 1},
      {1, 0.5, 0.5, 1, 1, 1, 1, 1, 0.5},
      {0.25, 0.25, 1, 1, 0.25, 1, 0.25, 0.25, 0.25},
  }};
  for (size_t row = 0; row < 3; ++row) {
    CAPTURE(row);
    for (size_t k = 0; k < kThesisOrder.size(); ++k) {
      CAPTURE(kThesisOrder[k]);
      CHECK(scores.rows[row].ratios[col(kThesisOrder[k])] == Approx(expected[row][k]));
    }
  }
  CHECK(scores.rows[1].experiment == "b");
  CHECK(scores.rows[2].means[col("believability")] == 20);
  CHECK(scores.rows[0].means[col("win_ratio")] == 0.1);
  CHECK(scores.rows[0].score9 == Approx(6.0));
  CHECK(scores.rows[1].score9 == Approx(7.5));
  CHECK(scores.rows[2].score9 == Approx(4.5));
  CHECK(scores.rows[0].score4 == Approx(3.0));
  CHECK(scores.rows[1].score4 == Approx(2.5));
  CHECK(scores.rows[2].score4 == Approx(1.75));
}

TEST_CASE("scoreComparison: zero means are guarded and noted") {
  // tension 0 / 0.5 / 2; fairness and lead_changes all 0; every other mean 1.
  const std::vector<ExperimentSummary> summaries = {
      summaryWithMeans({0, 0, 1, 0, 1, 1, 1, 1, 1}),
      summaryWithMeans({0, 0.5, 1, 0, 1, 1, 1, 1, 1}),
      summaryWithMeans({0, 2, 1, 0, 1, 1, 1, 1, 1}),
  };
  const ComparisonScores scores = scoreComparison("cmp", {"zero", "half", "two"}, summaries);
  const size_t tension = col("tension");
  CHECK(scores.rows[0].ratios[tension] == 1);
  CHECK(scores.rows[1].ratios[tension] == 1);
  CHECK(scores.rows[2].ratios[tension] == Approx(0.25));
  for (const ScoreRow& row : scores.rows) {
    CHECK(row.ratios[col("fairness")] == 1);
    CHECK(row.ratios[col("lead_changes")] == 1);
    CHECK(std::isfinite(row.score9));
  }
  REQUIRE(scores.notes.size() == 3);
  std::string notes;
  for (const auto& note : scores.notes) notes += note + "\n";
  CHECK_THAT(notes, Contains("tension") && Contains("'zero'"));
  CHECK_THAT(notes, Contains("fairness: every mean is 0"));
  CHECK_THAT(notes, Contains("lead_changes"));
}

TEST_CASE("scoreComparison: a metric the game cannot have does not score") {
  // One player: fairness is 0 in every row and must not give each row a free point.
  const std::vector<ExperimentSummary> summaries = {
      summaryWithMeans({2, 1, 2, 0, 10, 3, 0.5, 4, 0.1}, 1),
      summaryWithMeans({4, 2, 1, 0, 10, 3, 0.5, 4, 0.2}, 1)};
  const ComparisonScores scores = scoreComparison("solo", {"a", "b"}, summaries);
  CHECK_FALSE(scores.scored[col("fairness")]);
  CHECK(std::isnan(scores.rows[0].ratios[col("fairness")]));
  double expected = 0;
  for (size_t k = 0; k < scores.columns.size(); ++k)
    if (k != col("fairness") && !scores.columns[k].extended()) expected += scores.rows[0].ratios[k];
  CHECK(scores.rows[0].score9 == Approx(expected));
  CHECK(scores.rows[0].score9 <= 8.0);
  CHECK_THAT(scores.notes.front(), Contains("fairness") && Contains("not scored"));
  // Nor do the extended metrics, which need two players too: score-ext is 0.
  CHECK(scores.rows[0].scoreExt == 0.0);
  // One note each: fairness and every scored extended metric (decisiveness_threshold is not).
  const auto builtIns = builtInMetrics();
  const auto scoredExtended = std::count_if(
      builtIns.begin(), builtIns.end(), [](const MetricInfo& m) { return m.extended && m.scored; });
  CHECK(scores.notes.size() == 1 + static_cast<size_t>(scoredExtended));
}

TEST_CASE("crossScores: the mean is over the comparisons every algorithm takes part in") {
  const auto comparison = [](const std::string& name, std::vector<std::string> rows,
                             std::vector<double> score9) {
    ComparisonScores c;
    c.comparison = name;
    for (size_t i = 0; i < rows.size(); ++i) {
      ScoreRow row;
      row.experiment = name + "/" + rows[i];
      row.score9 = score9[i];
      row.score4 = score9[i] / 2;
      c.rows.push_back(row);
    }
    return c;
  };
  // e-maxn has no maze row (as in the thesis study).
  const std::vector<ComparisonScores> all = {
      comparison("maze", {"e-random", "e-hillclimber"}, {4, 8}),
      comparison("ludo", {"e-random", "e-hillclimber", "e-maxn"}, {5, 7, 9}),
      comparison("lc", {"e-random", "e-hillclimber", "e-maxn"}, {3, 6, 6})};
  const CrossScores cross = crossScores(all, ScoreTable::AllMetrics);
  REQUIRE(cross.rows == std::vector<std::string>{"e-random", "e-hillclimber", "e-maxn"});
  CHECK(cross.commonComparisons == std::vector<std::string>{"ludo", "lc"});
  CHECK(cross.means[0] == Approx(4));    // (5 + 3) / 2, not (4 + 5 + 3) / 3
  CHECK(cross.means[1] == Approx(6.5));  // (7 + 6) / 2
  CHECK(cross.means[2] == Approx(7.5));
  CHECK_FALSE(cross.scores[2][0].has_value());
  CHECK(crossScores(all, ScoreTable::FourMetrics).means[2] == Approx(3.75));
}

// ---------------------------------------------------------------------------------------------
// CSV

void writeText(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

GameRecord detailedGame(uint64_t iteration, int numPlayers, double salt) {
  GameRecord g;
  g.iteration = iteration;
  g.seed = UINT64_MAX - iteration;
  g.numPlayers = numPlayers;
  g.winner = static_cast<int>(iteration % (numPlayers + 1)) - 1;  // includes draws
  g.capped = iteration % 2 == 1;
  const double tricky[] = {0.1 + 0.2, 1e-300, -0.0, 1.0 / 3, 5e-324, 1e150, -2.5e17, 42};
  // Metrics are never negative (files refuse that), but -0.0 keeps its sign bit; scores may be.
  for (size_t k = 0; k < kBuiltInMetrics; ++k) {
    const double value = tricky[(k + iteration) % 8] * salt;
    g.metrics[k] = std::signbit(value) && value != 0 ? -value : value;
  }
  g.metrics[at(Metric::Rounds)] = 17 + static_cast<double>(iteration);
  for (int p = 0; p < numPlayers; ++p) {
    g.scores[p] = (p + 1) * 0.1 * salt + (p == 1 ? -2.5e17 : 0);
    g.counters[p] = {p + 3, p + 11, p};
  }
  return g;
}

ExperimentResult experiment(const std::string& name, const std::string& comparison, int numPlayers,
                            int games, double salt) {
  ExperimentResult r;
  r.name = name;
  r.comparison = comparison;
  r.game = "ludo";
  r.environment = "e-hillclimber";
  for (int p = 0; p < numPlayers; ++p) r.players.push_back({"hillclimber", 50 * (p + 1)});
  r.plannedIterations = games + 1;
  for (int i = 0; i < games; ++i) r.records.push_back(detailedGame(i, numPlayers, salt));
  return r;
}

void writeAll(const fs::path& dir, const std::vector<ExperimentResult>& results) {
  std::vector<ExperimentSummary> summaries;
  for (const auto& r : results) {
    summaries.push_back(summarize(r));
    writeExperimentCsvs(dir, r, summaries.back());
  }
  writeBatchCsvs(dir, summaries);
}

bool sameBits(double a, double b) {
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

void requireSameRecord(const GameRecord& a, const GameRecord& b) {
  CAPTURE(a.iteration);
  CHECK(a.iteration == b.iteration);
  CHECK(a.seed == b.seed);
  CHECK(a.numPlayers == b.numPlayers);
  CHECK(a.winner == b.winner);
  CHECK(a.capped == b.capped);
  for (size_t k = 0; k < kBuiltInMetrics; ++k) {
    CAPTURE(k, a.metrics[k], b.metrics[k]);
    CHECK(sameBits(a.metrics[k], b.metrics[k]));
  }
  for (int p = 0; p < kMaxPlayers; ++p) {
    CAPTURE(p);
    CHECK(sameBits(a.scores[p], b.scores[p]));
    CHECK(a.counters[p].moves == b.counters[p].moves);
    CHECK(a.counters[p].turns == b.counters[p].turns);
    CHECK(a.counters[p].leadRounds == b.counters[p].leadRounds);
  }
}

void requireSameExperiments(const std::vector<ExperimentResult>& written,
                            const std::vector<ExperimentResult>& read) {
  REQUIRE(read.size() == written.size());
  for (size_t e = 0; e < written.size(); ++e) {
    const ExperimentResult &w = written[e], &r = read[e];
    CHECK(r.name == w.name);
    CHECK(r.comparison == w.comparison);
    CHECK(r.game == w.game);
    CHECK(r.environment == w.environment);
    CHECK(r.plannedIterations == w.plannedIterations);
    REQUIRE(r.players.size() == w.players.size());
    for (size_t p = 0; p < w.players.size(); ++p) {
      CHECK(r.players[p].id == w.players[p].id);
      CHECK(r.players[p].level == w.players[p].level);
    }
    REQUIRE(r.records.size() == w.records.size());
    for (size_t g = 0; g < w.records.size(); ++g) requireSameRecord(w.records[g], r.records[g]);
  }
}

TEST_CASE("fileStem replaces '/' by '__'") {
  CHECK(fileStem("ludo-4hc/e-hillclimber") == "ludo-4hc__e-hillclimber");
  CHECK(fileStem("a/b/c") == "a__b__c");
  CHECK(fileStem("plain") == "plain");
}

TEST_CASE("CSV round trip rebuilds every record bit for bit") {
  TempDir dir;
  const std::vector<ExperimentResult> written = {
      experiment("ludo-4hc/e-hillclimber", "thesis/ludo", 4, 6, 1.0),
      experiment("ludo-4hc/e-random", "thesis/ludo", 4, 5, -3.0),
      experiment("maze/solo", "", 1, 3, 0.7),
      experiment("empty", "", 2, 0, 1.0),
  };
  writeAll(dir.path(), written);

  CHECK(fs::exists(dir.path() / "ludo-4hc__e-hillclimber.games.csv"));
  CHECK(fs::exists(dir.path() / "ludo-4hc__e-hillclimber.summary.csv"));
  CHECK(fs::exists(dir.path() / "thesis__ludo.scores.csv"));
  requireSameExperiments(written, readResultsDir(dir.path()));
}

TEST_CASE("CSV columns follow app.md") {
  TempDir dir;
  writeAll(dir.path(), {experiment("x", "cmp", 2, 3, 1.0), experiment("y", "cmp", 2, 1, 1.0)});

  const auto games = lines(readText(dir.path() / "x.games.csv"));
  REQUIRE(games.size() == 4);
  CHECK(games[0] ==
        "iteration,seed,rounds,winner,capped,lead_changes,lead,tension,leading_time,freedom,"
        "fairness,believability,randomness,drama_trailing,decisiveness_final_lead,uncertainty,"
        "comeback,drama_average,decisiveness_threshold,decisiveness_moves,p0_score,"
        "p0_moves,p0_turns,p0_lead_rounds,p1_score,"
        "p1_moves,p1_turns,p1_lead_rounds,p0_chance,p1_chance");
  // Game 0 is a draw (empty winner), not capped; 0.1 + 0.2 keeps all its digits.
  CHECK_THAT(games[1], Contains("0,18446744073709551615,17,,0,"));
  CHECK_THAT(games[1], Contains("0.30000000000000004"));

  const auto summary = lines(readText(dir.path() / "x.summary.csv"));
  CHECK(summary[0] == "metric,mean,std,min,max,ci95_low,ci95_high,n");
  CHECK_THAT(summary[1], Contains("rounds,18,1,17,19,"));
  CHECK(summary[kBuiltInMetrics + 1].rfind("lead_changes_per_round,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 2].rfind("leading_time_per_round,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 3].rfind("win_ratio,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 4].rfind("win_balance_chi2,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 5].rfind("win_balance_p,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 6].rfind("p0_win_rate,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 7].rfind("p1_win_rate,", 0) == 0);
  CHECK(summary[kBuiltInMetrics + 8] == "draw_rate,0.3333333333333333,,,,,,3");

  const auto batch = lines(readText(dir.path() / "summary.csv"));
  REQUIRE(batch.size() == 3);
  CHECK(batch[0] ==
        "experiment,comparison,game,environment,players,games,planned,rounds,lead_changes,lead,"
        "tension,leading_time,freedom,fairness,believability,randomness,drama_trailing,"
        "decisiveness_final_lead,uncertainty,comeback,drama_average,decisiveness_threshold,"
        "decisiveness_moves,win_ratio,draw_rate");
  CHECK(batch[1].rfind("x,cmp,ludo,e-hillclimber,hillclimber:50;hillclimber:100,3,4,18,", 0) == 0);

  const auto scores = lines(readText(dir.path() / "cmp.scores.csv"));
  REQUIRE(scores.size() == 3);
  CHECK(scores[0] ==
        "experiment,lead_changes,lead,tension,leading_time,freedom,fairness,believability,"
        "randomness,win_ratio,drama_trailing,decisiveness_final_lead,uncertainty,comeback,"
        "drama_average,decisiveness_moves,lead_changes_ratio,"
        "lead_ratio,tension_ratio,leading_time_ratio,freedom_ratio,fairness_ratio,"
        "believability_ratio,randomness_ratio,win_ratio_ratio,drama_trailing_ratio,"
        "decisiveness_final_lead_ratio,uncertainty_ratio,comeback_ratio,drama_average_ratio,"
        "decisiveness_moves_ratio,score9,score4,score_ext");
}

TEST_CASE("CSV quotes fields with commas, quotes and line breaks (RFC 4180)") {
  TempDir dir;
  const std::string name = "a, \"b\"\nc";
  const std::vector<ExperimentResult> written = {experiment(name, "c,d", 2, 2, 1.0),
                                                 experiment("say \"hi\"", "c,d", 2, 2, 2.0)};
  writeAll(dir.path(), written);
  const std::string batch = readText(dir.path() / "summary.csv");
  CHECK_THAT(batch, Contains("\n\"a, \"\"b\"\"\nc\",\"c,d\",ludo,"));
  CHECK_THAT(batch, Contains("\n\"say \"\"hi\"\"\",\"c,d\",ludo,"));
  CHECK_THAT(readText(dir.path() / "c,d.scores.csv"), Contains("\n\"a, \"\"b\"\"\nc\","));
  requireSameExperiments(written, readResultsDir(dir.path()));
}

// A locale whose decimal point is ',' (de_DE or similar), if the system has one.
std::optional<std::locale> commaDecimalLocale() {
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8"}) {
    try {
      std::locale locale(name);
      if (std::use_facet<std::numpunct<char>>(locale).decimal_point() == ',') return locale;
    } catch (const std::runtime_error&) {
    }
  }
  return std::nullopt;
}

// Makes `locale` the global one (C and C++) for the lifetime of the guard.
class GlobalLocaleGuard {
 public:
  explicit GlobalLocaleGuard(const std::locale& locale) : previous_(std::locale::global(locale)) {}
  ~GlobalLocaleGuard() { std::locale::global(previous_); }

 private:
  std::locale previous_;
};

TEST_CASE("CSV numbers use '.' under a comma-decimal global locale") {
  // scripts/install-deps.sh creates de_DE.UTF-8: without it this test would check nothing.
  const auto locale = commaDecimalLocale();
  INFO("no de_DE or fr_FR locale installed (run scripts/install-deps.sh)");
  REQUIRE(locale);
  TempDir dir;
  ExperimentResult r = experiment("loc", "", 2, 2, 1.0);
  r.records[0].metrics[at(Metric::Tension)] = 1234.5;
  r.records[0].seed = 1234567;
  std::vector<ExperimentResult> read;
  {
    GlobalLocaleGuard guard(*locale);
    writeAll(dir.path(), {r});
    read = readResultsDir(dir.path());
  }
  const auto games = lines(readText(dir.path() / "loc.games.csv"));
  CHECK_THAT(games[1], Contains(",1234.5,"));
  CHECK_THAT(games[1], Contains(",1234567,"));
  requireSameExperiments({r}, read);
}

TEST_CASE("readResultsDir errors name the file, the line and the column") {
  TempDir dir;
  writeAll(dir.path(), {experiment("exp/one", "", 2, 3, 1.0)});
  const fs::path games = dir.path() / "exp__one.games.csv";
  const fs::path summary = dir.path() / "summary.csv";

  SECTION("a bad number") {
    auto rows = lines(readText(games));
    rows[2].replace(rows[2].find(",18,"), 4, ",1.5x,");  // line 3, column 3 (rounds)
    std::string text;
    for (const auto& row : rows) text += row + "\n";
    writeText(games, text);
    REQUIRE_THROWS_AS(readResultsDir(dir.path()), InputError);
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()), Contains("exp__one.games.csv:3") &&
                                                        Contains("column 3") &&
                                                        Contains("rounds") && Contains("1.5x"));
  }
  SECTION("a wrong header") {
    const std::string text = readText(summary);
    writeText(summary, "experiment,comparisn" + text.substr(text.find(",game,")));
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()),
                        Contains("summary.csv:1") && Contains("column 2") && Contains("comparisn"));
  }
  SECTION("a seat out of range") {
    auto rows = lines(readText(games));
    rows[1].replace(rows[1].find(",17,,"), 5, ",17,2,");
    std::string text;
    for (const auto& row : rows) text += row + "\n";
    writeText(games, text);
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()),
                        Contains("exp__one.games.csv:2") && Contains("winner"));
  }
  SECTION("an unclosed quote") {
    writeText(summary, readText(summary) + "\"broken,x\n");
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()),
                        Contains("summary.csv:3") && Contains("not closed"));
  }
  SECTION("line numbers count the line breaks inside quoted fields") {
    writeAll(dir.path(), {experiment("two\nlines", "", 1, 1, 1.0)});  // lines 2-3
    writeText(summary, readText(summary) + "\"broken,x\n");           // line 4
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()), Contains("summary.csv:4"));
  }
  SECTION("a missing games file") {
    fs::remove(games);
    REQUIRE_THROWS_AS(readResultsDir(dir.path()), InputError);
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()), Contains("exp__one.games.csv"));
  }
  SECTION("a missing summary") {
    fs::remove(summary);
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()), Contains("summary.csv"));
  }
  SECTION("fewer games than summary.csv lists") {
    auto rows = lines(readText(games));
    rows.pop_back();
    std::string text;
    for (const auto& row : rows) text += row + "\n";
    writeText(games, text);
    REQUIRE_THROWS_WITH(readResultsDir(dir.path()), Contains("summary.csv:2") && Contains("games"));
  }
}

TEST_CASE("The CSV format reads back every record it writes, naming the line of an error") {
  const CsvRecord tricky = {"plain", "a,b", "say \"hi\"", "two\nlines", "", "cr\rinside"};
  CsvReader reader(csvLine(tricky) + "\r\n" + csvLine({"last"}), "memory.csv",
                   CsvLineBreaks::InQuotes);
  CsvRecord record;
  REQUIRE(reader.next(record));
  CHECK(record == tricky);
  CHECK_FALSE(reader.blank());
  REQUIRE(reader.next(record));  // the empty line (its CR part of the line end)
  CHECK(reader.blank());
  CHECK(reader.line() == 3);
  REQUIRE(reader.next(record));
  CHECK(record == CsvRecord{"last"});
  CHECK(reader.line() == 4);
  CHECK_FALSE(reader.next(record));

  CsvReader quotedEmpty("\"\"\n", "memory.csv", CsvLineBreaks::InQuotes);
  REQUIRE(quotedEmpty.next(record));
  CHECK_FALSE(quotedEmpty.blank());  // a quoted empty field is a record, not an empty line

  const auto refusal = [](const std::string& text, CsvLineBreaks lineBreaks) {
    CsvReader bad(text, "bad.csv", lineBreaks);
    CsvRecord fields;
    try {
      while (bad.next(fields)) {
      }
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal("a\n\"b\nc\",d\n", CsvLineBreaks::InQuotes) == "accepted");
  CHECK(refusal("a\n\"b\nc\",d\n", CsvLineBreaks::Refused) ==
        "bad.csv:2: a quoted field is not closed on its line; expected CSV");
  CHECK(refusal("a,\"b", CsvLineBreaks::Refused) ==
        "bad.csv:1: a quoted field is not closed on its line; expected CSV");
  CHECK(refusal("a,\"b", CsvLineBreaks::InQuotes) ==
        "bad.csv:1: column 2: quoted field not closed before the end of the file");
  CHECK(refusal("a,b\"c\n", CsvLineBreaks::InQuotes) ==
        "bad.csv:1: column 2: quote inside an unquoted field");
  CHECK(refusal("\"a\"b\n", CsvLineBreaks::InQuotes) ==
        "bad.csv:1: column 1: text after the closing quote");
}

// Whether `column` is one of the columns `schema` names: the name itself or, for a pattern
// ("p<seat>_moves"), a name with the placeholder's text in its place (digits for <seat>, <rank>).
bool matchesSchemaColumn(const std::string& column, const CsvColumnSchema& schema) {
  const size_t open = schema.name.find('<'), close = schema.name.find('>');
  if (open == std::string::npos) return column == schema.name;
  const std::string prefix = schema.name.substr(0, open), suffix = schema.name.substr(close + 1);
  const std::string placeholder = schema.name.substr(open + 1, close - open - 1);
  if (column.size() <= prefix.size() + suffix.size() || !column.starts_with(prefix) ||
      !column.ends_with(suffix))
    return false;
  const std::string middle =
      column.substr(prefix.size(), column.size() - prefix.size() - suffix.size());
  const bool number = placeholder == "seat" || placeholder == "rank";
  return !number ||
         std::all_of(middle.begin(), middle.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The type `schema` gives `column`: a named column's, else the first pattern's of another type
// than Number, else Number (what every other column holds); nullopt when none describes it.
std::optional<CsvColumnType> schemaType(const CsvFileSchema& schema, const std::string& column) {
  for (const CsvColumnSchema& c : schema.columns)
    if (c.name == column) return c.type;
  std::optional<CsvColumnType> type;
  for (const CsvColumnSchema& c : schema.columns)
    if (c.name.find('<') != std::string::npos && matchesSchemaColumn(column, c) &&
        (!type || *type == CsvColumnType::Number))
      type = c.type;
  return type;
}

const CsvFileSchema& schemaOf(const std::string& table) {
  const auto& schema = csvSchema();
  const auto found = std::find_if(schema.begin(), schema.end(),
                                  [&](const CsvFileSchema& s) { return s.table == table; });
  REQUIRE(found != schema.end());
  return *found;
}

// Checks that `header` is described by the schema of `table`: its leading columns, every
// named column present, every column of the header described.
void requireDescribed(const std::string& table, const CsvRecord& header) {
  CAPTURE(table);
  const CsvFileSchema& schema = schemaOf(table);
  REQUIRE(header.size() >= schema.leading);
  for (size_t i = 0; i < schema.leading; ++i) CHECK(header[i] == schema.columns[i].name);
  for (const CsvColumnSchema& c : schema.columns)
    if (c.name.find('<') == std::string::npos)
      CHECK(std::find(header.begin(), header.end(), c.name) != header.end());
  for (const std::string& column : header) {
    CAPTURE(column);
    CHECK(schemaType(schema, column));
  }
}

TEST_CASE("csvSchema describes every header the writers write, with each column's type") {
  requireDescribed("games", gamesColumns(3));
  requireDescribed("summary", batchSummaryColumns());
  requireDescribed("stats", experimentSummaryColumns());
  ComparisonScores scores;
  scores.columns = scoredMetrics();
  requireDescribed("scores", scoresColumns(scores));
  requireDescribed("ranks", ranksColumns(4));
  requireDescribed("tests", testsColumns());
  requireDescribed("detectability", detectabilityColumns());
  SweepTable sweep;
  sweep.axes = {"random_prob", "seats"};
  sweep.columns = {"tension", "win_ratio", "score9", "lead_vs_random"};
  requireDescribed("sweep", sweepColumns(sweep));
  requireDescribed("ratings", ratingsColumns());
  requireDescribed("pairwise", pairwiseColumns());
  requireDescribed("level_curves", levelCurvesColumns());
  requireDescribed("balance", balanceColumns());
  requireDescribed("balance_summary", balanceSummaryColumns());

  CHECK(schemaType(schemaOf("games"), "seed") == CsvColumnType::Seed);
  CHECK(schemaType(schemaOf("games"), "winner") == CsvColumnType::OptionalCount);
  CHECK(schemaType(schemaOf("games"), "capped") == CsvColumnType::Flag);
  CHECK(schemaType(schemaOf("games"), "p2_lead_rounds") == CsvColumnType::Count);
  CHECK(schemaType(schemaOf("games"), "p1_chance") == CsvColumnType::Text);
  CHECK(schemaType(schemaOf("games"), "p1_score") == CsvColumnType::Number);
  CHECK(schemaType(schemaOf("games"), "tension") == CsvColumnType::Number);
  CHECK(schemaType(schemaOf("summary"), "players") == CsvColumnType::Name);
  CHECK(schemaType(schemaOf("ranks"), "replicates") == CsvColumnType::Count);
  CHECK(schemaType(schemaOf("detectability"), "games_to_detect") == CsvColumnType::OptionalCount);
  CHECK(schemaType(schemaOf("sweep"), "@random_prob") == CsvColumnType::SweptValue);
  CHECK(schemaType(schemaOf("ratings"), "games") == CsvColumnType::OptionalCount);
  CHECK(schemaType(schemaOf("balance"), "wins") == CsvColumnType::Count);
  CHECK(schemaOf("level_curves").file == "level_curves.csv");
  CHECK(schemaOf("games").file == "<experiment>.games.csv");
  CHECK(schemaOf("summary").file == "summary.csv");
  CHECK(csvColumnTypeName(CsvColumnType::OptionalCount) == "optional count");
}

// ---------------------------------------------------------------------------------------------
// Report

TEST_CASE("printSummaryTables and printComparisonScores show every experiment") {
  const std::vector<ExperimentResult> results = {experiment("cmp/a", "cmp", 2, 4, 1.0),
                                                 experiment("cmp/b", "cmp", 2, 4, 2.0),
                                                 experiment("alone", "", 1, 2, 1.0)};
  std::vector<ExperimentSummary> summaries;
  for (const auto& r : results) summaries.push_back(summarize(r));

  std::ostringstream tables;
  printSummaryTables(tables, summaries);
  CHECK_THAT(tables.str(), Contains("Comparison cmp") && Contains("Experiment alone") &&
                               Contains("cmp/a") && Contains("cmp/b") &&
                               Contains("believability") && Contains("hillclimber:100") &&
                               Contains("win_ratio"));

  const std::vector<ComparisonScores> scores = scoreAll(summaries);
  REQUIRE(scores.size() == 1);  // "alone" has no comparison
  CHECK(scores[0].comparison == "cmp");
  REQUIRE(scores[0].rows.size() == 2);
  CHECK(scores[0].rows[1].experiment == "cmp/b");

  std::ostringstream scoreText;
  printComparisonScores(scoreText, scores);
  CHECK_THAT(scoreText.str(), Contains("score9") && Contains("score4") && Contains("cmp/b"));

  std::ostringstream single;
  printComparisonScores(single, {scoreComparison("one", {"x"}, {summaries[0]})});
  CHECK(single.str().empty());
}

// ---------------------------------------------------------------------------------------------
// Histograms

TEST_CASE("histogram bins count every finite value once, the maximum falls in the last bin") {
  const std::vector<double> values = {0, 0.5, 1, 2.5, 9.99, 10, NAN, INFINITY};
  const Histogram h = makeHistogram(values, 4, 0, 10);
  CHECK(h.counts == std::vector<size_t>{3, 1, 0, 2});  // [0,2.5) [2.5,5) [5,7.5) [7.5,10]
  CHECK(h.total() == 6);
  CHECK(h.width() == 2.5);
  CHECK(h.binLow(1) == 2.5);
  // Shared bins for an overlay: the range covers both samples.
  const std::vector<double> other = {-5, 20};
  const std::vector<std::span<const double>> both = {values, other};
  const auto [low, high] = commonRange(both);
  CHECK(low == -5);
  CHECK(high == 20);
  CHECK(makeHistogram(other, 7, low, high).total() == 2);
  // One distinct value still gets a range of its own; none gives [0, 1].
  const std::vector<double> same = {3, 3};
  const std::vector<std::span<const double>> single = {same};
  CHECK(commonRange(single) == std::pair<double, double>{2.5, 3.5});
  CHECK(commonRange({}) == std::pair<double, double>{0, 1});
}

}  // namespace
}  // namespace ddalab
