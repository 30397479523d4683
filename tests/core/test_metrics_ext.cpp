// ddalab's extended fun metrics of metrics.md (drama_trailing, decisiveness_final_lead,
// uncertainty, comeback; Ludii's are in test_ludii_metrics.cpp) against
// hand-computed traces, driving MetricsTracker with endRound(gains); and the score-ext table on a
// hand-made comparison, beside tables 8 and 9 left as they were.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/metrics.h"
#include "results/scoring.h"

using namespace ddalab;

namespace {

double metric(const MetricValues& v, Metric m) {
  return v[static_cast<size_t>(m)];
}

// A tracker from (0, ..., 0) through rounds ending with `rounds` (gains).
MetricsTracker track(const std::vector<std::vector<double>>& rounds) {
  MetricsTracker t(std::vector<double>(rounds.front().size(), 0.0));
  for (const auto& gains : rounds) t.endRound(gains);
  return t;
}

// Two seats whose statuses differ by d temperatures: the winner distribution is (1 - q, q) with
// q = 1 / (1 + e^d); its entropy in bits (log 2 = log n: already normalized).
double binaryEntropy(double d) {
  const double q = 1 / (1 + std::exp(d));
  return -(q * std::log2(q) + (1 - q) * std::log2(1 - q));
}

}  // namespace

TEST_CASE("extended metrics: two players, a comeback through a tie", "[metrics][extended]") {
  // gains      statuses   leader  largest |status| so far
  // (0, 4)     (-4, 4)    1       4
  // (2, 4)     (-2, 2)    1       4
  // (6, 4)     (2, -2)    0       4
  // (6, 6)     (0, 0)     none    4
  // (9, 6)     (3, -3)    0       4
  // (10, 6)    (4, -4)    0       4
  const MetricsTracker t = track({{0, 4}, {2, 4}, {6, 4}, {6, 6}, {9, 6}, {10, 6}});
  const MetricValues v = t.values(0);
  // The final leader is seat 0; it trailed by 4 and 2 (the tie is not trailing): (4 + 2) / 2.
  CHECK(metric(v, Metric::DramaTrailing) == Approx(3.0));
  // Its last unbroken run in the lead is rounds 5..6 (the tie broke the run from round 3): 2 / 6.
  CHECK(metric(v, Metric::DecisivenessFinalLead) == Approx(2.0 / 6));
  // Its largest deficit 4 exceeds half the largest |status| of the game (0.5 * 4 = 2).
  CHECK(metric(v, Metric::Comeback) == 1.0);
  // Temperature 0.5 * 4 = 2; the statuses differ by 8, 4, 4, 0, 6, 8: d = 4, 2, 2, 0, 3, 4
  // temperatures; the tie has entropy 1. Mean of (h(4), h(2), h(2), 1, h(3), h(4)) = 0.4316.
  const double expected = (2 * binaryEntropy(4) + 2 * binaryEntropy(2) + 1 + binaryEntropy(3)) / 6;
  CHECK(expected == Approx(0.431575).epsilon(1e-5));
  CHECK(metric(v, Metric::Uncertainty) == Approx(expected));
}

TEST_CASE("extended metrics: three players, a small deficit is no comeback",
          "[metrics][extended]") {
  // gains        statuses       leader  largest |status| so far
  // (3, 1, 0)    (2, -2, -3)    0       3
  // (3, 5, 0)    (-2, 2, -5)    1       5
  // (8, 5, 1)    (3, -3, -7)    0       7
  // (12, 5, 2)   (7, -7, -10)   0       10
  const MetricsTracker t = track({{3, 1, 0}, {3, 5, 0}, {8, 5, 1}, {12, 5, 2}});
  const MetricValues v = t.values(0);
  CHECK(metric(v, Metric::LeadChanges) == 2);
  // Seat 0 trailed in round 2 only, by 2.
  CHECK(metric(v, Metric::DramaTrailing) == Approx(2.0));
  // Its final run is rounds 3..4 of 4.
  CHECK(metric(v, Metric::DecisivenessFinalLead) == Approx(0.5));
  // 2 is not more than 0.5 * 10.
  CHECK(metric(v, Metric::Comeback) == 0.0);
  // Per round, the softmax of (s - top) / (0.5 * largest) over three seats, entropy / log 3:
  // round 1: (0, -4, -5) / 1.5 -> 0.34156; round 2: (0, -4, -7) / 2.5 -> 0.56792;
  // round 3: (0, -6, -10) / 3.5 -> 0.54176; round 4: (0, -14, -17) / 5 -> 0.31797.
  CHECK(metric(v, Metric::Uncertainty) ==
        Approx((0.34156 + 0.56792 + 0.54176 + 0.31797) / 4).epsilon(1e-4));
}

TEST_CASE("extended metrics: a leader from start to end, and a tied end", "[metrics][extended]") {
  // Seat 1 leads every round: decided from round 1, never trailed.
  const MetricValues led = track({{0, 1}, {0, 3}, {1, 3}}).values(0);
  CHECK(metric(led, Metric::DecisivenessFinalLead) == 1.0);
  CHECK(metric(led, Metric::DramaTrailing) == 0.0);
  CHECK(metric(led, Metric::Comeback) == 0.0);
  // A game that ends tied has no final leader: no drama, nothing decided, no comeback; its
  // uncertainty still counts every round (the last one: 1).
  const MetricValues tied = track({{0, 4}, {4, 4}}).values(0);
  CHECK(metric(tied, Metric::DramaTrailing) == 0.0);
  CHECK(metric(tied, Metric::DecisivenessFinalLead) == 0.0);
  CHECK(metric(tied, Metric::Comeback) == 0.0);
  CHECK(metric(tied, Metric::Uncertainty) == Approx((binaryEntropy(4) + 1) / 2));
}

TEST_CASE("extended metrics: the same in any gain unit, drama in the game's units",
          "[metrics][extended]") {
  const std::vector<std::vector<double>> rounds = {{0, 4}, {2, 4}, {6, 4}, {6, 6}, {9, 6}};
  std::vector<std::vector<double>> scaled = rounds;
  for (auto& gains : scaled)
    for (double& g : gains) g *= 1000;
  const MetricValues a = track(rounds).values(0), b = track(scaled).values(0);
  CHECK(metric(b, Metric::DramaTrailing) == Approx(1000 * metric(a, Metric::DramaTrailing)));
  for (Metric m : {Metric::DecisivenessFinalLead, Metric::Uncertainty, Metric::Comeback})
    CHECK(metric(b, m) == Approx(metric(a, m)));
}

TEST_CASE("extended metrics: a seat out of the game cannot win", "[metrics][extended]") {
  // Seat 2 is out with the top gain: statuses (2, -2, 0), the winner is seat 0 or 1, d = 4 / 1
  // temperatures: h(4) bits over two seats, normalized by log2 3 (three seats).
  MetricsTracker t(std::vector<double>{0, 0, 0});
  const std::array<bool, 3> out = {false, false, true};
  t.endRound(std::vector<double>{5, 3, 8}, out);
  CHECK(metric(t.values(0), Metric::Uncertainty) == Approx(binaryEntropy(4) / std::log2(3.0)));
}

TEST_CASE("extended metrics: one player has none, and none before any round",
          "[metrics][extended]") {
  const MetricValues solo = track({{1}, {-2}, {3}}).values(0);
  const MetricValues none = MetricsTracker(std::vector<double>{0, 0}).values(0);
  for (Metric m : {Metric::DramaTrailing, Metric::DecisivenessFinalLead, Metric::Uncertainty,
                   Metric::Comeback}) {
    CHECK(metric(solo, m) == 0.0);
    CHECK(metric(none, m) == 0.0);
    CHECK_FALSE(metricInfo(m).appliesTo(1));
    CHECK(metricInfo(m).appliesTo(2));
    CHECK(metricInfo(m).extended);
  }
  for (size_t k = 0; k < kThesisMetrics; ++k) CHECK_FALSE(allMetrics()[k].extended);
}

TEST_CASE("extended metrics: a copy of the tracker follows on by itself", "[metrics][extended]") {
  // Search players copy the tracker: the per-seat state must be values, not shared.
  MetricsTracker t = track({{0, 4}, {6, 4}});
  const MetricValues before = t.values(0);
  MetricsTracker copy = t;
  copy.endRound(std::vector<double>{6, 20});
  CHECK(t.values(0) == before);
  CHECK(metric(copy.values(0), Metric::DramaTrailing) ==
        Approx(2.0));  // seat 1 trailed by 2 in round 2
  CHECK(metric(copy.values(0), Metric::DecisivenessFinalLead) == Approx(1.0 / 3));
}

// ---------------------------------------------------------------------------------------------
// score-ext

namespace {

size_t at(Metric m) {
  return static_cast<size_t>(m);
}

// The column of `key` in scoredMetrics().
size_t col(std::string_view key) {
  const auto columns = scoredMetrics();
  for (size_t k = 0; k < columns.size(); ++k)
    if (columns[k].key() == key) return k;
  FAIL("no column " << key);
  return 0;
}

// A two-player summary with every thesis mean 1 and win_ratio 0.1 (the same in every row: every
// row gets 1 in tables 8 and 9), and these means of the scored extended metrics (drama_trailing,
// decisiveness_final_lead, uncertainty, comeback, drama_average, decisiveness_moves).
ExperimentSummary summaryWithExtended(const std::array<double, 6>& extended) {
  ExperimentSummary s;
  s.players.resize(2);
  for (size_t k = 0; k < kThesisMetrics; ++k) s.metrics[k].mean = 1;
  s.winRatio = 0.1;
  const std::array<Metric, 6> order = {Metric::DramaTrailing, Metric::DecisivenessFinalLead,
                                       Metric::Uncertainty,   Metric::Comeback,
                                       Metric::DramaAverage,  Metric::DecisivenessMoves};
  for (size_t k = 0; k < order.size(); ++k) s.metrics[at(order[k])].mean = extended[k];
  return s;
}

}  // namespace

TEST_CASE("score-ext: the extended metrics score apart from tables 8 and 9", "[scoring]") {
  // The columns: table 8's in catalog order and win_ratio, then the scored extended six
  // (decisiveness_threshold is reported, not scored).
  const auto columns = scoredMetrics();
  REQUIRE(columns.size() == 8 + 1 + 6);
  CHECK(columns[7].key() == "randomness");
  CHECK(columns[8].key() == "win_ratio");
  CHECK(columns[9].key() == "drama_trailing");
  CHECK(columns[12].key() == "comeback");
  CHECK(columns[13].key() == "drama_average");
  CHECK(columns[14].key() == "decisiveness_moves");
  // Higher is better but for decisiveness_final_lead.
  const std::vector<ExperimentSummary> summaries = {
      summaryWithExtended({4, 0.5, 0.6, 0.2, 1.0, 0.3}),
      summaryWithExtended({2, 0.25, 0.3, 0.4, 4.0, 0.6}),
  };
  const ComparisonScores scores = scoreComparison("cmp", {"a", "b"}, summaries);
  CHECK(scores.notes.empty());
  // Ratios: drama_trailing 1 / 0.5; decisiveness_final_lead (minimized) 0.25 / 0.5 = 0.5 / 1;
  // uncertainty 1 / 0.5; comeback 0.5 / 1; drama_average 0.25 / 1; decisiveness_moves 0.5 / 1.
  const std::array<std::array<double, 6>, 2> expected = {
      {{1, 0.5, 1, 0.5, 0.25, 0.5}, {0.5, 1, 0.5, 1, 1, 1}}};
  for (size_t row = 0; row < 2; ++row)
    for (size_t k = 0; k < 6; ++k)
      CHECK(scores.rows[row].ratios[9 + k] == Approx(expected[row][k]));
  CHECK(scores.rows[0].scoreExt == Approx(3.75));
  CHECK(scores.rows[1].scoreExt == Approx(5.0));
  CHECK(scores.rows[1].score(ScoreTable::Extended) == scores.rows[1].scoreExt);
  // Tables 8 and 9 are the thesis's alone: every thesis column is the same in both rows.
  for (const ScoreRow& row : scores.rows) {
    CHECK(row.score9 == 9.0);
    CHECK(row.score4 == 4.0);
  }
  CHECK(scores.rows[0].ratios[col("lead")] == 1.0);
  // One player: the extended metrics do not score, and score-ext is 0.
  std::vector<ExperimentSummary> solo = summaries;
  for (auto& s : solo) s.players.resize(1);
  const ComparisonScores alone = scoreComparison("solo", {"a", "b"}, solo);
  CHECK(alone.rows[0].scoreExt == 0.0);
  CHECK(std::isnan(alone.rows[0].ratios[col("drama_average")]));
}

TEST_CASE("score-ext: the cross table of the comparisons", "[scoring]") {
  std::vector<ComparisonScores> all;
  for (const auto& [name, ext] :
       {std::pair("one", std::array{3.0, 1.5}), std::pair("two", std::array{2.0, 4.0})}) {
    ComparisonScores c;
    c.comparison = name;
    for (size_t i = 0; i < 2; ++i) {
      ScoreRow row;
      row.experiment = std::string(name) + (i == 0 ? "/e-random" : "/e-hillclimber");
      row.scoreExt = ext[i];
      row.score9 = 9;
      c.rows.push_back(row);
    }
    all.push_back(c);
  }
  const CrossScores cross = crossScores(all, ScoreTable::Extended);
  REQUIRE(cross.rows == std::vector<std::string>{"e-random", "e-hillclimber"});
  CHECK(cross.means[0] == Approx(2.5));   // (3 + 2) / 2
  CHECK(cross.means[1] == Approx(2.75));  // (1.5 + 4) / 2
  CHECK(crossScores(all, ScoreTable::AllMetrics).means[1] == 9.0);
  CHECK(scoreKey(ScoreTable::Extended) == "score_ext");
  CHECK(scoreTableName(ScoreTable::Extended) == "score-ext");
}
