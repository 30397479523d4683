#pragma once
// The columns of every CSV file of a results folder (app.md "Results"), decided here once: the
// writers (results/results_writer.h) write these headers, the readers (results/results_reader.h)
// expect them, and csvSchema() describes them for other languages (ddalab.csv_schema() in
// Python, whose ddalab.load types its tables by it).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics.h"
#include "results/csv_format.h"
#include "results/scoring.h"
#include "results/sweep_table.h"

namespace ddalab {

// Which extended metrics a results file has: none (before them), ddalab's four under their first
// names (drama, decisiveness, uncertainty, comeback: before Ludii's metrics), or this version's.
enum class ExtendedMetricColumns { None, First, Current };

// What a results file of an earlier ddalab lacks: the chance bins (pN_chance), some or all of the
// extended metrics. The default is this version's file.
struct ResultsFileVersion {
  bool chance = true;
  ExtendedMetricColumns extended = ExtendedMetricColumns::Current;
};

// The column of the metric `info` in a file of `version`; empty when it has none (the metric is
// then unknown). drama_trailing and decisiveness_final_lead were first written as drama and
// decisiveness, with the same values; Ludii's metrics came after.
std::string metricColumn(const MetricInfo& info, ResultsFileVersion version);
// Whether a file of `version` has a column for the metric `info`.
bool hasMetricColumn(const MetricInfo& info, ResultsFileVersion version);
// The column "p<seat>_<suffix>" of one seat ("p0_score").
std::string seatColumn(size_t seat, std::string_view suffix);

// <experiment>.games.csv of a game of `seats` players: the game's number, seed, rounds, winner
// and capped flag, each other metric, each seat's score and counts, each seat's chance bins.
CsvRecord gamesColumns(size_t seats, ResultsFileVersion version = {});
// summary.csv: an experiment's label, games, planned games, every metric's mean, win_ratio and
// draw_rate.
CsvRecord batchSummaryColumns(ResultsFileVersion version = {});
// <experiment>.summary.csv: a statistic per column, a metric (or rate) per row.
const CsvRecord& experimentSummaryColumns();
// <comparison>.scores.csv of `scores`: each column's mean, its ratio, each table's score.
CsvRecord scoresColumns(const ComparisonScores& scores);
// <comparison>.tests.csv: a paired test against the reference row per experiment and metric.
const CsvRecord& testsColumns();
// <comparison>.ranks.csv of a comparison of `experiments` rows: score intervals, rank
// probabilities, the probabilities of scoring above the reference, the bootstrap replicates.
CsvRecord ranksColumns(size_t experiments);
// <comparison>.detectability.csv: the environment's detectability per experiment and seat.
const CsvRecord& detectabilityColumns();
// sweep.csv of `table`: the row's names, each axis ("@<axis>"), the games, each column of the
// table with its 95 % interval ("<column>", "<column>_low", "<column>_high").
CsvRecord sweepColumns(const SweepTable& table);
// The tables of a tournament and of a balance run (experiments/rating_results.h):
// ratings.csv (one row per entrant, then "(first seat)" and "(draw)"), pairwise.csv,
// level_curves.csv, balance.csv and balance_summary.csv.
const CsvRecord& ratingsColumns();
const CsvRecord& pairwiseColumns();
const CsvRecord& levelCurvesColumns();
const CsvRecord& balanceColumns();
const CsvRecord& balanceSummaryColumns();

// What a column holds, as its readers type it.
enum class CsvColumnType {
  Name,           // a name (an experiment, a metric, a player): text from a small set
  Count,          // an integer
  Seed,           // a 64-bit unsigned integer
  OptionalCount,  // an integer, or empty (a draw's winner, a seat never detected)
  Flag,           // 0 or 1
  Number,         // a real number; empty when not available
  Text,           // any text (a seat's chance bins: counts separated by spaces)
  SweptValue,     // a swept parameter's value: a number or a name
};

// The type's name in csvSchema()'s description ("name", "count", ..., "swept value").
std::string_view csvColumnTypeName(CsvColumnType type);

// A column, or a run of columns, of a results file.
struct CsvColumnSchema {
  // The column's name, or a pattern of names with one placeholder in angle brackets: <seat> and
  // <rank> stand for a number from 0 (seats) or 1 (ranks), <metric>, <column>, <score> and <axis>
  // for a name ("p<seat>_moves": p0_moves, p1_moves, ...).
  std::string name;
  CsvColumnType type = CsvColumnType::Number;
};

// One kind of CSV file of a results folder.
struct CsvFileSchema {
  std::string table;  // the table ddalab.load makes of it ("games")
  std::string file;   // its file name, <experiment> or <comparison> standing for a name's stem
  // How many of `columns` (named, not patterns) every file of this kind starts with: what a
  // reader recognizes the file by.
  size_t leading = 0;
  std::vector<CsvColumnSchema> columns;  // in file order
};

// Every CSV file a results folder can hold, in the order ddalab.load reads them.
const std::vector<CsvFileSchema>& csvSchema();

}  // namespace ddalab
