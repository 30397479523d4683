#pragma once
// Experiment and batch files (app.md): versioned JSON, validated strictly.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/objective.h"
#include "core/registry.h"
#include "experiments/formats.h"
#include "experiments/name_checks.h"
#include "experiments/sweep.h"

namespace ddalab {

// Larger batch files are refused before reading: the 41 thesis experiments take 28 KiB.
inline constexpr size_t kMaxBatchFileBytes = 16 << 20;


// Largest magnitude of a fun-score coefficient (the shipped files use up to 1000); keeps F finite.
inline constexpr double kMaxCoefficient = 1e6;

// A player slot of an experiment: the registry entry, its level and validated parameters.
struct PlayerEntry {
  const PlayerInfo* info = nullptr;
  int level = 100;
  Json params;  // every parameter of info->params, defaults filled in
};

struct Experiment {
  std::string name;        // unique within the batch; names the output files
  std::string comparison;  // scoring group ("" = none)
  const GameInfo* gameInfo = nullptr;
  Json gameParams;  // validated, defaults filled in
  std::shared_ptr<const Game> game;
  std::vector<PlayerEntry> players;
  PlayerEntry environment;
  Coefficients coefficients{};
  Objective objective;  // what a fun-seeking environment player pursues (the weighted sum)
  int iterations = 0;
  uint64_t salt = 0;  // 0: the same per-iteration seeds as every other experiment (paired rows)
  // A sweep's grid point: the values of its axes by name ({"random_prob": 0.2}); empty otherwise.
  Json point = Json::object();
  // A tournament's or balance run's experiment (tournament.h): the entrant (or condition) name of
  // each seat; empty otherwise. Names do not change the games.
  std::vector<std::string> entrants;
};

// One part of a batch run on its own (--shard K/N, a cluster's array task): shard `index` of
// `count` plays iterations [I * index / count, I * (index + 1) / count) of every experiment of I
// iterations; `ddalab merge` puts the shards' folders together.
struct Shard {
  int index = 0;
  int count = 1;
};

// What a shard's batch.json records about the run that wrote it (see toJson).
struct ShardRecord {
  Shard shard;
  std::string ddalab;       // the version that ran the shard
  std::string batchSha256;  // batchChecksum of the whole batch: 64 lowercase hex digits
};
// The "shard" object of a shard's batch.json, every field checked; throws InputError naming the
// JSON path ($.shard.index, ...) and what was expected.
ShardRecord parseShardRecord(const Json& node);

struct Batch {
  uint64_t seed = 0;
  std::vector<Experiment> experiments;
  std::optional<Shard> shard;  // none: every iteration
  // A tournament's or balance run's "rating" section (tournament.h: what the fit and the balance
  // tables need), checked; null for other batches.
  Json rating;
};

// The iterations of `experiment` a run of `batch` plays (all of them, or its shard's).
struct IterationRange {
  size_t begin = 0, end = 0;
  size_t size() const { return end - begin; }
};
IterationRange iterationsOf(const Batch& batch, const Experiment& experiment);

// "K/N" (0 <= K < N <= 100000) as a shard; throws InputError naming `option`.
Shard parseShard(const std::string& text, const std::string& option);
// Throws InputError naming `option` when `batch` split into `shards` parts would change its games:
// a win-rate objective's games depend on the experiment's earlier games.
void checkShardable(const Batch& batch, int shards, const std::string& option);

// The weights of F by metric key (an experiment's "coefficients"); a metric a game of `players`
// seats cannot have may only weigh 0. Throws InputError at `path` + the key.
Coefficients parseCoefficients(const Json& node, const std::string& path, int players);

// Reads and validates a batch or single-experiment file; errors (InputError) start with the
// file name and give the JSON path or line:column and what was expected. Missing, unreadable or
// oversized files and directories are InputErrors too (with the operating system's reason).
// A file's sweeps are expanded (sweep.h), `vary` axes (--vary) added to every experiment; a
// tournament or balance run is expanded (tournament.h; a relative "ratings" file is found next to
// `file`).
Batch loadBatch(const std::filesystem::path& file, std::span<const SweepAxis> vary = {});

// Parses and validates the text of a batch or single-experiment file (what loadBatch does after
// reading); `source` names it in the errors. Throws InputError only, whatever the text.
Batch parseBatchText(std::string_view text, const std::string& source,
                     std::span<const SweepAxis> vary = {},
                     const std::filesystem::path& baseDir = {});

// Validates one experiment on its own (an entry of a batch's "experiments"), as a batch of it
// with seed `seed`; errors name `source` and the path within the experiment ("$.players[1]").
Batch parseExperiment(const Json& experiment, uint64_t seed, const std::string& source);

// Validates an already parsed document (possibly built in code: any nesting depth, NaN or
// infinity is refused, not crashed on); `source` prefixes the error messages. A balance run's
// relative "ratings" file is found in `baseDir` (default: the working directory).
Batch parseBatch(const Json& document, const std::string& source,
                 std::span<const SweepAxis> vary = {}, const std::filesystem::path& baseDir = {});

// The document `batch` would be loaded from (defaults written out), for saving batches. A
// shard's records "shard": {"index", "count", "ddalab": the version, "batch_sha256": of the
// whole batch's document as a run writes it}, so that merge can refuse shards that differ.
Json toJson(const Batch& batch);

// For each experiment of `wanted`, the experiment of `held` that plays the same games: the same
// master seed, game, seats, environment, coefficients and salt (the name, the comparison and the
// number of games do not change game i). One of the same name is preferred; each experiment of
// `held` answers at most one of `wanted`.
std::vector<std::optional<size_t>> matchExperiments(const Batch& held, const Batch& wanted);

// The sha256 that names the whole batch of `batch` (its shard left out): of its document as a
// run writes it, without where its plug-ins were loaded from (nodes may keep them elsewhere).
std::string batchChecksum(const Batch& batch);

// The games of every experiment of `batch` together (of its shard, for a shard).
size_t plannedGames(const Batch& batch);

// A fingerprint of what decides the games of experiment `index` of `batch` (see
// matchExperiments): equal for experiments that play the same games. Checkpoints carry it.
uint64_t playIdentity(const Batch& batch, size_t index);

}  // namespace ddalab
