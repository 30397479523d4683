#include "results/aggregate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

double mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double sumOfSquaredDeviations(const std::vector<double>& values, double from) {
  double sum = 0;
  for (double v : values) sum += (v - from) * (v - from);
  return sum;
}

double populationStd(const std::vector<double>& values) {
  if (values.empty()) return 0;
  const double variance = sumOfSquaredDeviations(values, mean(values)) / values.size();
  return std::sqrt(variance);
}

// Win rate of every seat; a draw (winner -1) is nobody's win.
std::vector<double> winRates(const std::vector<GameRecord>& records, size_t seats) {
  std::vector<double> wins(seats, 0.0);
  for (const auto& r : records)
    if (r.winner >= 0 && static_cast<size_t>(r.winner) < seats) ++wins[r.winner];
  if (!records.empty())
    for (double& w : wins) w /= static_cast<double>(records.size());
  return wins;
}

// metrics.md: std over players of their win rates; one player: std of (win rate, loss rate).
double winRatioOf(const std::vector<double>& rates) {
  if (rates.size() == 1) return std::abs(rates[0] - 0.5);
  return populationStd(rates);
}

PlayerSummary summarizeSeat(const std::vector<GameRecord>& records, size_t seat) {
  PlayerSummary p;
  if (records.empty()) return p;
  p.movesMin = records.front().counters[seat].moves;
  p.movesMax = p.movesMin;
  for (const auto& r : records) {
    const PlayerCounters& c = r.counters[seat];
    p.movesMean += c.moves;
    p.movesMin = std::min(p.movesMin, c.moves);
    p.movesMax = std::max(p.movesMax, c.moves);
    p.turnsMean += c.turns;
    p.leadRoundsMean += c.leadRounds;
  }
  const double games = static_cast<double>(records.size());
  p.movesMean /= games;
  p.turnsMean /= games;
  p.leadRoundsMean /= games;
  return p;
}

double fractionOf(const std::vector<GameRecord>& records, bool (*predicate)(const GameRecord&)) {
  if (records.empty()) return 0;
  const auto count = std::count_if(records.begin(), records.end(), predicate);
  return static_cast<double>(count) / static_cast<double>(records.size());
}

}  // namespace

Stats describeSample(const std::vector<double>& values) {
  Stats s;
  s.n = values.size();
  if (values.empty()) return s;
  s.mean = mean(values);
  const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
  s.min = *lowest;
  s.max = *highest;
  s.ci95Low = s.ci95High = s.mean;
  if (s.n < 2) return s;
  s.std = std::sqrt(sumOfSquaredDeviations(values, s.mean) / static_cast<double>(s.n - 1));
  const double halfWidth = studentT95(s.n - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  s.ci95Low = s.mean - halfWidth;
  s.ci95High = s.mean + halfWidth;
  return s;
}

ExperimentSummary summarize(const ExperimentResult& result) {
  ExperimentSummary summary;
  const auto& records = result.records;
  summary.games = records.size();
  std::vector<double> values(records.size());
  for (size_t k = 0; k < kNumMetrics; ++k) {
    for (size_t g = 0; g < records.size(); ++g) values[g] = records[g].metrics[k];
    summary.metrics[k] = describeSample(values);
  }
  const size_t seats = std::min(result.players.size(), static_cast<size_t>(kMaxPlayers));
  const std::vector<double> rates = winRates(records, seats);
  summary.winRatio = records.empty() ? 0 : winRatioOf(rates);
  for (size_t seat = 0; seat < seats; ++seat) {
    PlayerSummary p = summarizeSeat(records, seat);
    p.label = result.players[seat];
    p.winRate = rates[seat];
    summary.players.push_back(p);
  }
  summary.drawRate = fractionOf(records, [](const GameRecord& r) { return r.winner < 0; });
  summary.cappedRate = fractionOf(records, [](const GameRecord& r) { return r.capped; });
  return summary;
}

}  // namespace ddalab
