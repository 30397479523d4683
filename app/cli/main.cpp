// ddalab: the command-line front end (app.md "CLI").
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/version/version.h"
#include "core/params.h"
#include "experiments/plugins.h"

namespace {

constexpr const char* kUsage = R"(ddalab - dynamic difficulty adjustment testbed

usage: ddalab <command> [options]     (ddalab <command> --help for its options)

commands:
  run BATCH.json     run a batch of experiments; tables on stdout, CSVs in --out
  rate FILE|DIR      run a tournament or balance run and print its ratings (or a folder's)
  list [WHAT]        list games, players or metrics with their parameters
  validate FILE...   check experiment/batch files without running them
  score DIR          recompute the comparison tables from a results folder
  bench              deterministic benchmark: games/s and a behaviour signature
  sweep expand FILE  the batch a swept file stands for (one experiment per grid point)
  merge SHARD_DIR... the folders of run --shard K/N as one run's results (--out DIR)
  slurm BATCH.json   a Slurm job array of shards and a merge job (--shards N --out DIR)
  study ACTION ...   user studies: validate PROTOCOL, analyze SESSION_DIR..., simulate PROTOCOL
  serve PROTOCOL     an online study: participants play in their browser (--dir STUDY_DIR)
  check-game GAME    the conformance checks on one game, a plug-in's too; exit 1 if one fails

  --version          the version of ddalab

every command:
  --plugin FILE      load a plug-in (games, players, metrics) first; repeatable. DDALAB_PLUGIN_PATH
                     (files or folders of *.so, separated by ':') is loaded before them
)";

// Takes every "--plugin FILE" / "--plugin=FILE" out of `args`; returns the files.
std::vector<std::string> takePluginOptions(std::vector<std::string>& args) {
  std::vector<std::string> files, rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--plugin" && i + 1 == args.size())
      throw ddalab::InputError("--plugin", "expected a plug-in file after it");
    if (args[i] == "--plugin")
      files.push_back(args[++i]);
    else if (args[i].starts_with("--plugin="))
      files.push_back(args[i].substr(9));
    else
      rest.push_back(args[i]);
  }
  args = std::move(rest);
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ddalab::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << kUsage;
    return argc < 2 ? kBadInput : kOk;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "ddalab " << ddalab::app::buildDescription() << "\n";
    return kOk;
  }
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported like a full disk
  // (the file, the reason, exit 1; finished games stay checkpointed) instead of killing ddalab.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::string command = argv[1];
  Args args(argv + 2, argv + argc);
  try {
    ddalab::loadPlugins(takePluginOptions(args));
    if (command == "run") return runCommand(args);
    if (command == "rate") return rateCommand(args);
    if (command == "list") return listCommand(args);
    if (command == "validate") return validateCommand(args);
    if (command == "score") return scoreCommand(args);
    if (command == "bench") return benchCommand(args);
    if (command == "sweep") return sweepCommand(args);
    if (command == "merge") return mergeCommand(args);
    if (command == "slurm") return slurmCommand(args);
    if (command == "study") return studyCommand(args);
    if (command == "check-game") return checkGameCommand(args);
    if (command == "serve") return serveCommand(args);
    std::cerr << "ddalab: unknown command '" << command
              << "'; valid: run, rate, list, validate, score, bench, sweep, merge, slurm, study, "
                 "check-game, "
                 "serve\n";
    return kBadInput;
  } catch (const ddalab::InputError& e) {
    std::cerr << "ddalab " << command << ": error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "ddalab " << command << ": error: " << e.what() << "\n";
    return kRuntimeError;
  }
}
