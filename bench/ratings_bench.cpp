// The ratings' fit and bootstrap at the size issue 51 states (Performance): 100 entrants, a round
// robin in both seat orders of 10^6 two-seat games (101 per ordered pairing, 999 900 in all),
// outcomes drawn from known strengths with a first-seat advantage and draws.
#include <benchmark/benchmark.h>

#include <cmath>

#include "core/rng.h"
#include "results/ratings.h"

namespace ddalab {
namespace {

constexpr uint32_t kBenchEntrants = 100;
constexpr int kGamesPerOrderedPair = 101;

// Calls add(first, second, firstPlace, secondPlace) for every simulated game: Davidson's model
// with strengths N(0, 200²) Elo, a first-seat advantage of 30 and ν = 0.25 (11 % draws of equals).
template <typename Add>
void simulateRoundRobin(Add add) {
  Rng rng(51);
  std::vector<double> strength(kBenchEntrants);
  for (double& s : strength) s = 200 * rng.normal();
  const double nu = 0.25;
  for (uint32_t a = 0; a < kBenchEntrants; ++a)
    for (uint32_t b = 0; b < kBenchEntrants; ++b) {
      if (a == b) continue;
      const double x = (strength[a] + 30 - strength[b]) / kEloPerLogOdds / 2;
      const double d = std::exp(x) + std::exp(-x) + nu;
      const double aWins = std::exp(x) / d, draw = nu / d;
      for (int g = 0; g < kGamesPerOrderedPair; ++g) {
        const double u = rng.uniform();
        if (u < aWins)
          add(a, b, 0, 1);
        else if (u < aWins + draw)
          add(a, b, 0, 0);
        else
          add(a, b, 1, 0);
      }
    }
}

RatingData benchData() {
  std::vector<std::string> names;
  for (uint32_t e = 0; e < kBenchEntrants; ++e)
    names.push_back(std::string("e").append(std::to_string(e)));
  RatingData data(names);
  simulateRoundRobin([&](uint32_t a, uint32_t b, int pa, int pb) {
    const uint32_t entrants[] = {a, b};
    const int places[] = {pa, pb};
    data.add({0, entrants, places});
  });
  return data;
}

// Adding 10^6 games one by one (what a results folder's reader does).
void BM_RatingsAddGames(benchmark::State& bench) {
  for (auto _ : bench) benchmark::DoNotOptimize(benchData().games());
}
BENCHMARK(BM_RatingsAddGames)->Unit(benchmark::kMillisecond)->Iterations(3);

// The maximum-likelihood fit with its information-matrix intervals (first argument 0; target:
// <= 1 s) and with a bootstrap of 1000 replicates on one core (1000; target: <= 30 s); draws half
// (second argument 0) or Davidson's (1).
void BM_RatingsFit(benchmark::State& bench) {
  const RatingData data = benchData();
  RatingModel model;
  model.bootstrap = static_cast<int>(bench.range(0));
  model.draws = bench.range(1) ? DrawRule::Davidson : DrawRule::Half;
  for (auto _ : bench) benchmark::DoNotOptimize(fitRatings(data, model).bootstrapKept);
}
BENCHMARK(BM_RatingsFit)->Unit(benchmark::kMillisecond)->Args({0, 0})->Args({0, 1})->Iterations(5);
BENCHMARK(BM_RatingsFit)
    ->Unit(benchmark::kMillisecond)
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Iterations(1);

}  // namespace
}  // namespace ddalab
