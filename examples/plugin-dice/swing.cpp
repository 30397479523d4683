// A plug-in metric: swing, on ddalab's statuses (an example of how a plug-in follows a game; it
// is close to the built-in drama_trailing of metrics.md, which measures the final leader's deficit
// to the leader's gain instead; Ludii's drama_average averages over every round). A game swings
// when the player who ends in the lead spent rounds behind, far behind: swing is the mean, over the
// rounds in which the final leader trailed, of its gap to the round's best status; 0 when it never
// trailed, when the game ends tied, or with one player.
//
// A metric follows the game round by round in a few doubles of the tracker's scratch (the
// tracker is a small value the search players copy), so it keeps per seat the sum of its gaps
// and the number of rounds it trailed; the final leader is known only at the end.
#include <algorithm>

#include "pig.h"

namespace pig {

namespace {

// state[2p]: sum of seat p's gaps; state[2p + 1]: rounds seat p trailed.
void endRound(std::span<double> state, const RoundView& round) {
  const double best = *std::max_element(round.status.begin(), round.status.end());
  for (size_t p = 0; p < round.status.size(); ++p) {
    const double gap = best - round.status[p];
    if (gap <= 0) continue;
    state[2 * p] += gap;
    state[2 * p + 1] += 1;
  }
}

double value(std::span<const double> state, const RoundView& last) {
  if (last.leader < 0) return 0.0;
  const auto p = static_cast<size_t>(last.leader);
  return state[2 * p + 1] > 0 ? state[2 * p] / state[2 * p + 1] : 0.0;
}

bool twoOrMore(int players) {
  return players >= 2;
}

}  // namespace

MetricInfo swingInfo() {
  MetricInfo info;
  info.key = "swing";
  info.label = "Swing";
  info.description =
      "mean gap of the final leader to the best status over the rounds it trailed (plug-in)";
  info.better = Better::Higher;
  info.applies = twoOrMore;
  info.rule = {endRound, value};
  info.scratchSize = 2 * kMaxPlayers;
  return info;
}

}  // namespace pig
