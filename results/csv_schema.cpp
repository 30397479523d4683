#include "results/csv_schema.h"

#include <array>

namespace ddalab {

namespace {

using ColumnType = CsvColumnType;

std::string metricKey(Metric metric) {
  return std::string(metricInfo(metric).key);
}

// The names of `columns`, in order.
CsvRecord namesOf(std::span<const CsvColumnSchema> columns) {
  CsvRecord names;
  for (const CsvColumnSchema& column : columns) names.push_back(column.name);
  return names;
}

// A games file's columns before its other metrics.
std::vector<CsvColumnSchema> gamesLeading() {
  return {{"iteration", ColumnType::Count},
          {"seed", ColumnType::Seed},
          {metricKey(Metric::Rounds), ColumnType::Count},
          {"winner", ColumnType::OptionalCount},
          {"capped", ColumnType::Flag}};
}

// A games file's columns of each seat, after the metrics (the chance bins follow, a column each).
const std::array<CsvColumnSchema, 4> kGamesSeatColumns = {{{"score", ColumnType::Number},
                                                           {"moves", ColumnType::Count},
                                                           {"turns", ColumnType::Count},
                                                           {"lead_rounds", ColumnType::Count}}};
constexpr const char* kChanceSuffix = "chance";

// summary.csv's columns before the metrics' means.
const std::array<CsvColumnSchema, 7> kBatchLeading = {{{"experiment", ColumnType::Name},
                                                       {"comparison", ColumnType::Name},
                                                       {"game", ColumnType::Name},
                                                       {"environment", ColumnType::Name},
                                                       {"players", ColumnType::Name},
                                                       {"games", ColumnType::Count},
                                                       {"planned", ColumnType::Count}}};
// summary.csv's columns after the metrics' means.
const std::array<CsvColumnSchema, 2> kBatchTrailing = {
    {{"win_ratio", ColumnType::Number}, {"draw_rate", ColumnType::Number}}};

const std::array<CsvColumnSchema, 8> kExperimentSummary = {{{"metric", ColumnType::Name},
                                                            {"mean", ColumnType::Number},
                                                            {"std", ColumnType::Number},
                                                            {"min", ColumnType::Number},
                                                            {"max", ColumnType::Number},
                                                            {"ci95_low", ColumnType::Number},
                                                            {"ci95_high", ColumnType::Number},
                                                            {"n", ColumnType::Count}}};

const std::array<CsvColumnSchema, 12> kTests = {{{"experiment", ColumnType::Name},
                                                 {"reference", ColumnType::Name},
                                                 {"metric", ColumnType::Name},
                                                 {"pairs", ColumnType::Count},
                                                 {"difference", ColumnType::Number},
                                                 {"ci95_low", ColumnType::Number},
                                                 {"ci95_high", ColumnType::Number},
                                                 {"test", ColumnType::Name},
                                                 {"p", ColumnType::Number},
                                                 {"wilcoxon_p", ColumnType::Number},
                                                 {"holm_p", ColumnType::Number},
                                                 {"significant", ColumnType::Flag}}};

const std::array<CsvColumnSchema, 9> kDetectability = {
    {{"experiment", ColumnType::Name},
     {"seat", ColumnType::Count},
     {"player", ColumnType::Name},
     {"outcomes", ColumnType::Count},
     {"chi2", ColumnType::Number},
     {"df", ColumnType::Count},
     {"p", ColumnType::Number},
     {"detected", ColumnType::Flag},
     {"games_to_detect", ColumnType::OptionalCount}}};

// The rating tables (experiments/rating_results.h). A "(first seat)" or "(draw)" row of
// ratings.csv has no curve, level, games, score or pairings; a table without a bootstrap has
// empty boot_* cells; a curve's first point has no step.
const std::array<CsvColumnSchema, 13> kRatings = {{{"entrant", ColumnType::Name},
                                                   {"curve", ColumnType::Name},
                                                   {"x", ColumnType::Number},
                                                   {"rating", ColumnType::Number},
                                                   {"se", ColumnType::Number},
                                                   {"low", ColumnType::Number},
                                                   {"high", ColumnType::Number},
                                                   {"boot_se", ColumnType::Number},
                                                   {"boot_low", ColumnType::Number},
                                                   {"boot_high", ColumnType::Number},
                                                   {"games", ColumnType::OptionalCount},
                                                   {"score", ColumnType::Number},
                                                   {"pairings", ColumnType::OptionalCount}}};
const std::array<CsvColumnSchema, 11> kPairwise = {{{"a", ColumnType::Name},
                                                    {"b", ColumnType::Name},
                                                    {"difference", ColumnType::Number},
                                                    {"se", ColumnType::Number},
                                                    {"low", ColumnType::Number},
                                                    {"high", ColumnType::Number},
                                                    {"boot_low", ColumnType::Number},
                                                    {"boot_high", ColumnType::Number},
                                                    {"expected_score", ColumnType::Number},
                                                    {"lr_chi2", ColumnType::Number},
                                                    {"p", ColumnType::Number}}};
const std::array<CsvColumnSchema, 11> kLevelCurves = {{{"curve", ColumnType::Name},
                                                       {"x", ColumnType::Number},
                                                       {"entrant", ColumnType::Name},
                                                       {"rating", ColumnType::Number},
                                                       {"low", ColumnType::Number},
                                                       {"high", ColumnType::Number},
                                                       {"boot_low", ColumnType::Number},
                                                       {"boot_high", ColumnType::Number},
                                                       {"step", ColumnType::Number},
                                                       {"step_low", ColumnType::Number},
                                                       {"step_high", ColumnType::Number}}};
const std::array<CsvColumnSchema, 12> kBalance = {{{"condition", ColumnType::Name},
                                                   {"entrant", ColumnType::Name},
                                                   {"rating", ColumnType::Number},
                                                   {"rating_low", ColumnType::Number},
                                                   {"rating_high", ColumnType::Number},
                                                   {"games", ColumnType::Count},
                                                   {"wins", ColumnType::Count},
                                                   {"draws", ColumnType::Count},
                                                   {"win_rate", ColumnType::Number},
                                                   {"win_rate_low", ColumnType::Number},
                                                   {"win_rate_high", ColumnType::Number},
                                                   {"even_share", ColumnType::Number}}};
const std::array<CsvColumnSchema, 10> kBalanceSummary = {
    {{"condition", ColumnType::Name},
     {"band_low", ColumnType::Number},
     {"band_high", ColumnType::Number},
     {"balanced_from", ColumnType::Number},
     {"balanced_to", ColumnType::Number},
     {"points_inside", ColumnType::Count},
     {"points", ColumnType::Count},
     {"mean_distance", ColumnType::Number},
     {"mean_distance_low", ColumnType::Number},
     {"mean_distance_high", ColumnType::Number}}};

// The suffixes of each score's interval in ranks.csv and of each column's in sweep.csv.
constexpr const char* kIntervalSuffixes[] = {"", "_low", "_high"};
// ranks.csv: the prefixes of each table's rank probabilities, then the probabilities of scoring
// above the reference row, then the replicates.
constexpr const char* kRankPrefixes[] = {"p_rank9_", "p_rank4_", "p_rank_ext_"};
constexpr const char* kAboveReference[] = {"p_above_reference9", "p_above_reference4",
                                           "p_above_reference_ext"};
constexpr const char* kScoreSuffixes[] = {"", "_ratio"};

}  // namespace

std::string metricColumn(const MetricInfo& info, ResultsFileVersion version) {
  if (!info.extended || version.extended == ExtendedMetricColumns::Current) return info.key;
  if (version.extended == ExtendedMetricColumns::None) return {};
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

bool hasMetricColumn(const MetricInfo& info, ResultsFileVersion version) {
  return !metricColumn(info, version).empty();
}

std::string seatColumn(size_t seat, std::string_view suffix) {
  // Appended piece by piece: "p" + std::string trips a false -Wrestrict in g++ 12.
  std::string name = "p";
  name += std::to_string(seat);
  name += '_';
  name += suffix;
  return name;
}

CsvRecord gamesColumns(size_t seats, ResultsFileVersion version) {
  CsvRecord header = namesOf(gamesLeading());
  for (const auto& info : allMetrics())
    if (info.metric != Metric::Rounds && hasMetricColumn(info, version))
      header.push_back(metricColumn(info, version));
  for (size_t seat = 0; seat < seats; ++seat)
    for (const CsvColumnSchema& column : kGamesSeatColumns)
      header.push_back(seatColumn(seat, column.name));
  if (version.chance)
    for (size_t seat = 0; seat < seats; ++seat) header.push_back(seatColumn(seat, kChanceSuffix));
  return header;
}

CsvRecord batchSummaryColumns(ResultsFileVersion version) {
  CsvRecord header = namesOf(kBatchLeading);
  for (const auto& info : allMetrics())
    if (hasMetricColumn(info, version)) header.push_back(metricColumn(info, version));
  for (const std::string& column : namesOf(kBatchTrailing)) header.push_back(column);
  return header;
}

const CsvRecord& experimentSummaryColumns() {
  static const CsvRecord header = namesOf(kExperimentSummary);
  return header;
}

CsvRecord scoresColumns(const ComparisonScores& scores) {
  CsvRecord header = {"experiment"};
  for (const char* suffix : kScoreSuffixes)
    for (const ScoredMetric& column : scores.columns)
      header.push_back(std::string(column.key()) + suffix);
  for (ScoreTable table : kScoreTables) header.emplace_back(scoreKey(table));
  return header;
}

const CsvRecord& testsColumns() {
  static const CsvRecord header = namesOf(kTests);
  return header;
}

CsvRecord ranksColumns(size_t experiments) {
  CsvRecord header = {"experiment"};
  for (ScoreTable table : kScoreTables)
    for (const char* suffix : kIntervalSuffixes)
      header.push_back(std::string(scoreKey(table)) + suffix);
  for (const char* prefix : kRankPrefixes)
    for (size_t rank = 1; rank <= experiments; ++rank)
      header.push_back(prefix + std::to_string(rank));
  header.insert(header.end(), std::begin(kAboveReference), std::end(kAboveReference));
  header.emplace_back("replicates");
  return header;
}

const CsvRecord& detectabilityColumns() {
  static const CsvRecord header = namesOf(kDetectability);
  return header;
}

CsvRecord sweepColumns(const SweepTable& table) {
  CsvRecord header = {"experiment", "comparison"};
  for (const std::string& axis : table.axes) header.push_back("@" + axis);
  header.emplace_back("games");
  for (const std::string& column : table.columns)
    for (const char* suffix : kIntervalSuffixes) header.push_back(column + suffix);
  return header;
}

const CsvRecord& ratingsColumns() {
  static const CsvRecord header = namesOf(kRatings);
  return header;
}

const CsvRecord& pairwiseColumns() {
  static const CsvRecord header = namesOf(kPairwise);
  return header;
}

const CsvRecord& levelCurvesColumns() {
  static const CsvRecord header = namesOf(kLevelCurves);
  return header;
}

const CsvRecord& balanceColumns() {
  static const CsvRecord header = namesOf(kBalance);
  return header;
}

const CsvRecord& balanceSummaryColumns() {
  static const CsvRecord header = namesOf(kBalanceSummary);
  return header;
}

std::string_view csvColumnTypeName(CsvColumnType type) {
  switch (type) {
    case ColumnType::Name:
      return "name";
    case ColumnType::Count:
      return "count";
    case ColumnType::Seed:
      return "seed";
    case ColumnType::OptionalCount:
      return "optional count";
    case ColumnType::Flag:
      return "flag";
    case ColumnType::Number:
      return "number";
    case ColumnType::Text:
      return "text";
    case ColumnType::SweptValue:
      return "swept value";
  }
  return "number";  // not reached: every type is named above
}

namespace {

void appendColumns(std::vector<CsvColumnSchema>& columns, std::span<const CsvColumnSchema> more) {
  columns.insert(columns.end(), more.begin(), more.end());
}

// The pattern of seatColumn's columns of `suffix` ("p<seat>_moves").
std::string seatPattern(std::string_view suffix) {
  return "p<seat>_" + std::string(suffix);
}

CsvFileSchema gamesSchema() {
  CsvFileSchema file{"games", "<experiment>.games.csv", gamesLeading().size(), gamesLeading()};
  file.columns.push_back({"<metric>", ColumnType::Number});
  for (const CsvColumnSchema& column : kGamesSeatColumns)
    file.columns.push_back({seatPattern(column.name), column.type});
  file.columns.push_back({seatPattern(kChanceSuffix), ColumnType::Text});
  return file;
}

CsvFileSchema batchSummarySchema() {
  CsvFileSchema file{"summary", "summary.csv", kBatchLeading.size(), {}};
  appendColumns(file.columns, kBatchLeading);
  file.columns.push_back({"<metric>", ColumnType::Number});
  appendColumns(file.columns, kBatchTrailing);
  return file;
}

CsvFileSchema experimentSummarySchema() {
  CsvFileSchema file{"stats", "<experiment>.summary.csv", kExperimentSummary.size(), {}};
  appendColumns(file.columns, kExperimentSummary);
  return file;
}

CsvFileSchema scoresSchema() {
  CsvFileSchema file{"scores", "<comparison>.scores.csv", 1, {{"experiment", ColumnType::Name}}};
  for (const char* suffix : kScoreSuffixes)
    file.columns.push_back({std::string("<column>") + suffix, ColumnType::Number});
  for (ScoreTable table : kScoreTables)
    file.columns.push_back({std::string(scoreKey(table)), ColumnType::Number});
  return file;
}

CsvFileSchema ranksSchema() {
  CsvFileSchema file{"ranks", "<comparison>.ranks.csv", 2, {{"experiment", ColumnType::Name}}};
  for (ScoreTable table : kScoreTables)
    for (const char* suffix : kIntervalSuffixes)
      file.columns.push_back({std::string(scoreKey(table)) + suffix, ColumnType::Number});
  for (const char* prefix : kRankPrefixes)
    file.columns.push_back({std::string(prefix) + "<rank>", ColumnType::Number});
  for (const char* column : kAboveReference) file.columns.push_back({column, ColumnType::Number});
  file.columns.push_back({"replicates", ColumnType::Count});
  return file;
}

CsvFileSchema testsSchema() {
  CsvFileSchema file{"tests", "<comparison>.tests.csv", 5, {}};
  appendColumns(file.columns, kTests);
  return file;
}

CsvFileSchema detectabilitySchema() {
  CsvFileSchema file{"detectability", "<comparison>.detectability.csv", 8, {}};
  appendColumns(file.columns, kDetectability);
  return file;
}

CsvFileSchema sweepSchema() {
  CsvFileSchema file{"sweep",
                     "sweep.csv",
                     2,
                     {{"experiment", ColumnType::Name},
                      {"comparison", ColumnType::Name},
                      {"@<axis>", ColumnType::SweptValue},
                      {"games", ColumnType::Count}}};
  for (const char* suffix : kIntervalSuffixes)
    file.columns.push_back({std::string("<column>") + suffix, ColumnType::Number});
  return file;
}

// A file of fixed columns, recognized by all of them.
template <size_t N>
CsvFileSchema fixedSchema(const char* table, const char* file,
                          const std::array<CsvColumnSchema, N>& columns) {
  return {table, file, N, std::vector<CsvColumnSchema>(columns.begin(), columns.end())};
}

}  // namespace

const std::vector<CsvFileSchema>& csvSchema() {
  static const std::vector<CsvFileSchema> schema = {
      batchSummarySchema(),
      gamesSchema(),
      experimentSummarySchema(),
      scoresSchema(),
      ranksSchema(),
      testsSchema(),
      detectabilitySchema(),
      sweepSchema(),
      fixedSchema("ratings", "ratings.csv", kRatings),
      fixedSchema("pairwise", "pairwise.csv", kPairwise),
      fixedSchema("level_curves", "level_curves.csv", kLevelCurves),
      fixedSchema("balance", "balance.csv", kBalance),
      fixedSchema("balance_summary", "balance_summary.csv", kBalanceSummary)};
  return schema;
}

}  // namespace ddalab
