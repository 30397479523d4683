#pragma once
// Boost.Program_options glue shared by the subcommands.
#include <boost/program_options.hpp>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>

#include "app/cli/commands.h"
#include "experiments/batch.h"
#include "experiments/run_service.h"

namespace ddalab::cli {

namespace po = boost::program_options;

// Parses `args` against `options` (+ positional names); prints help and returns the exit code
// when the command should stop here (--help: 0, bad usage: 2).
inline std::optional<int> parseArgs(const Args& args, const std::string& usage,
                                    po::options_description& options,
                                    const po::positional_options_description& positional,
                                    po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {  // before notify: --help needs no required argument
      std::cout << "usage: " << usage << "\n" << options;
      return kOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "error: " << e.what() << "\n\nusage: " << usage << "\n" << options;
    return kBadInput;
  }
  return std::nullopt;
}

// The axes of every --vary PATH=v1,v2,... option (sweep_command.cpp); throws InputError.
std::vector<SweepAxis> varyAxes(const po::variables_map& vm);

// A whole decimal number in [min, max] given as option `name` (run_command.cpp); throws
// InputError naming the option otherwise.
uint64_t parseCount(const std::string& text, const std::string& name, uint64_t min, uint64_t max);

// A tournament's or balance run's tables of the results folder `dir` on stdout, and `warning`
// (a fit without a maximum: experiments/rating_results.h) on stderr with how to rate the kept
// games (run_command.cpp). Such a run exits 0: its games are complete and written.
void printRatingOutcome(const std::filesystem::path& dir,
                        const std::optional<std::string>& warning);

// Prints a finished (or stopped) run's tables.
using PrintRun = std::function<void(const RunOutcome&, const RunRequest&)>;

// Runs the batch of `vm` (options as `ddalab run` parses them: "batch", "threads", "out",
// "resume", ...) through the run service with progress and stop signals, then `print`; a stopped
// run says how to continue with `ddalab <command>`. Returns the exit code (run_command.cpp).
int runBatch(const po::variables_map& vm, const std::string& command, const PrintRun& print);

// Applies --iterations and --seed, when given, to `batch` (run_command.cpp); throws InputError.
void applyOverrides(Batch& batch, const po::variables_map& vm);

}  // namespace ddalab::cli
