// The files of experiments/rating_results.h written and read: the CSVs (the columns of
// results/csv_schema.h) and ratings.json; apart from the tables' computation
// (rating_results.cpp), which does not know how they are stored.
#include <charconv>
#include <cmath>
#include <functional>
#include <map>

#include "core/file_io.h"
#include "core/json_input.h"
#include "experiments/batch.h"
#include "experiments/rating_results.h"
#include "experiments/tournament.h"
#include "results/csv_format.h"
#include "results/csv_schema.h"
#include "results/statistics.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// The names of ratings.csv's rows that are no entrant.
constexpr const char* kFirstSeatRow = "(first seat)";
constexpr const char* kDrawRow = "(draw)";

constexpr const char* kTournamentFiles[] = {"ratings.csv", "pairwise.csv", "level_curves.csv",
                                            "ratings.json"};

std::string numberCell(double value) {
  return csvNumberText(value);
}

std::string optionalCell(std::optional<double> value) {
  return value ? csvNumberText(*value) : std::string();
}

void writeCsv(const fs::path& file, const CsvRecord& header, const std::vector<CsvRecord>& rows) {
  OutputFile out(file);
  out.write(csvLine(header));
  for (const CsvRecord& row : rows) out.write(csvLine(row));
  out.commit();
}

// The bootstrap's value when the model has one.
std::optional<double> ifBootstrap(const RatingModel& model, double value) {
  return model.bootstrap > 0 ? std::optional(value) : std::nullopt;
}

// Each entrant's curve and x (entrants of no curve absent).
std::map<std::string, const LevelCurvePoint*> curvePointsByEntrant(const TournamentTables& t) {
  std::map<std::string, const LevelCurvePoint*> points;
  for (const LevelCurvePoint& p : t.curves) points[p.entrant] = &p;
  return points;
}

std::vector<CsvRecord> ratingsRows(const TournamentTables& t) {
  std::vector<CsvRecord> rows;
  const auto curveOf = curvePointsByEntrant(t);
  for (const EntrantRating& r : t.fit.entrants) {
    const auto point = curveOf.find(r.name);
    const bool onCurve = point != curveOf.end();
    rows.push_back({r.name, onCurve ? point->second->curve : "",
                    onCurve ? numberCell(point->second->x) : "", numberCell(r.rating),
                    numberCell(r.se), numberCell(r.interval.low), numberCell(r.interval.high),
                    optionalCell(ifBootstrap(t.model, r.bootstrapSe)),
                    optionalCell(ifBootstrap(t.model, r.bootstrap.low)),
                    optionalCell(ifBootstrap(t.model, r.bootstrap.high)), numberCell(r.games),
                    numberCell(r.score), numberCell(r.pairings)});
  }
  const RatingFit& f = t.fit;
  if (t.model.firstSeatAdvantage)
    rows.push_back({kFirstSeatRow, "", "", numberCell(f.firstSeat), numberCell(f.firstSeatSe),
                    numberCell(f.firstSeatInterval.low), numberCell(f.firstSeatInterval.high), "",
                    optionalCell(ifBootstrap(t.model, f.firstSeatBootstrap.low)),
                    optionalCell(ifBootstrap(t.model, f.firstSeatBootstrap.high)), "", "", ""});
  if (t.model.draws == DrawRule::Davidson) {
    const double half = normalCentralZ(t.model.confidence) * f.drawParameterSe;
    rows.push_back({kDrawRow, "", "", numberCell(f.drawParameter), numberCell(f.drawParameterSe),
                    numberCell(std::max(0.0, f.drawParameter - half)),
                    numberCell(f.drawParameter + half), "", "", "", "", "", ""});
  }
  return rows;
}

std::vector<CsvRecord> pairwiseRows(const TournamentTables& t) {
  std::vector<CsvRecord> rows;
  const auto& names = t.data.entrants();
  for (const RatingComparison& c : t.pairwise)
    rows.push_back({names[c.a], names[c.b], numberCell(c.difference), numberCell(c.se),
                    numberCell(c.interval.low), numberCell(c.interval.high),
                    optionalCell(ifBootstrap(t.model, c.bootstrap.low)),
                    optionalCell(ifBootstrap(t.model, c.bootstrap.high)),
                    numberCell(c.expectedScore), numberCell(c.lrChi2), numberCell(c.p)});
  return rows;
}

std::vector<CsvRecord> levelCurveRows(const TournamentTables& t) {
  std::vector<CsvRecord> rows;
  for (const LevelCurvePoint& p : t.curves) {
    const auto stepEnd = [&](double value) { return p.step ? std::optional(value) : std::nullopt; };
    rows.push_back(
        {p.curve, numberCell(p.x), p.entrant, numberCell(p.rating), numberCell(p.interval.low),
         numberCell(p.interval.high), optionalCell(ifBootstrap(t.model, p.bootstrap.low)),
         optionalCell(ifBootstrap(t.model, p.bootstrap.high)), optionalCell(p.step),
         optionalCell(stepEnd(p.stepInterval.low)), optionalCell(stepEnd(p.stepInterval.high))});
  }
  return rows;
}

// The model as ratings.json states it: the anchor by name, every setting.
Json modelJson(const RatingModel& model, const std::vector<std::string>& names) {
  return {{"anchor", names[model.anchor]},
          {"anchor_rating", model.anchorRating},
          {"draws", model.draws == DrawRule::Half ? "half" : "davidson"},
          {"first_seat", model.firstSeatAdvantage},
          {"bootstrap", model.bootstrap},
          {"bootstrap_seed", model.bootstrapSeed},
          {"confidence", model.confidence},
          {"prior_sd", model.priorSd}};
}

Json intervalJson(double value, double se, RatingInterval interval,
                  std::optional<RatingInterval> bootstrap) {
  Json j = {{"rating", value}, {"se", se}, {"low", interval.low}, {"high", interval.high}};
  if (bootstrap) {
    j["boot_low"] = bootstrap->low;
    j["boot_high"] = bootstrap->high;
  }
  return j;
}

Json ratingsDocument(const Batch& batch, const TournamentTables& t) {
  const Experiment& first = batch.experiments.front();
  const auto curveOf = curvePointsByEntrant(t);
  const bool boot = t.model.bootstrap > 0;
  Json entrants = Json::array();
  Json gameRating;  // a one-seat game's own rating (the entrant after the players)
  for (size_t i = 0; i < t.fit.entrants.size(); ++i) {
    const EntrantRating& r = t.fit.entrants[i];
    if (i >= t.entrantPlayers.size()) {
      gameRating = {{"name", r.name}};
      gameRating.update(intervalJson(r.rating, r.se, r.interval,
                                     boot ? std::optional(r.bootstrap) : std::nullopt));
      continue;
    }
    Json e = {{"name", r.name}, {"player", t.entrantPlayers.at(i)}};
    if (const auto point = curveOf.find(r.name); point != curveOf.end()) {
      e["curve"] = point->second->curve;
      e["x"] = point->second->x;
    }
    e.update(
        intervalJson(r.rating, r.se, r.interval, boot ? std::optional(r.bootstrap) : std::nullopt));
    e["games"] = r.games;
    entrants.push_back(std::move(e));
  }
  Json document = {
      {"format", kRatingsFormat},
      {"ddalab", DDALAB_SDK_VERSION},
      {"game", {{"id", first.gameInfo->id}, {"params", first.gameParams}}},
      {"environment", {{"id", first.environment.info->id}, {"params", first.environment.params}}},
      {"model", modelJson(t.model, t.data.entrants())},
      {"entrants", entrants}};
  if (!gameRating.is_null()) document["game_rating"] = std::move(gameRating);
  if (t.model.firstSeatAdvantage)
    document["first_seat"] =
        intervalJson(t.fit.firstSeat, t.fit.firstSeatSe, t.fit.firstSeatInterval,
                     boot ? std::optional(t.fit.firstSeatBootstrap) : std::nullopt);
  if (t.model.draws == DrawRule::Davidson)
    document["draw"] = {{"parameter", t.fit.drawParameter},
                        {"se", t.fit.drawParameterSe},
                        {"rate", t.fit.drawRate}};
  return document;
}

// ratings.csv, pairwise.csv, level_curves.csv and ratings.json of `tables` (each complete under
// its final name or not at all); `batch` gives the game and environment.
void writeTournamentFiles(const fs::path& dir, const Batch& batch, const TournamentTables& tables) {
  writeCsv(dir / "ratings.csv", ratingsColumns(), ratingsRows(tables));
  writeCsv(dir / "pairwise.csv", pairwiseColumns(), pairwiseRows(tables));
  writeCsv(dir / "level_curves.csv", levelCurvesColumns(), levelCurveRows(tables));
  writeFileAtomically(dir / "ratings.json", ratingsDocument(batch, tables).dump(2) + "\n");
}

// Removes those files (an earlier write's) where they are regular files.
void removeTournamentFiles(const fs::path& dir) {
  for (const char* name : kTournamentFiles) {
    std::error_code ignored;
    if (fs::is_regular_file(fs::symlink_status(dir / name))) fs::remove(dir / name, ignored);
  }
}

// balance.csv and balance_summary.csv.
void writeBalanceFiles(const fs::path& dir, const BalanceTables& tables) {
  std::vector<CsvRecord> points, summaries;
  for (const BalancePoint& p : tables.points)
    points.push_back({p.condition, p.entrant, numberCell(p.rating),
                      numberCell(p.ratingInterval.low), numberCell(p.ratingInterval.high),
                      numberCell(p.games), numberCell(p.wins), numberCell(p.draws),
                      numberCell(p.winRate), numberCell(p.winRateInterval.low),
                      numberCell(p.winRateInterval.high), numberCell(p.evenShare)});
  for (const BalanceSummary& s : tables.summaries)
    summaries.push_back({s.condition, numberCell(s.bandLow), numberCell(s.bandHigh),
                         optionalCell(s.balancedFrom), optionalCell(s.balancedTo),
                         numberCell(s.pointsInside), numberCell(s.points),
                         numberCell(s.meanDistance), numberCell(s.meanDistanceInterval.low),
                         numberCell(s.meanDistanceInterval.high)});
  writeCsv(dir / "balance.csv", balanceColumns(), points);
  writeCsv(dir / "balance_summary.csv", balanceSummaryColumns(), summaries);
}

// ---------------------------------------------------------------------------------------------
// Reading the tables back

// One row of a rating table read field by field; a field that is not of its column's kind is
// an InputError naming the file, the line and the column.
class TableRow {
 public:
  TableRow(const CsvReader& reader, const CsvRecord& fields, size_t columns)
      : reader_(reader), fields_(fields) {
    if (fields.size() != columns)
      reader.fail(std::min(fields.size(), columns),
                  "expected " + std::to_string(columns) + " fields, got " +
                      std::to_string(fields.size()) + " (a cut or edited file?)");
  }
  std::string name() {
    const std::string& text = fields_[next_++];
    if (text.empty()) fail("expected a name");
    return text;
  }
  const std::string& text() { return fields_[next_++]; }
  double number() {
    const std::optional<double> value = optionalNumber();
    if (!value) fail("expected a number");
    return *value;
  }
  std::optional<double> optionalNumber() {
    const std::string& text = fields_[next_++];
    if (text.empty()) return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
      fail("expected a finite number, got '" + text + "'");
    return value;
  }
  uint64_t count() {
    const std::optional<uint64_t> value = optionalCount();
    if (!value) fail("expected a count");
    return *value;
  }
  std::optional<uint64_t> optionalCount() {
    const std::string& text = fields_[next_++];
    if (text.empty()) return std::nullopt;
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
      fail("expected a whole number, got '" + text + "'");
    return value;
  }
  [[noreturn]] void fail(const std::string& message) const { reader_.fail(next_, message); }

 private:
  const CsvReader& reader_;
  const CsvRecord& fields_;
  size_t next_ = 0;  // the next field (so the last read's 1-based column)
};

// Calls `onRow` for every row of `file` under `header`; false when the folder has no such file.
bool readTable(const fs::path& file, const CsvRecord& header,
               const std::function<void(TableRow&)>& onRow) {
  if (!fs::exists(fs::symlink_status(file))) return false;
  CsvReader reader(file);
  CsvRecord fields;
  const std::string expected = csvLine(header).substr(0, csvLine(header).size() - 1);
  if (!reader.next(fields))
    throw InputError(file.string(), "empty; expected the header " + expected);
  if (fields != header) reader.fail(1, "expected the header " + expected);
  while (reader.next(fields)) {
    TableRow row(reader, fields, header.size());
    onRow(row);
  }
  return true;
}

RatingInterval intervalOf(TableRow& row) {
  const double low = row.number();
  return {low, row.number()};
}

// A bootstrap interval (empty cells: none, then `value` both ends).
RatingInterval optionalIntervalOf(TableRow& row, double value) {
  const std::optional<double> low = row.optionalNumber(), high = row.optionalNumber();
  return {low.value_or(value), high.value_or(value)};
}

void readRatingsRow(TableRow& row, RatingTablesRead& read) {
  const std::string name = row.name();
  row.text();  // curve and x: level_curves.csv holds them
  row.optionalNumber();
  const double value = row.number(), se = row.number();
  const RatingInterval interval = intervalOf(row);
  const std::optional<double> bootSe = row.optionalNumber();
  const RatingInterval bootstrap = optionalIntervalOf(row, value);
  const std::optional<uint64_t> games = row.optionalCount();
  const std::optional<double> score = row.optionalNumber();
  const std::optional<uint64_t> pairings = row.optionalCount();
  if (name == kFirstSeatRow) {
    read.firstSeat = value;
    read.firstSeatInterval = interval;
  } else if (name == kDrawRow) {
    read.drawParameter = value;
    read.drawParameterInterval = interval;
  } else {
    if (!games || !score || !pairings) row.fail("expected an entrant's games, score and pairings");
    read.ratings.push_back(
        {name, value, se, interval, bootSe.value_or(0), bootstrap, *games, *score, *pairings});
  }
}

size_t ratingIndex(TableRow& row, const RatingTablesRead& read) {
  const std::string name = row.name();
  for (size_t i = 0; i < read.ratings.size(); ++i)
    if (read.ratings[i].name == name) return i;
  row.fail("expected an entrant of ratings.csv, got '" + name + "'");
}

void readPairwiseRow(TableRow& row, RatingTablesRead& read) {
  RatingComparison c;
  c.a = ratingIndex(row, read);
  c.b = ratingIndex(row, read);
  c.difference = row.number();
  c.se = row.number();
  c.interval = intervalOf(row);
  c.bootstrap = optionalIntervalOf(row, c.difference);
  c.expectedScore = row.number();
  c.lrChi2 = row.number();
  c.p = row.number();
  read.pairwise.push_back(c);
}

void readLevelCurveRow(TableRow& row, RatingTablesRead& read) {
  LevelCurvePoint p;
  p.curve = row.name();
  p.x = row.number();
  p.entrant = row.name();
  p.rating = row.number();
  p.interval = intervalOf(row);
  p.bootstrap = optionalIntervalOf(row, p.rating);
  p.step = row.optionalNumber();
  const std::optional<double> low = row.optionalNumber(), high = row.optionalNumber();
  if (p.step.has_value() != (low && high)) row.fail("expected a step with both ends or none");
  if (p.step) p.stepInterval = {*low, *high};
  read.curves.push_back(std::move(p));
}

void readBalanceRow(TableRow& row, RatingTablesRead& read) {
  BalancePoint p;
  p.condition = row.name();
  p.entrant = row.name();
  p.rating = row.number();
  p.ratingInterval = intervalOf(row);
  p.games = row.count();
  p.wins = row.count();
  p.draws = row.count();
  p.winRate = row.number();
  p.winRateInterval = intervalOf(row);
  p.evenShare = row.number();
  if (p.wins + p.draws > p.games) row.fail("expected wins and draws of at most the games");
  read.balance.push_back(std::move(p));
}

void readBalanceSummaryRow(TableRow& row, RatingTablesRead& read) {
  BalanceSummary s;
  s.condition = row.name();
  s.bandLow = row.number();
  s.bandHigh = row.number();
  s.balancedFrom = row.optionalNumber();
  s.balancedTo = row.optionalNumber();
  s.pointsInside = row.count();
  s.points = row.count();
  s.meanDistance = row.number();
  s.meanDistanceInterval = intervalOf(row);
  if (s.balancedFrom.has_value() != s.balancedTo.has_value())
    row.fail("expected a balanced range with both ends or none");
  read.balanceSummaries.push_back(std::move(s));
}

// ---------------------------------------------------------------------------------------------
// ratings.json

const InputFileKind kRatingFileKind{64 << 20, "a ratings.json of ddalab rate"};

double fileNumber(const JsonFields& fields, const char* key) {
  const Json& v = fields.get(key);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw InputError(fields.at(key), "expected a number, got " + jsonExcerpt(v));
  return v;
}

void checkObject(const JsonFields& fields, const char* key) {
  if (const Json* v = fields.find(key); v && !v->is_object())
    throw InputError(fields.at(key), "expected an object, got " + jsonExcerpt(*v));
}

RatingFileEntrant parseFileEntrant(const Json& node, const std::string& path) {
  JsonFields fields(node, path,
                    {"name", "player", "curve", "x", "rating", "se", "low", "high", "boot_low",
                     "boot_high", "games"});
  RatingFileEntrant e;
  e.name = fields.string("name");
  JsonFields player(fields.get("player"), fields.at("player"), {"id", "level", "params"});
  player.string("id");
  e.player = fields.get("player");
  if (fields.has("curve")) fields.string("curve");
  for (const char* key : {"x", "se", "boot_low", "boot_high"})
    if (fields.has(key)) fileNumber(fields, key);
  if (fields.has("games")) fields.unsignedInteger("games");
  e.rating = fileNumber(fields, "rating");
  e.interval = {fileNumber(fields, "low"), fileNumber(fields, "high")};
  if (!(e.interval.low <= e.rating && e.rating <= e.interval.high))
    throw InputError(path, "expected low <= rating <= high");
  return e;
}

RatingFile parseRatingDocument(const Json& document) {
  JsonFields fields(
      document, "$",
      {"format", "ddalab", "game", "environment", "model", "entrants", "first_seat", "draw",
       "game_rating"});
  if (fields.string("format") != kRatingsFormat)
    throw InputError(fields.at("format"), "expected \"" + std::string(kRatingsFormat) + "\", got " +
                                              jsonExcerpt(fields.get("format")));
  if (const std::string version = fields.string("ddalab"); version != DDALAB_SDK_VERSION)
    throw InputError(fields.at("ddalab"), "ratings of ddalab " + textExcerpt(version) +
                                              "; expected this build's (" + DDALAB_SDK_VERSION +
                                              "): rate again with ddalab rate");
  JsonFields game(fields.get("game"), fields.at("game"), {"id", "params"});
  game.string("id");
  checkObject(game, "params");
  for (const char* key : {"environment", "model", "first_seat", "draw", "game_rating"})
    checkObject(fields, key);
  RatingFile file{fields.get("game"), {}};
  const Json& list = fields.get("entrants");
  if (!list.is_array() || list.empty())
    throw InputError(fields.at("entrants"), "expected a non-empty array of entrants");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = fields.at("entrants") + "[" + std::to_string(i) + "]";
    file.entrants.push_back(parseFileEntrant(list[i], path));
    for (size_t j = 0; j < i; ++j)
      if (file.entrants[j].name == file.entrants[i].name)
        throw InputError(path + ".name", "entrant '" + textExcerpt(file.entrants[i].name) +
                                             "' given twice; expected unique names");
  }
  return file;
}

}  // namespace

std::optional<std::string> writeRatingResults(const fs::path& dir, const Batch& batch,
                                              std::span<const ExperimentSummary> summaries) {
  // No summary.csv yet: nothing to read. A shard holds part of every pairing: its merge is rated.
  if (summaries.empty() || batch.shard) return std::nullopt;
  if (isBalanceRun(batch)) {
    writeBalanceFiles(dir, balanceTables(dir, batch));
    return std::nullopt;
  }
  if (!isTournament(batch)) return std::nullopt;
  try {
    writeTournamentFiles(dir, batch, tournamentTables(dir, batch));
  } catch (const RatingError& e) {
    removeTournamentFiles(dir);  // no tables of fewer games than the folder holds
    return std::string("the ratings were not fitted (the games are kept): ") + e.what();
  }
  return std::nullopt;
}

RatingTablesRead readRatingTables(const fs::path& dir) {
  RatingTablesRead read;
  const auto into = [&read](void (*parse)(TableRow&, RatingTablesRead&)) {
    return [&read, parse](TableRow& row) { parse(row, read); };
  };
  readTable(dir / "ratings.csv", ratingsColumns(), into(readRatingsRow));
  readTable(dir / "pairwise.csv", pairwiseColumns(), into(readPairwiseRow));
  readTable(dir / "level_curves.csv", levelCurvesColumns(), into(readLevelCurveRow));
  readTable(dir / "balance.csv", balanceColumns(), into(readBalanceRow));
  readTable(dir / "balance_summary.csv", balanceSummaryColumns(), into(readBalanceSummaryRow));
  return read;
}

RatingFile parseRatingFile(const Json& document, const std::string& source) {
  return withInputSource(source, [&] { return parseRatingDocument(document); });
}

RatingFile readRatingFile(const fs::path& file) {
  const std::string text = readInputFile(file, kRatingFileKind);
  return parseRatingFile(parseJsonText(text, file.string()), file.string());
}

void checkRatingGame(const RatingFile& file, const Json& game, const std::string& source) {
  if (file.game.at("id") != game.at("id"))
    throw InputError(source + ": $.game.id", "ratings of game " + jsonExcerpt(file.game.at("id")) +
                                                 "; expected " + jsonExcerpt(game.at("id")));
  const Json none = Json::object();
  const Json& params = file.game.contains("params") ? file.game.at("params") : none;
  if (params != game.at("params"))
    throw InputError(source + ": $.game.params",
                     "ratings of the set-up " + jsonExcerpt(params) + "; expected " +
                         jsonExcerpt(game.at("params")) + " (ratings hold for one set-up only)");
}

}  // namespace ddalab
