// ddalab merge SHARD_DIR... --out DIR: the folders of a sharded run as one run's results.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "core/json_input.h"
#include "experiments/merge.h"

namespace ddalab::cli {

namespace {

// The shard folders `file` lists, one a line; a relative line is relative to the file's folder
// (ddalab slurm's merge job reads <work>/shards.list: 100,000 folders exceed a command line).
std::vector<std::filesystem::path> listedShards(const std::filesystem::path& file) {
  const std::string text = readInputFile(file, {size_t{64} << 20, "a list of shard folders"});
  std::vector<std::filesystem::path> shards;
  for (size_t start = 0, line = 1; start < text.size(); ++line) {
    const size_t end = std::min(text.find('\n', start), text.size());
    if (end == start)
      throw InputError(file.string() + ":" + std::to_string(line),
                       "expected a shard folder, got an empty line");
    shards.push_back(file.parent_path() / text.substr(start, end - start));
    start = end + 1;
  }
  return shards;
}

}  // namespace

int mergeCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("shards", po::value<std::vector<std::string>>(),
                        "the shard folders (ddalab run --shard K/N --out ...)")(
      "shard-list", po::value<std::string>(),
      "a file naming more shard folders, one a line (relative to the file's folder)")(
      "out,o", po::value<std::string>()->required(), "results folder of the whole batch")(
      "overwrite", "replace the results --out holds");
  po::positional_options_description positional;
  positional.add("shards", -1);
  po::variables_map vm;
  if (auto code =
          parseArgs(args, "ddalab merge (SHARD_DIR... | --shard-list FILE) --out DIR [options]",
                    options, positional, vm))
    return *code;
  std::vector<std::filesystem::path> shards;
  if (vm.count("shards"))
    for (const std::string& dir : vm["shards"].as<std::vector<std::string>>())
      shards.push_back(dir);
  if (vm.count("shard-list"))
    for (auto& dir : listedShards(vm["shard-list"].as<std::string>())) shards.push_back(dir);
  if (shards.empty())
    throw InputError("merge", "expected shard folders or --shard-list FILE, got none");
  const std::string out = vm["out"].as<std::string>();
  const std::optional<std::string> warning =
      mergeShards(shards, out, vm.count("overwrite") ? FolderMode::Overwrite : FolderMode::Fresh);
  std::cout << "merged " << shards.size() << " shards into " << out << "\n";
  printRatingOutcome(out, warning);
  return kOk;
}

}  // namespace ddalab::cli
