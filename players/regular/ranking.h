#pragma once
// Base of the regular players that score every legal action and pick by level scaling.
#include <vector>

#include "core/player.h"
#include "players/regular/level.h"

namespace ddalab {

class RankingPlayer : public Player {
 public:
  RankingPlayer(int level, const LevelScaling& scaling) : level_(level), scaling_(scaling) {}

  Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) final {
    if (legal.size() == 1) return legal[0];
    scores_.resize(legal.size());
    scoreActions(state, legal, scores_, rng);
    if (scaling_.proposedOnly) proposals(proposed_);
    return legal[pickByLevelModel(state, legal, scores_, proposed_, level_, scaling_, rng)];
  }

  // Fills scores[i] for legal[i]: higher = better for the actor of `state`.
  virtual void scoreActions(const State& state, std::span<const Action> legal,
                            std::span<double> scores, Rng& rng) = 0;

  // After scoreActions: out[i] != 0 for each legal[i] the algorithm itself would play (e.g. won
  // some determinization); cleared when it proposes every action (the default).
  virtual void proposals(std::vector<uint8_t>& out) const { out.clear(); }

  // How this player's level picks among its scores (the DDA players reuse its model).
  const LevelScaling& levelScaling() const { return scaling_; }

 private:
  int level_;
  LevelScaling scaling_;
  std::vector<double> scores_;
  std::vector<uint8_t> proposed_;  // stays empty unless the level model asks for proposals
};

}  // namespace ddalab
