#include "games/hexalines/board.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace ddalab::hexalines {

namespace {

// Axial steps in direction 0..5, counter-clockwise; step s + 3 undoes step s.
constexpr std::array<Hex, kSides> kSteps = {Hex{1, 0},  Hex{1, -1}, Hex{0, -1},
                                            Hex{-1, 0}, Hex{-1, 1}, Hex{0, 1}};

}  // namespace

int distanceFromCentre(Hex hex) {
  return std::max({std::abs(hex.q), std::abs(hex.r), std::abs(hex.q + hex.r)});
}

Board::Board(int radius) : radius_(radius) {
  if (radius < 1 || radius > kMaxRadius)
    throw std::invalid_argument("Board: the radius must be 1 .. kMaxRadius");
  for (int q = -radius; q <= radius; ++q)
    for (int r = -radius; r <= radius; ++r)
      if (distanceFromCentre({q, r}) <= radius) hexes_.push_back({q, r});
  centre_ = *fieldAt({0, 0});
  neighbours_.resize(hexes_.size());
  around_.resize(hexes_.size());
  for (size_t field = 0; field < hexes_.size(); ++field)
    for (int side = 0; side < kSides; ++side) {
      const Hex next{hexes_[field].q + kSteps[side].q, hexes_[field].r + kSteps[side].r};
      neighbours_[field][side] = fieldAt(next).value_or(-1);
      if (neighbours_[field][side] >= 0) around_[field].set(neighbours_[field][side]);
    }
}

std::optional<int> Board::fieldAt(Hex hex) const {
  if (distanceFromCentre(hex) > radius_) return std::nullopt;
  const auto found = std::find(hexes_.begin(), hexes_.end(), hex);
  return static_cast<int>(found - hexes_.begin());
}

}  // namespace ddalab::hexalines
