#pragma once
// A batch as a Slurm job array (`ddalab slurm`): one array task per shard (`ddalab run
// --shard $SLURM_ARRAY_TASK_ID/N`, resuming its checkpoints when preempted or requeued) and a
// merge job that waits for the array (`--dependency=afterok`) and writes the results folder
// exactly as `ddalab run --out` would. Everything else lives in a work folder beside it: the
// batch as run (overrides and sweeps applied), the two scripts, the list of the shards' folders
// (the merge job reads it: a command line naming 100,000 folders would exceed the kernel's
// argument limit), the shards' folders, the logs. Every path is quoted in the scripts (a single
// shell word in the commands, a double-quoted sbatch word with % doubled in #SBATCH --output);
// a path sbatch cannot take there (a newline, a backslash) is refused.
#include <filesystem>
#include <string>
#include <vector>

#include "experiments/batch.h"

namespace ddalab {

struct SlurmOptions {
  int shards = 1;
  std::filesystem::path out;     // the merged results
  std::filesystem::path work;    // scripts, batch.json, shards/, logs/ (default <out>.slurm)
  std::filesystem::path ddalab;  // the ddalab the nodes run (absolute)
  std::vector<std::filesystem::path> plugins;    // passed on to every task (--plugin)
  std::string partition, time, memory, account;  // empty: the cluster's defaults
  int cpusPerTask = 0;                           // 0: the cluster's default
  std::string name = "ddalab";                   // the jobs' name
};

struct SlurmJob {
  std::filesystem::path batch, arrayScript, mergeScript, shardList;
};

// `text` as one word for a POSIX shell (single quotes, a ' written as '\'').
std::string shellWord(const std::string& text);

// The array task script and the merge script of `options` (text; paths made absolute first).
std::string slurmArrayScript(const SlurmOptions& options);
std::string slurmMergeScript(const SlurmOptions& options);

// Writes <work>/shards.list, <work>/batch.json (toJson(batch): what every task runs) and the two
// scripts. Before writing anything it throws InputError, naming the option and the path, for
// options Slurm would refuse (shards 1..100000, cpus per task < 0, a name with spaces, ...), a work
// folder sbatch cannot name (a newline or a backslash in its path), an `out` that is a file or a
// non-empty folder, `out` and the work folder the same or one inside the other, a `ddalab` that is
// not an executable file, and a work folder holding other files, another batch's shards or the
// shards of another shard count (the same batch's are kept: submitted again, its tasks resume
// them).
SlurmJob writeSlurmJob(const Batch& batch, SlurmOptions options);

}  // namespace ddalab
