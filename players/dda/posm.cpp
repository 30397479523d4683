// `posm`: a DDA player choosing its level with POSM (players.md "DDA players").
#include "players/dda/posm.h"

#include <algorithm>
#include <cmath>

#include "players/search/tie_breaking.h"

namespace ddalab {

PosmWeights::PosmWeights(int settings, double beta)
    : logBeta_(std::log(beta)), logWeights_(static_cast<size_t>(settings), 0.0) {}

int PosmWeights::choose(Rng& rng) const {
  const size_t n = logWeights_.size();
  std::vector<double> w(n), balance(n);
  for (size_t k = 0; k < n; ++k) w[k] = weight(static_cast<int>(k));
  double easier = 0.0, all = 0.0;
  for (double x : w) all += x;
  for (size_t k = 0; k < n; ++k) {
    easier += w[k];                                      // B(k)
    balance[k] = std::min(easier, all - easier + w[k]);  // min(B(k), A(k))
  }
  return static_cast<int>(randomBestIndex(balance, rng));
}

void PosmWeights::update(int k, int o) {
  if (o == 0) return;
  const auto first = logWeights_.begin() + (o > 0 ? 0 : k);
  const auto last = o > 0 ? logWeights_.begin() + k + 1 : logWeights_.end();
  for (auto it = first; it != last; ++it) *it += logBeta_;
  // Shift so the largest is 0 again: only ratios matter, and the numbers stay small.
  const double top = *std::max_element(logWeights_.begin(), logWeights_.end());
  for (double& x : logWeights_) x -= top;
}

double PosmWeights::weight(int k) const {
  return std::exp(logWeights_[static_cast<size_t>(k)]);
}

int PosmRule::observe(double status) const {
  return status < -delta_ ? +1 : (status > delta_ ? -1 : 0);
}

int PosmRule::nextLevel(double status, Rng& rng) {
  if (last_ >= 0) weights_.update(last_, observe(status));
  last_ = weights_.choose(rng);
  return levelOf(last_);
}

PlayerInfo posmInfo() {
  return ddaPlayerInfo(
      {.id = "posm",
       .description = "DDA by POSM (Missura & Gärtner) over levels 10..100 of a base player; "
                      "the maze-building opponent in one-player games",
       .params = {{"beta", ParamType::Double, 0.75, 1e-6, 1,
                   "factor of the weights of the settings an observation rules out"},
                  {"delta", ParamType::Double, -1, -1, 1e12,
                   "own status beyond which a setting was too easy (s < -delta) or too hard "
                   "(s > delta) for the opponents; negative = the game's status scale"}},
       .levelScaled = true,
       .makeRule = [](const PlayerSetup& setup) -> std::unique_ptr<LevelRule> {
         const double delta = setup.params.at("delta").get<double>();
         return std::make_unique<PosmRule>(setup.params.at("beta").get<double>(),
                                           delta >= 0 ? delta : setup.game.statusScale());
       }});
}

}  // namespace ddalab
