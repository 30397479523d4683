#pragma once
// Writing a results folder's CSV files (app.md "Results"): header row, full precision, '.'
// decimal point whatever the locale, the columns of results/csv_schema.h. Every file is written
// under a temporary name and renamed when complete (core/file_io.h), so a file under its
// final name is never cut short.
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/params.h"
#include "results/aggregate.h"
#include "core/file_io.h"
#include "results/scoring.h"
#include "results/significance.h"

namespace ddalab {

// <dir>/<stem>.games.csv written one game at a time (constant memory for any number of games).
class GamesCsvWriter {
 public:
  // Starts the file with its header; throws WriteError.
  GamesCsvWriter(const std::filesystem::path& dir, const ExperimentLabel& label);
  ~GamesCsvWriter();
  // Appends one row; throws WriteError.
  void add(const GameRecord& record);
  // Appends a row gamesCsvRow made (on another thread, say); throws WriteError.
  void addRow(std::string_view row);
  // Completes the file under its final name; throws WriteError.
  void commit();

 private:
  size_t seats_;
  std::unique_ptr<OutputFile> file_;
};

// The line of the games file for `record` of a game of `seats` players (ending in '\n').
std::string gamesCsvRow(const GameRecord& record, size_t seats);
// The header line of a games file of `seats` players (ending in '\n').
std::string gamesCsvHeader(size_t seats);

// <dir>/<stem>.summary.csv: one row per metric, plus win_ratio, per-seat win rates, draw and
// capped rates.
void writeSummaryCsv(const std::filesystem::path& dir, const ExperimentSummary& summary);

// <dir>/<stem>.games.csv and <dir>/<stem>.summary.csv of an experiment held in memory.
void writeExperimentCsvs(const std::filesystem::path& dir, const ExperimentResult& result,
                         const ExperimentSummary& summary);

// <dir>/summary.csv (one row per experiment with its means) and, per comparison,
// <dir>/<comparison>.scores.csv (tables 8 and 9).
void writeBatchCsvs(const std::filesystem::path& dir, std::span<const ExperimentSummary> summaries);

// <dir>/<comparison>.tests.csv (paired tests against the reference row), .ranks.csv (score
// intervals and rank probabilities) and .detectability.csv of each analysed comparison.
void writeAnalysisCsvs(const std::filesystem::path& dir,
                       std::span<const ComparisonAnalysis> analyses);

// <dir>/sweep.csv of a swept batch (results/sweep_table.h): a row per grid point and
// experiment (`points[i]`: the varied values of summaries[i]; empty for the others) with the
// axes' values (columns "@<axis>", in name order), the games, and each column of the table as
// "<column>", "<column>_low", "<column>_high" (95 % intervals; empty where not available).
void writeSweepCsv(const std::filesystem::path& dir, std::span<const ExperimentSummary> summaries,
                   std::span<const Json> points, std::span<const ComparisonAnalysis> analyses);

}  // namespace ddalab
