// Maze rules (spec games/maze.md) on constructed mazes and on random games.
// Constructed mazes are drawn like toString: '#' wall, '.' floor, '?' unknown, 'D'/'B'/'R'
// closed plain/blue/red doors, 'd'/'b'/'r' open ones, '*' a mark on an unknown tile, '+' a mark
// on floor, '@' the explorer. Coordinates are (x, y) with y growing downwards; a tile's action id
// is y * width + x. Environment outcome codes: (bucket - 1) * 9 + left * 3 + right.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/believability.h"
#include "core/params.h"
#include "games/maze/maze.h"

using namespace ddalab;
using maze::Corridor;
using maze::DoorColour;
using maze::MazeConfig;
using maze::MazeState;
using maze::Segment;
using maze::Tile;
using maze::TileKind;

namespace {

using Actions = std::vector<Action>;
using Rows = std::vector<std::string>;

std::shared_ptr<const Game> makeMaze(const Json& given = Json()) {
  const GameInfo info = maze::gameInfo();
  return info.make(validateParams(info.params, given, "params"));
}

MazeState newMaze(const Json& given, uint64_t seed) {
  const auto state = makeMaze(given)->newGame(seed);
  const auto* maze = dynamic_cast<const MazeState*>(state.get());
  REQUIRE(maze != nullptr);
  return *maze;
}

// A configuration whose new doors are all plain (constructed mazes draw their colours).
MazeConfig plainDoors() {
  MazeConfig config;
  config.blueProb = 0;
  config.redProb = 0;
  config.defuseWeight = 220;
  return config;
}

Actions legal(const State& s) {
  Actions out;
  s.legalActions(out);
  return out;
}

Actions outcomeCodes(const State& s) {
  std::vector<Outcome> out;
  s.outcomes(out);
  Actions codes;
  for (const auto& o : out) codes.push_back(o.action);
  return codes;
}

// The drawing part of toString (the rows, without the status line).
std::string drawing(const MazeState& s) {
  const std::string text = s.toString();
  return text.substr(0, text.rfind('\n') + 1);
}

std::string joined(const Rows& rows) {
  std::string text;
  for (const auto& row : rows) text += row + "\n";
  return text;
}

// Ring of floor around a walled block; the explorer at (1,8).
// D (5,2) faces north into a one-tile room beside a mark at (6,1); R (5,7) faces north into a
// pocket with a mark at (3,5); B (5,9) faces the border (room 0). Shortest paths from (1,8):
// B and R cost 5, D costs 10 (the other way round would be 18).
const Rows kRing = {
    "###########",  //
    "#?????*???#",  //
    "#####D#####",  //
    "#.........#",  //
    "#.#######.#",  //
    "#.#*????#.#",  //
    "#.#?????#.#",  //
    "#.###R###.#",  //
    "#@........#",  //
    "#####B#####",  //
    "###########",
};
constexpr Action kRingD = 2 * 11 + 5;
constexpr Action kRingR = 7 * 11 + 5;
constexpr Action kRingB = 9 * 11 + 5;

// A closed door under a column of four unknown tiles; a mark in the column's 2nd tile.
const Rows kColumn = {
    "###########",  //
    "#?????????#",  //
    "#?????????#",  //
    "#????*????#",  //
    "#?????????#",  //
    "#####D#####",  //
    "#####@#####",  //
    "###########",  //
    "###########",  //
    "###########",  //
    "###########",
};
constexpr Action kColumnDoor = 5 * 11 + 5;
constexpr Action kColumnMark = 3 * 11 + 5;

MazeState construct(const Rows& rows, int steps, MazeConfig config = plainDoors()) {
  return MazeState::fromRows(config, 99, rows, steps);
}

MazeState applied(MazeState s, Action action) {
  s.apply(action);
  return s;
}

// Shortest known path lengths from the explorer, computed independently of the game.
std::vector<int> distancesFromPlayer(const MazeState& s) {
  std::vector<int> dist(static_cast<size_t>(s.width() * s.height()), -1);
  std::vector<int> queue = {s.player()};
  dist[s.player()] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int at = queue[head];
    for (int d = 0; d < 4; ++d) {
      const int next = s.index(s.xOf(at) + maze::kDx[d], s.yOf(at) + maze::kDy[d]);
      if (dist[next] >= 0 || !s.tile(next).isPassable()) continue;
      dist[next] = dist[at] + 1;
      queue.push_back(next);
    }
  }
  return dist;
}

// The legal actions with their costs as the rules define them, from first principles.
std::vector<std::pair<Action, int>> expectedTargets(const MazeState& s) {
  const auto dist = distancesFromPlayer(s);
  std::vector<std::pair<Action, int>> targets;
  for (int i = 0; i < s.width() * s.height(); ++i) {
    const Tile t = s.tile(i);
    int cost = -1;
    if (t.isClosedDoor()) {
      for (int d = 0; d < 4; ++d) {
        const int n = s.index(s.xOf(i) + maze::kDx[d], s.yOf(i) + maze::kDy[d]);
        if (dist[n] >= 0 && (cost < 0 || dist[n] + 1 < cost)) cost = dist[n] + 1;
      }
    } else if (t.hasMark() && dist[i] > 0) {
      cost = dist[i];
    }
    const int penalty =
        t.isClosedDoor() && t.colour() == DoorColour::Red ? s.config().doorPenalty : 0;
    if (cost > 0 && cost + penalty <= s.stepsLeft()) targets.push_back({i, cost});
  }
  return targets;
}

// True when the unknown region around `tile` has a closed door facing into it.
bool regionAlive(const MazeState& s, int tile) {
  std::vector<char> seen(static_cast<size_t>(s.width() * s.height()), 0);
  std::vector<int> queue = {tile};
  seen[tile] = 1;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int at = queue[head];
    for (int d = 0; d < 4; ++d) {
      const int n = s.index(s.xOf(at) + maze::kDx[d], s.yOf(at) + maze::kDy[d]);
      const Tile t = s.tile(n);
      if (t.isClosedDoor() && t.direction() == (d + 2) % 4) return true;
      if (t.isUnknown() && !seen[n]) {
        seen[n] = 1;
        queue.push_back(n);
      }
    }
  }
  return false;
}

std::string where(const MazeState& s, int tile) {
  return "(" + std::to_string(s.xOf(tile)) + "," + std::to_string(s.yOf(tile)) + ")";
}

// Everything an environment outcome may do to `before`, checked on its result; returns the
// first violation ("" when none).
std::string corridorViolation(const MazeState& before, Action outcome) {
  const MazeState after = applied(before, outcome);
  if (after.toString() != applied(before, outcome).toString()) return "not deterministic";
  const Corridor c = before.corridorFor(outcome);
  const int door = before.pendingDoor();
  const int dir = before.tile(door).direction();
  const int left = maze::leftOf(dir);
  int floors = 0, leftDoors = 0, rightDoors = 0;
  for (int i = 0; i < before.width() * before.height(); ++i) {
    const Tile b = before.tile(i), a = after.tile(i);
    if (b.withMark(false) == a.withMark(false)) continue;
    const std::string at = where(before, i);
    if (!b.isUnknown()) return "known tile " + at + " overwritten";
    const int x = before.xOf(i), y = before.yOf(i);
    if (x <= 0 || y <= 0 || x >= before.width() - 1 || y >= before.height() - 1)
      return "border tile " + at + " changed";
    const int dx = x - before.xOf(door), dy = y - before.yOf(door);
    const int forward = dx * maze::kDx[dir] + dy * maze::kDy[dir];
    const int lateral = dx * maze::kDx[left] + dy * maze::kDy[left];
    if (std::abs(lateral) > 1 || forward < 0 || forward > c.length + 1)
      return "tile " + at + " outside the corridor's box";
    if (a.kind() == TileKind::Floor) {
      if (lateral != 0 || forward < 1 || forward > c.length) return "floor off the line " + at;
      ++floors;
    }
    if (a.kind() == TileKind::Door) {
      if (b.hasMark()) return "door on a mark " + at;
      if (a.open()) return "open new door " + at;
      if (a.colour() != before.colourAt(i)) return "door colour not the seed's " + at;
      if (lateral == 0 && (forward != c.length + 1 || a.direction() != dir))
        return "bad end door " + at;
      if (lateral == 1 && (forward < 1 || forward > c.length || a.direction() != left))
        return "bad left door " + at;
      if (lateral == -1 &&
          (forward < 1 || forward > c.length || a.direction() != maze::rightOf(dir)))
        return "bad right door " + at;
      leftDoors += lateral == 1;
      rightDoors += lateral == -1;
    }
    if (a.kind() == TileKind::Wall && b.hasMark() && a.hasMark()) return "mark kept on a wall";
  }
  if (floors != c.length) return "corridor of " + std::to_string(floors) + " floor tiles";
  if (leftDoors > 1 || rightDoors > 1) return "more than one side door on a side";
  for (int mark : before.markTiles()) {
    const bool was = before.tile(mark).hasMark(), is = after.tile(mark).hasMark();
    if (is && after.tile(mark).kind() == TileKind::Wall) return "active mark on a wall";
    if (is && after.tile(mark).isUnknown() && !regionAlive(after, mark))
      return "mark " + where(after, mark) + " alive in a dead region";
    if (was && !is && after.tile(mark).isUnknown() && regionAlive(after, mark))
      return "mark " + where(after, mark) + " vanished from a live region";
  }
  return "";
}

// Plays random games (natural environment; the explorer greedy on value or random) and calls
// `atNode` at every node before acting.
template <typename Visit>
void playRandomGames(const Json& params, int games, Visit atNode) {
  const auto game = makeMaze(params);
  for (int g = 0; g < games; ++g) {
    const auto start = game->newGame(1000 + g);
    MazeState s = *dynamic_cast<const MazeState*>(start.get());
    Rng rng(77 + g);
    std::vector<Outcome> outcomes;
    while (!s.isTerminal()) {
      atNode(s);
      if (s.actor() == kEnvironment) {
        s.outcomes(outcomes);
        s.apply(sampleOutcome(outcomes, rng));
        continue;
      }
      const Actions actions = legal(s);
      Action chosen = actions[rng.below(static_cast<uint32_t>(actions.size()))];
      if (g % 2 == 0)
        for (Action a : actions)
          if (s.valueAfter(a) > s.valueAfter(chosen)) chosen = a;
      s.apply(chosen);
    }
    atNode(s);
  }
}

}  // namespace

TEST_CASE("Maze: start tile, four closed plain doors facing outwards, marks far away", "[maze]") {
  for (const auto& [w, h] : {std::pair{41, 41}, std::pair{11, 11}, std::pair{12, 15}}) {
    const Json params = {{"width", w}, {"height", h}, {"bombs", 5}};
    for (uint64_t seed : {1, 2, 3}) {
      const MazeState s = newMaze(params, seed);
      const int cx = w / 2, cy = h / 2;
      CHECK(s.player() == s.index(cx, cy));
      CHECK(s.tileAt(cx, cy).kind() == TileKind::Floor);
      CHECK(s.actor() == 0);
      CHECK(s.roundsCompleted() == 0);
      CHECK(s.stepsLeft() == 400);
      Actions doors;
      for (int d = 0; d < 4; ++d) {
        const int at = s.index(cx + maze::kDx[d], cy + maze::kDy[d]);
        const Tile t = s.tile(at);
        CHECK(t.isClosedDoor());
        CHECK(t.colour() == DoorColour::Plain);
        CHECK(t.direction() == d);  // facing away from the start tile
        CHECK(s.costOf(at) == 1);
        doors.push_back(at);
      }
      std::sort(doors.begin(), doors.end());
      CHECK(legal(s) == doors);
      CHECK(s.unknownTiles() == (w - 2) * (h - 2) - 5);
      REQUIRE(s.markTiles().size() == 5);
      CHECK(s.activeMarks() == 5);
      for (int mark : s.markTiles()) {
        CHECK(s.tile(mark).isUnknown());
        CHECK(s.tile(mark).hasMark());
        CHECK(std::abs(s.xOf(mark) - cx) + std::abs(s.yOf(mark) - cy) >= 5);
      }
      CHECK(std::set<int>(s.markTiles().begin(), s.markTiles().end()).size() == 5);
      // The border is wall.
      for (int x = 0; x < w; ++x) CHECK(s.tileAt(x, 0).kind() == TileKind::Wall);
      for (int y = 0; y < h; ++y) CHECK(s.tileAt(w - 1, y).kind() == TileKind::Wall);
    }
  }
  // The seed places the marks: same seed, same marks; another seed, other marks.
  const MazeState a = newMaze(Json(), 5), b = newMaze(Json(), 5), c = newMaze(Json(), 6);
  CHECK(a.toString() == b.toString());
  CHECK(a.toString() != c.toString());
}

TEST_CASE("Maze: a constructed 11x11 maze is drawn as built", "[maze]") {
  const MazeState s = construct(kRing, 40);
  CHECK(s.toString() == joined(kRing) +
                            "steps left 40, marks left 2 (defused 0, vanished 0), round 0: "
                            "explorer to move, 3 actions");
  CHECK(s.player() == s.index(1, 8));
  CHECK(s.tile(kRingD).direction() == 0);  // north, away from the floor below it
  CHECK(s.tile(kRingB).direction() == 2);  // south, towards the border
  CHECK(s.tile(kRingR).colour() == DoorColour::Red);
  CHECK(s.unknownTiles() == 19);
  CHECK(legal(s) == Actions{kRingD, kRingR, kRingB});
  CHECK(s.actionToString(kRingD) == "open plain door (5,2), 10 steps");
  CHECK(s.actionToString(kRingR) == "open red door (5,7), 5 steps -10");
  CHECK(s.actionToString(kRingB) == "open blue door (5,9), 5 steps +10");
  CHECK_THROWS_AS(MazeState::fromRows(plainDoors(), 1, Rows{"###", "#?#", "###"}, 5),
                  std::invalid_argument);  // no explorer
}

TEST_CASE("Maze: heuristics value and gain", "[maze]") {
  const MazeState s = construct(kRing, 40);
  // Marks (6,1) and (3,5) from (1,8): distances 12 and 5.
  CHECK(s.nearestMarkDistance() == 5);
  CHECK(s.sumMarkDistance() == 17);
  CHECK(s.value(0) == 40 - 10 * 5 - 220 * 2);
  CHECK(s.gain(0) == 40 - 1.5 * 17 - 0.5 * 19);
  // valueAfter is the value of the state the action leads to.
  for (Action a : legal(s)) CHECK(s.valueAfter(a) == applied(s, a).value(0));
  // The default defuse weight is 10 (width + height); the thesis set-up pins 0.
  CHECK(newMaze(Json(), 1).config().defuseWeight == 820);
  CHECK(newMaze(Json{{"width", 11}, {"height", 21}}, 1).config().defuseWeight == 320);
  CHECK(newMaze(Json{{"defuse_weight", 0}}, 1).config().defuseWeight == 0);
}

TEST_CASE("Maze: path costs are shortest known paths", "[maze]") {
  const MazeState s = construct(kRing, 40);
  CHECK(s.costOf(kRingB) == 5);
  CHECK(s.costOf(kRingR) == 5);
  CHECK(s.costOf(kRingD) == 10);  // up and along the top, not round the bottom (18)
  // From the door D the ring is walked the other way: D -> (5,3) -> (1,3) -> (1,8) -> (5,8).
  const MazeState afterD = applied(applied(s, kRingD), outcomeCodes(applied(s, kRingD))[0]);
  CHECK(afterD.player() == kRingD);
  CHECK(afterD.costOf(kRingR) == 15);
  CHECK(afterD.costOf(kRingB) == 15);
  // Random games: the legal actions and costs are exactly those of an independent search.
  int decisions = 0;
  playRandomGames(Json{{"width", 25}, {"height", 21}}, 20, [&](const MazeState& m) {
    if (m.actor() != 0) return;
    ++decisions;
    std::vector<std::pair<Action, int>> got;
    for (Action a : legal(m)) got.push_back({a, m.costOf(a)});
    REQUIRE(got == expectedTargets(m));
  });
  CHECK(decisions > 100);
}

// valueAfter (the greedy replies' hot path: a remembered position in the targets, the marks'
// coordinates kept) is the value of the state the move leads to, in whatever order the
// actions are asked, and that value's mark distance is the Manhattan distance worked out here.
TEST_CASE("Maze: valueAfter equals the value after the move, asked in any order", "[maze]") {
  int decisions = 0, valuesChecked = 0;
  const auto nearestMark = [](const MazeState& m) {
    int nearest = 0;
    for (int mark : m.markTiles())
      if (m.tile(mark).hasMark()) {
        const int d = std::abs(mark % m.width() - m.player() % m.width()) +
                      std::abs(mark / m.width() - m.player() / m.width());
        nearest = nearest == 0 ? d : std::min(nearest, d);
      }
    return nearest;
  };
  playRandomGames(Json{{"width", 25}, {"height", 21}}, 20, [&](const MazeState& m) {
    if (m.actor() != 0) return;
    ++decisions;
    Actions actions = legal(m);
    std::vector<double> expected;
    for (Action a : actions) {
      const MazeState next = applied(m, a);
      REQUIRE(next.nearestMarkDistance() == nearestMark(next));
      expected.push_back(next.value(0));
    }
    for (int pass = 0; pass < 3; ++pass) {  // in order, reversed, and every other one
      for (size_t i = 0; i < actions.size(); ++i) {
        const size_t k =
            pass == 1 ? actions.size() - 1 - i : (pass == 2 ? i * 2 % actions.size() : i);
        REQUIRE(m.valueAfter(actions[k]) == expected[k]);
        ++valuesChecked;
      }
    }
  });
  CHECK(decisions > 100);
  CHECK(valuesChecked > 3000);
}

TEST_CASE("Maze: an action needing more steps than left is illegal", "[maze]") {
  CHECK(legal(construct(kRing, 40)) == Actions{kRingD, kRingR, kRingB});
  // D costs 10; R costs 5 plus its penalty 10 (the penalty counts for legality).
  CHECK(legal(construct(kRing, 15)) == Actions{kRingD, kRingR, kRingB});
  CHECK(legal(construct(kRing, 14)) == Actions{kRingD, kRingB});
  CHECK(legal(construct(kRing, 9)) == Actions{kRingB});
  CHECK(construct(kRing, 9).costOf(kRingD) == -1);
  // Nothing affordable: the game is lost at once.
  const MazeState broke = construct(kRing, 4);
  CHECK(broke.isTerminal());
  CHECK(broke.lost());
  CHECK(broke.winner() == -1);
  CHECK(legal(broke).empty());
}

TEST_CASE("Maze: blue and red doors change the steps", "[maze]") {
  const MazeState s = construct(kRing, 40);
  const MazeState blue = applied(s, kRingB);  // 5 steps, +10
  CHECK(blue.stepsLeft() == 45);
  const MazeState red = applied(s, kRingR);  // 5 steps, -10
  CHECK(red.stepsLeft() == 25);
  const MazeState plain = applied(s, kRingD);  // 10 steps
  CHECK(plain.stepsLeft() == 30);
  // Exactly enough for a red door: the steps end at 0, never below.
  const MazeState tight = applied(construct(kRing, 15), kRingR);
  CHECK(tight.stepsLeft() == 0);
  CHECK_FALSE(tight.isTerminal());  // the corridor comes first: it may resolve the marks
  CHECK(tight.actor() == kEnvironment);
}

TEST_CASE("Maze: rounds end with the explorer's action, the corridor opens the next round",
          "[maze]") {
  const MazeState s = construct(kRing, 40);
  // B faces the border: nothing unknown behind it, no environment event.
  const MazeState blue = applied(s, kRingB);
  CHECK(blue.roundsCompleted() == 1);
  CHECK(blue.actor() == 0);
  CHECK(blue.player() == kRingB);
  CHECK(blue.pendingDoor() == -1);
  CHECK(blue.tile(kRingB).open());
  // D has one unknown tile behind it: the explorer is scored, then the environment builds.
  const MazeState opened = applied(s, kRingD);
  CHECK(opened.roundsCompleted() == 1);
  CHECK(opened.actor() == kEnvironment);
  CHECK(opened.pendingDoor() == kRingD);
  CHECK(legal(opened).empty());
  const MazeState built = applied(opened, outcomeCodes(opened)[0]);
  CHECK(built.roundsCompleted() == 1);  // the corridor belongs to round 2
  CHECK(built.actor() == 0);
  CHECK(applied(built, kRingB).roundsCompleted() == 2);
}

TEST_CASE("Maze: outcomes of a constructed door, uniform, realised as drawn", "[maze]") {
  const MazeState s = construct(kRing, 40);
  // D: room 1, so only bucket 4 (length 1); the right side tile holds a mark (no door there).
  CHECK(outcomeCodes(applied(s, kRingD)) == Actions{27, 30});
  // R: room 2 -> buckets 2 (length 1) and 4 (length 2); every side tile may take a door
  // except second halves of length 1 (empty).
  const MazeState red = applied(s, kRingR);
  CHECK(red.roomAhead(kRingR) == 2);
  CHECK(outcomeCodes(red) == Actions{9, 10, 12, 13, 27, 28, 29, 30, 31, 32, 33, 34, 35});
  std::vector<Outcome> outcomes;
  red.outcomes(outcomes);
  for (const auto& o : outcomes) CHECK(o.probability == Approx(1.0 / 13));
  const Corridor c = red.corridorFor(maze::outcomeCode(4, Segment::FirstHalf, Segment::SecondHalf));
  CHECK(c.room == 2);
  CHECK(c.length == 2);
  CHECK(c.leftDoor == 1);
  CHECK(c.rightDoor == 2);
  CHECK_FALSE(c.endDoor);
  CHECK(red.corridorFor(9).length == 1);
  // Bucket 4, left door in the 1st half (at 1), right door in the 2nd half (at 2).
  const MazeState built = applied(red, 32);
  CHECK(drawing(built) == joined({
                              "###########",  //
                              "#?????*???#",  //
                              "#####D#####",  //
                              "#.........#",  //
                              "#.#######.#",  //
                              "#.#*#.D?#.#",  //
                              "#.#?D.#?#.#",  //
                              "#.###@###.#",  //
                              "#.........#",  //
                              "#####B#####",  //
                              "###########",
                          }));
  CHECK(built.activeMarks() == 2);  // the pocket mark is faced by the new left door
}

TEST_CASE("Maze: the same outcome in the same state always builds the same corridor", "[maze]") {
  const MazeState a = applied(newMaze(Json(), 7), newMaze(Json(), 7).index(21, 20));
  const MazeState b = applied(newMaze(Json(), 7), newMaze(Json(), 7).index(21, 20));
  REQUIRE(a.actor() == kEnvironment);
  CHECK(a.roomAhead(a.pendingDoor()) == 18);  // x = 22..39
  const Actions codes = outcomeCodes(a);
  CHECK(codes == outcomeCodes(b));
  CHECK(codes.size() <= 36);
  CHECK(codes.size() >= 20);  // an open board: most combinations have room for their doors
  std::set<int> lengths;
  for (Action o : codes) {
    CHECK(applied(a, o).toString() == applied(b, o).toString());
    lengths.insert(a.corridorFor(o).length);
  }
  CHECK(lengths.size() > 4);  // the lengths inside a bucket vary with the outcome
  // Another game seed realises the same outcome differently somewhere.
  const MazeState other = applied(newMaze(Json(), 8), newMaze(Json(), 8).index(21, 20));
  bool differs = false;
  for (Action o : codes) differs |= drawing(applied(a, o)) != drawing(applied(other, o));
  CHECK(differs);
}

TEST_CASE("Maze: corridors never overwrite known tiles, stay inside, one door per side", "[maze]") {
  int nodes = 0, outcomesChecked = 0;
  const auto check = [&](const MazeState& s) {
    if (s.actor() != kEnvironment) return;
    ++nodes;
    std::vector<Outcome> outcomes;
    s.outcomes(outcomes);
    REQUIRE_FALSE(outcomes.empty());
    REQUIRE(outcomes.size() <= 36);
    double sum = 0;
    std::set<Action> distinct;
    for (const auto& o : outcomes) {
      REQUIRE(o.probability == outcomes[0].probability);
      REQUIRE(o.action >= 0);
      REQUIRE(o.action < 36);
      sum += o.probability;
      distinct.insert(o.action);
      const std::string violation = corridorViolation(s, o.action);
      INFO(s.toString() << "\noutcome " << s.actionToString(o.action));
      REQUIRE(violation == "");
      ++outcomesChecked;
    }
    REQUIRE(distinct.size() == outcomes.size());
    REQUIRE(sum == Approx(1.0));
  };
  playRandomGames(Json(), 12, check);
  playRandomGames(Json{{"width", 11}, {"height", 11}, {"end_door_prob", 1.0}}, 30, check);
  CHECK(nodes > 200);
  CHECK(outcomesChecked > 2000);
}

// An environment node whose outcomes were listed knows the explorer's targets over the region
// the door opened, and each corridor extends them instead of searching afresh: the actions and
// their costs must be those of a state that never listed them, and the shortest known paths.
TEST_CASE("Maze: targets extended by a corridor equal those searched afresh", "[maze]") {
  int outcomesChecked = 0, targetsChecked = 0;
  const auto check = [&](const MazeState& s) {
    if (s.actor() != kEnvironment) return;
    const MazeState fresh = s;  // nothing listed: the targets are searched after the corridor
    MazeState listed = s;
    std::vector<Outcome> outcomes;
    listed.outcomes(outcomes);
    for (const auto& o : outcomes) {
      const MazeState a = applied(fresh, o.action), b = applied(listed, o.action);
      INFO(s.toString() << "\noutcome " << s.actionToString(o.action));
      REQUIRE(legal(b) == legal(a));
      const std::vector<int> dist = distancesFromPlayer(a);
      for (Action t : legal(b)) {
        REQUIRE(b.costOf(t) == a.costOf(t));
        if (b.tile(t).hasMark()) REQUIRE(b.costOf(t) == dist[t]);
        ++targetsChecked;
      }
      ++outcomesChecked;
    }
  };
  playRandomGames(Json(), 12, check);
  playRandomGames(Json{{"width", 11}, {"height", 11}, {"end_door_prob", 1.0}}, 30, check);
  CHECK(outcomesChecked > 2000);
  CHECK(targetsChecked > 10000);

  // A corridor that ends against the known floor opens a shortcut: the mark at (1,1) costs 13
  // steps round the loop from (3,4), and 4 from the door through the corridor (3,2).
  const MazeState loop = construct(Rows{"#########",  //
                                        "#+......#",  //
                                        "###?###.#",  //
                                        "###D###.#",  //
                                        "#..@....#",  //
                                        "#########"},
                                   40);
  const Action mark = 1 * 9 + 1, door = 3 * 9 + 3;
  CHECK(loop.costOf(mark) == 13);
  MazeState opened = applied(loop, door);
  CHECK(outcomeCodes(opened) == Actions{27});  // room 1: one corridor of length 1
  CHECK(applied(opened, 27).costOf(mark) == 4);
}

TEST_CASE("Maze: a mark walled in or enclosed vanishes, one on a corridor is reachable", "[maze]") {
  const MazeState s = construct(kRing, 40);
  // D's corridor walls its side tiles: the mark at (6,1) was fake.
  const MazeState walled = applied(applied(s, kRingD), 27);
  CHECK(walled.tileAt(6, 1).kind() == TileKind::Wall);
  CHECK(walled.activeMarks() == 1);
  CHECK(walled.vanishedMarks() == 1);
  // R's corridor of length 2 without a left door cuts the pocket at (3,5)-(3,6) off from
  // every closed door: the mark there vanishes although its tile stays unknown.
  const MazeState enclosed = applied(applied(s, kRingR), 27);
  CHECK(enclosed.tileAt(3, 5).isUnknown());
  CHECK_FALSE(enclosed.tileAt(3, 5).hasMark());
  CHECK(enclosed.activeMarks() == 1);
  // With a left door facing the pocket, the mark stays.
  CHECK(applied(applied(s, kRingR), 30).activeMarks() == 2);
  // Constructed: an unknown pocket no door faces loses its mark at once.
  Rows pocket = kRing;
  pocket[7] = "#.#######.#";
  CHECK(construct(pocket, 40).activeMarks() == 1);

  // A column of room 4 with a mark on its 2nd tile: bucket 2 (length 2) puts it on the
  // corridor, bucket 1 (length 1) walls it as the corridor's end.
  const MazeState column = applied(construct(kColumn, 20), kColumnDoor);
  CHECK(column.roomAhead(kColumnDoor) == 4);
  const MazeState onCorridor = applied(column, 9);
  CHECK(onCorridor.tile(kColumnMark).kind() == TileKind::Floor);
  CHECK(onCorridor.tile(kColumnMark).hasMark());
  CHECK(onCorridor.activeMarks() == 1);
  CHECK(legal(onCorridor) == Actions{kColumnMark});
  CHECK(onCorridor.costOf(kColumnMark) == 2);
  CHECK(onCorridor.actionToString(kColumnMark) == "defuse mark (5,3), 2 steps");
  const MazeState atEnd = applied(column, 0);
  CHECK(atEnd.tile(kColumnMark).kind() == TileKind::Wall);
  CHECK(atEnd.activeMarks() == 0);
}

TEST_CASE("Maze: the game ends in a win exactly when every mark is resolved", "[maze]") {
  // Defusing the last mark wins with the explorer's round.
  const MazeState column = applied(applied(construct(kColumn, 20), kColumnDoor), 9);
  const MazeState defused = applied(column, kColumnMark);
  CHECK(defused.won());
  CHECK(defused.winner() == 0);
  CHECK(defused.isTerminal());
  CHECK(defused.stepsLeft() == 17);  // 20 - 1 (door) - 2 (walk)
  CHECK(defused.defusedMarks() == 1);
  CHECK(defused.roundsCompleted() == 2);
  CHECK(defused.gain(0) == 17);  // no distance term, no unknown term after a win
  // The last mark vanishing at a corridor wins there, and that closes the round.
  const MazeState vanished = applied(applied(construct(kColumn, 20), kColumnDoor), 0);
  CHECK(vanished.won());
  CHECK(vanished.roundsCompleted() == 2);
  CHECK(vanished.gain(0) == 19);
  // Even with no step left: every mark resolved while steps >= 0.
  CHECK(applied(applied(construct(kColumn, 1), kColumnDoor), 0).won());
  // No step left and the mark still there: lost at the corridor.
  const MazeState stranded = applied(applied(construct(kColumn, 1), kColumnDoor), 9);
  CHECK(stranded.lost());
  CHECK(stranded.isTerminal());
  CHECK(stranded.activeMarks() == 1);
  CHECK(stranded.roundsCompleted() == 2);
  // The ring: both marks vanish (walled, then enclosed) and the game is won at R's corridor.
  const MazeState ring = applied(applied(applied(construct(kRing, 40), kRingD), 27), kRingR);
  CHECK(ring.stepsLeft() == 5);  // 40 - 10 - 15 - 10
  const MazeState ringWon = applied(ring, 27);
  CHECK(ringWon.won());
  CHECK(ringWon.roundsCompleted() == 3);
  // Random games: terminal <=> won or no legal action; won <=> no active mark.
  int wins = 0, losses = 0;
  playRandomGames(Json{{"width", 21}, {"height", 21}}, 40, [&](const MazeState& m) {
    REQUIRE(m.won() == (m.isTerminal() && m.activeMarks() == 0));
    REQUIRE(m.activeMarks() + m.defusedMarks() + m.vanishedMarks() == 6);
    REQUIRE(m.stepsLeft() >= 0);
    if (m.actor() == 0) REQUIRE_FALSE(legal(m).empty());
    if (m.lost()) REQUIRE(expectedTargets(m).empty());
    if (m.isTerminal()) (m.won() ? wins : losses) += 1;
    REQUIRE(m.winner() == (m.won() ? 0 : -1));
    REQUIRE_FALSE(m.capped());
  });
  CHECK(wins > 0);
  CHECK(losses > 0);
}

TEST_CASE("Maze: door colours are fixed per position by the seed", "[maze]") {
  const MazeState a = newMaze(Json(), 11), b = newMaze(Json(), 11), c = newMaze(Json(), 12);
  int blue = 0, red = 0, differs = 0;
  const int n = a.width() * a.height();
  for (int i = 0; i < n; ++i) {
    CHECK(a.colourAt(i) == b.colourAt(i));
    blue += a.colourAt(i) == DoorColour::Blue;
    red += a.colourAt(i) == DoorColour::Red;
    differs += a.colourAt(i) != c.colourAt(i);
  }
  CHECK(blue / double(n) == Approx(0.1).margin(0.025));
  CHECK(red / double(n) == Approx(0.1).margin(0.025));
  CHECK(differs > 0);
  const MazeState noRed = newMaze(Json{{"red_prob", 0.0}, {"blue_prob", 1.0}}, 11);
  for (int i = 0; i < n; ++i) CHECK(noRed.colourAt(i) == DoorColour::Blue);
}

TEST_CASE("Maze: believability from the corridor lengths", "[maze]") {
  // Three corridors of length 1 (bin {1}): counts 3,0,0,0,0 against the even 1,1,1,0,0.
  // The mark at (9,3) stays in reach behind the east door, so the game goes on.
  const Rows rows = {
      "###########",  //
      "#?#?#?#####",  //
      "#D#D#D#####",  //
      "#...@...D*#",  //
      "###########",  //
      "###########",  //
      "###########",  //
      "###########",  //
      "###########",  //
      "###########",  //
      "###########",
  };
  MazeConfig config = plainDoors();
  config.believabilityThreshold = 0;
  MazeState s = construct(rows, 50, config);
  for (int x : {1, 3, 5}) {
    s.apply(s.index(x, 2));
    REQUIRE(s.actor() == kEnvironment);
    REQUIRE(outcomeCodes(s) == Actions{27});  // room 1, no place for side doors
    s.apply(27);
  }
  CHECK(s.lengthCounts() == std::array<int, 6>{3, 0, 0, 0, 0, 0});
  // var(3,0,0,0,0) = 1.44, var(1,1,1,0,0) = 0.24.
  CHECK(s.believability() == Approx(1.2));
  // Random games: every corridor counted in its bin; 1000 per corridor of 10 or more plus
  // belPC of the first five bins.
  const auto game = makeMaze(Json());
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    MazeState m = *dynamic_cast<const MazeState*>(game->newGame(seed).get());
    std::array<int, 6> expected{};
    Rng rng(seed);
    std::vector<Outcome> outcomes;
    while (!m.isTerminal()) {
      if (m.actor() == kEnvironment) {
        m.outcomes(outcomes);
        const Action o = sampleOutcome(outcomes, rng);
        const int length = m.corridorFor(o).length;
        ++expected[length == 1   ? 0
                   : length <= 3 ? 1
                   : length <= 5 ? 2
                   : length <= 7 ? 3
                   : length <= 9 ? 4
                                 : 5];
        m.apply(o);
      } else {
        const Actions actions = legal(m);
        m.apply(actions[rng.below(static_cast<uint32_t>(actions.size()))]);
      }
    }
    CHECK(m.lengthCounts() == expected);
    CHECK(m.believability() ==
          Approx(1000.0 * expected[5] + belPC(std::span(expected.data(), 5), 1.0)));
  }
}

TEST_CASE("Maze: the explorer's best reply for maze-building opponents", "[maze]") {
  const MazeState s = construct(kRing, 40);
  double best = -1e300;
  for (Action a : legal(s)) best = std::max(best, applied(s, a).value(0));
  CHECK(maze::explorerBestReply(s) == best);
  // At an environment node: minus the best reply after each outcome.
  const MazeState red = applied(s, kRingR);
  std::vector<Outcome> outcomes;
  red.outcomes(outcomes);
  std::vector<double> scores(outcomes.size());
  maze::scoreOutcomesForOpponent(red, outcomes, scores);
  for (size_t i = 0; i < outcomes.size(); ++i)
    CHECK(scores[i] == -maze::explorerBestReply(applied(red, outcomes[i].action)));
  // Where the explorer does not decide, its own value.
  CHECK(maze::explorerBestReply(red) == red.value(0));
  const MazeState won = applied(applied(construct(kColumn, 20), kColumnDoor), 0);
  CHECK(maze::explorerBestReply(won) == won.value(0));
}

TEST_CASE("Maze: parameters are validated with the parameter's name", "[maze]") {
  const GameInfo info = maze::gameInfo();
  const auto make = [&](const Json& given) {
    return info.make(validateParams(info.params, given, "params"));
  };
  CHECK_NOTHROW(make(Json()));
  CHECK_NOTHROW(make(Json{{"width", 11}, {"height", 11}}));
  const auto failsNaming = [&](const Json& given, const std::string& name) {
    try {
      make(given);
    } catch (const InputError& e) {
      return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
  };
  CHECK(failsNaming(Json{{"width", 10}}, "width"));
  CHECK(failsNaming(Json{{"blue_prob", 0.6}, {"red_prob", 0.5}}, "red_prob"));
  CHECK(failsNaming(Json{{"width", 11}, {"height", 11}, {"min_bomb_distance", 9}}, "bombs"));
  CHECK(failsNaming(Json{{"defuse_weight", -0.5}}, "defuse_weight"));
  CHECK(failsNaming(Json{{"end_door_prob", 1.5}}, "end_door_prob"));
  MazeConfig bad;
  bad.height = 200;
  CHECK_THROWS_AS(maze::MazeGame(bad), InputError);
}
