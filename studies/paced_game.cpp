#include "studies/paced_game.h"

#include <algorithm>

#include "experiments/runner.h"

namespace ddalab {

PacedGame::PacedGame(Experiment experiment, std::vector<bool> people, uint64_t seed,
                     DecisionExecutor& executor, const TimeSource& clock)
    : experiment_(std::move(experiment)),
      people_(std::move(people)),
      seed_(seed),
      executor_(executor),
      clock_(clock),
      turnBegan_(clock),
      turnShown_(clock) {
  lineup_ = buildLineup(experiment_, StopToken(abandon_), people_);
  match_ = std::make_unique<Match>(*experiment_.game, seed_);
  match_->describeEnvironmentDecisions(true);
  recorder_ = std::make_unique<TraceRecorder>(trace_, match_->state(), &experiment_.coefficients);
  match_->addObserver(recorder_.get());
}

void PacedGame::setPace(int ms, bool fixed) {
  paceMs_ = std::max(0, ms);
  fixedPace_ = fixed;
}

void PacedGame::setPaused(bool paused) {
  paused_ = paused;
  turnBegan_.setPaused(paused);
  turnShown_.setPaused(paused);
}

void PacedGame::decide() {
  const int actor = match_->actor();
  Player* player = actor >= 0 ? lineup_.players[static_cast<size_t>(actor)].get() : nullptr;
  deciding_ = true;
  failure_.clear();
  began_ = clock_.now();
  auto decided = std::make_shared<Decided>();
  executor_.run(
      [this, player, decided] {
        try {
          decided->action = player ? match_->decide(*player) : match_->decide(*lineup_.environment);
        } catch (const GameAbandoned&) {
          // a new game started, the window closes or the participant left
        } catch (const std::exception& e) {
          decided->failure = e.what();
        }
        decided->at = clock_.now();
      },
      [this, decided] { arrived(*decided); });
}

void PacedGame::arrived(const Decided& decided) {
  deciding_ = false;
  held_ = decided.action;
  failure_ = decided.failure;
  const auto tookMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(decided.at - began_).count();
  if (held_ && fixedPace_ && tookMs > paceMs_) ++lateDecisions_;
  if (onDecided_) onDecided_();
}

bool PacedGame::heldDue() const {
  return held_ && (!fixedPace_ || (!paused_ && clock_.now() >= due()));
}

void PacedGame::showHeld() {
  const Action action = *held_;
  held_.reset();
  applyChosen(action);
}

Action PacedGame::decideHere(Player* standIn) {
  const int actor = match_->actor();
  Player* player = actor >= 0 ? lineup_.players[static_cast<size_t>(actor)].get() : nullptr;
  if (actor >= 0 && !player) player = standIn;
  return player ? match_->decide(*player) : match_->decide(*lineup_.environment);
}

void PacedGame::applyChosen(Action action) {
  if (keepEnvironmentMoves_ && match_->actor() == kEnvironment) {
    EnvironmentMove move;
    move.action = action;
    move.before = match_->state().clone();
    if (const EnvironmentDecision* d = match_->lastDecision()) move.decision = *d;
    lastMove_ = std::move(move);
  }
  resetTurnClocks();
  match_->apply(action);
}

bool PacedGame::personToMove() const {
  if (deciding_ || held_ || match_->over()) return false;
  const int actor = match_->actor();
  return actor >= 0 && !lineup_.players[static_cast<size_t>(actor)];
}

void PacedGame::markTurnBegan() {
  if (personToMove() && !turnBegan_.running()) turnBegan_.start(paused_);
}

void PacedGame::markTurnShown() {
  if (personToMove() && !turnShown_.running()) turnShown_.start(paused_);
}

std::optional<DecisionTiming> PacedGame::personDecision(Action action) const {
  if (!personToMove()) return std::nullopt;
  const TurnClock& turn = turnShown_.running() ? turnShown_ : turnBegan_;
  if (!turn.running()) return std::nullopt;
  return DecisionTiming{match_->state().roundsCompleted(), match_->actor(), action, turn.timing()};
}

bool PacedGame::applyPersonMove(Action action, const std::optional<DecisionTiming>& decision) {
  if (!personToMove() || !match_->applyIfLegal(action)) return false;
  personMoved_ = true;
  if (decision) decisions_.push_back(*decision);
  resetTurnClocks();
  return true;
}

void PacedGame::resetTurnClocks() {
  turnBegan_.reset();
  turnShown_.reset();
}

GameRecord PacedGame::finish() {
  const GameRecord record = match_->record();
  recorder_->finish(record);
  return record;
}

Json PacedGame::traceLine() const {
  return traceJson(experiment_, 0, seed_, trace_, true, people_);
}

}  // namespace ddalab
