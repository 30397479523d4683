// `hillclimber`: scores each action by the value of the state it leads to (one ply).
#include "core/registry.h"
#include "players/regular/ranking.h"
#include "players/search/greedy.h"

namespace ddalab {

namespace {

class HillClimber final : public RankingPlayer {
 public:
  using RankingPlayer::RankingPlayer;
  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng&) override {
    scoreByValue(state, legal, scores, &scratch_);
  }

 private:
  ScratchState scratch_;
};

}  // namespace

PlayerInfo hillClimberInfo() {
  return {.id = "hillclimber",
          .kind = PlayerKind::Regular,
          .description = "one-ply search on the game's value, level-scaled",
          .params = withLevelParams({{"sees_hidden", ParamType::Bool, false, 0, 0,
                                      "allow hidden-information games: a cheating benchmark that "
                                      "values states with the opponent's hand and the deck"}}),
          .incompatibility =
              [](const Game& game, const Json& params, PlayerKind) {
                return game.hasHiddenInformation() && !params.at("sees_hidden").get<bool>()
                           ? std::string(
                                 "it would see hidden information; use hillclimber-is, "
                                 "or set params.sees_hidden = true for a cheating "
                                 "benchmark")
                           : std::string();
              },
          .makeRegular =
              [](const PlayerSetup& setup) {
                return std::make_unique<HillClimber>(setup.level, levelScalingFrom(setup.params));
              },
          .ranksActions = true,
          .defaultAi = true};
}

}  // namespace ddalab
