#include "games/registry.h"

#include "core/catalog.h"
#include "games/hexalines/hexalines.h"
#include "games/lost-cities/lost_cities.h"
#include "games/ludo/ludo.h"
#include "games/maze/maze.h"

namespace ddalab {

std::span<const GameInfo> gameRegistry() {
  // Registered once, before any plug-in's game. A new game: one folder in games/ and one line
  // here.
  static const bool registered = [] {
    for (GameInfo info :
         {ludo::gameInfo(), maze::gameInfo(), lostcities::gameInfo(), hexalines::gameInfo()})
      catalog().add(std::move(info), kBuiltIn);
    return true;
  }();
  (void)registered;
  return catalog().games();
}

}  // namespace ddalab
