// `ddalab run`: runs a batch, prints the tables and writes the CSVs as experiments finish.
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/options.h"
#include "app/progress.h"
#include "experiments/batch.h"
#include "experiments/runner.h"
#include "results/csv.h"
#include "results/report.h"

namespace ddalab::cli {

namespace {

std::atomic<bool> stopFlag{false};

extern "C" void onInterrupt(int) {
  stopFlag.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
}

void applyOverrides(Batch& batch, const po::variables_map& vm) {
  if (vm.count("iterations")) {
    const int iterations = vm["iterations"].as<int>();
    if (iterations < 1) throw InputError("--iterations", "expected a positive integer");
    for (auto& e : batch.experiments) e.iterations = iterations;
  }
  if (vm.count("seed")) batch.seed = vm["seed"].as<uint64_t>();
}

std::filesystem::path outputDir(const po::variables_map& vm, const std::filesystem::path& file) {
  if (vm.count("out")) return vm["out"].as<std::string>();
  return std::filesystem::path("ddalab-out") / file.stem();
}

}  // namespace

int runCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("batch", po::value<std::string>()->required(), "batch or experiment file")(
      "threads,t", po::value<int>()->default_value(0), "worker threads (0 = every core)")(
      "out,o", po::value<std::string>(), "results folder (default ddalab-out/<file stem>)")(
      "iterations,n", po::value<int>(), "games per experiment (overrides the file)")(
      "seed,s", po::value<uint64_t>(), "master seed (overrides the file)")(
      "trace", po::value<std::string>(), "write per-game JSON Lines traces into this folder")(
      "quiet,q", "no progress output");
  po::positional_options_description positional;
  positional.add("batch", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab run BATCH.json [options]", options, positional, vm))
    return *code;

  const std::filesystem::path file = vm["batch"].as<std::string>();
  Batch batch = loadBatch(file);
  applyOverrides(batch, vm);
  const auto out = outputDir(vm, file);
  std::filesystem::create_directories(out);
  std::ofstream(out / "batch.json") << toJson(batch).dump(2) << "\n";  // exactly what ran

  RunOptions run;
  run.threads = vm["threads"].as<int>();
  if (vm.count("trace")) {
    run.traceDir = vm["trace"].as<std::string>();
    std::filesystem::create_directories(*run.traceDir);
  }
  ProgressPrinter printer;
  if (!vm.count("quiet")) run.onProgress = [&printer](const Progress& p) { printer(p); };
  std::vector<ExperimentSummary> summaries;
  run.onExperimentDone = [&](const ExperimentResult& result) {
    summaries.push_back(summarize(result));
    writeExperimentCsvs(out, result, summaries.back());
  };
  stopFlag.store(false);
  run.stop = &stopFlag;
  std::signal(SIGINT, onInterrupt);
  const auto results = runBatch(batch, run);
  std::signal(SIGINT, SIG_DFL);
  printer.finish();

  writeBatchCsvs(out, results, summaries);
  printSummaryTables(std::cout, results, summaries);
  printComparisonScores(std::cout, scoreAll(results, summaries));
  std::cout << "\nresults: " << out.string() << "\n";
  if (stopFlag.load()) {
    size_t games = 0;
    for (const auto& r : results) games += r.records.size();
    std::cerr << "stopped: " << games << " finished games kept and saved\n";
    return kRuntimeError;
  }
  return kOk;
}

}  // namespace ddalab::cli
