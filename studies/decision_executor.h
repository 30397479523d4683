#pragma once
// Where a paced game's AI and environment decisions run: away from the thread that serves the
// person (a window, a web request), on threads its driver provides: one worker thread for
// ddalab-gui, a pool shared by the sessions for `ddalab serve`, the calling thread in tests.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ddalab {

// Runs a decision off the driver's thread and brings its result back to the driver.
class DecisionExecutor {
 public:
  virtual ~DecisionExecutor() = default;
  // Runs `work` on a thread of the executor's (the caller's, for an inline one), then `done`
  // where the game's driver serialises its calls to the game (its own thread, or under its lock).
  virtual void run(std::function<void()> work, std::function<void()> done) = 0;
};

// A few threads that run the sessions' AI and environment decisions, first come first served.
class DecisionPool {
 public:
  explicit DecisionPool(int threads);
  ~DecisionPool();  // finishes the jobs queued, then joins
  DecisionPool(const DecisionPool&) = delete;
  DecisionPool& operator=(const DecisionPool&) = delete;
  // Runs `job` on a worker thread soon.
  void post(std::function<void()> job);

 private:
  void work();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace ddalab
