#include "core/status.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace ddalab {

namespace {

// The players who can lead: those not out, or everybody when nobody else is left.
bool contends(std::span<const bool> out, size_t p, size_t contenders) {
  return contenders == 0 || out.empty() || !out[p];
}

}  // namespace

int computeStatusesWithOut(std::span<const double> gains, std::span<double> statuses,
                           std::span<const bool> out) {
  const size_t n = gains.size();
  size_t contenders = 0;
  for (size_t p = 0; p < n; ++p) contenders += out.empty() || !out[p];
  if (contenders == n || contenders == 0) return statusesAllContending(gains, statuses);
  std::optional<size_t> best;
  for (size_t p = 0; p < n; ++p)
    if (contends(out, p, contenders) && (!best || gains[p] > gains[*best])) best = p;
  const double top = gains[*best];
  bool tie = false;
  double second = -INFINITY, others = -INFINITY;
  for (size_t p = 0; p < n; ++p) {
    if (p == *best) continue;
    others = std::max(others, gains[p]);
    if (!contends(out, p, contenders)) continue;
    if (gainsTied(gains[p], top)) tie = true;
    second = std::max(second, gains[p]);
  }
  if (second == -INFINITY) second = others;  // the only one left measured against the rest
  for (size_t p = 0; p < n; ++p) {
    if (!contends(out, p, contenders))
      statuses[p] = std::min(0.0, gains[p] - top);
    else if (tie && gainsTied(gains[p], top))
      statuses[p] = 0.0;
    else
      statuses[p] = (p == *best) ? top - second : gains[p] - top;
  }
  return tie ? -1 : static_cast<int>(*best);
}

int statusesOf(const State& state, std::span<double> statuses) {
  const Gains gains = gainsOf(state);
  const OutOfGame out = outOf(state);
  const size_t n = static_cast<size_t>(state.numPlayers());
  return computeStatuses(std::span(gains.data(), n), statuses.first(n), std::span(out.data(), n));
}

}  // namespace ddalab
