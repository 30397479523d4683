// ddalab: the command-line front end (app.md "CLI").
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>

#include "app/cli/commands.h"
#include "core/params.h"

namespace {

constexpr const char* kUsage = R"(ddalab - dynamic difficulty adjustment testbed

usage: ddalab <command> [options]     (ddalab <command> --help for its options)

commands:
  run BATCH.json     run a batch of experiments; tables on stdout, CSVs in --out
  list [WHAT]        list games, players or metrics with their parameters
  validate FILE...   check experiment/batch files without running them
  score DIR          recompute the comparison tables from a results folder
  bench              deterministic benchmark: games/s and a behaviour signature

  --version          the version of ddalab
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace ddalab::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << kUsage;
    return argc < 2 ? kBadInput : kOk;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "ddalab " << DDALAB_VERSION << "\n";
    return kOk;
  }
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported like a full disk
  // (the file, the reason, exit 1; finished games stay checkpointed) instead of killing ddalab.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string command = argv[1];
  const Args args(argv + 2, argv + argc);
  try {
    if (command == "run") return runCommand(args);
    if (command == "list") return listCommand(args);
    if (command == "validate") return validateCommand(args);
    if (command == "score") return scoreCommand(args);
    if (command == "bench") return benchCommand(args);
    std::cerr << "ddalab: unknown command '" << command
              << "'; valid: run, list, validate, score, bench\n";
    return kBadInput;
  } catch (const ddalab::InputError& e) {
    std::cerr << "ddalab " << command << ": error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "ddalab " << command << ": error: " << e.what() << "\n";
    return kRuntimeError;
  }
}
