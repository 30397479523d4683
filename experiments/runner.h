#pragma once
// The multithreaded batch runner (app.md "Batch runner"): plays the games of an experiment on
// worker threads and hands them back in iteration order, deterministic for any thread count.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/stop.h"
#include "experiments/batch.h"
#include "experiments/win_rate_blocks.h"
#include "results/experiment_result.h"

namespace ddalab {

// Seconds from `start` to now on the steady clock (progress intervals, grace periods).
inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Progress {
  size_t gamesDone = 0;   // in the whole batch (resumed games included)
  size_t gamesTotal = 0;  // in the whole batch
  double elapsedSeconds = 0;
  double etaSeconds = 0;  // mean time per game played so far x games remaining
  size_t experiment = 0;  // index of the running experiment
  std::string experimentName;
};

// Measures a batch's progress; the time left comes from the games played since it was made.
class ProgressMeter {
 public:
  // A batch of `gamesTotal` games of which `gamesDone` are already done (resumed).
  ProgressMeter(size_t gamesTotal, size_t gamesDone);
  // Counts `games` more as done before this session (read back from a checkpoint).
  void countResumed(size_t games) { doneAtStart_ += games; }
  // The progress once `gamesDone` games of the batch are done, running `experiment`.
  Progress at(size_t gamesDone, size_t experiment, const std::string& experimentName) const;

 private:
  std::chrono::steady_clock::time_point start_;
  size_t total_, doneAtStart_;
};

// How a run is asked to stop. Set `stop` for a graceful stop: no new game starts and running
// games get `graceSeconds` to finish before they are abandoned. Set `abandon` to give up running
// games at once (their long decisions poll it). Abandoned games are not counted.
struct RunControl {
  std::atomic<bool> stop{false};
  std::atomic<bool> abandon{false};
  double graceSeconds = 1.0;

  bool stopping() const { return stop.load() || abandon.load(); }
  // The token the players of a game poll.
  StopToken token() const { return StopToken(abandon); }
};

// One finished game of an experiment.
struct FinishedGame {
  GameRecord record;
  std::string trace;  // its trace as one JSON line (docs/trace-format.md); empty without traces
  std::string row;    // its line of the games CSV (gamesCsvRow); empty unless asked for
};

struct PlayOptions {
  int threads = 0;            // 1..1024; 0 = every core
  bool traces = false;        // build each game's trace line
  bool traceDetail = false;   // with every environment decision described (docs/trace-format.md)
  bool csvRows = false;       // format each game's games-CSV line on its worker thread
  size_t window = 1 << 14;    // games may finish at most this far ahead of the first open one
  double tickSeconds = 0.05;  // how often `tick` is called
  // A win-rate objective's estimates, which `deliver` keeps counting (every game before `first`
  // already counted): a game starts only once every game before its block was delivered.
  const WinRateBlocks* blocks = nullptr;
};

// Plays iterations [first, experiment.iterations) on worker threads. On the calling thread,
// `deliver(game, contiguous)` receives every finished game in iteration order — `contiguous` is
// false for games after a gap that a stop left — and `tick()` is called about every tickSeconds.
// Returns the number of iterations from `first` on that finished without a gap. An exception of
// a game (other than GameAbandoned) stops the workers and is rethrown once the games finished
// before it are delivered; one of `deliver`/`tick` stops them and is rethrown at once.
size_t playIterations(const Batch& batch, const Experiment& experiment, size_t first,
                      const PlayOptions& options, RunControl& control,
                      const std::function<void(FinishedGame&&, bool contiguous)>& deliver,
                      const std::function<void()>& tick);

// The worker threads `requested` means (0 = every core); throws InputError outside 0..1024.
int workerThreads(int requested);

// The seed of game `iteration` of `experiment` (same for every experiment unless salted).
uint64_t gameSeed(const Batch& batch, const Experiment& experiment, uint64_t iteration);

// The result of one game of an experiment; `trace`, if given, receives its JSON trace (with every
// environment decision described when `traceDetail`); a win-rate objective steers by
// `winRateEstimate`. Throws GameAbandoned when `stop` is requested before the game ends, and
// GameContractError naming the game, the experiment and the iteration when the game breaks its
// contract (a run stops with it, the games finished before kept); a game still running after
// kMatchActionLimit actions is cut off and counted as capped.
GameRecord playIteration(const Batch& batch, const Experiment& experiment, uint64_t iteration,
                         Json* trace = nullptr, StopToken stop = {}, bool traceDetail = false,
                         std::optional<double> winRateEstimate = {});

// One game's trace as a line of a trace file: who played, then `trace` (docs/trace-format.md);
// with `detail`, also the game's set-up and the coefficients F was computed with. Seats a person
// played (people[i]) are written {"id": "human"}, and the line says which in "people".
Json traceJson(const Experiment& experiment, uint64_t iteration, uint64_t seed, const Json& trace,
               bool detail, const std::vector<bool>& people = {});
std::string traceLine(const Experiment& experiment, uint64_t iteration, uint64_t seed,
                      const Json& trace, bool detail);

// In-memory runs (the benchmark, tests): every game kept in memory.
struct RunOptions {
  int threads = 0;  // 0 = every core
  // Called from the calling thread about every `progressInterval` seconds and once at the end.
  std::function<void(const Progress&)> onProgress;
  double progressInterval = 0.25;
  // Called as soon as an experiment is finished (or stopped).
  std::function<void(const ExperimentResult&)> onExperimentDone;
  RunControl* control = nullptr;  // to stop the run; null: runs to the end
  // Games may finish at most this far ahead of the first not yet delivered (PlayOptions::window):
  // a stop set by an event (onProgress) lands within two windows of it whatever the load.
  size_t window = PlayOptions{}.window;
};

// Runs the experiments in order, each spread over the worker threads. Results are identical
// whatever the thread count; a stopped batch returns every finished game.
std::vector<ExperimentResult> runBatch(const Batch& batch, const RunOptions& options);

// The label of an experiment in files and tables.
ExperimentLabel labelOf(const Experiment& experiment);

}  // namespace ddalab
