#include "games/registry.h"

#include <vector>

#include "games/hexalines/hexalines.h"
#include "games/lost-cities/lost_cities.h"
#include "games/ludo/ludo.h"
#include "games/maze/maze.h"

namespace ddalab {

std::span<const GameInfo> gameRegistry() {
  // A new game: one folder in games/ and one line here.
  static const std::vector<GameInfo> games = {
      ludo::gameInfo(),
      maze::gameInfo(),
      lostcities::gameInfo(),
      hexalines::gameInfo(),
  };
  return games;
}

}  // namespace ddalab
