#pragma once
// POSM, Partially-Ordered-Set Master (Missura & Gärtner; thesis 3.5.1, algorithm 1).
#include <vector>

#include "core/rng.h"
#include "players/dda/dda.h"

namespace ddalab {

// The weights of POSM over settings 0..n-1 ordered from the easiest to the hardest (for the
// opponents). Kept as logarithms shifted so the largest is 0: a million updates neither
// underflow nor overflow, and the choice only depends on the ratios.
class PosmWeights {
 public:
  // `settings` settings, every weight 1; `beta` in (0, 1] is the factor of a penalized weight.
  PosmWeights(int settings, double beta);
  // The setting k maximizing min(A(k), B(k)), A = weight of k and harder settings, B = of k and
  // easier ones; ties at random.
  int choose(Rng& rng) const;
  // Observation `o` about setting k: +1 (too easy) multiplies the weights of k and every easier
  // setting by beta, -1 (too hard) those of k and every harder one, 0 changes nothing.
  void update(int k, int o);
  // The weight of setting k relative to the largest weight (which is 1).
  double weight(int k) const;
  int settings() const { return static_cast<int>(logWeights_.size()); }

 private:
  double logBeta_;
  std::vector<double> logWeights_;
};

// The POSM level rule of the `posm` player: settings are the levels 10, 20, ..., 100. At each
// own decision it first observes the outcome of its previous choice from the current status
// (everything that happened since: its own move and the opponents' replies), updates the
// weights about that choice, then chooses the setting of this decision.
class PosmRule final : public LevelRule {
 public:
  // `delta`: the status beyond which the game counts as too easy (s < -delta, the opponents
  // lead) or too hard (s > delta) for the opponents.
  PosmRule(double beta, double delta) : weights_(kSettings, beta), delta_(delta) {}
  int nextLevel(double status, Rng& rng) override;
  // +1 too easy for the opponents, -1 too hard, 0 balanced, given the own status.
  int observe(double status) const;
  const PosmWeights& weights() const { return weights_; }

  static constexpr int kSettings = 10;
  // The level of setting k (0-based): 10 (k + 1).
  static constexpr int levelOf(int k) { return 10 * (k + 1); }

 private:
  PosmWeights weights_;
  double delta_;
  int last_ = -1;  // the setting of the previous decision; -1 before the first
};

}  // namespace ddalab
