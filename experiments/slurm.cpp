#include "experiments/slurm.h"

#include <unistd.h>

#include <algorithm>

#include "core/json_input.h"
#include "core/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

constexpr const char* kShardList = "shards.list";
constexpr size_t kPathExcerpt = 400;  // a path in a message: whole, as paths go

namespace {

// Appends every part to `text` (piece by piece: "literal" + std::string trips a false
// -Wrestrict in g++ 12).
template <class... Parts>
void append(std::string& text, const Parts&... parts) {
  ((text += parts), ...);
}

std::string quoted(const fs::path& path) {
  return shellWord(path.string());
}

// The log file `pattern` (Slurm's %-patterns kept) in the folder `dir` as the value of #SBATCH
// --output: sbatch's directive parser reads a double-quoted word with backslash escapes, and
// Slurm expands %-patterns in the whole name, so a % of `dir` is written %%.
std::string sbatchOutputWord(const std::string& dir, const std::string& pattern) {
  std::string word = "\"";
  for (char c : dir) {
    if (c == '%') {
      word += "%%";
      continue;
    }
    if (c == '"' || c == '\\') word += '\\';
    word += c;
  }
  append(word, "/", pattern, "\"");
  return word;
}

// Why sbatch cannot take `path` in a #SBATCH line ("" when it can). Slurm 22.05, tried on the
// local cluster: sbatch reads its directives line by line, so a newline ends the line and the
// rest becomes a shell command of the job; slurmd drops a backslash from an --output name and
// then expands no %a, so every array task would write one log.
std::string sbatchCannotTake(const std::string& path) {
  if (path.find('\n') != std::string::npos) return "a newline";
  if (path.find('\\') != std::string::npos) return "a backslash ('\\')";
  return "";
}

// The #SBATCH lines both jobs share; `log` is the job's output file in <work>/logs (a pattern).
std::string commonHeader(const SlurmOptions& o, const std::string& job, const std::string& log) {
  std::string text = "#!/bin/bash\n";
  append(text, "#SBATCH --job-name=", o.name, "-", job, "\n");
  for (const auto& [value, option] : {std::pair{&o.partition, "partition"},
                                      {&o.account, "account"},
                                      {&o.time, "time"},
                                      {&o.memory, "mem"}})
    if (!value->empty()) append(text, "#SBATCH --", option, "=", *value, "\n");
  append(text, "#SBATCH --output=", sbatchOutputWord((o.work / "logs").string(), log), "\n");
  return text;
}

std::string pluginOptions(const SlurmOptions& o) {
  std::string text;
  for (const fs::path& plugin : o.plugins) append(text, " --plugin ", quoted(plugin));
  return text;
}

// Refuses what would break a #SBATCH line or a job name.
void checkWord(const std::string& value, const std::string& option) {
  if (value.find_first_of(" \t\n\r'\"\\#") == std::string::npos) return;
  std::string message = "expected one word without spaces, quotes, '#' or '\\', got '";
  append(message, textExcerpt(value), "'");
  throw InputError(option, message);
}

SlurmOptions absolute(SlurmOptions o) {
  o.out = fs::absolute(o.out);
  o.work = fs::absolute(o.work.empty() ? fs::path(o.out.string() + ".slurm") : o.work);
  o.ddalab = fs::absolute(o.ddalab);
  for (fs::path& plugin : o.plugins) plugin = fs::absolute(plugin);
  return o;
}

// "--work PATH" for a message.
std::string named(const std::string& option, const fs::path& path) {
  return option + " " + textExcerpt(path.string(), kPathExcerpt);
}

// Whether `inner` is `outer` or inside it (symbolic links resolved).
bool within(const fs::path& inner, const fs::path& outer) {
  const fs::path a = fs::weakly_canonical(inner), b = fs::weakly_canonical(outer);
  return std::mismatch(b.begin(), b.end(), a.begin(), a.end()).first == b.end();
}

bool present(const fs::path& path) {
  return fs::symlink_status(path).type() != fs::file_type::not_found;
}

void checkScheduling(const SlurmOptions& o) {
  if (o.shards < 1 || o.shards > 100000)
    throw InputError("--shards", "expected 1..100000 array tasks, got " + std::to_string(o.shards));
  if (o.cpusPerTask < 0)
    throw InputError("--cpus-per-task",
                     "expected a number of CPUs >= 1 (or 0: the cluster's default), got " +
                         std::to_string(o.cpusPerTask));
  checkWord(o.name, "--job-name");
  for (const auto& [value, option] : {std::pair{o.partition, "--partition"},
                                      {o.time, "--time"},
                                      {o.memory, "--mem"},
                                      {o.account, "--account"}})
    checkWord(value, option);
}

// --out and the work folder: both usable, apart, and the work folder nameable by sbatch.
// `workOption` is the option the work folder came from (--out when it is <out>.slurm).
void checkFolders(const SlurmOptions& o, const std::string& workOption) {
  if (const std::string what = sbatchCannotTake(o.work.string()); !what.empty())
    throw InputError(named(workOption, o.work),
                     "the path holds " + what +
                         ", which sbatch cannot take in the #SBATCH "
                         "--output line naming the jobs' logs in the work folder; choose another " +
                         (workOption == "--out" ? "--out or give --work" : workOption));
  for (const auto& [path, option] : {std::pair{o.out, std::string("--out")}, {o.work, workOption}})
    if (present(path) && !fs::is_directory(path))
      throw InputError(named(option, path),
                       "exists and is not a folder; expected a folder or "
                       "a path that does not exist yet");
  if (within(o.out, o.work) || within(o.work, o.out))
    throw InputError(named(workOption, o.work),
                     "is --out " + textExcerpt(o.out.string(), kPathExcerpt) +
                         " or inside it, or holds it: the merge job writes the results into "
                         "--out, the shards live in --work; give two separate folders");
  // Refused now, not after every shard ran: merge would refuse a folder holding results.
  if (fs::exists(o.out) && !fs::is_empty(o.out))
    throw InputError(named("--out", o.out),
                     "the folder is not empty; the merge job writes the results there: choose "
                     "another --out or remove it");
}

// Every array task and the merge job run `o.ddalab`: a missing one would fail every task.
void checkExecutable(const fs::path& ddalab) {
  std::string got;
  if (!fs::exists(ddalab))
    got = "nothing is there";
  else if (!fs::is_regular_file(ddalab))
    got = "not a regular file";
  else if (::access(ddalab.c_str(), X_OK) != 0)
    got = "a file this user may not execute";
  if (!got.empty())
    throw InputError(named("--ddalab", ddalab),
                     "expected the ddalab executable every task runs, got " + got);
}

// The shard folders, one a line relative to the work folder (what `ddalab merge --shard-list`
// reads).
std::string shardListText(int shards) {
  std::string text;
  for (int k = 0; k < shards; ++k) append(text, "shards/", std::to_string(k), "\n");
  return text;
}

// A work folder written before holds this batch's shards for this shard count, or nothing.
void checkReusedWork(const SlurmOptions& o, const std::string& document) {
  if (!fs::exists(o.work)) return;
  const fs::path list = o.work / kShardList, batchFile = o.work / "batch.json";
  if (!present(list) && !present(batchFile)) {
    if (!fs::is_empty(o.work))
      throw InputError(named("--work", o.work),
                       "the folder holds other files and no shards.list of ddalab slurm; "
                       "choose a new or empty folder");
    return;
  }
  const InputFileKind listKind{size_t{64} << 20, "the shard list of a ddalab slurm work folder"};
  const InputFileKind batchKind{size_t{256} << 20, "the batch of a ddalab slurm work folder"};
  if (present(batchFile) && readInputFile(batchFile, batchKind) != document)
    throw InputError(named("--work", o.work),
                     "holds the shards of another batch (see its batch.json); choose another "
                     "--work or remove it");
  if (!present(list))
    throw InputError(named("--work", o.work),
                     "holds a batch.json but no shards.list (an older ddalab slurm's work "
                     "folder): its shard count is unknown; choose another --work or remove it");
  const std::string held = readInputFile(list, listKind);
  if (held != shardListText(o.shards))
    throw InputError(named("--work", o.work),
                     "was written for " +
                         std::to_string(std::count(held.begin(), held.end(), '\n')) +
                         " shards (its shards.list), not --shards " + std::to_string(o.shards) +
                         ": its shards cannot be resumed as these; choose another --work or "
                         "remove it");
}

// The files writeSlurmJob replaces must be regular files (never a device, FIFO or link).
void checkTargets(const SlurmJob& job) {
  for (const fs::path& file : {job.shardList, job.batch, job.arrayScript, job.mergeScript})
    if (present(file) && (fs::is_symlink(file) || !fs::is_regular_file(file)))
      throw InputError(named("--work", file.parent_path()),
                       "its " + file.filename().string() +
                           " is not a regular file; choose another --work or remove it");
}

}  // namespace

std::string shellWord(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string slurmArrayScript(const SlurmOptions& options) {
  const SlurmOptions o = absolute(options);
  std::string text = commonHeader(o, "shards", "shard-%a.out");
  append(text, "#SBATCH --array=0-", std::to_string(o.shards - 1), "\n");
  if (o.cpusPerTask > 0)
    append(text, "#SBATCH --cpus-per-task=", std::to_string(o.cpusPerTask), "\n");
  append(text, "#SBATCH --requeue\n",
         "# One shard of the batch per array task. A task that was preempted or requeued finds\n",
         "# its folder and resumes from its checkpoints.\n", "set -euo pipefail\n",
         "shard=\"${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array}\"\n");
  // A plain word, not an array: bash <= 4.3 calls an empty array unbound under set -u.
  append(text, "out=", quoted(o.work / "shards"), "/\"$shard\"\n", "resume=\n",
         "if [ -f \"$out/batch.json\" ]; then resume=--resume; fi\n");
  append(text, "exec ", quoted(o.ddalab), " run ", quoted(o.work / "batch.json"), pluginOptions(o),
         " --shard \"$shard/", std::to_string(o.shards),
         "\" --threads \"${SLURM_CPUS_PER_TASK:-0}\" --out \"$out\" --quiet $resume\n");
  return text;
}

std::string slurmMergeScript(const SlurmOptions& options) {
  const SlurmOptions o = absolute(options);
  std::string text = commonHeader(o, "merge", "merge.out");
  append(text, "# Runs after every shard finished (sbatch --dependency=afterok:<array job>).\n",
         "set -euo pipefail\n", "exec ", quoted(o.ddalab), " merge", pluginOptions(o),
         " --shard-list ", quoted(o.work / kShardList), " --out ", quoted(o.out), "\n");
  return text;
}

SlurmJob writeSlurmJob(const Batch& batch, SlurmOptions options) {
  checkScheduling(options);
  const SlurmOptions o = absolute(options);
  checkFolders(o, options.work.empty() ? "--out" : "--work");
  checkExecutable(o.ddalab);
  const std::string document = toJson(batch).dump(2) + "\n";
  checkReusedWork(o, document);
  SlurmJob job{o.work / "batch.json", o.work / "array.sh", o.work / "merge.sh",
               o.work / kShardList};
  checkTargets(job);
  // The list first: a work folder holding batch.json always says its shard count.
  fs::create_directories(o.work);
  writeFileAtomically(job.shardList, shardListText(o.shards));
  writeFileAtomically(job.batch, document);
  fs::create_directories(o.work / "logs");
  fs::create_directories(o.work / "shards");
  writeFileAtomically(job.arrayScript, slurmArrayScript(o));
  writeFileAtomically(job.mergeScript, slurmMergeScript(o));
  for (const fs::path& script : {job.arrayScript, job.mergeScript})
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return job;
}

}  // namespace ddalab
