#pragma once
// What the Python classes Game, State and Lineup hold (state_bindings.cpp); the other binding
// files (Python players, the run) build on them.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/metrics.h"
#include "core/rng.h"
#include "core/state.h"
#include "experiments/batch.h"
#include "experiments/lineup.h"

namespace ddalab::python {

// A validated game configuration (ddalab.Game): the catalog entry's id and parameters.
struct PyGame {
  std::string id;
  Json params;  // validated, defaults filled in
  std::shared_ptr<const Game> game;
};

// One game being stepped by hand (ddalab.State): the state, the metrics tracker kept in step with
// it (core's applyTracked, as the runner does) and the game's random streams, seeded as the
// runner seeds the game of the same seed (core/match.h), so a lineup stepping it from Python
// plays the runner's game. A value: clone() copies all of it.
struct PyState {
  std::shared_ptr<const Game> game;  // keeps the configuration alive
  std::string gameId;
  uint64_t seed = 0;
  std::unique_ptr<State> state;
  MetricsTracker tracker;
  Rng nature, environment;
  std::array<Rng, kMaxPlayers> players;

  PyState(std::shared_ptr<const Game> game, std::string gameId, uint64_t seed);
  // A copy of `state` and `trace` (what a Python player's choose() sees); its random streams
  // are its own (seed 0), not the game's.
  PyState(std::shared_ptr<const Game> game, std::string gameId, const State& state,
          const MetricsTracker& trace);
  PyState(const PyState& other);
  PyState& operator=(const PyState&) = delete;

  // The legal actions of the regular actor, or the outcomes' actions at an environment node.
  std::vector<Action> legalActions() const;
  std::vector<Outcome> outcomes() const;
  // Applies `action` of the current actor, keeping the tracker in step; throws
  // pybind11::value_error when the game is over or the action is not legal here.
  void apply(Action action);
  // The stream of the current actor: a seat's own, or the environment player's.
  Rng& actorStream();
};

// An experiment's players for one game (ddalab.Lineup), built as the runner builds them.
struct PyLineup {
  std::shared_ptr<const Experiment> experiment;
  Lineup lineup;
  // The action the current actor's player chooses in `state` (a seat's, or the environment's).
  Action choose(PyState& state);
};

}  // namespace ddalab::python
