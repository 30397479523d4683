#include "core/observation.h"

#include <vector>

namespace ddalab {

Json State::observationJson(int player) const {
  return {{"text", observationString(player)}, {"players", numPlayers()}, {"seat", player}};
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
  for (Action action : legal)
    list.push_back({{"action", action}, {"label", state.actionToString(action)}});
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
