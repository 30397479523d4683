#include "core/observation.h"

#include <vector>

#include "core/status.h"

namespace ddalab {

void State::features(std::vector<double>& out) const {
  const size_t n = static_cast<size_t>(numPlayers());
  Gains statuses{};
  statusesOf(*this, statuses);
  const Gains gains = gainsOf(*this);
  out.assign(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(n));
  out.insert(out.end(), statuses.begin(), statuses.begin() + static_cast<std::ptrdiff_t>(n));
  out.push_back(roundsCompleted());
}

Json State::observationJson(int player) const {
  return {{"text", observationString(player)}, {"players", numPlayers()}, {"seat", player}};
}

Json State::actionJson(Action) const {
  return Json::object();
}

std::string seatLabel(int seat, int player) {
  return player == seat ? "you" : "opponent " + std::to_string(player);
}

namespace {

std::string actorLabel(const State& state, int seat) {
  if (state.isTerminal()) return "over";
  if (state.isEnvironmentNode()) return "environment";
  return seatLabel(seat, state.actor());
}

Json legalOf(const State& state) {
  std::vector<Action> legal;
  state.legalActions(legal);
  Json list = Json::array();
  for (Action action : legal) {
    Json move = {{"action", action}, {"label", state.actionToString(action)}};
    // A game without descriptions (a plug-in's) keeps the screen it always had.
    if (Json does = state.actionJson(action); !does.empty()) move["does"] = std::move(does);
    list.push_back(std::move(move));
  }
  return list;
}

}  // namespace

Json seatScreen(const State& state, int seat, std::string_view gameId) {
  Json screen = {{"game", gameId},
                 {"seat", seat},
                 {"observation", state.observationJson(seat)},
                 {"round", state.roundsCompleted()},
                 {"actor", actorLabel(state, seat)}};
  if (state.actor() == seat) screen["legal"] = legalOf(state);
  if (state.gainsPublic()) {
    const Gains gains = gainsOf(state);
    screen["gains"] = std::vector<double>(gains.begin(), gains.begin() + state.numPlayers());
  }
  if (state.isTerminal())
    screen["winner"] = state.winner() >= 0 ? seatLabel(seat, state.winner()) : "none";
  return screen;
}

}  // namespace ddalab
