#include "studies/plan.h"

#include <stdexcept>

#include "core/rng.h"

namespace ddalab {

std::vector<std::vector<size_t>> balancedLatinSquare(size_t n) {
  // Williams' design: the first row 0, 1, n-1, 2, n-2, ...; row r adds r (mod n). For an odd n
  // the mirrored rows follow, so that each condition precedes each other equally often.
  std::vector<size_t> first;
  for (size_t i = 0, low = 1, high = n - 1; i < n; ++i)
    first.push_back(i == 0 ? 0 : (i % 2 == 1 ? low++ : high--));
  std::vector<std::vector<size_t>> rows;
  for (size_t r = 0; r < n; ++r) {
    std::vector<size_t> row;
    for (size_t c : first) row.push_back((c + r) % n);
    rows.push_back(row);
  }
  if (n % 2 == 1)
    for (size_t r = 0; r < n; ++r) rows.emplace_back(rows[r].rbegin(), rows[r].rend());
  return rows;
}

int orderRows(const StudyProtocol& protocol) {
  if (protocol.order != OrderScheme::LatinSquare) return 0;
  const size_t n = protocol.conditions.size();
  return static_cast<int>(n % 2 == 1 ? 2 * n : n);
}

int cyclicRow(const StudyProtocol& protocol, int ordinal) {
  const int rows = orderRows(protocol);
  return rows == 0 ? -1 : ordinal % rows;
}

std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal, int row) {
  const size_t n = protocol.conditions.size();
  std::vector<size_t> order;
  if (protocol.order == OrderScheme::LatinSquare) {
    const auto rows = balancedLatinSquare(n);
    if (row < 0 || static_cast<size_t>(row) >= rows.size())
      throw std::logic_error("planGames: no order row " + std::to_string(row));
    const auto& conditions = rows[static_cast<size_t>(row)];
    for (int round = 0; round < protocol.gamesPerCondition; ++round)
      order.insert(order.end(), conditions.begin(), conditions.end());
  } else {
    for (int round = 0; round < protocol.gamesPerCondition; ++round)
      for (size_t c = 0; c < n; ++c) order.push_back(c);
    Rng rng(deriveGameSeed(protocol.seed, static_cast<uint64_t>(ordinal), 0x6f72646572ull));
    for (size_t i = order.size(); i > 1; --i)  // Fisher-Yates
      std::swap(order[i - 1], order[rng.below(static_cast<uint32_t>(i))]);
  }
  std::vector<PlannedGame> plan;
  for (size_t i = 0; i < order.size(); ++i) {
    const uint64_t game = static_cast<uint64_t>(ordinal) * 1000 + i;
    plan.push_back({static_cast<int>(i), order[i], deriveGameSeed(protocol.seed, game, 0)});
  }
  return plan;
}

std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal) {
  return planGames(protocol, ordinal, cyclicRow(protocol, ordinal));
}

size_t studyPeriod(const StudyProtocol& protocol, const PlannedGame& game) {
  return static_cast<size_t>(game.index) % protocol.conditions.size() + 1;
}

}  // namespace ddalab
