#include "results/csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/params.h"
#include "results/file_io.h"
#include "results/sweep_table.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

using Fields = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Writing

// Appends the shortest text that reads back to the same bits (std::to_chars ignores the locale),
// then `separator` (none when 0).
template <typename Number>
void appendNumber(std::string& out, Number value, char separator = ',') {
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  (void)error;  // 64 characters fit every double and 64-bit integer
  out.append(buffer, end);
  if (separator) out += separator;
}

template <typename Number>
std::string formatNumber(Number value) {
  std::string text;
  appendNumber(text, value, '\0');
  return text;
}

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string quoteField(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (char c : field) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// One record as a line of CSV (RFC 4180).
std::string csvLine(const Fields& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += quoteField(fields[i]);
  }
  return line += '\n';
}

// A small CSV file written row by row; it appears under its final name only when complete.
class CsvFile {
 public:
  explicit CsvFile(const fs::path& file) : out_(file) {}
  void row(const Fields& fields) { out_.write(csvLine(fields)); }
  // Syncs the file and gives it its final name; throws WriteError.
  void commit() { out_.commit(); }

 private:
  OutputFile out_;
};

std::string metricKey(Metric metric) {
  return std::string(metricInfo(metric).key);
}

std::string seatColumn(size_t seat, const char* suffix) {
  // Appended piece by piece: "p" + std::string trips a false -Wrestrict in g++ 12.
  std::string name = "p";
  name += std::to_string(seat);
  name += '_';
  name += suffix;
  return name;
}

// Which extended metrics a results file has: none (before them), ddalab's four under their first
// names (drama, decisiveness, uncertainty, comeback: before Ludii's metrics), or this version's.
enum class Extended { None, First, Current };

// What a results file of an earlier ddalab lacks: the chance bins (pN_chance), some or all of the
// extended metrics.
struct FileVersion {
  bool chance = true;
  Extended extended = Extended::Current;
};

// The column of the metric `info` in a file of `version`; empty when it has none (the metric is
// then unknown). drama_trailing and decisiveness_final_lead were first written as drama and
// decisiveness, with the same values; Ludii's metrics came after.
std::string columnOf(const MetricInfo& info, FileVersion version) {
  if (!info.extended || version.extended == Extended::Current) return info.key;
  if (version.extended == Extended::None) return {};
  switch (info.metric) {
    case Metric::DramaTrailing:
      return "drama";
    case Metric::DecisivenessFinalLead:
      return "decisiveness";
    case Metric::Uncertainty:
    case Metric::Comeback:
      return info.key;
    default:
      return {};
  }
}

bool hasColumn(const MetricInfo& info, FileVersion version) {
  return !columnOf(info, version).empty();
}

// Metrics whose values can be negative (a status); every other metric is a count, a mean of
// counts, an absolute value or a deviation.
bool canBeNegative(Metric metric) {
  return metric == Metric::DecisivenessThreshold;
}

// The columns of a games file of `version`.
Fields gamesHeader(size_t seats, FileVersion version = {}) {
  Fields header = {"iteration", "seed", metricKey(Metric::Rounds), "winner", "capped"};
  for (const auto& info : allMetrics())
    if (info.metric != Metric::Rounds && hasColumn(info, version))
      header.push_back(columnOf(info, version));
  for (size_t seat = 0; seat < seats; ++seat)
    for (const char* suffix : {"score", "moves", "turns", "lead_rounds"})
      header.push_back(seatColumn(seat, suffix));
  if (version.chance)
    for (size_t seat = 0; seat < seats; ++seat) header.push_back(seatColumn(seat, "chance"));
  return header;
}

const Fields kSummaryHeader = {"metric", "mean", "std", "min", "max", "ci95_low", "ci95_high", "n"};

Fields statsRow(const std::string& name, const Stats& s) {
  return {name,
          formatNumber(s.mean),
          formatNumber(s.std),
          formatNumber(s.min),
          formatNumber(s.max),
          formatNumber(s.ci95Low),
          formatNumber(s.ci95High),
          formatNumber(s.n)};
}

// An experiment-level value has no distribution: only the value and the number of games.
Fields valueRow(const std::string& name, double value, size_t games) {
  return {name, formatNumber(value), "", "", "", "", "", formatNumber(games)};
}

std::string playersText(const std::vector<SeatLabel>& players) {
  std::string text;
  for (const auto& p : players)
    text += (text.empty() ? "" : ";") + p.id + ":" + formatNumber(p.level);
  return text;
}

Fields batchHeader(FileVersion version = {}) {
  Fields header = {"experiment", "comparison", "game",   "environment",
                   "players",    "games",      "planned"};
  for (const auto& info : allMetrics())
    if (hasColumn(info, version)) header.push_back(columnOf(info, version));
  header.insert(header.end(), {"win_ratio", "draw_rate"});
  return header;
}

Fields batchRow(const ExperimentSummary& summary) {
  const ExperimentLabel& label = summary.label;
  Fields row = {label.name,
                label.comparison,
                label.game,
                label.environment,
                playersText(label.players),
                formatNumber(summary.games),
                formatNumber(label.plannedIterations)};
  for (const auto& info : allMetrics())
    row.push_back(formatNumber(summary.metrics[static_cast<size_t>(info.metric)].mean));
  row.push_back(formatNumber(summary.winRatio));
  row.push_back(formatNumber(summary.drawRate));
  return row;
}

void writeScoresCsv(const fs::path& dir, const ComparisonScores& scores) {
  Fields header = {"experiment"};
  for (const char* suffix : {"", "_ratio"})
    for (const ScoredMetric& column : scores.columns)
      header.push_back(std::string(column.key()) + suffix);
  for (ScoreTable table : kScoreTables) header.emplace_back(scoreKey(table));
  CsvFile csv(dir / (fileStem(scores.comparison) + ".scores.csv"));
  csv.row(header);
  for (const ScoreRow& r : scores.rows) {
    Fields row = {r.experiment};
    for (double mean : r.means) row.push_back(formatNumber(mean));
    for (double ratio : r.ratios) row.push_back(std::isnan(ratio) ? "" : formatNumber(ratio));
    for (ScoreTable table : kScoreTables) row.push_back(formatNumber(r.score(table)));
    csv.row(row);
  }
  csv.commit();
}

// ---------------------------------------------------------------------------------------------
// Reading

// Reads an RFC 4180 file record by record; errors name the file, the line and the column.
// `file` opened for reading. A FIFO could block the open forever and a device (or a link to
// /dev/zero) never end: anything but a regular file is refused before it is opened.
std::ifstream openRegularFile(const fs::path& file) {
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status))
    throw InputError(file.string(),
                     "not a regular file (a folder, pipe, socket or device); expected a CSV file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "cannot open the file");
  return in;
}

class CsvReader {
 public:
  explicit CsvReader(const fs::path& file) : file_(file), in_(openRegularFile(file)) {
    buffer_.resize(1 << 20);
  }

  // The next record into `fields` (their strings are reused: no allocation per row once warm);
  // false at the end of the file.
  bool next(Fields& fields) {
    count_ = 0;
    recordLine_ = line_;
    if (peek() == EOF) return false;
    std::string* field = &startField(fields);
    while (true) {
      // Copy a run of ordinary characters at once (the common case: numbers).
      size_t run = position_;
      while (run < end_ && !isSpecial(buffer_[run])) ++run;
      field->append(buffer_.data() + position_, run - position_);
      position_ = run;
      const int c = get();
      if (c == EOF || c == '\n') {
        line_ += (c == '\n');
        fields.resize(count_);
        return true;
      }
      if (c == ',')
        field = &startField(fields);
      else if (c == '"')
        readQuoted(*field);
      else if (c != '\r' || peek() != '\n')  // a CR before LF is part of the line end
        *field += static_cast<char>(c);
    }
  }

  size_t line() const { return recordLine_; }

  // Throws InputError for column `column` (1-based) of the last record.
  [[noreturn]] void fail(size_t column, const std::string& message) const {
    throw InputError(file_.string() + ":" + std::to_string(recordLine_),
                     "column " + std::to_string(column) + ": " + message);
  }

 private:
  static bool isSpecial(char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; }

  std::string& startField(Fields& fields) {
    if (count_ == fields.size()) fields.emplace_back();
    fields[count_].clear();
    return fields[count_++];
  }

  // Refills the buffer when it is used up; false at the end of the file.
  bool fill() {
    if (position_ < end_) return true;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    position_ = 0;
    end_ = static_cast<size_t>(in_.gcount());
    return end_ > 0;
  }
  int get() { return fill() ? static_cast<unsigned char>(buffer_[position_++]) : EOF; }
  int peek() { return fill() ? static_cast<unsigned char>(buffer_[position_]) : EOF; }

  // The rest of a field that starts with a quote; "" inside stands for one quote.
  void readQuoted(std::string& field) {
    const size_t column = count_;
    if (!field.empty()) fail(column, "quote inside an unquoted field");
    while (true) {
      const int c = get();
      if (c == EOF) fail(column, "quoted field not closed before the end of the file");
      if (c == '"' && peek() != '"') break;
      if (c == '"') get();  // the second quote of a doubled pair
      line_ += (c == '\n');
      field += static_cast<char>(c);
    }
    const int after = peek();
    if (after != ',' && after != '\n' && after != '\r' && after != EOF)
      fail(column, "text after the closing quote");
  }

  fs::path file_;
  std::ifstream in_;
  std::string buffer_;
  size_t position_ = 0, end_ = 0;
  size_t count_ = 0;  // fields of the record being read
  size_t line_ = 1;
  size_t recordLine_ = 1;
};

// Reads the header record and checks it is exactly one of `accepted` (this version's first, then
// those of earlier versions); returns the index of the one it is. The message names what this
// version expects.
size_t expectHeader(CsvReader& reader, std::span<const Fields> accepted) {
  Fields header;
  if (!reader.next(header)) reader.fail(1, "the file is empty; expected a header row");
  for (size_t k = 0; k < accepted.size(); ++k)
    if (header == accepted[k]) return k;
  const Fields& expected = accepted.front();
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
  RowCursor(const CsvReader& reader, const Fields& fields, const Fields& header)
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
  const Fields& fields_;
  const Fields& header_;
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

ListedExperiment parseListedExperiment(const CsvReader& reader, const Fields& fields,
                                       const Fields& header) {
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
  const Fields headers[] = {batchHeader(), batchHeader({.extended = Extended::First}),
                            batchHeader({.extended = Extended::None})};
  const Fields& header = headers[expectHeader(reader, headers)];
  std::vector<ListedExperiment> listed;
  Fields fields;
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

// One row of a games file, in the column order of gamesHeader(); `previous` is the iteration
// of the row before (none for the first), `planned` the experiment's planned iterations.
GameRecord parseGame(RowCursor& row, size_t seats, std::optional<uint64_t> previous, int planned,
                     FileVersion version) {
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
      g.metrics[static_cast<size_t>(info.metric)] = !hasColumn(info, version) ? NAN
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
FileVersion gamesFileVersion(CsvReader& reader, size_t seats) {
  std::vector<FileVersion> versions;
  for (Extended extended : {Extended::Current, Extended::First, Extended::None})
    for (bool chance : {true, false}) versions.push_back({chance, extended});
  std::vector<Fields> headers;
  for (const FileVersion& v : versions) headers.push_back(gamesHeader(seats, v));
  return versions[expectHeader(reader, headers)];
}

// Calls `onGame` for every game of `file` in order; returns how many there were.
size_t readGames(const fs::path& file, const ExperimentLabel& label,
                 const std::function<void(const GameRecord&)>& onGame) {
  CsvReader reader(file);
  const size_t seats = label.players.size();
  const FileVersion version = gamesFileVersion(reader, seats);
  const Fields header = gamesHeader(seats, version);
  Fields fields;
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

// Every field of a games row is a number (never quoted), so the row is written straight into
// one string: a row per game is the hot path of a run.
std::string gamesCsvRow(const GameRecord& record, size_t seats) {
  std::string row;
  row.reserve(64 * (8 + 5 * seats));
  appendNumber(row, record.iteration);
  appendNumber(row, record.seed);
  appendNumber(row, record.metrics[static_cast<size_t>(Metric::Rounds)]);
  if (record.winner >= 0) appendNumber(row, record.winner, '\0');
  row += record.capped ? ",1," : ",0,";
  for (const auto& info : allMetrics())
    if (info.metric != Metric::Rounds)
      appendNumber(row, record.metrics[static_cast<size_t>(info.metric)]);
  for (size_t seat = 0; seat < seats; ++seat) {
    const PlayerCounters& c = record.counters[seat];
    appendNumber(row, record.scores[seat]);
    for (int count : {c.moves, c.turns, c.leadRounds}) appendNumber(row, count);
  }
  for (size_t seat = 0; seat < seats; ++seat) {
    const ChanceBins& bins = record.chance[seat];  // one field, the counts space-separated
    for (size_t i = 0; i < bins.size(); ++i)
      appendNumber(row, bins[i], i + 1 < bins.size() ? ' ' : ',');
  }
  row.back() = '\n';
  return row;
}

std::string gamesCsvHeader(size_t seats) {
  return csvLine(gamesHeader(seats));
}

std::string csvField(const std::string& text) {
  return quoteField(text);
}

std::string csvNumber(double value) {
  return formatNumber(value);
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
  csv.row(kSummaryHeader);
  for (const auto& info : allMetrics())
    csv.row(statsRow(std::string(info.key), summary.metrics[static_cast<size_t>(info.metric)]));
  csv.row(statsRow("lead_changes_per_round", summary.leadChangesPerRound));
  csv.row(statsRow("leading_time_per_round", summary.leadingTimePerRound));
  Fields winRatio = valueRow("win_ratio", summary.winRatio, summary.games);
  winRatio[5] = formatNumber(summary.winRatioLow);  // bootstrap interval
  winRatio[6] = formatNumber(summary.winRatioHigh);
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
  csv.row(batchHeader());
  for (const ExperimentSummary& summary : summaries) csv.row(batchRow(summary));
  csv.commit();
  for (const ComparisonScores& scores : scoreAll(summaries)) writeScoresCsv(dir, scores);
}

void writeSweepCsv(const fs::path& dir, std::span<const ExperimentSummary> summaries,
                   std::span<const Json> points, std::span<const ComparisonAnalysis> analyses) {
  const SweepTable table = sweepTable(summaries, points, analyses);
  Fields header = {"experiment", "comparison"};
  for (const std::string& axis : table.axes) header.push_back("@" + axis);
  header.push_back("games");
  for (const std::string& column : table.columns)
    for (const char* suffix : {"", "_low", "_high"}) header.push_back(column + suffix);
  CsvFile csv(dir / "sweep.csv");
  csv.row(header);
  for (const SweepRow& r : table.rows) {
    Fields row = {r.experiment, r.comparison};
    for (const std::string& axis : table.axes)
      row.push_back(r.point.contains(axis) ? valueText(r.point.at(axis)) : "");
    row.push_back(formatNumber(r.games));
    for (const auto& v : r.values)
      for (double x : {v ? v->value : 0, v ? v->low : 0, v ? v->high : 0})
        row.push_back(v ? formatNumber(x) : std::string());
    csv.row(row);
  }
  csv.commit();
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

namespace {

std::string probability(double p) {
  return std::isnan(p) ? "" : formatNumber(p);
}

void writeTestsCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".tests.csv"));
  csv.row({"experiment", "reference", "metric", "pairs", "difference", "ci95_low", "ci95_high",
           "test", "p", "wilcoxon_p", "holm_p", "significant"});
  for (const PairedTest& t : a.tests)
    csv.row({t.experiment, a.reference, t.metric, formatNumber(t.pairs), formatNumber(t.difference),
             formatNumber(t.ci95Low), formatNumber(t.ci95High), t.test, probability(t.p),
             probability(t.wilcoxonP), probability(t.holmP), t.significant() ? "1" : "0"});
  csv.commit();
}

void writeRanksCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".ranks.csv"));
  Fields header = {"experiment"};
  for (ScoreTable table : kScoreTables)
    for (const char* suffix : {"", "_low", "_high"})
      header.push_back(std::string(scoreKey(table)) + suffix);
  for (const char* table : {"p_rank9_", "p_rank4_", "p_rank_ext_"})
    for (size_t rank = 1; rank <= a.scores.size(); ++rank)
      header.push_back(table + std::to_string(rank));
  header.insert(header.end(), {"p_above_reference9", "p_above_reference4", "p_above_reference_ext",
                               "replicates"});
  csv.row(header);
  for (const ScoreInterval& s : a.scores) {
    Fields row = {s.experiment};
    for (double x : {s.score9, s.score9Low, s.score9High, s.score4, s.score4Low, s.score4High,
                     s.scoreExt, s.scoreExtLow, s.scoreExtHigh})
      row.push_back(formatNumber(x));
    for (const auto* ranks : {&s.rank9, &s.rank4, &s.rankExt})
      for (double p : *ranks) row.push_back(formatNumber(p));
    for (double x : {s.above9, s.above4, s.aboveExt}) row.push_back(formatNumber(x));
    row.push_back(formatNumber(a.replicates));
    csv.row(row);
  }
  csv.commit();
}

void writeDetectabilityCsv(const fs::path& dir, const ComparisonAnalysis& a) {
  CsvFile csv(dir / (fileStem(a.comparison) + ".detectability.csv"));
  csv.row({"experiment", "seat", "player", "outcomes", "chi2", "df", "p", "detected",
           "games_to_detect"});
  for (const Detectability& d : a.detectability)
    csv.row({d.experiment, formatNumber(d.seat), d.player.id + ":" + formatNumber(d.player.level),
             formatNumber(d.outcomes), formatNumber(d.chi2), formatNumber(d.df), probability(d.p),
             d.detected() ? "1" : "0", d.gamesToDetect ? formatNumber(*d.gamesToDetect) : ""});
  csv.commit();
}

}  // namespace

void writeAnalysisCsvs(const fs::path& dir, std::span<const ComparisonAnalysis> analyses) {
  for (const ComparisonAnalysis& a : analyses) {
    writeTestsCsv(dir, a);
    writeRanksCsv(dir, a);
    writeDetectabilityCsv(dir, a);
  }
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
