// A plug-in built for another plug-in ABI (tests/app/cli/plugin_test.sh): ddalab must refuse it before
// calling anything else of it.
#include "core/plugin.h"

namespace {

void registerNothing(ddalab::Catalog&, const std::string&) {}

}  // namespace

extern "C" __attribute__((visibility("default"))) const ddalab::PluginEntry* ddalab_plugin_entry() {
  static const ddalab::PluginEntry entry{998,         __VERSION__, DDALAB_SDK_VERSION,
                                         "wrong-abi", "1",         registerNothing};
  return &entry;
}
