#pragma once
// Every game ddalab knows.
#include <span>

#include "core/registry.h"

namespace ddalab {

// The registered games in display order.
std::span<const GameInfo> gameRegistry();

}  // namespace ddalab
