// A plug-in of games that break the state contract the match loop relies on (tests/flawed_game.h,
// contractFlaws(): an actor that is no seat, no legal actions, no outcomes, NaN or unnormalised
// probabilities, rounds that jump, a winner that is no seat, a game that never ends, more seats
// than ddalab has): `ddalab check-game hostile-<flaw>` must end each in a FAILED line and `ddalab
// run` must stop with the message, keeping the finished games (tests/app/cli/hostile_plugin_test.sh).
#include "core/plugin.h"
#include "tests/flawed_game.h"

namespace {

void registerHostileGames(ddalab::Catalog& catalog, const std::string& origin) {
  for (const ddalab::flawed::ContractFlaw& flaw : ddalab::flawed::contractFlaws())
    catalog.add(ddalab::flawed::pileInfo(std::string("hostile-") + flaw.suffix, flaw.flaw), origin);
}

}  // namespace

DDALAB_PLUGIN("hostile", "1", registerHostileGames)
