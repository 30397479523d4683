#pragma once
// The HexaLines board (games/hexalines.md, "Precise choices"): every field within hex distance
// `radius` of the centre, in axial coordinates; side s of a field faces the neighbour in
// direction s (0..5, counter-clockwise), and the opposite side is s + 3.
#include <array>
#include <bitset>
#include <optional>
#include <vector>

#include "games/hexalines/shapes.h"

namespace ddalab::hexalines {

inline constexpr int kMaxRadius = 6;
inline constexpr int kMaxFields = 3 * kMaxRadius * (kMaxRadius + 1) + 1;
// One bit per field of a board.
using FieldSet = std::bitset<kMaxFields>;

struct Hex {
  int q = 0, r = 0;
  bool operator==(const Hex&) const = default;
};

// The side of a neighbour that faces side `side` of a field.
constexpr int oppositeSide(int side) {
  return (side + kSides / 2) % kSides;
}

// Hex distance of `hex` from the centre.
int distanceFromCentre(Hex hex);

class Board {
 public:
  // Every field within `radius` (1 .. kMaxRadius) of the centre (3 * radius * (radius + 1) + 1
  // fields).
  explicit Board(int radius);

  int radius() const { return radius_; }
  int fields() const { return static_cast<int>(hexes_.size()); }
  // The field index of the centre (the sources).
  int centre() const { return centre_; }
  Hex hexOf(int field) const { return hexes_[static_cast<size_t>(field)]; }
  // The field at `hex`, if it is on the board.
  std::optional<int> fieldAt(Hex hex) const;
  // The field beyond side `side` of `field`, or -1 off the board.
  int neighbour(int field, int side) const {
    return neighbours_[static_cast<size_t>(field)][static_cast<size_t>(side)];
  }
  // The fields next to `field`.
  const FieldSet& around(int field) const { return around_[static_cast<size_t>(field)]; }

 private:
  int radius_;
  int centre_ = 0;
  std::vector<Hex> hexes_;
  std::vector<std::array<int, kSides>> neighbours_;
  std::vector<FieldSet> around_;
};

}  // namespace ddalab::hexalines
