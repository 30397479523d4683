#pragma once
// Every player ddalab knows, regular and environment.
#include <span>

#include "core/registry.h"

namespace ddalab {

// The registered players in display order.
std::span<const PlayerInfo> playerRegistry();

}  // namespace ddalab
