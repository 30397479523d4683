#pragma once
// The analyses of a results folder: every comparison's paired tests, score intervals and
// detectability (significance.h), its games read from the folder one comparison at a time
// (results_reader.h). Apart from significance.h, which analyses games already in memory.
#include <filesystem>
#include <span>
#include <vector>

#include "results/significance.h"

namespace ddalab {

struct ExperimentSummary;

// Analyzes every comparison of two or more rows of a results folder, reading one comparison's
// games at a time (a comparison of more than 2,000,000 games gets only a note).
std::vector<ComparisonAnalysis> analyzeResultsDir(const std::filesystem::path& dir,
                                                  const AnalysisOptions& options = {});
// The same with the folder's summaries already at hand (summarizeResultsDir, or a run's own).
std::vector<ComparisonAnalysis> analyzeResultsDir(const std::filesystem::path& dir,
                                                  std::span<const ExperimentSummary> summaries,
                                                  const AnalysisOptions& options = {});

}  // namespace ddalab
