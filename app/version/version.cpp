#include "version.h"

#include "build_info_generated.h"

namespace ddalab::app {

std::string buildDescription() {
  return std::string(DDALAB_VERSION) + " (commit " + DDALAB_COMMIT + ", " + DDALAB_BUILD_TYPE + ")";
}

}  // namespace ddalab::app
