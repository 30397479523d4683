#include "app/gui/play/session.h"

#include <QMetaObject>

#include "experiments/runner.h"
#include "players/registry.h"

namespace ddalab::gui {

Experiment parseSetup(const GameSetup& setup) {
  return parsePlayedExperiment(setup.experiment, setup.seed, "game settings");
}

GameSession::GameSession(QObject* parent) : QObject(parent) {
  pace_.setSingleShot(true);
  pace_.setInterval(600);
  connect(&pace_, &QTimer::timeout, this, &GameSession::decide);
  hold_.setSingleShot(true);
  hold_.setTimerType(Qt::PreciseTimer);  // a coarse timer may fire 5 % early: a shorter wait
  connect(&hold_, &QTimer::timeout, this, &GameSession::releaseHeld);
}

GameSession::~GameSession() {
  blockSignals(true);  // the widgets listening are being destroyed too
  stopThinking();
}

void GameSession::stopThinking() {
  pace_.stop();
  hold_.stop();
  held_.reset();
  abandon_.store(true);
  if (worker_.joinable()) worker_.join();
  abandon_.store(false);
  if (thinking_) {
    thinking_ = false;
    emit thinkingChanged(false);
  }
}

void GameSession::start(const GameSetup& setup) {
  Experiment experiment = parseSetup(setup);  // throws before anything changes
  stopThinking();
  ++generation_;
  setup_ = setup;
  experiment_ = std::move(experiment);
  personMoved_ = over_ = false;
  lateDecisions_ = 0;
  people_ = personSeats(setup_.experiment);
  lineup_ = buildLineup(experiment_, StopToken(abandon_), people_);
  match_ = std::make_unique<Match>(*experiment_.game, setup_.seed);
  match_->describeEnvironmentDecisions(true);
  trace_ = Json::object();
  recorder_ = std::make_unique<TraceRecorder>(trace_, match_->state(), &experiment_.coefficients);
  match_->addObserver(recorder_.get());
  lastMove_.reset();
  decisions_.clear();
  turn_.reset();
  shown();
  scheduleNext();
}

void GameSession::shown() {
  if (personToMove() && !turn_.running()) turn_.start(paused_);
  emit changed();
}

Json GameSession::traceLine() const {
  return traceJson(experiment_, 0, setup_.seed, trace_, true, people_);
}

bool GameSession::personToMove() const {
  if (!match_ || thinking_ || match_->over()) return false;
  const int actor = match_->actor();
  return actor >= 0 && !lineup_.players[static_cast<size_t>(actor)];
}

std::vector<Action> GameSession::legal() {
  if (!match_ || thinking_) return {};
  const auto legal = match_->legal();
  return {legal.begin(), legal.end()};
}

bool GameSession::act(Action action) {
  if (!personToMove()) return false;
  const int round = match_->tracker().rounds();
  const int seat = match_->actor();
  if (!match_->applyIfLegal(action)) return false;
  personMoved_ = true;
  if (turn_.running()) decisions_.push_back({round, seat, action, turn_.stop()});
  shown();
  scheduleNext();
  return true;
}

void GameSession::setDelay(int milliseconds) {
  pace_.setInterval(std::max(0, milliseconds));
}

void GameSession::setPaused(bool paused) {
  paused_ = paused;
  turn_.setPaused(paused);
  if (paused)
    pace_.stop();
  else if (held_ && !hold_.isActive())
    releaseHeld();  // its time passed during the pause
  else
    scheduleNext();
}

void GameSession::step() {
  if (match_ && !thinking_ && !match_->over() && !personToMove()) decide();
}

void GameSession::fastForward(int rounds) {
  if (!match_ || thinking_) return;
  pace_.stop();
  const PlayerInfo& ai = defaultAi(*experiment_.game);
  const std::unique_ptr<Player> standIn =
      ai.makeRegular({*experiment_.game, 100, validateParams(ai.params, nullptr, "params"),
                      experiment_.coefficients});
  // Until `rounds` rounds are complete and then a person's decision (or the end) is reached.
  const bool anyPerson = std::find(people_.begin(), people_.end(), true) != people_.end();
  while (!match_->over() &&
         (match_->tracker().rounds() < rounds || (anyPerson && !personToMove()))) {
    const int actor = match_->actor();
    Player* player = actor >= 0 ? lineup_.players[static_cast<size_t>(actor)].get() : nullptr;
    if (actor >= 0 && !player) player = standIn.get();
    const Action action = player ? match_->decide(*player) : match_->decide(*lineup_.environment);
    thinking_ = true;  // applyChosen expects a decision in flight
    applyChosen(action);
  }
}

void GameSession::scheduleNext() {
  if (!match_ || thinking_) return;
  if (match_->over()) {
    if (over_) return;  // said once
    over_ = true;
    const GameRecord record = match_->record();
    recorder_->finish(record);
    emit finished(record);
    return;
  }
  if (personToMove() || paused_) return;
  if (fixedPace_)
    decide();  // the pace runs from the decision's start (decided)
  else
    pace_.start();
}

void GameSession::decide() {
  if (!match_ || thinking_ || match_->over() || personToMove()) return;
  if (worker_.joinable()) worker_.join();
  const int actor = match_->actor();
  thinking_ = true;
  thinker_ = actor;
  emit thinkingChanged(true);
  Player* player = actor >= 0 ? lineup_.players[static_cast<size_t>(actor)].get() : nullptr;
  QElapsedTimer clock;
  clock.start();
  worker_ = std::thread([this, player, clock, generation = generation_] {
    Action action = 0;
    try {
      action = player ? match_->decide(*player) : match_->decide(*lineup_.environment);
    } catch (const GameAbandoned&) {
      return;  // a new game started, or the window closes
    }
    QMetaObject::invokeMethod(
        this,
        [this, action, generation, elapsed = clock.elapsed()] {
          if (generation == generation_) decided(action, elapsed);
        },
        Qt::QueuedConnection);
  });
}

void GameSession::decided(Action action, qint64 elapsedMs) {
  if (!fixedPace_) return applyChosen(action);
  const qint64 wait = pace_.interval() - elapsedMs;
  if (wait < 0) ++lateDecisions_;
  held_ = action;
  if (wait > 0)
    hold_.start(static_cast<int>(wait));
  else
    releaseHeld();
}

void GameSession::releaseHeld() {
  if (!held_ || paused_) return;  // shown when the pause ends (setPaused)
  const Action action = *held_;
  held_.reset();
  applyChosen(action);
}

void GameSession::applyChosen(Action action) {
  if (worker_.joinable()) worker_.join();
  thinking_ = false;
  emit thinkingChanged(false);
  if (match_->actor() == kEnvironment) {
    EnvironmentMove move;
    move.action = action;
    move.before = match_->state().clone();
    if (const EnvironmentDecision* d = match_->lastDecision()) move.decision = *d;
    lastMove_ = std::move(move);
  }
  turn_.reset();  // a seat decided for the person (fastForward) is no decision of theirs
  match_->apply(action);
  shown();
  scheduleNext();
}

}  // namespace ddalab::gui
