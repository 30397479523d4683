#pragma once
// The per-game fun metrics (metrics.md) and the tracker that computes them round by round.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.h"

namespace ddalab {

// A metric's index in MetricValues. The built-ins are 0..15 in file order (the thesis's nine, then
// ddalab's four extended ones, then Ludii's three); the catalog gives plug-in metrics the indices
// after them (static_cast<Metric>(i)).
enum class Metric : int {
  Rounds,
  LeadChanges,
  Lead,
  Tension,
  LeadingTime,
  Freedom,
  Fairness,
  Believability,
  Randomness,
  DramaTrailing,
  DecisivenessFinalLead,
  Uncertainty,
  Comeback,
  // Ludii's metrics (metrics.md, "Ludii's metrics"): its classes Drama (Average),
  // DecisivenessThreshold and DecisivenessMoves with a seat's status as its state evaluation.
  DramaAverage,
  DecisivenessThreshold,
  DecisivenessMoves,
};
// The thesis's metrics (0..8): tables 8 and 9 and the bench signature are theirs alone.
inline constexpr size_t kThesisMetrics = 9;
inline constexpr size_t kBuiltInMetrics = 16;
// Metrics the catalog holds at most (built-ins and plug-ins): MetricValues stays a value type.
inline constexpr size_t kMaxMetrics = 20;
// Doubles of per-game state every plug-in metric shares (each declares its part).
inline constexpr size_t kMetricScratch = 16;

// The free choices of the extended metrics (metrics.md, "Extended metrics"); statuses are in
// each game's gain units, so both are fractions of the largest |status| the game has shown.
// Uncertainty: the temperature of the softmax over the seats' statuses.
inline constexpr double kUncertaintyTemperature = 0.5;
// Comeback: the final leader's largest deficit must exceed this share to count.
inline constexpr double kComebackThreshold = 0.5;

// Which way a metric is better; `Neither` metrics take the sign from their coefficient.
enum class Better { Higher, Lower, Neither };

// What a plug-in metric sees at the end of a round.
struct RoundView {
  int rounds = 0;                  // rounds played so far, this one included
  int leader = -1;                 // its unique leader; -1 when tied or with one player
  std::span<const double> status;  // every seat's status after it
};

// How a plug-in metric follows a game through the rounds in its part of the tracker's scratch
// (zero when the game starts). Both are plain functions: the tracker is copied by the searches.
struct MetricRule {
  // The round `round` ended: update the metric's state.
  void (*endRound)(std::span<double> state, const RoundView& round) = nullptr;
  // The metric's value of the game so far; `last` is the last round (rounds = 0 before any).
  double (*value)(std::span<const double> state, const RoundView& last) = nullptr;
};

// A metric descriptor: the catalog (catalog.h) holds the built-ins and those of plug-ins, and
// every list of metrics (files, tables, tests, the GUI) is derived from it in catalog order.
struct MetricInfo {
  Metric metric = Metric::Rounds;  // its index in MetricValues; set by the catalog
  std::string key;                 // the key in files and on the command line
  std::string label;               // a short name for column headers ("Lead changes")
  std::string thesisName;          // the thesis's (Czech) name; empty for plug-in metrics
  std::string description;
  Better better = Better::Neither;
  // Whether it counts in the comparison scores (thesis table 8; `Neither` scores as `Lower`).
  bool scored = true;
  // Whether a game of `players` seats can have it (unset: every game); a metric a game cannot
  // have is not scored in its comparisons (fairness with one player is always 0).
  bool (*applies)(int players) = nullptr;
  // Whether it scores in the score-ext table instead of table 8 (metrics beyond the thesis:
  // tables 8 and 9 stay the thesis's).
  bool extended = false;
  // Plug-in metrics: how it is computed, and how many doubles of scratch it needs.
  MetricRule rule = {};
  size_t scratchSize = 0;
  size_t scratchOffset = 0;  // set by the catalog

  bool appliesTo(int players) const { return !applies || applies(players); }
};

// Every metric of the catalog in catalog order (the built-ins first, in file order).
std::span<const MetricInfo> allMetrics();
const MetricInfo& metricInfo(Metric m);
// The metric with this key, if any.
std::optional<Metric> metricByKey(std::string_view key);
// The built-in metrics (the catalog registers them first).
std::span<const MetricInfo> builtInMetrics();

// Per-game metric values indexed by Metric; the entries past allMetrics().size() stay 0.
using MetricValues = std::array<double, kMaxMetrics>;
// Weights c_k of the fun score F, indexed like MetricValues; 0 = not used.
using Coefficients = std::array<double, kMaxMetrics>;

// F = sum_k c_k * sign_k * m_k (sign -1 for metrics where lower is better).
double funScore(const MetricValues& values, const Coefficients& coefficients);

// Coefficients with the metrics they weigh listed once: the searches sum F at the end of every
// line they play, and a pass over all 16 coefficients cost half as much as the metrics.
class FunWeights {
 public:
  FunWeights(const Coefficients& coefficients);  // implicit: any coefficients will do
  const Coefficients& coefficients() const { return coefficients_; }
  // funScore(values, coefficients()): the same terms, added in the same order.
  double fun(const MetricValues& values) const;
  // funTerms(values, coefficients()).
  MetricValues terms(const MetricValues& values) const;

 private:
  Coefficients coefficients_;
  std::array<uint8_t, kMaxMetrics> weighed_{};  // the metrics with c_k != 0, in order
  std::array<double, kMaxMetrics> factors_{};   // their c_k * sign_k
  size_t count_ = 0;
};

// The terms c_k * sign_k * m_k of F, one per metric (0 where the coefficient is 0).
MetricValues funTerms(const MetricValues& values, const Coefficients& coefficients);

// Per-player counters of one game (thesis appendix A.1).
struct PlayerCounters {
  int moves = 0;       // decisions that changed the board (passes excluded)
  int turns = 0;       // rounds in which the player was on turn
  int leadRounds = 0;  // rounds the player ended as the unique leader (n = 1: status > 0)
};

// Follows one game round by round and yields every per-game metric at any point.
// A small copyable value: search players copy it along with the state.
class MetricsTracker {
 public:
  MetricsTracker() = default;
  // Starts a game from the gains of the initial state (status before round 1).
  MetricsTracker(std::span<const double> initialGains);
  // Starts a game from its initial state (gains and players out of the game).
  explicit MetricsTracker(const State& initial);

  // A regular player decided among `legalCount` actions; `pass` = the board stays.
  void onDecision(int player, int legalCount, bool pass);
  // An environment event happened in the current round.
  void onEnvironmentEvent() { roundHadEnvironment_ = true; }
  // The current round ended with these gains.
  void endRound(std::span<const double> gains, std::span<const bool> out = {});
  // The current round ended with `state` as it stands (gains and players out of the game).
  void endRound(const State& state);
  // Stops keeping the extended metrics (ddalab's and Ludii's, metrics.md): a search
  // whose objective weighs none of them saves their cost in every round it simulates; values()
  // then reports them as NaN (unknown) from here on.
  void dropExtended() { extendedTracked_ = false; }

  int numPlayers() const { return n_; }
  int rounds() const { return rounds_; }
  // Status of p at the end of the last round (the initial status before round 1).
  double status(int p) const { return status_[p]; }
  // Leader of the last round, -1 when tied or n = 1.
  int leader() const { return leader_; }
  const PlayerCounters& counters(int p) const { return counters_[p]; }

  // Every per-game metric of the game so far; believability comes from the game.
  MetricValues values(double believability) const;
  // The fun score F of the game so far.
  double fun(const FunWeights& weights, double believability) const {
    return weights.fun(values(believability));
  }

 private:
  void updateLeadChanges(int leader, double leaderStatus);
  void updateExtended(int previousLeader, std::span<const bool> out);
  void setExtended(MetricValues& v) const;
  void updateLudii(std::span<const double> before);
  void setLudii(MetricValues& v) const;
  RoundView lastRound() const;
  // The catalog's plug-in metrics this game follows (those registered when it started).
  std::span<const MetricInfo> pluginMetrics() const;

  int n_ = 0;
  int rounds_ = 0;
  int leader_ = -1;
  int lastLeader_ = -1;  // n >= 2: last unique leader seen; n = 1: last non-zero sign
  int leadChanges_ = 0;
  int nonPositiveRounds_ = 0;
  int decisions_ = 0;
  int roundActor_ = -1;
  bool roundHadEnvironment_ = false;
  long long legalSum_ = 0;
  double sumAbsLead_ = 0;
  double lastLead_ = 0;
  double sumAbsDelta_ = 0;
  std::array<double, kMaxPlayers> status_{};
  std::array<double, kMaxPlayers> sumDelta_{};
  std::array<PlayerCounters, kMaxPlayers> counters_{};
  // The extended metrics' state (n >= 2): the leader's final run, the game's scale, and per
  // seat the deficits summed over the rounds it trailed, those rounds and its largest deficit.
  bool extendedTracked_ = true;
  int runStart_ = 0;         // first round of the current leader's unbroken run in the lead
  double maxAbsStatus_ = 0;  // largest |status| of any seat at a round end
  double sumEntropy_ = 0;    // of the winner distributions of the rounds, in nats
  std::array<double, kMaxPlayers> deficitSum_{};
  std::array<double, kMaxPlayers> maxDeficit_{};
  std::array<int, kMaxPlayers> trailRounds_{};
  // Ludii's metrics follow the states before each round (before round 1: the initial one), as
  // Ludii evaluates the state before each move: per seat the sum and the largest of its statuses,
  // the sum of the best status, and every new largest status of a seat (a record) in order.
  struct Record {
    int state = 0;  // 0-based: the state before round state + 1
    int seat = 0;
    double status = 0;
  };
  double sumTopStatus_ = 0;
  std::array<double, kMaxPlayers> sumStatus_{};
  std::array<double, kMaxPlayers> maxStatus_{};
  std::vector<Record> records_;  // a seat's first state passing any status must be its record
  uint8_t winners_ = 0;          // the seats topping the last round's statuses (a bit each)
  uint8_t pluginMetrics_ = 0;    // how many plug-in metrics the catalog had when the game started
  std::array<double, kMetricScratch> scratch_{};  // the plug-in metrics' state
};

}  // namespace ddalab
