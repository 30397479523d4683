#pragma once
// Level scaling of regular players (players.md, thesis 5.2.4).
#include <cstdint>
#include <span>
#include <vector>

#include "core/params.h"
#include "core/rng.h"
#include "core/state.h"

namespace ddalab {

// Index of the action to play given a score for every legal action: actions sorted ascending
// by score (equal scores in random order), x ~ Normal(level/100, sigma) redrawn until in [0, 1],
// index round(x (m - 1)) of that order. sigma = 0 gives the exact rank. NaN scores rank below
// every number (score_order.h): the order is always well defined, so any scores give a valid
// index; a level outside 0..100 is clamped to it.
size_t pickByLevel(std::span<const double> scores, int level, double sigma, Rng& rng);

// What level scaling ranks (the `level_model` parameter). The thesis ranks every legal action;
// where one decision is several actions (Lost Cities: a card's play or discard times ~6 draw
// sources) a low rank mostly changes the minor part, so the other models rank coarser candidates.
// Each candidate is played as its best-scored member, so level 100 with sigma 0 still plays a
// best-scored action under every model.
enum class LevelModel {
  Actions,  // every legal action is a candidate (the thesis as written; the default)
  Groups,   // one candidate per action group (State::actionGroup)
  States,   // one candidate per distinct resulting state (State::toString after the action)
};

struct LevelScaling {
  double sigma = 0.4;
  LevelModel model = LevelModel::Actions;
  int topK = 0;  // only the topK best-scored candidates are ranked; 0 = all
  // Only actions the base algorithm proposes (RankingPlayer::proposals) are ranked.
  bool proposedOnly = false;
};

// The level scaling a player's validated parameters (levelParams) ask for.
LevelScaling levelScalingFrom(const Json& params);

// Index into `legal` of the action to play at `level` given scores[i] for legal[i]: pickByLevel
// over the candidates of scaling.model (each scored by its best member), the topK best only;
// with scaling.proposedOnly only legal[i] with proposed[i] != 0 (empty or none set = all). The
// default scaling is pickByLevel(scores, level, sigma) exactly, drawing the same numbers.
size_t pickByLevelModel(const State& state, std::span<const Action> legal,
                        std::span<const double> scores, std::span<const uint8_t> proposed,
                        int level, const LevelScaling& scaling, Rng& rng);

// The spec of `sigma` alone (the DDA players' own; their base brings its level model).
ParamSpec sigmaParam();
// The parameters every level-scaled player has (sigma, level_model, level_top_k).
std::vector<ParamSpec> levelParams();
// `own` followed by the level parameters.
std::vector<ParamSpec> withLevelParams(std::vector<ParamSpec> own);

}  // namespace ddalab
