#include "experiments/merge.h"

#include <stdio.h>  // renameat2

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "experiments/journal.h"
#include "core/json_input.h"
#include "experiments/runner.h"
#include "experiments/rating_results.h"
#include "experiments/sweep_results.h"
#include "core/sha256.h"
#include "core/file_io.h"
#include "results/aggregate.h"
#include "results/folder_analysis.h"
#include "results/results_reader.h"
#include "results/results_writer.h"
#include "results/significance.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kWorkSuffix = ".ddalab-merge";  // the folder a merge writes before the rename

// One shard folder: its batch.json, checked field by field.
struct ShardFolder {
  fs::path dir;
  Json document;  // its batch.json
  Batch batch;    // the shard's batch (batch.shard set)
  ShardRecord record;
};

// The shard in `dir`, every field of its batch.json checked (InputError naming the file, the JSON
// path and what was expected) and finished.
ShardFolder readShard(const fs::path& dir) {
  const fs::path file = dir / "batch.json";
  std::error_code error;
  if (!fs::exists(fs::symlink_status(file, error)))
    throw InputError(dir.string(), "no batch.json: not the results folder of a shard");
  ShardFolder s{dir, parseJsonText(readInputFile(file, {kMaxBatchFileBytes, "a shard's batch.json"}),
                                   file.string()),
                {}, {}};
  s.batch = parseBatch(s.document, file.string());  // every field, the shard record's too
  if (!s.batch.shard)
    throw InputError(dir.string(),
                     "holds the results of a whole batch, not of a shard (its "
                     "batch.json has no \"shard\"); merge the folders of "
                     "ddalab run --shard K/N");
  s.record = parseShardRecord(s.document.at("shard"));
  const std::string part =
      std::to_string(s.record.shard.index) + "/" + std::to_string(s.record.shard.count);
  if (holdsUnfinishedRun(dir) || !fs::exists(dir / ".ddalab"))
    throw InputError(dir.string(), "shard " + part + " is unfinished; finish it first: ddalab run " +
                                       file.string() + " --out " + dir.string() + " --resume");
  return s;
}

// Why the plug-ins `s` ran with differ from those of `first` (by name and sha256); "" if not.
std::string changedPlugin(const ShardFolder& first, const ShardFolder& s) {
  const Json none = Json::array();
  for (const Json& a : first.document.value("plugins", none))
    for (const Json& b : s.document.value("plugins", none))
      if (a.value("name", "") == b.value("name", "") &&
          a.value("sha256", "") != b.value("sha256", ""))
        return "ran plug-in '" + a.value("name", std::string()) + "' with sha256 " +
               b.value("sha256", std::string()).substr(0, 16) + "..., " + first.dir.string() +
               " with " + a.value("sha256", std::string()).substr(0, 16) +
               "...; merge shards of one plug-in build (run the changed shards again)";
  return "";
}

// The shards in index order, each of the same batch (matching the checksum it records), version
// and plug-in builds, each index once.
std::vector<ShardFolder> checkedShards(std::span<const fs::path> dirs) {
  if (dirs.empty()) throw InputError("ddalab merge", "expected the folders of the shards");
  std::vector<ShardFolder> shards;
  for (const fs::path& dir : dirs) shards.push_back(readShard(dir));
  const ShardFolder& first = shards.front();
  const ShardRecord& expected = first.record;
  const int count = expected.shard.count;  // at most 100000 (parseShardRecord)
  std::vector<const ShardFolder*> byIndex(static_cast<size_t>(count), nullptr);
  for (const ShardFolder& s : shards) {
    const std::string where = s.dir.string();
    if (s.record.ddalab != expected.ddalab)
      throw InputError(where, "was written by ddalab " + s.record.ddalab + ", " +
                                  first.dir.string() + " by ddalab " + expected.ddalab +
                                  "; merge shards of one ddalab version");
    if (const std::string why = changedPlugin(first, s); !why.empty()) throw InputError(where, why);
    if (batchChecksum(s.batch) != s.record.batchSha256)
      throw InputError((s.dir / "batch.json").string() + ": $.shard.batch_sha256",
                       "does not match the batch the file holds: was it edited, or run with "
                       "other builds of its plug-ins than those loaded?");
    if (s.record.shard.count != count || s.record.batchSha256 != expected.batchSha256)
      throw InputError(where, "holds a shard of another batch than " + first.dir.string() +
                                  " (batch sha256 " + s.record.batchSha256.substr(0, 16) +
                                  "..., " + std::to_string(s.record.shard.count) + " shards; " +
                                  expected.batchSha256.substr(0, 16) + "..., " +
                                  std::to_string(count) + " shards)");
    const auto index = static_cast<size_t>(s.record.shard.index);
    if (byIndex[index])
      throw InputError(where, "holds shard " + std::to_string(index) + "/" + std::to_string(count) +
                                  " like " + byIndex[index]->dir.string() +
                                  "; give each shard once");
    byIndex[index] = &s;
  }
  for (size_t k = 0; k < byIndex.size(); ++k)
    if (!byIndex[k])
      throw InputError("ddalab merge", "shard " + std::to_string(k) + "/" + std::to_string(count) +
                                           " is missing (" + std::to_string(shards.size()) +
                                           " of " + std::to_string(count) + " folders given)");
  std::vector<ShardFolder> ordered;
  for (const ShardFolder* s : byIndex) ordered.push_back(*s);
  return ordered;
}

// Refuses writing `target` (--out, or the work folder beside it) when it is a shard, inside one
// or holds one: a merge never writes onto what it reads.
void checkNotAnInput(std::span<const ShardFolder> shards, const fs::path& target,
                     const std::string& option) {
  for (const ShardFolder& s : shards) {
    if (isWithin(target, s.dir))
      throw InputError(option + " " + target.string(),
                       "is the shard folder " + s.dir.string() +
                           " or inside it: the merge would write onto its input; choose "
                           "another --out");
    if (isWithin(s.dir, target))
      throw InputError(option + " " + target.string(),
                       "holds the shard folder " + s.dir.string() +
                           ": the merge would replace its input; choose another --out");
  }
}

// `out` as an absolute path naming the folder itself ("a/b/" and "a/./b" are "a/b"; a symbolic
// link the folder it names).
fs::path targetFolder(const fs::path& out) {
  if (out.empty()) throw InputError("--out", "expected a folder to write the results into");
  fs::path target = fs::absolute(out).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();
  std::error_code error;
  // A symbolic link to a folder means that folder: the merge replaces the folder, not the link.
  if (fs::is_symlink(fs::symlink_status(target, error))) {
    target = fs::canonical(target, error);
    if (error || !fs::is_directory(target))
      throw InputError("--out " + out.string(),
                       "is a symbolic link to no folder; give the path of a folder");
  }
  if (!target.has_filename() || target == target.root_path())
    throw InputError("--out " + out.string(), "expected a folder to write the results into");
  return target;
}

// The folder beside `target` a merge writes into before it renames it to `target`.
fs::path workFolderOf(const fs::path& target) {
  std::string name = ".";  // built piece by piece: "." + std::string trips g++ 12's -Wrestrict
  name += target.filename().string();
  name += kWorkSuffix;
  return target.parent_path() / name;
}

// A games CSV row by its digest: what a shard's checkpoint says the row holds.
struct CheckpointRow {
  uint64_t seed = 0;
  std::string digest;  // sha256 of the row as gamesCsvRow writes it
};

// The rows the checkpoint of `experiment` (number `index` of the shard's batch) says the shard's
// games CSV holds; refused when the checkpoint is missing, of another experiment or short.
std::vector<CheckpointRow> checkpointRows(const ShardFolder& s, size_t index,
                                          const IterationRange& range) {
  const Experiment& experiment = s.batch.experiments[index];
  const fs::path file = journalFile(s.dir, experiment);
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(file, error)))
    throw InputError(file.string(), "missing: the shard's checkpoint of '" + experiment.name +
                                        "' is how merge checks its games CSV (a shard run by an "
                                        "older ddalab drops it); run the shard again");
  std::vector<CheckpointRow> rows;
  rows.reserve(range.size());
  const size_t seats = experiment.players.size();
  JournalScan scan;
  try {
    scan = readJournalFrom(file, playIdentity(s.batch, index), range.begin,
                           [&](JournalEntry&& entry) {
                             rows.push_back({entry.record.seed,
                                             sha256Hex(gamesCsvRow(entry.record, seats))});
                           });
  } catch (const InputError&) {
    throw InputError(file.string(), "is not the checkpoint of '" + experiment.name +
                                        "': were the shard's files renamed or swapped?");
  }
  if (scan.entries != range.size())
    throw InputError(file.string(), "holds " + std::to_string(scan.entries) + " of the " +
                                        std::to_string(range.size()) + " games of '" +
                                        experiment.name + "' the shard plays; run it again");
  return rows;
}

// One experiment's games from every shard, in iteration order, into `out`; its summary. Each
// shard's games CSV is checked row by row against the shard's checkpoint.
ExperimentSummary mergeExperiment(const std::vector<ShardFolder>& shards, size_t index,
                                  const fs::path& out) {
  const Experiment& experiment = shards.front().batch.experiments[index];
  const ExperimentLabel label = labelOf(experiment);
  GamesCsvWriter games(out, label);
  SummaryBuilder summary(label);
  for (const ShardFolder& s : shards) {
    const IterationRange range = iterationsOf(s.batch, experiment);
    const std::vector<CheckpointRow> expected = checkpointRows(s, index, range);
    const std::string csv = (s.dir / (fileStem(experiment.name) + ".games.csv")).string();
    size_t row = 0;
    const size_t read = readExperimentGames(s.dir, label, [&](const GameRecord& record) {
      const std::string where = csv + ": line " + std::to_string(row + 2);  // after the header
      if (record.iteration != range.begin + row || row >= expected.size())
        throw InputError(where, "game " + std::to_string(record.iteration) + " where the shard's " +
                                    (row < expected.size()
                                         ? "game " + std::to_string(range.begin + row) + " belongs"
                                         : std::to_string(range.size()) + " games end"));
      if (record.seed != expected[row].seed)
        throw InputError(where, "game " + std::to_string(record.iteration) + " has seed " +
                                    std::to_string(record.seed) + ", the shard's checkpoint " +
                                    std::to_string(expected[row].seed) +
                                    ": the file holds another experiment's games or was edited");
      if (sha256Hex(gamesCsvRow(record, experiment.players.size())) != expected[row].digest)
        throw InputError(where, "game " + std::to_string(record.iteration) +
                                    " differs from the game the shard's checkpoint records: the "
                                    "file was edited or holds another experiment's games");
      games.add(record);
      summary.add(record);
      ++row;
    });
    if (read != range.size())
      throw InputError(csv, experiment.name + ": " + std::to_string(read) +
                                " games, the shard plays " + std::to_string(range.size()));
  }
  games.commit();
  const ExperimentSummary result = summary.summary();
  writeSummaryCsv(out, result);
  return result;
}

// Removes what `work` holds but its lock file (held by this process: no other merge reuses the
// folder meanwhile).
void clearWorkFolder(const fs::path& work) {
  std::error_code ignored;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(work, ignored))
    if (entry.path().filename() != ".ddalab.lock") entries.push_back(entry.path());
  for (const fs::path& entry : entries) fs::remove_all(entry, ignored);
}

// Writes the merged results of `shards` into the folder `work` (locked meanwhile; a stale one a
// killed merge left is reused, its results cleared). A refused merge leaves the folder empty.
// Returns the warning of a tournament whose ratings could not be fitted.
std::optional<std::string> writeMerge(const std::vector<ShardFolder>& shards, const Batch& batch,
                                      const fs::path& work) {
  OutputFolder folder(work, batch, FolderMode::Overwrite, std::nullopt, {});
  try {
    std::vector<ExperimentSummary> summaries;
    for (size_t i = 0; i < batch.experiments.size(); ++i)
      summaries.push_back(mergeExperiment(shards, i, work));
    writeBatchCsvs(work, summaries);
    const std::vector<ComparisonAnalysis> analyses = analyzeResultsDir(work, summaries);
    writeAnalysisCsvs(work, analyses);
    writeSweepResults(work, batch, summaries, analyses);
    std::optional<std::string> warning = writeRatingResults(work, batch, summaries);
    folder.markComplete();
    return warning;
  } catch (...) {
    clearWorkFolder(work);
    throw;
  }
}

// On a file system without exchange (NFS, say): `target` moved aside, then `work` renamed to
// it; returns where the old results are.
fs::path moveAside(const fs::path& work, const fs::path& target) {
  const fs::path aside = work.string() + "-old";
  std::error_code ignored;
  fs::remove_all(aside, ignored);  // a killed merge's
  if (::rename(target.c_str(), aside.c_str()) != 0)
    throw WriteError(target, "move the old results aside from", errno);
  if (::rename(work.c_str(), target.c_str()) != 0) {
    const int error = errno;
    ::rename(aside.c_str(), target.c_str());
    throw WriteError(target, "rename a folder to", error);
  }
  return aside;
}

// Puts the complete folder `work` in place of `target` (missing, empty, or old results): one
// rename, or an exchange of the two folders whose old results are then removed.
void replaceFolder(const fs::path& work, const fs::path& target) {
  if (::rename(work.c_str(), target.c_str()) == 0) return;  // missing or an empty folder
  if (errno != ENOTEMPTY && errno != EEXIST) throw WriteError(target, "rename a folder to", errno);
  fs::path old = work;  // where the old results end up
  if (::renameat2(AT_FDCWD, work.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
      throw WriteError(target, "exchange the merged folder with", errno);
    old = moveAside(work, target);
  }
  syncFolder(target.parent_path());
  std::error_code ignored;
  fs::remove_all(old, ignored);
}

}  // namespace

std::optional<std::string> mergeShards(std::span<const fs::path> dirs, const fs::path& out,
                                       FolderMode mode) {
  const std::vector<ShardFolder> shards = checkedShards(dirs);
  Batch batch = shards.front().batch;
  batch.shard.reset();
  const fs::path target = targetFolder(out);
  const fs::path work = workFolderOf(target);
  checkNotAnInput(shards, target, "--out");
  checkNotAnInput(shards, work, "the work folder");
  checkReplaceableFolder(target, batch, mode, "--out");
  checkReplaceableFolder(work, batch, FolderMode::Overwrite, "the work folder");
  std::optional<std::string> warning;
  try {
    warning = writeMerge(shards, batch, work);
  } catch (...) {
    std::error_code ignored;
    fs::remove(work, ignored);  // empty unless another merge holds it
    throw;
  }
  checkReplaceableFolder(target, batch, mode, "--out");  // again: a merge can take a while
  replaceFolder(work, target);
  return warning;
}

}  // namespace ddalab
