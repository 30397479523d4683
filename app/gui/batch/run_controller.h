#pragma once
// Runs a batch through the library's run service on a worker thread, so the window never
// freezes. What the run reports reaches the GUI thread as queued signals, batched to at most
// ~20 deliveries a second whatever the rate of games.
#include <QObject>
#include <QString>
#include <memory>
#include <thread>
#include <vector>

#include "experiments/run_service.h"

namespace ddalab::gui {

class RunController : public QObject {
  Q_OBJECT
 public:
  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // abandons a running batch and waits for its thread

  // Starts `request` (one at a time); its events arrive as the signals below.
  void start(RunRequest request);
  // Graceful stop: no new game starts, running games get a second, finished ones are saved.
  void stop();
  bool running() const { return worker_ != nullptr; }
  // Of the last run that ended: the finished games it kept and the games it played.
  size_t gamesKept() const { return gamesKept_; }
  size_t gamesPlayed() const { return gamesPlayed_; }
  // The last run's analyses (paired tests, score intervals, detectability), as the CLI prints.
  const std::vector<ComparisonAnalysis>& analyses() const { return analyses_; }
  // Seconds between deliveries to the GUI thread.
  static constexpr double kDeliveryInterval = 0.05;

 signals:
  void progressed(const ddalab::Progress& progress);
  void gamesFinished(int experiment, const std::vector<ddalab::GameRecord>& games);
  void experimentDone(int experiment);
  // The run ended: `complete` when every game is finished; `error` says why it failed.
  void finished(bool complete, const QString& error);

 private:
  class Batcher;
  void join();

  RunControl control_;
  size_t gamesKept_ = 0, gamesPlayed_ = 0;
  std::vector<ComparisonAnalysis> analyses_;
  std::unique_ptr<std::thread> worker_;
};

}  // namespace ddalab::gui
