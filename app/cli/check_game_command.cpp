// `ddalab check-game GAME`: the conformance checks (players/conformance/conformance.h) on one game
// of the catalog, a plug-in's included, with a one-screen summary: how a game's author knows it is
// right before running experiments on it.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli/options.h"
#include "core/catalog.h"
#include "games/registry.h"
#include "players/conformance/conformance.h"

namespace ddalab::cli {

namespace {

constexpr uint64_t kMaxGames = 100'000;  // playouts per configuration: minutes, not days

std::string checksHelp() {
  std::ostringstream out;
  out << "checks (each passes or fails with its first failure: configuration, parameters, seed, "
         "move and what was expected):\n";
  for (const ConformanceCheck& check : conformanceChecks())
    out << "  " << std::left << std::setw(13) << check.name << check.summary << "\n";
  out << "exit status: 0 every check passed, 1 a check failed, 2 bad usage or input\n";
  return out.str();
}

void printReport(const GameInfo& info, const ConformanceOptions& options,
                 const ConformanceReport& report) {
  const std::string origin = catalog().gameOrigin(info.id);
  std::cout << "check-game " << info.id << (origin == kBuiltIn ? "" : " [" + origin + "]") << ": "
            << options.games << " random playouts per configuration from seed " << options.seed
            << "\nconfigurations:";
  for (const std::string& label : report.configurations) std::cout << " " << label << ";";
  std::cout << "\n";
  size_t failed = 0;
  for (const ConformanceCheck& check : report.checks) {
    failed += !check.passed();
    const char* status = check.passed() ? "passed" : check.runs == 0 ? "NOT RUN" : "FAILED";
    std::cout << "  " << std::left << std::setw(8) << status << std::setw(13) << check.name;
    if (check.failures > 0)
      std::cout << check.failures << " of " << check.runs
                << " runs failed; first: " << check.firstFailure << "\n";
    else if (check.runs == 0)
      std::cout << "every playout stopped at an earlier failure\n";
    else
      std::cout << check.runs << " runs\n";
  }
  std::cout << report.checks.size() - failed << " of " << report.checks.size() << " checks passed"
            << (failed ? "; what each checks: ddalab check-game --help" : "") << "\n";
}

}  // namespace

int checkGameCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("game", po::value<std::string>()->required(),
                        "the game's id (ddalab list games; a plug-in's with --plugin FILE)")(
      "games,n", po::value<std::string>()->default_value("24"),
      "random playouts per configuration, 1..100000 (each played twice)")(
      "seed,s", po::value<std::string>()->default_value("1"),
      "the first playout's seed, 0..2^64-1 (the others follow it)");
  po::positional_options_description positional;
  positional.add("game", 1);
  po::variables_map vm;
  const std::string usage =
      "ddalab check-game GAME [--plugin FILE] [--games N] [--seed S]\n\n" + checksHelp() + "\n";
  if (auto code = parseArgs(args, usage, options, positional, vm)) return *code;
  ConformanceOptions checkOptions;
  checkOptions.games =
      static_cast<int>(parseCount(vm["games"].as<std::string>(), "--games", 1, kMaxGames));
  checkOptions.seed = parseCount(vm["seed"].as<std::string>(), "--seed", 0, UINT64_MAX);
  const GameInfo& info =
      findById<GameInfo>(gameRegistry(), vm["game"].as<std::string>(), "game", "check-game");
  const ConformanceReport report = checkGame(info, checkOptions);
  printReport(info, checkOptions, report);
  return report.passed() ? kOk : kRuntimeError;
}

}  // namespace ddalab::cli
