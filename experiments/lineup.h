#pragma once
// An experiment's seats and environment player for one game, built in one place: the runner's
// games, the GUI's game sessions (where a person may take a seat) and studies use it.
#include <memory>
#include <optional>
#include <vector>

#include "core/player.h"
#include "core/stop.h"
#include "experiments/batch.h"

namespace ddalab {

struct Lineup {
  std::vector<std::unique_ptr<Player>> players;  // one per seat; null where a person plays
  std::unique_ptr<EnvironmentPlayer> environment;

  // The seats' players as playGame and Match take them (null where a person plays).
  std::vector<Player*> seats() const;
};

// The player id a seat a person plays has in an experiment of the game mode or a user study.
inline constexpr const char* kPersonSeat = "human";

// The seats of an experiment (as a file holds it) that a person plays.
std::vector<bool> personSeats(const Json& experiment);
// An experiment a person plays in, validated (a person's seat checked as `random`, which any game
// has); throws InputError naming `source`.
Experiment parsePlayedExperiment(const Json& experiment, uint64_t seed, const std::string& source);

// Builds the players of `e` for one game, each polling `stop`. Seat i is a person's when
// people[i] is true: it gets no player, and the environment player has no model of it. A win-rate
// objective steers by `winRateEstimate` (the seat's win rate in the blocks before the game's).
Lineup buildLineup(const Experiment& e, StopToken stop, const std::vector<bool>& people = {},
                   std::optional<double> winRateEstimate = {});

}  // namespace ddalab
