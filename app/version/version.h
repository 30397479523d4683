#pragma once
#include <string>

namespace ddalab::app {

// "0.1.0 (commit 0123456789ab, Release)"; the commit reads "…-dirty" when tracked files differed
// from it at build time and "unknown" outside a git checkout.
std::string buildDescription();

}  // namespace ddalab::app
