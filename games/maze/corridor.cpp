// The environment of the Maze: the abstract corridor outcomes behind an opened door, their
// exact realisation (fixed by a hash of the game seed, the door and the outcome) and building.
#include <sstream>

#include "games/maze/maze.h"

namespace ddalab::maze {

namespace {

constexpr uint64_t kCorridorSalt = 0x636f727269646f72ull;  // "corridor"
constexpr int kLeft = 0;
constexpr int kRight = 1;

// The four pseudo-random draws of one outcome at one door, in the spec's fixed order.
struct CorridorDraws {
  uint64_t length, left, right, end;
};

// The key the draws of `outcome` at `door` derive from.
uint64_t drawsKey(uint64_t seed, int door, Action outcome) {
  return splitmix64(seed ^ splitmix64(kCorridorSalt + (static_cast<uint64_t>(door) << 6) +
                                      static_cast<uint64_t>(outcome)));
}

CorridorDraws drawsFor(uint64_t seed, int door, Action outcome) {
  const uint64_t key = drawsKey(seed, door, outcome);
  return {splitmix64(key + 1), splitmix64(key + 2), splitmix64(key + 3), splitmix64(key + 4)};
}

// drawsFor(seed, door, outcome).length alone (listing the outcomes needs only the lengths).
uint64_t lengthDraw(uint64_t seed, int door, Action outcome) {
  return splitmix64(drawsKey(seed, door, outcome) + 1);
}

// A draw mapped to 0..n-1 (multiply-shift on the high 32 bits).
int pick(uint64_t draw, int n) {
  return static_cast<int>(((draw >> 32) * static_cast<uint64_t>(n)) >> 32);
}

double unitInterval(uint64_t draw) {
  return static_cast<double>(draw >> 11) * 0x1.0p-53;
}

struct Range {
  int first, last;  // inclusive; empty when first > last
};

// Lengths of bucket 1..4: floor((k-1) room / 4) + 1 .. floor(k room / 4).
Range bucketRange(int room, int bucket) {
  return {(bucket - 1) * room / 4 + 1, bucket * room / 4};
}

// Corridor tiles of a side-door segment of a corridor of `length` tiles.
Range segmentRange(Segment segment, int length) {
  const int half = (length + 1) / 2;
  return segment == Segment::FirstHalf ? Range{1, half} : Range{half + 1, length};
}

int lengthBin(int length) {
  return length >= 10 ? kLengthBins - 1 : length / 2;
}

}  // namespace

struct MazeState::CorridorSite {
  int door = -1;
  int direction = 0;
  int room = 0;
  // sideDoors[side][i]: corridor tiles 1..i where a side door may go (side tile and the tile
  // beyond it unknown, no mark on the side tile).
  std::array<std::array<int16_t, kMaxSide>, 2> sideDoors{};

  int candidates(int side, Range r) const {
    return r.first > r.last ? 0 : sideDoors[side][r.last] - sideDoors[side][r.first - 1];
  }
  bool allows(int side, int i) const { return sideDoors[side][i] != sideDoors[side][i - 1]; }
};

MazeState::CorridorSite MazeState::siteOf(int doorTile) const {
  CorridorSite site;
  site.door = doorTile;
  site.direction = tiles_[doorTile].direction();
  site.room = roomAhead(doorTile);
  const int step = delta(site.direction);
  const std::array<int, 2> sideStep = {delta(leftOf(site.direction)),
                                       delta(rightOf(site.direction))};
  for (int side : {kLeft, kRight})
    for (int i = 1; i <= site.room; ++i) {
      const int sideTile = doorTile + i * step + sideStep[side];
      const bool allowed = tiles_[sideTile].isUnknown() && !tiles_[sideTile].hasMark() &&
                           tiles_[sideTile + sideStep[side]].isUnknown();
      site.sideDoors[side][i] = static_cast<int16_t>(site.sideDoors[side][i - 1] + allowed);
    }
  return site;
}

namespace {

// The side door of `segment` chosen by `draw`: 0 for none, -1 when the segment has no place.
template <typename Site>
int chooseSideDoor(const Site& site, int side, Segment segment, int length, uint64_t draw) {
  if (segment == Segment::None) return 0;
  const Range r = segmentRange(segment, length);
  const int count = site.candidates(side, r);
  if (count == 0) return -1;
  int skip = pick(draw, count);
  for (int i = r.first; i <= r.last; ++i)
    if (site.allows(side, i) && skip-- == 0) return i;
  return -1;
}

}  // namespace

Corridor MazeState::realise(const CorridorSite& site, Action outcome) const {
  const int bucket = outcome / 9 + 1;
  const CorridorDraws draws = drawsFor(seed_, site.door, outcome);
  const Range lengths = bucketRange(site.room, bucket);
  Corridor c;
  c.door = site.door;
  c.direction = site.direction;
  c.room = site.room;
  c.bucket = bucket;
  c.length = lengths.first + pick(draws.length, lengths.last - lengths.first + 1);
  c.leftDoor =
      chooseSideDoor(site, kLeft, static_cast<Segment>(outcome / 3 % 3), c.length, draws.left);
  c.rightDoor =
      chooseSideDoor(site, kRight, static_cast<Segment>(outcome % 3), c.length, draws.right);
  // An end door needs the end tile unknown (short of the room), no mark on it, and the tile
  // beyond it unknown too: length + 1 < room.
  const int endTile = site.door + (c.length + 1) * delta(site.direction);
  c.endDoor = c.length + 1 < site.room && !tiles_[endTile].hasMark() &&
              unitInterval(draws.end) < config_.endDoorProb;
  return c;
}

Corridor MazeState::corridorFor(Action outcome) const {
  return realise(siteOf(pending_), outcome);
}

void MazeState::outcomes(std::vector<Outcome>& out) const {
  out.clear();
  if (actor() != kEnvironment) return;
  targets();  // the known region's, once: each outcome's state extends them by its corridor
  const CorridorSite site = siteOf(pending_);
  std::array<Action, kMaxOutcomes> offered;
  int count = 0;
  // A side without any place for a door offers none whatever the length: no draw needed.
  const bool anyLeft = site.candidates(kLeft, {1, site.room}) > 0;
  const bool anyRight = site.candidates(kRight, {1, site.room}) > 0;
  for (int bucket = 1; bucket <= kLengthBuckets; ++bucket) {
    const Range lengths = bucketRange(site.room, bucket);
    if (lengths.first > lengths.last) continue;
    for (int left = 0; left < (anyLeft ? kSegmentChoices : 1); ++left)
      for (int right = 0; right < (anyRight ? kSegmentChoices : 1); ++right) {
        const Action code =
            outcomeCode(bucket, static_cast<Segment>(left), static_cast<Segment>(right));
        const int length = lengths.first + pick(lengthDraw(seed_, site.door, code),
                                                lengths.last - lengths.first + 1);
        const auto hasPlace = [&](int side, int segment) {
          return segment == 0 ||
                 site.candidates(side, segmentRange(static_cast<Segment>(segment), length)) > 0;
        };
        if (hasPlace(kLeft, left) && hasPlace(kRight, right)) offered[count++] = code;
      }
  }
  const double probability = 1.0 / count;  // room >= 1: bucket 4 with no side door is offered
  for (int i = 0; i < count; ++i) out.push_back({offered[i], probability});
}

void MazeState::buildCorridor(const Corridor& c) {
  std::array<int, 3 * kMaxSide + 8> changed;
  int n = 0;
  const auto reveal = [&](int tileIndex, Tile tile) {
    if (!tiles_[tileIndex].isUnknown()) return;
    setTile(tileIndex, tile);
    changed[n++] = tileIndex;
  };
  const Tile wall = Tile::of(TileKind::Wall);
  const int step = delta(c.direction);
  const int left = delta(leftOf(c.direction));
  const int right = delta(rightOf(c.direction));
  reveal(c.door + left, wall);  // no single unknown pockets beside the door
  reveal(c.door + right, wall);
  for (int i = 1; i <= c.length; ++i) {
    const int at = c.door + i * step;
    reveal(at, Tile::of(TileKind::Floor));
    reveal(at + left,
           i == c.leftDoor ? Tile::door(colourAt(at + left), leftOf(c.direction), false) : wall);
    reveal(at + right,
           i == c.rightDoor ? Tile::door(colourAt(at + right), rightOf(c.direction), false) : wall);
  }
  if (c.length < c.room) {
    const int end = c.door + (c.length + 1) * step;
    reveal(end, c.endDoor ? Tile::door(colourAt(end), c.direction, false) : wall);
    reveal(end + left, wall);
    reveal(end + right, wall);
  }
  ++lengthCounts_[lengthBin(c.length)];
  dropDeadMarks(std::span(changed.data(), n));
}

std::string MazeState::outcomeToString(Action outcome) const {
  if (outcome < 0 || outcome >= kMaxOutcomes) return "outcome " + std::to_string(outcome);
  const Corridor c = corridorFor(outcome);
  const auto side = [](int at) {
    return at > 0 ? "at " + std::to_string(at) : std::string("none");
  };
  std::ostringstream text;
  text << "corridor " << c.length << " (quarter " << c.bucket << " of room " << c.room
       << "), left door " << side(c.leftDoor) << ", right door " << side(c.rightDoor) << ", end "
       << (c.length == c.room ? "against what is there"
           : c.endDoor        ? "door"
                              : "wall");
  return text.str();
}

}  // namespace ddalab::maze
