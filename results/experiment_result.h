#pragma once
// What one experiment of a batch is called, who played it, and (in memory) its finished games.
#include <string>
#include <vector>

#include "core/match.h"

namespace ddalab {

struct SeatLabel {
  std::string id;  // player id, e.g. "hillclimber"
  int level = 100;
};

// What names an experiment in files and tables: its identity and who played.
struct ExperimentLabel {
  std::string name;        // unique within the batch, e.g. "ludo-4hc/e-hillclimber"
  std::string comparison;  // scoring group; empty = none
  std::string game;        // game id
  std::vector<SeatLabel> players;
  std::string environment;  // environment player id
  int plannedIterations = 0;
};

// An experiment with its finished games held in memory (tests, the benchmark, the GUI). Runs
// into a results folder stream their games to disk instead and keep only summaries.
struct ExperimentResult : ExperimentLabel {
  std::vector<GameRecord> records;  // the finished games, sorted by iteration
};

// File stem of an experiment's CSVs: the name with '/' replaced by "__".
std::string fileStem(const std::string& experimentName);

}  // namespace ddalab
