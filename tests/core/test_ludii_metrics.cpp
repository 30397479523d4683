// Ludii's drama (Drama Average), decisiveness threshold and decisiveness moves (metrics.md,
// "Ludii's metrics") against traces worked out by hand, beside ddalab's own drama_trailing and
// decisiveness_final_lead on the same traces. Ludii evaluates the state before each move; ddalab
// the statuses before each round: the initial ones and those after every round but the last, whose
// statuses only rank the seats (the eventual winners).
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/metrics.h"

using namespace ddalab;

namespace {

double metric(const MetricValues& v, Metric m) {
  return v[static_cast<size_t>(m)];
}

using Trace = std::vector<double>;  // gains, one per seat

// A tracker from the gains `initial` through rounds ending with `rounds` (gains).
MetricsTracker track(const Trace& initial, const std::vector<Trace>& rounds) {
  MetricsTracker t(initial);
  for (const Trace& gains : rounds) t.endRound(gains);
  return t;
}

struct Ludii {
  double drama, threshold, moves;
};

Ludii ludii(const MetricValues& v) {
  return {metric(v, Metric::DramaAverage), metric(v, Metric::DecisivenessThreshold),
          metric(v, Metric::DecisivenessMoves)};
}

}  // namespace

TEST_CASE("ludii metrics: three seats, the winner comes back and passes the threshold",
          "[metrics][ludii]") {
  // round  gains        statuses after it   leader
  // -      (0, 0, 0)    (0, 0, 0)            tie     state 0
  // 1      (1, 3, 0)    (-2, 2, -3)          1       state 1
  // 2      (4, 3, 1)    (1, -1, -3)          0       state 2
  // 3      (4, 6, 2)    (-2, 2, -4)          1       state 3
  // 4      (9, 6, 2)    (3, -3, -7)          0       state 4
  // 5      (12, 6, 2)   (6, -6, -10)         0       (the final state: it names the winner, 0)
  const MetricValues v =
      track({0, 0, 0}, {{1, 3, 0}, {4, 3, 1}, {4, 6, 2}, {9, 6, 2}, {12, 6, 2}}).values(0);
  const Ludii l = ludii(v);
  // Best status less seat 0's in states 0..4: 0, 4, 0, 4, 0; over all five states: 8 / 5.
  // (Over the two states it trailed only: 4; with the final state too: 8 / 6.)
  CHECK(l.drama == Approx(1.6));
  // The losers' highest status: seat 1 reached 2 (states 1 and 3), seat 2 at most 0.
  CHECK(l.threshold == 2.0);
  // Seat 0's statuses 0, -2, 1, -2, 3: first above 2 in state 4, after 4 of the 5 rounds.
  CHECK(l.moves == Approx(0.8));
  // ddalab's variants: seat 0 trailed after rounds 1 and 3 by 2 each; its final unbroken lead
  // runs from round 4: 2 of 5 rounds.
  CHECK(metric(v, Metric::DramaTrailing) == Approx(2.0));
  CHECK(metric(v, Metric::DecisivenessFinalLead) == Approx(0.4));
}

TEST_CASE("ludii metrics: a draw between all seats, and a tie at the top with a loser",
          "[metrics][ludii]") {
  // Two seats ending tied: both are the eventual winners (Ludii's highest ranked players).
  // gains (0, 0) -> (2, 0) -> (2, 3) -> (3, 3); states (0, 0), (2, -2), (-1, 1).
  const Ludii draw = ludii(track({0, 0}, {{2, 0}, {2, 3}, {3, 3}}).values(0));
  // Best status less the winners' mean status: 0 - 0, 2 - 0, 1 - 0; mean 1.
  CHECK(draw.drama == Approx(1.0));
  // Nobody lost: no threshold to pass (0), decided from the start (Ludii: its floor -1, passed in
  // state 0).
  CHECK(draw.threshold == 0.0);
  CHECK(draw.moves == 0.0);
  // Three seats, 0 and 1 tied at the top at the end, 2 lost:
  // gains (0, 0, 0) -> (3, 1, 0) -> (3, 3, 1); states (0, 0, 0), (2, -2, -3); end (0, 0, -2).
  const Ludii tie = ludii(track({0, 0, 0}, {{3, 1, 0}, {3, 3, 1}}).values(0));
  // Per state: 0 - mean(0, 0) = 0, 2 - mean(2, -2) = 2; mean 1.
  CHECK(tie.drama == Approx(1.0));
  // Seat 2's highest status: 0 (state 0).
  CHECK(tie.threshold == 0.0);
  // State 0: the winners are at 0, not above it (Ludii's test is strict); state 1: seat 0 at 2.
  CHECK(tie.moves == Approx(0.5));
}

TEST_CASE("ludii metrics: a game stopped at the round cap is ranked by its last statuses",
          "[metrics][ludii]") {
  // The first three rounds of the comeback game: the tracker knows no cap, the seat leading at
  // the cap is the eventual winner (seat 1, status 2 after round 3).
  // States (0, 0, 0), (-2, 2, -3), (1, -1, -3).
  const MetricValues v = track({0, 0, 0}, {{1, 3, 0}, {4, 3, 1}, {4, 6, 2}}).values(0);
  const Ludii l = ludii(v);
  // Best less seat 1's: 0, 0, 2; mean 2 / 3.
  CHECK(l.drama == Approx(2.0 / 3));
  // Seat 0 reached 1 (state 2), seat 2 at most 0.
  CHECK(l.threshold == 1.0);
  // Seat 1's statuses 0, 2, -1: above 1 in state 1, after 1 of 3 rounds.
  CHECK(l.moves == Approx(1.0 / 3));
  CHECK(metric(v, Metric::DramaTrailing) == Approx(1.0));  // trailed after round 2 by 1
  CHECK(metric(v, Metric::DecisivenessFinalLead) == Approx(1.0 / 3));
}

TEST_CASE("ludii metrics: a seat out of the game never wins, its status still counts",
          "[metrics][ludii]") {
  // Seat 2 is out from round 1 on with the top gain: it cannot lead, its status is
  // min(0, gain - top).
  // round  gains       statuses
  // -      (0, 0, 0)   (0, 0, 0)       state 0
  // 1      (2, 1, 5)   (1, -1, 0)      state 1
  // 2      (2, 4, 5)   (-2, 2, 0)      state 2
  // 3      (6, 4, 5)   (2, -2, -1)     final: seat 0 wins
  MetricsTracker t(Trace{0, 0, 0});
  const std::array<bool, 3> out = {false, false, true};
  for (const Trace& gains : {Trace{2, 1, 5}, Trace{2, 4, 5}, Trace{6, 4, 5}})
    t.endRound(gains, out);
  const Ludii l = ludii(t.values(0));
  // Best less seat 0's: 0, 1 - 1 = 0, 2 - (-2) = 4; mean 4 / 3.
  CHECK(l.drama == Approx(4.0 / 3));
  // The losers 1 (at most 2) and 2 (at most 0).
  CHECK(l.threshold == 2.0);
  // Seat 0's 0, 1, -2 never exceed 2: Ludii counts all the moves, 3 of 3.
  CHECK(l.moves == 1.0);
}

TEST_CASE("ludii metrics: a winner who never trails", "[metrics][ludii]") {
  // gains (0, 0) -> (1, 0) -> (3, 1) -> (4, 1); states (0, 0), (1, -1), (2, -2).
  const MetricValues v = track({0, 0}, {{1, 0}, {3, 1}, {4, 1}}).values(0);
  const Ludii l = ludii(v);
  CHECK(l.drama == 0.0);              // seat 0 is the best in every state
  CHECK(l.threshold == 0.0);          // seat 1's best is the tie of state 0
  CHECK(l.moves == Approx(1.0 / 3));  // seat 0 above 0 from state 1
  CHECK(metric(v, Metric::DramaTrailing) == 0.0);
  CHECK(metric(v, Metric::DecisivenessFinalLead) == 1.0);
}

TEST_CASE(
    "ludii metrics: decisiveness moves in any gain unit, drama and threshold in the "
    "game's",
    "[metrics][ludii]") {
  const std::vector<Trace> rounds = {{1, 3, 0}, {4, 3, 1}, {4, 6, 2}, {9, 6, 2}, {12, 6, 2}};
  std::vector<Trace> scaled = rounds;
  for (auto& gains : scaled)
    for (double& g : gains) g *= 1000;
  const Ludii a = ludii(track({0, 0, 0}, rounds).values(0));
  const Ludii b = ludii(track({0, 0, 0}, scaled).values(0));
  CHECK(b.drama == Approx(1000 * a.drama));
  CHECK(b.threshold == Approx(1000 * a.threshold));
  CHECK(b.moves == a.moves);
}

TEST_CASE(
    "ludii metrics: one player has none, nor a game before its first round, nor a "
    "search that dropped them",
    "[metrics][ludii]") {
  const MetricValues solo = track({0}, {{1}, {-2}, {3}}).values(0);
  const MetricValues none = MetricsTracker(Trace{0, 0}).values(0);
  MetricsTracker lean(Trace{0, 0});
  lean.dropExtended();
  lean.endRound(Trace{1, 0});
  for (Metric m :
       {Metric::DramaAverage, Metric::DecisivenessThreshold, Metric::DecisivenessMoves}) {
    CHECK(metric(solo, m) == 0.0);
    CHECK(metric(none, m) == 0.0);
    CHECK(std::isnan(metric(lean.values(0), m)));
    CHECK_FALSE(metricInfo(m).appliesTo(1));
    CHECK(metricInfo(m).extended);
  }
  // The threshold is an input of decisiveness moves, not a quality: reported, not scored.
  CHECK_FALSE(metricInfo(Metric::DecisivenessThreshold).scored);
  CHECK(metricInfo(Metric::DramaAverage).better == Better::Higher);
  CHECK(metricInfo(Metric::DecisivenessMoves).better == Better::Higher);
}

TEST_CASE("ludii metrics: a copy of the tracker follows on by itself", "[metrics][ludii]") {
  // The records of new highest statuses are a vector: a copy must not share them.
  MetricsTracker t = track({0, 0}, {{0, 4}, {6, 4}});  // states (0, 0), (-4, 4); seat 0 leads
  const MetricValues before = t.values(0);
  MetricsTracker copy = t;
  copy.endRound(Trace{6, 20});  // states (0, 0), (-4, 4), (2, -2); seat 1 wins
  CHECK(t.values(0) == before);
  // Original: best less seat 0's 0, 8; threshold 4 (seat 1); seat 0 never above it: 2 of 2.
  CHECK(ludii(before).drama == Approx(4.0));
  CHECK(ludii(before).moves == 1.0);
  // Copy: best less seat 1's 0, 0, 4: 4 / 3; threshold 2 (seat 0); seat 1 above 2 in state 1.
  const Ludii c = ludii(copy.values(0));
  CHECK(c.drama == Approx(4.0 / 3));
  CHECK(c.threshold == 2.0);
  CHECK(c.moves == Approx(1.0 / 3));
}
