#pragma once
// A recorded game rebuilt from a trace line (docs/trace-format.md) for the replay: the game is
// dealt again from its seed and every recorded action applied, so each round can be shown on the
// game's view with the live panel; the recorded gains are checked against the rebuilt ones.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/gui/play/live_panel.h"
#include "core/match.h"
#include "core/registry.h"

namespace ddalab::gui {

class Replay {
 public:
  // Rebuilds the game `line` records, dealt by `game`. Throws InputError when the trace does not
  // fit the game (an action that is not legal, a round that does not end where recorded, gains
  // that differ from the recorded ones).
  Replay(const Json& line, const Game& game, const Coefficients& coefficients);

  // Rounds recorded; positions are 0 (the start) .. rounds().
  int rounds() const { return static_cast<int>(states_.size()) - 1; }
  const State& stateAt(int position) const { return *states_.at(static_cast<size_t>(position)); }
  const MetricsTracker& trackerAt(int position) const {
    return trackers_.at(static_cast<size_t>(position));
  }
  // The gains and statuses the trace recorded after `position` rounds (0: the initial ones).
  std::vector<double> recordedGains(int position) const;
  std::vector<double> recordedStatuses(int position) const;
  // The last environment decision up to `position` (none before the first), as far as every
  // seat of `viewers` may know it (none: everything).
  std::optional<DecisionReport> decisionAt(int position, std::span<const int> viewers = {}) const;
  // The state the decision of decisionAt(position) was taken at (none before the first).
  const State* decisionStateAt(int position) const;
  // What happened in round `position` (1..rounds()), as the game writes actions; an outcome
  // hidden from a seat of `viewers` as the game tells it to that seat.
  std::string roundText(int position, std::span<const int> viewers = {}) const;
  const Coefficients& coefficients() const { return coefficients_; }
  // The objective a detailed trace line records (the weighted sum when it records none).
  const Objective& objective() const { return objective_; }
  const Json& line() const { return line_; }

 private:
  Json line_;
  Coefficients coefficients_;
  Objective objective_;
  std::vector<std::unique_ptr<State>> states_;
  std::vector<MetricsTracker> trackers_;
  // An environment decision: the state it was taken at, the outcome and the trace's report.
  struct Decision {
    std::unique_ptr<State> before;
    Action chosen = 0;
    DecisionReport report;
  };
  std::vector<std::shared_ptr<const Decision>> decisions_;  // the last one up to each position
  // Per round, one entry per action: its environment decision (null: a player's action).
  std::vector<std::vector<std::shared_ptr<const Decision>>> roundSteps_;
};

// The game a detailed trace line records ("game": id and parameters); none in a plain trace.
std::shared_ptr<const Game> gameOfTrace(const Json& line);
// The coefficients a detailed trace line records (all 0 in a plain trace).
Coefficients coefficientsOfTrace(const Json& line);

// A decision as the panel shows it, from a detailed trace's "decision" (or, for a plain trace,
// from the outcomes at `before` and the chosen one).
DecisionReport decisionReport(const Json& action, const State& before);
// A live decision: the outcome chosen at `before` and, when described, how it was weighed —
// as far as every seat of `viewers` may know it (none: everything, for researchers and demos).
DecisionReport decisionReport(const State& before, Action chosen,
                              const EnvironmentDecision* decision, const Coefficients& coefficients,
                              std::span<const int> viewers = {});

}  // namespace ddalab::gui
