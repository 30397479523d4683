#pragma once
// How the searching environment players simulate the regular players' decisions: the
// value-greedy reply of the spec, or the seats' own players at their levels (thesis 4.2.3: an
// E-player makes the decisions the players make; docs/study-opponent-model.md).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/state_copy.h"

namespace ddalab {

enum class OpponentModelKind {
  Greedy,   // the best one-ply value, ties to the first action (players.md; no random numbers)
  Ranking,  // the seat player's scores at the exact rank of its level (no level draw)
  Players,  // the seat player's own choice, level draw included (what it would do)
};

// The replies a simulation plays for the regular seats. Ranking and Players build one player
// object per seat from PlayerSetup::seats and draw from the model's own stream, which the
// environment player reseeds once per decision. A seat without a player (a person) is modelled
// greedily; a seat whose player ranks no actions (a DDA player) is modelled by its own choice
// under Ranking too. The seat players here are copies: a DDA seat's rule would see only the
// simulated decisions, so model DDA seats greedily or know that its level drifts.
class RankingPlayer;
class ReplyMemo;

class OpponentModel {
 public:
  // A greedy model (needs no seats).
  OpponentModel() = default;
  // A model of `kind` for the seats of `setup` (each seat's player built with the setup's stop).
  OpponentModel(OpponentModelKind kind, const PlayerSetup& setup);

  // The action the model plays for `state`'s regular actor among `legal` (the game's order); a
  // greedy reply looks values up in `memo` when given (search/greedy.h).
  Action reply(const State& state, std::span<const Action> legal, ReplyMemo* memo = nullptr);
  // Restarts the model's stream (tests; players call startDecision).
  void reseed(uint64_t seed) { rng_.reseed(seed); }
  // Called once per searched decision: a random model reseeds from `own`; greedy draws nothing,
  // so a greedy player's streams stay as they were before models existed.
  void startDecision(Rng& own) {
    if (random()) rng_.reseed(own.next());
  }
  // Whether replies draw random numbers (anything but greedy).
  bool random() const { return kind_ != OpponentModelKind::Greedy; }

 private:
  Action rankingReply(RankingPlayer& seat, int level, const State& state,
                      std::span<const Action> legal);

  OpponentModelKind kind_ = OpponentModelKind::Greedy;
  std::vector<std::unique_ptr<Player>> seats_;  // null: modelled greedily
  std::vector<int> levels_;
  std::vector<bool> ranks_;  // the seat's player is a RankingPlayer (PlayerInfo::ranksActions)
  std::vector<double> scores_;
  Rng rng_;
  ScratchState scratch_;  // greedy replies' one-ply evaluations
};

// The action at the exact rank of `level` among `scores`: rank round((1 - level/100)(m - 1))
// counted from the best, equal scores in index order, so level 100 is the best with ties to the
// first (the greedy choice when the scores are one-ply values).
size_t exactRank(std::span<const double> scores, int level);

// The `opponent_model` parameter every searching environment player has; `greedy` says what the
// greedy model does in that player.
ParamSpec opponentModelParam(const std::string& greedy = "best one-ply value, ties to the first");
// The model named by setup.params.opponent_model for the seats of `setup`.
OpponentModel makeOpponentModel(const PlayerSetup& setup);

}  // namespace ddalab
