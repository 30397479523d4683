// ddalab sweep expand FILE: the batch a swept file stands for, every grid point an experiment.
#include <filesystem>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "experiments/batch.h"
#include "core/file_io.h"

namespace ddalab::cli {

std::vector<SweepAxis> varyAxes(const po::variables_map& vm) {
  std::vector<SweepAxis> axes;
  if (vm.count("vary"))
    for (const std::string& text : vm["vary"].as<std::vector<std::string>>())
      axes.push_back(parseVary(text));
  return axes;
}

namespace {

// Throws unless `out` is another file than `input`: writing it would replace the sweep's source.
// Compared by file identity (device and inode), so another spelling or a hard link is caught.
void checkOutputIsNotInput(const std::filesystem::path& out, const std::filesystem::path& input) {
  std::error_code error;
  if (std::filesystem::equivalent(out, input, error))
    throw InputError("--out", "'" + out.string() + "' is the input file '" + input.string() +
                                  "'; expected another file (the expansion would replace its "
                                  "source)");
}

}  // namespace

int sweepCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("action", po::value<std::string>()->required(), "expand")(
      "file", po::value<std::string>()->required(), "batch or experiment file")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "PATH=v1,v2,...: one more axis for every experiment (repeatable)")(
      "out,o", po::value<std::string>(), "write the expanded batch here instead of stdout");
  po::positional_options_description positional;
  positional.add("action", 1).add("file", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab sweep expand FILE [options]", options, positional, vm))
    return *code;
  if (vm["action"].as<std::string>() != "expand")
    throw InputError("ddalab sweep",
                     "unknown action '" + vm["action"].as<std::string>() + "'; expected expand");
  if (vm.count("out"))
    checkOutputIsNotInput(vm["out"].as<std::string>(), vm["file"].as<std::string>());
  const std::vector<SweepAxis> vary = varyAxes(vm);
  const Batch batch = loadBatch(vm["file"].as<std::string>(), vary);
  const std::string text = toJson(batch).dump(2) + "\n";
  if (!vm.count("out")) {
    std::cout << text;
    return kOk;
  }
  OutputFile out(vm["out"].as<std::string>());
  out.write(text);
  out.commit();
  std::cerr << "wrote " << vm["out"].as<std::string>() << " (" << batch.experiments.size()
            << " experiments, " << plannedGames(batch) << " games)\n";
  return kOk;
}

}  // namespace ddalab::cli
