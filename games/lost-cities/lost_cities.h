#pragma once
// Lost Cities (Reiner Knizia), two players (spec games/lost-cities.md).
//
// Card kinds (also the `kindWeights` index of determinize and of inferenceWeights):
//   kind = colour * 10 + rank; colours 0..4 = Y(ellow), B(lue), W(hite), G(reen), R(ed);
//   rank 0 = wager (3 interchangeable cards per colour), rank 1..9 = the number card of value
//   rank + 1 (2..10). 50 kinds, 60 cards. Written "B7", "G10", "Yw" (a yellow wager).
// Regular actions (one per turn = one round):
//   id = kind * 12 + mode * 6 + source; mode 0 = play onto the own expedition, 1 = discard onto
//   the colour's pile; source 0 = the deck, 1..5 = the discard pile of colour source - 1.
// Environment outcomes (the card a deck draw gives): the card kind 0..49.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.h"
#include "core/registry.h"
#include "core/state.h"
#include "core/state_copy.h"
#include "games/lost-cities/cards.h"

namespace ddalab::lostcities {

enum class Heuristic { WagerAware, Thesis };

struct LostCitiesConfig {
  int handSize = 8;
  Heuristic heuristic = Heuristic::WagerAware;
  int maxRounds = 500;
  bool countDeal = true;  // the initially dealt cards count for believability
  double categoryThreshold = 1.0;
  double colourThreshold = 1.0;
};

// What everybody saw a player do with one colour (the inference of players.md needs it).
struct ColourHistory {
  int8_t openingRank = -1;     // rank of the first card played onto the expedition; -1 = unopened
  uint16_t pileTakes = 0;      // cards of the colour taken from its discard pile
  uint16_t blindDiscards = 0;  // cards of the colour discarded while the expedition was unopened
};

// A constructed position for tests and analysis; cards are kinds, piles bottom to top.
struct Position {
  std::array<std::vector<int>, 2> hands;
  std::array<std::vector<int>, 2> expeditions;
  std::array<std::vector<int>, kColours> piles;
  int toMove = 0;
};

class LostCitiesState final : public State {
 public:
  // A new game: each player is dealt config.handSize cards at random from `dealSeed`.
  LostCitiesState(const LostCitiesConfig& config, uint64_t dealSeed);

  std::unique_ptr<State> clone() const override { return std::make_unique<LostCitiesState>(*this); }
  bool assign(const State& other) override { return assignSameClass(*this, other); }
  int numPlayers() const override { return 2; }
  int actor() const override;
  void legalActions(std::vector<Action>& out) const override;
  void outcomes(std::vector<Outcome>& out) const override;
  void apply(Action action) override;
  int winner() const override;
  bool capped() const override { return capped_; }
  // The heuristic of the spec in exact integer units; 10 x score once the game is over.
  double gain(int p) const override { return heuristicUnits(p); }
  // Both seats' gains (the metrics ask every round), the piles' tops read once.
  void gains(std::span<double> gains) const override;
  // Either seat's value after the mover's action, without a copy (the mover's hand, table and
  // draw, the piles' tops, the deck of a determinized state, the game's end); nullopt at an
  // environment node (the card dealt is applied by copy).
  std::optional<double> valueAfter(Action action, int p) const override;
  // valueAfter for both seats at once, at a decision node.
  std::array<double, 2> valuesAfter(Action action) const;
  // Either seat's values after each of the mover's actions: the colours an action leaves as
  // they are keep their part of the heuristic, and the parts an action changes are shared with
  // the actions that change them alike (false at an environment node).
  bool valueAfterEach(std::span<const Action> actions, int p,
                      std::span<double> values) const override;
  bool playersCanDropOut() const override { return false; }
  int roundsCompleted() const override { return rounds_; }
  double believability() const override;
  // The player who drew.
  int chanceRecipient() const override { return player_; }
  bool isPass(Action) const override { return false; }  // every turn moves two cards
  // The card and whether it is played or discarded; the draw source is the group's detail.
  Action actionGroup(Action action) const override { return action / kSources; }
  std::string actionToString(Action action) const override;
  // A seat sees its own hand, both expeditions, the piles, the deck's size and the cards the
  // other seat took from the piles; not the other hand, the deck or a draw into the other hand.
  std::string observationString(int player) const override;
  // What ddalab-gui's study mode shows the seat: its hand, both expeditions and scores, the
  // opponent's hand size, each pile's top card and size, the deck's size (docs/web-api.md).
  Json observationJson(int player) const override;
  // {"verb": "play" or "discard", "card": kind, "draw": "deck"} or {..., "draw": "pile", "pile":
  // colour} (docs/web-api.md).
  Json actionJson(Action action) const override;
  bool outcomeVisibleTo(int player) const override { return player == player_; }
  bool outcomesPublic() const override { return false; }
  std::string hiddenOutcomeString() const override;
  // The heuristic weighs both hands and the deck; only 10 x score at the end is public.
  bool gainsPublic() const override { return over_; }
  std::string toString() const override;
  // Keeps `player`'s hand, both expeditions, the piles, deck size, hand sizes and K; the
  // opponent's hand becomes K plus cards drawn from the unseen ones (uniformly, or one at a time
  // with probability kindWeights[kind] / sum: 50 weights >= 0, all 0 = uniform); the rest of
  // the unseen cards, shuffled, is a fixed deck order drawn with no environment event.
  std::unique_ptr<State> determinize(int player, Rng& rng,
                                     std::span<const double> kindWeights) const override;

  // Score of player p by the rules (expeditions only, as the table stands).
  int score(int p) const;
  // The spec's heuristic `gain` of player p (value = gain), in points x 10.
  int heuristicUnits(int p) const;
  const CardSet& hand(int p) const { return hands_[p]; }
  const CardSet& expeditions(int p) const { return expeditions_[p]; }
  // K of `player`: the opponent's cards it saw taken from a discard pile and not yet let go.
  const CardSet& known(int player) const { return takenFromPiles_[1 - player]; }
  int pileSize(int colour) const { return piles_[colour].size; }
  // Kind of the card at `index` of the colour's pile (0 = bottom).
  int pileCard(int colour, int index) const { return kindOf(colour, piles_[colour].ranks[index]); }
  int deckSize() const { return deckSize_; }
  // The cards left in the deck (hidden from both players in a real game).
  const CardSet& deckCards() const { return deck_; }
  // True in a determinized state: deck draws take the next card without an environment event.
  bool hasDeckOrder() const { return hasDeckOrder_; }
  const ColourHistory& history(int p, int colour) const { return history_[p][colour]; }
  // Cards player p received from the deck per category {wager, 2-4, 5-7, 8-10} / per colour.
  const std::array<int, 4>& categoryCounts(int p) const { return categoryCounts_[p]; }
  const std::array<int, kColours>& colourCounts(int p) const { return colourCounts_[p]; }

  // Replaces hands, expeditions and piles; the deck becomes every other card (lazy), K and the
  // public history are cleared; rounds and believability counts stay. Throws
  // std::invalid_argument for more cards than exist or a card on another colour's pile.
  void setPosition(const Position& position);

 private:
  struct Pile {
    std::array<uint8_t, kWagersPerColour + kRanks - 1> ranks{};  // bottom to top
    uint8_t size = 0;
  };

  void playOrDiscard(int player, int kind, bool discard);
  void takeFromPile(int player, int colour);
  void takeFromDeck(int player, int kind);
  void endTurn();
  void recordReceipt(int player, int kind);
  int topRank(int colour) const {
    const Pile& pile = piles_[colour];
    return pile.size ? pile.ranks[pile.size - 1] : -1;
  }
  std::array<int, kColours> topRanks() const;  // topRank of every colour
  // What the heuristic reads after an action of the mover: its hand and table, the deck, the
  // piles' tops and whether the game is over.
  struct After {
    CardSet hand, table, deck;
    std::array<int, kColours> tops;
    bool over;
    int mover;
  };
  // At a decision node of `mover` whose piles' top ranks are `tops`.
  After after(Action action, int mover, const std::array<int, kColours>& tops) const;
  // Player p's value in the state `next` describes.
  double valueIn(const After& next, int p) const;
  // heuristicUnits, the game not over, of a player with `table` and `hand` against `deck` and
  // piles whose top ranks are `tops`.
  int unitsWith(const CardSet& table, const CardSet& hand, const CardSet& deck,
                const std::array<int, kColours>& tops) const;
  // One colour's part of unitsWith: fixed + deckWeight x deck, where the deck weight depends on
  // how many expeditions are started; all zero for an expedition not started.
  struct ColourUnits {
    int fixed = 0;
    int deck = 0;
    int started = 0;  // 1 when the expedition is started

    ColourUnits& operator+=(const ColourUnits& part) {
      fixed += part.fixed;
      deck += part.deck;
      started += part.started;
      return *this;
    }
    ColourUnits& operator-=(const ColourUnits& part) {
      fixed -= part.fixed;
      deck -= part.deck;
      started -= part.started;
      return *this;
    }
  };
  // (`wagerAware`: the configured heuristic, read once by the caller.)
  static ColourUnits colourUnits(int colour, const CardSet& table, const CardSet& hand,
                                 const CardSet& deck, int top, bool wagerAware);
  // unitsWith's total of the parts of every colour.
  static int unitsOf(const ColourUnits& sum);
  using SeatParts = std::array<ColourUnits, kColours>;
  // The total of a seat's parts (what unitsOf weighs).
  static ColourUnits sumOf(const SeatParts& parts);
  // Seat p's colourUnits of every colour as the state stands (the game not over), worked out
  // again only for the colours a card moved in since they were last read.
  const SeatParts& partsOf(int p) const;
  // partsOf of both seats (one pass over the stale colours).
  const std::array<SeatParts, 2>& bothParts() const;
  // A card of `colour` moved (hand, table, pile or deck): both seats' parts of it are stale.
  void moved(int colour) {
    for (uint8_t& stale : staleParts_) stale = static_cast<uint8_t>(stale | 1u << colour);
  }
  // Every part is stale (cards were dealt anew).
  void movedAll() { staleParts_ = {kAllColours, kAllColours}; }
  CardSet unseenBy(int player) const;
  // Player p's lines as seat `viewer` sees them (-1: everything): the hand when seen, else how
  // many cards it holds; the gain only in the whole state.
  std::string describePlayer(int p, int viewer) const;
  // The state as seat `viewer` sees it; -1: everything (toString).
  std::string describe(int viewer) const;

  LostCitiesConfig config_;  // a copy: states never depend on the Game's lifetime
  std::array<CardSet, 2> hands_{};
  std::array<CardSet, 2> expeditions_{};
  std::array<CardSet, 2> takenFromPiles_{};  // per holder: the cards in K of its opponent
  std::array<Pile, kColours> piles_{};
  CardSet deck_{};
  std::array<uint8_t, kCards> deckOrder_{};  // determinized only: next card at deckSize_ - 1
  int deckSize_ = 0;
  bool hasDeckOrder_ = false;
  int player_ = 0;
  bool drawPending_ = false;  // the player drew from the deck; the environment gives the card
  int rounds_ = 0;
  bool over_ = false;
  bool capped_ = false;
  std::array<std::array<ColourHistory, kColours>, 2> history_{};
  std::array<std::array<int, 4>, 2> categoryCounts_{};
  std::array<std::array<int, kColours>, 2> colourCounts_{};
  // Per player, the cards received (what both counts sum to) and the sums of the counts'
  // squares: believability in constant time (the searches ask at the end of every line).
  std::array<int, 2> receipts_{};
  std::array<long long, 2> categorySquares_{};
  std::array<long long, 2> colourSquares_{};
  // Each player's part of believability, kept until it receives a card (the lines a search plays
  // from one state change one player's counts).
  mutable std::array<double, 2> believabilityParts_{};
  mutable uint8_t staleBelievability_ = 0b11;  // bit p: player p's part must be worked out again
  // partsOf's cache: the gains of every round and the values of every greedy reply read it, and
  // a turn moves cards of one or two colours.
  static constexpr uint8_t kAllColours = (1u << kColours) - 1;
  mutable std::array<SeatParts, 2> parts_{};
  // Per seat, bit c: its part of colour c must be worked out again.
  mutable std::array<uint8_t, 2> staleParts_ = {kAllColours, kAllColours};
};

class LostCitiesGame final : public Game {
 public:
  explicit LostCitiesGame(const LostCitiesConfig& config) : config_(config) {}
  int numPlayers() const override { return 2; }
  std::unique_ptr<State> newGame(uint64_t setupSeed) const override;
  double statusScale() const override { return 100.0; }
  bool hasHiddenInformation() const override { return true; }
  // Actions kActionIds (every card, mode and source); outcomes a deck draw's card kind.
  std::optional<ActionBounds> actionBounds() const override {
    return ActionBounds{kActionIds, kKinds, kKinds};
  }
  const LostCitiesConfig& config() const { return config_; }

 private:
  LostCitiesConfig config_;
};

// Per card kind, the inference weight (players.md, "Inference for minimax-is") that the
// opponent of `player` holds it, from the opponent's public actions so far: 1 at the start;
// opening colour c with number v: numbers of c above v x3, below x0.1, wagers of c x0.1;
// opening with a wager: numbers of c x3; each card of c taken from a pile: colour c x2; each card
// of c discarded with no expedition of c: colour c x discardFactor (>= 0).
std::array<double, kKinds> inferenceWeights(const LostCitiesState& state, int player,
                                            double discardFactor);

// Registry entry: id "lost-cities", its parameter schema and factory.
GameInfo gameInfo();

}  // namespace ddalab::lostcities
