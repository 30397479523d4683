#pragma once
// A game of the game mode being played: a paced game (studies/paced_game.h) whose seats are
// people or AIs and whose environment is an environment player, driven by Qt timers. AIs and the
// environment decide on a worker thread at an adjustable pace, so the window never waits for
// them; a person's click is applied when it is legal.
#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "experiments/batch.h"
#include "studies/paced_game.h"

namespace ddalab::gui {

// What a game of the game mode is: an experiment as a batch file holds it (seats a person plays
// have the id "human"), and the seed that deals it.
struct GameSetup {
  Json experiment;
  uint64_t seed = 1;
};

// `setup` as a validated experiment (people's seats checked as `random`); throws InputError.
Experiment parseSetup(const GameSetup& setup);

// Runs the game's decisions on its own worker thread (DecisionExecutor) and shows them on the
// window's thread.
class GameSession : public QObject, private DecisionExecutor {
  Q_OBJECT
 public:
  explicit GameSession(QObject* parent = nullptr);
  ~GameSession() override;  // gives up a running decision and waits for its thread

  // Starts the game `setup` describes; throws InputError when it is not valid.
  void start(const GameSetup& setup);
  bool started() const { return game_ != nullptr; }
  // Whether a person has moved in the game and it is not over: starting another loses it.
  bool inProgress() const { return started() && game_->personMoved() && !over_; }
  const GameSetup& setup() const { return setup_; }
  // The game's experiment (an empty one before the first game).
  const Experiment& experiment() const;
  // The seats a person plays (worked out once when the game starts; none before).
  const std::vector<bool>& people() const;

  // Read only while !thinking(): an AI's decision on the worker thread uses the match.
  const Match& match() const { return game_->match(); }
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
  const std::vector<DecisionTiming>& personDecisions() const;
  // The environment's last decision (null before the first).
  const EnvironmentMove* lastEnvironmentMove() const;
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
  void setFixedPace(bool fixed);
  bool fixedPace() const { return fixedPace_; }
  // Under a fixed pace, the decisions that took longer than delay() since the game started (each
  // one shown late, by a time that depends on who decided): a study's pace must exceed them.
  int lateDecisions() const { return game_ ? game_->lateDecisions() : 0; }
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
  // DecisionExecutor: `work` on the worker thread, `done` queued back to the window's thread
  // (dropped when another game has started since).
  void run(std::function<void()> work, std::function<void()> done) override;
  void stopThinking();
  void scheduleNext();
  void decide();
  // The game's decision has arrived from the worker: shown now, or under a fixed pace held until
  // delay() has passed since it began (and while paused).
  void decided();
  void releaseHeld();
  // Shows `action` (the held decision when none) chosen by an AI or the environment.
  void showChosen(std::optional<Action> action = {});
  // The board now shows the position: a person's turn that begins here starts its clock.
  void shown();
  void pushPace();  // delay() and fixedPace() to the game

  GameSetup setup_;
  std::unique_ptr<PacedGame> game_;
  QTimer pace_;
  QTimer hold_;  // a fixed pace's wait before a held decision is shown
  bool fixedPace_ = false;
  bool paused_ = false;
  bool over_ = false;
  bool thinking_ = false;  // a decision runs on the worker or is held
  int thinker_ = kTerminal;
  std::thread worker_;
  int generation_ = 0;  // a decision of an earlier game is dropped
};

}  // namespace ddalab::gui
