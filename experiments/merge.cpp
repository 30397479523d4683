#include "experiments/merge.h"

#include <fstream>
#include <map>
#include <sstream>

#include "experiments/runner.h"
#include "results/aggregate.h"
#include "results/csv.h"
#include "results/significance.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

// One shard folder: its batch.json and where it stands.
struct ShardFolder {
  fs::path dir;
  Json document;  // its batch.json
  Shard shard;
};

Json readBatchJson(const fs::path& dir) {
  const fs::path file = dir / "batch.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(dir.string(), "no batch.json: not the results folder of a shard");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const Json::exception&) {
    throw InputError(file.string(), "is not valid JSON; was the shard's folder damaged?");
  }
}

ShardFolder readShard(const fs::path& dir) {
  ShardFolder folder{dir, readBatchJson(dir), {}};
  const Json& record = folder.document.value("shard", Json());
  if (!record.is_object() || !record.value("index", Json()).is_number_integer() ||
      !record.value("count", Json()).is_number_integer())
    throw InputError(dir.string(),
                     "holds the results of a whole batch, not of a shard (its "
                     "batch.json has no \"shard\"); merge the folders of "
                     "ddalab run --shard K/N");
  folder.shard = {record.at("index").get<int>(), record.at("count").get<int>()};
  if (holdsUnfinishedRun(dir) || !fs::exists(dir / ".ddalab"))
    throw InputError(dir.string(), "shard " + std::to_string(folder.shard.index) + "/" +
                                       std::to_string(folder.shard.count) +
                                       " is unfinished; finish it first: ddalab run " +
                                       (dir / "batch.json").string() + " --out " + dir.string() +
                                       " --resume");
  return folder;
}

std::string recordOf(const ShardFolder& s, const char* key) {
  return s.document.at("shard").value(key, std::string());
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

// The shards in index order, each of the same batch and version, each index once.
std::vector<ShardFolder> checkedShards(std::span<const fs::path> dirs) {
  if (dirs.empty()) throw InputError("ddalab merge", "expected the folders of the shards");
  std::vector<ShardFolder> shards;
  for (const fs::path& dir : dirs) shards.push_back(readShard(dir));
  const ShardFolder& first = shards.front();
  const int count = first.shard.count;
  std::vector<const ShardFolder*> byIndex(static_cast<size_t>(count), nullptr);
  for (const ShardFolder& s : shards) {
    const std::string where = s.dir.string();
    if (recordOf(s, "ddalab") != recordOf(first, "ddalab"))
      throw InputError(where, "was written by ddalab " + recordOf(s, "ddalab") + ", " +
                                  first.dir.string() + " by ddalab " + recordOf(first, "ddalab") +
                                  "; merge shards of one ddalab version");
    if (const std::string why = changedPlugin(first, s); !why.empty()) throw InputError(where, why);
    if (s.shard.count != count || recordOf(s, "batch_sha256") != recordOf(first, "batch_sha256"))
      throw InputError(where, "holds a shard of another batch than " + first.dir.string() +
                                  " (batch sha256 " + recordOf(s, "batch_sha256").substr(0, 16) +
                                  "..., " + std::to_string(s.shard.count) + " shards; " +
                                  recordOf(first, "batch_sha256").substr(0, 16) + "..., " +
                                  std::to_string(count) + " shards)");
    const auto index = static_cast<size_t>(s.shard.index);
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

// One experiment's games from every shard, in iteration order, into `out`; its summary.
ExperimentSummary mergeExperiment(const std::vector<ShardFolder>& shards, const Batch& whole,
                                  const Experiment& experiment, const fs::path& out) {
  const ExperimentLabel label = labelOf(experiment);
  GamesCsvWriter games(out, label);
  SummaryBuilder summary(label);
  for (const ShardFolder& s : shards) {
    Batch part = whole;
    part.shard = s.shard;
    const IterationRange range = iterationsOf(part, experiment);
    size_t next = range.begin;
    const size_t read = readExperimentGames(s.dir, label, [&](const GameRecord& record) {
      if (record.iteration != next)
        throw InputError(s.dir.string(),
                         experiment.name + ": game " + std::to_string(record.iteration) +
                             " where the shard's game " + std::to_string(next) + " belongs");
      games.add(record);
      summary.add(record);
      ++next;
    });
    if (read != range.size())
      throw InputError(s.dir.string(), experiment.name + ": " + std::to_string(read) +
                                           " games, the shard plays " +
                                           std::to_string(range.size()));
  }
  games.commit();
  const ExperimentSummary result = summary.summary();
  writeSummaryCsv(out, result);
  return result;
}

}  // namespace

void mergeShards(std::span<const fs::path> dirs, const fs::path& out, FolderMode mode) {
  const std::vector<ShardFolder> shards = checkedShards(dirs);
  Json whole = shards.front().document;
  whole.erase("shard");
  const Batch batch = parseBatch(whole, (shards.front().dir / "batch.json").string());
  if (batchChecksum(batch) != recordOf(shards.front(), "batch_sha256"))
    throw InputError((shards.front().dir / "batch.json").string(),
                     "does not match the checksum it records: was it edited?");
  OutputFolder folder(out, batch, mode, std::nullopt, {});
  std::vector<ExperimentSummary> summaries;
  for (const Experiment& experiment : batch.experiments)
    summaries.push_back(mergeExperiment(shards, batch, experiment, out));
  writeBatchCsvs(out, summaries);
  const std::vector<ComparisonAnalysis> analyses = analyzeResultsDir(out, summaries);
  writeAnalysisCsvs(out, analyses);
  writeSweepResults(out, batch, summaries, analyses);
  folder.markComplete();
}

}  // namespace ddalab
