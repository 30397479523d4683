// Micro-benchmarks of the hot paths (Google Benchmark). `ddalab bench` measures whole batches.
#include <benchmark/benchmark.h>

#include "core/match.h"
#include "core/metrics.h"
#include "experiments/batch.h"
#include "experiments/runner.h"
#include "games/registry.h"
#include "players/registry.h"

namespace ddalab {
namespace {

std::shared_ptr<const Game> ludo(int players) {
  const auto& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  return info.make(validateParams(info.params, Json{{"players", players}}, "params"));
}

// One Ludo game of four uniformly random players with full metric tracking.
void BM_LudoRandomGame(benchmark::State& bench) {
  const auto game = ludo(4);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  uint64_t seed = 1;
  for (auto _ : bench) {
    auto state = game->newGame(seed);
    Rng rng(seed++);
    const Gains initial = gainsOf(*state);
    MetricsTracker tracker(std::span(initial.data(), 4));
    while (!state->isTerminal()) {
      if (state->isEnvironmentNode()) {
        state->outcomes(outcomes);
        applyTracked(*state, tracker, sampleOutcome(outcomes, rng), 0);
      } else {
        state->legalActions(legal);
        applyTracked(*state, tracker, legal[rng.below(static_cast<uint32_t>(legal.size()))],
                     static_cast<int>(legal.size()));
      }
    }
    benchmark::DoNotOptimize(tracker.values(state->believability()));
  }
}
BENCHMARK(BM_LudoRandomGame);

// One round end of the metrics tracker (4 players).
void BM_TrackerEndRound(benchmark::State& bench) {
  const std::array<double, 4> gains = {-10.0, -12.5, -9.75, -11.0};
  MetricsTracker tracker(gains);
  for (auto _ : bench) {
    tracker.onEnvironmentEvent();
    tracker.onDecision(0, 3, false);
    tracker.endRound(gains);
    benchmark::DoNotOptimize(tracker);
  }
}
BENCHMARK(BM_TrackerEndRound);

// One e-hillclimber decision: six rolls, each settled by the greedy move.
void BM_EHillClimberDecision(benchmark::State& bench) {
  const auto game = ludo(4);
  auto state = game->newGame(0);
  const Gains initial = gainsOf(*state);
  const MetricsTracker trace(std::span(initial.data(), 4));
  Coefficients coefficients{};
  coefficients[static_cast<size_t>(Metric::Tension)] = 10;
  coefficients[static_cast<size_t>(Metric::Believability)] = 1000;
  const auto& info = findById<PlayerInfo>(playerRegistry(), "e-hillclimber", "player", "");
  auto environment = info.makeEnvironment(
      {*game, 100, validateParams(info.params, Json{{"random_prob", 0.0}}, "p"), coefficients});
  Rng own(1), nature(2);
  for (auto _ : bench)
    benchmark::DoNotOptimize(environment->chooseOutcome(*state, trace, own, nature));
}
BENCHMARK(BM_EHillClimberDecision);

}  // namespace
}  // namespace ddalab
