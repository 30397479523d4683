#pragma once
// A swept batch's results table: sweep.csv, one row per grid point (docs/batches.md, Sweeps).
// Apart from sweep.h, which expands sweeps before a batch exists and so cannot know one.
#include <filesystem>
#include <span>

namespace ddalab {

struct Batch;
struct ExperimentSummary;
struct ComparisonAnalysis;

// Writes <dir>/sweep.csv (results/results_writer.h) when an experiment of `batch` is a grid
// point; `summaries` are those of its first experiments, in batch order (a stopped run has
// fewer).
void writeSweepResults(const std::filesystem::path& dir, const Batch& batch,
                       std::span<const ExperimentSummary> summaries,
                       std::span<const ComparisonAnalysis> analyses);

}  // namespace ddalab
