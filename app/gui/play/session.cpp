#include "app/gui/play/session.h"

#include <QMetaObject>
#include <algorithm>
#include <chrono>

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

const Experiment& GameSession::experiment() const {
  static const Experiment none;
  return game_ ? game_->experiment() : none;
}

const std::vector<bool>& GameSession::people() const {
  static const std::vector<bool> none;
  return game_ ? game_->people() : none;
}

const std::vector<DecisionTiming>& GameSession::personDecisions() const {
  static const std::vector<DecisionTiming> none;
  return game_ ? game_->personDecisions() : none;
}

const EnvironmentMove* GameSession::lastEnvironmentMove() const {
  return game_ ? game_->lastEnvironmentMove() : nullptr;
}

void GameSession::run(std::function<void()> work, std::function<void()> done) {
  if (worker_.joinable()) worker_.join();
  worker_ = std::thread(
      [this, work = std::move(work), done = std::move(done), generation = generation_]() mutable {
        work();
        QMetaObject::invokeMethod(
            this,
            [this, done = std::move(done), generation] {
              if (generation == generation_) done();
            },
            Qt::QueuedConnection);
      });
}

void GameSession::stopThinking() {
  pace_.stop();
  hold_.stop();
  if (game_) game_->abandon();
  if (worker_.joinable()) worker_.join();
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
  over_ = false;
  game_ = std::make_unique<PacedGame>(std::move(experiment), personSeats(setup_.experiment),
                                      setup_.seed, static_cast<DecisionExecutor&>(*this),
                                      machineClock());
  pushPace();
  game_->setPaused(paused_);
  game_->keepEnvironmentMoves(true);
  game_->onDecided([this] { decided(); });
  shown();
  scheduleNext();
}

void GameSession::pushPace() {
  if (game_) game_->setPace(pace_.interval(), fixedPace_);
}

void GameSession::shown() {
  if (personToMove()) game_->markTurnShown();
  emit changed();
}

Json GameSession::traceLine() const {
  return game_->traceLine();
}

bool GameSession::personToMove() const {
  return game_ && !thinking_ && game_->personToMove();
}

std::vector<Action> GameSession::legal() {
  if (!game_ || thinking_) return {};
  const auto legal = game_->legal();
  return {legal.begin(), legal.end()};
}

bool GameSession::act(Action action) {
  if (!personToMove() || !game_->act(action)) return false;
  shown();
  scheduleNext();
  return true;
}

void GameSession::setDelay(int milliseconds) {
  pace_.setInterval(std::max(0, milliseconds));
  pushPace();
}

void GameSession::setFixedPace(bool fixed) {
  fixedPace_ = fixed;
  pushPace();
}

void GameSession::setPaused(bool paused) {
  paused_ = paused;
  if (game_) game_->setPaused(paused);
  if (paused)
    pace_.stop();
  else if (game_ && game_->holding() && !hold_.isActive())
    releaseHeld();  // its time passed during the pause
  else
    scheduleNext();
}

void GameSession::step() {
  if (game_ && !thinking_ && !game_->over() && !personToMove()) decide();
}

void GameSession::fastForward(int rounds) {
  if (!game_ || thinking_) return;
  pace_.stop();
  const PlayerInfo& ai = defaultAi(*game_->experiment().game);
  const std::unique_ptr<Player> standIn =
      ai.makeRegular({*game_->experiment().game, 100, validateParams(ai.params, nullptr, "params"),
                      game_->experiment().coefficients});
  // Until `rounds` rounds are complete and then a person's decision (or the end) is reached; a
  // fixed pace's decision begun on the worker ends it (the match is the worker's then).
  const std::vector<bool>& people = game_->people();
  const bool anyPerson = std::find(people.begin(), people.end(), true) != people.end();
  while (!thinking_ && !game_->over() &&
         (game_->match().tracker().rounds() < rounds || (anyPerson && !personToMove()))) {
    const Action action = game_->decideHere(standIn.get());
    thinking_ = true;  // showChosen ends a decision in flight
    showChosen(action);
  }
}

void GameSession::scheduleNext() {
  if (!game_ || thinking_) return;
  if (game_->over()) {
    if (over_) return;  // said once
    over_ = true;
    emit finished(game_->finish());
    return;
  }
  if (personToMove() || paused_) return;
  if (fixedPace_)
    decide();  // the pace runs from the decision's start (decided)
  else
    pace_.start();
}

void GameSession::decide() {
  if (!game_ || thinking_ || game_->over() || personToMove()) return;
  if (worker_.joinable()) worker_.join();
  thinking_ = true;
  thinker_ = game_->match().actor();
  emit thinkingChanged(true);
  game_->decide();
}

void GameSession::decided() {
  if (!game_->failure().empty())  // as an exception escaping the worker thread would
    qFatal("a decision failed: %s", game_->failure().c_str());
  if (!game_->holding()) return;  // abandoned
  if (!fixedPace_) return showChosen();
  releaseHeld();
}

void GameSession::releaseHeld() {
  if (!game_ || !game_->holding()) return;
  if (game_->heldDue()) return showChosen();
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(game_->due() - machineClock().now()).count();
  if (left > 0) hold_.start(static_cast<int>(left));
  // else paused: shown when the pause ends (setPaused)
}

void GameSession::showChosen(std::optional<Action> action) {
  if (worker_.joinable()) worker_.join();
  thinking_ = false;
  emit thinkingChanged(false);
  if (action)
    game_->applyChosen(*action);
  else
    game_->showHeld();
  shown();
  scheduleNext();
}

}  // namespace ddalab::gui
