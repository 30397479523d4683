#pragma once
// Stopping a game in progress: a run that is stopping asks long decisions to give up, so a stop
// takes effect within about a second whatever the players think about.
#include <atomic>
#include <exception>

namespace ddalab {

// Thrown out of a game whose run is stopping; the game is not counted (a resumed run plays it).
class GameAbandoned : public std::exception {
 public:
  const char* what() const noexcept override { return "game abandoned: the run is stopping"; }
};

// A view of a stop flag owned by the run; a default token is never requested. Cheap to copy and
// to poll (one relaxed atomic load), so search loops poll it every iteration.
class StopToken {
 public:
  StopToken() = default;
  explicit StopToken(const std::atomic<bool>& flag) : flag_(&flag) {}

  // Whether the run asks the game to give up.
  bool requested() const { return flag_ && flag_->load(std::memory_order_relaxed); }
  // Throws GameAbandoned when requested (call it where giving up is safe).
  void check() const {
    if (requested()) throw GameAbandoned();
  }

 private:
  const std::atomic<bool>* flag_ = nullptr;
};

}  // namespace ddalab
