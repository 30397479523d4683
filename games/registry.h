#pragma once
// Every game ddalab knows: the built-ins, then those of plug-ins (core/catalog.h).
#include <span>

#include "core/registry.h"

namespace ddalab {

// The games of the catalog in display order, the built-ins registered on the first call.
std::span<const GameInfo> gameRegistry();

}  // namespace ddalab
