#pragma once
// A participant's plan (docs/user-study.md): the games they play, in which condition
// order (a row of a balanced Latin square, or a seeded shuffle) and with which seeds.
#include <cstdint>
#include <vector>

#include "studies/protocol.h"

namespace ddalab {

// Participant numbers a study folder may hold (its plans' seeds are 1000 x number + game); a
// session file's "ordinal" is at most this.
inline constexpr long long kMaxSessionOrdinal = 1'000'000;

// One game of a participant's plan.
struct PlannedGame {
  int index = 0;  // 0-based position in the session
  size_t condition = 0;
  uint64_t seed = 0;
};

// The games participant number `ordinal` plays: every condition gamesPerCondition times, in
// rounds of one game per condition whose order is row `row` of a balanced Latin square (Williams:
// every condition precedes every other equally often over n rows, 2n for an odd n), or a shuffle
// seeded by the protocol's seed and the ordinal (order "random": `row` is not used); each game has
// its own seed, from the ordinal.
std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal, int row);
// The plan of a simulated participant: row cyclicRow(protocol, ordinal).
std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal);
// The number of order rows of the protocol's Latin square (0 for the order "random").
int orderRows(const StudyProtocol& protocol);
// The row a simulated participant number `ordinal` takes (and a session recorded before
// allocation.jsonl existed took): ordinal modulo the rows; -1 for the order "random".
int cyclicRow(const StudyProtocol& protocol, int ordinal);

// The rows of a balanced Latin square of n conditions (n rows for an even n, 2n for an odd n).
std::vector<std::vector<size_t>> balancedLatinSquare(size_t n);

// A game's period, 1, 2, ...: its position in its round of one game per condition (what the mixed
// model's period term and the tidy export use).
size_t studyPeriod(const StudyProtocol& protocol, const PlannedGame& game);

}  // namespace ddalab
