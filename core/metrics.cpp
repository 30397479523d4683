#include "core/metrics.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>

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
    {Metric::DramaTrailing, "drama_trailing", "Drama (trail)", "",
     "mean deficit of the final leader over the rounds it trailed", Better::Higher, true,
     twoOrMorePlayers, true},
    {Metric::DecisivenessFinalLead, "decisiveness_final_lead", "Decisive lead", "",
     "share of the rounds the final leader led without a break to the end", Better::Lower, true,
     twoOrMorePlayers, true},
    {Metric::Uncertainty, "uncertainty", "Uncertainty", "",
     "mean normalized entropy of the winner distribution implied by the statuses", Better::Higher,
     true, twoOrMorePlayers, true},
    {Metric::Comeback, "comeback", "Comeback", "",
     "1 when the final leader once trailed by more than half the game's largest |status|",
     Better::Higher, true, twoOrMorePlayers, true},
    {Metric::DramaAverage, "drama_average", "Drama (Ludii)", "",
     "Ludii's Drama Average: mean over the states before each round of the best status less the "
     "eventual winners' mean status",
     Better::Higher, true, twoOrMorePlayers, true},
    {Metric::DecisivenessThreshold, "decisiveness_threshold", "Loser's peak", "",
     "Ludii's DecisivenessThreshold: the highest status an eventual loser had before a round",
     Better::Neither, false, twoOrMorePlayers, true},
    {Metric::DecisivenessMoves, "decisiveness_moves", "Undecided", "",
     "Ludii's DecisivenessMoves: the share of the rounds played before an eventual winner's "
     "status first exceeds the threshold",
     Better::Higher, true, twoOrMorePlayers, true},
}};

using PerPlayer = std::array<double, kMaxPlayers>;

// The population standard deviation of xs[0..N).
template <int N>
double populationStd(const PerPlayer& xs) {
  double mean = 0;
  for (int p = 0; p < N; ++p) mean += xs[p];
  mean /= N;
  double var = 0;
  for (int p = 0; p < N; ++p) var += (xs[p] - mean) * (xs[p] - mean);
  return std::sqrt(var / N);
}

// populationStd of the first n entries, unrolled for each seat count (values() runs at the end of
// every line a search plays).
double populationStd(const PerPlayer& xs, int n) {
  static_assert(kMaxPlayers == 4);
  switch (n) {
    case 1:
      return populationStd<1>(xs);
    case 2:
      return populationStd<2>(xs);
    case 3:
      return populationStd<3>(xs);
    case 4:
      return populationStd<4>(xs);
    default:
      return 0.0;
  }
}

}  // namespace

std::span<const MetricInfo> builtInMetrics() {
  return kBuiltIns;
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

double signOf(Better better) {
  return better == Better::Lower ? -1.0 : 1.0;
}

// The built-ins' signs in F, read once (F is summed at the end of every line a search plays).
const std::array<double, kBuiltInMetrics> kBuiltInSigns = [] {
  std::array<double, kBuiltInMetrics> signs{};
  for (size_t k = 0; k < kBuiltInMetrics; ++k) signs[k] = signOf(kBuiltIns[k].better);
  return signs;
}();

// The sign of metric k in F: -1 where lower is better.
double signOf(size_t k) {
  return k < kBuiltInMetrics ? kBuiltInSigns[k] : signOf(allMetrics()[k].better);
}

}  // namespace

double funScore(const MetricValues& values, const Coefficients& coefficients) {
  return FunWeights(coefficients).fun(values);
}

FunWeights::FunWeights(const Coefficients& coefficients) : coefficients_(coefficients) {
  for (size_t k = 0; k < kMaxMetrics; ++k) {
    if (coefficients[k] == 0) continue;
    weighed_[count_] = static_cast<uint8_t>(k);
    factors_[count_++] = coefficients[k] * signOf(k);
  }
}

double FunWeights::fun(const MetricValues& values) const {
  double f = 0;
  for (size_t i = 0; i < count_; ++i) f += factors_[i] * values[weighed_[i]];
  return f;
}

MetricValues FunWeights::terms(const MetricValues& values) const {
  MetricValues terms{};
  for (size_t i = 0; i < count_; ++i) terms[weighed_[i]] = factors_[i] * values[weighed_[i]];
  return terms;
}

MetricValues funTerms(const MetricValues& values, const Coefficients& coefficients) {
  return FunWeights(coefficients).terms(values);
}

MetricsTracker::MetricsTracker(std::span<const double> initialGains)
    : n_(static_cast<int>(initialGains.size())),
      pluginMetrics_(static_cast<uint8_t>(allMetrics().size() - kBuiltInMetrics)) {
  leader_ = computeStatuses(initialGains, std::span(status_.data(), initialGains.size()));
}

std::span<const MetricInfo> MetricsTracker::pluginMetrics() const {
  if (pluginMetrics_ == 0) return {};
  return allMetrics().subspan(kBuiltInMetrics, pluginMetrics_);
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

MetricsTracker::MetricsTracker(const State& initial)
    : n_(initial.numPlayers()),
      pluginMetrics_(static_cast<uint8_t>(allMetrics().size() - kBuiltInMetrics)) {
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
  const int previousLeader = leader_;
  leader_ = computeStatuses(gains, std::span(status_.data(), static_cast<size_t>(n_)), out);
  ++rounds_;
  if (roundHadEnvironment_) {
    for (int p = 0; p < n_; ++p) {
      const double delta = status_[p] - before[p];
      sumDelta_[p] += delta;
      sumAbsDelta_ += std::abs(delta);
    }
  }
  if (n_ >= 2 && extendedTracked_) {
    updateLudii(std::span(before.data(), static_cast<size_t>(n_)));
    updateExtended(previousLeader, out);
  }
  const double leaderStatus = n_ == 1 ? status_[0] : (leader_ >= 0 ? status_[leader_] : 0.0);
  lastLead_ = std::abs(leaderStatus);
  sumAbsLead_ += lastLead_;
  updateLeadChanges(leader_, leaderStatus);
  roundHadEnvironment_ = false;
  roundActor_ = -1;
  for (const MetricInfo& m : pluginMetrics())
    m.rule.endRound(std::span(scratch_).subspan(m.scratchOffset, m.scratchSize), lastRound());
}

namespace {

// e^x for x <= 0, inline (the tracker's hot path calls it for every seat every round; libm's exp
// cost as much as the rest of the round's bookkeeping): x = k ln 2 + r with |r| <= ln 2 / 2, e^r
// by its Taylor series to r^12 (relative error below 1e-14), times 2^k built in the exponent bits.
double expNonPositive(double x) {
  if (x < -708) return 0.0;  // below the smallest normal double
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  const double k = std::nearbyint(x * 1.44269504088896338700);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0 / 479001600;  // 1/12!
  for (double factorial :
       {39916800.0, 3628800.0, 362880.0, 40320.0, 5040.0, 720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0})
    p = p * r + 1.0 / factorial;
  const auto bits = static_cast<uint64_t>(static_cast<int64_t>(k) + 1023) << 52;
  return p * std::bit_cast<double>(bits);
}

// The entropy (in nats) of the softmax of the contenders' statuses at temperature
// kUncertaintyTemperature x `scale`: log n when every seat is as likely to win, 0 when one seat is
// certain. Seats out of the game cannot win (all contend when all are out, as for the statuses).
double winnerEntropy(std::span<const double> status, std::span<const bool> out, double scale) {
  const bool allOut = !out.empty() && std::all_of(out.begin(), out.end(), [](bool o) { return o; });
  const bool everyone = out.empty() || allOut;
  double top = -INFINITY;
  for (size_t p = 0; p < status.size(); ++p)
    if (everyone || !out[p]) top = std::max(top, status[p]);
  const double inverse = scale > 0 ? 1.0 / (kUncertaintyTemperature * scale) : 0.0;
  double z = 0, weighted = 0;  // H = log z - sum(e^x x) / z, with x = (s - top) / temperature
  for (size_t p = 0; p < status.size(); ++p) {
    if (!everyone && out[p]) continue;
    const double x = (status[p] - top) * inverse;
    const double e = x == 0 ? 1.0 : expNonPositive(x);  // the leader's term costs nothing
    z += e;
    weighted += e * x;
  }
  return std::log(z) - weighted / z;
}

// The seats at the top of `status` (a bit each): the unique leader, or when the lead is tied the
// contenders tied at status 0 (a seat out of the game contends only when everybody is out).
uint8_t topSeats(std::span<const double> status, int leader, std::span<const bool> out) {
  if (leader >= 0) return static_cast<uint8_t>(1u << leader);
  const bool allOut = !out.empty() && std::all_of(out.begin(), out.end(), [](bool o) { return o; });
  uint8_t seats = 0;
  for (size_t p = 0; p < status.size(); ++p)
    if ((out.empty() || allOut || !out[p]) && status[p] == 0)
      seats |= static_cast<uint8_t>(1u << p);
  return seats;
}

}  // namespace

void MetricsTracker::updateExtended(int previousLeader, std::span<const bool> out) {
  if (leader_ != previousLeader || rounds_ == 1) runStart_ = rounds_;
  for (int p = 0; p < n_; ++p) {
    maxAbsStatus_ = std::max(maxAbsStatus_, std::abs(status_[p]));
    if (status_[p] >= 0) continue;
    deficitSum_[p] -= status_[p];
    ++trailRounds_[p];
    maxDeficit_[p] = std::max(maxDeficit_[p], -status_[p]);
  }
  sumEntropy_ +=
      winnerEntropy(std::span(status_.data(), static_cast<size_t>(n_)), out, maxAbsStatus_);
  winners_ = topSeats(std::span(status_.data(), static_cast<size_t>(n_)), leader_, out);
}

void MetricsTracker::updateLudii(std::span<const double> before) {
  const int state = rounds_ - 1;  // endRound counted this round already: the state before it
  double top = before[0];
  for (int p = 0; p < n_; ++p) {
    const double s = before[static_cast<size_t>(p)];
    top = std::max(top, s);
    sumStatus_[p] += s;
    if (state > 0 && s <= maxStatus_[p]) continue;
    maxStatus_[p] = s;
    records_.push_back({state, p, s});
  }
  sumTopStatus_ += top;
}

void MetricsTracker::setLudii(MetricValues& v) const {
  auto set = [&v](Metric m, double x) { v[static_cast<size_t>(m)] = x; };
  const double states = rounds_;
  const auto isWinner = [this](int p) { return (winners_ >> p & 1) != 0; };
  double winnersSum = 0;
  int winners = 0;
  std::optional<double> threshold;  // the highest status of any eventual loser
  for (int p = 0; p < n_; ++p) {
    if (isWinner(p)) {
      winnersSum += sumStatus_[p];
      ++winners;
    } else {
      threshold = std::max(threshold.value_or(-INFINITY), maxStatus_[p]);
    }
  }
  if (winners == 0) return;  // no round yet: no winners either
  set(Metric::DramaAverage, (sumTopStatus_ - winnersSum / winners) / states);
  if (!threshold) return;  // nobody lost: nothing to pass, the threshold and the moves are 0
  set(Metric::DecisivenessThreshold, *threshold);
  int first = rounds_;  // Ludii: all the moves when no winner ever passes the threshold
  for (const Record& r : records_)
    if (isWinner(r.seat) && r.status > *threshold) {
      first = r.state;
      break;
    }
  set(Metric::DecisivenessMoves, first / states);
}

void MetricsTracker::setExtended(MetricValues& v) const {
  auto set = [&v](Metric m, double x) { v[static_cast<size_t>(m)] = x; };
  if (!extendedTracked_) {
    for (const MetricInfo& info : builtInMetrics())
      if (info.extended) set(info.metric, NAN);
    return;
  }
  if (n_ < 2 || rounds_ == 0) return;
  setLudii(v);
  // Normalized by log n once here rather than every round (the tracker's hot path).
  set(Metric::Uncertainty, sumEntropy_ / (rounds_ * std::log(static_cast<double>(n_))));
  if (leader_ < 0) return;  // no final leader: no drama, nothing decided, no comeback
  const auto w = static_cast<size_t>(leader_);
  set(Metric::DramaTrailing, trailRounds_[w] > 0 ? deficitSum_[w] / trailRounds_[w] : 0.0);
  set(Metric::DecisivenessFinalLead, static_cast<double>(rounds_ - runStart_ + 1) / rounds_);
  set(Metric::Comeback, maxDeficit_[w] > kComebackThreshold * maxAbsStatus_ ? 1.0 : 0.0);
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
  for (const MetricInfo& m : pluginMetrics()) {
    v[static_cast<size_t>(m.metric)] =
        m.rule.value(std::span(scratch_).subspan(m.scratchOffset, m.scratchSize), lastRound());
  }
  if (rounds_ == 0) return v;
  const double a = rounds_;
  set(Metric::Lead, lastLead_);
  set(Metric::Tension, sumAbsLead_ / a);
  PerPlayer perPlayer{};
  if (n_ == 1) {
    const double positive = counters_[0].leadRounds;
    set(Metric::LeadingTime, std::abs(positive - nonPositiveRounds_) / 2.0);
  } else {
    for (int p = 0; p < n_; ++p) perPlayer[p] = counters_[p].leadRounds;
    set(Metric::LeadingTime, populationStd(perPlayer, n_));
  }
  for (int p = 0; p < n_; ++p) perPlayer[p] = sumDelta_[p] / a;
  set(Metric::Fairness, populationStd(perPlayer, n_));
  set(Metric::Randomness, sumAbsDelta_ / (a * n_));
  setExtended(v);
  return v;
}

}  // namespace ddalab
