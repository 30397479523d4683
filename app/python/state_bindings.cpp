// Stepping a game from Python, in OpenSpiel's vocabulary where it fits: Game.new_initial_state(),
// State.current_player(), legal_actions(), chance_outcomes(), apply(), observation(seat), ...;
// an Experiment's Lineup chooses for any actor as the runner's players do.
#include <pybind11/stl.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/python/bindings.h"
#include "app/python/json_convert.h"
#include "app/python/py_state.h"
#include "core/catalog.h"
#include "core/match.h"
#include "core/status.h"
#include "games/registry.h"

namespace py = pybind11;

namespace ddalab::python {

PyState::PyState(std::shared_ptr<const Game> g, std::string id, uint64_t s)
    : game(std::move(g)),
      gameId(std::move(id)),
      seed(s),
      state(game->newGame(streamSeed(s, Stream::Setup))),
      nature(streamSeed(s, Stream::Nature)),
      environment(streamSeed(s, Stream::Environment)) {
  for (int p = 0; p < state->numPlayers(); ++p)
    players[static_cast<size_t>(p)].reseed(streamSeed(s, Stream::FirstPlayer, p));
  tracker = MetricsTracker(*state);
}

PyState::PyState(const PyState& other)
    : game(other.game),
      gameId(other.gameId),
      seed(other.seed),
      state(other.state->clone()),
      tracker(other.tracker),
      nature(other.nature),
      environment(other.environment),
      players(other.players) {}

std::vector<Action> PyState::legalActions() const {
  std::vector<Action> legal;
  if (state->isEnvironmentNode()) {
    for (const Outcome& outcome : outcomes()) legal.push_back(outcome.action);
  } else {
    state->legalActions(legal);
  }
  return legal;
}

std::vector<Outcome> PyState::outcomes() const {
  std::vector<Outcome> outcomes;
  state->outcomes(outcomes);
  return outcomes;
}

void PyState::apply(Action action) {
  if (state->isTerminal())
    throw py::value_error("apply(" + std::to_string(action) + "): the game is over");
  const std::vector<Action> legal = legalActions();
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
    std::string list;
    for (size_t i = 0; i < legal.size() && i < 32; ++i)
      list += (i ? ", " : "") + std::to_string(legal[i]);
    if (legal.size() > 32) list += ", ...";
    throw py::value_error("apply(" + std::to_string(action) + "): not a legal action of " +
                          (state->isEnvironmentNode() ? std::string("the environment")
                                                      : "seat " + std::to_string(state->actor())) +
                          " here; legal: " + list);
  }
  applyTracked(*state, tracker, action, static_cast<int>(legal.size()));
}

Rng& PyState::actorStream() {
  return state->isEnvironmentNode() ? environment : players[static_cast<size_t>(state->actor())];
}

Action PyLineup::choose(PyState& s) {
  const State& state = *s.state;
  if (state.isTerminal()) throw py::value_error("choose(): the game is over");
  if (state.isEnvironmentNode()) {
    const std::vector<Outcome> outcomes = s.outcomes();
    return lineup.environment->choose(state, outcomes, s.tracker, s.environment, s.nature);
  }
  Player* player = lineup.players[static_cast<size_t>(state.actor())].get();
  if (!player)
    throw py::value_error("choose(): seat " + std::to_string(state.actor()) +
                          " is a person's seat; apply its action");
  std::vector<Action> legal;
  state.legalActions(legal);
  return player->chooseAction(state, legal, s.actorStream());
}

namespace {

PyGame makeGame(const std::string& id, const py::object& params) {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "id");
  PyGame game;
  game.id = id;
  game.params = validateParams(info.params, fromPython(params, "params"), "params");
  game.game = info.make(game.params);
  return game;
}

int checkedSeat(const PyState& s, int seat) {
  if (seat < 0 || seat >= s.state->numPlayers())
    throw py::index_error("seat " + std::to_string(seat) + ": expected 0.." +
                          std::to_string(s.state->numPlayers() - 1));
  return seat;
}

std::vector<double> statusesOfState(const State& state) {
  Gains statuses{};
  statusesOf(state, statuses);
  return {statuses.begin(), statuses.begin() + state.numPlayers()};
}

std::vector<double> gainsOfState(const State& state) {
  const Gains gains = gainsOf(state);
  return {gains.begin(), gains.begin() + state.numPlayers()};
}

py::dict metricsOf(const PyState& s) {
  const MetricValues values = s.tracker.values(s.state->believability());
  py::dict dict;
  for (const MetricInfo& info : allMetrics())
    dict[py::str(info.key)] = values[static_cast<size_t>(info.metric)];
  return dict;
}

double funOf(const PyState& s, const py::object& coefficients) {
  const Coefficients c = parseCoefficients(fromPython(coefficients, "coefficients"), "coefficients",
                                           s.state->numPlayers());
  return s.tracker.fun(FunWeights(c), s.state->believability());
}

std::shared_ptr<PyLineup> makeLineup(const std::shared_ptr<const Experiment>& experiment) {
  auto lineup = std::make_shared<PyLineup>();
  lineup->experiment = experiment;
  lineup->lineup = buildLineup(*experiment, StopToken{});
  return lineup;
}

std::shared_ptr<const Experiment> makeExperiment(const py::object& document) {
  Json json = fromPython(document, "experiment");
  // What a batch needs and a single game does not: a name and a number of games.
  if (json.is_object() && !json.contains("iterations")) json["iterations"] = 1;
  if (json.is_object() && !json.contains("name")) json["name"] = "experiment";
  Batch batch = parseExperiment(json, 0, "experiment");
  return std::make_shared<const Experiment>(std::move(batch.experiments.front()));
}

// One field of the game's declared action bounds, or None when it declares none.
py::object boundOf(const PyGame& g, int ActionBounds::*field) {
  const std::optional<ActionBounds> bounds = g.game->actionBounds();
  if (!bounds) return py::none();
  return py::int_((*bounds).*field);
}

void bindGame(py::module_& m) {
  py::class_<PyGame>(m, "Game", "A validated game configuration that deals games.")
      .def(py::init(&makeGame), py::arg("id"), py::arg("params") = py::none(),
           "The catalog's game `id` with `params` (missing ones take their defaults); raises "
           "InputError naming the parameter that is wrong.")
      .def_readonly("id", &PyGame::id)
      .def_property_readonly("params", [](const PyGame& g) { return toPython(g.params); })
      .def(
          "num_players", [](const PyGame& g) { return g.game->numPlayers(); },
          "Regular seats of every game it deals.")
      .def(
          "status_scale", [](const PyGame& g) { return g.game->statusScale(); },
          "Typical size of a meaningful status difference.")
      .def("has_hidden_information", [](const PyGame& g) { return g.game->hasHiddenInformation(); })
      .def(
          "action_bounds",
          [](const PyGame& g) -> py::object {
            if (!g.game->actionBounds()) return py::none();
            py::dict dict;
            dict["distinct_actions"] = boundOf(g, &ActionBounds::distinctActions);
            dict["outcome_ids"] = boundOf(g, &ActionBounds::outcomeIds);
            dict["max_chance_outcomes"] = boundOf(g, &ActionBounds::maxChanceOutcomes);
            return dict;
          },
          "The game's declared bounds: every seat's action id lies in 0 .. distinct_actions - 1, "
          "every outcome's in 0 .. outcome_ids - 1, and no environment node offers more than "
          "max_chance_outcomes outcomes; None when the game (a plug-in) declares none.")
      .def(
          "num_distinct_actions",
          [](const PyGame& g) { return boundOf(g, &ActionBounds::distinctActions); },
          "OpenSpiel's name: action_bounds()['distinct_actions'], None when undeclared.")
      .def(
          "max_chance_outcomes",
          [](const PyGame& g) { return boundOf(g, &ActionBounds::maxChanceOutcomes); },
          "The most outcomes one environment node offers (action_bounds()['max_chance_outcomes']), "
          "None when undeclared.")
      .def(
          "new_initial_state",
          [](const PyGame& g, uint64_t seed) { return PyState(g.game, g.id, seed); },
          py::arg("seed") = 0,
          "The game of `seed` (its deal and its random streams: the runner's game of that seed).")
      .def("__repr__", [](const PyGame& g) {
        return "ddalab.Game(" + py::repr(py::str(g.id)).cast<std::string>() + ", " +
               std::string(py::repr(toPython(g.params))) + ")";
      });
}

void bindStateClass(py::module_& m) {
  py::class_<PyState>(m, "State", "One game being played, action by action.")
      .def(
          "current_player", [](const PyState& s) { return s.state->actor(); },
          "The seat on turn, ENVIRONMENT (-1) at an environment node, TERMINAL (-2) at the end.")
      .def("is_environment_node", [](const PyState& s) { return s.state->isEnvironmentNode(); })
      .def(
          "is_chance_node", [](const PyState& s) { return s.state->isEnvironmentNode(); },
          "OpenSpiel's name for an environment node.")
      .def("is_terminal", [](const PyState& s) { return s.state->isTerminal(); })
      .def("num_players", [](const PyState& s) { return s.state->numPlayers(); })
      .def("legal_actions", &PyState::legalActions,
           "The current seat's legal actions, or the outcomes' actions at an environment node "
           "(empty at the end), in the game's order.")
      .def(
          "chance_outcomes",
          [](const PyState& s) {
            std::vector<std::pair<Action, double>> list;
            for (const Outcome& o : s.outcomes()) list.emplace_back(o.action, o.probability);
            return list;
          },
          "At an environment node, (outcome, natural probability) pairs; empty otherwise.")
      .def("apply", &PyState::apply, py::arg("action"),
           "Applies a legal action of the current actor (a seat's action or an environment "
           "outcome); raises ValueError otherwise.")
      .def("apply_action", &PyState::apply, py::arg("action"), "OpenSpiel's name for apply().")
      .def(
          "apply_natural",
          [](PyState& s) {
            if (!s.state->isEnvironmentNode())
              throw py::value_error("apply_natural(): not an environment node");
            const Action a = sampleOutcome(s.outcomes(), s.nature);
            s.apply(a);
            return a;
          },
          "At an environment node: draws the outcome by its natural probability from the game's "
          "natural-chance stream (as e-random does), applies it and returns it.")
      .def(
          "action_to_string", [](const PyState& s, Action a) { return s.state->actionToString(a); },
          py::arg("action"), "How `action` of the current actor reads.")
      .def(
          "action_json", [](const PyState& s, Action a) { return toPython(s.state->actionJson(a)); },
          py::arg("action"),
          "What legal `action` of the seat on turn does, as a dict (docs/web-api.md: the piece, "
          "the card and pile, the field); empty for a game that does not describe its actions.")
      .def(
          "observation",
          [](const PyState& s, int seat) {
            return s.state->observationString(checkedSeat(s, seat));
          },
          py::arg("seat"),
          "The state as `seat` sees it: other seats' hidden cards and undealt ones left out.")
      .def(
          "observation_json",
          [](const PyState& s, int seat) {
            return toPython(s.state->observationJson(checkedSeat(s, seat)));
          },
          py::arg("seat"), "observation(seat) as structured data (docs/web-api.md).")
      .def(
          "features",
          [](const PyState& s) {
            std::vector<double> out;
            s.state->features(out);
            return out;
          },
          "The whole state as numbers (the environment's view; fixed length per game): "
          "by default every seat's gain, every seat's status, then the rounds completed.")
      .def("gains", [](const PyState& s) { return gainsOfState(*s.state); })
      .def(
          "statuses", [](const PyState& s) { return statusesOfState(*s.state); },
          "Each seat's status: its gain against the best other seat's (metrics.md).")
      .def(
          "winner", [](const PyState& s) { return s.state->winner(); },
          "The winning seat once over; -1 for a draw or while the game runs.")
      .def("capped", [](const PyState& s) { return s.state->capped(); })
      .def("rounds", [](const PyState& s) { return s.state->roundsCompleted(); })
      .def("believability", [](const PyState& s) { return s.state->believability(); })
      .def("metrics", &metricsOf,
           "Every per-game metric of the game so far (the tracker the runner keeps), by key.")
      .def("fun", &funOf, py::arg("coefficients"),
           "The fun score F of the game so far under `coefficients` ({metric key: weight}).")
      .def(
          "clone", [](const PyState& s) { return PyState(s); },
          "An independent copy (the tracker and the random streams too).")
      .def("__copy__", [](const PyState& s) { return PyState(s); })
      .def("__deepcopy__", [](const PyState& s, py::dict) { return PyState(s); })
      .def_readonly("seed", &PyState::seed)
      .def_readonly("game_id", &PyState::gameId)
      .def("to_string", [](const PyState& s) { return s.state->toString(); })
      .def("__str__", [](const PyState& s) { return s.state->toString(); });
}

void bindExperiment(py::module_& m) {
  py::class_<Experiment, std::shared_ptr<Experiment>>(
      m, "Experiment",
      "One experiment of the batch format, validated (its game, seats, "
      "environment player and coefficients).")
      .def(py::init([](const py::object& document) {
             return std::const_pointer_cast<Experiment>(makeExperiment(document));
           }),
           py::arg("experiment"),
           "`experiment` is a dict as an experiment of a batch file ('name' and 'iterations' "
           "optional).")
      .def_readonly("name", &Experiment::name)
      .def_property_readonly("game",
                             [](const Experiment& e) {
                               return PyGame{e.gameInfo->id, e.gameParams, e.game};
                             })
      .def_property_readonly("coefficients",
                             [](const Experiment& e) {
                               py::dict dict;
                               for (const MetricInfo& info : allMetrics())
                                 if (double c = e.coefficients[static_cast<size_t>(info.metric)];
                                     c != 0)
                                   dict[py::str(info.key)] = c;
                               return dict;
                             })
      .def(
          "lineup", [](const std::shared_ptr<Experiment>& e) { return makeLineup(e); },
          "Fresh players for one game (one lineup plays one game, as in the runner).");
  py::class_<PyLineup, std::shared_ptr<PyLineup>>(m, "Lineup",
                                                  "An experiment's players for one game.")
      .def("choose", &PyLineup::choose, py::arg("state"),
           "The action the current actor's player (a seat's or the environment's) chooses, with "
           "that actor's stream of the state.");
}

}  // namespace

void bindState(py::module_& m) {
  m.attr("ENVIRONMENT") = kEnvironment;
  m.attr("TERMINAL") = kTerminal;
  m.def(
      "game_seed",
      [](uint64_t batchSeed, uint64_t iteration, uint64_t salt) {
        return deriveGameSeed(batchSeed, iteration, salt);
      },
      py::arg("batch_seed"), py::arg("iteration"), py::arg("salt") = 0,
      "The seed of game `iteration` of a batch of seed `batch_seed` (an experiment's `salt`, 0 "
      "unless its file sets one), as the runner derives it: Game.new_initial_state() of it deals "
      "that game, and an experiment's lineup stepping it plays the games CSV's row.");
  bindGame(m);
  bindStateClass(m);
  bindExperiment(m);
}

}  // namespace ddalab::python
