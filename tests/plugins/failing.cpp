// A plug-in whose registration throws (tests/app/cli/plugin_test.sh): ddalab names the file and the
// reason, and the catalog is left as it was.
#include <stdexcept>

#include "core/plugin.h"

namespace {

void registerAndFail(ddalab::Catalog&, const std::string&) {
  throw std::runtime_error("the game's data file is missing");
}

}  // namespace

DDALAB_PLUGIN("failing", "1", registerAndFail)
