#pragma once
// Reading back a results folder's CSV files (what results/results_writer.h writes, and the files
// of earlier ddalab versions results/csv_schema.h knows): every game into memory (for the GUI and
// tests) or one game at a time (constant memory). Errors (InputError) name the file, the line and
// the column; non-finite numbers, negative counts and games out of order or repeated are errors.
#include <filesystem>
#include <functional>
#include <vector>

#include "results/aggregate.h"
#include "results/experiment_result.h"

namespace ddalab {

// Every experiment summary.csv lists with all its games, into memory.
std::vector<ExperimentResult> readResultsDir(const std::filesystem::path& dir);

// One experiment's games from <dir>/<stem>.games.csv, into memory; errors as above.
ExperimentResult readExperimentGames(const std::filesystem::path& dir,
                                     const ExperimentLabel& label);

// The same one game at a time (constant memory); returns how many there were.
size_t readExperimentGames(const std::filesystem::path& dir, const ExperimentLabel& label,
                           const std::function<void(const GameRecord&)>& onGame);

// Reads a results folder one game at a time: `onExperiment` for each experiment summary.csv
// lists, then `onGame` for each of its games, in order (constant memory); errors as above.
void readResultsDir(const std::filesystem::path& dir,
                    const std::function<void(const ExperimentLabel&)>& onExperiment,
                    const std::function<void(const GameRecord&)>& onGame);

// The summaries of a results folder, reading each games file once in constant memory (for
// `ddalab score`); errors as readResultsDir.
std::vector<ExperimentSummary> summarizeResultsDir(const std::filesystem::path& dir);

}  // namespace ddalab
