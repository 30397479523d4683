#pragma once
// The results folder of a run: locked while the run writes into it, checked before anything is
// computed (writable, every file name fits, what it already holds), and never writing onto the
// files the run was started from.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/match.h"
#include "experiments/batch.h"

namespace ddalab {

class FolderLock;

// What to do with a folder that already holds results.
enum class FolderMode {
  Fresh,      // refuse a folder holding other results (a finished run of the same batch is redone)
  Overwrite,  // replace whatever results the folder holds
  Resume,     // continue the interrupted run of the same batch
  Update,     // run this batch, keeping the finished games of every experiment that plays the
              // same games as one of the folder's batch (see matchExperiments); the rest start
              // over (keeping games needs a run without traces)
};

// Where and how a run writes its per-game traces.
struct TraceOutput {
  std::filesystem::path dir;
  bool detail = false;  // every environment decision described (--trace-detail)
};

// Whether `dir` holds a run that was started and did not finish (stopped, killed or cut off):
// FolderMode::Resume or FolderMode::Update continue it.
bool holdsUnfinishedRun(const std::filesystem::path& dir);

// The checkpoint of `experiment` in the results folder `dir` (in its hidden .ddalab folder). A
// run drops its checkpoints once complete, except a shard's: merge checks the shard's CSVs
// against them.
std::filesystem::path journalFile(const std::filesystem::path& dir, const Experiment& experiment);

// Throws InputError (naming `option` and `dir`) unless `dir` may be replaced as a whole by the
// results of `batch` written elsewhere (merge): it is missing, an empty folder, or a folder of
// results only (no other file) that no run holds locked and that `mode` lets go (Overwrite:
// any results; Fresh: the complete results of the same batch, which are redone).
void checkReplaceableFolder(const std::filesystem::path& dir, const Batch& batch, FolderMode mode,
                            const std::string& option);

// Calls `onGame` for each finished game the results folder `dir` keeps of its experiment
// `experiment` (whose playIdentity is `identity`), in iteration order, until it returns false:
// from the experiment's checkpoint when the folder has one (a run stopped, killed or updated),
// else from its games CSV; what FolderMode::Update and Resume continue from. Throws InputError
// for a checkpoint of another experiment or a damaged games file.
void readKeptGames(const std::filesystem::path& dir, const Experiment& experiment,
                   uint64_t identity, const std::function<bool(const GameRecord&)>& onGame);

class OutputFolder {
 public:
  // Prepares `dir` for `batch`: creates it, takes its lock (.ddalab.lock, with pid and host),
  // checks that files can be created there and in the trace folder and that every file name
  // fits, and checks what the folder holds against `mode`. Never writes onto any of `inputs`.
  // Throws InputError (with what to do instead) when the folder cannot be used.
  OutputFolder(std::filesystem::path dir, const Batch& batch, FolderMode mode,
               const std::optional<TraceOutput>& traces,
               std::span<const std::filesystem::path> inputs);
  ~OutputFolder();  // releases the lock
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  // The checkpoint of an experiment (in the hidden .ddalab folder).
  std::filesystem::path journal(const Experiment& experiment) const;
  // Whether an interrupted run is being continued (its checkpoints are read).
  bool resuming() const { return resuming_; }
  // Whether the folder already holds the complete results of this batch (resume: nothing to do).
  bool complete() const { return complete_; }
  // Records that every game of the batch is finished and drops the checkpoints.
  void markComplete();

 private:
  void lock();
  void classify(const Batch& batch, FolderMode mode,
                const std::optional<std::filesystem::path>& traceDir,
                std::span<const std::filesystem::path> inputs);
  // Whether the run would write onto or remove `input`.
  bool wouldReplace(const std::filesystem::path& input, bool sameBatch,
                    const std::optional<std::filesystem::path>& traceDir) const;
  void clearResults();
  // Whether the folder's CSVs hold every game of every experiment of `batch`.
  bool holdsEveryGame(const Batch& batch) const;
  // FolderMode::Update of a folder holding the run of `held`.
  void update(const Batch& batch, const Json& held);
  // Writes the games of `held` the folder holds (its checkpoint, else its games CSV) into the
  // new checkpoint `to`, the first `iterations` of them.
  void keepGames(const Experiment& held, uint64_t identity, int iterations,
                 const std::filesystem::path& to) const;
  void writeState(bool complete) const;

  std::filesystem::path dir_;
  std::filesystem::path stateDir_;
  std::unique_ptr<FolderLock> lock_;
  bool resuming_ = false;
  bool complete_ = false;
  std::string traceKind_;  // "none", "plain" or "detail": a run resumes the way it started
  bool keepJournals_ = false;  // a shard's: merge checks its CSVs against them
};

}  // namespace ddalab
