// Ludo rules (spec games/ludo.md) on constructed positions.
// Squares: seat s starts on absolute ring square 10*s; relative square r of seat s is absolute
// (10*s + r) % 40. Safe squares by default: absolute 0, 5, 10, ..., 35.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/believability.h"
#include "core/params.h"
#include "games/ludo/ludo.h"

using namespace ddalab;
using ludo::kEnter;
using ludo::kInHouse;
using ludo::kPass;
using ludo::LudoState;

namespace {

constexpr int H = kInHouse;

std::shared_ptr<const Game> makeLudo(const Json& given = Json()) {
  const GameInfo info = ludo::gameInfo();
  return info.make(validateParams(info.params, given, "params"));
}

std::unique_ptr<LudoState> asLudo(std::unique_ptr<State> s) {
  auto* l = dynamic_cast<LudoState*>(s.get());
  REQUIRE(l != nullptr);
  s.release();
  return std::unique_ptr<LudoState>(l);
}

// A new game (Ludo states keep a copy of the configuration, so the Game may go away).
std::unique_ptr<LudoState> newLudo(const Json& given = Json()) {
  return asLudo(makeLudo(given)->newGame(7));
}

std::unique_ptr<LudoState> cloneOf(const LudoState& s) {
  return asLudo(s.clone());
}

// Every piece of every seat in the house.
void clearBoard(LudoState& s) {
  for (int seat = 0; seat < ludo::kSeats; ++seat) s.setPieces(seat, {H, H, H, H});
}

std::vector<Action> legal(const State& s) {
  std::vector<Action> out;
  s.legalActions(out);
  return out;
}

void roll(State& s, int face) {
  REQUIRE(s.actor() == kEnvironment);
  s.apply(face);
}

// The legal actions after rolling `face` on a copy of `s`.
std::vector<Action> legalAfterRoll(const LudoState& s, int face) {
  auto c = cloneOf(s);
  roll(*c, face);
  REQUIRE(c->actor() >= 0);
  return legal(*c);
}

std::vector<int> piecesOf(const LudoState& s, int seat) {
  std::vector<int> v;
  for (int i = 0; i < ludo::kPieces; ++i) v.push_back(s.piece(seat, i));
  std::sort(v.begin(), v.end());
  return v;
}

using Actions = std::vector<Action>;
using Squares = std::vector<int>;

}  // namespace

TEST_CASE("Ludo: start position, die outcomes, action ids", "[ludo]") {
  auto s = newLudo();
  CHECK(s->numPlayers() == 4);
  CHECK(s->actor() == kEnvironment);
  CHECK(legal(*s).empty());
  std::vector<Outcome> outcomes;
  s->outcomes(outcomes);
  REQUIRE(outcomes.size() == 6);
  for (int face = 1; face <= 6; ++face) {
    CHECK(outcomes[face - 1].action == face);
    CHECK(outcomes[face - 1].probability == Approx(1.0 / 6));
  }
  // Pieces of every seat on relative 0..3; units 6*(40+39+38+37) = 924 (nothing threatened:
  // the nearest opponent piece behind relative 3 of seat s is on 10s-7).
  for (int seat = 0; seat < 4; ++seat) {
    CHECK(piecesOf(*s, seat) == Squares{0, 1, 2, 3});
    CHECK(s->turnsNeededUnits(seat) == 924);
    CHECK(s->gain(seat) == Approx(-924.0 / 21));
  }
  roll(*s, 4);
  CHECK(s->actor() == 0);
  CHECK(s->currentRoll() == 4);
  s->outcomes(outcomes);
  CHECK(outcomes.empty());
  // 0 -> 4, 1 -> 5 (safe, empty), 2 -> 6, 3 -> 7: all legal, in ascending order.
  CHECK(legal(*s) == Actions{0, 1, 2, 3});
  CHECK(s->actionToString(3) == "move 3->7");
  CHECK(s->actionToString(kPass) == "pass");

  auto houses = newLudo(Json{{"start_on_board", false}});
  for (int seat = 0; seat < 4; ++seat) {
    CHECK(piecesOf(*houses, seat) == Squares{H, H, H, H});
    CHECK(houses->turnsNeededUnits(seat) == 4 * 268);
  }
}

TEST_CASE("Ludo: a piece enters only on a 6, one action for the whole house", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {H, H, 7, 20});
  // Roll 5: the house cannot enter; 7 -> 12 and 20 -> 25 can move.
  CHECK(legalAfterRoll(*s, 5) == Actions{7, 20});
  for (int face = 1; face <= 5; ++face) {
    const Actions a = legalAfterRoll(*s, face);
    CHECK(std::find(a.begin(), a.end(), kEnter) == a.end());
  }
  // Roll 6: enter (once, though two pieces wait), 7 -> 13, 20 -> 26.
  roll(*s, 6);
  CHECK(legal(*s) == Actions{kEnter, 7, 20});
  CHECK(s->actionToString(kEnter) == "enter");
  s->apply(kEnter);
  CHECK(piecesOf(*s, 0) == Squares{H, 0, 7, 20});
}

TEST_CASE("Ludo: entering is blocked by an own piece or an opponent on the start square",
          "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  // Own piece on the start square (relative 0): roll 6 moves it (0 -> 6), no entering.
  s->setPieces(0, {H, H, H, 0});
  CHECK(legalAfterRoll(*s, 6) == Actions{0});
  // An opponent on seat 0's start square (absolute 0 = relative 10 of seat 3), which is safe.
  s->setPieces(0, {H, H, H, 12});
  s->setPieces(3, {10, H, H, H});
  CHECK(legalAfterRoll(*s, 6) == Actions{12});

  // Without safe squares the start square is not protected: entering captures.
  auto u = newLudo(Json{{"safe_squares", Json::array()}});
  clearBoard(*u);
  u->setPieces(0, {H, H, H, 12});
  u->setPieces(3, {10, H, H, H});
  roll(*u, 6);
  CHECK(legal(*u) == Actions{kEnter, 12});
  u->apply(kEnter);
  CHECK(piecesOf(*u, 0) == Squares{H, H, 0, 12});
  CHECK(piecesOf(*u, 3) == Squares{H, H, H, H});
}

TEST_CASE("Ludo: no bonus roll after a 6", "[ludo]") {
  auto s = newLudo();
  roll(*s, 6);
  CHECK(legal(*s) == Actions{0, 1, 2, 3});
  s->apply(3);  // 3 -> 9
  CHECK(piecesOf(*s, 0) == Squares{0, 1, 2, 9});
  // The round is over: the next actor is the environment rolling for player 1.
  CHECK(s->roundsCompleted() == 1);
  CHECK(s->actor() == kEnvironment);
  roll(*s, 2);
  CHECK(s->actor() == 1);
  CHECK(s->faceCounts(0)[5] == 1);
  CHECK(s->faceCounts(1)[1] == 1);
  CHECK(s->faceCounts(0)[1] == 0);

  // Also not after entering with a 6.
  auto e = newLudo();
  clearBoard(*e);
  e->setPieces(0, {H, H, H, 7});
  e->setPieces(1, {5, H, H, H});
  roll(*e, 6);
  e->apply(kEnter);
  CHECK(e->roundsCompleted() == 1);
  CHECK(e->actor() == kEnvironment);
  roll(*e, 6);
  CHECK(e->actor() == 1);
}

TEST_CASE("Ludo: capture sends the victim to its house", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {7, H, H, H});
  s->setPieces(1, {39, H, H, H});  // absolute (10 + 39) % 40 = 9, not safe
  s->setPieces(2, {32, H, H, H});  // absolute (20 + 32) % 40 = 12, not safe
  // Seat 1's piece: 40 - 39 = 1 to go -> 6 + 84, threatened by seat 0's piece 2 behind -> +39;
  // plus three house pieces 3 * 268: 129 + 804 = 933.
  CHECK(s->turnsNeededUnits(1) == 933);
  const auto start = cloneOf(*s);

  roll(*s, 2);
  CHECK(legal(*s) == Actions{7});
  s->apply(7);  // 7 -> 9 captures seat 1
  CHECK(piecesOf(*s, 0) == Squares{H, H, H, 9});
  CHECK(piecesOf(*s, 1) == Squares{H, H, H, H});
  CHECK(piecesOf(*s, 2) == Squares{H, H, H, 32});
  CHECK(s->turnsNeededUnits(1) == 4 * 268);

  auto t = cloneOf(*start);
  roll(*t, 5);
  t->apply(7);  // 7 -> 12 captures seat 2
  CHECK(piecesOf(*t, 0) == Squares{H, H, H, 12});
  CHECK(piecesOf(*t, 1) == Squares{H, H, H, 39});
  CHECK(piecesOf(*t, 2) == Squares{H, H, H, H});
}

TEST_CASE("Ludo: an opponent on a safe square blocks, an own piece blocks", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {3, 12, H, H});
  s->setPieces(1, {35, H, H, H});  // absolute 5: safe
  // Roll 2: 3 -> 5 is illegal (opponent on a safe square), 12 -> 14 is legal.
  CHECK(legalAfterRoll(*s, 2) == Actions{12});
  CHECK(legalAfterRoll(*s, 1) == Actions{3, 12});

  // Own piece on the target square.
  s->setPieces(1, {H, H, H, H});
  s->setPieces(0, {3, 5, H, H});
  CHECK(legalAfterRoll(*s, 2) == Actions{5});  // 3 -> 5 own; 5 -> 7
  CHECK(legalAfterRoll(*s, 4) == Actions{3, 5});

  // With no safe squares, the opponent on 5 can be captured.
  auto u = newLudo(Json{{"safe_squares", Json::array({0, 10, 20, 30})}});
  clearBoard(*u);
  u->setPieces(0, {3, 12, H, H});
  u->setPieces(1, {35, H, H, H});
  roll(*u, 2);
  CHECK(legal(*u) == Actions{3, 12});
  u->apply(3);
  CHECK(piecesOf(*u, 1) == Squares{H, H, H, H});
}

TEST_CASE("Ludo: pass when nothing can move", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {3, H, H, H});
  s->setPieces(1, {35, H, H, H});  // absolute 5, safe
  roll(*s, 2);                     // 3 -> 5 blocked, the house needs a 6
  CHECK(legal(*s) == Actions{kPass});
  CHECK(s->isPass(kPass));
  CHECK_FALSE(s->isPass(3));
  s->apply(kPass);
  CHECK(piecesOf(*s, 0) == Squares{H, H, H, 3});
  CHECK(piecesOf(*s, 1) == Squares{H, H, H, 35});
  CHECK(s->roundsCompleted() == 1);
  CHECK(s->actor() == kEnvironment);
}

TEST_CASE("Ludo: exact home entry", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {38, 40, 42, H});
  // Roll 2: 38 -> 40 and 40 -> 42 are taken by own pieces, 42 -> 44 overshoots: pass.
  CHECK(legalAfterRoll(*s, 2) == Actions{kPass});
  // Roll 3: 38 -> 41, 40 -> 43; 42 -> 45 overshoots.
  CHECK(legalAfterRoll(*s, 3) == Actions{38, 40});
  // Roll 5: only 38 -> 43 (r <= 43).
  CHECK(legalAfterRoll(*s, 5) == Actions{38});
  // Roll 6: 38 -> 44 overshoots; only entering.
  CHECK(legalAfterRoll(*s, 6) == Actions{kEnter});
  // Home squares are private: seat 1's piece on its own relative 41 does not block.
  s->setPieces(1, {41, H, H, H});
  CHECK(legalAfterRoll(*s, 3) == Actions{38, 40});

  roll(*s, 5);
  CHECK(s->actionToString(38) == "move 38->home4");
  s->apply(38);
  CHECK(piecesOf(*s, 0) == Squares{H, 40, 42, 43});
  // Home pieces count 0: only the house piece remains.
  CHECK(s->turnsNeededUnits(0) == 268);
}

TEST_CASE("Ludo: up to three rolls with no piece on the ring", "[ludo]") {
  auto s = newLudo();
  clearBoard(*s);
  s->setPieces(0, {H, H, H, 40});
  s->setPieces(1, {5, H, H, H});
  const auto start = cloneOf(*s);

  // 3, 3, 3: the environment acts three times in the same round, then player 0 decides on the
  // last roll (40 -> 43 is possible but only after the tries are used up).
  roll(*s, 3);
  CHECK(s->actor() == kEnvironment);
  CHECK(s->roundsCompleted() == 0);
  roll(*s, 3);
  CHECK(s->actor() == kEnvironment);
  CHECK(s->roundsCompleted() == 0);
  roll(*s, 3);
  REQUIRE(s->actor() == 0);
  CHECK(s->currentRoll() == 3);
  CHECK(s->roundsCompleted() == 0);
  CHECK(legal(*s) == Actions{40});
  CHECK(s->faceCounts(0)[2] == 3);
  // Believability: belPC(0,0,3,0,0,0; T = 1): var1 - varMin = (9/6 - 1/4) - (3/6 - 1/4) = 1,
  // minus 1 -> 0; one run of length 3 -> 1 * streak penalty 5.
  CHECK(s->believability() == Approx(5.0));
  s->apply(40);
  CHECK(piecesOf(*s, 0) == Squares{H, H, H, 43});
  CHECK(s->roundsCompleted() == 1);
  roll(*s, 2);
  CHECK(s->actor() == 1);  // player 1 has a piece on the ring: one roll only

  // 1, 6: a 6 stops the tries.
  auto t = cloneOf(*start);
  roll(*t, 1);
  CHECK(t->actor() == kEnvironment);
  roll(*t, 6);
  REQUIRE(t->actor() == 0);
  CHECK(legal(*t) == Actions{kEnter});
  t->apply(kEnter);
  CHECK(piecesOf(*t, 0) == Squares{H, H, 0, 40});

  // 2, 4, 5: decide on the 5; 40 -> 45 overshoots, no 6: pass.
  auto u = cloneOf(*start);
  roll(*u, 2);
  roll(*u, 4);
  roll(*u, 5);
  REQUIRE(u->actor() == 0);
  CHECK(legal(*u) == Actions{kPass});
  u->apply(kPass);
  CHECK(u->roundsCompleted() == 1);
  CHECK(u->actor() == kEnvironment);
  CHECK(u->faceCounts(0) == std::array<int, 6>{0, 1, 0, 1, 1, 0});
}

TEST_CASE("Ludo: two players use seats 0 and 2", "[ludo]") {
  auto s = newLudo(Json{{"players", 2}});
  CHECK(s->numPlayers() == 2);
  CHECK(s->seatOf(0) == 0);
  CHECK(s->seatOf(1) == 2);
  CHECK(s->toString().find("player 1 (seat 2)") != std::string::npos);
  CHECK(s->gain(1) == Approx(-924.0 / 21));

  // Turn order 0, 1, 0.
  roll(*s, 1);
  CHECK(s->actor() == 0);
  s->apply(legal(*s).front());
  roll(*s, 1);
  CHECK(s->actor() == 1);
  s->apply(legal(*s).front());
  CHECK(s->roundsCompleted() == 2);
  roll(*s, 1);
  CHECK(s->actor() == 0);

  // Seats 1 and 3 are empty: the pieces stored for seat 1 (relative 0..3 = absolute 10..13)
  // neither block nor get captured; absolute 10 is safe and would block in a 4-player game.
  auto t = newLudo(Json{{"players", 2}});
  t->setPieces(0, {4, H, H, H});
  t->setPieces(2, {H, H, H, H});
  CHECK(legalAfterRoll(*t, 6) == Actions{kEnter, 4});
  auto four = newLudo();
  four->setPieces(0, {4, H, H, H});
  CHECK(legalAfterRoll(*four, 6) == Actions{kEnter});

  // Player 0 captures player 1 (seat 2): seat 2's relative 39 is absolute 19.
  auto c = newLudo(Json{{"players", 2}});
  c->setPieces(0, {18, H, H, H});
  c->setPieces(2, {39, H, H, H});
  roll(*c, 1);
  c->apply(18);
  CHECK(piecesOf(*c, 2) == Squares{H, H, H, H});
  CHECK(c->turnsNeededUnits(2) == 4 * 268);
  CHECK(c->gain(1) == Approx(-4 * 268 / 21.0));

  // Player 1 (seat 2) wins: winner() is the player index 1, not the seat.
  auto w = newLudo(Json{{"players", 2}});
  w->setPieces(2, {39, 40, 41, 42});
  roll(*w, 1);
  w->apply(legal(*w).front());
  roll(*w, 4);
  REQUIRE(w->actor() == 1);
  CHECK(legal(*w) == Actions{39});
  w->apply(39);
  CHECK(w->isTerminal());
  CHECK(w->winner() == 1);
}

TEST_CASE("Ludo: heuristic units on constructed positions", "[ludo]") {
  // Position A.
  //  seat 0: house 268; r10 (absolute 10, safe: no threat although seat 3 stands 3 behind)
  //          6*30 = 180; r36 (absolute 36) 6*4 + 84 = 108, threatened by seat 3 on absolute 33
  //          (3 behind) +36 -> 144; r43 home 0. Total 592.
  //  seat 1: 4 * 268 = 1072.
  //  seat 2: three home, one house: 268.
  //  seat 3: r3 (absolute 33) 6*37 = 222, nothing 1..6 behind (27..32); r17 (absolute 7)
  //          6*23 = 138, nothing behind on 1..6; two home pieces. Total 360.
  auto s = newLudo();
  s->setPieces(0, {H, 10, 36, 43});
  s->setPieces(1, {H, H, H, H});
  s->setPieces(2, {40, 41, 42, H});
  s->setPieces(3, {3, 17, 40, 41});
  CHECK(s->turnsNeededUnits(0) == 592);
  CHECK(s->turnsNeededUnits(1) == 1072);
  CHECK(s->turnsNeededUnits(2) == 268);
  CHECK(s->turnsNeededUnits(3) == 360);
  CHECK(s->gain(0) == Approx(-592.0 / 21));
  CHECK(s->gain(3) == Approx(-360.0 / 21));
  CHECK(s->value(0) == s->gain(0));

  // Position B: the 6-to-go bonus and the threat distance.
  //  seat 0: r34 (absolute 34): 6*6 + 84 = 120, own piece 1 behind is no threat;
  //          r33: 7 to go -> 42 (no +84); r17 (absolute 17): 138, seat 1 on absolute 11
  //          (6 behind) threatens -> +17 = 155; house 268. Total 585.
  //  seat 1: r1 (absolute 11): 6*39 = 234, nothing on 5..10; three in the house 804 -> 1038.
  auto b = newLudo();
  clearBoard(*b);
  b->setPieces(0, {34, 33, 17, H});
  b->setPieces(1, {1, H, H, H});
  CHECK(b->turnsNeededUnits(0) == 585);
  CHECK(b->turnsNeededUnits(1) == 1038);
  // Seat 1's piece one square further back (absolute 10 = relative 0): 7 behind, no threat.
  //  seat 0: 585 - 17 = 568; seat 1: 6*40 + 804 = 1044.
  b->setPieces(1, {0, H, H, H});
  CHECK(b->turnsNeededUnits(0) == 568);
  CHECK(b->turnsNeededUnits(1) == 1044);
  // The threat only counts opponents on the ring squares behind: a safe square protects.
  //  seat 0 r35 (absolute 35, safe): 6*5 + 84 = 114 even with seat 1 on absolute 33 (r23).
  b->setPieces(0, {35, H, H, H});
  b->setPieces(1, {23, H, H, H});
  CHECK(b->turnsNeededUnits(0) == 114 + 3 * 268);
  //  ... and the same piece on 36 (not safe, 3 ahead of absolute 33): 108 + 36 = 144.
  b->setPieces(0, {36, H, H, H});
  CHECK(b->turnsNeededUnits(0) == 144 + 3 * 268);
}

// The mover's value after a move without a copy (the greedy replies of every search) is exactly a
// copy's value after it at every decision of random games, captures included; another seat's is
// left to a copy by valueAfter, and given by valuesAfter (Max^n's leaves). After every move each
// seat's kept units equal those counted afresh.
TEST_CASE("Ludo: valueAfter and valuesAfter are a copy's values after the move", "[ludo]") {
  int checked = 0, captures = 0;
  for (int players : {2, 4})
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      auto s = newLudo(Json{{"players", players}});
      Rng rng(seed);
      std::vector<Outcome> outcomes;
      while (!s->isTerminal()) {
        const auto moves = legal(*s);
        if (s->isEnvironmentNode()) {
          s->outcomes(outcomes);
          s->apply(sampleOutcome(outcomes, rng));
          continue;
        }
        const int mover = s->actor();
        for (Action a : moves) {
          auto after = cloneOf(*s);
          after->apply(a);
          REQUIRE(s->valueAfter(a, mover) == after->value(mover));
          CHECK_FALSE(s->valueAfter(a, (mover + 1) % players).has_value());
          Gains values{};
          const unsigned everyone = (1u << players) - 1;
          REQUIRE(
              s->valuesAfter(a, everyone, std::span(values.data(), static_cast<size_t>(players))));
          for (int p = 0; p < players; ++p) REQUIRE(values[p] == after->value(p));
          for (int p = 0; p < players; ++p) {  // each player alone; the others left untouched
            Gains alone{};
            REQUIRE(s->valuesAfter(a, 1u << p, std::span(alone.data(), alone.size())));
            for (int q = 0; q < players; ++q) REQUIRE(alone[q] == (q == p ? values[p] : 0.0));
          }
          int inHouse = 0;
          for (int p = 0; p < players; ++p)
            for (int i = 0; i < ludo::kPieces; ++i)
              inHouse += after->piece(s->seatOf(p), i) == ludo::kInHouse;
          int before = 0;
          for (int p = 0; p < players; ++p)
            for (int i = 0; i < ludo::kPieces; ++i)
              before += s->piece(s->seatOf(p), i) == ludo::kInHouse;
          captures += inHouse > before;
          ++checked;
        }
        s->apply(moves[rng.below(static_cast<uint32_t>(moves.size()))]);
        // The units the state keeps up to date move by move are those counted afresh.
        for (int p = 0; p < players; ++p)
          REQUIRE(s->gain(p) == -s->turnsNeededUnits(s->seatOf(p)) / 21.0);
      }
    }
  CHECK(checked > 2000);
  CHECK(captures > 50);
}

TEST_CASE("Ludo: a player with all four pieces home wins and the game ends", "[ludo]") {
  auto s = newLudo();
  s->setPieces(0, {39, 40, 41, 42});
  roll(*s, 4);
  CHECK(legal(*s) == Actions{39});  // 40 + 4 = 44 and beyond overshoot
  s->apply(39);
  CHECK(s->isTerminal());
  CHECK(s->actor() == kTerminal);
  CHECK(s->winner() == 0);
  CHECK_FALSE(s->capped());
  CHECK(s->roundsCompleted() == 1);
  CHECK(s->turnsNeededUnits(0) == 0);
  CHECK(legal(*s).empty());
  std::vector<Outcome> outcomes;
  s->outcomes(outcomes);
  CHECK(outcomes.empty());

  // Three home and one arriving on the ring is not a win.
  auto t = newLudo();
  t->setPieces(0, {30, 40, 41, 42});
  roll(*t, 4);
  t->apply(30);
  CHECK_FALSE(t->isTerminal());
  CHECK(t->winner() == -1);
}

TEST_CASE("Ludo: max_rounds ends the game as a capped draw", "[ludo]") {
  auto s = newLudo(Json{{"max_rounds", 3}});
  for (int round = 0; round < 3; ++round) {
    REQUIRE_FALSE(s->isTerminal());
    roll(*s, 1);
    s->apply(legal(*s).front());
  }
  CHECK(s->roundsCompleted() == 3);
  CHECK(s->isTerminal());
  CHECK(s->capped());
  CHECK(s->winner() == -1);

  auto t = newLudo(Json{{"max_rounds", 4}});
  for (int round = 0; round < 3; ++round) {
    roll(*t, 1);
    t->apply(legal(*t).front());
  }
  CHECK_FALSE(t->isTerminal());
  CHECK_FALSE(t->capped());
}

TEST_CASE("Ludo: believability from face counts and streaks", "[ludo]") {
  // Two players alternate; each round: roll, then the first legal move. Player 0 rolls
  // 6,6,6,6,2,3 and player 1 rolls 1,1,1,2,2,5 (interleaved: the other player's rolls do not
  // break a run).
  const int rolls0[] = {6, 6, 6, 6, 2, 3};
  const int rolls1[] = {1, 1, 1, 2, 2, 5};
  auto play = [&](const Json& params) {
    auto s = newLudo(params);
    for (int i = 0; i < 6; ++i) {
      roll(*s, rolls0[i]);
      REQUIRE(s->actor() == 0);
      s->apply(legal(*s).front());
      roll(*s, rolls1[i]);
      REQUIRE(s->actor() == 1);
      s->apply(legal(*s).front());
    }
    return s;
  };
  auto s = play(Json{{"players", 2}});
  CHECK(s->faceCounts(0) == std::array<int, 6>{0, 1, 1, 0, 0, 4});
  CHECK(s->faceCounts(1) == std::array<int, 6>{3, 2, 0, 0, 1, 0});
  // Player 0: faces (0,1,1,0,0,4), mean 1: var1 = (1+0+0+1+1+9)/6 = 2, varMin = 0 (all 1);
  //   belPC = 2 - T(1) = 1; one run of four 6s -> 4 - 2 = 2 -> 2 * 5 = 10. Sum 11.
  // Player 1: faces (3,2,0,0,1,0), mean 1: var1 = (4+1+1+1+0+1)/6 = 4/3, belPC = 1/3;
  //   run 1,1,1 -> 1 -> 5; run 2,2 -> 0. Sum 16/3.
  // Total 11 + 16/3 = 49/3.
  CHECK(s->believability() == Approx(49.0 / 3));

  // Parameters: T = 0, penalty 2: player 0: 2 + 2*2 = 6; player 1: 4/3 + 2 = 10/3.
  auto t = play(Json{{"players", 2}, {"believability_threshold", 0.0}, {"streak_penalty", 2.0}});
  CHECK(t->believability() == Approx(6.0 + 10.0 / 3));

  // A fresh game is perfectly believable.
  CHECK(newLudo()->believability() == 0.0);

  // Kept from running sums, the value is exactly belPC of the face counts, all game long (no
  // streak penalty, so the faces alone decide it).
  auto r = newLudo(Json{{"players", 4}, {"streak_penalty", 0.0}, {"believability_threshold", 0.5}});
  Rng rng(3);
  std::vector<Outcome> outcomes;
  for (int step = 0; step < 2000 && !r->isTerminal(); ++step) {
    r->outcomes(outcomes);
    const auto moves = legal(*r);
    r->apply(r->isEnvironmentNode() ? sampleOutcome(outcomes, rng)
                                    : moves[rng.below(static_cast<uint32_t>(moves.size()))]);
    double expected = 0;
    for (int p = 0; p < 4; ++p) expected += belPC(r->faceCounts(p), 0.5);
    REQUIRE(r->believability() == expected);
  }
}

TEST_CASE("Ludo: parameter validation", "[ludo][params]") {
  const GameInfo info = ludo::gameInfo();
  CHECK(info.id == "ludo");
  const Json defaults = validateParams(info.params, Json(), "params");
  CHECK(defaults.at("players") == 4);
  CHECK(defaults.at("max_rounds") == 2000);
  CHECK(defaults.at("safe_squares") == Json::array({0, 5, 10, 15, 20, 25, 30, 35}));
  CHECK(defaults.at("start_on_board") == true);
  CHECK(defaults.at("believability_threshold") == 1.0);
  CHECK(defaults.at("streak_penalty") == 5.0);
  CHECK(info.make(defaults)->numPlayers() == 4);
  CHECK(info.make(defaults)->statusScale() == 3.0);

  try {
    validateParams(info.params, Json{{"players", 3}}, "params");
    FAIL("players 3 accepted");
  } catch (const InputError& e) {
    CHECK(e.path() == "params.players");
    CHECK_THAT(e.what(), Catch::Contains("params.players"));
    CHECK_THAT(e.what(), Catch::Contains("2") && Catch::Contains("4"));
  }
  try {
    validateParams(info.params, Json{{"player", 2}}, "params");
    FAIL("unknown parameter accepted");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("player'"));
    for (const auto& spec : info.params) CHECK_THAT(e.what(), Catch::Contains(spec.name));
  }
  CHECK_THROWS_WITH(validateParams(info.params, Json{{"players", "four"}}, "params"),
                    Catch::Contains("params.players") && Catch::Contains("integer"));
  CHECK_THROWS_WITH(validateParams(info.params, Json{{"safe_squares", {3, 40}}}, "params"),
                    Catch::Contains("params.safe_squares[1]"));
  CHECK_THROWS_AS(validateParams(info.params, Json{{"max_rounds", 0}}, "params"), InputError);
}
