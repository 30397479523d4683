// `hillclimber`: scores each action by the value of the state it leads to (one ply).
#include "core/registry.h"
#include "players/ranking.h"
#include "players/simulation.h"

namespace ddalab {

namespace {

class HillClimber final : public RankingPlayer {
 public:
  using RankingPlayer::RankingPlayer;
  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng&) override {
    scoreByValue(state, legal, scores);
  }
};

}  // namespace

PlayerInfo hillClimberInfo() {
  PlayerInfo info;
  info.id = "hillclimber";
  info.kind = PlayerKind::Regular;
  info.description = "one-ply search on the game's value, level-scaled";
  info.params = levelParams();
  info.incompatibility = [](const Game& game) {
    return game.hasHiddenInformation()
               ? std::string("hillclimber would see hidden information; use hillclimber-is")
               : std::string();
  };
  info.makeRegular = [](const PlayerSetup& setup) {
    return std::make_unique<HillClimber>(setup.level, setup.params.at("sigma").get<double>());
  };
  return info;
}

}  // namespace ddalab
