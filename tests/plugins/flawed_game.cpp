// A plug-in whose game loads but breaks a promise of core/state.h (gains() disagrees with
// gain(p)): `ddalab check-game flawed-pile --plugin` must fail the shortcuts check, saying where
// (tests/app/cli/plugin_test.sh).
#include "tests/flawed_game.h"

#include "core/plugin.h"

namespace {

void registerFlawedPile(ddalab::Catalog& catalog, const std::string& origin) {
  catalog.add(ddalab::flawed::pileInfo("flawed-pile", ddalab::flawed::Flaw::GainsDisagree), origin);
}

}  // namespace

DDALAB_PLUGIN("flawed", "1", registerFlawedPile)
