#pragma once
// A game of the game mode being played: a steppable Match (core/match.h) whose seats are people
// or AIs and whose environment is an environment player. AIs and the environment decide on a
// worker thread at an adjustable pace, so the window never waits for them; a person's click is
// applied when it is legal.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "app/gui/play/turn_clock.h"
#include "core/match.h"
#include "experiments/batch.h"
#include "experiments/lineup.h"
#include "studies/timing.h"

namespace ddalab::gui {

// What a game of the game mode is: an experiment as a batch file holds it (seats a person plays
// have the id "human"), and the seed that deals it.
struct GameSetup {
  Json experiment;
  uint64_t seed = 1;
};

// `setup` as a validated experiment (people's seats checked as `random`); throws InputError.
Experiment parseSetup(const GameSetup& setup);

// The last environment decision with what it chose from.
struct EnvironmentMove {
  Action action = 0;                            // the outcome chosen
  std::optional<EnvironmentDecision> decision;  // how the environment player saw it
  std::unique_ptr<State> before;                // the state it was chosen at (its texts, what
                                                // each seat may know of it)
};

class GameSession : public QObject {
  Q_OBJECT
 public:
  explicit GameSession(QObject* parent = nullptr);
  ~GameSession() override;  // gives up a running decision and waits for its thread

  // Starts the game `setup` describes; throws InputError when it is not valid.
  void start(const GameSetup& setup);
  bool started() const { return match_ != nullptr; }
  // Whether a person has moved in the game and it is not over: starting another loses it.
  bool inProgress() const { return started() && personMoved_ && !over_; }
  const GameSetup& setup() const { return setup_; }
  const Experiment& experiment() const { return experiment_; }
  // The seats a person plays (worked out once when the game starts).
  const std::vector<bool>& people() const { return people_; }

  // Read only while !thinking(): an AI's decision on the worker thread uses the match.
  const Match& match() const { return *match_; }
  bool thinking() const { return thinking_; }
  // Who decides on the worker thread: a seat or kEnvironment (meaningful while thinking()).
  int thinker() const { return thinker_; }
  // Whether the regular player on turn is a person (their clicks choose the next action).
  bool personToMove() const;
  // The legal actions of the player on turn (empty while an AI thinks).
  std::vector<Action> legal();
  // Applies a person's action; false (nothing changes) when it is not legal now.
  bool act(Action action);
  // The persons' decisions of this game so far, in order, each with its round, seat, action and
  // timing: shown when the board first showed it was their move (under a fixed pace, when the
  // held decision before it was released), answered when act() applied it; response_ms leaves
  // out the time the game was paused.
  const std::vector<DecisionTiming>& personDecisions() const { return decisions_; }
  // The environment's last decision (null before the first).
  const EnvironmentMove* lastEnvironmentMove() const { return lastMove_ ? &*lastMove_ : nullptr; }
  // The game as a line of a detailed trace file (docs/trace-format.md; the seats people play in
  // "people"), complete with its result once the game is over.
  Json traceLine() const;

  // Pace of the AIs and the environment: milliseconds between their actions, pause, one step.
  void setDelay(int milliseconds);
  int delay() const { return pace_.interval(); }
  void setPaused(bool paused);
  bool paused() const { return paused_; }
  void step();
  // Fixed pace (a study): a decision starts as soon as its turn comes and is shown when delay()
  // has passed since then, however long it took, so that how long the environment thinks does not
  // tell a participant the condition. Off (the default): the delay, then the decision's own time.
  void setFixedPace(bool fixed) { fixedPace_ = fixed; }
  bool fixedPace() const { return fixedPace_; }
  // Under a fixed pace, the decisions that took longer than delay() since the game started (each
  // one shown late, by a time that depends on who decided): a study's pace must exceed them.
  int lateDecisions() const { return lateDecisions_; }
  // Plays on the calling thread until `rounds` rounds are complete (a person's seat played by
  // the game's first searching AI) and stops at the next decision: for screenshots and demos.
  void fastForward(int rounds);

 signals:
  // After every action (and at the start): repaint.
  void changed();
  // The game ended.
  void finished(const ddalab::GameRecord& record);
  void thinkingChanged(bool thinking);

 private:
  void stopThinking();
  void scheduleNext();
  void decide();
  void applyChosen(Action action);
  // A decision `action` has arrived from the worker `elapsedMs` after it began: applied now, or
  // under a fixed pace held until delay() has passed (and while paused).
  void decided(Action action, qint64 elapsedMs);
  void releaseHeld();
  // The board now shows the position: a person's turn that begins here starts its clock.
  void shown();

  GameSetup setup_;
  Experiment experiment_;
  std::vector<bool> people_;
  std::unique_ptr<Match> match_;
  Json trace_;                               // the game so far, round by round
  std::unique_ptr<TraceRecorder> recorder_;  // writes trace_ (observes match_)
  Lineup lineup_;                            // null players for a person's seats
  std::optional<EnvironmentMove> lastMove_;
  TurnClock turn_;                         // the person's turn shown now
  std::vector<DecisionTiming> decisions_;  // the persons', this game
  QTimer pace_;
  QTimer hold_;                 // a fixed pace's wait before a held decision is shown
  std::optional<Action> held_;  // a decision computed and not yet shown
  bool fixedPace_ = false;
  int lateDecisions_ = 0;
  bool paused_ = false;
  bool personMoved_ = false;
  bool over_ = false;
  bool thinking_ = false;
  int thinker_ = kTerminal;
  std::atomic<bool> abandon_{false};
  std::thread worker_;
  int generation_ = 0;  // a decision of an earlier game is dropped
};

}  // namespace ddalab::gui
