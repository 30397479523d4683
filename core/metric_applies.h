#pragma once
// The check that an input weighs or aims only at metrics its game can have.
#include <string>

#include "core/metrics.h"

namespace ddalab {

// Throws InputError at `path` unless a game of `players` seats can have `metric` (fairness and
// the extended metrics need two): a coefficient or an objective on it would steer nothing.
void checkMetricApplies(Metric metric, int players, const std::string& path);

}  // namespace ddalab
