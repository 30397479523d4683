// Every fun metric of metrics.md against hand-computed traces, driving MetricsTracker directly;
// plus the status of players computed from gains and the signs of the fun score.
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/metrics.h"
#include "core/status.h"

using namespace ddalab;

namespace {

double metric(const MetricValues& v, Metric m) {
  return v[static_cast<size_t>(m)];
}

// Statuses and leader of `gains` as computeStatuses reports them.
struct StatusResult {
  std::vector<double> statuses;
  int leader;
};

StatusResult statusesOf(std::vector<double> gains) {
  StatusResult r{std::vector<double>(gains.size(), 123.0), 0};
  r.leader = computeStatuses(gains, r.statuses);
  return r;
}

// Ends the current round of `t` with `gains`.
void endRound(MetricsTracker& t, std::vector<double> gains) {
  t.endRound(gains);
}

}  // namespace

TEST_CASE("computeStatuses: n = 1, status equals the gain and there is no leader",
          "[metrics][status]") {
  auto r = statusesOf({-2.5});
  CHECK(r.statuses[0] == -2.5);
  CHECK(r.leader == -1);
  r = statusesOf({7.0});
  CHECK(r.statuses[0] == 7.0);
  CHECK(r.leader == -1);
}

TEST_CASE("computeStatuses: n = 2, statuses are opposite numbers", "[metrics][status]") {
  // Gains 3 and 7: leader 1 with 7 - 3 = 4, player 0 has 3 - 7 = -4.
  auto r = statusesOf({3.0, 7.0});
  CHECK(r.leader == 1);
  CHECK(r.statuses[0] == -4.0);
  CHECK(r.statuses[1] == 4.0);
  CHECK(r.statuses[0] == -r.statuses[1]);
  // Negative gains: -1.5 vs -4: leader 0 with 2.5.
  r = statusesOf({-1.5, -4.0});
  CHECK(r.leader == 0);
  CHECK(r.statuses[0] == 2.5);
  CHECK(r.statuses[1] == -2.5);
  // Equal gains: tied, both 0, no leader.
  r = statusesOf({2.0, 2.0});
  CHECK(r.leader == -1);
  CHECK(r.statuses[0] == 0.0);
  CHECK(r.statuses[1] == 0.0);
}

TEST_CASE("computeStatuses: n = 4, leader minus second, others minus leader", "[metrics][status]") {
  // Gains (1, 5, 2, -1): leader 1 (second best 2) -> 5 - 2 = 3; others gain - 5.
  auto r = statusesOf({1.0, 5.0, 2.0, -1.0});
  CHECK(r.leader == 1);
  CHECK(r.statuses == std::vector<double>{-4.0, 3.0, -3.0, -6.0});
  // A tie below the lead does not matter: (5, 2, 2, 1) -> leader 0 with 5 - 2 = 3.
  r = statusesOf({5.0, 2.0, 2.0, 1.0});
  CHECK(r.leader == 0);
  CHECK(r.statuses == std::vector<double>{3.0, -3.0, -3.0, -4.0});
  // A tie for the lead: (3, 1, 3, 0) -> tied players 0, the others gain - 3, no leader.
  r = statusesOf({3.0, 1.0, 3.0, 0.0});
  CHECK(r.leader == -1);
  CHECK(r.statuses == std::vector<double>{0.0, -2.0, 0.0, -3.0});
  // Three-way tie at the top of four.
  r = statusesOf({4.0, 4.0, 1.0, 4.0});
  CHECK(r.leader == -1);
  CHECK(r.statuses == std::vector<double>{0.0, 0.0, -3.0, 0.0});
}

TEST_CASE("computeStatuses: ties within 1e-9 * max(1, |gain|)", "[metrics][status]") {
  // Large gains: the tolerance is relative. 0.5 / 1e9 = 5e-10 <= 1e-9 -> tied.
  CHECK(gainsTied(1e9, 1e9 + 0.5));
  auto r = statusesOf({1e9, 1e9 + 0.5});
  CHECK(r.leader == -1);
  CHECK(r.statuses == std::vector<double>{0.0, 0.0});
  // 2 / 1e9 = 2e-9 > 1e-9 -> not tied, leader 1 with 2.
  CHECK_FALSE(gainsTied(1e9, 1e9 + 2.0));
  r = statusesOf({1e9, 1e9 + 2.0});
  CHECK(r.leader == 1);
  CHECK(r.statuses == std::vector<double>{-2.0, 2.0});
  // Negative large gains use |gain| as well.
  CHECK(gainsTied(-1e9, -1e9 - 0.5));
  r = statusesOf({-1e9 - 0.5, -1e9, -2e9, -3e9});
  CHECK(r.leader == -1);
  CHECK(r.statuses[0] == 0.0);
  CHECK(r.statuses[1] == 0.0);
  CHECK(r.statuses[2] == Approx(-1e9).epsilon(1e-12));
  // Small gains: the tolerance is absolute 1e-9 (max(1, |gain|) = 1).
  CHECK(gainsTied(0.5, 0.5 + 5e-10));
  CHECK_FALSE(gainsTied(0.5, 0.5 + 2e-9));
  r = statusesOf({0.5 + 5e-10, 0.5, 0.0, 0.0});
  CHECK(r.leader == -1);
  CHECK(r.statuses[0] == 0.0);
  CHECK(r.statuses[1] == 0.0);
  r = statusesOf({0.5 + 2e-9, 0.5, 0.0, 0.0});
  CHECK(r.leader == 0);
  CHECK(r.statuses[0] == Approx(2e-9).margin(1e-15));
}

TEST_CASE("MetricsTracker: two players, hand-computed trace with ties", "[metrics]") {
  // Initial gains (0, 0): tied, statuses (0, 0), no leader.
  MetricsTracker t(std::vector<double>{0.0, 0.0});
  CHECK(t.numPlayers() == 2);
  CHECK(t.rounds() == 0);
  CHECK(t.leader() == -1);

  // R1: environment; player 0 moves among 3. Gains (2, 0) -> statuses (2, -2), leader 0.
  //     delta (2, -2); |s*| = 2; first unique leader: not a change.
  t.onEnvironmentEvent();
  t.onDecision(0, 3, false);
  endRound(t, {2.0, 0.0});
  CHECK(t.leader() == 0);
  CHECK(t.status(0) == 2.0);
  CHECK(t.status(1) == -2.0);
  CHECK(metric(t.values(0), Metric::LeadChanges) == 0);

  // R2: no environment; player 1 passes among 2. Gains (2, 5) -> (-3, 3), leader 1.
  //     delta not counted (no environment event); |s*| = 3; change 1 (0 -> 1).
  t.onDecision(1, 2, true);
  endRound(t, {2.0, 5.0});
  CHECK(t.leader() == 1);
  CHECK(metric(t.values(0), Metric::LeadChanges) == 1);

  // R3: environment; player 0 moves among 4. Gains (4, 4) -> tied, (0, 0), no leader.
  //     delta (0 - -3, 0 - 3) = (3, -3); |s*| = 0. Player 1 stays the reference.
  t.onEnvironmentEvent();
  t.onDecision(0, 4, false);
  endRound(t, {4.0, 4.0});
  CHECK(t.leader() == -1);
  CHECK(t.status(0) == 0.0);
  CHECK(t.status(1) == 0.0);

  // R4: environment; player 1 passes among 1. Gains (1, 6) -> (-5, 5), leader 1.
  //     delta (-5, 5); |s*| = 5; leader equals the reference (1): no change.
  t.onEnvironmentEvent();
  t.onDecision(1, 1, true);
  endRound(t, {1.0, 6.0});
  CHECK(metric(t.values(0), Metric::LeadChanges) == 1);

  // R5: environment; player 0 moves among 2. Gains (6, 6) -> tied (0, 0).
  //     delta (0 - -5, 0 - 5) = (5, -5); |s*| = 0.
  t.onEnvironmentEvent();
  t.onDecision(0, 2, false);
  endRound(t, {6.0, 6.0});

  // R6: no environment; player 1 moves among 3. Gains (9, 6) -> (3, -3), leader 0.
  //     delta not counted; |s*| = 3; leader 0 differs from the reference 1: change 2.
  t.onDecision(1, 3, false);
  endRound(t, {9.0, 6.0});
  CHECK(metric(t.values(0), Metric::LeadChanges) == 2);

  // R7: environment; player 0 moves among 5. Gains (10, 6.5) -> (3.5, -3.5), leader 0.
  //     delta (0.5, -0.5); |s*| = 3.5; no change.
  t.onEnvironmentEvent();
  t.onDecision(0, 5, false);
  endRound(t, {10.0, 6.5});

  const MetricValues v = t.values(0.25);
  // rounds a = 7
  CHECK(metric(v, Metric::Rounds) == 7);
  CHECK(t.rounds() == 7);
  // lead changes: R2 (0 -> 1) and R6 (1 -> 0 across the ties of R3..R5) = 2
  CHECK(metric(v, Metric::LeadChanges) == 2);
  // lead = |s*_7| = 3.5
  CHECK(metric(v, Metric::Lead) == Approx(3.5));
  // tension = (2 + 3 + 0 + 5 + 0 + 3 + 3.5) / 7 = 16.5 / 7
  CHECK(metric(v, Metric::Tension) == Approx(16.5 / 7));
  // leadRounds: player 0 in R1, R6, R7 = 3; player 1 in R2, R4 = 2; std(3, 2) = 0.5
  CHECK(metric(v, Metric::LeadingTime) == Approx(0.5));
  // freedom = (3 + 2 + 4 + 1 + 2 + 3 + 5) / 7 decisions = 20 / 7
  CHECK(metric(v, Metric::Freedom) == Approx(20.0 / 7));
  // fairness: sum delta p0 = 2 + 3 - 5 + 5 + 0.5 = 5.5, p1 = -5.5; s = (5.5/7, -5.5/7),
  // mean 0, population std = 5.5 / 7
  CHECK(metric(v, Metric::Fairness) == Approx(5.5 / 7));
  // randomness = (|2|+|-2| + |3|+|-3| + |-5|+|5| + |5|+|-5| + |0.5|+|-0.5|) / (7 * 2) = 31 / 14
  CHECK(metric(v, Metric::Randomness) == Approx(31.0 / 14));
  // believability is passed through from the game
  CHECK(metric(v, Metric::Believability) == 0.25);

  // Counters: player 0 moved in R1, R3, R5, R7 (4 moves, 4 turns), led 3 rounds;
  // player 1 passed in R2 and R4, moved in R6 (1 move, 3 turns), led 2 rounds.
  CHECK(t.counters(0).moves == 4);
  CHECK(t.counters(0).turns == 4);
  CHECK(t.counters(0).leadRounds == 3);
  CHECK(t.counters(1).moves == 1);
  CHECK(t.counters(1).turns == 3);
  CHECK(t.counters(1).leadRounds == 2);
}

TEST_CASE("MetricsTracker: one player, lead changes are sign changes", "[metrics]") {
  // Initial gain 0 -> status 0.
  MetricsTracker t(std::vector<double>{0.0});
  CHECK(t.numPlayers() == 1);
  CHECK(t.leader() == -1);

  // R1: env; 2 legal, move; gain -1 -> status -1; delta -1; first sign (negative): no change.
  t.onEnvironmentEvent();
  t.onDecision(0, 2, false);
  endRound(t, {-1.0});
  CHECK(t.status(0) == -1.0);
  // R2: env; 3 legal, move; gain 0 -> status 0; delta +1; zero keeps the negative sign.
  t.onEnvironmentEvent();
  t.onDecision(0, 3, false);
  endRound(t, {0.0});
  // R3: no env; 1 legal, pass; gain 2; delta not counted; negative -> positive: change 1.
  t.onDecision(0, 1, true);
  endRound(t, {2.0});
  CHECK(metric(t.values(0), Metric::LeadChanges) == 1);
  // R4: env; 4 legal, move; gain 0; delta -2; zero keeps the positive sign.
  t.onEnvironmentEvent();
  t.onDecision(0, 4, false);
  endRound(t, {0.0});
  // R5: env; 2 legal, move; gain 0.5; delta +0.5; positive after (kept) positive: no change.
  t.onEnvironmentEvent();
  t.onDecision(0, 2, false);
  endRound(t, {0.5});
  CHECK(metric(t.values(0), Metric::LeadChanges) == 1);
  // R6: env; 3 legal, move; gain -3; delta -3.5; positive -> negative: change 2.
  t.onEnvironmentEvent();
  t.onDecision(0, 3, false);
  endRound(t, {-3.0});

  const MetricValues v = t.values(0);
  CHECK(metric(v, Metric::Rounds) == 6);
  CHECK(metric(v, Metric::LeadChanges) == 2);
  // lead = |s*_6| = 3
  CHECK(metric(v, Metric::Lead) == Approx(3.0));
  // tension = (1 + 0 + 2 + 0 + 0.5 + 3) / 6 = 6.5 / 6
  CHECK(metric(v, Metric::Tension) == Approx(6.5 / 6));
  // status > 0 in R3, R5 (2 rounds); <= 0 in R1, R2, R4, R6 (4 rounds); std(2, 4) = 1
  CHECK(metric(v, Metric::LeadingTime) == Approx(1.0));
  // freedom = (2 + 3 + 1 + 4 + 2 + 3) / 6 = 15 / 6
  CHECK(metric(v, Metric::Freedom) == Approx(2.5));
  // fairness: std over a single player = 0
  CHECK(metric(v, Metric::Fairness) == 0.0);
  // randomness = (|-1| + |1| + |-2| + |0.5| + |-3.5|) / (6 * 1) = 8 / 6
  CHECK(metric(v, Metric::Randomness) == Approx(8.0 / 6));
  // moves: 5 (R3 was a pass), turns 6, leadRounds = rounds with status > 0 = 2
  CHECK(t.counters(0).moves == 5);
  CHECK(t.counters(0).turns == 6);
  CHECK(t.counters(0).leadRounds == 2);
}

TEST_CASE("MetricsTracker: four players, ties for the lead, several decisions per turn",
          "[metrics]") {
  // Initial gains (0, 0, 0, 0): all tied, statuses 0.
  MetricsTracker t(std::vector<double>{0.0, 0.0, 0.0, 0.0});
  CHECK(t.numPlayers() == 4);

  // R1: env; player 0 decides twice (2 legal move, 1 legal pass) -> 1 turn, 1 move.
  //     Gains (3, 1, 3, 0): players 0 and 2 tied for the lead -> (0, -2, 0, -3), no leader.
  //     delta (0, -2, 0, -3); |s*| = 0.
  t.onEnvironmentEvent();
  t.onDecision(0, 2, false);
  t.onDecision(0, 1, true);
  endRound(t, {3.0, 1.0, 3.0, 0.0});
  CHECK(t.leader() == -1);
  CHECK(t.status(0) == 0.0);
  CHECK(t.status(1) == -2.0);
  CHECK(t.status(2) == 0.0);
  CHECK(t.status(3) == -3.0);
  // R2: no env; player 1, 3 legal, move. Gains (3, 4, 3, 0) -> leader 1 with 4 - 3 = 1;
  //     statuses (-1, 1, -1, -4); first unique leader: no change; |s*| = 1.
  t.onDecision(1, 3, false);
  endRound(t, {3.0, 4.0, 3.0, 0.0});
  CHECK(t.leader() == 1);
  CHECK(t.status(1) == 1.0);
  CHECK(metric(t.values(0), Metric::LeadChanges) == 0);
  // R3: env; player 2, 2 legal, move. Gains (3, 4, 6, 2) -> leader 2 with 6 - 4 = 2;
  //     statuses (-3, -2, 2, -4); delta (-2, -3, 3, 0); change 1; |s*| = 2.
  t.onEnvironmentEvent();
  t.onDecision(2, 2, false);
  endRound(t, {3.0, 4.0, 6.0, 2.0});
  // R4: env; player 3, 1 legal, pass. Gains (3, 4, 6, 8) -> leader 3 with 8 - 6 = 2;
  //     statuses (-5, -4, -2, 2); delta (-2, -2, -4, 6); change 2; |s*| = 2.
  t.onEnvironmentEvent();
  t.onDecision(3, 1, true);
  endRound(t, {3.0, 4.0, 6.0, 8.0});
  // R5: env; player 0, 4 legal, move. Gains (8, 4, 6, 8) -> players 0 and 3 tied:
  //     statuses (0, -4, -2, 0); delta (5, 0, 0, -2); |s*| = 0.
  t.onEnvironmentEvent();
  t.onDecision(0, 4, false);
  endRound(t, {8.0, 4.0, 6.0, 8.0});
  CHECK(t.leader() == -1);

  const MetricValues v = t.values(0);
  CHECK(metric(v, Metric::Rounds) == 5);
  CHECK(metric(v, Metric::LeadChanges) == 2);
  // lead = |s*_5| = 0 (tied lead)
  CHECK(metric(v, Metric::Lead) == 0.0);
  // tension = (0 + 1 + 2 + 2 + 0) / 5 = 1
  CHECK(metric(v, Metric::Tension) == Approx(1.0));
  // leadRounds (0, 1, 1, 1): mean 0.75, var = (0.5625 + 3 * 0.0625) / 4 = 0.1875
  CHECK(metric(v, Metric::LeadingTime) == Approx(std::sqrt(0.1875)));
  // freedom = (2 + 1 + 3 + 2 + 1 + 4) / 6 decisions = 13 / 6
  CHECK(metric(v, Metric::Freedom) == Approx(13.0 / 6));
  // fairness: sums of delta p0 = 0 - 2 - 2 + 5 = 1, p1 = -2 - 3 - 2 + 0 = -7,
  // p2 = 0 + 3 - 4 + 0 = -1, p3 = -3 + 0 + 6 - 2 = 1; s = (0.2, -1.4, -0.2, 0.2), mean -0.3;
  // squared deviations 0.25 + 1.21 + 0.01 + 0.25 = 1.72, var 0.43
  CHECK(metric(v, Metric::Fairness) == Approx(std::sqrt(0.43)));
  // randomness = (5 + 8 + 14 + 7) / (5 * 4) = 34 / 20
  CHECK(metric(v, Metric::Randomness) == Approx(1.7));

  CHECK(t.counters(0).moves == 2);  // R1 move (+ a pass), R5 move
  CHECK(t.counters(0).turns == 2);  // R1 (two decisions, one turn), R5
  CHECK(t.counters(0).leadRounds == 0);
  for (int p = 1; p < 4; ++p) {
    CHECK(t.counters(p).turns == 1);
    CHECK(t.counters(p).leadRounds == 1);
  }
  CHECK(t.counters(1).moves == 1);
  CHECK(t.counters(2).moves == 1);
  CHECK(t.counters(3).moves == 0);  // passed
}

TEST_CASE("MetricsTracker: initial status is the reference of round 1's delta", "[metrics]") {
  // Initial gains (5, 1): statuses (4, -4). R1 with env: gains (2, 3) -> (-1, 1):
  // delta (-5, 5). fairness: s = (-5, 5), std 5; randomness (5 + 5) / 2 = 5.
  // The initial leader (0) is not a "last leader seen": leader 1 in R1 is not a change.
  MetricsTracker t(std::vector<double>{5.0, 1.0});
  CHECK(t.status(0) == 4.0);
  CHECK(t.leader() == 0);
  t.onEnvironmentEvent();
  t.onDecision(0, 2, false);
  endRound(t, {2.0, 3.0});
  const MetricValues v = t.values(0);
  CHECK(metric(v, Metric::Fairness) == Approx(5.0));
  CHECK(metric(v, Metric::Randomness) == Approx(5.0));
  CHECK(metric(v, Metric::LeadChanges) == 0);
  CHECK(metric(v, Metric::Tension) == Approx(1.0));
}

TEST_CASE("MetricsTracker: no rounds yet gives zeros", "[metrics]") {
  MetricsTracker t(std::vector<double>{1.0, 0.0, 0.0});
  const MetricValues v = t.values(0);
  for (double x : v) CHECK(x == 0.0);
}

TEST_CASE("metric table and fun score signs", "[metrics]") {
  REQUIRE(allMetrics().size() == kBuiltInMetrics);
  CHECK(metricByKey("lead_changes") == Metric::LeadChanges);
  CHECK(metricByKey("randomness") == Metric::Randomness);
  CHECK_FALSE(metricByKey("no_such_metric").has_value());
  for (const auto& info : allMetrics()) CHECK(metricByKey(info.key) == info.metric);

  // Each metric alone: value 2, coefficient 3 -> +6 where higher is better (and for rounds and
  // randomness and the decisiveness threshold), -6 where lower is better (decisiveness_final_lead
  // among the extended ones).
  const std::array<std::pair<Metric, double>, kBuiltInMetrics> expected = {{
      {Metric::Rounds, 6.0},
      {Metric::LeadChanges, 6.0},
      {Metric::Lead, -6.0},
      {Metric::Tension, -6.0},
      {Metric::LeadingTime, -6.0},
      {Metric::Freedom, 6.0},
      {Metric::Fairness, -6.0},
      {Metric::Believability, -6.0},
      {Metric::Randomness, 6.0},
      {Metric::DramaTrailing, 6.0},
      {Metric::DecisivenessFinalLead, -6.0},
      {Metric::Uncertainty, 6.0},
      {Metric::Comeback, 6.0},
      {Metric::DramaAverage, 6.0},
      {Metric::DecisivenessThreshold, 6.0},
      {Metric::DecisivenessMoves, 6.0},
  }};
  for (const auto& [m, f] : expected) {
    MetricValues v{};
    Coefficients c{};
    v[static_cast<size_t>(m)] = 2.0;
    c[static_cast<size_t>(m)] = 3.0;
    INFO("metric " << metricInfo(m).key);
    CHECK(funScore(v, c) == f);
  }
  // Randomness with a negative coefficient: the sign comes from the coefficient.
  MetricValues v{};
  Coefficients c{};
  v[static_cast<size_t>(Metric::Randomness)] = 2.0;
  c[static_cast<size_t>(Metric::Randomness)] = -1.5;
  CHECK(funScore(v, c) == -3.0);
  // Combined: values (rounds 10, lead_changes 2, lead 1, tension 0.5, leading_time 4,
  // freedom 3, fairness 0.25, believability 0.1, randomness 2) with the Ludo thesis weights
  // (believability 1000, fairness 10, leading_time 10, tension 10, lead 3, freedom 1):
  // F = -100 - 2.5 - 40 - 5 - 3 + 3 = -147.5
  v = {10, 2, 1, 0.5, 4, 3, 0.25, 0.1, 2};
  c = {0, 0, 3, 10, 10, 1, 10, 1000, 0};
  CHECK(funScore(v, c) == Approx(-147.5));

  // The tracker's fun() is funScore of its values: trace of one round with n = 2,
  // gains (0, 0) -> (1, 0): lead 1, tension 1, leading_time std(1, 0) = 0.5, freedom 4.
  MetricsTracker t(std::vector<double>{0.0, 0.0});
  t.onDecision(0, 4, false);
  endRound(t, {1.0, 0.0});
  // F = -3*1 - 10*1 - 10*0.5 + 1*4 - 10*0 - 1000*0.1 = -114
  CHECK(t.fun(c, 0.1) == Approx(-114.0));
}

TEST_CASE("players out of the game keep their gain but cannot lead", "[metrics]") {
  std::array<double, 3> statuses{};
  const std::array<bool, 3> thirdOut = {false, false, true};
  // The out player has the top gain: the leader is the best of the others, measured against them.
  CHECK(computeStatuses(std::array{5.0, 3.0, 8.0}, statuses, thirdOut) == 0);
  CHECK(statuses == std::array{2.0, -2.0, 0.0});
  // A tie among the players still in; the out player's status is its gain minus the top.
  CHECK(computeStatuses(std::array{5.0, 5.0, 1.0}, statuses, thirdOut) == -1);
  CHECK(statuses == std::array{0.0, 0.0, -4.0});
  // One player left: it leads, measured against the best of the others.
  const std::array<bool, 3> onlySecondIn = {true, false, true};
  CHECK(computeStatuses(std::array{2.0, 9.0, 4.0}, statuses, onlySecondIn) == 1);
  CHECK(statuses == std::array{-7.0, 5.0, -5.0});
  // Nobody out (or everybody): as without the mask.
  std::array<double, 3> plain{};
  const std::array<bool, 3> allOut = {true, true, true};
  CHECK(computeStatuses(std::array{5.0, 3.0, 8.0}, plain) == 2);
  CHECK(computeStatuses(std::array{5.0, 3.0, 8.0}, statuses, allOut) == 2);
  CHECK(statuses == plain);
}
