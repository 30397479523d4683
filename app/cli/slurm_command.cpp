// ddalab slurm BATCH --shards N --out DIR: the batch as a Slurm job array and a merge job.
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "experiments/plugins.h"
#include "experiments/slurm.h"

namespace ddalab::cli {

namespace {

// Submits `script` with sbatch (and `extra` options); returns the job id it prints.
std::string submit(const std::filesystem::path& script, const std::string& extra) {
  const std::string command = "sbatch --parsable " + extra + " '" + script.string() + "' 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) throw InputError("--submit", "cannot run sbatch");
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe.get())) output += buffer;
  const int status = ::pclose(pipe.release());
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  const std::string id = output.substr(0, output.find(';'));  // "id;cluster" on federations
  if (status != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("--submit", "sbatch " + script.filename().string() + " failed: " + output);
  return id;
}

SlurmOptions slurmOptions(const po::variables_map& vm) {
  SlurmOptions o;
  o.shards = vm["shards"].as<int>();
  o.out = vm["out"].as<std::string>();
  if (vm.count("work")) o.work = vm["work"].as<std::string>();
  o.ddalab = vm.count("ddalab") ? std::filesystem::path(vm["ddalab"].as<std::string>())
                                : std::filesystem::read_symlink("/proc/self/exe");
  for (const LoadedPlugin& plugin : loadedPlugins()) o.plugins.push_back(plugin.file);
  for (const auto& [field, key] : {std::pair{&o.partition, "partition"},
                                   {&o.time, "time"},
                                   {&o.memory, "mem"},
                                   {&o.account, "account"},
                                   {&o.name, "job-name"}})
    if (vm.count(key)) *field = vm[key].as<std::string>();
  o.cpusPerTask = vm["cpus-per-task"].as<int>();
  return o;
}

}  // namespace

int slurmCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("batch", po::value<std::string>()->required(), "batch or experiment file")(
      "shards", po::value<int>()->required(), "array tasks (shards of every experiment)")(
      "out,o", po::value<std::string>()->required(), "where the merge job writes the results")(
      "work", po::value<std::string>(), "scripts, shards and logs (default <out>.slurm)")(
      "partition", po::value<std::string>(), "#SBATCH --partition")(
      "time", po::value<std::string>(), "#SBATCH --time of each job (e.g. 02:00:00)")(
      "cpus-per-task", po::value<int>()->default_value(0),
      "#SBATCH --cpus-per-task; each task runs that many threads (0: the cluster's default)")(
      "mem", po::value<std::string>(), "#SBATCH --mem")("account", po::value<std::string>(),
                                                        "#SBATCH --account")(
      "job-name", po::value<std::string>(), "prefix of the jobs' names (default ddalab)")(
      "ddalab", po::value<std::string>(), "the ddalab the nodes run (default this one)")(
      "iterations,n", po::value<std::string>(), "games per experiment (overrides the file)")(
      "seed,s", po::value<std::string>(), "master seed (overrides the file)")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "PATH=v1,v2,...: sweep one more axis in every experiment (repeatable)")(
      "submit", "submit the array and the merge job (sbatch) instead of printing how");
  po::positional_options_description positional;
  positional.add("batch", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab slurm BATCH.json --shards N --out DIR [options]", options,
                            positional, vm))
    return *code;
  Batch batch = loadBatch(vm["batch"].as<std::string>(), varyAxes(vm));
  applyOverrides(batch, vm);
  checkShardable(batch, vm["shards"].as<int>(), "--shards");
  const SlurmJob job = writeSlurmJob(batch, slurmOptions(vm));
  std::cout << "wrote " << job.arrayScript.string() << " (" << vm["shards"].as<int>()
            << " array tasks, " << plannedGames(batch) << " games) and " << job.mergeScript.string()
            << "\n";
  if (!vm.count("submit")) {
    std::cout << "submit them with:\n  id=$(sbatch --parsable " << job.arrayScript.string()
              << ")\n  sbatch --dependency=afterok:$id " << job.mergeScript.string() << "\n";
    return kOk;
  }
  const std::string array = submit(job.arrayScript, "");
  const std::string merge = submit(job.mergeScript, "--dependency=afterok:" + array);
  std::cout << "submitted array job " << array << " and merge job " << merge
            << "\nfollow them with: squeue -j " << array << "," << merge
            << "\nresults: " << std::filesystem::absolute(vm["out"].as<std::string>()).string()
            << " once job " << merge << " has ended (its log: "
            << (job.mergeScript.parent_path() / "logs" / "merge.out").string() << ")\n";
  return kOk;
}

}  // namespace ddalab::cli
