#pragma once
// Level scaling of regular players (players.md, thesis 5.2.4).
#include <span>
#include <vector>

#include "core/params.h"
#include "core/rng.h"

namespace ddalab {

// Index of the action to play given a score for every legal action: actions sorted ascending
// by score (equal scores in random order), x ~ Normal(level/100, sigma) redrawn until in [0, 1],
// index round(x (m - 1)) of that order. sigma = 0 gives the exact rank. NaN scores rank below
// every number (score_order.h): the order is always well defined, so any scores give a valid
// index; a level outside 0..100 is clamped to it.
size_t pickByLevel(std::span<const double> scores, int level, double sigma, Rng& rng);

// The parameters every level-scaled player has (sigma).
std::vector<ParamSpec> levelParams();
// `own` followed by the level parameters.
std::vector<ParamSpec> withLevelParams(std::vector<ParamSpec> own);

}  // namespace ddalab
