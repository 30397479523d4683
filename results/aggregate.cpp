#include "results/aggregate.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "results/statistics.h"

namespace ddalab {

namespace {

double populationStd(std::span<const double> values) {
  if (values.empty()) return 0;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / static_cast<double>(values.size()));
}

double fraction(size_t count, size_t games) {
  return games ? static_cast<double>(count) / static_cast<double>(games) : 0.0;
}

constexpr int kWinRatioReplicates = 1000;
constexpr uint64_t kWinRatioSeed = 0x5eed'0f'b00757a9ull;  // fixed: the same files, same interval

// win_ratio of `games` games resampled with replacement, as win counts: the seats' wins and
// the draws are multinomial with the observed frequencies (seat count + 1 categories).
double resampledWinRatio(std::span<const size_t> wins, size_t games, std::mt19937_64& engine) {
  std::vector<double> rates;
  size_t left = games;
  double leftShare = 1.0;
  for (size_t w : wins) {
    const double share = static_cast<double>(w) / static_cast<double>(games);
    const double p = leftShare > 0 ? std::clamp(share / leftShare, 0.0, 1.0) : 0.0;
    const size_t drawn = std::binomial_distribution<size_t>(left, p)(engine);
    rates.push_back(static_cast<double>(drawn) / static_cast<double>(games));
    left -= drawn;
    leftShare -= share;
  }
  return winRatioOf(rates);
}

// The percentile bootstrap 95 % interval of win_ratio.
std::pair<double, double> winRatioInterval(std::span<const size_t> wins, size_t games) {
  if (games == 0) return {0, 0};
  std::mt19937_64 engine(kWinRatioSeed);
  std::vector<double> replicates(kWinRatioReplicates);
  for (double& r : replicates) r = resampledWinRatio(wins, games, engine);
  return percentileInterval(replicates, 0.95);
}

}  // namespace

double perRound(const GameRecord& record, Metric metric) {
  const double rounds = record.metrics[static_cast<size_t>(Metric::Rounds)];
  return rounds > 0 ? record.metrics[static_cast<size_t>(metric)] / rounds : 0.0;
}

double winRatioOf(std::span<const double> rates) {
  if (rates.size() == 1) return std::abs(rates[0] - 0.5);
  return populationStd(rates);
}

namespace {

// S of scoredWinVariance from the rates: the expected squared win_ratio of n games exceeds the
// true one by S / n. One seat, (w - 1/2)^2: S = p (1 - p). k seats, population variance of
// multinomial shares with draw share d = 1 - sum p: S = (sum p_i (1 - p_i) - d (1 - d) / k) / k
// (Var p_i = p_i (1 - p_i) / n, Cov(p_i, mean p) = p_i d / (k n), Var(mean p) = d (1 - d) / (k^2
// n)).
double winNoise(std::span<const double> rates) {
  if (rates.size() == 1) return rates[0] * (1 - rates[0]);
  const auto k = static_cast<double>(rates.size());
  double sum = 0, binomial = 0;
  for (double p : rates) {
    sum += p;
    binomial += p * (1 - p);
  }
  const double draws = 1 - sum;
  return (binomial - draws * (1 - draws) / k) / k;
}

// S estimated without bias from the shares of `games` games (true probabilities: infinitely
// many); 0 when there is nothing to estimate it from.
double estimatedNoise(std::span<const double> rates, double games) {
  if (rates.empty() || games < 2) return 0;
  // p(1 - p) of observed shares underestimates by (n - 1) / n: n / (n - 1) makes S unbiased.
  return std::isinf(games) ? winNoise(rates) : winNoise(rates) * games / (games - 1);
}

}  // namespace

double scoredWinVariance(std::span<const double> rates, double games) {
  const double observed = winRatioOf(rates) * winRatioOf(rates);
  return observed + estimatedNoise(rates, games) * (1 / kWinRatioReferenceGames - 1 / games);
}

double scoredWinRatio(std::span<const double> rates, double games) {
  // V + S / N is at least S / N (V >= 0): an estimate below that bound is noise, raised to it.
  const double bound = estimatedNoise(rates, games) / kWinRatioReferenceGames;
  return std::sqrt(std::max(bound, scoredWinVariance(rates, games)));
}

void SampleMoments::add(double value) {
  ++n_;
  sum_ += value;
  const double delta = value - runningMean_;
  runningMean_ += delta / static_cast<double>(n_);
  m2_ += delta * (value - runningMean_);
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

Stats SampleMoments::stats() const {
  Stats s;
  s.n = n_;
  if (n_ == 0) return s;
  s.mean = sum_ / static_cast<double>(n_);
  s.min = min_;
  s.max = max_;
  s.ci95Low = s.ci95High = s.mean;
  if (n_ < 2) return s;
  s.std = std::sqrt(std::max(0.0, m2_) / static_cast<double>(n_ - 1));
  const double halfWidth = studentT95(n_ - 1) * s.std / std::sqrt(static_cast<double>(n_));
  s.ci95Low = s.mean - halfWidth;
  s.ci95High = s.mean + halfWidth;
  return s;
}

Stats describeSample(const std::vector<double>& values) {
  SampleMoments moments;
  for (double v : values) moments.add(v);
  return moments.stats();
}

SummaryBuilder::SummaryBuilder(ExperimentLabel label)
    : label_(std::move(label)),
      seats_(std::min(label_.players.size(), static_cast<size_t>(kMaxPlayers))) {}

void SummaryBuilder::add(const GameRecord& record) {
  for (size_t k = 0; k < allMetrics().size(); ++k) metrics_[k].add(record.metrics[k]);
  leadChangesPerRound_.add(perRound(record, Metric::LeadChanges));
  leadingTimePerRound_.add(perRound(record, Metric::LeadingTime));
  for (size_t seat = 0; seat < seats_.size(); ++seat) {
    SeatTotals& t = seats_[seat];
    const PlayerCounters& c = record.counters[seat];
    t.movesMin = games_ == 0 ? c.moves : std::min(t.movesMin, c.moves);
    t.movesMax = games_ == 0 ? c.moves : std::max(t.movesMax, c.moves);
    t.moves += c.moves;
    t.turns += c.turns;
    t.leadRounds += c.leadRounds;
    t.wins += record.winner == static_cast<int>(seat);  // a draw (-1) is nobody's win
  }
  draws_ += record.winner < 0;
  capped_ += record.capped;
  ++games_;
}

ExperimentSummary SummaryBuilder::summary(bool withIntervals) const {
  ExperimentSummary summary;
  summary.label = label_;
  summary.games = games_;
  for (size_t k = 0; k < allMetrics().size(); ++k) summary.metrics[k] = metrics_[k].stats();
  summary.leadChangesPerRound = leadChangesPerRound_.stats();
  summary.leadingTimePerRound = leadingTimePerRound_.stats();
  std::vector<double> rates;
  std::vector<size_t> wins;
  for (size_t seat = 0; seat < seats_.size(); ++seat) {
    const SeatTotals& t = seats_[seat];
    PlayerSummary p;
    p.label = label_.players[seat];
    p.winRate = fraction(t.wins, games_);
    if (games_) {
      const double games = static_cast<double>(games_);
      p.movesMean = static_cast<double>(t.moves) / games;
      p.movesMin = t.movesMin;
      p.movesMax = t.movesMax;
      p.turnsMean = static_cast<double>(t.turns) / games;
      p.leadRoundsMean = static_cast<double>(t.leadRounds) / games;
    }
    rates.push_back(p.winRate);
    wins.push_back(t.wins);
    summary.players.push_back(p);
  }
  summary.winRatio = games_ ? winRatioOf(rates) : 0.0;
  if (withIntervals) {
    if (intervalGames_ != games_) {
      winRatioInterval_ = winRatioInterval(wins, games_);
      intervalGames_ = games_;
    }
    std::tie(summary.winRatioLow, summary.winRatioHigh) = winRatioInterval_;
  }
  summary.balance = winBalance(wins, games_);
  summary.drawRate = fraction(draws_, games_);
  summary.cappedRate = fraction(capped_, games_);
  return summary;
}

ExperimentSummary summarize(const ExperimentResult& result) {
  SummaryBuilder builder(result);
  for (const GameRecord& record : result.records) builder.add(record);
  return builder.summary();
}

}  // namespace ddalab
