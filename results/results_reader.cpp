#include "results/results_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/params.h"
#include "results/csv_format.h"
#include "results/csv_schema.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// Metrics whose values can be negative (a status); every other metric is a count, a mean of
// counts, an absolute value or a deviation.
bool canBeNegative(Metric metric) {
  return metric == Metric::DecisivenessThreshold;
}

// Reads the header record and checks it is exactly one of `accepted` (this version's first, then
// those of earlier versions); returns the index of the one it is. The message names what this
// version expects.
size_t expectHeader(CsvReader& reader, std::span<const CsvRecord> accepted) {
  CsvRecord header;
  if (!reader.next(header)) reader.fail(1, "the file is empty; expected a header row");
  for (size_t k = 0; k < accepted.size(); ++k)
    if (header == accepted[k]) return k;
  const CsvRecord& expected = accepted.front();
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::string found = i < header.size() ? header[i] : "(nothing)";
    if (found != expected[i])
      reader.fail(i + 1, "expected header '" + expected[i] + "', found '" + found + "'");
  }
  if (header.size() > expected.size())
    reader.fail(expected.size() + 1, "unexpected header '" + header[expected.size()] + "'");
  return 0;  // not reached: fail throws
}

// The number spelled by all of `text`, if it is one (std::from_chars ignores the locale).
template <typename Number>
std::optional<Number> parseWhole(std::string_view text) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// Walks the fields of one record left to right, parsing each against its header name.
class RowCursor {
 public:
  RowCursor(const CsvReader& reader, const CsvRecord& fields, const CsvRecord& header)
      : reader_(reader), fields_(fields), header_(header) {
    if (fields.size() != header.size())
      reader.fail(std::min(fields.size(), header.size()) + 1,
                  "expected " + std::to_string(header.size()) + " fields, found " +
                      std::to_string(fields.size()));
  }

  bool done() const { return column_ == fields_.size(); }
  const std::string& text() { return fields_[column_++]; }

  template <typename Number>
  Number number() {
    const auto value = parseWhole<Number>(text());
    if (!value) failLast("expected a number");
    return *value;
  }

  // A finite number (files written by ddalab never hold nan or inf).
  double finite() {
    const double value = number<double>();
    if (!std::isfinite(value)) failLast("expected a finite number");
    return value;
  }

  // kChanceBins counts separated by single spaces (chanceField).
  ChanceBins chanceBins() {
    ChanceBins bins{};
    std::string_view rest = text();
    for (size_t i = 0; i < bins.size(); ++i) {
      const size_t end = i + 1 < bins.size() ? rest.find(' ') : rest.size();
      const auto value = parseWhole<uint32_t>(rest.substr(0, end));
      if (end == std::string_view::npos || !value)
        failLast("expected " + std::to_string(kChanceBins) + " counts separated by spaces");
      bins[i] = *value;
      rest.remove_prefix(std::min(rest.size(), end + 1));
    }
    return bins;
  }

  // A finite number >= 0.
  double nonNegative() {
    const double value = finite();
    if (value < 0) failLast("expected a number >= 0");
    return value;
  }

  // A count: an integer >= 0.
  int count() {
    const int value = number<int>();
    if (value < 0) failLast("expected a count >= 0");
    return value;
  }

  // Throws for the field read last, naming its column and quoting its text.
  [[noreturn]] void failLast(const std::string& expectation) const {
    const size_t index = column_ - 1;
    reader_.fail(column_,
                 "(" + header_[index] + ") " + expectation + ", found '" + fields_[index] + "'");
  }

 private:
  const CsvReader& reader_;
  const CsvRecord& fields_;
  const CsvRecord& header_;
  size_t column_ = 0;
};

// An experiment as listed in summary.csv, before its games are read.
struct ListedExperiment {
  ExperimentLabel label;
  size_t games = 0;
  size_t line = 0;
};

// "id:level;id:level" (ids may contain ':', the level follows the last one).
std::vector<SeatLabel> parsePlayers(RowCursor& row) {
  const std::string& text = row.text();
  std::vector<SeatLabel> players;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find(';', start), text.size());
    const std::string_view entry = std::string_view(text).substr(start, end - start);
    const size_t colon = entry.rfind(':');
    const auto level = colon == std::string_view::npos || colon == 0
                           ? std::nullopt
                           : parseWhole<int>(entry.substr(colon + 1));
    if (!level) row.failLast("expected id:level entries separated by ';'");
    players.push_back({std::string(entry.substr(0, colon)), *level});
    start = end + 1;
  }
  if (players.size() > static_cast<size_t>(kMaxPlayers))
    row.failLast("expected at most " + std::to_string(kMaxPlayers) + " players");
  return players;
}

ListedExperiment parseListedExperiment(const CsvReader& reader, const CsvRecord& fields,
                                       const CsvRecord& header) {
  RowCursor row(reader, fields, header);
  ListedExperiment listed;
  ExperimentLabel& label = listed.label;
  label.name = row.text();
  label.comparison = row.text();
  label.game = row.text();
  label.environment = row.text();
  label.players = parsePlayers(row);
  listed.games = row.number<size_t>();
  label.plannedIterations = row.count();
  while (!row.done()) row.finite();  // the means: only checked, they are recomputed
  listed.line = reader.line();
  return listed;
}

std::vector<ListedExperiment> readBatchSummary(const fs::path& file) {
  CsvReader reader(file);
  const CsvRecord headers[] = {batchSummaryColumns(),
                               batchSummaryColumns({.extended = ExtendedMetricColumns::First}),
                               batchSummaryColumns({.extended = ExtendedMetricColumns::None})};
  const CsvRecord& header = headers[expectHeader(reader, headers)];
  std::vector<ListedExperiment> listed;
  CsvRecord fields;
  while (reader.next(fields)) listed.push_back(parseListedExperiment(reader, fields, header));
  return listed;
}

int parseWinner(RowCursor& row, size_t seats) {
  const std::string& text = row.text();
  if (text.empty()) return -1;  // a draw
  const auto seat = parseWhole<int>(text);
  if (!seat || *seat < 0 || static_cast<size_t>(*seat) >= seats)
    row.failLast("expected a seat below " + std::to_string(seats) + " or nothing for a draw");
  return *seat;
}

bool parseFlag(RowCursor& row) {
  const std::string& text = row.text();
  if (text != "0" && text != "1") row.failLast("expected 0 or 1");
  return text == "1";
}

// One row of a games file, in the column order of gamesColumns(); `previous` is the iteration
// of the row before (none for the first), `planned` the experiment's planned iterations.
GameRecord parseGame(RowCursor& row, size_t seats, std::optional<uint64_t> previous, int planned,
                     ResultsFileVersion version) {
  GameRecord g;
  g.numPlayers = static_cast<int>(seats);
  g.iteration = row.number<uint64_t>();
  if (previous && g.iteration <= *previous)
    row.failLast("expected iterations in increasing order, each game once (the row before has " +
                 std::to_string(*previous) + ")");
  if (g.iteration >= static_cast<uint64_t>(planned))
    row.failLast("expected an iteration below the " + std::to_string(planned) + " planned");
  g.seed = row.number<uint64_t>();
  g.metrics[static_cast<size_t>(Metric::Rounds)] = row.count();
  g.winner = parseWinner(row, seats);
  g.capped = parseFlag(row);
  // A metric the file has no column for is unknown (NaN): not 0, which would be a value.
  for (const auto& info : allMetrics())
    if (info.metric != Metric::Rounds)
      g.metrics[static_cast<size_t>(info.metric)] = !hasMetricColumn(info, version) ? NAN
                                                    : canBeNegative(info.metric)
                                                        ? row.finite()
                                                        : row.nonNegative();
  for (size_t seat = 0; seat < seats; ++seat) {
    g.scores[seat] = row.finite();
    g.counters[seat] = {row.count(), row.count(), row.count()};
  }
  if (version.chance)
    for (size_t seat = 0; seat < seats; ++seat) g.chance[seat] = row.chanceBins();
  return g;
}

// Reads the header of a games file: this version's, or one of an earlier version.
ResultsFileVersion gamesFileVersion(CsvReader& reader, size_t seats) {
  std::vector<ResultsFileVersion> versions;
  for (ExtendedMetricColumns extended :
       {ExtendedMetricColumns::Current, ExtendedMetricColumns::First, ExtendedMetricColumns::None})
    for (bool chance : {true, false}) versions.push_back({chance, extended});
  std::vector<CsvRecord> headers;
  for (const ResultsFileVersion& v : versions) headers.push_back(gamesColumns(seats, v));
  return versions[expectHeader(reader, headers)];
}

// Calls `onGame` for every game of `file` in order; returns how many there were.
size_t readGames(const fs::path& file, const ExperimentLabel& label,
                 const std::function<void(const GameRecord&)>& onGame) {
  CsvReader reader(file);
  const size_t seats = label.players.size();
  const ResultsFileVersion version = gamesFileVersion(reader, seats);
  const CsvRecord header = gamesColumns(seats, version);
  CsvRecord fields;
  std::optional<uint64_t> previous;
  size_t games = 0;
  while (reader.next(fields)) {
    RowCursor row(reader, fields, header);
    const GameRecord record = parseGame(row, seats, previous, label.plannedIterations, version);
    previous = record.iteration;
    onGame(record);
    ++games;
  }
  return games;
}

}  // namespace

void readResultsDir(const fs::path& dir,
                    const std::function<void(const ExperimentLabel&)>& onExperiment,
                    const std::function<void(const GameRecord&)>& onGame) {
  const fs::path summaryFile = dir / "summary.csv";
  for (const ListedExperiment& listed : readBatchSummary(summaryFile)) {
    onExperiment(listed.label);
    const fs::path gamesFile = dir / (fileStem(listed.label.name) + ".games.csv");
    const size_t games = readGames(gamesFile, listed.label, onGame);
    if (games != listed.games)
      throw InputError(summaryFile.string() + ":" + std::to_string(listed.line),
                       "column 6 (games): " + std::to_string(listed.games) + " games, but " +
                           gamesFile.string() + " has " + std::to_string(games));
  }
}

ExperimentResult readExperimentGames(const fs::path& dir, const ExperimentLabel& label) {
  ExperimentResult result;
  static_cast<ExperimentLabel&>(result) = label;
  readGames(dir / (fileStem(label.name) + ".games.csv"), label,
            [&](const GameRecord& record) { result.records.push_back(record); });
  return result;
}

size_t readExperimentGames(const fs::path& dir, const ExperimentLabel& label,
                           const std::function<void(const GameRecord&)>& onGame) {
  return readGames(dir / (fileStem(label.name) + ".games.csv"), label, onGame);
}

std::vector<ExperimentResult> readResultsDir(const fs::path& dir) {
  std::vector<ExperimentResult> results;
  readResultsDir(
      dir,
      [&](const ExperimentLabel& label) {
        results.emplace_back();
        static_cast<ExperimentLabel&>(results.back()) = label;
      },
      [&](const GameRecord& record) { results.back().records.push_back(record); });
  return results;
}

std::vector<ExperimentSummary> summarizeResultsDir(const fs::path& dir) {
  std::vector<ExperimentSummary> summaries;
  std::optional<SummaryBuilder> builder;
  readResultsDir(
      dir,
      [&](const ExperimentLabel& label) {
        if (builder) summaries.push_back(builder->summary());
        builder.emplace(label);
      },
      [&](const GameRecord& record) { builder->add(record); });
  if (builder) summaries.push_back(builder->summary());
  return summaries;
}

}  // namespace ddalab
