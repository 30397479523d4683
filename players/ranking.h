#pragma once
// Base of the regular players that score every legal action and pick by level scaling.
#include <vector>

#include "core/player.h"
#include "players/level.h"

namespace ddalab {

class RankingPlayer : public Player {
 public:
  RankingPlayer(int level, double sigma) : level_(level), sigma_(sigma) {}

  Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) final {
    if (legal.size() == 1) return legal[0];
    scores_.resize(legal.size());
    scoreActions(state, legal, scores_, rng);
    return legal[pickByLevel(scores_, level_, sigma_, rng)];
  }

  // Fills scores[i] for legal[i]: higher = better for the actor of `state`.
  virtual void scoreActions(const State& state, std::span<const Action> legal,
                            std::span<double> scores, Rng& rng) = 0;

 private:
  int level_;
  double sigma_;
  std::vector<double> scores_;
};

}  // namespace ddalab
