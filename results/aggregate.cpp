#include "results/aggregate.h"

#include <algorithm>
#include <cmath>

namespace ddalab {

namespace {

// Two-sided 95 % critical value of Student's t with `df` degrees of freedom (df >= 1).
double studentT95(size_t df) {
  static constexpr std::array<double, 30> kTable = {
      12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
      2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
      2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
      2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272};
  if (df <= kTable.size()) return kTable[df - 1];
  // Cornish-Fisher expansion around the normal quantile; beyond df = 30 its error is below 1e-7.
  const double z = 1.959963984540054;
  const double d = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d) +
         (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * d * d * d * d);
}

double populationStd(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double mean = 0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double sum = 0;
  for (double v : values) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / static_cast<double>(values.size()));
}

// metrics.md: std over players of their win rates; one player: std of (win rate, loss rate).
double winRatioOf(const std::vector<double>& rates) {
  if (rates.size() == 1) return std::abs(rates[0] - 0.5);
  return populationStd(rates);
}

double fraction(size_t count, size_t games) {
  return games ? static_cast<double>(count) / static_cast<double>(games) : 0.0;
}

}  // namespace

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
  for (size_t k = 0; k < kNumMetrics; ++k) metrics_[k].add(record.metrics[k]);
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

ExperimentSummary SummaryBuilder::summary() const {
  ExperimentSummary summary;
  summary.label = label_;
  summary.games = games_;
  for (size_t k = 0; k < kNumMetrics; ++k) summary.metrics[k] = metrics_[k].stats();
  std::vector<double> rates;
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
    summary.players.push_back(p);
  }
  summary.winRatio = games_ ? winRatioOf(rates) : 0.0;
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
