#include "experiments/runner.h"

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

namespace ddalab {

namespace {

using Clock = std::chrono::steady_clock;

bool stopRequested(const RunOptions& options) {
  return options.stop && options.stop->load(std::memory_order_relaxed);
}

// Writes per-game JSON lines in iteration order, whatever order the games finish in.
class OrderedTraceWriter {
 public:
  explicit OrderedTraceWriter(const std::filesystem::path& file) : out_(file) {
    if (!out_) throw std::runtime_error("cannot write trace file " + file.string());
  }
  void add(size_t iteration, std::string line) {
    std::lock_guard lock(mutex_);
    pending_.emplace(iteration, std::move(line));
    while (!pending_.empty() && pending_.begin()->first == next_) {
      out_ << pending_.begin()->second << '\n';
      pending_.erase(pending_.begin());
      ++next_;
    }
  }
  // Writes what is left (games after a gap left by a stop).
  void flushRest() {
    for (auto& [iteration, line] : pending_) out_ << line << '\n';
    pending_.clear();
  }

 private:
  std::ofstream out_;
  std::mutex mutex_;
  std::map<size_t, std::string> pending_;
  size_t next_ = 0;
};

Json traceHeader(const Experiment& e, uint64_t iteration, uint64_t seed) {
  Json players = Json::array();
  for (const auto& p : e.players) players.push_back({{"id", p.info->id}, {"level", p.level}});
  return {{"experiment", e.name},
          {"iteration", iteration},
          {"seed", seed},
          {"players", players},
          {"environment", e.environment.info->id}};
}

ExperimentResult emptyResult(const Experiment& e) {
  ExperimentResult r;
  r.name = e.name;
  r.comparison = e.comparison;
  r.game = e.gameInfo->id;
  for (const auto& p : e.players) r.players.push_back({p.info->id, p.level});
  r.environment = e.environment.info->id;
  r.plannedIterations = e.iterations;
  return r;
}

}  // namespace

uint64_t gameSeed(const Batch& batch, const Experiment& experiment, uint64_t iteration) {
  return deriveGameSeed(batch.seed, iteration, experiment.salt);
}

GameRecord playIteration(const Batch& batch, const Experiment& e, uint64_t iteration, Json* trace) {
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> players;
  for (const auto& p : e.players) {
    owned.push_back(p.info->makeRegular({*e.game, p.level, p.params, e.coefficients}));
    players.push_back(owned.back().get());
  }
  auto environment =
      e.environment.info->makeEnvironment({*e.game, 100, e.environment.params, e.coefficients});
  const uint64_t seed = gameSeed(batch, e, iteration);
  GameRecord record = playGame(*e.game, players, *environment, seed, trace);
  record.iteration = iteration;
  return record;
}

std::vector<ExperimentResult> runBatch(const Batch& batch, const RunOptions& options) {
  const int threads = options.threads > 0
                          ? options.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  size_t total = 0;
  for (const auto& e : batch.experiments) total += static_cast<size_t>(e.iterations);
  const auto start = Clock::now();
  size_t doneBefore = 0;  // games of the experiments already finished
  std::vector<ExperimentResult> results;

  for (size_t index = 0; index < batch.experiments.size() && !stopRequested(options); ++index) {
    const Experiment& e = batch.experiments[index];
    const size_t n = static_cast<size_t>(e.iterations);
    std::vector<GameRecord> records(n);
    std::vector<char> finished(n, 0);
    std::atomic<size_t> next{0}, done{0};
    std::optional<OrderedTraceWriter> traces;
    if (options.traceDir) traces.emplace(*options.traceDir / (fileStem(e.name) + ".trace.jsonl"));
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    std::mutex failureMutex;
    std::condition_variable wake;
    std::mutex wakeMutex;

    auto work = [&] {
      try {
        for (size_t i; !stopRequested(options) && (i = next.fetch_add(1)) < n;) {
          Json trace;
          records[i] = playIteration(batch, e, i, traces ? &trace : nullptr);
          if (traces) {
            Json line = traceHeader(e, i, records[i].seed);
            line.update(trace);
            traces->add(i, line.dump());
          }
          finished[i] = 1;
          done.fetch_add(1);
        }
      } catch (...) {
        std::lock_guard lock(failureMutex);
        if (!failure) failure = std::current_exception();
        failed.store(true);
        next.store(n);  // no new games after a failure
      }
      { std::lock_guard lock(wakeMutex); }  // no lost wake-up between check and wait
      wake.notify_all();
    };
    std::vector<std::jthread> workers;
    for (int t = 0; t < std::min<int>(threads, static_cast<int>(n)); ++t)
      workers.emplace_back(work);

    auto report = [&] {
      if (!options.onProgress) return;
      Progress p;
      p.gamesDone = doneBefore + done.load();
      p.gamesTotal = total;
      p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
      p.etaSeconds = p.gamesDone ? p.elapsedSeconds / p.gamesDone * (total - p.gamesDone) : 0.0;
      p.experiment = index;
      p.experimentName = e.name;
      options.onProgress(p);
    };
    auto over = [&] { return done.load() == n || failed.load() || stopRequested(options); };
    while (!over()) {
      std::unique_lock lock(wakeMutex);
      wake.wait_for(lock, std::chrono::duration<double>(options.progressInterval), over);
      report();
    }
    workers.clear();  // joins: running games finish
    if (failure) std::rethrow_exception(failure);
    report();
    if (traces) traces->flushRest();

    ExperimentResult result = emptyResult(e);
    for (size_t i = 0; i < n; ++i)
      if (finished[i]) result.records.push_back(records[i]);
    doneBefore += result.records.size();
    if (options.onExperimentDone) options.onExperimentDone(result);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace ddalab
