#pragma once
// The per-game fun metrics (metrics.md) and the tracker that computes them round by round.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "core/state.h"

namespace ddalab {

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
};
inline constexpr size_t kNumMetrics = 9;

// Which way a metric is better; `Neither` metrics take the sign from their coefficient.
enum class Better { Higher, Lower, Neither };

struct MetricInfo {
  Metric metric;
  std::string_view key;         // the key in files and on the command line
  std::string_view thesisName;  // the thesis's (Czech) name
  std::string_view description;
  Better better;
};

// All per-game metrics in file order.
std::span<const MetricInfo> allMetrics();
const MetricInfo& metricInfo(Metric m);
// The metric with this key, if any.
std::optional<Metric> metricByKey(std::string_view key);

using MetricValues = std::array<double, kNumMetrics>;
// Weights c_k of the fun score F, indexed like MetricValues; 0 = not used.
using Coefficients = std::array<double, kNumMetrics>;

// F = sum_k c_k * sign_k * m_k (sign -1 for metrics where lower is better).
double funScore(const MetricValues& values, const Coefficients& coefficients);
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
  double fun(const Coefficients& coefficients, double believability) const {
    return funScore(values(believability), coefficients);
  }

 private:
  void updateLeadChanges(int leader, double leaderStatus);

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
};

}  // namespace ddalab
