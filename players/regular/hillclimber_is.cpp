// `hillclimber-is`: one-ply search summed over determinizations of what the player has seen.
// Every determinization polls the run's stop token (up to 10^5 of them per decision).
#include <algorithm>

#include "core/registry.h"
#include "players/regular/ranking.h"
#include "players/search/greedy.h"
#include "players/search/score_order.h"

namespace ddalab {

namespace {

class HillClimberIS final : public RankingPlayer {
 public:
  HillClimberIS(int level, const LevelScaling& scaling, int samples, StopToken stop)
      : RankingPlayer(level, scaling), samples_(samples), stop_(stop) {}

  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng& rng) override {
    std::fill(scores.begin(), scores.end(), 0.0);
    sampleScores_.resize(legal.size());
    proposed_.assign(legal.size(), 0);
    for (int s = 0; s < samples_; ++s) {
      stop_.check();
      const auto world = state.determinize(state.actor(), rng, {});
      scoreByValue(*world, legal, sampleScores_, &scratch_);
      for (size_t i = 0; i < legal.size(); ++i) scores[i] += sampleScores_[i];
      markBest(sampleScores_);
    }
  }

  // Its proposals: the actions best in at least one determinization.
  void proposals(std::vector<uint8_t>& out) const override { out = proposed_; }

 private:
  // Marks every action scoring the best of one determinization (ties: all of them).
  void markBest(std::span<const double> sampleScores) {
    const double best = *std::max_element(sampleScores.begin(), sampleScores.end(), scoreBelow);
    for (size_t i = 0; i < sampleScores.size(); ++i)
      if (!scoreBelow(sampleScores[i], best)) proposed_[i] = 1;
  }

  int samples_;
  StopToken stop_;
  std::vector<double> sampleScores_;
  std::vector<uint8_t> proposed_;  // of the last scoreActions
  ScratchState scratch_;
};

}  // namespace

PlayerInfo hillClimberISInfo() {
  return {.id = "hillclimber-is",
          .kind = PlayerKind::Regular,
          .description = "one-ply search on the value summed over determinizations (no cheating)",
          .params = withLevelParams(
              {{"samples", ParamType::Int, 30, 1, 100000, "determinizations per decision"}}),
          .incompatibility =
              [](const Game& game, const Json&, PlayerKind) {
                return game.hasHiddenInformation()
                           ? std::string()
                           : std::string("the game has no hidden information; use hillclimber");
              },
          .makeRegular =
              [](const PlayerSetup& setup) {
                return std::make_unique<HillClimberIS>(setup.level, levelScalingFrom(setup.params),
                                                       setup.params.at("samples").get<int>(),
                                                       setup.stop);
              },
          .ranksActions = true,
          .defaultAi = true};
}

}  // namespace ddalab
