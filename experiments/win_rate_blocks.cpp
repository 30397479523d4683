#include "experiments/win_rate_blocks.h"

namespace ddalab {

WinRateBlocks::WinRateBlocks(const Objective& objective, size_t iterations) {
  if (objective.kind != ObjectiveKind::WinRate) return;
  seat_ = objective.seat;
  block_ = static_cast<size_t>(objective.block);
  // Every slot exists before any game reads one: writing a slot never moves the others.
  estimates_.assign(iterations / block_ + 1, 0.0);
}

void WinRateBlocks::add(uint64_t iteration, int winner) {
  if (!active() || iteration != counted_) return;
  ++counted_;
  if (winner == seat_) ++wins_;
  if (counted_ % block_ == 0 && counted_ / block_ < estimates_.size())
    estimates_[counted_ / block_] = static_cast<double>(wins_) / static_cast<double>(counted_);
}

size_t WinRateBlocks::blockStart(size_t iteration) const {
  return active() ? iteration / block_ * block_ : 0;
}

std::optional<double> WinRateBlocks::estimateFor(size_t iteration) const {
  if (!active() || iteration < block_) return std::nullopt;
  return estimates_[iteration / block_];
}

}  // namespace ddalab
