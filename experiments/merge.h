#pragma once
// Shards of one batch put together: `ddalab run BATCH --shard K/N` plays a deterministic part of
// every experiment's iterations into a folder of its own (batch.json records the shard, the
// ddalab version and the checksum of the whole batch); merging the N folders writes exactly the
// files one `ddalab run BATCH --out DIR` writes: the games CSVs byte for byte, and every summary,
// score, test, rank and detectability table computed from them as a run computes them.
#include <filesystem>
#include <span>

#include "experiments/output_folder.h"

namespace ddalab {

// Merges the shard folders `shards` (in any order) into `out`. Refuses, naming the folder:
// a folder that is not a finished shard (resume it first), shards of different batches or ddalab
// versions, a shard given twice or missing. `out` is checked and locked like a run's folder
// (`mode`: Fresh refuses other results, Overwrite replaces them). Throws InputError/WriteError.
void mergeShards(std::span<const std::filesystem::path> shards, const std::filesystem::path& out,
                 FolderMode mode);

}  // namespace ddalab
