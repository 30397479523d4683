#include "experiments/sweep_results.h"

#include <vector>

#include "experiments/batch.h"
#include "results/results_writer.h"

namespace ddalab {

void writeSweepResults(const std::filesystem::path& dir, const Batch& batch,
                       std::span<const ExperimentSummary> summaries,
                       std::span<const ComparisonAnalysis> analyses) {
  std::vector<Json> points;
  bool swept = false;
  for (size_t i = 0; i < summaries.size() && i < batch.experiments.size(); ++i) {
    points.push_back(batch.experiments[i].point);
    swept = swept || !points.back().empty();
  }
  if (swept) writeSweepCsv(dir, summaries.first(points.size()), points, analyses);
}

}  // namespace ddalab
