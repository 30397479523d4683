#include "players/registry.h"

#include <vector>

namespace ddalab {

// Each player's file defines its entry.
PlayerInfo randomPlayerInfo();
PlayerInfo hillClimberInfo();
PlayerInfo hillClimberISInfo();
PlayerInfo minimaxISInfo();
PlayerInfo hexaLinesAiInfo();
PlayerInfo maxnInfo();
PlayerInfo mctsInfo();
PlayerInfo dynamicLevelInfo();
PlayerInfo posmInfo();
PlayerInfo eRandomInfo();
PlayerInfo eHillClimberInfo();
PlayerInfo eMaxMaxInfo();
PlayerInfo eMaxNInfo();
PlayerInfo eMonteCarloInfo();

std::span<const PlayerInfo> playerRegistry() {
  // A new player: one file in players/ (in players/<game>/ when it plays one game only, using
  // that game's own types) and one line here (plus its declaration above).
  // clang-format off
  static const std::vector<PlayerInfo> players = {
      randomPlayerInfo(),
      hillClimberInfo(),
      hillClimberISInfo(),
      minimaxISInfo(),
      hexaLinesAiInfo(),
      maxnInfo(),
      mctsInfo(),
      dynamicLevelInfo(),
      posmInfo(),
      eRandomInfo(),
      eHillClimberInfo(),
      eMaxMaxInfo(),
      eMaxNInfo(),
      eMonteCarloInfo(),
  };
  // clang-format on
  return players;
}

}  // namespace ddalab
