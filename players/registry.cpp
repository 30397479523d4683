#include "players/registry.h"

#include "core/catalog.h"

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
  // Registered once, before any plug-in's player. A new player: one file in players/ (in
  // players/<game>/ when it plays one game only, using that game's own types) and one line here
  // (plus its declaration above).
  static const bool registered = [] {
    // clang-format off
    for (PlayerInfo info : {
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
         })
      catalog().add(std::move(info), kBuiltIn);
    // clang-format on
    return true;
  }();
  (void)registered;
  return catalog().players();
}

bool canPlay(const PlayerInfo& info, const Game& game, PlayerKind role) {
  if (!info.canAct(role)) return false;
  try {
    return info.whyNot(game, validateParams(info.params, nullptr, "params"), role).empty();
  } catch (const std::exception&) {
    return false;
  }
}

const PlayerInfo& defaultAi(const Game& game) {
  for (const PlayerInfo& info : playerRegistry())
    if (info.defaultAi && canPlay(info, game, PlayerKind::Regular)) return info;
  return findById<PlayerInfo>(playerRegistry(), "random", "player", "players");
}

}  // namespace ddalab
