// Lost Cities rules, heuristic, believability, information sets and inference
// (spec games/lost-cities.md, players.md "Inference for minimax-is") on constructed positions.
// Cards are written "B7", "G10", "Yw" (a wager); colours Y, B, W, G, R are 0..4.
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/believability.h"
#include "core/params.h"
#include "games/lost-cities/lost_cities.h"

using namespace ddalab;
using lostcities::CardSet;
using lostcities::LostCitiesState;
using lostcities::parseCard;
using lostcities::Position;

namespace {

std::shared_ptr<const Game> makeGame(const Json& given = Json()) {
  const GameInfo info = lostcities::gameInfo();
  return info.make(validateParams(info.params, given, "params"));
}

std::unique_ptr<LostCitiesState> asLostCities(std::unique_ptr<State> s) {
  auto* l = dynamic_cast<LostCitiesState*>(s.get());
  REQUIRE(l != nullptr);
  s.release();
  return std::unique_ptr<LostCitiesState>(l);
}

std::unique_ptr<LostCitiesState> newGame(const Json& given = Json(), uint64_t seed = 7) {
  return asLostCities(makeGame(given)->newGame(seed));
}

// "Yw Y3 B10" -> their kinds.
std::vector<int> cards(const std::string& names) {
  std::vector<int> kinds;
  std::istringstream in(names);
  for (std::string name; in >> name;) kinds.push_back(parseCard(name));
  return kinds;
}

CardSet cardSet(const std::string& names) {
  CardSet set;
  for (int kind : cards(names)) set.add(kind);
  return set;
}

// Puts every card not placed in `position` and not listed in `deck` underneath the pile of its
// colour (pile tops stay as given), so that the deck holds exactly `deck`.
void leaveInDeck(Position& position, const std::string& deck) {
  CardSet placed = cardSet(deck);
  for (int p = 0; p < 2; ++p)
    for (const auto* list : {&position.hands[p], &position.expeditions[p]})
      for (int kind : *list) placed.add(kind);
  for (const auto& pile : position.piles)
    for (int kind : pile) placed.add(kind);
  for (int kind = 0; kind < lostcities::kKinds; ++kind) {
    const int copies = lostcities::rankOf(kind) == 0 ? 3 : 1;
    auto& pile = position.piles[lostcities::colourOf(kind)];
    for (int extra = copies - placed.count(kind); extra > 0; --extra)
      pile.insert(pile.begin(), kind);
  }
}

std::unique_ptr<LostCitiesState> stateAt(const Position& position, const Json& given = Json()) {
  auto s = newGame(given);
  s->setPosition(position);
  return s;
}

std::vector<Action> legal(const State& s) {
  std::vector<Action> out;
  s.legalActions(out);
  return out;
}

std::vector<std::string> legalNames(const State& s) {
  std::vector<std::string> names;
  for (Action a : legal(s)) names.push_back(s.actionToString(a));
  return names;
}

bool isLegal(const State& s, const std::string& name) {
  const auto names = legalNames(s);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Applies the legal action written as `name` (actionToString).
void play(State& s, const std::string& name) {
  for (Action a : legal(s))
    if (s.actionToString(a) == name) return s.apply(a);
  FAIL("not legal: " << name << "\n" << s.toString());
}

// The environment gives `card` to the player who drew from the deck.
void deckGives(State& s, const std::string& card) {
  REQUIRE(s.actor() == kEnvironment);
  s.apply(parseCard(card));
}

// Every card of the game exactly once (wagers three times) across hands, expeditions, piles
// and deck.
void requireAllCards(const LostCitiesState& s) {
  std::vector<int> count(lostcities::kKinds, 0);
  int total = 0;
  for (int kind = 0; kind < lostcities::kKinds; ++kind) {
    count[kind] = s.hand(0).count(kind) + s.hand(1).count(kind) + s.expeditions(0).count(kind) +
                  s.expeditions(1).count(kind) + s.deckCards().count(kind);
    for (int c = 0; c < lostcities::kColours; ++c)
      for (int i = 0; i < s.pileSize(c); ++i) count[kind] += s.pileCard(c, i) == kind;
    INFO("card " << lostcities::cardName(kind));
    CHECK(count[kind] == (lostcities::rankOf(kind) == 0 ? 3 : 1));
    total += count[kind];
  }
  CHECK(total == 60);
  CHECK(s.deckCards().size() == s.deckSize());
}

std::vector<int> pileOf(const LostCitiesState& s, int colour) {
  std::vector<int> pile;
  for (int i = 0; i < s.pileSize(colour); ++i) pile.push_back(s.pileCard(colour, i));
  return pile;
}

constexpr int Y = 0, B = 1, W = 2, G = 3, R = 4;

// One step of a random game: a dealt card by its probability, a move uniformly.
void playRandomStep(LostCitiesState& s, Rng& rng) {
  std::vector<Outcome> outcomes;
  s.outcomes(outcomes);
  const auto ids = legal(s);
  s.apply(s.actor() == kEnvironment ? sampleOutcome(outcomes, rng)
                                    : ids[rng.below(static_cast<uint32_t>(ids.size()))]);
}

}  // namespace

TEST_CASE("Lost Cities: card kinds, names and action ids", "[lost-cities]") {
  using namespace lostcities;
  CHECK(kindOf(B, 6) == 16);
  CHECK(cardName(16) == "B7");
  CHECK(valueOf(16) == 7);
  CHECK(cardName(kindOf(G, 9)) == "G10");
  CHECK(cardName(kindOf(Y, 0)) == "Yw");
  CHECK(valueOf(kindOf(R, 0)) == 0);
  CHECK(cardName(kindOf(R, 1)) == "R2");
  for (int kind = 0; kind < kKinds; ++kind) CHECK(parseCard(cardName(kind)) == kind);
  CHECK_THROWS_AS(parseCard("X3"), std::invalid_argument);
  CHECK_THROWS_AS(parseCard("B1"), std::invalid_argument);
  CHECK_THROWS_AS(parseCard("B11"), std::invalid_argument);

  std::set<Action> ids;
  for (int kind = 0; kind < kKinds; ++kind)
    for (bool discard : {false, true})
      for (int source = 0; source < kSources; ++source) {
        const Action a = makeAction(kind, discard, source);
        const ActionParts parts = decodeAction(a);
        CHECK(parts.kind == kind);
        CHECK(parts.discard == discard);
        CHECK(parts.source == source);
        CHECK(a >= 0);
        CHECK(a < kActionIds);
        ids.insert(a);
      }
  CHECK(ids.size() == static_cast<size_t>(kActionIds));

  auto s = newGame();
  CHECK(s->actionToString(makeAction(parseCard("B7"), false, kDeckSource)) == "play B7, draw deck");
  CHECK(s->actionToString(makeAction(parseCard("Y3"), true, pileSource(R))) ==
        "discard Y3, draw pile R");
  CHECK(s->actionToString(makeAction(parseCard("Gw"), false, pileSource(W))) ==
        "play Gw, draw pile W");
  play(*s, s->actionToString(legal(*s).front()));
  REQUIRE(s->actor() == kEnvironment);
  CHECK(s->actionToString(parseCard("G10")) == "deck gives G10");
}

TEST_CASE("Lost Cities: the seeded deal and the lazy deck", "[lost-cities]") {
  auto s = newGame();
  CHECK(s->numPlayers() == 2);
  CHECK(s->actor() == 0);
  CHECK(s->roundsCompleted() == 0);
  CHECK(s->hand(0).size() == 8);
  CHECK(s->hand(1).size() == 8);
  CHECK(s->deckSize() == 44);
  CHECK_FALSE(s->hasDeckOrder());
  requireAllCards(*s);
  std::vector<Outcome> outcomes;
  s->outcomes(outcomes);
  CHECK(outcomes.empty());

  // Same seed, same deal; another seed, another deal.
  CHECK(newGame(Json(), 7)->hand(0) == s->hand(0));
  CHECK(newGame(Json(), 7)->toString() == s->toString());
  CHECK_FALSE(newGame(Json(), 8)->hand(0) == s->hand(0));

  auto five = newGame(Json{{"hand_size", 5}});
  CHECK(five->hand(0).size() == 5);
  CHECK(five->hand(1).size() == 5);
  CHECK(five->deckSize() == 50);
  requireAllCards(*five);

  const auto game = makeGame();
  CHECK(game->numPlayers() == 2);
  CHECK(game->hasHiddenInformation());
  CHECK(game->statusScale() == 100.0);
}

TEST_CASE("Lost Cities: scoring by the rules", "[lost-cities]") {
  Position pos;
  pos.expeditions[0] = cards("Yw Y4 Y5 Gw Gw Gw");
  pos.expeditions[1] = cards("Bw B2 B3 B4 B5 B6 B7 B8 W3 W4 W5 W6 W7 W8 W9 W10 R10");
  auto s = stateAt(pos);
  // Player 0: yellow (4 + 5 - 20) x (1 + 1) = -22; green only wagers: -20 x (1 + 3) = -80;
  // blue, white and red never started: 0.
  CHECK(s->score(0) == -22 - 80);
  // Player 1: blue 8 cards with the wager: (35 - 20) x 2 + 20 = 50 (the bonus not doubled);
  // white 8 number cards: (52 - 20) + 20 = 52; red (10 - 20) = -10.
  CHECK(s->score(1) == 50 + 52 - 10);

  // Seven cards get no bonus.
  pos.expeditions[1] = cards("Bw B2 B3 B4 B5 B6 B7");
  s->setPosition(pos);
  CHECK(s->score(1) == (27 - 20) * 2);
  // Nothing played: 0.
  CHECK(stateAt(Position{})->score(0) == 0);
}

TEST_CASE("Lost Cities: the heuristic gain on constructed positions", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Y3 Y6 Y8 B5");
  pos.hands[1] = cards("Y9");
  pos.expeditions[0] = cards("Yw Y4");
  pos.piles[Y] = cards("Y2 Y5");
  auto s = stateAt(pos);
  // Yellow of player 0, one expedition started (deck weight 3): points (4 - 20) x 2 = -32 ->
  // -320; playable above 4: hand Y6 + Y8 = 14 -> 8 x 14 = 112; deck Y7 + Y10 = 17 -> 3 x 17 = 51;
  // pile top Y5 playable -> 7 x 5 = 35. Potential 198, doubled by the wager: -320 + 396 = 76.
  CHECK(s->heuristicUnits(0) == 76);
  CHECK(s->gain(0) == 76.0);
  CHECK(s->value(0) == s->gain(0));
  CHECK(s->heuristicUnits(1) == 0);  // nothing started
  auto thesis = stateAt(pos, Json{{"heuristic", "thesis"}});
  CHECK(thesis->heuristicUnits(0) == -320 + 198);

  // Four started expeditions: the deck weight drops to 2.
  pos.expeditions[0] = cards("Yw Y4 Bw W10 G2");
  pos.piles[B] = cards("Bw");  // a wager on top is worth 0
  pos.piles[W] = cards("W3");  // below W10: not playable
  s->setPosition(pos);
  thesis->setPosition(pos);
  // Yellow: deck 2 x 17 = 34 -> potential 181: wager-aware -320 + 362 = 42, thesis -139.
  // Blue (only a wager: every number playable): hand B5 -> 40; deck B2..B10 without B5 = 49 ->
  // 98; potential 138; points -20 x 2 -> -400: wager-aware -400 + 276 = -124, thesis -262.
  // White: (10 - 20) -> -100, nothing playable above 10.
  // Green: (2 - 20) -> -180; deck G3..G10 = 52 -> 104: -76 in both.
  CHECK(s->heuristicUnits(0) == 42 - 124 - 100 - 76);
  CHECK(thesis->heuristicUnits(0) == -139 - 262 - 100 - 76);
}

TEST_CASE("Lost Cities: the game over value is 10 x score, the winner has more points",
          "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Y3 Y6 Y8 B5");
  pos.hands[1] = cards("R9 R10");
  pos.expeditions[0] = cards("Yw Y4");
  pos.expeditions[1] = cards("R2 R3");
  leaveInDeck(pos, "G7 G8");
  auto s = stateAt(pos);
  REQUIRE(s->deckSize() == 2);
  play(*s, "discard B5, draw deck");
  deckGives(*s, "G8");
  CHECK(s->deckSize() == 1);
  CHECK_FALSE(s->isTerminal());
  play(*s, "play R9, draw deck");
  REQUIRE(s->actor() == kEnvironment);
  std::vector<Outcome> outcomes;
  s->outcomes(outcomes);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].action == parseCard("G7"));
  CHECK(outcomes[0].probability == 1.0);
  deckGives(*s, "G7");
  // The last card was drawn: the game is over at once.
  CHECK(s->isTerminal());
  CHECK(s->deckSize() == 0);
  CHECK_FALSE(s->capped());
  CHECK(legal(*s).empty());
  CHECK(s->score(0) == -32);
  CHECK(s->score(1) == (2 + 3 + 9 - 20));
  CHECK(s->gain(0) == -320.0);
  CHECK(s->gain(1) == -60.0);
  CHECK(s->winner() == 1);
  CHECK(s->roundsCompleted() == 2);
}

TEST_CASE("Lost Cities: legal actions", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Yw Y3 Y6 B5");
  pos.expeditions[0] = cards("Y4");
  pos.piles[B] = cards("B2");
  auto s = stateAt(pos);
  // Ascending ids: by card kind, play before discard, the deck before the piles.
  const std::vector<std::string> expected = {
      // Yw: no wager after a number card; discarding it: not from its own pile (empty anyway).
      "discard Yw, draw deck", "discard Yw, draw pile B",
      // Y3: below Y4, not playable.
      "discard Y3, draw deck", "discard Y3, draw pile B",
      // Y6: higher than Y4.
      "play Y6, draw deck", "play Y6, draw pile B", "discard Y6, draw deck",
      "discard Y6, draw pile B",
      // B5 discarded lies on the B pile: drawing it back is illegal.
      "play B5, draw deck", "play B5, draw pile B", "discard B5, draw deck"};
  CHECK(legalNames(*s) == expected);
  const auto ids = legal(*s);
  CHECK(std::is_sorted(ids.begin(), ids.end()));
  CHECK_FALSE(s->isPass(ids.front()));

  // Wagers: any number of them before the first number card, in one action per kind.
  pos.hands[0] = cards("Gw Gw G2 G9");
  pos.expeditions[0] = cards("Gw");
  pos.piles[B].clear();
  s->setPosition(pos);
  CHECK(legalNames(*s) == std::vector<std::string>{"play Gw, draw deck", "discard Gw, draw deck",
                                                   "play G2, draw deck", "discard G2, draw deck",
                                                   "play G9, draw deck", "discard G9, draw deck"});
  play(*s, "play G9, draw deck");
  deckGives(*s, "R5");
  CHECK(s->expeditions(0) == cardSet("Gw G9"));
  pos.hands[0] = cards("Gw G2 G10");
  pos.expeditions[0] = cards("G9");
  s->setPosition(pos);
  // After G9 nothing lower and no wager: only G10 is playable.
  CHECK_FALSE(isLegal(*s, "play Gw, draw deck"));
  CHECK_FALSE(isLegal(*s, "play G2, draw deck"));
  CHECK(isLegal(*s, "play G10, draw deck"));
  // Equal values cannot happen (every number exists once), and the empty piles are no source.
  for (const auto& name : legalNames(*s)) CHECK(name.find("pile") == std::string::npos);

  // Hand size 5: a turn keeps five cards in hand.
  auto five = newGame(Json{{"hand_size", 5}});
  CHECK(legal(*five).size() <= 5u * 2u);  // every pile is empty: only the deck is a source
  five->apply(legal(*five).front());
  std::vector<Outcome> outcomes;
  five->outcomes(outcomes);
  five->apply(outcomes.front().action);
  CHECK(five->hand(0).size() == 5);
  CHECK(five->deckSize() == 49);
}

TEST_CASE("Lost Cities: one turn is one round, a pile draw needs no environment", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Yw Y3 Y6 B5");
  pos.hands[1] = cards("R2 R3 R4 R5");
  pos.expeditions[0] = cards("Y4");
  pos.piles[B] = cards("B2");
  auto s = stateAt(pos);
  const int deck = s->deckSize();
  play(*s, "play Y6, draw pile B");
  CHECK(s->roundsCompleted() == 1);
  CHECK(s->actor() == 1);
  CHECK(s->hand(0) == cardSet("Yw Y3 B5 B2"));
  CHECK(s->expeditions(0) == cardSet("Y4 Y6"));
  CHECK(s->pileSize(B) == 0);
  CHECK(s->deckSize() == deck);

  play(*s, "discard R2, draw deck");
  CHECK(s->roundsCompleted() == 1);  // the round ends when the environment gives the card
  CHECK(s->actor() == kEnvironment);
  CHECK(legal(*s).empty());
  deckGives(*s, "W7");
  CHECK(s->roundsCompleted() == 2);
  CHECK(s->actor() == 0);
  CHECK(s->hand(1) == cardSet("R3 R4 R5 W7"));
  CHECK(pileOf(*s, R) == cards("R2"));
  CHECK(s->deckSize() == deck - 1);
}

TEST_CASE("Lost Cities: the environment gives deck cards with probability count/remaining",
          "[lost-cities]") {
  auto s = newGame();
  s->apply(legal(*s).front());
  REQUIRE(s->actor() == kEnvironment);
  std::vector<Outcome> outcomes;
  s->outcomes(outcomes);
  const CardSet deck = s->deckCards();
  int kinds = 0;
  for (int kind = 0; kind < lostcities::kKinds; ++kind) kinds += deck.count(kind) > 0;
  REQUIRE(outcomes.size() == static_cast<size_t>(kinds));
  double sum = 0;
  int wagerOutcomes = 0;
  for (const auto& o : outcomes) {
    INFO(lostcities::cardName(o.action));
    CHECK(o.probability == Approx(deck.count(o.action) / 44.0));
    if (deck.count(o.action) > 1) ++wagerOutcomes;
    sum += o.probability;
  }
  CHECK(sum == Approx(1.0));
  CHECK(wagerOutcomes > 0);  // this deal leaves two or three wagers of some colour in the deck
  const Action given = outcomes.back().action;
  const int before = s->hand(0).count(given);
  s->apply(given);
  CHECK(s->hand(0).count(given) == before + 1);
  CHECK(s->deckCards().count(given) == deck.count(given) - 1);
  CHECK(s->deckSize() == 43);
}

TEST_CASE("Lost Cities: a random game ends exactly when the deck is empty", "[lost-cities]") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    auto s = newGame(Json{{"max_rounds", 100000}}, seed);
    Rng rng(seed);
    std::vector<Action> actions;
    std::vector<Outcome> outcomes;
    while (!s->isTerminal()) {
      REQUIRE(s->deckSize() > 0);
      if (s->isEnvironmentNode()) {
        s->outcomes(outcomes);
        s->apply(sampleOutcome(outcomes, rng));
      } else {
        s->legalActions(actions);
        s->apply(actions[rng.below(static_cast<uint32_t>(actions.size()))]);
      }
      requireAllCards(*s);
    }
    CHECK(s->deckSize() == 0);
    CHECK_FALSE(s->capped());
    CHECK(s->hand(0).size() == 8);
    CHECK(s->hand(1).size() == 8);
    const int a = s->score(0), b = s->score(1);
    CHECK(s->winner() == (a > b ? 0 : (b > a ? 1 : -1)));
  }
}

TEST_CASE("Lost Cities: max_rounds stops the game, scored as it stands", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Y3 Y6 Y8 B5");
  pos.hands[1] = cards("R9 R10 G2");
  pos.piles[W] = cards("W4");
  auto s = stateAt(pos, Json{{"max_rounds", 3}});
  play(*s, "play Y8, draw pile W");
  play(*s, "play R10, draw deck");
  deckGives(*s, "B2");
  REQUIRE_FALSE(s->isTerminal());
  play(*s, "discard B5, draw deck");
  deckGives(*s, "G5");
  CHECK(s->roundsCompleted() == 3);
  CHECK(s->isTerminal());
  CHECK(s->capped());
  CHECK(s->deckSize() > 0);
  // Y8: -12, R10: -10: player 1 leads and wins; the gain is 10 x score as at any game end.
  CHECK(s->winner() == 1);
  CHECK(s->gain(0) == -120.0);
  CHECK(s->gain(1) == -100.0);
  CHECK(legal(*s).empty());

  auto t = stateAt(pos, Json{{"max_rounds", 4}});
  play(*t, "play Y8, draw pile W");
  play(*t, "play R10, draw deck");
  deckGives(*t, "B2");
  play(*t, "discard B5, draw deck");
  deckGives(*t, "G5");
  CHECK(t->roundsCompleted() == 3);
  CHECK_FALSE(t->isTerminal());
  CHECK_FALSE(t->capped());

  // Equal scores at the cap: a draw.
  auto d = stateAt(pos, Json{{"max_rounds", 2}});
  play(*d, "discard Y3, draw deck");
  deckGives(*d, "B2");
  play(*d, "discard G2, draw deck");
  deckGives(*d, "B3");
  CHECK(d->capped());
  CHECK(d->winner() == -1);
}

TEST_CASE("Lost Cities: K, the cards seen taken from a pile", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Y3 B5 R5 W2");
  pos.hands[1] = cards("Gw G4 W7 Rw");
  pos.piles[G] = cards("Gw");
  pos.piles[B] = cards("B9");
  pos.piles[W] = cards("W6");
  auto s = stateAt(pos);
  CHECK(s->known(0).size() == 0);
  CHECK(s->known(1).size() == 0);

  play(*s, "discard Y3, draw pile B");
  CHECK(s->known(1) == cardSet("B9"));  // player 1 saw player 0 take B9
  CHECK(s->known(0).size() == 0);
  play(*s, "discard W7, draw pile G");
  CHECK(s->known(0) == cardSet("Gw"));
  CHECK(s->hand(1).count(parseCard("Gw")) == 2);
  // Player 0 plays B9: it is no longer in its hand, so no longer known; it takes W7.
  play(*s, "play B9, draw pile W");
  CHECK(s->known(1) == cardSet("W7"));
  // Player 1 plays a green wager: one of its two, but wagers are interchangeable: the known one
  // is gone, and the other wager is still in the hand, unknown.
  play(*s, "play Gw, draw deck");
  deckGives(*s, "R8");
  CHECK(s->known(0).size() == 0);
  CHECK(s->hand(1).count(parseCard("Gw")) == 1);
  // Taking a card that was discarded before makes it known again.
  play(*s, "discard W7, draw deck");
  deckGives(*s, "R7");
  CHECK(s->known(1).size() == 0);
  play(*s, "discard G4, draw pile W");
  CHECK(s->known(0) == cardSet("W7"));
}

TEST_CASE("Lost Cities: inference weights follow the opponent's public actions",
          "[lost-cities][inference]") {
  using lostcities::inferenceWeights;
  Position pos;
  pos.hands[0] = cards("Y2 Y3 Y4 Y5 Y6 Y7 B2 B4");
  pos.hands[1] = cards("G4 Rw R5 Y8 Y9 B3 W8 W9");
  pos.piles[B] = cards("B9");
  pos.piles[Y] = cards("Y10");
  auto s = stateAt(pos);
  auto weightOf = [&s](int player, const std::string& card, double discardFactor = 0.5) {
    return inferenceWeights(*s, player, discardFactor)[parseCard(card)];
  };
  for (double w : inferenceWeights(*s, 0, 0.5)) CHECK(w == 1.0);
  for (double w : inferenceWeights(*s, 1, 0.5)) CHECK(w == 1.0);

  // Player 0 opens yellow with Y2: player 1's weights of player 0's yellow cards move.
  play(*s, "play Y2, draw deck");
  deckGives(*s, "R9");
  CHECK(weightOf(1, "Y5") == Approx(3.0));
  CHECK(weightOf(1, "Yw") == Approx(0.1));
  CHECK(weightOf(0, "Y5") == 1.0);  // player 0's own actions say nothing about player 1

  // Player 1 opens green with G4: green numbers above x3, below x0.1, green wagers x0.1; it
  // takes B9 from the blue pile: all of blue x2.
  play(*s, "play G4, draw pile B");
  CHECK(weightOf(0, "G5") == Approx(3.0));
  CHECK(weightOf(0, "G10") == Approx(3.0));
  CHECK(weightOf(0, "G3") == Approx(0.1));
  CHECK(weightOf(0, "G2") == Approx(0.1));
  CHECK(weightOf(0, "Gw") == Approx(0.1));
  CHECK(weightOf(0, "B2") == Approx(2.0));
  CHECK(weightOf(0, "Bw") == Approx(2.0));
  CHECK(weightOf(0, "R7") == 1.0);
  CHECK(weightOf(0, "Y5") == 1.0);
  CHECK(weightOf(1, "G5") == 1.0);

  // Only the first card of an expedition opens it.
  play(*s, "play Y3, draw deck");
  deckGives(*s, "R10");
  CHECK(weightOf(1, "Y4") == Approx(3.0));
  CHECK(weightOf(1, "Yw") == Approx(0.1));

  // Player 1 opens red with a wager: red numbers x3, red wagers unchanged; it takes Y10.
  play(*s, "play Rw, draw pile Y");
  CHECK(weightOf(0, "R2") == Approx(3.0));
  CHECK(weightOf(0, "Rw") == Approx(1.0));
  CHECK(weightOf(0, "Y4") == Approx(2.0));

  // Player 1 discards white with no white expedition: white x discard_factor.
  play(*s, "play Y4, draw deck");
  deckGives(*s, "W2");
  play(*s, "discard W8, draw deck");
  deckGives(*s, "W3");
  CHECK(weightOf(0, "W10") == Approx(0.5));
  CHECK(weightOf(0, "Ww") == Approx(0.5));
  CHECK(weightOf(0, "W10", 1.0) == 1.0);  // factor 1 = the rule is off
  CHECK(weightOf(0, "W10", 0.0) == 0.0);

  // R5 after the red wager is no opening; taking W8 back doubles white.
  play(*s, "play Y5, draw deck");
  deckGives(*s, "W4");
  play(*s, "play R5, draw pile W");
  CHECK(weightOf(0, "R2") == Approx(3.0));
  CHECK(weightOf(0, "W10") == Approx(0.5 * 2));

  // Rules combine: opening blue with B3 after a blue pile take.
  play(*s, "play Y6, draw deck");
  deckGives(*s, "W5");
  play(*s, "play B3, draw deck");
  deckGives(*s, "W6");
  CHECK(weightOf(0, "B4") == Approx(2.0 * 3));
  CHECK(weightOf(0, "B2") == Approx(2.0 * 0.1));
  CHECK(weightOf(0, "Bw") == Approx(2.0 * 0.1));
  // A discard of an opened colour is no sign of a colour given up.
  play(*s, "play Y7, draw deck");
  deckGives(*s, "W7");
  play(*s, "discard B9, draw deck");
  deckGives(*s, "G9");
  CHECK(weightOf(0, "B4") == Approx(6.0));
  CHECK(s->history(1, B).blindDiscards == 0);
  CHECK(s->history(1, W).blindDiscards == 1);
  CHECK(s->history(1, G).openingRank == 3);

  CHECK_THROWS_AS(inferenceWeights(*s, 0, -1.0), std::invalid_argument);
}

TEST_CASE("Lost Cities: inference weights stay finite in endless games",
          "[lost-cities][inference]") {
  using lostcities::makeAction;
  using lostcities::pileSource;
  // Three cards circulate through the piles for 1200 cycles of 6 rounds: player 1 takes
  // yellow, green and white 1200 times each, 2^1200 overflows a double.
  Position pos;
  pos.hands[0] = cards("Y3 B2");
  pos.hands[1] = cards("W5 B3");
  pos.piles[G] = cards("G5");
  auto s = stateAt(pos, Json{{"max_rounds", 1000000}});
  const int y3 = parseCard("Y3"), w5 = parseCard("W5"), g5 = parseCard("G5");
  for (int cycle = 0; cycle < 1200; ++cycle) {
    s->apply(makeAction(y3, true, pileSource(G)));
    s->apply(makeAction(w5, true, pileSource(Y)));
    s->apply(makeAction(g5, true, pileSource(W)));
    s->apply(makeAction(y3, true, pileSource(G)));
    s->apply(makeAction(w5, true, pileSource(Y)));
    s->apply(makeAction(g5, true, pileSource(W)));
  }
  REQUIRE(s->history(1, Y).pileTakes == 1200);
  const auto w = lostcities::inferenceWeights(*s, 0, 1.0);
  for (double v : w) CHECK(std::isfinite(v));
  CHECK(w[parseCard("Y2")] == Approx(1.0));
  CHECK(w[parseCard("G2")] == Approx(1.0));
  CHECK(w[parseCard("B2")] < 1e-300);  // relative to yellow: 2^-1200
}

TEST_CASE("Lost Cities: determinization keeps what the player knows", "[lost-cities][is]") {
  std::vector<Action> actions;
  std::vector<Outcome> outcomes;
  int checked = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto s = newGame(Json(), seed);
    Rng rng(seed), detRng(seed + 100);
    while (!s->isTerminal()) {
      if (s->isEnvironmentNode()) {
        s->outcomes(outcomes);
        s->apply(sampleOutcome(outcomes, rng));
        continue;
      }
      if (s->roundsCompleted() % 3 == 0) {
        for (int viewer : {0, 1}) {
          const int opponent = 1 - viewer;
          const std::string before = s->toString();
          auto d = asLostCities(s->determinize(viewer, detRng, {}));
          ++checked;
          CHECK(s->toString() == before);
          CHECK(d->hasDeckOrder());
          CHECK(d->hand(viewer) == s->hand(viewer));
          CHECK(d->hand(opponent).size() == s->hand(opponent).size());
          for (int p : {0, 1}) {
            CHECK(d->expeditions(p) == s->expeditions(p));
            CHECK(d->known(p) == s->known(p));
          }
          for (int c = 0; c < lostcities::kColours; ++c) CHECK(pileOf(*d, c) == pileOf(*s, c));
          CHECK(d->deckSize() == s->deckSize());
          CHECK(d->actor() == s->actor());
          CHECK(d->roundsCompleted() == s->roundsCompleted());
          if (viewer == s->actor()) CHECK(legal(*d) == legal(*s));
          requireAllCards(*d);
          // The opponent holds K, and the rest of its hand comes from the unseen cards.
          for (int kind = 0; kind < lostcities::kKinds; ++kind) {
            const int k = s->known(viewer).count(kind);
            CHECK(d->hand(opponent).count(kind) >= k);
            CHECK(d->hand(opponent).count(kind) - k <=
                  s->hand(opponent).count(kind) - k + s->deckCards().count(kind));
          }
          // The value of a determinized state uses its own hand and deck: the same as a real
          // state with these cards where they are.
          Position same;
          for (int p : {0, 1}) {
            for (int kind = 0; kind < lostcities::kKinds; ++kind) {
              for (int i = 0; i < d->hand(p).count(kind); ++i) same.hands[p].push_back(kind);
              for (int i = 0; i < d->expeditions(p).count(kind); ++i)
                same.expeditions[p].push_back(kind);
            }
          }
          for (int c = 0; c < lostcities::kColours; ++c) same.piles[c] = pileOf(*d, c);
          same.toMove = s->actor();
          auto real = stateAt(same);
          REQUIRE(real->deckCards() == d->deckCards());
          CHECK(real->gain(0) == d->gain(0));
          CHECK(real->gain(1) == d->gain(1));
        }
      }
      s->legalActions(actions);
      s->apply(actions[rng.below(static_cast<uint32_t>(actions.size()))]);
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("Lost Cities: a determinized deck is drawn in order, without environment events",
          "[lost-cities][is]") {
  auto s = newGame(Json(), 3);
  Rng rng(5);
  auto d = asLostCities(s->determinize(0, rng, {}));
  // Draw from the deck until the game ends: every draw ends the round at once.
  int rounds = 0;
  while (!d->isTerminal()) {
    REQUIRE(d->actor() >= 0);
    const int mover = d->actor(), deck = d->deckSize();
    const CardSet handBefore = d->hand(mover);
    const CardSet deckBefore = d->deckCards();
    const auto ids = legal(*d);
    const Action discardFirst = *std::find_if(ids.begin(), ids.end(), [](Action a) {
      return lostcities::decodeAction(a).discard &&
             lostcities::decodeAction(a).source == lostcities::kDeckSource;
    });
    d->apply(discardFirst);
    ++rounds;
    CHECK(d->actor() != kEnvironment);
    CHECK(d->roundsCompleted() == rounds);
    CHECK(d->deckSize() == deck - 1);
    CHECK(d->hand(mover).size() == 8);
    requireAllCards(*d);
    // The received card came out of the deck.
    int received = -1;
    for (int kind = 0; kind < lostcities::kKinds; ++kind)
      if (d->deckCards().count(kind) == deckBefore.count(kind) - 1) received = kind;
    REQUIRE(received >= 0);
    CHECK(d->hand(mover).count(received) >= handBefore.count(received));
  }
  CHECK(rounds == 44);
  CHECK(d->deckSize() == 0);

  // The same determinization twice draws the same cards (a fixed order, not chance).
  Rng a(9), b(9);
  auto d1 = s->determinize(0, a, {});
  auto d2 = s->determinize(0, b, {});
  CHECK(d1->toString() == d2->toString());
  for (int i = 0; i < 10; ++i) {
    const Action first = legal(*d1).front();
    d1->apply(first);
    d2->apply(first);
    CHECK(d1->toString() == d2->toString());
  }

  // Determinized at an environment node: the environment still acts, with one outcome.
  s->apply(legal(*s).front());
  REQUIRE(s->actor() == kEnvironment);
  auto e = asLostCities(s->determinize(1, rng, {}));
  CHECK(e->actor() == kEnvironment);
  std::vector<Outcome> outcomes;
  e->outcomes(outcomes);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].probability == 1.0);
  CHECK(e->deckCards().count(outcomes[0].action) > 0);
  e->apply(outcomes[0].action);
  CHECK(e->roundsCompleted() == 1);
  CHECK(e->actor() == 1);
  CHECK(e->deckSize() == 43);
}

// Each seat's value after an action without a copy (what the greedy replies of every search and
// Minimax IS's evaluations ask for), one action or all the mover's actions at once, is
// exactly a copy's value after it: in dealt games (a deck draw leaves the card to the environment)
// and determinized ones (the deck's next card, the game's end at the last one), with both
// heuristics, up to the round cap.
TEST_CASE("Lost Cities: valueAfter is a copy's value after the action", "[lost-cities][is]") {
  int checked = 0, ended = 0;
  for (const Json& params : {Json(), Json{{"heuristic", "thesis"}, {"max_rounds", 30}}})
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      auto s = newGame(params, seed);
      Rng rng(seed);
      for (int step = 0; !s->isTerminal(); ++step) {
        auto d = asLostCities(s->determinize(s->actor() >= 0 ? s->actor() : 0, rng, {}));
        for (const LostCitiesState* at : {s.get(), d.get()}) {
          if (at->actor() < 0) continue;
          const auto actions = legal(*at);
          // Each seat's values after all the mover's actions at once (the greedy replies' and
          // Minimax IS's way).
          std::array<std::vector<double>, 2> each;
          for (int seat = 0; seat < 2; ++seat) {
            each[seat].resize(actions.size());
            REQUIRE(at->valueAfterEach(actions, seat, each[seat]));
          }
          for (size_t i = 0; i < actions.size(); ++i) {
            const Action a = actions[i];
            auto after = asLostCities(at->clone());
            after->apply(a);
            for (int seat = 0; seat < 2; ++seat) {
              REQUIRE(at->valueAfter(a, seat) == after->value(seat));
              REQUIRE(at->valuesAfter(a)[static_cast<size_t>(seat)] == after->value(seat));
              REQUIRE(each[seat][i] == after->value(seat));
            }
            ended += after->isTerminal();
            ++checked;
          }
        }
        playRandomStep(*s, rng);
      }
    }
  CHECK(checked > 20000);
  CHECK(ended > 100);
}

TEST_CASE("Lost Cities: uniform and weighted determinization", "[lost-cities][is]") {
  // Player 1 took B9 from a pile: K of player 0 = {B9}; 7 more cards come from the unseen.
  Position pos;
  pos.hands[0] = cards("Y2 Y3 B2 B3 G2 G3 R2 R3");
  pos.hands[1] = cards("W2 W3 W4 W5 W6 W7 W8 Y10");
  pos.piles[B] = cards("B9");
  pos.toMove = 1;
  auto s = stateAt(pos);
  play(*s, "discard W8, draw pile B");
  REQUIRE(s->known(0) == cardSet("B9"));
  REQUIRE(s->hand(1).size() == 7 + 1);
  // Unseen by player 0: 60 - 8 (hand) - 1 (W8 on the pile) - 1 (K) = 50 cards.
  Rng rng(11);
  std::map<int, int> held;
  const int samples = 4000;
  for (int i = 0; i < samples; ++i) {
    auto d = asLostCities(s->determinize(0, rng, {}));
    REQUIRE(d->hand(1).count(parseCard("B9")) == 1);
    REQUIRE(d->hand(1).count(parseCard("W8")) == 0);
    for (int kind = 0; kind < lostcities::kKinds; ++kind) held[kind] += d->hand(1).count(kind);
  }
  // Uniform: each unseen card is in the hand with probability 7/50 (a wager kind: 3 copies).
  CHECK(held[parseCard("W10")] / double(samples) == Approx(7.0 / 50).margin(0.02));
  CHECK(held[parseCard("Y10")] / double(samples) == Approx(7.0 / 50).margin(0.02));
  CHECK(held[parseCard("Rw")] / double(samples) == Approx(3 * 7.0 / 50).margin(0.04));
  CHECK(held[parseCard("Y2")] == 0);  // player 0's own card

  // Weighted: only white weighs. Player 0 does not see W2..W7 in player 1's hand: 11 white
  // cards are unseen (Ww x3, W2..W7, W9, W10), and the 7 drawn cards are all white.
  std::array<double, lostcities::kKinds> weights{};
  for (int rank = 0; rank < lostcities::kRanks; ++rank) weights[lostcities::kindOf(W, rank)] = 1;
  for (int i = 0; i < 20; ++i) {
    auto d = asLostCities(s->determinize(0, rng, weights));
    CHECK(d->hand(1).wagers[W] + std::popcount(d->hand(1).numbers[W]) == 7);
    CHECK(d->hand(1).count(parseCard("W8")) == 0);  // on the pile
    CHECK(d->hand(1).size() == 8);
    requireAllCards(*d);
  }
  // Fewer weighted cards than needed: W9 and W10, then the rest uniformly among weight 0.
  weights.fill(0.0);
  weights[parseCard("W9")] = weights[parseCard("W10")] = 1;
  auto few = asLostCities(s->determinize(0, rng, weights));
  CHECK(few->hand(1).count(parseCard("W9")) == 1);
  CHECK(few->hand(1).count(parseCard("W10")) == 1);
  CHECK(few->hand(1).size() == 8);
  // Weights that favour yellow 100:1 fill the 7 cards with yellow far more often than uniform.
  for (auto& w : weights) w = 1;
  for (int rank = 0; rank < lostcities::kRanks; ++rank) weights[lostcities::kindOf(Y, rank)] = 100;
  int yellow = 0;
  for (int i = 0; i < 200; ++i) {
    auto e = asLostCities(s->determinize(0, rng, weights));
    for (int rank = 0; rank < lostcities::kRanks; ++rank)
      yellow += e->hand(1).count(lostcities::kindOf(Y, rank));
  }
  // 10 unseen yellow cards (Yw x3, Y4..Y10): nearly always all 7 drawn cards are yellow.
  CHECK(yellow > 200 * 6);
  // The inference weights have the right shape.
  CHECK_NOTHROW(s->determinize(0, rng, lostcities::inferenceWeights(*s, 0, 1.0)));
  std::vector<double> wrongSize(10, 1.0);
  CHECK_THROWS_AS(s->determinize(0, rng, wrongSize), std::invalid_argument);
  weights[3] = -1;
  CHECK_THROWS_AS(s->determinize(0, rng, weights), std::invalid_argument);
  // All weights 0: uniform.
  weights.fill(0.0);
  CHECK(asLostCities(s->determinize(0, rng, weights))->hand(1).size() == 8);
}

// The believability kept from running sums (the searches ask for it at every line's end; each
// player's part kept until it receives a card) is belPC of the category and colour counts, and both
// seats' gains at once (the metrics ask every round) are each seat's gain, at every step of random
// games, dealt and determinized, to the end.
TEST_CASE("Lost Cities: believability from running sums equals belPC of the counts",
          "[lost-cities][believability]") {
  int checked = 0;
  for (const Json& params : {Json(), Json{{"believability_threshold_category", 0.0},
                                          {"believability_threshold_colour", 0.5}}})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      auto s = newGame(params, seed);
      const double category = params.is_null() ? 1.0 : 0.0;  // the defaults, then those given
      const double colour = params.is_null() ? 1.0 : 0.5;
      Rng rng(seed);
      while (!s->isTerminal()) {
        auto d = asLostCities(s->determinize(s->actor() >= 0 ? s->actor() : 0, rng, {}));
        for (const LostCitiesState* at : {s.get(), d.get()}) {
          double expected = 0;
          for (int p = 0; p < 2; ++p)
            expected +=
                belPC(at->categoryCounts(p), category) + 0.5 * belPC(at->colourCounts(p), colour);
          REQUIRE(at->believability() == expected);
          std::array<double, 2> gains{};
          at->gains(gains);
          REQUIRE(gains == std::array<double, 2>{at->gain(0), at->gain(1)});
          ++checked;
        }
        playRandomStep(*s, rng);
      }
      std::array<double, 2> gains{};  // over: 10 x score
      s->gains(gains);
      CHECK(gains == std::array<double, 2>{10.0 * s->score(0), 10.0 * s->score(1)});
    }
  CHECK(checked > 1000);
}

namespace {

// The kinds of a card set, each as often as the set holds it.
std::vector<int> kindsOf(const CardSet& set) {
  std::vector<int> kinds;
  for (int kind = 0; kind < lostcities::kKinds; ++kind)
    for (int n = 0; n < set.count(kind); ++n) kinds.push_back(kind);
  return kinds;
}

// A new state holding `s`'s cards where `s` holds them (the deck: every other card, which is
// what a dealt or determinized deck holds): its heuristic is worked out afresh.
std::unique_ptr<LostCitiesState> laidOutAfresh(const LostCitiesState& s, const Game& game) {
  Position position;
  for (int p = 0; p < 2; ++p) {
    position.hands[p] = kindsOf(s.hand(p));
    position.expeditions[p] = kindsOf(s.expeditions(p));
  }
  for (int c = 0; c < lostcities::kColours; ++c)
    for (int i = 0; i < s.pileSize(c); ++i) position.piles[c].push_back(s.pileCard(c, i));
  auto fresh = asLostCities(game.newGame(99));
  fresh->setPosition(position);
  REQUIRE(fresh->deckCards() == s.deckCards());
  return fresh;
}

}  // namespace

// The state keeps each seat's part of the heuristic per colour between turns (the gains of every
// round and the greedy replies' values read it): every gain, and every value after each action,
// equals that of the same cards laid out afresh, at every step of random games, dealt and
// determinized, with both heuristics (a card move that left its colour's parts as they were
// would fail it).
TEST_CASE("Lost Cities: the kept parts of the heuristic are those worked out afresh",
          "[lost-cities]") {
  int checked = 0;
  for (const Json& params : {Json(), Json{{"heuristic", "thesis"}}})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      const auto game = makeGame(params);
      auto s = asLostCities(game->newGame(seed));
      Rng rng(seed);
      while (!s->isTerminal()) {
        auto d = asLostCities(s->determinize(s->actor() >= 0 ? s->actor() : 0, rng, {}));
        for (const LostCitiesState* at : {s.get(), d.get()}) {
          const auto fresh = laidOutAfresh(*at, *game);
          std::array<double, 2> gains{};
          at->gains(gains);
          for (int p = 0; p < 2; ++p) REQUIRE(gains[p] == fresh->gain(p));
          if (at->actor() < 0) continue;
          const auto actions = legal(*at);
          for (int seat = 0; seat < 2; ++seat) {
            std::vector<double> each(actions.size());
            REQUIRE(at->valueAfterEach(actions, seat, each));
            for (size_t i = 0; i < actions.size(); ++i) {
              auto after = asLostCities(at->clone());
              after->apply(actions[i]);
              if (after->isTerminal()) continue;  // valued by the score, no parts
              REQUIRE(each[i] == laidOutAfresh(*after, *game)->value(seat));
              ++checked;
            }
          }
        }
        playRandomStep(*s, rng);
      }
    }
  CHECK(checked > 10000);
}

TEST_CASE("Lost Cities: believability of the cards received from the deck",
          "[lost-cities][believability]") {
  Position pos;
  pos.hands[0] = cards("R2 R3 R4 R5");
  pos.hands[1] = cards("B4 B5 B6 B7");
  auto run = [&pos](const Json& params) {
    auto s = stateAt(pos, params);
    CHECK(s->believability() == 0.0);
    const std::vector<std::string> toPlayer0 = {"Y2", "Y3", "Y4", "B2"};
    const std::vector<std::string> toPlayer1 = {"Rw", "R10", "G9", "W5"};
    for (int i = 0; i < 4; ++i) {
      play(*s, "discard " + lostcities::cardName(pos.hands[0][i]) + ", draw deck");
      deckGives(*s, toPlayer0[i]);
      play(*s, "discard " + lostcities::cardName(pos.hands[1][i]) + ", draw deck");
      deckGives(*s, toPlayer1[i]);
    }
    return s;
  };
  auto s = run(Json{{"count_deal", false}});
  CHECK(s->categoryCounts(0) == std::array<int, 4>{0, 4, 0, 0});
  CHECK(s->colourCounts(0) == std::array<int, 5>{3, 1, 0, 0, 0});
  CHECK(s->categoryCounts(1) == std::array<int, 4>{1, 0, 1, 2});
  CHECK(s->colourCounts(1) == std::array<int, 5>{0, 0, 1, 1, 2});
  // Player 0: categories (0,4,0,0): var 3, most even 0 -> 3 - T 1 = 2; colours (3,1,0,0,0):
  // sum of squares 10 vs 4 for (1,1,1,1,0) -> 6/5 - 1 = 0.2, halved 0.1.
  // Player 1: categories (1,0,1,2): 6 vs 4 -> 2/4 - 1 < 0 -> 0; colours (0,0,1,1,2): 2/5 -> 0.
  CHECK(s->believability() == Approx(2.1));
  auto t = run(Json{{"count_deal", false},
                    {"believability_threshold_category", 0.0},
                    {"believability_threshold_colour", 0.0}});
  CHECK(t->believability() == Approx(3 + 0.5 * 1.2 + 0.5 + 0.5 * 0.4));

  // count_deal: the initial hands are counted as received.
  auto dealt = newGame();
  auto noDeal = newGame(Json{{"count_deal", false}});
  int total = 0;
  for (int p : {0, 1}) {
    for (int n : dealt->categoryCounts(p)) total += n;
    for (int n : noDeal->categoryCounts(p)) CHECK(n == 0);
    int wagers = 0;
    for (int c = 0; c < lostcities::kColours; ++c) wagers += dealt->hand(p).wagers[c];
    CHECK(dealt->categoryCounts(p)[0] == wagers);
  }
  CHECK(total == 16);
  CHECK(noDeal->believability() == 0.0);
}

TEST_CASE("Lost Cities: toString shows hands, tableaux, piles and the deck", "[lost-cities]") {
  Position pos;
  pos.hands[0] = cards("Yw Y3");
  pos.hands[1] = cards("R9");
  pos.expeditions[0] = cards("Bw B4");
  pos.piles[G] = cards("G2 G7");
  auto s = stateAt(pos);
  const std::string text = s->toString();
  CHECK_THAT(text, Catch::Contains("hand Yw Y3"));
  CHECK_THAT(text, Catch::Contains("hand R9"));
  CHECK_THAT(text, Catch::Contains("B[Bw B4]"));
  CHECK_THAT(text, Catch::Contains("G[G2 G7]"));
  CHECK_THAT(text, Catch::Contains("deck 53"));
  CHECK_THAT(text, Catch::Contains("score -32"));
}

TEST_CASE("Lost Cities: parameters and their validation", "[lost-cities][params]") {
  const GameInfo info = lostcities::gameInfo();
  CHECK(info.id == "lost-cities");
  const Json defaults = validateParams(info.params, Json(), "params");
  CHECK(defaults.at("hand_size") == 8);
  CHECK(defaults.at("heuristic") == "wager-aware");
  CHECK(defaults.at("max_rounds") == 500);
  CHECK(defaults.at("count_deal") == true);
  CHECK(defaults.at("believability_threshold_category") == 1.0);
  CHECK(defaults.at("believability_threshold_colour") == 1.0);

  try {
    validateParams(info.params, Json{{"hand_size", 6}}, "params");
    FAIL("hand_size 6 accepted");
  } catch (const InputError& e) {
    CHECK(e.path() == "params.hand_size");
    CHECK_THAT(e.what(), Catch::Contains("5") && Catch::Contains("8"));
  }
  CHECK_THROWS_WITH(validateParams(info.params, Json{{"heuristic", "greedy"}}, "params"),
                    Catch::Contains("params.heuristic") && Catch::Contains("wager-aware") &&
                        Catch::Contains("thesis"));
  CHECK_THROWS_WITH(validateParams(info.params, Json{{"heuristic", 1}}, "params"),
                    Catch::Contains("string"));
  CHECK_THROWS_AS(validateParams(info.params, Json{{"max_rounds", 0}}, "params"), InputError);
  CHECK_THROWS_AS(validateParams(info.params, Json{{"believability_threshold_colour", -1}}, "p"),
                  InputError);
  CHECK_THROWS_WITH(validateParams(info.params, Json{{"count_deal", 1}}, "params"),
                    Catch::Contains("boolean"));
  try {
    validateParams(info.params, Json{{"handsize", 5}}, "params");
    FAIL("unknown parameter accepted");
  } catch (const InputError& e) {
    for (const auto& spec : info.params) CHECK_THAT(e.what(), Catch::Contains(spec.name));
  }
  // The heuristic parameter reaches the state.
  Position pos;
  pos.expeditions[0] = cards("Yw Y4");
  pos.hands[0] = cards("Y6");
  CHECK(stateAt(pos)->gain(0) != stateAt(pos, Json{{"heuristic", "thesis"}})->gain(0));
}

namespace {

// Whether two of the cards the deck may deal at `s` leave different gains: then the gains tell
// the other seat something about the hidden draw.
bool drawChangesGains(const State& s, const std::vector<Outcome>& outcomes) {
  std::set<std::pair<double, double>> gains;
  for (const Outcome& o : outcomes) {
    const auto next = s.clone();
    next->apply(o.action);
    gains.insert({next->gain(0), next->gain(1)});
  }
  return gains.size() > 1;
}

}  // namespace

TEST_CASE("a seat's observation hides the other hand, the deck and draws into the other hand",
          "[lost-cities]") {
  bool gainsTellTheDraw = false;
  const auto game =
      lostcities::gameInfo().make(validateParams(lostcities::gameInfo().params, nullptr, "params"));
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto state = game->newGame(seed);
    Rng rng(seed);
    std::vector<Action> legal;
    std::vector<Outcome> outcomes;
    for (int step = 0; step < 400 && !state->isTerminal(); ++step) {
      const auto& s = dynamic_cast<const LostCitiesState&>(*state);
      for (int p = 0; p < 2; ++p) {
        // The card names the seat sees (letters and digits between other characters).
        const std::string seen = s.observationString(p);
        std::set<std::string> named;
        std::string token;
        for (const char c : seen + " ") {
          if (std::isalnum(static_cast<unsigned char>(c))) {
            token.push_back(c);
          } else if (!token.empty()) {
            named.insert(token);
            token.clear();
          }
        }
        // A number card (each exists once) of the other hand that this seat did not see taken
        // from a pile, or one still in the deck, is named nowhere in what the seat sees.
        for (int kind = 0; kind < lostcities::kKinds; ++kind) {
          if (lostcities::rankOf(kind) == 0) continue;
          const bool secret =
              (s.hand(1 - p).count(kind) && !s.known(p).count(kind)) || s.deckCards().count(kind);
          INFO("seed " << seed << ", seat " << p << ", card " << lostcities::cardName(kind) << "\n"
                       << seen);
          if (secret) CHECK_FALSE(named.count(lostcities::cardName(kind)));
        }
      }
      CHECK(s.gainsPublic() == s.isTerminal());  // the heuristic weighs the hands and the deck
      if (s.isEnvironmentNode()) {
        const int drawer = s.chanceRecipient();
        CHECK(s.outcomeVisibleTo(drawer));
        CHECK_FALSE(s.outcomeVisibleTo(1 - drawer));
        CHECK_FALSE(s.outcomesPublic());  // the outcomes are the deck's cards
        CHECK(s.hiddenOutcomeString().find("draws a card") != std::string::npos);
        state->outcomes(outcomes);
        gainsTellTheDraw = gainsTellTheDraw || drawChangesGains(s, outcomes);
        // Two draws into the drawer's hand: the other seat's view is the same (no gain in it).
        const auto first = state->clone(), last = state->clone();
        first->apply(outcomes.front().action);
        last->apply(outcomes.back().action);
        CHECK(first->observationString(1 - drawer) == last->observationString(1 - drawer));
        state->apply(outcomes[rng.below(static_cast<uint32_t>(outcomes.size()))].action);
      } else {
        state->legalActions(legal);
        state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
    }
    CHECK(state->gainsPublic() == state->isTerminal());
  }
  CHECK(gainsTellTheDraw);  // why the gains are not public while the game runs
}
