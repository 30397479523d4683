#pragma once
// Shards of one batch put together: `ddalab run BATCH --shard K/N` plays a deterministic part of
// every experiment's iterations into a folder of its own (batch.json records the shard, the
// ddalab version and the checksum of the whole batch); merging the N folders writes exactly the
// files one `ddalab run BATCH --out DIR` writes: the games CSVs byte for byte, and every summary,
// score, test, rank and detectability table computed from them as a run computes them.
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "experiments/output_folder.h"

namespace ddalab {

// Merges the shard folders `shards` (in any order) into `out`. Refuses, naming the file, the JSON
// path or CSV line and what was expected: a folder that is not a finished shard (resume it
// first), a shard record out of range, shards of different batches or ddalab versions, a shard
// given twice or missing, a games CSV that differs from the shard's checkpoint, an `out` that is
// a shard, inside one or holds one. Atomic: the results are written into a work folder beside
// `out` (".NAME.ddalab-merge") and renamed to `out` once complete, so a refused or killed merge
// leaves `out` as it was (a killed merge's work folder is reused by the next). `mode`: Fresh
// refuses an `out` holding other results, Overwrite replaces them; an `out` holding files ddalab
// did not write is refused either way. Returns the warning of a tournament whose ratings could
// not be fitted (the games are merged; experiments/rating_results.h). Throws
// InputError/WriteError.
std::optional<std::string> mergeShards(std::span<const std::filesystem::path> shards,
                                       const std::filesystem::path& out, FolderMode mode);

}  // namespace ddalab
