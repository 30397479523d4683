#include "results/sweep_table.h"

#include <algorithm>
#include <iterator>

#include "results/scoring.h"

namespace ddalab {

namespace {

std::vector<std::string> axisNames(std::span<const Json> points) {
  std::vector<std::string> names;
  for (const Json& point : points)
    for (const auto& [name, _] : point.items())
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> testedKeys(std::span<const ComparisonAnalysis> analyses) {
  std::vector<std::string> keys;
  for (const ComparisonAnalysis& a : analyses)
    for (const PairedTest& t : a.tests)
      if (std::find(keys.begin(), keys.end(), t.metric) == keys.end()) keys.push_back(t.metric);
  return keys;
}

const ComparisonAnalysis* analysisOf(std::span<const ComparisonAnalysis> analyses,
                                     const std::string& comparison) {
  for (const ComparisonAnalysis& a : analyses)
    if (!comparison.empty() && a.comparison == comparison) return &a;
  return nullptr;
}

bool againstRandom(const ComparisonAnalysis* a, std::span<const ExperimentSummary> summaries) {
  if (!a) return false;
  for (const ExperimentSummary& s : summaries)
    if (s.label.name == a->reference) return s.label.environment == "e-random";
  return false;
}

// The row's score in every table (score9, score4, score_ext), with the bootstrap intervals where
// analysed.
void addScores(SweepRow& row, std::span<const ComparisonScores> scores,
               const ComparisonAnalysis* analysis) {
  const ScoreRow* score = nullptr;
  for (const ComparisonScores& c : scores)
    for (const ScoreRow& r : c.rows)
      if (r.experiment == row.experiment) score = &r;
  const ScoreInterval* interval = nullptr;
  if (analysis)
    for (const ScoreInterval& si : analysis->scores)
      if (si.experiment == row.experiment) interval = &si;
  if (!score) {
    row.values.insert(row.values.end(), std::size(kScoreTables), std::nullopt);
    return;
  }
  auto add = [&](double value, double ScoreInterval::*low, double ScoreInterval::*high) {
    row.values.push_back(
        SweepValue{value, interval ? interval->*low : value, interval ? interval->*high : value});
  };
  add(score->score9, &ScoreInterval::score9Low, &ScoreInterval::score9High);
  add(score->score4, &ScoreInterval::score4Low, &ScoreInterval::score4High);
  add(score->scoreExt, &ScoreInterval::scoreExtLow, &ScoreInterval::scoreExtHigh);
}

}  // namespace

std::optional<size_t> SweepTable::column(const std::string& key) const {
  const auto found = std::find(columns.begin(), columns.end(), key);
  if (found == columns.end()) return std::nullopt;
  return static_cast<size_t>(found - columns.begin());
}

std::vector<std::string> SweepTable::variedAxes(const std::string& series) const {
  std::vector<std::string> varied;
  for (const std::string& axis : axes) {
    std::vector<Json> values;
    for (const SweepRow& row : rows)
      if (row.series == series && row.point.contains(axis) &&
          std::find(values.begin(), values.end(), row.point[axis]) == values.end())
        values.push_back(row.point[axis]);
    if (values.size() >= 2) varied.push_back(axis);
  }
  return varied;
}

SweepTable sweepTable(std::span<const ExperimentSummary> summaries, std::span<const Json> points,
                      std::span<const ComparisonAnalysis> analyses) {
  SweepTable table;
  table.axes = axisNames(points);
  for (const auto& info : allMetrics()) table.columns.push_back(info.key);
  table.columns.emplace_back("win_ratio");
  for (ScoreTable t : kScoreTables) table.columns.emplace_back(scoreKey(t));
  const std::vector<std::string> tested = testedKeys(analyses);
  for (const std::string& key : tested) table.columns.push_back(key + "_vs_random");
  const std::vector<ComparisonScores> scores = scoreAll(summaries);
  for (size_t i = 0; i < summaries.size() && i < points.size(); ++i) {
    if (points[i].empty()) continue;
    const ExperimentSummary& s = summaries[i];
    SweepRow row{s.label.name,
                 s.label.comparison,
                 s.label.name.substr(0, s.label.name.rfind('@')),
                 points[i],
                 s.games,
                 {}};
    for (const auto& info : allMetrics()) {
      const Stats& m = s.metrics[static_cast<size_t>(info.metric)];
      row.values.push_back(SweepValue{m.mean, m.ci95Low, m.ci95High});
    }
    row.values.push_back(SweepValue{s.winRatio, s.winRatioLow, s.winRatioHigh});
    const ComparisonAnalysis* analysis = analysisOf(analyses, s.label.comparison);
    addScores(row, scores, analysis);
    const bool paired = againstRandom(analysis, summaries);
    for (const std::string& key : tested) {
      const PairedTest* t = paired ? findTest(*analysis, s.label.name, key) : nullptr;
      row.values.push_back(t ? std::optional(SweepValue{t->difference, t->ci95Low, t->ci95High})
                             : std::nullopt);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace ddalab
