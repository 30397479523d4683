#pragma once
// CSV output and input of results (app.md "Results"): RFC 4180, header row, full precision,
// '.' decimal point whatever the locale. Every file is written under a temporary name and
// renamed when complete (results/file_io.h), so a file under its final name is never cut short.
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "results/aggregate.h"
#include "results/file_io.h"
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
// `text` as one CSV field (RFC 4180: quoted when it holds a comma, quote or line break).
std::string csvField(const std::string& text);
// `value` as CSV writes numbers: the shortest text that reads back to the same bits.
std::string csvNumber(double value);

// <dir>/<stem>.summary.csv: one row per metric, plus win_ratio, per-seat win rates, draw and
// capped rates.
void writeSummaryCsv(const std::filesystem::path& dir, const ExperimentSummary& summary);

// <dir>/<stem>.games.csv and <dir>/<stem>.summary.csv of an experiment held in memory.
void writeExperimentCsvs(const std::filesystem::path& dir, const ExperimentResult& result,
                         const ExperimentSummary& summary);

// <dir>/summary.csv (one row per experiment with its means) and, per comparison,
// <dir>/<comparison>.scores.csv (tables 8 and 9).
void writeBatchCsvs(const std::filesystem::path& dir, std::span<const ExperimentSummary> summaries);

// Reads back what the writers above wrote, every game into memory (for the GUI and tests).
// Errors (InputError) name the file, the line and the column; non-finite numbers, negative
// counts and games out of order or repeated are errors.
std::vector<ExperimentResult> readResultsDir(const std::filesystem::path& dir);

// One experiment's games from <dir>/<stem>.games.csv, into memory; errors as above.
ExperimentResult readExperimentGames(const std::filesystem::path& dir,
                                     const ExperimentLabel& label);

// The same one game at a time (constant memory); returns how many there were.
size_t readExperimentGames(const std::filesystem::path& dir, const ExperimentLabel& label,
                           const std::function<void(const GameRecord&)>& onGame);

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

// Reads a results folder one game at a time: `onExperiment` for each experiment summary.csv
// lists, then `onGame` for each of its games, in order (constant memory); errors as above.
void readResultsDir(const std::filesystem::path& dir,
                    const std::function<void(const ExperimentLabel&)>& onExperiment,
                    const std::function<void(const GameRecord&)>& onGame);

// The summaries of a results folder, reading each games file once in constant memory (for
// `ddalab score`); errors as readResultsDir.
std::vector<ExperimentSummary> summarizeResultsDir(const std::filesystem::path& dir);

}  // namespace ddalab
