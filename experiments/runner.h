#pragma once
// The multithreaded batch runner (app.md "Batch runner").
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "experiments/batch.h"
#include "results/experiment_result.h"

namespace ddalab {

struct Progress {
  size_t gamesDone = 0;   // in the whole batch
  size_t gamesTotal = 0;  // in the whole batch
  double elapsedSeconds = 0;
  double etaSeconds = 0;  // mean time per game so far x games remaining
  size_t experiment = 0;  // index of the running experiment
  std::string experimentName;
};

struct RunOptions {
  int threads = 0;                                // 0 = every core
  std::optional<std::filesystem::path> traceDir;  // write <experiment>.trace.jsonl there
  // Called from the calling thread about every `progressInterval` seconds and once at the end.
  std::function<void(const Progress&)> onProgress;
  double progressInterval = 0.25;
  // Called as soon as an experiment is finished (or stopped), so results are saved early.
  std::function<void(const ExperimentResult&)> onExperimentDone;
  // Set to stop: no new game starts, running games finish, finished ones are kept.
  const std::atomic<bool>* stop = nullptr;
};

// The seed of game `iteration` of `experiment` (same for every experiment unless salted).
uint64_t gameSeed(const Batch& batch, const Experiment& experiment, uint64_t iteration);

// The result of one game of an experiment; `trace`, if given, receives its JSON trace.
GameRecord playIteration(const Batch& batch, const Experiment& experiment, uint64_t iteration,
                         Json* trace = nullptr);

// Runs the experiments in order, each spread over the worker threads. Results are identical
// whatever the thread count; a stopped batch returns every finished game.
std::vector<ExperimentResult> runBatch(const Batch& batch, const RunOptions& options);

}  // namespace ddalab
