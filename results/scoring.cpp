#include "results/scoring.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace ddalab {

std::optional<Metric> perGameMetric(ScoredMetric scored) {
  static constexpr std::array<Metric, kNumScoredMetrics - 1> kPerGame = {
      Metric::LeadChanges,   Metric::Tension, Metric::Lead,       Metric::Fairness,
      Metric::Believability, Metric::Freedom, Metric::Randomness, Metric::LeadingTime};
  const auto index = static_cast<size_t>(scored);
  if (index < kPerGame.size()) return kPerGame[index];
  return std::nullopt;
}

namespace {

// Only metrics marked "higher is better" are maximized; randomness counts as minimized in the
// scoring, as in the thesis.
bool isMaximized(ScoredMetric scored) {
  const auto metric = perGameMetric(scored);
  return metric && metricInfo(*metric).better == Better::Higher;
}

double scoredMean(const ExperimentSummary& summary, ScoredMetric scored) {
  const auto metric = perGameMetric(scored);
  return metric ? summary.metrics[static_cast<size_t>(*metric)].mean : summary.winRatio;
}

std::string quotedList(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

// Turns the means of one metric into ratios to the best of the comparison (1 = best).
struct RatioRule {
  bool maximized = false;
  std::optional<double> reference;  // the largest mean or the smallest positive; none: all 1

  double ratio(double mean) const {
    if (!reference) return 1.0;
    if (maximized) return mean / *reference;
    return mean > 0 ? *reference / mean : 1.0;  // a minimized mean of 0 is the best possible
  }
};

RatioRule maximizedRule(const std::vector<double>& means, std::string_view key,
                        std::vector<std::string>& notes) {
  const double best = *std::max_element(means.begin(), means.end());
  if (best > 0) return {true, best};
  notes.push_back(std::string(key) + ": the best mean is 0; every row gets 1");
  return {true, std::nullopt};
}

// Minimized metrics score by the reciprocal of the mean. A mean of 0 cannot be divided by:
// it gets 1 and the smallest positive mean becomes the reference of the others.
RatioRule minimizedRule(const std::vector<double>& means, const std::vector<std::string>& names,
                        std::string_view key, std::vector<std::string>& notes) {
  std::optional<double> smallestPositive;
  std::vector<std::string> zeroRows;
  for (size_t i = 0; i < means.size(); ++i) {
    if (means[i] > 0)
      smallestPositive = std::min(means[i], smallestPositive.value_or(means[i]));
    else
      zeroRows.push_back(names[i]);
  }
  if (!smallestPositive)
    notes.push_back(std::string(key) + ": every mean is 0; every row gets 1");
  else if (!zeroRows.empty())
    notes.push_back(std::string(key) + ": mean 0 (the best possible) in " + quotedList(zeroRows) +
                    " gets 1; the others get the smallest positive mean divided by their mean");
  return {false, smallestPositive};
}

RatioRule ratioRule(ScoredMetric scored, const std::vector<double>& means,
                    const std::vector<std::string>& names, std::vector<std::string>& notes) {
  const std::string_view key = scoredMetricKey(scored);
  if (isMaximized(scored)) return maximizedRule(means, key, notes);
  return minimizedRule(means, names, key, notes);
}

double sumOfRatios(const ScoreRow& row, std::initializer_list<ScoredMetric> metrics) {
  double sum = 0;
  for (ScoredMetric m : metrics) sum += row.ratios[static_cast<size_t>(m)];
  return sum;
}

}  // namespace

std::string_view scoredMetricKey(ScoredMetric scored) {
  const auto metric = perGameMetric(scored);
  return metric ? metricInfo(*metric).key : "win_ratio";
}

ComparisonScores scoreComparison(const std::string& comparison,
                                 const std::vector<std::string>& names,
                                 const std::vector<ExperimentSummary>& summaries) {
  if (names.size() != summaries.size())
    throw std::invalid_argument("scoreComparison: one name per summary expected");
  ComparisonScores scores{comparison, {}, {}, {}};
  if (names.empty()) return scores;
  scores.rows.resize(names.size());
  for (size_t k = 0; k < kNumScoredMetrics; ++k) {
    const auto scored = static_cast<ScoredMetric>(k);
    std::vector<double> means;
    for (const auto& summary : summaries) means.push_back(scoredMean(summary, scored));
    scores.scored[k] = std::all_of(summaries.begin(), summaries.end(),
                                   [&](const auto& s) { return metricApplies(scored, s); });
    if (!scores.scored[k])
      scores.notes.push_back(std::string(scoredMetricKey(scored)) +
                             ": not scored (the game cannot have it: one player)");
    const RatioRule rule =
        scores.scored[k] ? ratioRule(scored, means, names, scores.notes) : RatioRule{};
    for (size_t i = 0; i < names.size(); ++i) {
      scores.rows[i].means[k] = means[i];
      scores.rows[i].ratios[k] = scores.scored[k] ? rule.ratio(means[i]) : std::nan("");
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    ScoreRow& row = scores.rows[i];
    row.experiment = names[i];
    for (size_t k = 0; k < kNumScoredMetrics; ++k)
      if (scores.scored[k]) row.score9 += row.ratios[k];
    row.score4 = sumOfRatios(row, {ScoredMetric::LeadChanges, ScoredMetric::Tension,
                                   ScoredMetric::Lead, ScoredMetric::WinRatio});
  }
  return scores;
}

bool metricApplies(ScoredMetric metric, const ExperimentSummary& summary) {
  return metric != ScoredMetric::Fairness || summary.players.size() >= 2;
}

std::vector<ComparisonGroup> groupByComparison(std::span<const ExperimentSummary> summaries) {
  std::vector<ComparisonGroup> groups;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const std::string& comparison = summaries[i].label.comparison;
    const auto same = [&](const ComparisonGroup& g) {
      return !comparison.empty() && g.comparison == comparison;
    };
    const auto found = std::find_if(groups.begin(), groups.end(), same);
    if (found != groups.end())
      found->members.push_back(i);
    else
      groups.push_back({comparison, {i}});
  }
  return groups;
}

std::vector<ComparisonScores> scoreAll(std::span<const ExperimentSummary> summaries) {
  std::vector<ComparisonScores> all;
  for (const ComparisonGroup& group : groupByComparison(summaries)) {
    if (group.comparison.empty()) continue;
    std::vector<std::string> names;
    std::vector<ExperimentSummary> members;
    for (size_t i : group.members) {
      names.push_back(summaries[i].label.name);
      members.push_back(summaries[i]);
    }
    all.push_back(scoreComparison(group.comparison, names, members));
  }
  return all;
}

std::string rowKey(const std::string& experiment) {
  const size_t slash = experiment.rfind('/');
  return slash == std::string::npos ? experiment : experiment.substr(slash + 1);
}

CrossScores crossScores(std::span<const ComparisonScores> comparisons, ScoreTable table) {
  CrossScores cross;
  std::vector<const ComparisonScores*> used;
  for (const ComparisonScores& c : comparisons) {
    if (c.rows.size() < 2) continue;  // a ratio to the best of one row says nothing
    used.push_back(&c);
    cross.comparisons.push_back(c.comparison);
    for (const ScoreRow& row : c.rows)
      if (std::find(cross.rows.begin(), cross.rows.end(), rowKey(row.experiment)) ==
          cross.rows.end())
        cross.rows.push_back(rowKey(row.experiment));
  }
  cross.scores.assign(cross.rows.size(),
                      std::vector<std::optional<double>>(cross.comparisons.size()));
  for (size_t c = 0; c < used.size(); ++c)
    for (const ScoreRow& row : used[c]->rows) {
      const size_t r = static_cast<size_t>(
          std::find(cross.rows.begin(), cross.rows.end(), rowKey(row.experiment)) -
          cross.rows.begin());
      cross.scores[r][c] = table == ScoreTable::AllMetrics ? row.score9 : row.score4;
    }
  std::vector<size_t> common;
  for (size_t c = 0; c < cross.comparisons.size(); ++c) {
    bool everyRow = true;
    for (const auto& scores : cross.scores) everyRow = everyRow && scores[c].has_value();
    if (everyRow) {
      common.push_back(c);
      cross.commonComparisons.push_back(cross.comparisons[c]);
    }
  }
  for (const auto& scores : cross.scores) {
    double sum = 0;
    for (size_t c : common) sum += *scores[c];
    cross.means.push_back(common.empty() ? std::nan("") : sum / static_cast<double>(common.size()));
  }
  return cross;
}

}  // namespace ddalab
