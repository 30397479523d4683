#include "core/metrics.h"

#include <cmath>

#include "core/catalog.h"
#include "core/status.h"

namespace ddalab {

namespace {

bool twoOrMorePlayers(int players) {
  return players >= 2;
}

// The built-in metrics in file order (metrics.md); rounds is reported but not scored.
const std::array<MetricInfo, kBuiltInMetrics> kBuiltIns = {{
    {Metric::Rounds, "rounds", "Rounds", "Počet kol", "number of rounds", Better::Neither, false},
    {Metric::LeadChanges, "lead_changes", "Lead changes", "Změna vedení",
     "rounds whose leader differs from the last leader seen", Better::Higher},
    {Metric::Lead, "lead", "Lead", "Náskok", "|status of the leader| in the final round",
     Better::Lower},
    {Metric::Tension, "tension", "Tension", "Napínavost", "mean |status of the leader| over rounds",
     Better::Lower},
    {Metric::LeadingTime, "leading_time", "Leading time", "Vedení",
     "std over players of rounds in the lead", Better::Lower},
    {Metric::Freedom, "freedom", "Freedom", "Svoboda", "mean number of legal actions per decision",
     Better::Higher},
    {Metric::Fairness, "fairness", "Fairness", "Spravedlnost",
     "std over players of the mean status change by environment events", Better::Lower, true,
     twoOrMorePlayers},
    {Metric::Believability, "believability", "Believability", "Uvěřitelnost",
     "game-specific implausibility of the environment's choices", Better::Lower},
    {Metric::Randomness, "randomness", "Randomness", "Náhodnost",
     "mean |status change| by environment events per round and player", Better::Neither},
}};

double populationStd(std::span<const double> xs) {
  if (xs.empty()) return 0.0;
  double mean = 0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  double var = 0;
  for (double x : xs) var += (x - mean) * (x - mean);
  return std::sqrt(var / static_cast<double>(xs.size()));
}

}  // namespace

std::span<const MetricInfo> builtInMetrics() {
  return kBuiltIns;
}

std::span<const MetricInfo> allMetrics() {
  return catalog().metrics();
}

const MetricInfo& metricInfo(Metric m) {
  return allMetrics()[static_cast<size_t>(m)];
}

std::optional<Metric> metricByKey(std::string_view key) {
  for (const auto& info : allMetrics())
    if (info.key == key) return info.metric;
  return std::nullopt;
}

namespace {

// The sign of metric k in F: -1 where lower is better.
double signOf(size_t k) {
  const Better better = k < kBuiltInMetrics ? kBuiltIns[k].better : allMetrics()[k].better;
  return better == Better::Lower ? -1.0 : 1.0;
}

}  // namespace

double funScore(const MetricValues& values, const Coefficients& coefficients) {
  double f = 0;
  for (size_t k = 0; k < kMaxMetrics; ++k) {
    if (coefficients[k] == 0) continue;
    f += coefficients[k] * signOf(k) * values[k];
  }
  return f;
}

MetricValues funTerms(const MetricValues& values, const Coefficients& coefficients) {
  MetricValues terms{};
  for (size_t k = 0; k < kMaxMetrics; ++k) {
    if (coefficients[k] == 0) continue;
    terms[k] = coefficients[k] * signOf(k) * values[k];
  }
  return terms;
}

MetricsTracker::MetricsTracker(std::span<const double> initialGains)
    : n_(static_cast<int>(initialGains.size())) {
  leader_ = computeStatuses(initialGains, std::span(status_.data(), initialGains.size()));
}

void MetricsTracker::onDecision(int player, int legalCount, bool pass) {
  ++decisions_;
  legalSum_ += legalCount;
  if (!pass) ++counters_[player].moves;
  if (roundActor_ != player) {
    roundActor_ = player;
    ++counters_[player].turns;
  }
}

MetricsTracker::MetricsTracker(const State& initial) : n_(initial.numPlayers()) {
  leader_ = statusesOf(initial, status_);
}

void MetricsTracker::endRound(const State& state) {
  const auto n = static_cast<size_t>(n_);
  Gains gains;
  state.gains(std::span(gains.data(), n));
  if (!state.playersCanDropOut()) return endRound(std::span(gains.data(), n));
  const OutOfGame out = outOf(state);
  endRound(std::span(gains.data(), n), std::span(out.data(), n));
}

void MetricsTracker::endRound(std::span<const double> gains, std::span<const bool> out) {
  std::array<double, kMaxPlayers> before = status_;
  leader_ = computeStatuses(gains, std::span(status_.data(), static_cast<size_t>(n_)), out);
  ++rounds_;
  if (roundHadEnvironment_) {
    for (int p = 0; p < n_; ++p) {
      const double delta = status_[p] - before[p];
      sumDelta_[p] += delta;
      sumAbsDelta_ += std::abs(delta);
    }
  }
  const double leaderStatus = n_ == 1 ? status_[0] : (leader_ >= 0 ? status_[leader_] : 0.0);
  lastLead_ = std::abs(leaderStatus);
  sumAbsLead_ += lastLead_;
  updateLeadChanges(leader_, leaderStatus);
  roundHadEnvironment_ = false;
  roundActor_ = -1;
  const auto metrics = allMetrics();
  for (size_t k = kBuiltInMetrics; k < metrics.size(); ++k) {
    const MetricInfo& m = metrics[k];
    m.rule.endRound(std::span(scratch_).subspan(m.scratchOffset, m.scratchSize), lastRound());
  }
}

RoundView MetricsTracker::lastRound() const {
  return {rounds_, n_ == 1 ? -1 : leader_, std::span(status_.data(), static_cast<size_t>(n_))};
}

void MetricsTracker::updateLeadChanges(int leader, double leaderStatus) {
  if (n_ == 1) {
    // The "leader" of a single player is the sign of its status; zero keeps the last sign.
    if (leaderStatus > 0)
      ++counters_[0].leadRounds;
    else
      ++nonPositiveRounds_;
    const int sign = leaderStatus > 0 ? 1 : (leaderStatus < 0 ? 0 : -1);
    if (sign < 0) return;
    if (lastLeader_ >= 0 && sign != lastLeader_) ++leadChanges_;
    lastLeader_ = sign;
    return;
  }
  if (leader < 0) return;  // a tied lead: nobody leads, the last leader stays the reference
  ++counters_[leader].leadRounds;
  if (lastLeader_ >= 0 && leader != lastLeader_) ++leadChanges_;
  lastLeader_ = leader;
}

MetricValues MetricsTracker::values(double believability) const {
  MetricValues v{};
  auto set = [&v](Metric m, double x) { v[static_cast<size_t>(m)] = x; };
  set(Metric::Rounds, rounds_);
  set(Metric::LeadChanges, leadChanges_);
  set(Metric::Believability, believability);
  set(Metric::Freedom, decisions_ > 0 ? static_cast<double>(legalSum_) / decisions_ : 0.0);
  const auto metrics = allMetrics();
  for (size_t k = kBuiltInMetrics; k < metrics.size(); ++k) {
    const MetricInfo& m = metrics[k];
    v[k] = m.rule.value(std::span(scratch_).subspan(m.scratchOffset, m.scratchSize), lastRound());
  }
  if (rounds_ == 0) return v;
  const double a = rounds_;
  set(Metric::Lead, lastLead_);
  set(Metric::Tension, sumAbsLead_ / a);
  std::array<double, kMaxPlayers> perPlayer{};
  if (n_ == 1) {
    const double positive = counters_[0].leadRounds;
    set(Metric::LeadingTime, std::abs(positive - nonPositiveRounds_) / 2.0);
  } else {
    for (int p = 0; p < n_; ++p) perPlayer[p] = counters_[p].leadRounds;
    set(Metric::LeadingTime, populationStd(std::span(perPlayer.data(), n_)));
  }
  for (int p = 0; p < n_; ++p) perPlayer[p] = sumDelta_[p] / a;
  set(Metric::Fairness, populationStd(std::span(perPlayer.data(), n_)));
  set(Metric::Randomness, sumAbsDelta_ / (a * n_));
  return v;
}

}  // namespace ddalab
