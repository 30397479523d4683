// Lost Cities: cards, rules, determinization, text and the registry entry.
#include "games/lost-cities/lost_cities.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "games/lost-cities/card_bits.h"

namespace ddalab::lostcities {

namespace {

constexpr std::string_view kColourLetters = "YBWGR";

using bits::highestRank;

// Calls visit(kind) once per card of `cards`, kinds ascending.
template <typename Visit>
void forEachCard(const CardSet& cards, Visit visit) {
  for (int c = 0; c < kColours; ++c) {
    for (int w = 0; w < cards.wagers[c]; ++w) visit(kindOf(c, kWagerRank));
    for (unsigned m = cards.numbers[c]; m; m &= m - 1) visit(kindOf(c, std::countr_zero(m)));
  }
}

std::string cardList(const CardSet& cards) {
  std::string text;
  forEachCard(cards, [&text](int kind) {
    if (!text.empty()) text += ' ';  // (appending, not "literal" + string: GCC 12 warns falsely)
    text += cardName(kind);
  });
  return text.empty() ? "-" : text;
}

// All 60 cards as kinds, ascending.
std::array<uint8_t, kCards> allCards() {
  std::array<uint8_t, kCards> cards{};
  int n = 0;
  for (int kind = 0; kind < kKinds; ++kind)
    for (int copy = 0; copy < (rankOf(kind) == kWagerRank ? kWagersPerColour : 1); ++copy)
      cards[n++] = static_cast<uint8_t>(kind);
  return cards;
}

// Index in [from, n) chosen with probability weight(kind)/sum, uniformly when all weigh 0.
int weightedPick(const std::array<uint8_t, kCards>& cards, int from, int n,
                 std::span<const double> weights, Rng& rng) {
  double total = 0;
  for (int i = from; i < n; ++i) total += weights[cards[i]];
  if (!(total > 0.0)) return from + static_cast<int>(rng.below(static_cast<uint32_t>(n - from)));
  double u = rng.uniform() * total;
  for (int i = from; i < n; ++i) {
    u -= weights[cards[i]];
    if (u < 0.0) return i;
  }
  for (int i = n - 1; i > from; --i)  // rounding: the last card with a positive weight
    if (weights[cards[i]] > 0.0) return i;
  return from;
}

}  // namespace

std::string cardName(int kind) {
  const char colour = kColourLetters[colourOf(kind)];
  if (rankOf(kind) == kWagerRank) return std::string{colour, 'w'};
  return colour + std::to_string(valueOf(kind));
}

int parseCard(std::string_view name) {
  for (int kind = 0; kind < kKinds; ++kind)
    if (cardName(kind) == name) return kind;
  throw std::invalid_argument("not a Lost Cities card: '" + std::string(name) +
                              "' (expected a colour of YBWGR and 2..10 or w)");
}

int CardSet::size() const {
  int n = 0;
  for (int c = 0; c < kColours; ++c) n += std::popcount(numbers[c]) + wagers[c];
  return n;
}

LostCitiesState::LostCitiesState(const LostCitiesConfig& config, uint64_t dealSeed)
    : config_(config) {
  Rng rng(dealSeed);
  std::array<uint8_t, kCards> cards = allCards();
  const int dealt = 2 * config_.handSize;
  for (int i = 0; i < dealt; ++i) {  // partial Fisher-Yates: cards[0..dealt) are the deal
    std::swap(cards[i], cards[i + rng.below(static_cast<uint32_t>(kCards - i))]);
    hands_[i % 2].add(cards[i]);
    if (config_.countDeal) recordReceipt(i % 2, cards[i]);
  }
  for (int i = dealt; i < kCards; ++i) deck_.add(cards[i]);
  deckSize_ = kCards - dealt;
}

void LostCitiesState::setPosition(const Position& position) {
  CardSet used;
  auto place = [&used](CardSet& into, int kind) {
    if (kind < 0 || kind >= kKinds)
      throw std::invalid_argument("no card kind " + std::to_string(kind));
    const int copies = rankOf(kind) == kWagerRank ? kWagersPerColour : 1;
    if (used.count(kind) >= copies)
      throw std::invalid_argument("more cards " + cardName(kind) + " than the game has");
    used.add(kind);
    into.add(kind);
  };
  CardSet onPiles;  // only counted: the piles keep their order themselves
  for (int p = 0; p < 2; ++p) {
    hands_[p] = expeditions_[p] = takenFromPiles_[p] = CardSet{};
    for (int kind : position.hands[p]) place(hands_[p], kind);
    for (int kind : position.expeditions[p]) place(expeditions_[p], kind);
    history_[p] = {};
  }
  for (int c = 0; c < kColours; ++c) {
    piles_[c] = Pile{};
    for (int kind : position.piles[c]) {
      if (colourOf(kind) != c)
        throw std::invalid_argument(cardName(kind) + " on the pile of another colour");
      place(onPiles, kind);
      piles_[c].ranks[piles_[c].size++] = static_cast<uint8_t>(rankOf(kind));
    }
  }
  deck_ = CardSet{};
  movedAll();
  for (uint8_t kind : allCards())
    if (used.count(kind) > 0)
      used.remove(kind);
    else
      deck_.add(kind);
  deckSize_ = deck_.size();
  hasDeckOrder_ = false;
  player_ = position.toMove;
  drawPending_ = false;
  over_ = capped_ = false;
}

int LostCitiesState::actor() const {
  if (over_) return kTerminal;
  return drawPending_ ? kEnvironment : player_;
}

void LostCitiesState::legalActions(std::vector<Action>& out) const {
  out.clear();
  if (actor() < 0) return;
  // At most 8 distinct kinds in hand x 2 modes x 6 sources; a local buffer then one copy is
  // markedly faster than growing the vector action by action.
  std::array<Action, kKinds * 2 * kSources> buffer;
  int n = 0;
  unsigned nonEmptyPiles = 0;
  for (int c = 0; c < kColours; ++c)
    if (piles_[c].size) nonEmptyPiles |= 1u << c;
  auto addDraws = [&buffer, &n, nonEmptyPiles](int kind, bool discard) {
    buffer[n++] = makeAction(kind, discard, kDeckSource);
    // The card just discarded lies on top of its pile: that pile is no draw source this turn.
    const unsigned piles = discard ? nonEmptyPiles & ~(1u << colourOf(kind)) : nonEmptyPiles;
    for (unsigned m = piles; m; m &= m - 1)
      buffer[n++] = makeAction(kind, discard, pileSource(std::countr_zero(m)));
  };
  const CardSet& hand = hands_[player_];
  const CardSet& table = expeditions_[player_];
  for (int c = 0; c < kColours; ++c) {
    const int highest = highestRank(table.numbers[c]);
    if (hand.wagers[c]) {
      const int wager = kindOf(c, kWagerRank);
      if (table.numbers[c] == 0) addDraws(wager, false);  // wagers only before number cards
      addDraws(wager, true);
    }
    for (unsigned m = hand.numbers[c]; m; m &= m - 1) {
      const int rank = std::countr_zero(m);
      if (rank > highest) addDraws(kindOf(c, rank), false);
      addDraws(kindOf(c, rank), true);
    }
  }
  out.assign(buffer.begin(), buffer.begin() + n);
}

void LostCitiesState::outcomes(std::vector<Outcome>& out) const {
  out.clear();
  if (actor() != kEnvironment) return;
  if (hasDeckOrder_) {  // determinized at an environment node: the deck order decides
    out.push_back({deckOrder_[deckSize_ - 1], 1.0});
    return;
  }
  const double perCard = 1.0 / deckSize_;
  for (int c = 0; c < kColours; ++c) {
    if (deck_.wagers[c]) out.push_back({kindOf(c, kWagerRank), deck_.wagers[c] * perCard});
    for (unsigned m = deck_.numbers[c]; m; m &= m - 1)
      out.push_back({kindOf(c, std::countr_zero(m)), perCard});
  }
}

void LostCitiesState::apply(Action action) {
  if (drawPending_) {  // the environment's outcome: the card the deck gives
    takeFromDeck(player_, hasDeckOrder_ ? deckOrder_[deckSize_ - 1] : action);
    endTurn();
    return;
  }
  const ActionParts parts = decodeAction(action);
  playOrDiscard(player_, parts.kind, parts.discard);
  if (parts.source != kDeckSource) {
    takeFromPile(player_, parts.source - 1);
  } else if (hasDeckOrder_) {
    takeFromDeck(player_, deckOrder_[deckSize_ - 1]);  // determinized: no environment event
  } else {
    drawPending_ = true;
    // The environment's searches copy this state once for every card the deck can give: its
    // kept parts are brought up to date once, here, rather than in every copy.
    bothParts();
    believability();
    return;
  }
  endTurn();
}

void LostCitiesState::playOrDiscard(int player, int kind, bool discard) {
  const int c = colourOf(kind);
  moved(c);
  hands_[player].remove(kind);
  // The card leaves the hand: if it was known (taken from a pile), it no longer is. Wagers are
  // interchangeable, so a played wager of c removes one known wager of c.
  if (takenFromPiles_[player].count(kind) > 0) takenFromPiles_[player].remove(kind);
  ColourHistory& history = history_[player][c];
  const bool unopened = (expeditions_[player].numbers[c] | expeditions_[player].wagers[c]) == 0;
  if (discard) {
    if (unopened) ++history.blindDiscards;
    Pile& pile = piles_[c];
    pile.ranks[pile.size++] = static_cast<uint8_t>(rankOf(kind));
  } else {
    if (unopened) history.openingRank = static_cast<int8_t>(rankOf(kind));
    expeditions_[player].add(kind);
  }
}

void LostCitiesState::takeFromPile(int player, int colour) {
  moved(colour);
  Pile& pile = piles_[colour];
  const int kind = kindOf(colour, pile.ranks[--pile.size]);
  hands_[player].add(kind);
  takenFromPiles_[player].add(kind);
  ++history_[player][colour].pileTakes;
}

void LostCitiesState::takeFromDeck(int player, int kind) {
  moved(colourOf(kind));
  deck_.remove(kind);
  --deckSize_;
  hands_[player].add(kind);
  recordReceipt(player, kind);
}

void LostCitiesState::endTurn() {
  drawPending_ = false;
  ++rounds_;
  player_ = 1 - player_;
  if (deckSize_ == 0) {
    over_ = true;  // the last deck card was drawn: the game ends at once
  } else if (rounds_ >= config_.maxRounds) {
    over_ = capped_ = true;
  }
}

CardSet LostCitiesState::unseenBy(int player) const {
  // All cards minus what `player` sees: its hand, both expeditions, the piles and K.
  CardSet unseen;
  const CardSet& k = known(player);
  for (int c = 0; c < kColours; ++c) {
    unsigned numbers = bits::kAllNumbers;
    int wagers = kWagersPerColour;
    for (const CardSet* seen : {&hands_[player], &expeditions_[0], &expeditions_[1], &k}) {
      numbers &= ~static_cast<unsigned>(seen->numbers[c]);
      wagers -= seen->wagers[c];
    }
    for (int i = 0; i < piles_[c].size; ++i) {
      const int rank = piles_[c].ranks[i];
      if (rank == kWagerRank)
        --wagers;
      else
        numbers &= ~(1u << rank);
    }
    unseen.numbers[c] = static_cast<uint16_t>(numbers);
    unseen.wagers[c] = static_cast<uint8_t>(wagers);
  }
  return unseen;
}

std::unique_ptr<State> LostCitiesState::determinize(int player, Rng& rng,
                                                    std::span<const double> kindWeights) const {
  if (!kindWeights.empty() && kindWeights.size() != static_cast<size_t>(kKinds))
    throw std::invalid_argument("Lost Cities determinize: kindWeights needs one weight per kind (" +
                                std::to_string(kKinds) + ")");
  for (double w : kindWeights)
    if (!(w >= 0.0) || !std::isfinite(w))
      throw std::invalid_argument("Lost Cities determinize: kind weights must be finite and >= 0");
  auto det = std::make_unique<LostCitiesState>(*this);
  if (over_) return det;
  det->movedAll();  // the opponent's hand and the deck are dealt anew
  const int opponent = 1 - player;
  std::array<uint8_t, kCards> unseen{};
  int n = 0;
  forEachCard(unseenBy(player), [&](int kind) { unseen[n++] = static_cast<uint8_t>(kind); });
  // The opponent holds K plus cards drawn from the unseen ones without replacement.
  CardSet& opponentHand = det->hands_[opponent];
  opponentHand = known(player);
  const int drawn = hands_[opponent].size() - opponentHand.size();
  for (int i = 0; i < drawn; ++i) {
    const int pick = kindWeights.empty()
                         ? i + static_cast<int>(rng.below(static_cast<uint32_t>(n - i)))
                         : weightedPick(unseen, i, n, kindWeights, rng);
    std::swap(unseen[i], unseen[pick]);
    opponentHand.add(unseen[i]);
  }
  // The rest, shuffled, is the deck in a fixed order.
  det->deck_ = CardSet{};
  det->deckSize_ = n - drawn;
  det->hasDeckOrder_ = true;
  for (int i = 0; i < det->deckSize_; ++i) {
    const int pick = drawn + i + static_cast<int>(rng.below(static_cast<uint32_t>(n - drawn - i)));
    std::swap(unseen[drawn + i], unseen[pick]);
    det->deckOrder_[i] = unseen[drawn + i];
    det->deck_.add(unseen[drawn + i]);
  }
  return det;
}

std::string LostCitiesState::actionToString(Action action) const {
  if (actor() == kEnvironment) return "deck gives " + cardName(action);
  const ActionParts parts = decodeAction(action);
  std::string text = (parts.discard ? "discard " : "play ") + cardName(parts.kind) + ", draw ";
  if (parts.source == kDeckSource) return text + "deck";
  return text + "pile " + kColourLetters[parts.source - 1];
}

Json LostCitiesState::actionJson(Action action) const {
  if (actor() < 0) return Json::object();
  const ActionParts parts = decodeAction(action);
  Json does = {{"verb", parts.discard ? "discard" : "play"}, {"card", parts.kind}};
  if (parts.source == kDeckSource) {
    does["draw"] = "deck";
  } else {
    does["draw"] = "pile";
    does["pile"] = parts.source - 1;
  }
  return does;
}

std::string LostCitiesState::describePlayer(int p, int viewer) const {
  const bool handSeen = viewer < 0 || viewer == p;
  std::ostringstream out;
  out << "player " << p << ": ";
  if (handSeen)
    out << "hand " << cardList(hands_[p]);
  else
    out << "hand of " << hands_[p].size() << " cards (hidden)";
  out << " | expeditions";
  for (int c = 0; c < kColours; ++c) {
    CardSet one;
    one.numbers[c] = expeditions_[p].numbers[c];
    one.wagers[c] = expeditions_[p].wagers[c];
    if (one.size()) out << ' ' << kColourLetters[c] << '[' << cardList(one) << ']';
  }
  out << " | score " << score(p);
  // The gain weighs the hand's cards and the deck's: the seat knows the unseen cards, not which
  // of them are in the deck, so its own gain would tell it about the other hand (gainsPublic).
  if (viewer < 0) out << ", gain " << heuristicUnits(p);
  out << "\n  known to player " << 1 - p << " (taken from piles): " << cardList(known(1 - p))
      << "\n";
  return out.str();
}

std::string LostCitiesState::hiddenOutcomeString() const {
  return "player " + std::to_string(player_) + " draws a card from the deck (hidden)";
}

std::string LostCitiesState::describe(int viewer) const {
  std::ostringstream out;
  out << "round " << rounds_ << ", ";
  if (over_)
    out << (capped_ ? "capped" : "over") << ", winner "
        << (winner() < 0 ? std::string("none (draw)") : "player " + std::to_string(winner()));
  else
    out << "player " << player_ << (drawPending_ ? " draws from the deck" : " on turn");
  out << ", deck " << deckSize_ << (viewer < 0 && hasDeckOrder_ ? " (fixed order)" : "") << "\n";
  for (int p = 0; p < 2; ++p) out << describePlayer(p, viewer);
  out << "piles:";
  for (int c = 0; c < kColours; ++c) {
    out << ' ' << kColourLetters[c] << '[';
    for (int i = 0; i < piles_[c].size; ++i) out << (i ? " " : "") << cardName(pileCard(c, i));
    out << ']';
  }
  return out.str();
}

std::string LostCitiesState::observationString(int player) const {
  return describe(player);
}

std::string LostCitiesState::toString() const {
  return describe(-1);
}

namespace {

// The kinds of `set`, per colour wagers first then numbers rising (as the GUI lays them out).
Json kindsOf(const CardSet& set) {
  Json kinds = Json::array();
  forEachCard(set, [&](int kind) { kinds.push_back(kind); });
  return kinds;
}

// Each colour's cards of `set`, colour by colour.
Json byColour(const CardSet& set) {
  Json colours = Json::array();
  for (int c = 0; c < kColours; ++c) {
    CardSet one;
    one.numbers[c] = set.numbers[c];
    one.wagers[c] = set.wagers[c];
    colours.push_back(kindsOf(one));
  }
  return colours;
}

}  // namespace

Json LostCitiesState::observationJson(int player) const {
  const int opponent = 1 - player;
  Json piles = Json::array();
  for (int c = 0; c < kColours; ++c)
    piles.push_back({{"top", pileSize(c) ? Json(pileCard(c, pileSize(c) - 1)) : Json()},
                     {"size", pileSize(c)}});
  return {{"deck", deckSize_},
          {"you",
           {{"hand", kindsOf(hands_[player])},
            {"expeditions", byColour(expeditions_[player])},
            {"score", score(player)}}},
          {"opponent",
           {{"handSize", hands_[opponent].size()},
            {"expeditions", byColour(expeditions_[opponent])},
            {"score", score(opponent)}}},
          {"piles", piles}};
}

std::unique_ptr<State> LostCitiesGame::newGame(uint64_t setupSeed) const {
  return std::make_unique<LostCitiesState>(config_, setupSeed);
}

GameInfo gameInfo() {
  GameInfo info;
  info.id = "lost-cities";
  info.description =
      "Lost Cities (Knizia), 2 players, hidden hands; the environment chooses each card drawn "
      "from the deck";
  info.thesisCoefficients = {{"believability", 1000}, {"lead_changes", 100}, {"fairness", 100},
                             {"leading_time", 100},   {"tension", 100},      {"freedom", 10}};
  info.params = {
      {"hand_size", ParamType::Int, 8, 5, 8, "cards per hand (8; 5 is the thesis variant)", {5, 8}},
      {"heuristic",
       ParamType::String,
       "wager-aware",
       0,
       0,
       "gain/value: 'wager-aware' multiplies an expedition's potential by 1 + wagers, 'thesis' "
       "is the literal formula (no AI plays wagers)",
       {"wager-aware", "thesis"}},
      {"max_rounds", ParamType::Int, 500, 1, 1e6,
       "rounds after which the game stops and is scored as it stands (flagged capped)"},
      {"count_deal", ParamType::Bool, true, 0, 0,
       "the initially dealt cards count for believability too"},
      {"believability_threshold_category", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over the value categories {wager, 2-4, 5-7, 8-10} of cards received"},
      {"believability_threshold_colour", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over the colours of cards received (weighted 1/2)"},
  };
  info.make = [](const Json& p) -> std::shared_ptr<const Game> {
    LostCitiesConfig config;
    config.handSize = p.at("hand_size").get<int>();
    config.heuristic = p.at("heuristic").get<std::string>() == "thesis" ? Heuristic::Thesis
                                                                        : Heuristic::WagerAware;
    config.maxRounds = p.at("max_rounds").get<int>();
    config.countDeal = p.at("count_deal").get<bool>();
    config.categoryThreshold = p.at("believability_threshold_category").get<double>();
    config.colourThreshold = p.at("believability_threshold_colour").get<double>();
    return std::make_shared<LostCitiesGame>(config);
  };
  return info;
}

}  // namespace ddalab::lostcities
