#include "games/registry.h"

#include <vector>

#include "games/ludo/ludo.h"

namespace ddalab {

std::span<const GameInfo> gameRegistry() {
  // A new game: one folder in games/ and one line here.
  static const std::vector<GameInfo> games = {
      ludo::gameInfo(),
  };
  return games;
}

}  // namespace ddalab
