#include "results/significance.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <tuple>

#include "core/rng.h"
#include "results/aggregate.h"
#include "results/statistics.h"

namespace ddalab {

namespace {

// ---- pairing ---------------------------------------------------------------------------------

// The games of each row at the iterations every row played, in iteration order.
struct PairedRows {
  std::vector<std::vector<const GameRecord*>> games;  // [row][pair]
  size_t pairs() const { return games.empty() ? 0 : games.front().size(); }
};

PairedRows pairRows(std::span<const ExperimentResult> rows) {
  std::vector<uint64_t> common;
  for (const GameRecord& r : rows.front().records) common.push_back(r.iteration);
  for (const ExperimentResult& row : rows.subspan(1)) {
    std::vector<uint64_t> mine, both;
    for (const GameRecord& r : row.records) mine.push_back(r.iteration);
    std::set_intersection(common.begin(), common.end(), mine.begin(), mine.end(),
                          std::back_inserter(both));
    common = std::move(both);
  }
  PairedRows paired;
  for (const ExperimentResult& row : rows) {
    auto& games = paired.games.emplace_back();
    auto it = row.records.begin();
    for (uint64_t iteration : common) {
      while (it->iteration != iteration) ++it;
      games.push_back(&*it);
    }
  }
  return paired;
}

// The row every other row is tested against: the one named "e-random" (the thesis's no-DDA
// row); else the first whose environment is e-random; else the first row.
size_t referenceRow(std::span<const ExperimentResult> rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& name = rows[i].name;
    if (name == "e-random" || name.ends_with("/e-random")) return i;
  }
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].environment == "e-random") return i;
  return 0;
}

// ---- per-game values -------------------------------------------------------------------------

// A per-game value the paired tests compare: a metric or its rate per round.
struct GameValue {
  std::string key;
  Metric metric;
  bool perRound = false;

  double of(const GameRecord& g) const {
    return perRound ? ddalab::perRound(g, metric) : g.metrics[static_cast<size_t>(metric)];
  }
};

// Every metric of the catalog in catalog order, then the per-round rates of the two that grow
// with the game's length.
std::vector<GameValue> gameValues() {
  std::vector<GameValue> values;
  for (const MetricInfo& info : allMetrics()) values.push_back({info.key, info.metric});
  for (Metric m : {Metric::LeadChanges, Metric::LeadingTime})
    values.push_back({metricInfo(m).key + "_per_round", m, true});
  return values;
}

// Paired t (and Wilcoxon) of every per-game value of every row against the reference.
void addPairedTests(std::span<const ExperimentResult> rows, const PairedRows& paired,
                    size_t reference, ComparisonAnalysis& analysis) {
  std::vector<double> differences(paired.pairs());
  for (size_t row = 0; row < rows.size(); ++row) {
    if (row == reference) continue;
    for (const GameValue& value : gameValues()) {
      for (size_t i = 0; i < paired.pairs(); ++i)
        differences[i] = value.of(*paired.games[row][i]) - value.of(*paired.games[reference][i]);
      // A metric an earlier ddalab did not write (NaN) has nothing to test.
      if (std::any_of(differences.begin(), differences.end(),
                      [](double d) { return std::isnan(d); }))
        continue;
      const PairedDifference d = pairedDifference(differences);
      analysis.tests.push_back({rows[row].name, value.key, d.n, d.mean, d.ci95Low, d.ci95High,
                                "paired-t", d.tP, d.wilcoxonP, 1.0});
    }
  }
}

// ---- bootstrap -------------------------------------------------------------------------------

// A summary that scoring can read (label and players) with nothing measured yet.
ExperimentSummary emptySummary(const ExperimentResult& row) {
  ExperimentSummary s;
  s.label = row;
  s.players.resize(row.players.size());
  return s;
}

// Weighted sums of a row's games: what scoring reads (means and win rates) once divided.
struct GameSums {
  std::array<double, kMaxMetrics> metrics{};
  std::vector<double> wins;  // per seat
  double games = 0;

  explicit GameSums(size_t seats) : wins(seats, 0.0) {}
  // Adds game `g` with weight `w` (negative: takes it out).
  void add(const GameRecord& g, double w) {
    for (size_t k = 0; k < allMetrics().size(); ++k) metrics[k] += w * g.metrics[k];
    if (g.winner >= 0 && static_cast<size_t>(g.winner) < wins.size())
      wins[static_cast<size_t>(g.winner)] += w;
    games += w;
  }
  // Sets the fields scoring reads of `s`: the means, the games, the seats' win rates and
  // win_ratio (`rates` is scratch space).
  void summarize(ExperimentSummary& s, std::vector<double>& rates) const {
    for (size_t k = 0; k < allMetrics().size(); ++k) s.metrics[k].mean = metrics[k] / games;
    rates.resize(wins.size());
    for (size_t seat = 0; seat < wins.size(); ++seat)
      s.players[seat].winRate = rates[seat] = wins[seat] / games;
    s.winRatio = winRatioOf(rates);
    s.games = static_cast<size_t>(std::llround(games));
  }
};

// Sets the fields scoring reads (means and win_ratio) of `s` from its row's games under
// weights `counts`; `wins` is scratch space.
void weigh(std::span<const GameRecord* const> games, std::span<const uint32_t> counts,
           std::vector<double>& wins, ExperimentSummary& s) {
  GameSums sums(s.players.size());
  for (size_t i = 0; i < games.size(); ++i)
    if (counts[i] != 0) sums.add(*games[i], counts[i]);
  sums.summarize(s, wins);
}

// 1 + the number of rows scoring strictly higher (ties share the better rank).
size_t rankOf(std::span<const double> scores, size_t row) {
  return 1 + static_cast<size_t>(std::count_if(scores.begin(), scores.end(),
                                               [&](double s) { return s > scores[row]; }));
}

// Replicates within budget: the work is replicates x rows x pairs; large samples get fewer
// (never below 200), so that a comparison of 10^6 games per row still analyses in seconds.
int replicatesFor(const AnalysisOptions& options, size_t rows, size_t pairs) {
  constexpr double kBudget = 3e8;
  const double affordable = kBudget / static_cast<double>(std::max<size_t>(1, rows * pairs));
  return std::clamp(static_cast<int>(affordable), std::min(200, options.replicates),
                    options.replicates);
}

// The bootstrap replicates of one row's score in one table: the scores, the probability of
// each rank and the share of replicates above the reference row.
struct TableDraws {
  std::vector<double> scores;  // [replicate]
  std::vector<double> ranks;   // [rank - 1]
  double above = 0;
};
constexpr size_t kTables = std::size(kScoreTables);
using RowDraws = std::array<TableDraws, kTables>;  // one per ScoreTable

// Adds the ranks and the above-reference counts of replicate `scores` ([row][table]).
void countRanks(const std::vector<std::array<double, kTables>>& scores, size_t reference,
                size_t replicates, std::vector<RowDraws>& draws) {
  const double share = 1.0 / static_cast<double>(replicates);
  std::vector<double> column(scores.size());
  for (size_t t = 0; t < kTables; ++t) {
    for (size_t row = 0; row < scores.size(); ++row) column[row] = scores[row][t];
    for (size_t row = 0; row < scores.size(); ++row) {
      draws[row][t].ranks[rankOf(column, row) - 1] += share;
      draws[row][t].above += (column[row] > column[reference]) * share;
    }
  }
}

// The observed scores of `observed` with the intervals and rank probabilities of `draws`.
ScoreInterval scoreInterval(const std::string& name, const ScoreRow& observed,
                            const RowDraws& draws,
                            const std::array<std::vector<double>, kTables>& jackknife,
                            const std::vector<std::vector<double>>& ratioDraws,
                            IntervalMethod method) {
  ScoreInterval si;
  si.experiment = name;
  auto fill = [&](ScoreTable table, double& score, double& low, double& high,
                  std::vector<double>& ranks, double& above) {
    const TableDraws& d = draws[static_cast<size_t>(table)];
    score = observed.score(table);
    if (method == IntervalMethod::Percentile) {
      std::tie(low, high) = percentileInterval(d.scores, 0.95);
    } else {
      const BcaInterval bca =
          bcaInterval(d.scores, score, jackknife[static_cast<size_t>(table)], 0.95);
      std::tie(low, high) = std::pair(bca.low, bca.high);
    }
    ranks = d.ranks;
    above = d.above;
  };
  fill(ScoreTable::AllMetrics, si.score9, si.score9Low, si.score9High, si.rank9, si.above9);
  fill(ScoreTable::FourMetrics, si.score4, si.score4Low, si.score4High, si.rank4, si.above4);
  fill(ScoreTable::Extended, si.scoreExt, si.scoreExtLow, si.scoreExtHigh, si.rankExt, si.aboveExt);
  for (size_t k = 0; k < ratioDraws.size(); ++k) {
    const auto [low, high] = std::isnan(observed.ratios[k])
                                 ? std::pair(std::nan(""), std::nan(""))
                                 : percentileInterval(ratioDraws[k], 0.95);
    si.ratioLow.push_back(low);
    si.ratioHigh.push_back(high);
  }
  return si;
}

// win_ratio's paired bootstrap test of `row` against the reference from their replicates.
PairedTest winRatioTest(const std::string& name, std::span<const double> row,
                        std::span<const double> reference, size_t pairs, double observed) {
  const size_t b = row.size();
  std::vector<double> diff(b);
  size_t atMostZero = 0, atLeastZero = 0;
  for (size_t rep = 0; rep < b; ++rep) {
    diff[rep] = row[rep] - reference[rep];
    atMostZero += diff[rep] <= 0;
    atLeastZero += diff[rep] >= 0;
  }
  const auto [low, high] = percentileInterval(diff, 0.95);
  const double p = std::min(
      1.0, 2.0 * static_cast<double>(std::min(atMostZero, atLeastZero)) / static_cast<double>(b));
  return {name, "win_ratio", pairs, observed, low, high, "bootstrap", p, std::nan(""), 1.0};
}

// The jackknife groups: every pair alone up to this many pairs, else this many contiguous groups
// of pairs (a grouped jackknife: the acceleration it estimates differs by O(1/groups), and the
// work stays linear in the games).
constexpr size_t kJackknifeGroups = 2000;

// The leave-one-group-out scores of every row ([row][table][group]): the jackknife values behind
// the BCa intervals' acceleration.
std::vector<std::array<std::vector<double>, kTables>> jackknifeScores(
    const std::string& comparison, const std::vector<std::string>& names,
    std::span<const ExperimentResult> rows, const PairedRows& paired) {
  const size_t n = rows.size(), pairs = paired.pairs();
  const size_t groups = std::min(pairs, kJackknifeGroups);
  std::vector<GameSums> totals;
  std::vector<ExperimentSummary> summaries;
  for (size_t row = 0; row < n; ++row) {
    totals.emplace_back(rows[row].players.size());
    for (const GameRecord* g : paired.games[row]) totals.back().add(*g, 1.0);
    summaries.push_back(emptySummary(rows[row]));
  }
  std::vector<std::array<std::vector<double>, kTables>> values(n);
  std::vector<double> rates;
  for (size_t group = 0; group < groups; ++group) {
    const size_t begin = group * pairs / groups, end = (group + 1) * pairs / groups;
    for (size_t row = 0; row < n; ++row) {
      GameSums without = totals[row];
      for (size_t i = begin; i < end; ++i) without.add(*paired.games[row][i], -1.0);
      without.summarize(summaries[row], rates);
    }
    const ComparisonScores scores = scoreComparison(comparison, names, summaries);
    for (size_t row = 0; row < n; ++row)
      for (size_t t = 0; t < kTables; ++t)
        values[row][t].push_back(scores.rows[row].score(kScoreTables[t]));
  }
  return values;
}

// Score intervals and rank probabilities, and win_ratio's paired bootstrap test, resampling
// the pairs (the same games for every row in a replicate).
void addBootstrap(std::span<const ExperimentResult> rows, const PairedRows& paired,
                  size_t reference, const AnalysisOptions& options, ComparisonAnalysis& analysis) {
  const size_t n = rows.size();
  std::vector<std::string> names;
  for (const auto& row : rows) names.push_back(row.name);
  analysis.replicates = replicatesFor(options, n, paired.pairs());
  const auto b = static_cast<size_t>(analysis.replicates);
  std::vector<RowDraws> draws(n);
  for (RowDraws& row : draws)
    for (TableDraws& table : row) table = {std::vector<double>(b), std::vector<double>(n), 0.0};
  std::vector<std::vector<double>> winRatio(n, std::vector<double>(b));
  // ratios[row][column][replicate]
  const size_t columns = scoredMetrics().size();
  std::vector<std::vector<std::vector<double>>> ratios(
      n, std::vector<std::vector<double>>(columns, std::vector<double>(b)));
  Rng rng(options.seed);
  std::vector<uint32_t> counts;
  std::vector<double> wins;
  std::vector<ExperimentSummary> summaries;
  for (const auto& row : rows) summaries.push_back(emptySummary(row));
  std::vector<ExperimentSummary> full = summaries;
  std::vector<std::array<double, kTables>> replicate(n);
  for (size_t rep = 0; rep < b; ++rep) {
    resampleCounts(paired.pairs(), rng, counts);
    for (size_t row = 0; row < n; ++row) weigh(paired.games[row], counts, wins, summaries[row]);
    const ComparisonScores scores = scoreComparison(analysis.comparison, names, summaries);
    for (size_t row = 0; row < n; ++row) {
      for (size_t t = 0; t < kTables; ++t)
        replicate[row][t] = draws[row][t].scores[rep] = scores.rows[row].score(kScoreTables[t]);
      winRatio[row][rep] = summaries[row].winRatio;
      for (size_t k = 0; k < columns; ++k) ratios[row][k][rep] = scores.rows[row].ratios[k];
    }
    countRanks(replicate, reference, b, draws);
  }
  const std::vector<uint32_t> ones(paired.pairs(), 1);
  for (size_t row = 0; row < n; ++row) weigh(paired.games[row], ones, wins, full[row]);
  const ComparisonScores observed = scoreComparison(analysis.comparison, names, full);
  const auto jackknife = options.scoreIntervals == IntervalMethod::BCa
                             ? jackknifeScores(analysis.comparison, names, rows, paired)
                             : std::vector<std::array<std::vector<double>, kTables>>(n);
  for (size_t row = 0; row < n; ++row) {
    analysis.scores.push_back(scoreInterval(names[row], observed.rows[row], draws[row],
                                            jackknife[row], ratios[row], options.scoreIntervals));
    if (row == reference) continue;
    analysis.tests.push_back(winRatioTest(names[row], winRatio[row], winRatio[reference],
                                          paired.pairs(),
                                          full[row].winRatio - full[reference].winRatio));
  }
}

// ---- detectability ---------------------------------------------------------------------------

constexpr double kExpectedPerBin = 5;  // the usual validity rule of the chi-square test

// Subset sizes tried for gamesToDetect: 10, 20, 50, 100, ... below `games`, then `games`.
std::vector<size_t> subsetSizes(size_t games) {
  std::vector<size_t> sizes;
  for (size_t decade = 10; decade < games; decade *= 10)
    for (size_t step : {1, 2, 5})
      if (decade * step < games) sizes.push_back(decade * step);
  sizes.push_back(games);
  return sizes;
}

std::optional<size_t> gamesToDetect(std::span<const ChanceBins> games, int subsamples, Rng& rng) {
  std::vector<uint32_t> order(games.size());
  std::iota(order.begin(), order.end(), 0u);
  for (size_t size : subsetSizes(games.size())) {
    const int draws = size == games.size() ? 1 : subsamples;
    int rejected = 0;
    for (int d = 0; d < draws; ++d) {
      ChanceBins pooled{};
      for (size_t i = 0; i < size; ++i) {  // a partial Fisher-Yates shuffle draws the subset
        std::swap(order[i], order[i + rng.below(static_cast<uint32_t>(order.size() - i))]);
        for (size_t bin = 0; bin < pooled.size(); ++bin) pooled[bin] += games[order[i]][bin];
      }
      rejected += chanceUniformity(pooled).p < 0.05;
    }
    if (rejected >= 0.95 * draws) return size;
  }
  return std::nullopt;
}

void addDetectability(std::span<const ExperimentResult> rows, const AnalysisOptions& options,
                      ComparisonAnalysis& analysis) {
  Rng rng(splitmix64(options.seed));
  for (const ExperimentResult& row : rows)
    for (size_t seat = 0; seat < row.players.size(); ++seat) {
      std::vector<ChanceBins> games;
      ChanceBins pooled{};
      for (const GameRecord& g : row.records) {
        games.push_back(g.chance[seat]);
        for (size_t bin = 0; bin < pooled.size(); ++bin) pooled[bin] += g.chance[seat][bin];
      }
      Detectability d;
      d.experiment = row.name;
      d.seat = seat;
      d.player = row.players[seat];
      d.outcomes = std::accumulate(pooled.begin(), pooled.end(), uint64_t{0});
      if (d.outcomes == 0) continue;  // nothing dealt to this seat (or files without bins)
      const ChiSquareTest t = chanceUniformity(pooled);
      std::tie(d.chi2, d.df, d.p) = std::tuple(t.chi2, t.df, t.p);
      if (!std::isnan(d.p)) d.gamesToDetect = gamesToDetect(games, options.subsamples, rng);
      analysis.detectability.push_back(std::move(d));
    }
}

// Whether a test belongs to the extended metrics' family (its metric scores in score-ext).
bool extendedFamily(const PairedTest& t) {
  const std::optional<Metric> metric = metricByKey(t.metric);
  return metric && metricInfo(*metric).extended;
}

// Holm over each family of the comparison's tests: the thesis's (with plug-in metrics, the
// per-round rates and win_ratio) and the extended metrics'.
void adjustForMultipleTests(ComparisonAnalysis& analysis) {
  for (const bool extended : {false, true}) {
    std::vector<double> p;
    std::vector<PairedTest*> family;
    for (PairedTest& t : analysis.tests)
      if (extendedFamily(t) == extended) {
        p.push_back(t.p);
        family.push_back(&t);
      }
    const std::vector<double> adjusted = holmAdjust(p);
    for (size_t i = 0; i < adjusted.size(); ++i) family[i]->holmP = adjusted[i];
  }
}


}  // namespace

ComparisonAnalysis analyzeComparison(const std::string& comparison,
                                     std::span<const ExperimentResult> rows,
                                     const AnalysisOptions& options) {
  ComparisonAnalysis analysis;
  analysis.comparison = comparison;
  if (rows.size() < 2) return analysis;
  const size_t reference = referenceRow(rows);
  analysis.reference = rows[reference].name;
  const PairedRows paired = pairRows(rows);
  analysis.pairs = paired.pairs();
  if (analysis.pairs < 2) {
    analysis.notes.push_back("fewer than two games played by every row: nothing to pair");
  } else {
    addPairedTests(rows, paired, reference, analysis);
    addBootstrap(rows, paired, reference, options, analysis);
    adjustForMultipleTests(analysis);
  }
  addDetectability(rows, options, analysis);
  return analysis;
}

std::vector<ComparisonAnalysis> analyzeAll(std::span<const ExperimentResult> results,
                                           const AnalysisOptions& options) {
  std::vector<ExperimentSummary> labels(results.size());
  for (size_t i = 0; i < results.size(); ++i) labels[i].label = results[i];
  std::vector<ComparisonAnalysis> analyses;
  for (const ComparisonGroup& group : groupByComparison(labels)) {
    if (group.comparison.empty() || group.members.size() < 2) continue;
    std::vector<ExperimentResult> rows;
    for (size_t i : group.members) rows.push_back(results[i]);
    analyses.push_back(analyzeComparison(group.comparison, rows, options));
  }
  return analyses;
}

std::pair<double, double> ScoreInterval::interval(ScoreTable table) const {
  using Bounds = std::pair<double ScoreInterval::*, double ScoreInterval::*>;
  static constexpr Bounds kBounds[] = {{&ScoreInterval::score9Low, &ScoreInterval::score9High},
                                       {&ScoreInterval::score4Low, &ScoreInterval::score4High},
                                       {&ScoreInterval::scoreExtLow, &ScoreInterval::scoreExtHigh}};
  const auto [low, high] = kBounds[static_cast<size_t>(table)];
  return {this->*low, this->*high};
}

const PairedTest* findTest(const ComparisonAnalysis& analysis, const std::string& experiment,
                           const std::string& metric) {
  for (const PairedTest& t : analysis.tests)
    if (t.experiment == experiment && t.metric == metric) return &t;
  return nullptr;
}

std::string significanceMark(const ComparisonAnalysis* analysis, const std::string& experiment,
                             const ScoredMetric& metric) {
  if (!analysis) return "";
  const PairedTest* test = findTest(*analysis, experiment, std::string(metric.key()));
  return test && test->significant() ? "*" : "";
}

ChiSquareTest chanceUniformity(const ChanceBins& bins) {
  const double total = std::accumulate(bins.begin(), bins.end(), 0.0);
  ChiSquareTest t;
  t.df = kChanceBins - 1;
  const double expected = total / kChanceBins;
  if (expected < kExpectedPerBin) {
    t.p = std::nan("");
    return t;
  }
  for (uint32_t count : bins) t.chi2 += (count - expected) * (count - expected) / expected;
  t.p = chiSquareUpperTail(t.chi2, t.df);
  return t;
}

}  // namespace ddalab
