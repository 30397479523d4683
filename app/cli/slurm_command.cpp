// ddalab slurm BATCH --shards N --out DIR: the batch as a Slurm job array and a merge job.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "experiments/plugins.h"
#include "experiments/slurm.h"

namespace ddalab::cli {

namespace {

// What a program printed on its standard output (the first kMaxOutput bytes) and how it ended.
struct Finished {
  std::string output;
  int status = 0;  // as waitpid reports it
};

constexpr size_t kMaxOutput = 64 * 1024;

// Runs `argv` (found on PATH) without a shell, its standard output read through a pipe (its
// errors go where ours go). Throws InputError naming `option` when it cannot be started.
Finished runProgram(const std::vector<std::string>& argv, const std::string& option) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw InputError(option, std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    throw InputError(option, "cannot start " + argv[0] + ": " + std::strerror(spawned) +
                                 " (is Slurm's sbatch on PATH?)");
  }
  Finished finished;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    const size_t room = kMaxOutput - std::min(kMaxOutput, finished.output.size());
    finished.output.append(buffer, std::min(static_cast<size_t>(n), room));  // read on: no block
  }
  ::close(fds[0]);
  while (::waitpid(pid, &finished.status, 0) < 0 && errno == EINTR) {
  }
  return finished;
}

// Submits `script` with `sbatch --parsable [options] script`; returns the job id it prints.
std::string submit(const std::filesystem::path& script, std::vector<std::string> options) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(script.string());
  Finished sbatch = runProgram(argv, "--submit");
  std::string& output = sbatch.output;
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  const std::string id = output.substr(0, output.find(';'));  // "id;cluster" on federations
  const bool exited = WIFEXITED(sbatch.status);
  if (!exited || WEXITSTATUS(sbatch.status) != 0)
    throw InputError("--submit",
                     "sbatch " + script.filename().string() + " failed (" +
                         (exited ? "exit code " + std::to_string(WEXITSTATUS(sbatch.status))
                                 : std::string("killed by a signal")) +
                         "; its message above)");
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("--submit", "sbatch " + script.filename().string() + " printed '" +
                                     textExcerpt(output) + "', expected a job id");
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
    std::cout << "submit them with:\n  id=$(sbatch --parsable "
              << shellWord(job.arrayScript.string()) << ")\n  sbatch --dependency=afterok:$id "
              << shellWord(job.mergeScript.string()) << "\n";
    return kOk;
  }
  const std::string array = submit(job.arrayScript, {});
  std::string merge;
  try {
    merge = submit(job.mergeScript, {"--dependency=afterok:" + array});
  } catch (const InputError& e) {
    throw InputError(e.path(), e.message() + "\nthe array job " + array +
                                   " was submitted: cancel it (scancel " + array +
                                   ") or submit the merge job yourself");
  }
  std::cout << "submitted array job " << array << " and merge job " << merge
            << "\nfollow them with: squeue -j " << array << "," << merge
            << "\nresults: " << std::filesystem::absolute(vm["out"].as<std::string>()).string()
            << " once job " << merge << " has ended (its log: "
            << (job.mergeScript.parent_path() / "logs" / "merge.out").string() << ")\n";
  return kOk;
}

}  // namespace ddalab::cli
