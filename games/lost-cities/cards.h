#pragma once
// Lost Cities' cards and the encoding of its actions (the layout is described at the top of
// lost_cities.h): the constants, card kinds, the action ids and CardSet, apart from the game so
// that the game and its bit tricks (card_bits.h) both build on them without including each other.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/state.h"

namespace ddalab::lostcities {

inline constexpr int kColours = 5;
inline constexpr int kRanks = 10;  // per colour: the wager rank 0 and the number ranks 1..9
inline constexpr int kKinds = kColours * kRanks;
inline constexpr int kWagersPerColour = 3;
inline constexpr int kCards = kColours * (kWagersPerColour + kRanks - 1);  // 60
inline constexpr int kWagerRank = 0;
inline constexpr int kSources = 1 + kColours;  // the deck and one pile per colour
inline constexpr int kDeckSource = 0;
inline constexpr int kActionIds = kKinds * 2 * kSources;  // ids are 0..599

constexpr int colourOf(int kind) {
  return kind / kRanks;
}
constexpr int rankOf(int kind) {
  return kind % kRanks;
}
constexpr int kindOf(int colour, int rank) {
  return colour * kRanks + rank;
}
// Face value of a card: 2..10 for number cards, 0 for wagers.
constexpr int valueOf(int kind) {
  return rankOf(kind) == kWagerRank ? 0 : rankOf(kind) + 1;
}
constexpr int pileSource(int colour) {
  return 1 + colour;
}

// "B7", "G10", "Yw".
std::string cardName(int kind);
// The kind written as cardName writes it; throws std::invalid_argument for anything else.
int parseCard(std::string_view name);

struct ActionParts {
  int kind;
  bool discard;  // false: played onto the own expedition
  int source;    // kDeckSource or pileSource(colour)
};
constexpr Action makeAction(int kind, bool discard, int source) {
  return kind * 2 * kSources + (discard ? kSources : 0) + source;
}
constexpr ActionParts decodeAction(Action action) {
  return {action / (2 * kSources), (action / kSources) % 2 == 1, action % kSources};
}

// A multiset of cards: per colour a bit per number rank (bit r = rank r, r = 1..9) and a count
// of wagers. Hands, expeditions, the lazy deck and the known cards K all use it.
struct CardSet {
  std::array<uint16_t, kColours> numbers{};
  std::array<uint8_t, kColours> wagers{};

  // How many cards of `kind` the set holds.
  int count(int kind) const {
    const int c = colourOf(kind), rank = rankOf(kind);
    return rank == kWagerRank ? wagers[c] : (numbers[c] >> rank) & 1u;
  }
  void add(int kind) {
    const int c = colourOf(kind), rank = rankOf(kind);
    if (rank == kWagerRank)
      ++wagers[c];
    else
      numbers[c] = static_cast<uint16_t>(numbers[c] | 1u << rank);
  }
  // Removes one card of `kind`, which must be present.
  void remove(int kind) {
    const int c = colourOf(kind), rank = rankOf(kind);
    if (rank == kWagerRank)
      --wagers[c];
    else
      numbers[c] = static_cast<uint16_t>(numbers[c] & ~(1u << rank));
  }
  int size() const;
  bool operator==(const CardSet&) const = default;
};

}  // namespace ddalab::lostcities
