#include "results/folder_analysis.h"

#include <string>

#include "results/results_reader.h"
#include "results/scoring.h"

namespace ddalab {

namespace {

// The analyses hold a comparison's games in memory (about 350 bytes a game).
constexpr size_t kMaxAnalyzedGames = 2'000'000;

}  // namespace

std::vector<ComparisonAnalysis> analyzeResultsDir(const std::filesystem::path& dir,
                                                  const AnalysisOptions& options) {
  return analyzeResultsDir(dir, summarizeResultsDir(dir), options);
}

std::vector<ComparisonAnalysis> analyzeResultsDir(const std::filesystem::path& dir,
                                                  std::span<const ExperimentSummary> summaries,
                                                  const AnalysisOptions& options) {
  std::vector<ComparisonAnalysis> analyses;
  for (const ComparisonGroup& group : groupByComparison(summaries)) {
    if (group.comparison.empty() || group.members.size() < 2) continue;
    size_t games = 0;
    for (size_t i : group.members) games += summaries[i].games;
    if (games > kMaxAnalyzedGames) {
      analyses.emplace_back().comparison = group.comparison;
      analyses.back().notes.push_back(
          "not analysed: " + std::to_string(games) + " games are more than the " +
          std::to_string(kMaxAnalyzedGames) + " the analyses hold in memory at once");
      continue;
    }
    std::vector<ExperimentResult> rows;
    for (size_t i : group.members) rows.push_back(readExperimentGames(dir, summaries[i].label));
    analyses.push_back(analyzeComparison(group.comparison, rows, options));
  }
  return analyses;
}

}  // namespace ddalab
