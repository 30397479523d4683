#pragma once
// Maze (spec games/maze.md): one explorer checks the bomb marks of a maze that does not exist
// in advance; the environment builds one straight corridor behind every door the explorer opens.
//
// Rounds: a round is one turn of the explorer. It starts with the environment building the
// corridor behind the door opened in the previous round (if that door has unknown tiles behind
// it) and ends right after the explorer's action, so the explorer is scored before the corridor
// is built. A game that ends at a corridor (every mark resolved, or no legal action left) ends
// that round there.
//
// Action ids. Explorer: the tile index y * width + x of the closed door to open or of the mark
// to walk to. Environment: outcome code (bucket - 1) * 9 + left * 3 + right with bucket 1..4 the
// length quarter of the room and left/right a Segment (none, first half, second half).
//
// toString draws the grid row by row: '#' wall, '.' floor, '?' unknown, 'D'/'B'/'R' closed
// plain/blue/red doors, 'd'/'b'/'r' open ones, '*' a mark on an unknown tile, '+' a mark on
// floor (reachable), '@' the explorer; then a status line (steps left, marks left, round, who
// acts).
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/params.h"
#include "core/registry.h"
#include "core/state.h"
#include "core/state_copy.h"

namespace ddalab::maze {

inline constexpr int kMinSide = 11;
inline constexpr int kMaxSide = 101;
inline constexpr int kMaxBombs = 32;
inline constexpr int kLengthBuckets = 4;
inline constexpr int kSegmentChoices = 3;
inline constexpr int kMaxOutcomes = kLengthBuckets * kSegmentChoices * kSegmentChoices;
inline constexpr int kLengthBins = 6;  // corridor lengths {1},{2-3},{4-5},{6-7},{8-9},{>=10}

enum class TileKind : uint8_t { Unknown, Wall, Floor, Door };
enum class DoorColour : uint8_t { Plain, Blue, Red };
enum class Segment : uint8_t { None, FirstHalf, SecondHalf };

// Directions 0..3 = north, east, south, west; y grows downwards as printed.
inline constexpr std::array<int, 4> kDx = {0, 1, 0, -1};
inline constexpr std::array<int, 4> kDy = {-1, 0, 1, 0};
constexpr int leftOf(int direction) {
  return (direction + 3) % 4;
}
constexpr int rightOf(int direction) {
  return (direction + 1) % 4;
}

// One byte per tile: kind, door colour, door open, door direction (the way it faces, away from
// the floor it was made from) and whether an active bomb mark lies on it.
// Trivial (copies of a maze are a memcpy): `Tile{}` is an unknown tile, `Tile t;` is unset.
class Tile {
 public:
  Tile() = default;
  // A tile of `kind` without door attributes or mark.
  static constexpr Tile of(TileKind kind) { return Tile(static_cast<uint8_t>(kind)); }
  // A door of `colour` facing `direction`.
  static constexpr Tile door(DoorColour colour, int direction, bool open) {
    return Tile(static_cast<uint8_t>(static_cast<int>(TileKind::Door) |
                                     (static_cast<int>(colour) << 2) | (open ? kOpenBit : 0) |
                                     (direction << 5)));
  }

  constexpr TileKind kind() const { return static_cast<TileKind>(bits_ & 3); }
  constexpr DoorColour colour() const { return static_cast<DoorColour>((bits_ >> 2) & 3); }
  constexpr bool open() const { return bits_ & kOpenBit; }
  constexpr int direction() const { return (bits_ >> 5) & 3; }
  constexpr bool hasMark() const { return bits_ & kMarkBit; }
  constexpr bool isUnknown() const { return kind() == TileKind::Unknown; }
  constexpr bool isClosedDoor() const { return kind() == TileKind::Door && !open(); }
  // Floor or a door, open or closed (one bit test: the searches' innermost check).
  constexpr bool isFloorOrDoor() const { return bits_ & 2; }
  // Floor or an open door: the explorer can walk over it.
  constexpr bool isPassable() const {
    return kind() == TileKind::Floor || (kind() == TileKind::Door && open());
  }
  // This tile with the door opened.
  constexpr Tile opened() const { return Tile(bits_ | kOpenBit); }
  // This tile with an active mark on it (or without).
  constexpr Tile withMark(bool mark) const {
    return Tile(mark ? (bits_ | kMarkBit) : (bits_ & ~kMarkBit));
  }
  constexpr bool operator==(const Tile&) const = default;

 private:
  static constexpr uint8_t kOpenBit = 1 << 4;
  static constexpr uint8_t kMarkBit = 1 << 7;
  constexpr explicit Tile(uint8_t bits) : bits_(bits) {}
  uint8_t bits_;
};
static_assert(std::is_trivial_v<Tile>);
static_assert(static_cast<int>(TileKind::Floor) == 2 && static_cast<int>(TileKind::Door) == 3,
              "Tile::isFloorOrDoor tests the kind's bit 1");

struct MazeConfig {
  int width = 41;
  int height = 41;
  int bombs = 6;
  int minBombDistance = 5;  // Manhattan distance of every mark from the start
  int maxSteps = 400;
  double blueProb = 0.1;
  double redProb = 0.1;
  int doorBonus = 10;
  int doorPenalty = 10;
  double endDoorProb = 0.5;
  double defuseWeight = 820;  // resolved: the parameter's -1 becomes 10 * (width + height)
  double unknownWeight = 0.5;
  double believabilityThreshold = 1.0;
};

// Throws InputError naming the parameter ("params.<name>") when `config` cannot make a game.
void validate(const MazeConfig& config);

// The exact corridor an environment outcome builds behind a door.
struct Corridor {
  int door = -1;         // tile index of the opened door
  int direction = 0;     // the door's direction: the corridor runs this way
  int room = 0;          // unknown tiles in a row ahead of the door
  int bucket = 0;        // length quarter 1..4
  int length = 0;        // corridor tiles, 1..room
  int leftDoor = 0;      // 1..length: corridor tile with a door on its left; 0 = none
  int rightDoor = 0;     // likewise on the right
  bool endDoor = false;  // the tile after the corridor is a door (else a wall, or room is full)
};

// Environment outcome code of (bucket 1..4, left segment, right segment).
constexpr Action outcomeCode(int bucket, Segment left, Segment right) {
  return (bucket - 1) * 9 + static_cast<int>(left) * 3 + static_cast<int>(right);
}

class MazeState final : public State {
 public:
  // A new game: the start with its four closed plain doors, the marks and the door colours
  // all come from `seed`.
  MazeState(const MazeConfig& config, uint64_t seed);
  // A constructed position (tests): rows as toString draws them ('#' wall, '.' floor, '?'
  // unknown, 'D'/'B'/'R' closed and 'd'/'b'/'r' open plain/blue/red doors, '*' a mark on an
  // unknown tile, '+' a mark on floor, '@' the explorer on floor). A closed door faces away
  // from its only passable neighbour. `config` gives everything but the size, `seed` the
  // colours of future doors and the corridors. Throws std::invalid_argument on a bad drawing.
  static MazeState fromRows(MazeConfig config, uint64_t seed, std::span<const std::string> rows,
                            int stepsLeft);

  std::unique_ptr<State> clone() const override { return std::make_unique<MazeState>(*this); }
  bool assign(const State& other) override { return assignSameClass(*this, other); }
  int numPlayers() const override { return 1; }
  int actor() const override;
  void legalActions(std::vector<Action>& out) const override;
  void outcomes(std::vector<Outcome>& out) const override;
  void apply(Action action) override;
  int winner() const override { return won_ ? 0 : -1; }
  bool capped() const override { return false; }  // steps bound every game
  double gain(int p) const override;
  bool playersCanDropOut() const override { return false; }
  double value(int p) const override;
  int roundsCompleted() const override { return rounds_; }
  double believability() const override;
  // The explorer: every corridor is built for them.
  int chanceRecipient() const override { return 0; }
  bool isPass(Action) const override { return false; }
  std::string actionToString(Action action) const override;
  std::string toString() const override;
  // The grid as the explorer sees it (every tile built so far, the marks), the explorer, the
  // steps and marks left (docs/web-api.md); never the seed that colours future doors.
  Json observationJson(int player) const override;
  // {"verb": "open" (a closed door) or "defuse" (a mark), "x", "y", "steps"} (docs/web-api.md).
  Json actionJson(Action action) const override;
  // scoreOutcomesForOpponent: minus the explorer's best one-move reply after each outcome.
  bool scoreOutcomesAsOpponent(std::span<const Outcome> outcomes,
                               std::span<double> scores) const override;

  const MazeConfig& config() const { return config_; }
  // Grid size and tile indices: index = y * width + x.
  int width() const { return config_.width; }
  int height() const { return config_.height; }
  int index(int x, int y) const { return y * config_.width + x; }
  int xOf(int index) const { return index % config_.width; }
  int yOf(int index) const { return index / config_.width; }
  // The tile at an index / at (x, y).
  Tile tile(int index) const { return tiles_[index]; }
  Tile tileAt(int x, int y) const { return tiles_[index(x, y)]; }
  // Tile index of the explorer.
  int player() const { return player_; }
  // Steps the explorer has left (never below 0).
  int stepsLeft() const { return steps_; }
  // Marks neither defused nor vanished.
  int activeMarks() const { return active_; }
  // Marks the explorer walked to / that turned out fake (walled in or enclosed).
  int defusedMarks() const { return defused_; }
  int vanishedMarks() const { return markCount_ - active_ - defused_; }
  // Tile indices of all marks of the game, in the order they were placed.
  std::span<const int> markTiles() const { return std::span(markTiles_.data(), markCount_); }
  // Unknown tiles of the grid (the gain's exploration term).
  int unknownTiles() const { return unknown_; }
  // The game ended with every mark resolved / with marks left and no affordable action.
  bool won() const { return won_; }
  bool lost() const { return !won_ && pending_ < 0 && targets().empty(); }
  // The open door whose corridor the environment builds next; -1 when none is due.
  int pendingDoor() const { return pending_; }

  // Steps `action` of the explorer costs (shortest known path; red penalty not included),
  // or -1 when it is not a legal action now.
  int costOf(Action action) const;
  // The explorer's value(0) after `action` (== copy, apply, value), without copying.
  double valueAfter(Action action) const;
  std::optional<double> valueAfter(Action action, int) const override { return valueAfter(action); }
  // Unknown tiles in a row ahead of the door at `doorTile`.
  int roomAhead(int doorTile) const;
  // The corridor `outcome` builds behind the pending door (same state, same corridor).
  Corridor corridorFor(Action outcome) const;
  // Colour of a door at `tileIndex`, fixed per position by the game seed.
  DoorColour colourAt(int tileIndex) const;
  // How many corridors of each length bin were built: {1},{2-3},{4-5},{6-7},{8-9},{>=10}.
  const std::array<int, kLengthBins>& lengthCounts() const { return lengthCounts_; }
  // Manhattan distance from the explorer to the nearest active mark (0 when none).
  int nearestMarkDistance() const { return nearestMarkDistanceFrom(player_, -1); }
  // Sum of the Manhattan distances from the explorer to the active marks.
  int sumMarkDistance() const;

 private:
  struct Target {
    int tile;
    int cost;
  };
  struct CorridorSite;  // a door's room and where side doors may go (corridor.cpp)

  MazeState(const MazeConfig& config, uint64_t seed, bool);  // empty bordered board
  int delta(int direction) const { return kDy[direction] * config_.width + kDx[direction]; }
  // delta of the four directions in order (the searches' inner loops).
  std::array<int, 4> deltas() const { return {delta(0), delta(1), delta(2), delta(3)}; }
  int manhattan(int a, int b) const;
  int nearestMarkDistanceFrom(int tileIndex, int ignoredMark) const;
  int penaltyOf(Tile door) const;  // steps a red door needs beyond its path
  int bonusOf(Tile door) const;    // steps opening the door adds (negative for red)
  const Target* findTarget(Action action) const;
  void placeMarks();
  void addMark(int tileIndex);  // one more of the game's marks, active (markTiles_, markXY_)
  void orientDoors();           // constructed positions: each door faces away from its floor
  const std::vector<Target>& targets() const;
  void computeTargets() const;
  // Whether corridor `c` (just built) touches the known region at its door alone: no passable
  // tile or older door beside it or beyond its end, and no passable tile at its new doors.
  bool joinsAtDoorOnly(const Corridor& c) const;
  // After corridor `c`, the explorer's targets from those of the region the door opened (this
  // state's targets at the environment node, when they were known): old targets keep their
  // cost, the corridor adds its marks and doors at their distance along it. False, nothing
  // changed, when the corridor joins the region elsewhere too (then the search starts afresh).
  bool extendTargets(const Corridor& c);
  void afterChange();
  void openDoor(int doorTile, int cost);
  void walkToMark(int markTile, int cost);
  void setTile(int index, Tile tile);
  void removeMark(int index, bool defused);
  void dropDeadMarks(std::span<const int> changed);
  void dropIfDead(int seed, uint32_t firstPass);
  CorridorSite siteOf(int doorTile) const;
  Corridor realise(const CorridorSite& site, Action outcome) const;
  void buildCorridor(const Corridor& corridor);
  std::string outcomeToString(Action outcome) const;

  MazeConfig config_;  // a copy: states never depend on the Game's lifetime
  uint64_t seed_ = 0;
  std::vector<Tile> tiles_;
  // Legal explorer actions with their costs, sorted by tile: a cache filled on first use after
  // a change, so a search that only scores moves never pays for it. At an environment node, the
  // targets from the opened door over the known region (listing the outcomes fills it), which
  // every outcome's corridor extends. (So even const access to one state is for one thread at a
  // time; copies are independent.)
  mutable std::vector<Target> targets_;
  mutable bool targetsKnown_ = false;
  std::array<int, kMaxBombs> markTiles_{};
  // The marks' (x, y): the searches ask for distances to them at every candidate move.
  std::array<std::array<int8_t, 2>, kMaxBombs> markXY_{};
  uint32_t activeMarks_ = 0;  // bit i: markTiles_[i] still carries its mark
  // Where findTarget looks first: the target after the last one found (the searches ask for
  // the legal actions in their order). Only a hint: a stale one costs a binary search.
  mutable size_t targetHint_ = 0;
  std::array<int, kLengthBins> lengthCounts_{};
  int markCount_ = 0;
  int active_ = 0;
  int defused_ = 0;
  int unknown_ = 0;
  int player_ = 0;
  int steps_ = 0;
  int pending_ = -1;
  int rounds_ = 0;
  bool won_ = false;
};

// The explorer's best one-move reply at `state`: the highest value(0) over its legal actions
// (a NaN value is passed over, -inf when all are NaN: the opponent view always ranks);
// the state's own value(0) when the explorer does not decide (terminal or environment node).
// The maze-building opponents of POSM / Dynamic Level rank an outcome by minus this value of
// the state it leads to (the plain explorer value ties for most outcomes).
double explorerBestReply(const MazeState& state);

// POSM / DL support at an environment node: scores[i] = -explorerBestReply(state after
// outcomes[i]), higher = worse for the explorer.
void scoreOutcomesForOpponent(const MazeState& state, std::span<const Outcome> outcomes,
                              std::span<double> scores);

class MazeGame final : public Game {
 public:
  // Validates `config` (InputError naming the parameter).
  explicit MazeGame(const MazeConfig& config);
  int numPlayers() const override { return 1; }
  std::unique_ptr<State> newGame(uint64_t setupSeed) const override;
  double statusScale() const override { return 50.0; }
  // Actions a tile index (width x height of them); outcomes a corridor's code.
  std::optional<ActionBounds> actionBounds() const override {
    return ActionBounds{config_.width * config_.height, kMaxOutcomes, kMaxOutcomes};
  }
  const MazeConfig& config() const { return config_; }

 private:
  MazeConfig config_;
};

// Registry entry: id "maze", its parameter schema and factory.
GameInfo gameInfo();

}  // namespace ddalab::maze
