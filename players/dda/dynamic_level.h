#pragma once
// Dynamic Level (Gomez-Hicks & Kauchak; thesis 3.6, algorithm 2).
#include <algorithm>
#include <cmath>

#include "players/dda/dda.h"

namespace ddalab {

// Before each own decision: level <- clamp(level - s / alpha, 0, 100) (winning makes it weaker).
// The level is kept as a real number; the rank uses it rounded to a whole level, the resolution
// of level scaling (1 % of the ascending order).
class DynamicLevelRule final : public LevelRule {
 public:
  DynamicLevelRule(double initialLevel, double alpha) : level_(initialLevel), alpha_(alpha) {}
  // A NaN status (no valid game gives one) leaves the level as it is: a NaN level has no rank.
  int nextLevel(double status, Rng&) override {
    const double next = level_ - status / alpha_;
    if (!std::isnan(next)) level_ = std::clamp(next, 0.0, 100.0);
    return static_cast<int>(std::lround(level_));
  }
  // The current level, unrounded.
  double level() const { return level_; }

 private:
  double level_;
  double alpha_;
};

}  // namespace ddalab
