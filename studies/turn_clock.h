#pragma once
// The stopwatch of a person's turn: when the board showed it was their move, when they chose, and
// how long they took to choose, the time the game was paused left out (a participant who pauses
// to answer the door has not thought for those minutes).
#include <algorithm>
#include <chrono>
#include <optional>

#include "studies/timing.h"

namespace ddalab {

class TurnClock {
 public:
  // Reads the time from `clock`, which outlives the turn clock.
  explicit TurnClock(const TimeSource& clock) : time_(&clock) {}

  // The person's turn begins now (the game paused or not).
  void start(bool paused) {
    clock_.emplace(*time_);
    pausedMs_ = 0;
    pausedSince_ = time_->now();
    paused_ = paused;
  }
  // The game is paused or resumed (also between turns: only a running turn counts it).
  void setPaused(bool paused) {
    if (paused == paused_) return;
    if (paused)
      pausedSince_ = time_->now();
    else
      pausedMs_ += sinceMs(pausedSince_);
    paused_ = paused;
  }
  bool running() const { return clock_.has_value(); }
  // The turn's timing were the person to choose now: shown_at and answered_at as the wall clock
  // had them, response_ms without the pauses (so answered_at - shown_at is at least
  // response_ms). Requires running(); the clock runs on.
  ResponseTiming timing() const {
    ResponseTiming timing = clock_->timingAt(time_->now());
    const int64_t paused = pausedMs_ + (paused_ ? sinceMs(pausedSince_) : 0);
    timing.responseMs = std::max<int64_t>(0, timing.responseMs - paused);
    return timing;
  }
  // The turn is over (the person chose, or a seat was decided for them).
  void reset() { clock_.reset(); }

 private:
  int64_t sinceMs(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(time_->now() - t).count();
  }

  const TimeSource* time_;
  std::optional<ResponseClock> clock_;
  int64_t pausedMs_ = 0;  // paused during this turn, pauses that ended
  std::chrono::steady_clock::time_point pausedSince_;
  bool paused_ = false;
};

}  // namespace ddalab
