#include "players/level.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "players/score_order.h"

namespace ddalab {

size_t pickByLevel(std::span<const double> scores, int level, double sigma, Rng& rng) {
  const size_t m = scores.size();
  if (m <= 1) return 0;
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t i = m - 1; i > 0; --i)
    std::swap(order[i], order[rng.below(static_cast<uint32_t>(i + 1))]);
  std::stable_sort(order.begin(), order.end(),
                   [&scores](size_t a, size_t b) { return scoreBelow(scores[a], scores[b]); });
  const double target = std::clamp(level, 0, 100) / 100.0;
  double x = target;
  if (sigma > 0) {
    do x = target + sigma * rng.normal();
    while (x < 0.0 || x > 1.0);
  }
  return order[static_cast<size_t>(std::lround(x * static_cast<double>(m - 1)))];
}

std::vector<ParamSpec> levelParams() {
  return {{"sigma", ParamType::Double, 0.4, 0, 10,
           "std of the normal draw around level/100 that picks the rank (0 = exact rank)"}};
}

std::vector<ParamSpec> withLevelParams(std::vector<ParamSpec> own) {
  for (auto& spec : levelParams()) own.push_back(std::move(spec));
  return own;
}

}  // namespace ddalab
