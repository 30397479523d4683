#pragma once
// A participant's study session played through requests (`ddalab serve`, docs/web-api.md): the
// screen the participant is shown as JSON, and what they submit, checked. During a game the
// session drives a paced game (studies/paced_game.h); the AIs and the environment decide on a
// shared worker pool (never on the caller's thread) and their moves are shown at the protocol's
// fixed pace, like ddalab-gui's study mode. Nothing a screen holds tells the condition, the seed
// or what the participant's seat may not know (seatScreen). Every person's move of the game in
// progress is kept in the session folder (moves-NN.jsonl), so a restart replays the game to where
// it was.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/match.h"
#include "studies/decision_executor.h"
#include "studies/study.h"

namespace ddalab {

class AppendFile;

// A submission that does not fit where the session stands (an action while the opponent moves,
// answers before the game is over): the client's view is stale; HTTP 409.
class StepConflict : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs its game's decisions on the pool (DecisionExecutor), their results taken under its lock.
class OnlineSession : private DecisionExecutor {
 public:
  // Takes over `session` (opened or created by the caller); decisions run on `pool`, which must
  // outlive the session; each is shown `paceMs` after its turn began. A game in progress (its
  // moves file in the folder) is replayed at once.
  OnlineSession(StudySession session, DecisionPool& pool, int paceMs);
  ~OnlineSession() override;  // gives up a decision in flight and waits for it
  OnlineSession(const OnlineSession&) = delete;
  OnlineSession& operator=(const OnlineSession&) = delete;

  // What the participant is shown now (docs/web-api.md, "Screens"): {"kind", ...}. During a
  // game, applies the moves whose pace has passed and starts the next decision.
  Json screen();
  // The participant's submission `kind` ("consent", "demographics", "read", "action",
  // "answers") with its body; InputError for a body that is not as docs/web-api.md says (path
  // = the JSON path), StepConflict when the session is not at that step; WriteError when its
  // record cannot be written (a move is then not applied: it is applied once kept).
  void submit(const std::string& kind, const Json& body);
  // The participant left (an idle timeout): recorded as a dropout unless the session ended.
  void drop(const std::string& reason);

  // For the researcher and the progress lines (no lock needed by the caller).
  SessionStep step();
  std::string participant() const { return participant_; }
  // A copy of the game's state as the server holds it (null when no game is being played or a
  // decision is running): for tests that check what a screen leaves out.
  std::unique_ptr<State> peekState();
  // The last time the participant asked for or submitted something.
  std::chrono::steady_clock::time_point lastActivity();

 private:
  struct Game;
  // DecisionExecutor: `work` on the pool, then `done` under mutex_ (idle_ notified).
  void run(std::function<void()> work, std::function<void()> done) override;
  void startGame();
  void advance();  // applies due moves, starts decisions; under mutex_
  void scheduleDecision();
  void finishGame();
  // The moves kept in moves-NN.jsonl of game `index` (into `kept`); the file, open to append
  // (null when there is none yet).
  std::unique_ptr<AppendFile> readMoves(int index, std::deque<DecisionTiming>& kept) const;
  void saveMove(const DecisionTiming& decision);  // appended and synced
  Json gameScreen();
  Json pageScreen();
  void submitPage(const std::string& kind, const Json& body);
  void submitAction(const Json& body);
  void submitAnswers(const Json& body);
  ResponseTiming pageTiming();

  std::mutex mutex_;
  std::condition_variable idle_;  // a decision in flight ended
  StudySession session_;
  std::string participant_;
  DecisionPool& pool_;
  int paceMs_;
  std::unique_ptr<Game> game_;
  std::optional<Json> lastBoard_;           // the final screen of the game last played
  std::optional<ResponseClock> pageClock_;  // since the current page was first served
  int pageKey_ = -1;                        // the page (step, games answered) pageClock_ runs for
  std::chrono::steady_clock::time_point lastActivity_;
};

}  // namespace ddalab
