#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <iostream>

#include "experiments/plugins.h"

int main(int argc, char** argv) {
  // The plug-ins of DDALAB_PLUGIN_PATH join the catalog first: the conformance test then covers
  // their games too (tests/app/cli/plugin_test.sh runs it so).
  try {
    ddalab::loadPlugins({});
  } catch (const std::exception& e) {
    std::cerr << "ddalab_tests: " << e.what() << "\n";
    return 2;
  }
  return Catch::Session().run(argc, argv);
}
