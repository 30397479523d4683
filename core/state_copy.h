#pragma once
// Copying positions without allocating: the usual State::assign of a game's state class, and the
// scratch state the searches copy positions into again and again.
#include <memory>
#include <typeinfo>

#include "core/state.h"

namespace ddalab {

// The usual State::assign of a copy-assignable state class: `self = other` when `other` is a
// `Derived` too.
template <typename Derived>
bool assignSameClass(Derived& self, const State& other) {
  if (typeid(other) != typeid(Derived)) return false;
  self = static_cast<const Derived&>(other);
  return true;
}

// A state that positions are copied into again and again: the first copy clones, later ones
// assign into the same object (no allocation for games that support State::assign).
class ScratchState {
 public:
  // A copy of `state`, valid until the next copyOf.
  State& copyOf(const State& state) {
    if (!state_ || !state_->assign(state)) state_ = state.clone();
    return *state_;
  }

 private:
  std::unique_ptr<State> state_;
};

}  // namespace ddalab
