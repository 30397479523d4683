// A plug-in registering a game without its factory (GameInfo::make): ddalab refuses it at load,
// naming the plug-in, the game and the field, instead of failing with bad_function_call when the
// game is first played (tests/app/cli/plugin_test.sh).
#include "core/plugin.h"

namespace {

void registerGameWithoutMake(ddalab::Catalog& catalog, const std::string& origin) {
  ddalab::GameInfo info;
  info.id = "makeless";
  info.description = "a game nobody can build";
  catalog.add(info, origin);
}

}  // namespace

DDALAB_PLUGIN("no-make", "1", registerGameWithoutMake)
