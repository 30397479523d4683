// The HexaLines rules (games/hexalines.md): the rule cases 1-9 of hexalines-notes.md §6 on
// constructed positions (10-12 are the AI's, in test_hexalines_ai.cpp), the fair first cell,
// and recomputation on the boards random games reach.
//
// Positions are built on the default radius-3 board. Fields are named by axial coordinates;
// side s of a field faces direction s: (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1). Red's source
// opens towards (1,0), green's towards (0,-1), blue's towards (-1,1). A shape is written one
// character per side 0..5: 'a'.. a segment, '.' a wall.
#include <catch2/catch.hpp>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/rng.h"
#include "games/hexalines/hexalines.h"
#include "games/registry.h"

using namespace ddalab;
using namespace ddalab::hexalines;

namespace {

constexpr int kRed = 0, kGreen = 1, kBlue = 2;

std::shared_ptr<const Game> makeGame(const Json& params = Json::object()) {
  const auto& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "");
  return info.make(validateParams(info.params, params, "params"));
}

std::unique_ptr<HexaLinesState> newState(const Json& params = Json::object()) {
  auto state = makeGame(params)->newGame(7);
  return std::unique_ptr<HexaLinesState>(static_cast<HexaLinesState*>(state.release()));
}

Shape shape(const std::string& text) {
  std::array<uint8_t, kSides> sides{};
  for (int side = 0; side < kSides; ++side)
    sides[side] = text[side] == '.' ? kWall : static_cast<uint8_t>(text[side] - 'a');
  return normalized(sides);
}

int at(const HexaLinesState& s, int q, int r) {
  return *s.board().fieldAt({q, r});
}

void place(HexaLinesState& s, int q, int r, const std::string& text, int owner = kNobody) {
  s.placeForTest(at(s, q, r), shape(text), owner);
}

// `mover` adds `text` on (q, r): revealed, applied, stabilised.
void add(HexaLinesState& s, int mover, const std::string& text, int q, int r) {
  s.revealForTest(mover, shape(text));
  s.apply(s.addAction(at(s, q, r)));
}

std::vector<Action> legal(const State& s) {
  std::vector<Action> actions;
  s.legalActions(actions);
  return actions;
}

bool isLegal(const State& s, Action action) {
  const auto actions = legal(s);
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

// The colour of the segment at `side` of the cell on (q, r).
int colourAt(const HexaLinesState& s, int q, int r, int side) {
  return s.cell(at(s, q, r)).colourAt(side);
}

// Green's path from its source: (0,-1) joins the source side 5 to side 0, (1,-1) carries it on
// from side 3 to `onward`.
void greenPath(HexaLinesState& s, const std::string& onward) {
  place(s, 0, -1, "a....a", kGreen);
  place(s, 1, -1, onward, kGreen);
}

// Fields holding a cell.
int occupied(const HexaLinesState& s) {
  int count = 0;
  for (int field = 0; field < s.fields(); ++field) count += !s.cell(field).empty();
  return count;
}

// The total length of the segments holding colour `p`.
int colouredLength(const HexaLinesState& s, int p) {
  int total = 0;
  for (int field = 0; field < s.fields(); ++field)
    for (int segment = 0; segment < kMaxSegments; ++segment)
      if (s.cell(field).colour[segment] == p) total += s.cell(field).shape.length(segment);
  return total;
}

// Deals the environment's cells naturally until a player decides; returns a random legal move for
// it (not applied), or -1 at the end of the game.
Action nextRandomMove(State& s, Rng& rng) {
  std::vector<Outcome> outcomes;
  while (s.isEnvironmentNode()) {
    s.outcomes(outcomes);
    s.apply(sampleOutcome(outcomes, rng));
  }
  if (s.isTerminal()) return -1;
  const auto actions = legal(s);
  return actions[rng.below(static_cast<uint32_t>(actions.size()))];
}

}  // namespace

TEST_CASE("§6.1 inserting into an empty field with no occupied neighbour is illegal",
          "[hexalines]") {
  auto s = newState();
  s->revealForTest(kRed, shape("a..a.."));
  const auto actions = legal(*s);
  std::set<std::pair<int, int>> addable;
  for (Action a : actions) {
    REQUIRE(s->isAdd(a));  // no cell to rotate yet
    addable.insert({s->board().hexOf(a).q, s->board().hexOf(a).r});
  }
  // Only the six fields around the centre touch an occupied field.
  CHECK(addable ==
        std::set<std::pair<int, int>>{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}});
  CHECK_FALSE(isLegal(*s, s->addAction(at(*s, 2, 0))));
  place(*s, 1, 0, "a..a..");
  s->revealForTest(kRed, shape("a..a.."));
  CHECK(isLegal(*s, s->addAction(at(*s, 2, 0))));
}

TEST_CASE(
    "§6.2 any cell may be added next to a cell, it is the mover's only if it extends the "
    "mover's path",
    "[hexalines]") {
  auto s = newState();
  // Red's front field, the segment facing red's source (side 3) running on to side 0.
  add(*s, kRed, "a..a..", 1, 0);
  CHECK(s->cell(at(*s, 1, 0)).owner == kRed);
  CHECK(colourAt(*s, 1, 0, 3) == kRed);
  CHECK(s->gain(kRed) == 2);
  // Red adds next to the centre where no path of anybody reaches it: legal, and grey.
  add(*s, kRed, "aa....", 0, 1);
  CHECK(s->cell(at(*s, 0, 1)).owner == kNobody);
  CHECK(colourAt(*s, 0, 1, 0) == kNobody);
  // Next to red's cell without matching its path end (its side 0 faces (2,0), this is (2,-1)).
  add(*s, kRed, "a..a..", 2, -1);
  CHECK(s->cell(at(*s, 2, -1)).owner == kNobody);
  CHECK(s->gain(kRed) == 2);
}

TEST_CASE(
    "§6.3 rotations: never an opponent's cell, any grey cell, five amounts for an "
    "asymmetric cell",
    "[hexalines]") {
  auto s = newState();
  place(*s, 1, 0, "aa....", kGreen);
  place(*s, 0, 1, "aa....");         // grey, period 6
  place(*s, -1, 0, "a..a..", kRed);  // red's own, period 3
  s->revealForTest(kRed, shape("a..a.."));
  std::set<std::pair<int, int>> rotations;  // (field, sixths)
  for (Action a : legal(*s))
    if (!s->isAdd(a)) rotations.insert({s->fieldOf(a), s->sixthsOf(a)});
  for (int k = 1; k <= 5; ++k) {
    CHECK_FALSE(rotations.count({at(*s, 1, 0), k}));  // green's
    CHECK(rotations.count({at(*s, 0, 1), k}));        // grey: every amount
  }
  // A straight line repeats after three sixths: turning by 3 would change nothing.
  CHECK(rotations.count({at(*s, -1, 0), 1}));
  CHECK(rotations.count({at(*s, -1, 0), 2}));
  CHECK(rotations.size() == 7);
  s->apply(s->rotateAction(at(*s, 0, 1), 2));
  CHECK(s->cell(at(*s, 0, 1)).shape == shape("aa....").rotated(2));
  CHECK(s->cell(at(*s, 0, 1)).shape.text() == "..aa..");
}

TEST_CASE(
    "§6.4 pouring into a segment that shows an opponent's colour destroys that cell, "
    "mover-first decides who loses",
    "[hexalines]") {
  // Red runs from its front (1,0) to (1,-1)'s side 5; green from (0,-1) to (1,-1)'s side 3.
  // Green fills (1,-1) with a cell joining both.
  const auto build = [](const std::string& order) {
    auto s = newState({{"recalc_order", order}});
    place(*s, 1, 0, "..aa..", kRed);
    place(*s, 0, -1, "a....a", kGreen);
    s->recomputeForTest(kRed);
    REQUIRE(colourAt(*s, 1, 0, 2) == kRed);
    REQUIRE(colourAt(*s, 0, -1, 0) == kGreen);
    add(*s, kGreen, "...a.a", 1, -1);
    return s;
  };
  SECTION("mover-first: green floods first and destroys red's cell") {
    auto s = build("mover-first");
    CHECK(s->cell(at(*s, 1, 0)).empty());
    CHECK(s->cell(at(*s, 1, -1)).owner == kGreen);
    CHECK(s->gain(kGreen) == 4);
    CHECK(s->gain(kRed) == 0);
  }
  SECTION("fixed-rbg: red floods first, runs through the new cell and destroys green's") {
    auto s = build("fixed-rbg");
    CHECK(s->cell(at(*s, 0, -1)).empty());
    CHECK(s->cell(at(*s, 1, -1)).owner == kNobody);  // it holds red, not the mover's colour
    CHECK(s->gain(kRed) == 4);
    CHECK(s->gain(kGreen) == 0);
  }
}

TEST_CASE("§6.5 one move destroys several cells in a cascade, colour cut off disappears",
          "[hexalines]") {
  auto s = newState();
  // Red: (1,0) -> (2,0), which branches to (3,-1) and (3,0).
  place(*s, 1, 0, "a..a..", kRed);
  place(*s, 2, 0, "aaaa..", kRed);
  place(*s, 3, -1, "...aa.", kRed);
  place(*s, 3, 0, ".a.a..", kRed);
  greenPath(*s, "a..a..");
  s->recomputeForTest(kRed);
  REQUIRE(s->gain(kRed) == 0);  // scores are counted after a move
  REQUIRE(colourAt(*s, 3, 0, 3) == kRed);
  REQUIRE(colourAt(*s, 1, -1, 0) == kGreen);
  // Green's new cell on (2,-1) touches red's (3,-1) (side 0) and (2,0) (side 5).
  add(*s, kGreen, "a..a.a", 2, -1);
  CHECK(s->cell(at(*s, 3, -1)).empty());
  CHECK(s->cell(at(*s, 2, 0)).empty());
  // (3,0) kept its cell, but red can no longer reach it.
  REQUIRE_FALSE(s->cell(at(*s, 3, 0)).empty());
  CHECK(colourAt(*s, 3, 0, 3) == kNobody);
  CHECK(s->gain(kRed) == 2);
  CHECK(s->gain(kGreen) == 7);
}

TEST_CASE(
    "§6.6 a colour re-entering its own cell through a segment of another colour destroys "
    "that whole cell",
    "[hexalines]") {
  auto s = newState();
  // (1,0): segment a joins red's source (side 3) to side 1; segment b joins sides 2 and 5 and
  // carries green, which arrives from (1,-1).
  place(*s, 1, 0, ".aba.b", kRed);
  greenPath(*s, "...a.a");
  // Grey cells on (2,-1) and (2,0) carry red on round to (1,1), which faces (1,0)'s side 5.
  place(*s, 2, -1, "....aa");
  place(*s, 2, 0, "..a.a.");
  s->recomputeForTest(kRed);
  REQUIRE(colourAt(*s, 1, 0, 1) == kRed);
  REQUIRE(colourAt(*s, 1, 0, 5) == kGreen);
  REQUIRE(colourAt(*s, 2, 0, 4) == kRed);
  // Red closes the loop on (1,1): legal, and it blows up the cell red's own path came through.
  const Action move = s->addAction(at(*s, 1, 1));
  s->revealForTest(kRed, shape(".aa..."));
  REQUIRE(isLegal(*s, move));
  s->apply(move);
  CHECK(s->cell(at(*s, 1, 0)).empty());
  CHECK(s->gain(kRed) == 0);
  CHECK(s->cell(at(*s, 1, 1)).owner == kNobody);
  CHECK(colourAt(*s, 2, 0, 4) == kNobody);  // the loop lost its colour
  CHECK(s->gain(kGreen) == 4);
}

TEST_CASE(
    "§6.7 a foreign colour in a player's source kills that player, one player left ends "
    "the game",
    "[hexalines]") {
  auto s = newState();
  // Green's (0,-1) branches to (1,-1) and (-1,0), which lead to red's and blue's front fields.
  place(*s, 0, -1, "a...aa", kGreen);
  place(*s, 1, -1, "...a.a", kGreen);
  place(*s, -1, 0, ".a...a", kGreen);
  place(*s, 2, 1, "aa....", kRed);  // a cell red owns elsewhere
  s->recomputeForTest(kGreen);
  add(*s, kGreen, "..aa..", 1, 0);  // from (1,-1) into red's source
  CHECK_FALSE(s->alive(kRed));
  CHECK(s->isOut(kRed));
  CHECK(s->gain(kRed) == 0);
  CHECK(s->cell(at(*s, 2, 1)).owner == kNobody);  // the dead player's cells turn grey
  CHECK_FALSE(s->isTerminal());
  CHECK(s->player() == kBlue);       // turns skip the dead
  add(*s, kGreen, ".aa...", -1, 1);  // from (-1,0) into blue's source
  CHECK_FALSE(s->alive(kBlue));
  REQUIRE(s->isTerminal());
  CHECK(s->winner() == kGreen);
}

TEST_CASE("§6.8 a full board ends the game: the longest colour wins, equal top scores draw",
          "[hexalines]") {
  // The radius-1 board: the centre and six fields.
  const auto fill = [](const std::string& redCell) {
    auto s = newState({{"radius", 1}});
    place(*s, 1, 0, redCell, kRed);      // red's front
    place(*s, 0, -1, "..a..a", kGreen);  // green's front: sides 5 and 2
    place(*s, -1, 1, ".a..a.", kBlue);   // blue's front: sides 1 and 4
    place(*s, 1, -1, "aa....");
    place(*s, -1, 0, "..aa..");
    s->recomputeForTest(kRed);
    add(*s, kRed, "aa....", 0, 1);  // the last empty field; no path reaches it
    REQUIRE(s->isTerminal());
    CHECK_FALSE(s->capped());
    return s;
  };
  auto tie = fill("a..a..");
  CHECK(tie->gain(kRed) == 2);
  CHECK(tie->gain(kGreen) == 2);
  CHECK(tie->gain(kBlue) == 2);
  CHECK(tie->winner() == -1);
  auto longer = fill("aa.a..");
  CHECK(longer->gain(kRed) == 3);
  CHECK(longer->winner() == kRed);
}

TEST_CASE("§6.9 taking a move back and playing it again deals the same cells", "[hexalines]") {
  auto game = makeGame();
  auto s = game->newGame(11);
  std::vector<Outcome> outcomes;
  std::vector<Action> actions;
  Rng rng(3);
  for (int round = 0; round < 12; ++round) {
    s->outcomes(outcomes);
    s->apply(sampleOutcome(outcomes, rng));
    const auto before = s->clone();  // the position a person could take a move back to
    s->legalActions(actions);
    const Action move = actions[rng.below(static_cast<uint32_t>(actions.size()))];
    s->apply(move);
    auto replayed = before->clone();
    replayed->apply(move);
    CHECK(replayed->toString() == s->toString());
    // The next cell of any class gets the same orientation whichever move was played.
    auto other = before->clone();
    other->apply(actions.front());
    const auto& a = static_cast<const HexaLinesState&>(*s);
    const auto& b = static_cast<const HexaLinesState&>(*other);
    for (int c = 0; c < static_cast<int>(a.catalogue().classes()); ++c)
      CHECK(a.orientationOf(c, round + 1) == b.orientationOf(c, round + 1));
  }
}

TEST_CASE("the first cell is fair: it can join the source and run on to two free fields",
          "[hexalines]") {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto state = makeGame()->newGame(seed);
    auto& s = static_cast<HexaLinesState&>(*state);
    std::vector<Outcome> outcomes;
    s.outcomes(outcomes);
    double total = 0;
    for (const Outcome& o : outcomes) total += o.probability;
    CHECK(total == Approx(1.0));
    CHECK(outcomes.size() < s.catalogue().classes());
    for (const Outcome& o : outcomes) {
      const Shape& cell = s.orientationOf(o.action, 0);
      const uint8_t joining = cell.segmentOf[oppositeSide(HexaLinesState::sourceSide(kRed))];
      REQUIRE(joining != kWall);
      CHECK(cell.length(joining) >= 3);  // the source side and two more, all facing free fields
      // Probabilities stay proportional to the variant counts.
      CHECK(o.probability / s.catalogue().probability(static_cast<size_t>(o.action)) ==
            Approx(outcomes.front().probability /
                   s.catalogue().probability(static_cast<size_t>(outcomes.front().action))));
    }
    s.apply(outcomes.front().action);
    CHECK(legal(s).size() == 6);  // the player may still put it anywhere next to the centre
  }
}

TEST_CASE("each player's first cell alone is dealt fair and later cells naturally", "[hexalines]") {
  // Counted over random games: a restricted deal (fewer outcomes than classes) happens exactly at
  // the players' first deals whose front field is still empty, never again (the seed: "další
  // buňky už jsou generovány náhodně"), however long a front field stays empty.
  auto game = makeGame();
  int restricted = 0, firstDealsOnEmptyFront = 0, laterDealsOnEmptyFront = 0, games = 0;
  for (uint64_t seed = 0; seed < 40; ++seed, ++games) {
    auto state = game->newGame(seed);
    auto& s = static_cast<HexaLinesState&>(*state);
    std::array<int, kColours> dealt{};
    Rng rng(seed);
    std::vector<Outcome> outcomes;
    while (!s.isTerminal()) {
      if (!s.isEnvironmentNode()) {
        const auto actions = legal(s);
        s.apply(actions[rng.below(static_cast<uint32_t>(actions.size()))]);
        continue;
      }
      const int p = s.player();
      const bool emptyFront = s.cell(s.frontField(p)).empty();
      CHECK(s.cellsDealt(p) == dealt[p]);
      s.outcomes(outcomes);
      const bool isRestricted = outcomes.size() < s.catalogue().classes();
      restricted += isRestricted;
      CHECK(isRestricted == (dealt[p] == 0 && emptyFront));
      (dealt[p] == 0 ? firstDealsOnEmptyFront : laterDealsOnEmptyFront) += emptyFront;
      ++dealt[p];
      s.apply(sampleOutcome(outcomes, rng));
    }
  }
  CHECK(restricted == firstDealsOnEmptyFront);
  CHECK(restricted <= kColours * games);
  CHECK(restricted >= games);  // the first mover's front field is always empty
  CHECK(laterDealsOnEmptyFront > restricted);  // the old rule would have restricted these too
}

TEST_CASE("recomputation is idempotent, cascades settle and final gains are the board's scores",
          "[hexalines]") {
  for (const char* order : {"mover-first", "fixed-rbg"}) {
    auto game = makeGame({{"recalc_order", order}});
    int destroyingMoves = 0;  // shows the games tested really cascade
    for (uint64_t seed = 0; seed < 30; ++seed) {
      auto s = game->newGame(seed);
      Rng rng(seed);
      for (Action move = nextRandomMove(*s, rng); move >= 0; move = nextRandomMove(*s, rng)) {
        const auto& board = static_cast<const HexaLinesState&>(*s);
        const int mover = s->actor();
        const int expected = occupied(board) + (board.isAdd(move) ? 1 : 0);
        s->apply(move);  // would throw if the passes did not settle
        destroyingMoves += occupied(board) < expected;
        auto again =
            std::unique_ptr<HexaLinesState>(static_cast<HexaLinesState*>(s->clone().release()));
        again->recomputeForTest(mover);
        REQUIRE(again->toString() == s->toString());
      }
      // At the end the gains are the scores the board shows (dead players keep theirs).
      const auto& end = static_cast<const HexaLinesState&>(*s);
      for (int p = 0; p < kColours; ++p)
        if (end.alive(p)) CHECK(end.gain(p) == colouredLength(end, p));
    }
    CHECK(destroyingMoves > 30);
  }
}

TEST_CASE("a move floods again only the colours around its field, exactly as a whole recomputation",
          "[hexalines]") {
  for (const char* order : {"mover-first", "fixed-rbg"}) {
    auto game = makeGame({{"recalc_order", order}});
    int cascades = 0, kills = 0;  // the games compared really destroy cells and kill players
    for (uint64_t seed = 0; seed < 40; ++seed) {
      auto s = game->newGame(seed);
      Rng rng(seed + 1000);
      for (Action move = nextRandomMove(*s, rng); move >= 0; move = nextRandomMove(*s, rng)) {
        auto whole =
            std::unique_ptr<HexaLinesState>(static_cast<HexaLinesState*>(s->clone().release()));
        whole->recomputeInFullNextForTest();
        const auto& board = static_cast<const HexaLinesState&>(*s);
        const int before = occupied(board);
        const int living = board.alive(0) + board.alive(1) + board.alive(2);
        whole->apply(move);
        s->apply(move);
        for (int field = 0; field < board.fields(); ++field)
          REQUIRE(board.cell(field) == whole->cell(field));
        for (int p = 0; p < kColours; ++p) {
          REQUIRE(board.alive(p) == whole->alive(p));
          REQUIRE(board.gain(p) == whole->gain(p));
          if (board.alive(p)) REQUIRE(board.gain(p) == colouredLength(board, p));
        }
        REQUIRE(board.toString() == whole->toString());
        cascades += occupied(board) < before + (board.isAdd(move) ? 1 : 0);
        kills += board.alive(0) + board.alive(1) + board.alive(2) < living;
      }
    }
    CHECK(cascades > 30);
    CHECK(kills > 5);
  }
}
