#include "results/report.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>
#include <string>

#include "results/text_table.h"

namespace ddalab {

namespace {

using Cells = TextTable::Cells;

void printMetricTable(std::ostream& out, std::span<const ExperimentSummary> summaries,
                      const ComparisonGroup& group) {
  Cells header = {"experiment", "games"};
  for (const MetricInfo& info : allMetrics()) header.emplace_back(info.key);
  header.insert(header.end(),
                {"lead_changes/round", "leading_time/round", "win_ratio", "balance_p"});
  TextTable table(header);
  for (size_t i : group.members) {
    const ExperimentSummary& s = summaries[i];
    Cells means = {s.label.name,
                   std::to_string(s.games) + "/" + std::to_string(s.label.plannedIterations)};
    Cells halfWidths = {"  +- 95 % CI (win_ratio: interval)", ""};
    for (const MetricInfo& info : allMetrics()) {
      const Stats& stats = s.metrics[static_cast<size_t>(info.metric)];
      means.push_back(fixedText(stats.mean));
      halfWidths.push_back(fixedText((stats.ci95High - stats.ci95Low) / 2));
    }
    for (const Stats* rate : {&s.leadChangesPerRound, &s.leadingTimePerRound}) {
      means.push_back(fixedText(rate->mean, 4));
      halfWidths.push_back(fixedText((rate->ci95High - rate->ci95Low) / 2, 4));
    }
    means.push_back(fixedText(s.winRatio));
    halfWidths.push_back(fixedText(s.winRatioLow) + ".." + fixedText(s.winRatioHigh));
    means.push_back(fixedText(s.balance.p, 4));
    table.addRow(means);
    table.addRow(halfWidths);
  }
  table.print(out);
}

void printPlayerTable(std::ostream& out, const ExperimentSummary& summary) {
  // Without a winner a one-player game is lost, not drawn.
  const char* noWinner = summary.players.size() == 1 ? "; losses " : "; draws ";
  out << "\nPlayers of " << summary.label.name << " (environment " << summary.label.environment
      << noWinner << fixedText(100 * summary.drawRate, 1) << " %, capped "
      << fixedText(100 * summary.cappedRate, 1) << " %)\n";
  TextTable table(
      {"seat", "player", "win rate", "moves mean", "min", "max", "turns", "lead rounds"}, 2);
  for (size_t seat = 0; seat < summary.players.size(); ++seat) {
    const PlayerSummary& p = summary.players[seat];
    table.addRow({std::to_string(seat), p.label.id + ":" + std::to_string(p.label.level),
                  fixedText(p.winRate), fixedText(p.movesMean, 1), std::to_string(p.movesMin),
                  std::to_string(p.movesMax), fixedText(p.turnsMean, 1),
                  fixedText(p.leadRoundsMean, 1)});
  }
  table.print(out);
}

void printScoreTable(std::ostream& out, const ComparisonScores& scores,
                     const ComparisonAnalysis* analysis) {
  Cells header = {"experiment"};
  for (const ScoredMetric& column : scores.columns) header.emplace_back(column.key());
  for (ScoreTable t : kScoreTables) header.emplace_back(scoreKey(t));
  TextTable table(header);
  for (const ScoreRow& row : scores.rows) {
    Cells cells = {row.experiment};
    for (size_t k = 0; k < scores.columns.size(); ++k) {
      const double ratio = row.ratios[k];
      cells.push_back(std::isnan(ratio)
                          ? "n/a"
                          : fixedText(ratio) +
                                significanceMark(analysis, row.experiment, scores.columns[k]));
    }
    for (ScoreTable t : kScoreTables) cells.push_back(fixedText(row.score(t)));
    table.addRow(cells);
  }
  table.print(out);
}

std::string percent(double p) {
  return fixedText(100 * p, 0) + "%";
}

// The score intervals with the probability of each rank.
void printRankTable(std::ostream& out, const ComparisonAnalysis& a) {
  out << "  bootstrap 95 % intervals (" << a.replicates << " replicates of the " << a.pairs
      << " paired games); P(>ref): score9 above " << a.reference << "'s; P(rank) by score9:\n";
  Cells header = {"experiment", "score9",    "interval", "score4",
                  "interval",   "score_ext", "interval", "P(>ref)"};
  for (size_t rank = 1; rank <= a.scores.size(); ++rank)
    header.push_back("P(" + std::to_string(rank) + ")");
  TextTable table(header);
  for (const ScoreInterval& s : a.scores) {
    Cells cells = {s.experiment,
                   fixedText(s.score9, 2),
                   fixedText(s.score9Low, 2) + ".." + fixedText(s.score9High, 2),
                   fixedText(s.score4, 2),
                   fixedText(s.score4Low, 2) + ".." + fixedText(s.score4High, 2),
                   fixedText(s.scoreExt, 2),
                   fixedText(s.scoreExtLow, 2) + ".." + fixedText(s.scoreExtHigh, 2),
                   s.experiment == a.reference ? "-" : percent(s.above9)};
    for (double p : s.rank9) cells.push_back(percent(p));
    table.addRow(cells);
  }
  table.print(out);
}

void printDetectability(std::ostream& out, const ComparisonAnalysis& a) {
  if (a.detectability.empty()) return;
  out << "  detectability: the environment outcomes each player received against natural "
         "chance (chi-square on deciles, 5 %):\n";
  TextTable table({"experiment", "seat", "outcomes", "chi2", "p", "detected", "games to detect"},
                  2);
  for (const Detectability& d : a.detectability)
    table.addRow({d.experiment,
                  std::to_string(d.seat) + " " + d.player.id + ":" + std::to_string(d.player.level),
                  std::to_string(d.outcomes), fixedText(d.chi2, 1),
                  std::isnan(d.p) ? "too few" : fixedText(d.p, 4), d.detected() ? "yes" : "no",
                  d.gamesToDetect ? std::to_string(*d.gamesToDetect) : "-"});
  table.print(out);
}

const ComparisonAnalysis* analysisOf(std::span<const ComparisonAnalysis> analyses,
                                     const std::string& comparison) {
  for (const ComparisonAnalysis& a : analyses)
    if (a.comparison == comparison) return &a;
  return nullptr;
}

// Algorithms x comparisons, then the mean over the comparisons every algorithm takes part in.
void printCrossTable(std::ostream& out, const CrossScores& cross) {
  Cells header = {"algorithm"};
  for (const std::string& c : cross.comparisons) header.push_back(c);
  header.emplace_back("mean");
  TextTable table(header);
  for (size_t r = 0; r < cross.rows.size(); ++r) {
    Cells cells = {cross.rows[r]};
    for (const auto& score : cross.scores[r]) cells.push_back(score ? fixedText(*score, 2) : "-");
    cells.push_back(std::isnan(cross.means[r]) ? "-" : fixedText(cross.means[r], 2));
    table.addRow(cells);
  }
  table.print(out);
  std::string over;
  for (const std::string& c : cross.commonComparisons) over += (over.empty() ? "" : ", ") + c;
  out << "  mean over the comparisons every algorithm takes part in: "
      << (over.empty() ? std::string("none") : over) << '\n';
}

}  // namespace

void printSummaryTables(std::ostream& out, std::span<const ExperimentSummary> summaries) {
  for (const ComparisonGroup& group : groupByComparison(summaries)) {
    if (group.comparison.empty())
      out << "\nExperiment " << summaries[group.members.front()].label.name << ": metric means\n";
    else
      out << "\nComparison " << group.comparison << ": metric means\n";
    printMetricTable(out, summaries, group);
    for (size_t i : group.members) printPlayerTable(out, summaries[i]);
  }
}

void printComparisonScores(std::ostream& out, const std::vector<ComparisonScores>& comparisons,
                           std::span<const ComparisonAnalysis> analyses) {
  for (const ComparisonScores& scores : comparisons) {
    if (scores.rows.size() < 2) continue;  // a ratio to the best of one row says nothing
    const ComparisonAnalysis* analysis = analysisOf(analyses, scores.comparison);
    out << "\nComparison " << scores.comparison
        << ": ratio to the best (1 = best; score9 = thesis table 8, score4 = table 9, score_ext = "
           "the extended metrics)\n";
    printScoreTable(out, scores, analysis);
    for (const std::string& note : scores.notes) out << "  note: " << note << '\n';
    if (!analysis) continue;
    if (!analysis->tests.empty())
      out << "  * the row's mean differs from " << analysis->reference
          << "'s (paired test, Holm-corrected over the comparison's thesis or extended metrics, "
             "5 %)\n";
    for (const std::string& note : analysis->notes) out << "  note: " << note << '\n';
    if (!analysis->scores.empty()) printRankTable(out, *analysis);
    printDetectability(out, *analysis);
  }
  for (const ScoreTable table : kScoreTables) {
    const CrossScores cross = crossScores(comparisons, table);
    if (cross.comparisons.size() < 2) return;
    out << "\nScores across comparisons (" << scoreTableName(table) << ")\n";
    printCrossTable(out, cross);
  }
}

}  // namespace ddalab
