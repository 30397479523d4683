#pragma once
// One game of people against AIs and an environment, shown at a pace: the promise a user study
// depends on. It owns the lineup, the match, its trace and the people's decision timings; the AIs
// and the environment decide on an executor passed in (studies/decision_executor.h) and each
// decision is held until it is due. Under a fixed pace a decision is shown the pace after it
// began, however long it took, so that how long the environment thinks does not tell a
// participant the condition. It knows neither Qt nor HTTP: ddalab-gui's game session drives it
// with timers and a pause, `ddalab serve`'s online session with its pool and a replay of the
// moves kept before a restart; both wake it (no thread of its own), and read time from a clock
// passed in, so a test drives it with a clock that moves only when told.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/match.h"
#include "experiments/lineup.h"
#include "studies/decision_executor.h"
#include "studies/timing.h"
#include "studies/turn_clock.h"

namespace ddalab {

// The last environment decision with what it chose from.
struct EnvironmentMove {
  Action action = 0;                            // the outcome chosen
  std::optional<EnvironmentDecision> decision;  // how the environment player saw it
  std::unique_ptr<State> before;                // the state it was chosen at (its texts, what
                                                // each seat may know of it)
};

class PacedGame {
 public:
  // The game `experiment` (parsePlayedExperiment's) dealt by `seed`, a person at each seat
  // `people` marks; decisions run on `executor` and time is read from `clock`, both of which
  // outlive the game.
  PacedGame(Experiment experiment, std::vector<bool> people, uint64_t seed,
            DecisionExecutor& executor, const TimeSource& clock);
  PacedGame(const PacedGame&) = delete;
  PacedGame& operator=(const PacedGame&) = delete;

  const Experiment& experiment() const { return experiment_; }
  // The seats a person plays.
  const std::vector<bool>& people() const { return people_; }
  uint64_t seed() const { return seed_; }
  // Read only while !deciding(): a decision on the executor uses the match.
  const Match& match() const { return *match_; }
  // The legal actions of the player on turn (only while !deciding()).
  std::span<const Action> legal() { return match_->legal(); }
  // Whether the game is over (only while !deciding()).
  bool over() const { return match_->over(); }

  // The pace: under a fixed one a decision is due `ms` after it began (held when it was quicker,
  // counted late when it was slower) and not while paused; otherwise it is due when it is made.
  void setPace(int ms, bool fixed);
  int paceMs() const { return paceMs_; }
  bool fixedPace() const { return fixedPace_; }
  // A pause holds a decision and leaves the pause out of a person's response time.
  void setPaused(bool paused);
  bool paused() const { return paused_; }
  // Keep the environment's last decision with the state it was chosen at (lastEnvironmentMove).
  void keepEnvironmentMoves(bool keep) { keepEnvironmentMoves_ = keep; }
  // `callback` runs, where the executor delivers, each time a decision has been made (or has
  // failed, or was abandoned): the driver shows it now or when it is due.
  void onDecided(std::function<void()> callback) { onDecided_ = std::move(callback); }

  // ---- the AIs and the environment ----
  // Whether a decision runs on the executor (the match is not to be read).
  bool deciding() const { return deciding_; }
  // Whether a decision made waits to be shown.
  bool holding() const { return held_.has_value(); }
  // Starts the decision of the AI or the environment on turn on the executor; its pace runs
  // from now. Requires !deciding(), !holding(), !over() and no person on turn.
  void decide();
  // When the decision begun last is due under a fixed pace (its start plus the pace).
  std::chrono::steady_clock::time_point due() const {
    return began_ + std::chrono::milliseconds(paceMs_);
  }
  // Whether the decision held may be shown now: not paused and, under a fixed pace, due().
  bool heldDue() const;
  // Shows (applies) the decision held, due or not (a replay shows it at once). Requires
  // holding().
  void showHeld();
  // Under a fixed pace, the decisions that took longer than the pace (each shown late, by a
  // time that depends on who decided): a study's pace must exceed them.
  int lateDecisions() const { return lateDecisions_; }
  // What the last decision threw ("" when none did); nothing is held then.
  const std::string& failure() const { return failure_; }
  // Gives up the decision in flight (its players stop at their next check); the driver waits for
  // the executor to finish it before destroying the game.
  void abandon() { abandon_.store(true); }
  // Decides the move on turn on the calling thread, a person's seat decided by `standIn`: for
  // screenshots and demos. Requires !deciding(), !holding() and !over().
  Action decideHere(Player* standIn);
  // Applies an AI's or the environment's chosen `action` (a person's turn clock that runs is
  // reset: a seat decided for the person is no decision of theirs).
  void applyChosen(Action action);

  // ---- the people ----
  // Whether a person is on turn (their action is awaited: nothing decided or held).
  bool personToMove() const;
  // The person's turn has come (the board may not show it yet): its clock starts unless it runs.
  void markTurnBegan();
  // The board shows the person's turn now: the clock of its first showing starts unless it runs.
  void markTurnShown();
  // What the person's decision `action` records if made now: the round, the seat, the action and
  // the turn's timing, from its first showing (else from when it began); none when no person is
  // on turn or neither clock runs.
  std::optional<DecisionTiming> personDecision(Action action) const;
  // Applies the person's `action` on their turn, `decision` (if any) recorded among the
  // personDecisions(); false, nothing changed, when no person is on turn or it is not legal.
  bool applyPersonMove(Action action, const std::optional<DecisionTiming>& decision);
  // The person's `action` now, timed by personDecision: applyPersonMove's answer.
  bool act(Action action) { return applyPersonMove(action, personDecision(action)); }
  // Whether a person has moved in this game.
  bool personMoved() const { return personMoved_; }
  // The persons' decisions of this game so far, in order.
  const std::vector<DecisionTiming>& personDecisions() const { return decisions_; }
  // The environment's last decision (null before the first, or when none is kept).
  const EnvironmentMove* lastEnvironmentMove() const { return lastMove_ ? &*lastMove_ : nullptr; }

  // ---- the record ----
  // The game's record, its result written into the trace. Requires over().
  GameRecord finish();
  // The game as a line of a detailed trace file (docs/trace-format.md; the seats people play in
  // "people"), complete with its result once finish() was called.
  Json traceLine() const;

 private:
  // The outcome of a decision on the executor.
  struct Decided {
    std::optional<Action> action;  // none when abandoned or failed
    std::string failure;
    std::chrono::steady_clock::time_point at;  // when it was made
  };
  void arrived(const Decided& decided);
  void resetTurnClocks();

  Experiment experiment_;
  std::vector<bool> people_;
  uint64_t seed_;
  DecisionExecutor& executor_;
  const TimeSource& clock_;
  std::atomic<bool> abandon_{false};
  Lineup lineup_;  // null players for a person's seats
  std::unique_ptr<Match> match_;
  Json trace_ = Json::object();              // the game so far, round by round
  std::unique_ptr<TraceRecorder> recorder_;  // writes trace_ (observes match_)
  int paceMs_ = 0;
  bool fixedPace_ = true;
  bool paused_ = false;
  bool keepEnvironmentMoves_ = false;
  std::function<void()> onDecided_;
  bool deciding_ = false;
  std::optional<Action> held_;                   // a decision made and not yet shown
  std::chrono::steady_clock::time_point began_;  // when the decision last begun began
  int lateDecisions_ = 0;
  std::string failure_;
  TurnClock turnBegan_;  // since the person's turn came
  TurnClock turnShown_;  // since the board first showed the person's turn
  std::vector<DecisionTiming> decisions_;
  bool personMoved_ = false;
  std::optional<EnvironmentMove> lastMove_;
};

}  // namespace ddalab
