// `ddalab bench`: fixed, deterministic workloads; prints games/s and a behaviour signature that
// changes only when what the games do changes (never with the thread count or the machine).
#include <chrono>
#include <cstdio>
#include <iostream>

#include "app/options.h"
#include "experiments/batch.h"
#include "experiments/runner.h"

namespace ddalab::cli {

namespace {

const Json kThesisLudoCoefficients = {
    {"believability", 1000}, {"fairness", 10}, {"leading_time", 10},
    {"tension", 10},         {"lead", 3},      {"freedom", 1}};

Batch ludoBatch(const std::string& player, const std::string& environment, int games) {
  Json players = Json::array();
  for (int level : {50, 100, 100, 100}) players.push_back({{"id", player}, {"level", level}});
  const Json document = {{"format", kBatchFormat},
                         {"seed", 20261122},
                         {"experiments",
                          {{{"name", "bench"},
                            {"game", {{"id", "ludo"}, {"params", {{"players", 4}}}}},
                            {"players", players},
                            {"environment", {{"id", environment}}},
                            {"coefficients", kThesisLudoCoefficients},
                            {"iterations", games}}}}};
  return parseBatch(document, "bench");
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

void printLine(const char* name, int threads, const Timing& t) {
  std::printf("%-36s threads %d  %10.0f games/s  signature %016llx\n", name, threads,
              t.gamesPerSecond, static_cast<unsigned long long>(t.signature));
}

}  // namespace

int benchCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("games,n", po::value<int>()->default_value(20000),
                        "games of the random-player workload")(
      "dda-games", po::value<int>()->default_value(2000), "games of the e-hillclimber workload");
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab bench [options]", options, {}, vm)) return *code;

  const Batch randomLudo = ludoBatch("random", "e-random", vm["games"].as<int>());
  const Batch ddaLudo = ludoBatch("hillclimber", "e-hillclimber", vm["dda-games"].as<int>());
  const Timing one = timeBatch(randomLudo, 1);
  printLine("ludo 4x random, e-random", 1, one);
  const Timing two = timeBatch(randomLudo, 2);
  printLine("ludo 4x random, e-random", 2, two);
  const Timing dda = timeBatch(ddaLudo, 1);
  printLine("ludo 4x hillclimber, e-hillclimber", 1, dda);
  std::printf("two-thread speed-up: %.2fx\n", two.gamesPerSecond / one.gamesPerSecond);
  if (one.signature != two.signature) {
    std::cerr << "error: 1 and 2 threads gave different results\n";
    return kRuntimeError;
  }
  std::printf("signature: %016llx\n",
              static_cast<unsigned long long>(one.signature ^ dda.signature));
  return kOk;
}

}  // namespace ddalab::cli
