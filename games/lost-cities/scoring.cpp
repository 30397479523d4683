// Lost Cities: scoring, the heuristic (gain = value), believability and the inference weights.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/believability.h"
#include "games/lost-cities/card_bits.h"
#include "games/lost-cities/lost_cities.h"

namespace ddalab::lostcities {

using bits::expeditionScore;
using bits::highestRank;
using bits::kValueSum;
using bits::ranksAbove;

namespace {

// The rules' score of an expedition table.
int scoreOf(const CardSet& table) {
  int total = 0;
  for (int c = 0; c < kColours; ++c) total += expeditionScore(table.numbers[c], table.wagers[c]);
  return total;
}

}  // namespace

int LostCitiesState::score(int p) const {
  return scoreOf(expeditions_[p]);
}

std::array<int, kColours> LostCitiesState::topRanks() const {
  std::array<int, kColours> tops;
  for (int c = 0; c < kColours; ++c) tops[c] = topRank(c);
  return tops;
}

int LostCitiesState::heuristicUnits(int p) const {
  if (over_) return 10 * score(p);
  return unitsOf(sumOf(partsOf(p)));
}

void LostCitiesState::gains(std::span<double> gains) const {
  if (over_) {
    for (int p = 0; p < 2; ++p) gains[static_cast<size_t>(p)] = 10 * score(p);
    return;
  }
  const auto& parts = bothParts();
  for (int p = 0; p < 2; ++p) gains[static_cast<size_t>(p)] = unitsOf(sumOf(parts[p]));
}

[[gnu::always_inline]] inline LostCitiesState::ColourUnits LostCitiesState::colourUnits(
    int colour, const CardSet& table, const CardSet& hand, const CardSet& deck, int top,
    bool wagerAware) {
  const unsigned numbers = table.numbers[colour];
  const int wagers = table.wagers[colour];
  if (numbers == 0 && wagers == 0) return {};
  const int highest = highestRank(numbers);
  const unsigned playable = ranksAbove(highest);
  const int multiplier = wagerAware ? 1 + wagers : 1;
  int potential = 8 * kValueSum[hand.numbers[colour] & playable];
  if (top > highest) potential += 7 * (top + 1);  // wagers: rank 0
  return {10 * expeditionScore(numbers, wagers) + multiplier * potential,
          multiplier * kValueSum[deck.numbers[colour] & playable], 1};
}

const LostCitiesState::SeatParts& LostCitiesState::partsOf(int p) const {
  uint8_t& stale = staleParts_[p];
  if (stale == 0) return parts_[p];
  const bool wagerAware = config_.heuristic == Heuristic::WagerAware;
  for (unsigned colours = stale; colours != 0; colours &= colours - 1) {
    const int c = std::countr_zero(colours);
    parts_[p][c] = colourUnits(c, expeditions_[p], hands_[p], deck_, topRank(c), wagerAware);
  }
  stale = 0;
  return parts_[p];
}

const std::array<LostCitiesState::SeatParts, 2>& LostCitiesState::bothParts() const {
  const unsigned either = staleParts_[0] | staleParts_[1];
  if (either == 0) return parts_;
  const bool wagerAware = config_.heuristic == Heuristic::WagerAware;
  for (unsigned colours = either; colours != 0; colours &= colours - 1) {
    const int c = std::countr_zero(colours);
    const int top = topRank(c);
    for (int p = 0; p < 2; ++p)
      if (staleParts_[p] >> c & 1u)
        parts_[p][c] = colourUnits(c, expeditions_[p], hands_[p], deck_, top, wagerAware);
  }
  staleParts_ = {0, 0};
  return parts_;
}

LostCitiesState::ColourUnits LostCitiesState::sumOf(const SeatParts& parts) {
  ColourUnits sum;
  for (const ColourUnits& part : parts) sum += part;
  return sum;
}

int LostCitiesState::unitsOf(const ColourUnits& sum) {
  // Interpretation: "the valued state has 4 or more started expeditions" counts the valued
  // player's own expeditions (the opponent's do not change what the deck can still give p).
  const int deckWeight = sum.started >= 4 ? 2 : 3;
  return sum.fixed + deckWeight * sum.deck;
}

// (Forced inline: every value of every search is one or two of these.)
[[gnu::always_inline]] inline int LostCitiesState::unitsWith(
    const CardSet& table, const CardSet& hand, const CardSet& deck,
    const std::array<int, kColours>& tops) const {
  // One pass: the deck's part is summed apart and weighed at the end, once the started
  // expeditions are counted (a second pass to count them first was a fifth of the cost).
  const bool wagerAware = config_.heuristic == Heuristic::WagerAware;
  ColourUnits sum;
  for (int c = 0; c < kColours; ++c) {
    if (table.numbers[c] == 0 && table.wagers[c] == 0) continue;    // (nothing to add: skipped)
    sum += colourUnits(c, table, hand, deck, tops[c], wagerAware);  // (started: 1)
  }
  return unitsOf(sum);
}

// (Forced inline, as valueIn: they run for every greedy reply of every search, and as calls they
// cost a sixth of Lost Cities' E-MonteCarlo.)
[[gnu::always_inline]] inline LostCitiesState::After LostCitiesState::after(
    Action action, int mover, const std::array<int, kColours>& tops) const {
  const ActionParts parts = decodeAction(action);
  const int c = colourOf(parts.kind);
  After next{hands_[mover], expeditions_[mover], deck_, tops, false, mover};
  next.hand.remove(parts.kind);
  if (parts.discard)
    next.tops[c] = rankOf(parts.kind);
  else
    next.table.add(parts.kind);
  int deckLeft = deckSize_;
  if (parts.source != kDeckSource) {  // (never the pile just discarded on: not legal)
    const Pile& pile = piles_[parts.source - 1];
    next.hand.add(kindOf(parts.source - 1, pile.ranks[pile.size - 1]));
    next.tops[parts.source - 1] = pile.size >= 2 ? pile.ranks[pile.size - 2] : -1;
  } else if (hasDeckOrder_) {
    const int drawn = deckOrder_[deckSize_ - 1];
    next.deck.remove(drawn);
    next.hand.add(drawn);
    --deckLeft;
  } else {
    return next;  // the environment gives the card: the turn goes on
  }
  next.over = deckLeft == 0 || rounds_ + 1 >= config_.maxRounds;  // as endTurn decides
  return next;
}

[[gnu::always_inline]] inline double LostCitiesState::valueIn(const After& next, int p) const {
  // The other seat keeps its hand and table; the deck and the piles' tops are everybody's.
  const bool mover = p == next.mover;
  const CardSet& table = mover ? next.table : expeditions_[p];
  if (next.over) return 10 * scoreOf(table);
  return unitsWith(table, mover ? next.hand : hands_[p], next.deck, next.tops);
}

std::optional<double> LostCitiesState::valueAfter(Action action, int p) const {
  const int mover = actor();
  if (mover < 0) return std::nullopt;  // the environment's outcomes are applied by copy
  return valueIn(after(action, mover, topRanks()), p);
}

bool LostCitiesState::valueAfterEach(std::span<const Action> actions, int p,
                                     std::span<double> values) const {
  const int mover = actor();
  if (mover < 0) return false;
  const bool isMover = p == mover;  // the other seat's hand and table stay as they are
  const CardSet& hand = hands_[p];
  const CardSet& table = expeditions_[p];
  const std::array<int, kColours> tops = topRanks();
  const bool wagerAware = config_.heuristic == Heuristic::WagerAware;
  // `total` with a colour's part `was` replaced by `part`.
  const auto replacePart = [](ColourUnits& total, const ColourUnits& part, const ColourUnits& was) {
    total += part;
    total -= was;
  };
  const SeatParts& now = partsOf(p);
  const ColourUnits sum = sumOf(now);
  // An action changes its card's colour (the mover's hand and table, or the pile top) and the
  // colour it draws (the pile top, a determinized deck's next card; both into the mover's hand).
  // When they differ, each part depends on one of the two alone: the drawn colour's part is
  // worked out once per source, the card's once per card and mode, and shared by the actions.
  // The seat's cards of one colour as an action leaves them, from these effects (as `after`):
  struct Cards {
    CardSet hand, table, deck;
    int top;
  };
  const auto unchanged = [&](int colour) { return Cards{hand, table, deck_, tops[colour]}; };
  const auto playCard = [&](Cards& x, const ActionParts& parts) {  // onto the table or the pile
    if (isMover) x.hand.remove(parts.kind);
    if (isMover && !parts.discard) x.table.add(parts.kind);
    if (parts.discard) x.top = rankOf(parts.kind);
  };
  const auto takeFromPile = [&](Cards& x, int colour) {
    const Pile& pile = piles_[colour];
    if (isMover) x.hand.add(kindOf(colour, pile.ranks[pile.size - 1]));
    x.top = pile.size >= 2 ? pile.ranks[pile.size - 2] : -1;
  };
  const int deckCard = hasDeckOrder_ ? deckOrder_[deckSize_ - 1] : -1;  // the same for all
  const auto takeFromDeck = [&](Cards& x) {
    if (isMover) x.hand.add(deckCard);
    x.deck.remove(deckCard);
  };
  const auto partOf = [&](int colour, const Cards& x) {
    return colourUnits(colour, x.table, x.hand, x.deck, x.top, wagerAware);
  };
  std::array<ColourUnits, kColours> pileDraw;
  for (int c = 0; c < kColours; ++c) {
    if (piles_[c].size == 0) continue;
    Cards x = unchanged(c);
    takeFromPile(x, c);
    pileDraw[c] = partOf(c, x);
  }
  ColourUnits deckDraw;
  if (deckCard >= 0) {
    Cards x = unchanged(colourOf(deckCard));
    takeFromDeck(x);
    deckDraw = partOf(colourOf(deckCard), x);
  }
  // Turns that end the game (the round cap, a determinized deck's last card) are valued as
  // `after` describes them.
  const bool capReached = rounds_ + 1 >= config_.maxRounds;
  int cardKind = -1;
  bool cardDiscarded = false;
  ColourUnits cardPart;
  for (size_t i = 0; i < actions.size(); ++i) {
    const ActionParts parts = decodeAction(actions[i]);
    const int colour = colourOf(parts.kind);
    const bool fromPile = parts.source != kDeckSource;
    const int drawnColour = fromPile ? parts.source - 1 : (deckCard >= 0 ? colourOf(deckCard) : -1);
    // (as `after` decides: a draw from the environment leaves the turn open)
    const bool endsGame =
        fromPile ? deckSize_ == 0 || capReached : deckCard >= 0 && (deckSize_ == 1 || capReached);
    if (endsGame) {
      values[i] = valueIn(after(actions[i], mover, tops), p);
      continue;
    }
    ColourUnits total = sum;
    if (drawnColour == colour) {  // both changes in the card's colour (the pile: a card played)
      Cards x = unchanged(colour);
      playCard(x, parts);
      if (fromPile)
        takeFromPile(x, colour);
      else
        takeFromDeck(x);
      replacePart(total, partOf(colour, x), now[colour]);
      values[i] = unitsOf(total);
      continue;
    }
    if (parts.kind != cardKind || parts.discard != cardDiscarded) {
      cardKind = parts.kind;
      cardDiscarded = parts.discard;
      Cards x = unchanged(colour);
      playCard(x, parts);
      cardPart = partOf(colour, x);
    }
    replacePart(total, cardPart, now[colour]);
    if (drawnColour >= 0)
      replacePart(total, fromPile ? pileDraw[drawnColour] : deckDraw, now[drawnColour]);
    values[i] = unitsOf(total);
  }
  return true;
}

std::array<double, 2> LostCitiesState::valuesAfter(Action action) const {
  const After next = after(action, actor(), topRanks());
  return {valueIn(next, 0), valueIn(next, 1)};
}

int LostCitiesState::winner() const {
  if (!over_) return -1;
  // A capped game is scored as it stands too (spec: "scored as it stands").
  const int a = score(0), b = score(1);
  return a > b ? 0 : (b > a ? 1 : -1);
}

void LostCitiesState::recordReceipt(int player, int kind) {
  static constexpr std::array<int, kRanks> kCategory = {0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
  int& category = categoryCounts_[player][kCategory[rankOf(kind)]];
  int& colour = colourCounts_[player][colourOf(kind)];
  categorySquares_[player] += 2 * category + 1;  // (c + 1)^2 - c^2
  colourSquares_[player] += 2 * colour + 1;
  ++category;
  ++colour;
  ++receipts_[player];
  staleBelievability_ = static_cast<uint8_t>(staleBelievability_ | 1u << player);
}

double LostCitiesState::believability() const {
  // belPC of each player's category and colour counts, from their running sums.
  for (int p = 0; p < 2; ++p) {
    if (!(staleBelievability_ >> p & 1u)) continue;
    believabilityParts_[p] =
        belPCOfSums(4, receipts_[p], categorySquares_[p], config_.categoryThreshold) +
        0.5 * belPCOfSums(kColours, receipts_[p], colourSquares_[p], config_.colourThreshold);
  }
  staleBelievability_ = 0;
  return believabilityParts_[0] + believabilityParts_[1];
}

namespace {

// The factor the opening of an expedition applies to the rank `rank` of its colour.
double openingFactor(int openingRank, int rank) {
  if (openingRank < 0) return 1.0;
  if (openingRank == kWagerRank) return rank == kWagerRank ? 1.0 : 3.0;
  if (rank == kWagerRank) return 0.1;
  return rank > openingRank ? 3.0 : (rank < openingRank ? 0.1 : 1.0);
}

}  // namespace

std::array<double, kKinds> inferenceWeights(const LostCitiesState& state, int player,
                                            double discardFactor) {
  if (!(discardFactor >= 0.0) || !std::isfinite(discardFactor))
    throw std::invalid_argument("inferenceWeights: discardFactor must be a finite number >= 0");
  const int opponent = 1 - player;
  std::array<double, kKinds> weights{};
  std::array<double, kKinds> logs{};  // the same in log space, for the overflow guard below
  double maxLog = -std::numeric_limits<double>::infinity();
  for (int c = 0; c < kColours; ++c) {
    const ColourHistory& h = state.history(opponent, c);
    const double colourWeight =
        std::pow(2.0, h.pileTakes) * std::pow(discardFactor, h.blindDiscards);
    double colourLog = h.pileTakes * std::log(2.0);
    if (h.blindDiscards > 0) colourLog += h.blindDiscards * std::log(discardFactor);
    for (int rank = 0; rank < kRanks; ++rank) {
      const int kind = kindOf(c, rank);
      const double opening = openingFactor(h.openingRank, rank);
      weights[kind] = colourWeight * opening;
      logs[kind] = colourLog + std::log(opening);
      maxLog = std::max(maxLog, logs[kind]);
    }
  }
  // Only relative weights matter to sampling. When the plain products would leave the range of
  // a double (hundreds of pile takes of one colour), rescale them in log space instead.
  if (std::isfinite(maxLog) && std::abs(maxLog) > 600.0)
    for (int kind = 0; kind < kKinds; ++kind) weights[kind] = std::exp(logs[kind] - maxLog);
  return weights;
}

}  // namespace ddalab::lostcities
