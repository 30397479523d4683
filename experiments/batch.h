#pragma once
// Experiment and batch files (app.md): versioned JSON, validated strictly.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.h"

namespace ddalab {

inline constexpr const char* kBatchFormat = "ddalab-batch/1";
inline constexpr const char* kExperimentFormat = "ddalab-experiment/1";

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
  int iterations = 0;
  uint64_t salt = 0;  // 0: the same per-iteration seeds as every other experiment (paired rows)
};

struct Batch {
  uint64_t seed = 0;
  std::vector<Experiment> experiments;
};

// Reads and validates a batch or single-experiment file; errors (InputError) start with the
// file name and give the JSON path and what was expected.
Batch loadBatch(const std::filesystem::path& file);

// Validates an already parsed document; `source` prefixes the error messages.
Batch parseBatch(const Json& document, const std::string& source);

// The document `batch` would be loaded from (defaults written out), for saving batches.
Json toJson(const Batch& batch);

}  // namespace ddalab
