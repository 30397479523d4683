#pragma once
// What the DDA players (players.md "DDA players", thesis 3.5, 3.6) share: a rule sets the level
// of each own decision from the player's own status; the choices are ranked by a base algorithm
// (regular role) or, as the environment of a one-player game, by the game's opponent view of
// the outcomes (State::scoreOutcomesAsOpponent), and the level picks the rank (level scaling).
//
// The experiment's `level` of a DDA seat is ignored (the rule sets it) and the base is built at
// level 100 with its defaults plus `base_params`: only its scores are used.
//
// A forced choice (one legal action or outcome) is not a decision: the rule is not consulted
// and no random number is drawn. As the environment they have no `random_prob` fallback: the
// rule alone decides how hard the game gets (the thesis opponents had none either).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/registry.h"

namespace ddalab {

// How a DDA player picks the level of its decisions.
class LevelRule {
 public:
  virtual ~LevelRule() = default;
  // The level 0..100 of the decision about to be made, given the player's own status now;
  // called once per own decision, in order.
  virtual int nextLevel(double status, Rng& rng) = 0;
};

// Status of player p in `state` (metrics.md: computeStatuses over the gains).
double statusOf(const State& state, int p);

// How one DDA player is described and built; ddaPlayerInfo adds the shared parts.
struct DdaSpec {
  std::string id;
  std::string description;
  std::vector<ParamSpec> params;  // the rule's own parameters
  bool levelScaled;               // picks the rank with the level-scaling draw (has `sigma`)
  std::function<std::unique_ptr<LevelRule>(const PlayerSetup&)> makeRule;
};

// A registry entry for `spec`: parameters plus `base` / `base_params` (and `sigma` when level
// scaled), a regular factory over the base and an environment factory over the opponent view.
PlayerInfo ddaPlayerInfo(DdaSpec spec);

}  // namespace ddalab
