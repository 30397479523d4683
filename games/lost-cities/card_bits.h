#pragma once
// Bit tricks on the number-card masks of CardSet (internal to games/lost-cities).
#include <array>
#include <bit>
#include <cstdint>

#include "games/lost-cities/cards.h"

namespace ddalab::lostcities::bits {

inline constexpr unsigned kAllNumbers = 0x3FE;  // bits 1..9: every number rank of a colour

// Sum of the face values (rank + 1) of the number ranks in a mask.
inline constexpr std::array<uint8_t, 1024> kValueSum = [] {
  std::array<uint8_t, 1024> sums{};
  for (unsigned mask = 0; mask < 1024; ++mask)
    for (int rank = 1; rank < kRanks; ++rank)
      if (mask >> rank & 1u) sums[mask] = static_cast<uint8_t>(sums[mask] + rank + 1);
  return sums;
}();

// Highest number rank in the mask; 0 when it holds none.
constexpr int highestRank(unsigned mask) {
  return mask ? std::bit_width(mask) - 1 : 0;
}

// The number ranks strictly above `rank` (rank 0: all of them).
constexpr unsigned ranksAbove(int rank) {
  return kAllNumbers & ~((2u << rank) - 1u);
}

// Points of one expedition by the rules: (sum - 20) x (1 + wagers), +20 from 8 cards on;
// an expedition without cards scores 0.
constexpr int expeditionScore(unsigned numbers, int wagers) {
  if (numbers == 0 && wagers == 0) return 0;
  const int cards = std::popcount(numbers) + wagers;
  return (kValueSum[numbers] - 20) * (1 + wagers) + (cards >= 8 ? 20 : 0);
}

}  // namespace ddalab::lostcities::bits
