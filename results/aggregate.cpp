#include "results/aggregate.h"

#include "results/statistics.h"

#include <algorithm>
#include <cmath>

namespace ddalab {

namespace {

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
