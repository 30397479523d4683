#include "players/environment/opponent_model.h"

#include <algorithm>
#include <cmath>

#include "players/regular/ranking.h"
#include "players/search/greedy.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

OpponentModel::OpponentModel(OpponentModelKind kind, const PlayerSetup& setup) : kind_(kind) {
  if (kind == OpponentModelKind::Greedy) return;
  for (const SeatSetup& seat : setup.seats) {
    PlayerSetup model{setup.game, seat.level, seat.params, setup.coefficients, setup.stop};
    model.gameInfo = setup.gameInfo;
    model.gameParams = setup.gameParams;
    seats_.push_back(seat.info && seat.info->canAct(PlayerKind::Regular)
                         ? seat.info->makeRegular(model)
                         : nullptr);
    levels_.push_back(seat.level);
    ranks_.push_back(seats_.back() && seat.info->ranksActions);
  }
}

Action OpponentModel::reply(const State& state, std::span<const Action> legal, ReplyMemo* memo) {
  const auto actor = static_cast<size_t>(state.actor());
  if (kind_ == OpponentModelKind::Greedy || actor >= seats_.size() || !seats_[actor])
    return greedyAction(state, legal, &scratch_, memo);
  if (legal.size() == 1) return legal[0];  // a seat player draws nothing for a forced move either
  if (kind_ == OpponentModelKind::Ranking)
    return ranks_[actor] ? rankingReply(static_cast<RankingPlayer&>(*seats_[actor]), levels_[actor],
                                        state, legal)
                         : seats_[actor]->chooseAction(state, legal, rng_);
  return seats_[actor]->chooseAction(state, legal, rng_);
}

Action OpponentModel::rankingReply(RankingPlayer& seat, int level, const State& state,
                                   std::span<const Action> legal) {
  scores_.resize(legal.size());
  seat.scoreActions(state, legal, scores_, rng_);
  return legal[exactRank(scores_, level)];
}

size_t exactRank(std::span<const double> scores, int level) {
  const auto order = bestFirst(scores, 0);
  const double fromTop = (100.0 - std::clamp(level, 0, 100)) / 100.0;
  return order[static_cast<size_t>(std::lround(fromTop * static_cast<double>(order.size() - 1)))];
}

ParamSpec opponentModelParam(const std::string& greedy) {
  return {"opponent_model",
          ParamType::String,
          "greedy",
          0,
          0,
          "how simulations play the regular seats: greedy (" + greedy +
              "), ranking (the seat's player's scores at the exact rank of its level), players "
              "(the seat's player chooses, level draw included)",
          {"greedy", "ranking", "players"}};
}

OpponentModel makeOpponentModel(const PlayerSetup& setup) {
  const std::string name = setup.params.at("opponent_model").get<std::string>();
  const OpponentModelKind kind = name == "ranking"   ? OpponentModelKind::Ranking
                                 : name == "players" ? OpponentModelKind::Players
                                                     : OpponentModelKind::Greedy;
  return OpponentModel(kind, setup);
}

}  // namespace ddalab
