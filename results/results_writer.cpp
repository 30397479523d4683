#include "results/results_writer.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "results/csv_format.h"
#include "results/csv_schema.h"
#include "results/sweep_table.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// A small CSV file written row by row; it appears under its final name only when complete.
class CsvFile {
 public:
  explicit CsvFile(const fs::path& file) : out_(file) {}
  void row(const CsvRecord& fields) { out_.write(csvLine(fields)); }
  // Syncs the file and gives it its final name; throws WriteError.
  void commit() { out_.commit(); }

 private:
  OutputFile out_;
};

CsvRecord statsRow(const std::string& name, const Stats& s) {
  return {name,
          csvNumberText(s.mean),
          csvNumberText(s.std),
          csvNumberText(s.min),
          csvNumberText(s.max),
          csvNumberText(s.ci95Low),
          csvNumberText(s.ci95High),
          csvNumberText(s.n)};
}

// An experiment-level value has no distribution: only the value and the number of games.
CsvRecord valueRow(const std::string& name, double value, size_t games) {
  return {name, csvNumberText(value), "", "", "", "", "", csvNumberText(games)};
}

std::string playersText(const std::vector<SeatLabel>& players) {
  std::string text;
  for (const auto& p : players)
    text += (text.empty() ? "" : ";") + p.id + ":" + csvNumberText(p.level);
  return text;
}

CsvRecord batchRow(const ExperimentSummary& summary) {
  const ExperimentLabel& label = summary.label;
  CsvRecord row = {label.name,
                   label.comparison,
                   label.game,
                   label.environment,
                   playersText(label.players),
                   csvNumberText(summary.games),
                   csvNumberText(label.plannedIterations)};
  for (const auto& info : allMetrics())
    row.push_back(csvNumberText(summary.metrics[static_cast<size_t>(info.metric)].mean));
  row.push_back(csvNumberText(summary.winRatio));
  row.push_back(csvNumberText(summary.drawRate));
  return row;
}

void writeScoresCsv(const fs::path& dir, const ComparisonScores& scores) {
  CsvFile csv(dir / (fileStem(scores.comparison) + ".scores.csv"));
  csv.row(scoresColumns(scores));
  for (const ScoreRow& r : scores.rows) {
    CsvRecord row = {r.experiment};
    for (double mean : r.means) row.push_back(csvNumberText(mean));
    for (double ratio : r.ratios) row.push_back(std::isnan(ratio) ? "" : csvNumberText(ratio));
    for (ScoreTable table : kScoreTables) row.push_back(csvNumberText(r.score(table)));
    csv.row(row);
  }
  csv.commit();
}

// A p-value, empty when there is none.
std::string probabilityText(double p) {
  return std::isnan(p) ? "" : csvNumberText(p);
}

void writeTestsCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".tests.csv"));
  csv.row(testsColumns());
  for (const PairedTest& t : a.tests)
    csv.row({t.experiment, a.reference, t.metric, csvNumberText(t.pairs),
             csvNumberText(t.difference), csvNumberText(t.ci95Low), csvNumberText(t.ci95High),
             t.test, probabilityText(t.p), probabilityText(t.wilcoxonP), probabilityText(t.holmP),
             t.significant() ? "1" : "0"});
  csv.commit();
}

void writeRanksCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".ranks.csv"));
  csv.row(ranksColumns(a.scores.size()));
  for (const ScoreInterval& s : a.scores) {
    CsvRecord row = {s.experiment};
    for (double x : {s.score9, s.score9Low, s.score9High, s.score4, s.score4Low, s.score4High,
                     s.scoreExt, s.scoreExtLow, s.scoreExtHigh})
      row.push_back(csvNumberText(x));
    for (const auto* ranks : {&s.rank9, &s.rank4, &s.rankExt})
      for (double p : *ranks) row.push_back(csvNumberText(p));
    for (double x : {s.above9, s.above4, s.aboveExt}) row.push_back(csvNumberText(x));
    row.push_back(csvNumberText(a.replicates));
    csv.row(row);
  }
  csv.commit();
}

void writeDetectabilityCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".detectability.csv"));
  csv.row(detectabilityColumns());
  for (const Detectability& d : a.detectability)
    csv.row({d.experiment, csvNumberText(d.seat), d.player.id + ":" + csvNumberText(d.player.level),
             csvNumberText(d.outcomes), csvNumberText(d.chi2), csvNumberText(d.df),
             probabilityText(d.p), d.detected() ? "1" : "0",
             d.gamesToDetect ? csvNumberText(*d.gamesToDetect) : ""});
  csv.commit();
}

}  // namespace

// Every field of a games row is a number (never quoted), so the row is written straight into
// one string: a row per game is the hot path of a run.
std::string gamesCsvRow(const GameRecord& record, size_t seats) {
  std::string row;
  row.reserve(64 * (8 + 5 * seats));
  appendCsvNumber(row, record.iteration);
  appendCsvNumber(row, record.seed);
  appendCsvNumber(row, record.metrics[static_cast<size_t>(Metric::Rounds)]);
  if (record.winner >= 0) appendCsvNumber(row, record.winner, '\0');
  row += record.capped ? ",1," : ",0,";
  for (const auto& info : allMetrics())
    if (info.metric != Metric::Rounds)
      appendCsvNumber(row, record.metrics[static_cast<size_t>(info.metric)]);
  for (size_t seat = 0; seat < seats; ++seat) {
    const PlayerCounters& c = record.counters[seat];
    appendCsvNumber(row, record.scores[seat]);
    for (int count : {c.moves, c.turns, c.leadRounds}) appendCsvNumber(row, count);
  }
  for (size_t seat = 0; seat < seats; ++seat) {
    const ChanceBins& bins = record.chance[seat];  // one field, the counts space-separated
    for (size_t i = 0; i < bins.size(); ++i)
      appendCsvNumber(row, bins[i], i + 1 < bins.size() ? ' ' : ',');
  }
  row.back() = '\n';
  return row;
}

std::string gamesCsvHeader(size_t seats) {
  return csvLine(gamesColumns(seats));
}

GamesCsvWriter::GamesCsvWriter(const fs::path& dir, const ExperimentLabel& label)
    : seats_(label.players.size()) {
  if (seats_ > static_cast<size_t>(kMaxPlayers))
    throw std::invalid_argument("GamesCsvWriter: more players than kMaxPlayers");
  file_ = std::make_unique<OutputFile>(dir / (fileStem(label.name) + ".games.csv"));
  file_->write(gamesCsvHeader(seats_));
}

GamesCsvWriter::~GamesCsvWriter() = default;

void GamesCsvWriter::add(const GameRecord& record) {
  file_->write(gamesCsvRow(record, seats_));
}

void GamesCsvWriter::addRow(std::string_view row) {
  file_->write(row);
}

void GamesCsvWriter::commit() {
  file_->commit();
}

void writeSummaryCsv(const fs::path& dir, const ExperimentSummary& summary) {
  CsvFile csv(dir / (fileStem(summary.label.name) + ".summary.csv"));
  csv.row(experimentSummaryColumns());
  for (const auto& info : allMetrics())
    csv.row(statsRow(std::string(info.key), summary.metrics[static_cast<size_t>(info.metric)]));
  csv.row(statsRow("lead_changes_per_round", summary.leadChangesPerRound));
  csv.row(statsRow("leading_time_per_round", summary.leadingTimePerRound));
  CsvRecord winRatio = valueRow("win_ratio", summary.winRatio, summary.games);
  winRatio[5] = csvNumberText(summary.winRatioLow);  // bootstrap interval
  winRatio[6] = csvNumberText(summary.winRatioHigh);
  csv.row(winRatio);
  csv.row(valueRow("win_balance_chi2", summary.balance.chi2, summary.games));
  csv.row(valueRow("win_balance_p", summary.balance.p, summary.games));
  for (size_t seat = 0; seat < summary.players.size(); ++seat)
    csv.row(valueRow(seatColumn(seat, "win_rate"), summary.players[seat].winRate, summary.games));
  csv.row(valueRow("draw_rate", summary.drawRate, summary.games));
  csv.row(valueRow("capped_rate", summary.cappedRate, summary.games));
  csv.commit();
}

void writeExperimentCsvs(const fs::path& dir, const ExperimentResult& result,
                         const ExperimentSummary& summary) {
  fs::create_directories(dir);
  GamesCsvWriter games(dir, result);
  for (const GameRecord& record : result.records) games.add(record);
  games.commit();
  writeSummaryCsv(dir, summary);
}

void writeBatchCsvs(const fs::path& dir, std::span<const ExperimentSummary> summaries) {
  fs::create_directories(dir);
  CsvFile csv(dir / "summary.csv");
  csv.row(batchSummaryColumns());
  for (const ExperimentSummary& summary : summaries) csv.row(batchRow(summary));
  csv.commit();
  for (const ComparisonScores& scores : scoreAll(summaries)) writeScoresCsv(dir, scores);
}

void writeSweepCsv(const fs::path& dir, std::span<const ExperimentSummary> summaries,
                   std::span<const Json> points, std::span<const ComparisonAnalysis> analyses) {
  const SweepTable table = sweepTable(summaries, points, analyses);
  CsvFile csv(dir / "sweep.csv");
  csv.row(sweepColumns(table));
  for (const SweepRow& r : table.rows) {
    CsvRecord row = {r.experiment, r.comparison};
    for (const std::string& axis : table.axes)
      row.push_back(r.point.contains(axis) ? valueText(r.point.at(axis)) : "");
    row.push_back(csvNumberText(r.games));
    for (const auto& v : r.values)
      for (double x : {v ? v->value : 0, v ? v->low : 0, v ? v->high : 0})
        row.push_back(v ? csvNumberText(x) : std::string());
    csv.row(row);
  }
  csv.commit();
}

void writeAnalysisCsvs(const fs::path& dir, std::span<const ComparisonAnalysis> analyses) {
  for (const ComparisonAnalysis& a : analyses) {
    writeTestsCsv(dir, a);
    writeRanksCsv(dir, a);
    writeDetectabilityCsv(dir, a);
  }
}

}  // namespace ddalab
