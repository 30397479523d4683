#include "app/gui/batch/run_controller.h"

#include <QMetaObject>
#include <QPointer>
#include <chrono>

namespace ddalab::gui {

// Collects what the run service reports on the worker thread and posts it to the controller's
// thread at most every kDeliveryInterval.
class RunController::Batcher {
 public:
  explicit Batcher(RunController* controller) : controller_(controller) {}

  void game(size_t experiment, const GameRecord& record) {
    if (experiment != experiment_) post();
    experiment_ = experiment;
    games_.push_back(record);
    if (due()) post();
  }
  void progress(const Progress& p) {
    progress_ = p;
    if (due()) post();
  }
  void experimentDone(size_t experiment) {
    post();
    deliver(
        [experiment](RunController* c) { emit c->experimentDone(static_cast<int>(experiment)); });
  }
  // Posts everything collected.
  void post() {
    if (!games_.empty())
      deliver([experiment = experiment_, games = std::move(games_)](RunController* c) {
        emit c->gamesFinished(static_cast<int>(experiment), games);
      });
    games_.clear();
    if (progress_) deliver([p = *progress_](RunController* c) { emit c->progressed(p); });
    progress_.reset();
    last_ = Clock::now();
  }
  template <typename Action>
  void deliver(Action action) {
    QMetaObject::invokeMethod(
        controller_, [c = controller_, action = std::move(action)] { action(c); },
        Qt::QueuedConnection);
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool due() const {
    return std::chrono::duration<double>(Clock::now() - last_).count() >= kDeliveryInterval;
  }

  RunController* controller_;
  size_t experiment_ = 0;
  std::vector<GameRecord> games_;
  std::optional<Progress> progress_;
  Clock::time_point last_ = Clock::now();
};

RunController::RunController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<ddalab::Progress>("ddalab::Progress");
}

RunController::~RunController() {
  control_.abandon.store(true);
  join();
}

void RunController::start(RunRequest request) {
  if (running()) return;
  control_.stop.store(false);
  control_.abandon.store(false);
  worker_ = std::make_unique<std::thread>([this, request = std::move(request)] {
    Batcher batcher(this);
    RunEvents events;
    events.progressInterval = kDeliveryInterval;
    events.onProgress = [&](const Progress& p) { batcher.progress(p); };
    events.onGame = [&](size_t e, const GameRecord& r) { batcher.game(e, r); };
    events.onExperimentDone = [&](size_t e, const ExperimentSummary&) {
      batcher.experimentDone(e);
    };
    RunOutcome outcome;
    QString error;
    try {
      outcome = runToFolder(request, events, control_);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    batcher.post();
    batcher.deliver([complete = outcome.complete, kept = outcome.gamesResumed,
                     played = outcome.gamesPlayed, analyses = std::move(outcome.analyses),
                     error](RunController* c) {
      c->join();
      c->gamesKept_ = kept;
      c->gamesPlayed_ = played;
      c->analyses_ = analyses;
      emit c->finished(complete, error);
    });
  });
}

void RunController::stop() {
  control_.stop.store(true);
}

void RunController::join() {
  if (worker_ && worker_->joinable()) worker_->join();
  worker_.reset();
}

}  // namespace ddalab::gui
