#pragma once
// CSV output and input of results (app.md "Results"): RFC 4180, header row, full precision,
// '.' decimal point whatever the locale.
#include <filesystem>
#include <vector>

#include "results/aggregate.h"
#include "results/scoring.h"

namespace ddalab {

// <dir>/<stem>.games.csv (one row per game) and <dir>/<stem>.summary.csv (one row per metric,
// plus win_ratio and per-seat win rates).
void writeExperimentCsvs(const std::filesystem::path& dir, const ExperimentResult& result,
                         const ExperimentSummary& summary);

// <dir>/summary.csv (one row per experiment with its means) and, per comparison,
// <dir>/<comparison>.scores.csv (tables 8 and 9).
void writeBatchCsvs(const std::filesystem::path& dir, const std::vector<ExperimentResult>& results,
                    const std::vector<ExperimentSummary>& summaries);

// Reads back what writeExperimentCsvs/writeBatchCsvs wrote (for `ddalab score DIR`); errors
// name the file, the line and the column.
std::vector<ExperimentResult> readResultsDir(const std::filesystem::path& dir);

}  // namespace ddalab
