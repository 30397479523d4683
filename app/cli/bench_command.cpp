// `ddalab bench`: fixed, deterministic workloads; prints games/s and a behaviour signature that
// changes only when what the games do changes (never with the thread count or the machine).
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "app/cli/options.h"
#include "experiments/batch.h"
#include "experiments/runner.h"
#include "core/file_io.h"

namespace ddalab::cli {

namespace {

struct Workload {
  const char* name;
  Json game;
  std::vector<Json> players;
  Json environment;
  Json coefficients;
  int games;
};

Json sameFor(int n, const Json& player) {
  return Json(std::vector<Json>(n, player));
}

std::vector<Workload> workloads(int scale) {
  const Json ludoCoefficients = {{"believability", 1000}, {"fairness", 10}, {"leading_time", 10},
                                 {"tension", 10},         {"lead", 3},      {"freedom", 1}};
  const Json lcCoefficients = {{"believability", 1000}, {"lead_changes", 100}, {"fairness", 100},
                               {"leading_time", 100},   {"tension", 100},      {"freedom", 10}};
  const Json hillclimbers = {{{"id", "hillclimber"}, {"level", 50}},
                             {{"id", "hillclimber"}},
                             {{"id", "hillclimber"}},
                             {{"id", "hillclimber"}}};
  const Json exact = {{"sigma", 0}};
  return {
      {"ludo 4x random",
       {{"id", "ludo"}},
       sameFor(4, {{"id", "random"}}),
       {{"id", "e-random"}},
       ludoCoefficients,
       10 * scale},
      {"ludo 4x hillclimber, e-hillclimber",
       {{"id", "ludo"}},
       hillclimbers,
       {{"id", "e-hillclimber"}},
       ludoCoefficients,
       scale},
      {"lost-cities 2x random",
       {{"id", "lost-cities"}},
       sameFor(2, {{"id", "random"}}),
       {{"id", "e-random"}},
       lcCoefficients,
       10 * scale},
      {"lost-cities minimax-is vs hillclimber-is",
       {{"id", "lost-cities"}},
       {{{"id", "minimax-is"}, {"params", exact}}, {{"id", "hillclimber-is"}, {"params", exact}}},
       {{"id", "e-random"}},
       lcCoefficients,
       scale / 40},
      {"hexalines 3x random",
       {{"id", "hexalines"}},
       sameFor(3, {{"id", "random"}}),
       {{"id", "e-random"}},
       ludoCoefficients,
       scale},
      {"maze 41x41 hillclimber (thesis set-up)",
       {{"id", "maze"}, {"params", {{"max_steps", 777}, {"defuse_weight", 0}}}},
       {{{"id", "hillclimber"}, {"params", exact}}},
       {{"id", "e-random"}},
       {{"believability", 10}, {"tension", 100}, {"lead", 500}, {"freedom", 100}},
       2 * scale},
  };
}

// The workload as a batch file holds it (what `--batches` writes for `ddalab run`).
Json documentOf(const Workload& w) {
  return {{"format", kBatchFormat},
          {"seed", 20261122},
          {"experiments",
           {{{"name", w.name},
             {"game", w.game},
             {"players", w.players},
             {"environment", w.environment},
             {"coefficients", w.coefficients},
             {"iterations", std::max(1, w.games)}}}}};
}

// A file name for workload number `k`: "3-lost-cities-minimax-is-vs-hillclimber-is.json".
std::string fileNameOf(size_t k, const Workload& w) {
  std::string name = std::to_string(k + 1) + "-";
  for (const char* c = w.name; *c; ++c)
    if (std::isalnum(static_cast<unsigned char>(*c)))
      name += *c;
    else if (name.back() != '-')
      name += '-';
  while (name.back() == '-') name.pop_back();
  return name + ".json";
}

struct Timing {
  double gamesPerSecond;
  uint64_t signature;
};

Timing timeBatch(const Batch& batch, int threads) {
  RunOptions options;
  options.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  const auto results = runBatch(batch, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t signature = 0xcbf29ce484222325ull;
  for (const auto& record : results.front().records) signature = fingerprint(record, signature);
  return {static_cast<double>(results.front().records.size()) / seconds, signature};
}

}  // namespace

int benchCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("scale,n", po::value<int>()->default_value(2000),
                        "work size: games per workload are multiples of it")(
      "batches", po::value<std::string>(),
      "write each workload as a batch file into this folder (for timing `ddalab run`) and stop");
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab bench [options]", options, {}, vm)) return *code;
  const int scale = vm["scale"].as<int>();
  if (scale < 1) throw InputError("--scale", "expected a positive integer");

  if (vm.count("batches")) {
    const std::filesystem::path folder = vm["batches"].as<std::string>();
    std::filesystem::create_directories(folder);
    const std::vector<Workload> all = workloads(scale);
    for (size_t k = 0; k < all.size(); ++k) {
      writeFileAtomically(folder / fileNameOf(k, all[k]), documentOf(all[k]).dump(2) + "\n");
      std::cout << (folder / fileNameOf(k, all[k])).string() << "\n";
    }
    return kOk;
  }
  uint64_t signature = 0;
  std::printf("%-42s %7s %12s %12s %8s  %s\n", "workload", "games", "1 thread/s", "2 threads/s",
              "speed-up", "signature");
  for (const Workload& w : workloads(scale)) {
    const Batch batch = parseBatch(documentOf(w), "bench");
    const Timing one = timeBatch(batch, 1);
    const Timing two = timeBatch(batch, 2);
    if (one.signature != two.signature) {
      std::cerr << "error: " << w.name << ": 1 and 2 threads gave different results\n";
      return kRuntimeError;
    }
    std::printf("%-42s %7d %12.1f %12.1f %7.2fx  %016llx\n", w.name,
                batch.experiments.front().iterations, one.gamesPerSecond, two.gamesPerSecond,
                two.gamesPerSecond / one.gamesPerSecond,
                static_cast<unsigned long long>(one.signature));
    signature = signature * 31 + one.signature;
  }
  std::printf("signature: %016llx\n", static_cast<unsigned long long>(signature));
  return kOk;
}

}  // namespace ddalab::cli
