#pragma once
// The run service: how every front end (the CLI, the GUI, cluster shards) runs a batch into a
// results folder. Validate (the Batch is validated) -> prepare and lock the folder -> run ->
// write the results, with progress, per-game and per-experiment events and a stop control.
//
// What reaches the disk: finished games are checkpointed as they finish (.ddalab/*.journal,
// flushed every tick and synced every second); each experiment's CSVs (and trace) are written
// when it ends or is stopped, and summary.csv and the score tables are brought up to date after
// every experiment; every file is complete under its final name. A run stopped in any way
// (Ctrl-C, a signal, SIGKILL, a power cut) is continued with FolderMode::Resume, and the final
// files are byte-identical to those of a run that was never interrupted.
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "experiments/output_folder.h"
#include "experiments/runner.h"
#include "results/aggregate.h"
#include "results/scoring.h"
#include "results/significance.h"

namespace ddalab {

struct RunRequest {
  Batch batch;
  std::filesystem::path out;          // the results folder
  std::optional<TraceOutput> traces;  // write <experiment>.trace.jsonl into traces->dir
  int threads = 0;                    // 1..1024; 0 = every core
  FolderMode mode = FolderMode::Fresh;
  std::vector<std::filesystem::path> inputs;  // files the run must never write (its batch file)
  // Games may finish at most this far ahead of the first not yet delivered (PlayOptions::window):
  // a stop set by an event (onGame) lands within two windows of its game whatever the load.
  size_t window = PlayOptions{}.window;
};

// Called on the thread that called runToFolder.
struct RunEvents {
  // About every `progressInterval` seconds and once at the end of each experiment.
  std::function<void(const Progress&)> onProgress;
  double progressInterval = 0.25;
  // Every game added to an experiment's results (resumed ones too), in iteration order.
  std::function<void(size_t experiment, const GameRecord&)> onGame;
  // When an experiment's files are written (finished, or stopped: then partial).
  std::function<void(size_t experiment, const ExperimentSummary&)> onExperimentDone;
};

struct RunOutcome {
  std::vector<ExperimentSummary> summaries;  // the experiments with results, in batch order
  std::vector<ComparisonScores> scores;      // their comparisons
  std::vector<ComparisonAnalysis> analyses;  // paired tests, score intervals, detectability
  size_t gamesResumed = 0;                   // games read back from checkpoints
  size_t gamesPlayed = 0;                    // games played by this call
  bool complete = false;                     // every game of the batch is finished
  // A tournament whose ratings could not be fitted (experiments/rating_results.h): why, and how
  // to rate the kept games (the run's other files are written).
  std::optional<std::string> ratingWarning;
};

// Where a run of the batch named `name` (a file's stem) goes when no folder is given:
// ddalab-out/<name>, relative to the working directory (every front end's default).
std::filesystem::path defaultResultsFolder(const std::string& name);

// The folder mode a front end's two switches ask for; throws InputError at `resumeName` when
// both are set (resuming keeps what overwriting would replace).
FolderMode folderMode(bool resume, bool overwrite, const std::string& resumeName,
                      const std::string& overwriteName);

// Runs `request` into its folder; `control` stops it (finished games are kept and written).
// Throws InputError when the folder cannot be used (before anything is computed) and
// WriteError when a write fails (the run stops; no file under a final name is truncated).
// What a game throws (a player's error) stops the run the same way: the finished games are
// written and checkpointed (a resumed run continues), then it is rethrown.
RunOutcome runToFolder(const RunRequest& request, const RunEvents& events, RunControl& control);

// Copies the results folder `from` (written by runToFolder) into `to`, file for file as
// `ddalab run --out` writes them, with the checks of a run into `to` (lock; a folder holding
// other results is refused unless `mode` is Overwrite); the games of a run killed mid-experiment,
// which only its checkpoints hold, are written as CSVs (`to` keeps what `from` would resume
// from). Returns the warning of a tournament whose ratings could not be fitted (as
// RunOutcome::ratingWarning). Throws InputError or WriteError.
std::optional<std::string> exportResults(const std::filesystem::path& from,
                                         const std::filesystem::path& to, FolderMode mode);

// Copies the CSVs of experiment `name` from the results folder `from` into the folder `to`.
void exportExperiment(const std::filesystem::path& from, const std::string& name,
                      const std::filesystem::path& to);

}  // namespace ddalab
