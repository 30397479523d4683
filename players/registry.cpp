#include "players/registry.h"

#include <vector>

namespace ddalab {

// Each player's file defines its entry.
PlayerInfo randomPlayerInfo();
PlayerInfo hillClimberInfo();
PlayerInfo hillClimberISInfo();
PlayerInfo minimaxISInfo();
PlayerInfo eRandomInfo();
PlayerInfo eHillClimberInfo();

std::span<const PlayerInfo> playerRegistry() {
  // A new player: one file in players/ and one line here (plus its declaration above).
  static const std::vector<PlayerInfo> players = {
      randomPlayerInfo(), hillClimberInfo(), hillClimberISInfo(),
      minimaxISInfo(),    eRandomInfo(),     eHillClimberInfo(),
  };
  return players;
}

}  // namespace ddalab
