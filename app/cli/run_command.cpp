// `ddalab run`: a thin front end of the run service (experiments/run_service.h): parses the
// options, turns signals into a stop, shows progress and prints the tables.
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "app/cli/options.h"
#include "app/cli/progress.h"
#include "experiments/batch.h"
#include "experiments/rating_report.h"
#include "experiments/run_service.h"
#include "results/report.h"

namespace ddalab::cli {

namespace {

constexpr int kMaxIterations = 100'000'000;  // as in experiment files

// The run being executed; signal handlers only touch its lock-free atomics.
RunControl control;
std::atomic<int> signalCount{0};
std::atomic<int> firstSignal{0};

// First signal: graceful stop (running games get a second, finished ones are saved). Second:
// running games are given up at once, the files are still written. Third: exit immediately
// (every file under a final name is complete anyway).
extern "C" void onStopSignal(int signal) {
  const int count = signalCount.fetch_add(1) + 1;
  if (count == 1) {
    firstSignal.store(signal);
    control.stop.store(true);
  } else if (count == 2) {
    control.abandon.store(true);
  } else {
    ::_exit(128 + signal);
  }
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

void handleStopSignals(bool install) {
  struct sigaction action {};
  action.sa_handler = install ? onStopSignal : SIG_DFL;
  sigemptyset(&action.sa_mask);
  for (int signal : kStopSignals) sigaction(signal, &action, nullptr);
}

// Handles the stop signals for its lifetime (then their default actions again).
struct StopSignalsHandled {
  StopSignalsHandled() { handleStopSignals(true); }
  ~StopSignalsHandled() { handleStopSignals(false); }
  StopSignalsHandled(const StopSignalsHandled&) = delete;
  StopSignalsHandled& operator=(const StopSignalsHandled&) = delete;
};

RunRequest makeRequest(const po::variables_map& vm) {
  RunRequest request;
  const std::filesystem::path file = vm["batch"].as<std::string>();
  request.batch = loadBatch(file, varyAxes(vm));
  applyOverrides(request.batch, vm);
  std::string folder = file.stem().string();
  if (vm.count("shard")) {
    request.batch.shard = parseShard(vm["shard"].as<std::string>(), "--shard");
    checkShardable(request.batch, request.batch.shard->count, "--shard");
    folder += ".shard-" + std::to_string(request.batch.shard->index) + "-of-" +
              std::to_string(request.batch.shard->count);
  }
  request.out = vm.count("out") ? std::filesystem::path(vm["out"].as<std::string>())
                                : defaultResultsFolder(folder);
  if (vm.count("trace-detail") && !vm.count("trace"))
    throw InputError("--trace-detail", "needs --trace DIR (where the traces go)");
  if (vm.count("trace"))
    request.traces = TraceOutput{vm["trace"].as<std::string>(), vm.count("trace-detail") > 0};
  request.threads = vm["threads"].as<int>();
  request.mode =
      folderMode(vm.count("resume") > 0, vm.count("overwrite") > 0, "--resume", "--overwrite");
  request.inputs = {file};
  return request;
}

const char* signalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
  }
  return "a signal";
}

// The --iterations, --seed and --vary a run was started with: a resumed run needs the same batch.
std::string overrides(const po::variables_map& vm) {
  std::string text;
  for (const char* option : {"iterations", "seed", "shard"})
    if (vm.count(option)) text += std::string(" --") + option + " " + vm[option].as<std::string>();
  if (vm.count("vary"))
    for (const std::string& axis : vm["vary"].as<std::vector<std::string>>())
      text += " --vary " + axis;
  return text;
}

void printOutcome(const RunOutcome& outcome, const RunRequest& request) {
  printSummaryTables(std::cout, outcome.summaries);
  printComparisonScores(std::cout, outcome.scores, outcome.analyses);
  printRatingOutcome(request.out, outcome.ratingWarning);
  std::cout << "\nresults: " << request.out.string() << "\n";
}

}  // namespace

void printRatingOutcome(const std::filesystem::path& dir,
                        const std::optional<std::string>& warning) {
  printRatingTables(std::cout, readRatingTables(dir));
  if (warning)
    std::cerr << "warning: " << *warning
              << "; a perfect record is rated under a prior: ddalab rate " << dir.string()
              << " --prior-sd 400\n";
}

uint64_t parseCount(const std::string& text, const std::string& name, uint64_t min, uint64_t max) {
  uint64_t value = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (char c : text) {
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    ok = ok && c >= '0' && c <= '9' && value <= (UINT64_MAX - digit) / 10;
    if (ok) value = value * 10 + digit;
  }
  if (!ok || value < min || value > max)
    throw InputError(name, "expected a whole number in [" + std::to_string(min) + ", " +
                               std::to_string(max) + "], got '" + text + "'");
  return value;
}

void applyOverrides(Batch& batch, const po::variables_map& vm) {
  if (vm.count("iterations")) {
    const auto iterations =
        parseCount(vm["iterations"].as<std::string>(), "--iterations", 1, kMaxIterations);
    for (auto& e : batch.experiments) e.iterations = static_cast<int>(iterations);
  }
  if (vm.count("seed"))
    batch.seed = parseCount(vm["seed"].as<std::string>(), "--seed", 0, UINT64_MAX);
}

int runCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("batch", po::value<std::string>()->required(), "batch or experiment file")(
      "threads,t", po::value<int>()->default_value(0), "worker threads 1..1024 (0 = every core)")(
      "out,o", po::value<std::string>(), "results folder (default ddalab-out/<file stem>)")(
      "iterations,n", po::value<std::string>(), "games per experiment (overrides the file)")(
      "seed,s", po::value<std::string>(), "master seed 0..2^64-1 (overrides the file)")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "PATH=v1,v2,...: sweep one more axis in every experiment (repeatable)")(
      "shard", po::value<std::string>(),
      "K/N: play shard K of N of every experiment's games (ddalab merge joins the folders)")(
      "trace", po::value<std::string>(), "write per-game JSON Lines traces into this folder")(
      "trace-detail",
      "with --trace: describe every environment decision (each outcome's probability, F and "
      "its terms; docs/trace-format.md)")("resume",
                                          "continue the interrupted run in --out (same batch)")(
      "overwrite", "replace the results --out holds")("quiet,q", "no progress output");
  po::positional_options_description positional;
  positional.add("batch", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab run BATCH.json [options]", options, positional, vm))
    return *code;
  return runBatch(vm, "run", printOutcome);
}

int runBatch(const po::variables_map& vm, const std::string& command, const PrintRun& print) {
  // From the start (a signal while the batch loads is a stop, not a kill) until the tables and
  // the hint how to resume are printed (a second Ctrl-C right after the stop must not kill
  // ddalab before it says how to continue).
  control.stop.store(false);
  control.abandon.store(false);
  signalCount.store(0);
  firstSignal.store(0);
  const StopSignalsHandled handled;
  const RunRequest request = makeRequest(vm);
  ProgressPrinter printer;
  RunEvents events;
  if (!vm.count("quiet")) events.onProgress = [&printer](const Progress& p) { printer(p); };
  RunOutcome outcome;
  try {
    outcome = runToFolder(request, events, control);
  } catch (...) {
    printer.finish();
    throw;
  }
  printer.finish();
  print(outcome, request);
  if (outcome.complete) return kOk;
  size_t games = 0;
  for (const auto& s : outcome.summaries) games += s.games;
  const int signal = firstSignal.load();
  std::cerr << "stopped by " << signalName(signal) << ": " << games
            << " finished games kept and saved; continue with: ddalab " << command << " "
            << vm["batch"].as<std::string>() << " --out " << request.out.string()
            << (request.traces ? " --trace " + request.traces->dir.string() : "")
            << (request.traces && request.traces->detail ? " --trace-detail" : "") << overrides(vm)
            << " --resume\n";
  return signal ? 128 + signal : kRuntimeError;
}

}  // namespace ddalab::cli
