#include "experiments/runner.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "experiments/lineup.h"
#include "results/results_writer.h"

namespace ddalab {

namespace {

using Clock = std::chrono::steady_clock;

// What the workers of one playIterations call share; every field is guarded by `mutex`.
struct WorkQueue {
  std::mutex mutex;
  std::condition_variable workAvailable;  // workers wait for room in the window
  std::condition_variable gamesReady;     // the calling thread waits for finished games
  size_t next = 0;                        // the next iteration to claim
  size_t delivered = 0;                   // iterations before this one were delivered
  size_t end = 0;                         // one past the last iteration
  size_t window = 1;
  const WinRateBlocks* blocks = nullptr;  // read only for published blocks (delivered)
  bool halt = false;                      // claim no more iterations (stop or failure)
  int running = 0;                        // workers still running
  std::vector<FinishedGame> inbox;
  std::exception_ptr failure;

  struct Claim {
    size_t iteration;
    std::optional<double> estimate;  // a win-rate objective's, for the iteration's block
  };
  // The next iteration for a worker; none once the work is over. A win-rate objective's game
  // waits until every game before its block was delivered.
  std::optional<Claim> claim() {
    std::unique_lock lock(mutex);
    workAvailable.wait(lock, [&] {
      return halt || next >= end ||
             (next < delivered + window && (!blocks || blocks->blockStart(next) <= delivered));
    });
    if (halt || next >= end) return std::nullopt;
    const size_t i = next++;
    return Claim{i, blocks ? blocks->estimateFor(i) : std::nullopt};
  }
  void finished(FinishedGame&& game) {
    {
      std::lock_guard lock(mutex);
      inbox.push_back(std::move(game));
    }
    gamesReady.notify_one();
  }
  void fail(std::exception_ptr error) {
    {
      std::lock_guard lock(mutex);
      if (!failure) failure = error;
      halt = true;
    }
    workAvailable.notify_all();
    gamesReady.notify_one();
  }
  void workerDone() {
    {
      std::lock_guard lock(mutex);
      --running;
    }
    gamesReady.notify_one();
  }
  void stopClaiming() {
    {
      std::lock_guard lock(mutex);
      halt = true;
    }
    workAvailable.notify_all();
  }
};

// Finished games held until every game before them is delivered.
class ReorderBuffer {
 public:
  ReorderBuffer(size_t first, size_t size) : first_(first), slots_(std::max<size_t>(1, size)) {}
  void put(FinishedGame&& game) {
    slots_[(game.record.iteration - first_) % slots_.size()] = std::move(game);
  }
  // The game of iteration `i` if it is held (removing it).
  std::optional<FinishedGame> take(size_t i) {
    auto& slot = slots_[(i - first_) % slots_.size()];
    if (!slot || slot->record.iteration != i) return std::nullopt;
    std::optional<FinishedGame> game = std::move(slot);
    slot.reset();
    return game;
  }

 private:
  size_t first_;
  std::vector<std::optional<FinishedGame>> slots_;
};

void work(WorkQueue& queue, const Batch& batch, const Experiment& e, const PlayOptions& options,
          const RunControl& control) {
  while (const auto claim = queue.claim()) {
    const size_t i = claim->iteration;
    try {
      FinishedGame game;
      Json trace;
      game.record = playIteration(batch, e, i, options.traces ? &trace : nullptr, control.token(),
                                  options.traceDetail, claim->estimate);
      if (options.traces)
        game.trace = traceLine(e, i, game.record.seed, trace, options.traceDetail);
      if (options.csvRows) game.row = gamesCsvRow(game.record, e.players.size());
      queue.finished(std::move(game));
    } catch (const GameAbandoned&) {
      // not counted; a resumed run plays it again
    } catch (...) {
      queue.fail(std::current_exception());
      break;
    }
  }
  queue.workerDone();
}

}  // namespace

ProgressMeter::ProgressMeter(size_t gamesTotal, size_t gamesDone)
    : start_(Clock::now()), total_(gamesTotal), doneAtStart_(gamesDone) {}

Progress ProgressMeter::at(size_t gamesDone, size_t experiment,
                           const std::string& experimentName) const {
  Progress p;
  p.gamesDone = gamesDone;
  p.gamesTotal = total_;
  p.elapsedSeconds = secondsSince(start_);
  const size_t played = gamesDone > doneAtStart_ ? gamesDone - doneAtStart_ : 0;
  const size_t left = total_ > gamesDone ? total_ - gamesDone : 0;
  p.etaSeconds = played ? p.elapsedSeconds / static_cast<double>(played) * left : 0.0;
  p.experiment = experiment;
  p.experimentName = experimentName;
  return p;
}

int workerThreads(int requested) {
  if (requested < 0 || requested > 1024)
    throw InputError("--threads",
                     "expected 0 (every core) or 1..1024, got " + std::to_string(requested));
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

uint64_t gameSeed(const Batch& batch, const Experiment& experiment, uint64_t iteration) {
  return deriveGameSeed(batch.seed, iteration, experiment.salt);
}

Json traceJson(const Experiment& e, uint64_t iteration, uint64_t seed, const Json& trace,
               bool detail, const std::vector<bool>& people) {
  Json players = Json::array();
  const bool anyPerson = std::find(people.begin(), people.end(), true) != people.end();
  for (size_t seat = 0; seat < e.players.size(); ++seat) {
    const PlayerEntry& p = e.players[seat];
    if (seat < people.size() && people[seat])
      players.push_back({{"id", kPersonSeat}});
    else
      players.push_back({{"id", p.info->id}, {"level", p.level}});
  }
  Json line = {{"experiment", e.name},
               {"iteration", iteration},
               {"seed", seed},
               {"players", players},
               {"environment", e.environment.info->id}};
  if (anyPerson) line["people"] = people;
  if (detail) {
    Json coefficients = Json::object();
    for (const auto& info : allMetrics())
      if (const double c = e.coefficients[static_cast<size_t>(info.metric)]; c != 0)
        coefficients[std::string(info.key)] = c;
    line["game"] = {{"id", e.gameInfo->id}, {"params", e.gameParams}};
    line["coefficients"] = coefficients;
    if (e.objective.kind != ObjectiveKind::WeightedSum)
      line["objective"] = objectiveJson(e.objective);
  }
  line.update(trace);
  return line;
}

std::string traceLine(const Experiment& e, uint64_t iteration, uint64_t seed, const Json& trace,
                      bool detail) {
  return traceJson(e, iteration, seed, trace, detail).dump();
}

GameRecord playIteration(const Batch& batch, const Experiment& e, uint64_t iteration, Json* trace,
                         StopToken stop, bool traceDetail, std::optional<double> winRateEstimate) {
  const Lineup lineup = buildLineup(e, stop, {}, winRateEstimate);
  const uint64_t seed = gameSeed(batch, e, iteration);
  GameRecord record;
  try {
    record = playGame(*e.game, lineup.seats(), *lineup.environment, seed, trace, stop,
                      traceDetail ? &e.coefficients : nullptr);
  } catch (const GameContractError& broken) {  // says what and where in the state, not which game
    throw GameContractError("game '" + e.gameInfo->id + "' of experiment '" + e.name +
                            "', iteration " + std::to_string(iteration) + " (seed " +
                            std::to_string(seed) + "): " + broken.what());
  }
  record.iteration = iteration;
  if (trace && e.objective.kind == ObjectiveKind::WinRate && winRateEstimate)
    (*trace)["win_rate_estimate"] = *winRateEstimate;
  return record;
}

size_t playIterations(const Batch& batch, const Experiment& e, size_t first,
                      const PlayOptions& options, RunControl& control,
                      const std::function<void(FinishedGame&&, bool contiguous)>& deliver,
                      const std::function<void()>& tick) {
  const size_t end = iterationsOf(batch, e).end;
  if (first >= end) return 0;
  WorkQueue queue;
  queue.next = queue.delivered = first;
  queue.end = end;
  queue.window = std::max<size_t>(1, options.window);
  queue.blocks = options.blocks && options.blocks->active() ? options.blocks : nullptr;
  const int threads =
      static_cast<int>(std::min<size_t>(workerThreads(options.threads), end - first));
  queue.running = threads;
  ReorderBuffer held(first, std::min(queue.window, end - first));
  std::vector<std::jthread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] { work(queue, batch, e, options, std::as_const(control)); });

  size_t delivered = first;
  std::optional<Clock::time_point> stopSeen;
  auto lastTick = Clock::now();
  try {
    for (bool over = false; !over;) {
      std::vector<FinishedGame> arrived;
      {
        std::unique_lock lock(queue.mutex);
        queue.gamesReady.wait_for(lock, std::chrono::duration<double>(options.tickSeconds),
                                  [&] { return !queue.inbox.empty() || queue.running == 0; });
        arrived.swap(queue.inbox);
        over = queue.running == 0;
      }
      for (FinishedGame& game : arrived) held.put(std::move(game));
      for (auto game = held.take(delivered); game; game = held.take(delivered)) {
        deliver(std::move(*game), true);
        ++delivered;
      }
      {
        std::lock_guard lock(queue.mutex);
        queue.delivered = delivered;
      }
      queue.workAvailable.notify_all();
      if (control.stopping()) {
        queue.stopClaiming();
        if (!stopSeen) stopSeen = Clock::now();
        if (secondsSince(*stopSeen) >= control.graceSeconds) control.abandon.store(true);
      }
      if (secondsSince(lastTick) >= options.tickSeconds) {
        tick();
        lastTick = Clock::now();
      }
    }
  } catch (...) {
    control.abandon.store(true);
    queue.stopClaiming();
    workers.clear();  // joins
    throw;
  }
  workers.clear();
  const size_t contiguous = delivered - first;
  for (size_t i = delivered; i < end; ++i)  // games finished after a gap left by a stop
    if (auto game = held.take(i)) deliver(std::move(*game), false);
  if (queue.failure) std::rethrow_exception(queue.failure);  // after keeping what finished
  tick();
  return contiguous;
}

ExperimentLabel labelOf(const Experiment& e) {
  ExperimentLabel label;
  label.name = e.name;
  label.comparison = e.comparison;
  label.game = e.gameInfo->id;
  for (const auto& p : e.players) label.players.push_back({p.info->id, p.level});
  label.environment = e.environment.info->id;
  label.plannedIterations = e.iterations;
  return label;
}

std::vector<ExperimentResult> runBatch(const Batch& batch, const RunOptions& options) {
  RunControl ownControl;
  RunControl& control = options.control ? *options.control : ownControl;
  size_t total = 0;
  for (const auto& e : batch.experiments) total += static_cast<size_t>(e.iterations);
  const ProgressMeter meter(total, 0);
  size_t done = 0;
  std::vector<ExperimentResult> results;
  for (size_t index = 0; index < batch.experiments.size() && !control.stopping(); ++index) {
    const Experiment& e = batch.experiments[index];
    ExperimentResult result;
    static_cast<ExperimentLabel&>(result) = labelOf(e);
    auto lastReport = Clock::now();
    const auto report = [&] {
      if (options.onProgress) options.onProgress(meter.at(done, index, e.name));
      lastReport = Clock::now();
    };
    WinRateBlocks blocks(e.objective, static_cast<size_t>(e.iterations));
    PlayOptions play;
    play.threads = options.threads;
    play.tickSeconds = std::min(0.05, options.progressInterval);
    play.blocks = &blocks;
    play.window = options.window;
    playIterations(
        batch, e, 0, play, control,
        [&](FinishedGame&& game, bool) {
          blocks.add(game.record.iteration, game.record.winner);
          result.records.push_back(game.record);
          ++done;
        },
        [&] {
          if (secondsSince(lastReport) >= options.progressInterval) report();
        });
    report();
    if (options.onExperimentDone) options.onExperimentDone(result);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace ddalab
