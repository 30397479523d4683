// A plug-in registering a regular player without its factory (PlayerInfo::makeRegular): ddalab
// refuses it at load, naming the plug-in, the player and the field, instead of leaving it out of
// every list silently (tests/app/cli/plugin_test.sh).
#include "core/plugin.h"

namespace {

void registerPlayerWithoutFactory(ddalab::Catalog& catalog, const std::string& origin) {
  catalog.add(ddalab::PlayerInfo{.id = "factoryless",
                                 .kind = ddalab::PlayerKind::Regular,
                                 .description = "a player nobody can build",
                                 .params = {}},
              origin);
}

}  // namespace

DDALAB_PLUGIN("no-factory", "1", registerPlayerWithoutFactory)
