// `dynamic-level`: a DDA player playing the exact rank of its adaptive level (players.md).
#include "players/dda/dynamic_level.h"

namespace ddalab {

PlayerInfo dynamicLevelInfo() {
  return ddaPlayerInfo(
      {.id = "dynamic-level",
       .description = "DDA by Dynamic Level (Gomez-Hicks & Kauchak): the exact rank of a level "
                      "that falls while it leads; the maze-building opponent in one-player games",
       .params = {{"initial_level", ParamType::Double, 50, 0, 100, "level of the first decision"},
                  {"alpha", ParamType::Double, -1, -1, 1e12,
                   "status per level step; 0 or negative = the game's status scale / 10"}},
       .levelScaled = false,
       .makeRule = [](const PlayerSetup& setup) -> std::unique_ptr<LevelRule> {
         const double alpha = setup.params.at("alpha").get<double>();
         return std::make_unique<DynamicLevelRule>(
             setup.params.at("initial_level").get<double>(),
             alpha > 0 ? alpha : setup.game.statusScale() / 10);
       }});
}

}  // namespace ddalab
