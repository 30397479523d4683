#pragma once
// What one experiment of a batch produced: its identity and every finished game.
#include <string>
#include <vector>

#include "core/match.h"

namespace ddalab {

struct SeatLabel {
  std::string id;  // player id, e.g. "hillclimber"
  int level = 100;
};

struct ExperimentResult {
  std::string name;        // unique within the batch, e.g. "ludo-4hc/e-hillclimber"
  std::string comparison;  // scoring group; empty = none
  std::string game;        // game id
  std::vector<SeatLabel> players;
  std::string environment;  // environment player id
  int plannedIterations = 0;
  std::vector<GameRecord> records;  // the finished games, sorted by iteration
};

// File stem of an experiment's CSVs: the name with '/' replaced by "__".
std::string fileStem(const std::string& experimentName);

}  // namespace ddalab
