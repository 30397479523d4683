#include "experiments/slurm.h"

#include <fstream>
#include <sstream>

#include "results/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

std::string readFileText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Appends every part to `text` (piece by piece: "literal" + std::string trips a false
// -Wrestrict in g++ 12).
template <class... Parts>
void append(std::string& text, const Parts&... parts) {
  ((text += parts), ...);
}

// `text` as one shell word.
std::string quoted(const std::string& text) {
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

std::string quoted(const fs::path& path) {
  return quoted(path.string());
}

// The #SBATCH lines both jobs share.
std::string commonHeader(const SlurmOptions& o, const std::string& job) {
  std::string text = "#!/bin/bash\n";
  append(text, "#SBATCH --job-name=", o.name, "-", job, "\n");
  for (const auto& [value, option] : {std::pair{&o.partition, "partition"},
                                      {&o.account, "account"},
                                      {&o.time, "time"},
                                      {&o.memory, "mem"}})
    if (!value->empty()) append(text, "#SBATCH --", option, "=", *value, "\n");
  return text;
}

std::string pluginOptions(const SlurmOptions& o) {
  std::string text;
  for (const fs::path& plugin : o.plugins) append(text, " --plugin ", quoted(plugin));
  return text;
}

// Refuses what would break a #SBATCH line or a job name.
void checkWord(const std::string& value, const std::string& option) {
  if (value.find_first_of(" \t\n'\"\\#") == std::string::npos) return;
  std::string message = "expected one word without spaces, quotes or '#', got '";
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

}  // namespace

std::string slurmArrayScript(const SlurmOptions& options) {
  const SlurmOptions o = absolute(options);
  std::string text = commonHeader(o, "shards");
  append(text, "#SBATCH --array=0-", std::to_string(o.shards - 1), "\n");
  if (o.cpusPerTask > 0)
    append(text, "#SBATCH --cpus-per-task=", std::to_string(o.cpusPerTask), "\n");
  append(text, "#SBATCH --output=", (o.work / "logs" / "shard-%a.out").string(), "\n");
  append(text, "#SBATCH --requeue\n",
         "# One shard of the batch per array task. A task that was preempted or requeued finds\n",
         "# its folder and resumes from its checkpoints.\n", "set -euo pipefail\n",
         "shard=\"${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array}\"\n");
  append(text, "out=", quoted(o.work / "shards"), "/\"$shard\"\n", "resume=()\n",
         "[ -f \"$out/batch.json\" ] && resume=(--resume)\n");
  append(text, "exec ", quoted(o.ddalab), " run ", quoted(o.work / "batch.json"), pluginOptions(o),
         " --shard \"$shard/", std::to_string(o.shards),
         "\" --threads \"${SLURM_CPUS_PER_TASK:-0}\" --out \"$out\" --quiet \"${resume[@]}\"\n");
  return text;
}

std::string slurmMergeScript(const SlurmOptions& options) {
  const SlurmOptions o = absolute(options);
  std::string text = commonHeader(o, "merge");
  append(text, "#SBATCH --output=", (o.work / "logs" / "merge.out").string(), "\n",
         "# Runs after every shard finished (sbatch --dependency=afterok:<array job>).\n",
         "set -euo pipefail\n", "exec ", quoted(o.ddalab), " merge", pluginOptions(o));
  for (int k = 0; k < o.shards; ++k)
    append(text, " ", quoted(o.work / "shards" / std::to_string(k)));
  append(text, " --out ", quoted(o.out), "\n");
  return text;
}

SlurmJob writeSlurmJob(const Batch& batch, SlurmOptions options) {
  if (options.shards < 1 || options.shards > 100000)
    throw InputError("--shards",
                     "expected 1..100000 array tasks, got " + std::to_string(options.shards));
  checkWord(options.name, "--job-name");
  for (const auto& [value, option] : {std::pair{options.partition, "--partition"},
                                      {options.time, "--time"},
                                      {options.memory, "--mem"},
                                      {options.account, "--account"}})
    checkWord(value, option);
  const SlurmOptions o = absolute(options);
  // Refused now, not after every shard ran: merge would refuse a folder holding results.
  if (fs::exists(o.out) && !fs::is_empty(o.out))
    throw InputError("--out " + o.out.string(),
                     "the folder is not empty; the merge job writes the results there: choose "
                     "another --out or remove it");
  const std::string document = toJson(batch).dump(2) + "\n";
  if (fs::exists(o.work / "batch.json") && readFileText(o.work / "batch.json") != document)
    throw InputError("--work " + o.work.string(),
                     "holds the shards of another batch (see its batch.json); choose another "
                     "--work or remove it");
  fs::create_directories(o.work / "logs");
  fs::create_directories(o.work / "shards");
  SlurmJob job{o.work / "batch.json", o.work / "array.sh", o.work / "merge.sh"};
  writeFileAtomically(job.batch, document);
  writeFileAtomically(job.arrayScript, slurmArrayScript(o));
  writeFileAtomically(job.mergeScript, slurmMergeScript(o));
  for (const fs::path& script : {job.arrayScript, job.mergeScript})
    fs::permissions(script, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return job;
}

}  // namespace ddalab
