// ddalab merge SHARD_DIR... --out DIR: the folders of a sharded run as one run's results.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "experiments/merge.h"

namespace ddalab::cli {

int mergeCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("shards", po::value<std::vector<std::string>>()->required(),
                        "the shard folders (ddalab run --shard K/N --out ...)")(
      "out,o", po::value<std::string>()->required(), "results folder of the whole batch")(
      "overwrite", "replace the results --out holds");
  po::positional_options_description positional;
  positional.add("shards", -1);
  po::variables_map vm;
  if (auto code =
          parseArgs(args, "ddalab merge SHARD_DIR... --out DIR [options]", options, positional, vm))
    return *code;
  std::vector<std::filesystem::path> shards;
  for (const std::string& dir : vm["shards"].as<std::vector<std::string>>()) shards.push_back(dir);
  const std::string out = vm["out"].as<std::string>();
  mergeShards(shards, out, vm.count("overwrite") ? FolderMode::Overwrite : FolderMode::Fresh);
  std::cout << "merged " << shards.size() << " shards into " << out << "\n";
  return kOk;
}

}  // namespace ddalab::cli
