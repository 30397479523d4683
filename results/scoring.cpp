#include "results/scoring.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>

namespace ddalab {

std::string_view ScoredMetric::key() const {
  return metric ? std::string_view(metricInfo(*metric).key) : "win_ratio";
}

bool ScoredMetric::maximized() const {
  return metric && metricInfo(*metric).better == Better::Higher;
}

bool ScoredMetric::appliesTo(const ExperimentSummary& summary) const {
  return !metric || metricInfo(*metric).appliesTo(static_cast<int>(summary.players.size()));
}

bool ScoredMetric::extended() const {
  return metric && metricInfo(*metric).extended;
}

std::vector<ScoredMetric> scoredMetrics() {
  std::vector<ScoredMetric> columns;
  for (const MetricInfo& info : allMetrics())
    if (info.scored && !info.extended) columns.push_back({info.metric});
  columns.push_back({std::nullopt});
  for (const MetricInfo& info : allMetrics())
    if (info.scored && info.extended) columns.push_back({info.metric});
  return columns;
}

namespace {

// What each score table is called, in ScoreTable order.
struct TableNames {
  std::string_view key, name;
};
constexpr std::array<TableNames, std::size(kScoreTables)> kTableNames = {{
    {"score9", "thesis table 8"},
    {"score4", "thesis table 9"},
    {"score_ext", "score-ext"},
}};

}  // namespace

double ScoreRow::score(ScoreTable table) const {
  static constexpr double ScoreRow::*kScores[] = {&ScoreRow::score9, &ScoreRow::score4,
                                                  &ScoreRow::scoreExt};
  return this->*kScores[static_cast<size_t>(table)];
}

std::string_view scoreTableName(ScoreTable table) {
  return kTableNames[static_cast<size_t>(table)].name;
}

std::string_view scoreKey(ScoreTable table) {
  return kTableNames[static_cast<size_t>(table)].key;
}

namespace {

double scoredMean(const ExperimentSummary& summary, const ScoredMetric& scored) {
  return scored.metric ? summary.metrics[static_cast<size_t>(*scored.metric)].mean
                       : summary.winRatio;
}

// What a column's ratio is taken of: the mean, except for win_ratio, whose binomial noise would
// decide the ratio where the seats are nearly even: its score term is scoredWinRatio, the spread
// a run of kWinRatioReferenceGames games shows (docs/score-intervals.md). A summary without games
// (made by hand) is taken as exact.
double ratioBasis(const ExperimentSummary& summary, const ScoredMetric& scored) {
  if (scored.metric || summary.games == 0) return scoredMean(summary, scored);
  std::vector<double> rates;
  for (const PlayerSummary& p : summary.players) rates.push_back(p.winRate);
  return scoredWinRatio(rates, static_cast<double>(summary.games));
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

RatioRule ratioRule(const ScoredMetric& scored, const std::vector<double>& means,
                    const std::vector<std::string>& names, std::vector<std::string>& notes) {
  if (scored.maximized()) return maximizedRule(means, scored.key(), notes);
  return minimizedRule(means, names, scored.key(), notes);
}

// ": one player" (or ": N players") of the comparison's first row.
std::string seatsText(const std::vector<ExperimentSummary>& summaries) {
  const size_t n = summaries.front().players.size();
  return n == 1 ? ": one player" : ": " + std::to_string(n) + " players";
}

// Table 9: the thesis's four columns, in its order of summing.
double fourMetricScore(const ScoreRow& row, const std::vector<ScoredMetric>& columns) {
  double sum = 0;
  for (std::string_view key : {"lead_changes", "tension", "lead", "win_ratio"})
    for (size_t k = 0; k < columns.size(); ++k)
      if (columns[k].key() == key) sum += row.ratios[k];
  return sum;
}

}  // namespace

ComparisonScores scoreComparison(const std::string& comparison,
                                 const std::vector<std::string>& names,
                                 const std::vector<ExperimentSummary>& summaries) {
  if (names.size() != summaries.size())
    throw std::invalid_argument("scoreComparison: one name per summary expected");
  ComparisonScores scores{comparison, scoredMetrics(), {}, {}, {}};
  if (names.empty()) return scores;
  const size_t columns = scores.columns.size();
  scores.scored.resize(columns);
  scores.rows.resize(names.size(),
                     ScoreRow{{}, std::vector<double>(columns), std::vector<double>(columns)});
  for (size_t k = 0; k < columns; ++k) {
    const ScoredMetric& scored = scores.columns[k];
    std::vector<double> means, bases;
    for (const auto& summary : summaries) {
      means.push_back(scoredMean(summary, scored));
      bases.push_back(ratioBasis(summary, scored));
    }
    scores.scored[k] = std::all_of(summaries.begin(), summaries.end(),
                                   [&](const auto& s) { return scored.appliesTo(s); });
    // A results folder of an earlier ddalab has no column for a metric added since: unknown.
    const bool known =
        std::none_of(means.begin(), means.end(), [](double m) { return std::isnan(m); });
    if (!scores.scored[k])
      scores.notes.push_back(std::string(scored.key()) + ": not scored (the game cannot have it" +
                             seatsText(summaries) + ")");
    else if (!known)
      scores.notes.push_back(std::string(scored.key()) +
                             ": not scored (unknown: the games file of a row has no such column, "
                             "written by an earlier ddalab)");
    scores.scored[k] = scores.scored[k] && known;
    const RatioRule rule =
        scores.scored[k] ? ratioRule(scored, bases, names, scores.notes) : RatioRule{};
    for (size_t i = 0; i < names.size(); ++i) {
      scores.rows[i].means[k] = means[i];
      scores.rows[i].ratios[k] = scores.scored[k] ? rule.ratio(bases[i]) : std::nan("");
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    ScoreRow& row = scores.rows[i];
    row.experiment = names[i];
    for (size_t k = 0; k < columns; ++k)
      if (scores.scored[k])
        (scores.columns[k].extended() ? row.scoreExt : row.score9) += row.ratios[k];
    row.score4 = fourMetricScore(row, scores.columns);
  }
  return scores;
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
      cross.scores[r][c] = row.score(table);
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
