// Maze rules of the explorer: set-up, legal actions and their costs, marks, win and loss,
// heuristics and rendering. The environment's corridors are in corridor.cpp.
#include "games/maze/maze.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "core/believability.h"
#include "games/maze/search.h"

namespace ddalab::maze {

namespace {

constexpr uint64_t kMarkSalt = 0x6d61726b73ull;      // "marks"
constexpr uint64_t kColourSalt = 0x636f6c6f7572ull;  // "colour"
constexpr double kDistanceWeightValue = 10.0;        // value: per tile to the nearest mark
constexpr double kDistanceWeightGain = 1.5;          // gain: per tile of the summed distances

char symbolOf(Tile tile) {
  if (tile.hasMark()) return tile.isUnknown() ? '*' : '+';
  switch (tile.kind()) {
    case TileKind::Unknown:
      return '?';
    case TileKind::Wall:
      return '#';
    case TileKind::Floor:
      return '.';
    case TileKind::Door:
      break;
  }
  static constexpr char kClosed[] = "DBR";
  static constexpr char kOpen[] = "dbr";
  const int colour = static_cast<int>(tile.colour());
  return tile.open() ? kOpen[colour] : kClosed[colour];
}

// The tile a drawing symbol stands for ('@' stands on floor); doors face north until oriented.
Tile tileOfSymbol(char symbol) {
  static constexpr std::string_view kSymbols = "#.?*+@DBRdbr";
  static constexpr std::array<Tile, 12> kTiles = {
      Tile::of(TileKind::Wall),
      Tile::of(TileKind::Floor),
      Tile::of(TileKind::Unknown),
      Tile::of(TileKind::Unknown).withMark(true),
      Tile::of(TileKind::Floor).withMark(true),
      Tile::of(TileKind::Floor),
      Tile::door(DoorColour::Plain, 0, false),
      Tile::door(DoorColour::Blue, 0, false),
      Tile::door(DoorColour::Red, 0, false),
      Tile::door(DoorColour::Plain, 0, true),
      Tile::door(DoorColour::Blue, 0, true),
      Tile::door(DoorColour::Red, 0, true),
  };
  const size_t at = kSymbols.find(symbol);
  if (at == std::string_view::npos)
    throw std::invalid_argument(std::string("maze rows: unknown symbol '") + symbol + "'");
  return kTiles[at];
}

const char* colourName(DoorColour colour) {
  switch (colour) {
    case DoorColour::Plain:
      return "plain";
    case DoorColour::Blue:
      return "blue";
    case DoorColour::Red:
      return "red";
  }
  return "?";
}

}  // namespace

MazeState::MazeState(const MazeConfig& config, uint64_t seed, bool)
    : config_(config),
      seed_(seed),
      tiles_(static_cast<size_t>(config.width) * config.height, Tile::of(TileKind::Unknown)),
      unknown_((config.width - 2) * (config.height - 2)) {
  for (int x = 0; x < width(); ++x) {
    tiles_[index(x, 0)] = Tile::of(TileKind::Wall);
    tiles_[index(x, height() - 1)] = Tile::of(TileKind::Wall);
  }
  for (int y = 0; y < height(); ++y) {
    tiles_[index(0, y)] = Tile::of(TileKind::Wall);
    tiles_[index(width() - 1, y)] = Tile::of(TileKind::Wall);
  }
}

MazeState::MazeState(const MazeConfig& config, uint64_t seed) : MazeState(config, seed, true) {
  const int centre = index(width() / 2, height() / 2);
  setTile(centre, Tile::of(TileKind::Floor));
  for (int direction = 0; direction < 4; ++direction)
    setTile(centre + delta(direction), Tile::door(DoorColour::Plain, direction, false));
  player_ = centre;
  steps_ = config_.maxSteps;
  placeMarks();
  afterChange();
}

void MazeState::placeMarks() {
  const int centre = index(width() / 2, height() / 2);
  std::vector<int> candidates;
  for (int y = 1; y < height() - 1; ++y)
    for (int x = 1; x < width() - 1; ++x)
      if (tiles_[index(x, y)].isUnknown() &&
          manhattan(index(x, y), centre) >= config_.minBombDistance)
        candidates.push_back(index(x, y));
  Rng rng(splitmix64(seed_ ^ kMarkSalt));
  const int wanted = std::min<int>(config_.bombs, static_cast<int>(candidates.size()));
  for (int i = 0; i < wanted; ++i) {  // partial Fisher-Yates: the first `wanted` are the draw
    const auto j = i + rng.below(static_cast<uint32_t>(candidates.size() - i));
    std::swap(candidates[i], candidates[j]);
    addMark(candidates[i]);
    tiles_[candidates[i]] = tiles_[candidates[i]].withMark(true);
  }
  active_ = markCount_;
}

void MazeState::addMark(int tileIndex) {
  markTiles_[markCount_] = tileIndex;
  markXY_[markCount_] = {static_cast<int8_t>(xOf(tileIndex)), static_cast<int8_t>(yOf(tileIndex))};
  activeMarks_ |= 1u << markCount_;
  ++markCount_;
}

MazeState MazeState::fromRows(MazeConfig config, uint64_t seed, std::span<const std::string> rows,
                              int stepsLeft) {
  const auto fits = [](size_t n) { return n >= 3 && n <= static_cast<size_t>(kMaxSide); };
  if (!fits(rows.size()) || !fits(rows[0].size()))
    throw std::invalid_argument("maze rows: 3 to 101 rows of 3 to 101 tiles expected");
  config.width = static_cast<int>(rows[0].size());
  config.height = static_cast<int>(rows.size());
  MazeState s(config, seed, true);
  int explorers = 0;
  for (int y = 0; y < s.height(); ++y) {
    if (rows[y].size() != rows[0].size())
      throw std::invalid_argument("maze rows: row " + std::to_string(y) + " has another width");
    for (int x = 0; x < s.width(); ++x) {
      const char symbol = rows[y][x];
      const bool border = x == 0 || y == 0 || x == s.width() - 1 || y == s.height() - 1;
      if (border && symbol != '#') throw std::invalid_argument("maze rows: the border must be '#'");
      const int at = s.index(x, y);
      s.tiles_[at] = tileOfSymbol(symbol);
      if (symbol == '@') {
        s.player_ = at;
        ++explorers;
      }
      if (s.tiles_[at].hasMark() && s.markCount_ == kMaxBombs)
        throw std::invalid_argument("maze rows: too many marks");
      if (s.tiles_[at].hasMark()) s.addMark(at);
    }
  }
  if (explorers != 1) throw std::invalid_argument("maze rows: exactly one '@' expected");
  s.orientDoors();
  s.unknown_ = static_cast<int>(
      std::count_if(s.tiles_.begin(), s.tiles_.end(), [](Tile t) { return t.isUnknown(); }));
  s.active_ = s.markCount_;
  s.steps_ = stepsLeft;
  s.dropDeadMarks(s.markTiles());
  s.afterChange();
  return s;
}

void MazeState::orientDoors() {
  for (int i = 0; i < width() * height(); ++i) {
    const Tile tile = tiles_[i];
    if (tile.kind() != TileKind::Door) continue;
    int back = -1, passable = 0;  // a door faces away from the floor it was made from
    for (int direction = 0; direction < 4; ++direction)
      if (tiles_[i + delta(direction)].isPassable()) {
        if (back < 0) back = direction;
        ++passable;
      }
    if (!tile.open() && passable != 1)
      throw std::invalid_argument("maze rows: the closed door at (" + std::to_string(xOf(i)) + "," +
                                  std::to_string(yOf(i)) +
                                  ") needs exactly one passable neighbour");
    tiles_[i] = Tile::door(tile.colour(), back < 0 ? 0 : (back + 2) % 4, tile.open());
  }
}

int MazeState::actor() const {
  if (won_) return kTerminal;
  if (pending_ >= 0) return kEnvironment;
  return targets().empty() ? kTerminal : 0;  // no affordable action left: lost
}

void MazeState::legalActions(std::vector<Action>& out) const {
  out.clear();
  if (actor() != 0) return;
  for (const Target& target : targets()) out.push_back(target.tile);
}

int MazeState::manhattan(int a, int b) const {
  return std::abs(xOf(a) - xOf(b)) + std::abs(yOf(a) - yOf(b));
}

int MazeState::nearestMarkDistanceFrom(int tileIndex, int ignoredMark) const {
  const int x = xOf(tileIndex), y = yOf(tileIndex);
  int nearest = std::numeric_limits<int>::max();
  for (uint32_t left = activeMarks_; left != 0; left &= left - 1) {
    const int i = std::countr_zero(left);
    if (markTiles_[i] != ignoredMark)
      nearest = std::min(nearest, std::abs(x - markXY_[i][0]) + std::abs(y - markXY_[i][1]));
  }
  return nearest == std::numeric_limits<int>::max() ? 0 : nearest;
}

int MazeState::sumMarkDistance() const {
  int sum = 0;
  for (int i = 0; i < markCount_; ++i)
    if (tiles_[markTiles_[i]].hasMark()) sum += manhattan(player_, markTiles_[i]);
  return sum;
}

int MazeState::penaltyOf(Tile door) const {
  return door.colour() == DoorColour::Red ? config_.doorPenalty : 0;
}

int MazeState::bonusOf(Tile door) const {
  switch (door.colour()) {
    case DoorColour::Blue:
      return config_.doorBonus;
    case DoorColour::Red:
      return -config_.doorPenalty;
    case DoorColour::Plain:
      break;
  }
  return 0;
}

DoorColour MazeState::colourAt(int tileIndex) const {
  const uint64_t draw =
      splitmix64(seed_ ^ splitmix64(kColourSalt + static_cast<uint64_t>(tileIndex)));
  const double u = static_cast<double>(draw >> 11) * 0x1.0p-53;
  if (u < config_.blueProb) return DoorColour::Blue;
  if (u < config_.blueProb + config_.redProb) return DoorColour::Red;
  return DoorColour::Plain;
}

int MazeState::roomAhead(int doorTile) const {
  const int step = delta(tiles_[doorTile].direction());
  int room = 0;
  for (int at = doorTile + step; tiles_[at].isUnknown(); at += step) ++room;
  return room;  // the border is wall, so the walk stops inside the grid
}

const MazeState::Target* MazeState::findTarget(Action action) const {
  const std::vector<Target>& all = targets();
  if (targetHint_ < all.size() && all[targetHint_].tile == action) return &all[targetHint_++];
  const auto it = std::lower_bound(all.begin(), all.end(), action,
                                   [](const Target& t, Action a) { return t.tile < a; });
  if (it == all.end() || it->tile != action) return nullptr;
  targetHint_ = static_cast<size_t>(it - all.begin()) + 1;
  return &*it;
}

int MazeState::costOf(Action action) const {
  if (actor() != 0) return -1;
  const Target* target = findTarget(action);
  return target ? target->cost : -1;
}

const std::vector<MazeState::Target>& MazeState::targets() const {
  if (!targetsKnown_) computeTargets();
  return targets_;
}

void MazeState::computeTargets() const {
  targetsKnown_ = true;
  targets_.clear();
  if (won_) return;
  SearchScratch& scratch = searchScratch(tiles_.size());
  scratch.beginCall();
  const uint32_t pass = scratch.beginPass();
  const std::array<int, 4> step = deltas();
  uint32_t* stamp = scratch.stamp.data();
  int* queue = scratch.queue.data();
  const Tile* tiles = tiles_.data();
  int head = 0, tail = 0;
  queue[tail++] = player_;
  stamp[player_] = pass;
  int cost = 1;
  const auto visit = [&](int next) {
    const Tile tile = tiles[next];
    if (!tile.isFloorOrDoor() || stamp[next] == pass) return;  // walls, unknown, seen
    stamp[next] = pass;  // a door too: first reached at its shortest cost
    if (tile.isClosedDoor()) {
      if (cost + penaltyOf(tile) <= steps_) targets_.push_back({next, cost});
      return;
    }
    queue[tail++] = next;
    if (tile.hasMark()) targets_.push_back({next, cost});
  };
  // Breadth first, one layer of equal cost at a time: every target still to come costs as much
  // or more, so the search stops at the first layer beyond the steps left.
  for (; cost <= steps_ && head < tail; ++cost)
    for (const int layerEnd = tail; head < layerEnd; ++head) {
      const int at = queue[head];
      visit(at + step[0]);
      visit(at + step[1]);
      visit(at + step[2]);
      visit(at + step[3]);
    }
  std::sort(targets_.begin(), targets_.end(),
            [](const Target& a, const Target& b) { return a.tile < b.tile; });
}

bool MazeState::joinsAtDoorOnly(const Corridor& c) const {
  const int step = delta(c.direction);
  const std::array<int, 2> side = {delta(leftOf(c.direction)), delta(rightOf(c.direction))};
  const std::array<int, 2> sideDoor = {c.leftDoor, c.rightDoor};
  const int end = c.door + (c.length + 1) * step;
  // A door of this corridor can be reached from elsewhere when a passable tile touches it.
  const auto reachedOnlyFrom = [this](int door, int back) {
    for (int d : deltas())
      if (door + d != back && tiles_[door + d].isPassable()) return false;
    return true;
  };
  for (int i = 1; i <= c.length; ++i) {
    const int at = c.door + i * step;
    for (int k = 0; k < 2; ++k) {
      const Tile beside = tiles_[at + side[k]];
      if (beside.isPassable()) return false;
      if (beside.isClosedDoor() && (i != sideDoor[k] || !reachedOnlyFrom(at + side[k], at)))
        return false;  // a door that was there before, or one the known region touches too
    }
  }
  const Tile ahead = tiles_[end];  // beyond the last corridor tile
  if (ahead.isPassable()) return false;
  return !ahead.isClosedDoor() || (c.endDoor && reachedOnlyFrom(end, end - step));
}

bool MazeState::extendTargets(const Corridor& c) {
  if (!joinsAtDoorOnly(c)) return false;
  won_ = false;  // active_ > 0 (the caller's condition)
  const int step = delta(c.direction);
  const std::array<int, 2> side = {delta(leftOf(c.direction)), delta(rightOf(c.direction))};
  const std::array<int, 2> sideDoor = {c.leftDoor, c.rightDoor};
  const auto addDoor = [this](int door, int cost) {
    if (cost <= steps_ && cost + penaltyOf(tiles_[door]) <= steps_)
      targets_.push_back({door, cost});
  };
  for (int i = 1; i <= c.length && i <= steps_; ++i) {
    const int at = c.door + i * step;  // i steps from the door, the corridor's only way in
    if (tiles_[at].hasMark()) targets_.push_back({at, i});
    for (int k = 0; k < 2; ++k)
      if (i == sideDoor[k]) addDoor(at + side[k], i + 1);
  }
  if (c.endDoor) addDoor(c.door + (c.length + 1) * step, c.length + 1);
  std::sort(targets_.begin(), targets_.end(),
            [](const Target& a, const Target& b) { return a.tile < b.tile; });
  return true;
}

void MazeState::afterChange() {
  won_ = active_ == 0;
  targets_.clear();
  targetsKnown_ = false;
}

void MazeState::apply(Action action) {
  if (actor() == kEnvironment) {
    const Corridor corridor = corridorFor(action);
    const bool regionKnown = targetsKnown_;
    buildCorridor(corridor);
    pending_ = -1;
    const bool extended = regionKnown && active_ > 0 && extendTargets(corridor);
    if (!extended) afterChange();
    if (isTerminal()) ++rounds_;  // the game ended at the corridor: so does the round
    return;
  }
  const int cost = findTarget(action)->cost;  // contract: a legal action
  if (tiles_[action].isClosedDoor())
    openDoor(action, cost);
  else
    walkToMark(action, cost);
  ++rounds_;  // the explorer's action closes its round
}

void MazeState::openDoor(int doorTile, int cost) {
  const Tile door = tiles_[doorTile];
  steps_ += bonusOf(door) - cost;
  tiles_[doorTile] = door.opened();
  player_ = doorTile;
  if (roomAhead(doorTile) > 0) pending_ = doorTile;  // built first thing next round
  afterChange();  // with nothing unknown behind the door there is no environment event
}

void MazeState::walkToMark(int markTile, int cost) {
  steps_ -= cost;
  player_ = markTile;
  removeMark(markTile, true);
  afterChange();
}

void MazeState::removeMark(int tileIndex, bool defused) {
  tiles_[tileIndex] = tiles_[tileIndex].withMark(false);
  for (int i = 0; i < markCount_; ++i)
    if (markTiles_[i] == tileIndex) activeMarks_ &= ~(1u << i);
  --active_;
  if (defused) ++defused_;
}

void MazeState::setTile(int tileIndex, Tile next) {
  const Tile before = tiles_[tileIndex];
  if (before.isUnknown() && !next.isUnknown()) --unknown_;
  const bool keepsMark = before.hasMark() && next.kind() == TileKind::Floor;
  if (before.hasMark() && !keepsMark) removeMark(tileIndex, false);  // walled in: it was fake
  tiles_[tileIndex] = next.withMark(keepsMark);
}

void MazeState::dropDeadMarks(std::span<const int> changed) {
  const bool anyHidden = std::any_of(markTiles().begin(), markTiles().end(), [this](int m) {
    return tiles_[m].hasMark() && tiles_[m].isUnknown();
  });
  if (!anyHidden) return;
  SearchScratch& scratch = searchScratch(tiles_.size());
  const uint32_t firstPass = scratch.beginCall();
  // Only the regions touching changed tiles can have lost their last door: search from there.
  for (int at : changed)
    for (int direction = -1; direction < 4; ++direction) {
      const int seed = direction < 0 ? at : at + delta(direction);
      if (tiles_[seed].isUnknown() && scratch.stamp[seed] < firstPass) dropIfDead(seed, firstPass);
    }
}

void MazeState::dropIfDead(int seed, uint32_t firstPass) {
  SearchScratch& scratch = searchScratch(tiles_.size());
  const uint32_t pass = scratch.beginPass();
  const std::array<int, 4> step = deltas();
  uint32_t* stamp = scratch.stamp.data();
  int* queue = scratch.queue.data();
  const Tile* tiles = tiles_.data();
  int head = 0, tail = 0;
  queue[tail++] = seed;
  stamp[seed] = pass;
  while (head < tail) {
    const int at = queue[head++];
    for (int direction = 0; direction < 4; ++direction) {
      const int next = at + step[direction];
      const Tile tile = tiles[next];
      if (!tile.isUnknown()) {
        if (tile.isClosedDoor() && tile.direction() == (direction + 2) % 4) return;  // alive
        continue;
      }
      if (stamp[next] == pass) continue;
      // An earlier search of this call stopped early in this region: it found a door.
      if (stamp[next] >= firstPass) return;
      stamp[next] = pass;
      queue[tail++] = next;
    }
  }
  for (int i = 0; i < tail; ++i)  // the whole region is dead: its marks were fake
    if (tiles_[queue[i]].hasMark()) removeMark(queue[i], false);
}

double MazeState::gain(int) const {
  const double unknownTerm = won() ? 0.0 : config_.unknownWeight * unknown_;
  return steps_ - kDistanceWeightGain * sumMarkDistance() - unknownTerm;
}

double MazeState::value(int) const {
  return steps_ - kDistanceWeightValue * nearestMarkDistance() - config_.defuseWeight * active_;
}

double MazeState::valueAfter(Action action) const {
  const int cost = findTarget(action)->cost;  // contract: a legal action
  const Tile target = tiles_[action];
  if (target.isClosedDoor())
    return steps_ + bonusOf(target) - cost -
           kDistanceWeightValue * nearestMarkDistanceFrom(action, -1) -
           config_.defuseWeight * active_;
  return steps_ - cost - kDistanceWeightValue * nearestMarkDistanceFrom(action, action) -
         config_.defuseWeight * (active_ - 1);
}

double MazeState::believability() const {
  const std::span<const int> shortBins(lengthCounts_.data(), kLengthBins - 1);
  return 1000.0 * lengthCounts_[kLengthBins - 1] + belPC(shortBins, config_.believabilityThreshold);
}

Json MazeState::actionJson(Action action) const {
  if (actor() < 0) return Json::object();
  return {{"verb", tiles_[action].isClosedDoor() ? "open" : "defuse"},
          {"x", xOf(action)},
          {"y", yOf(action)},
          {"steps", costOf(action)}};
}

std::string MazeState::actionToString(Action action) const {
  if (actor() == kEnvironment) return outcomeToString(action);
  std::ostringstream text;  // (a stream: GCC 12 warns falsely on "literal" + string&&)
  const int cost = costOf(action);
  const Tile target = tiles_[action];
  if (cost < 0)
    text << "tile";
  else if (target.isClosedDoor())
    text << "open " << colourName(target.colour()) << " door";
  else
    text << "defuse mark";
  text << " (" << xOf(action) << "," << yOf(action) << ")";
  if (cost < 0) return text.str() + " (not legal)";
  text << ", " << cost << " steps";
  if (target.isClosedDoor() && bonusOf(target) != 0)
    text << (bonusOf(target) > 0 ? " +" : " ") << bonusOf(target);
  return text.str();
}

std::string MazeState::toString() const {
  std::string text;
  text.reserve(static_cast<size_t>(width() + 1) * height() + 120);
  for (int y = 0; y < height(); ++y) {
    for (int x = 0; x < width(); ++x)
      text += index(x, y) == player_ ? '@' : symbolOf(tiles_[index(x, y)]);
    text += '\n';
  }
  std::ostringstream status;
  status << "steps left " << steps_ << ", marks left " << active_ << " (defused " << defused_
         << ", vanished " << vanishedMarks() << "), round " << rounds_ << ": ";
  if (won())
    status << "won";
  else if (lost())
    status << "lost";
  else if (pending_ >= 0)
    status << "the environment builds behind the door at (" << xOf(pending_) << "," << yOf(pending_)
           << "), room " << roomAhead(pending_);
  else
    status << "explorer to move, " << targets().size() << " actions";
  return text + status.str();
}

Json MazeState::observationJson(int) const {
  Json rows = Json::array();
  for (int y = 0; y < height(); ++y) {
    std::string row;
    for (int x = 0; x < width(); ++x) row += symbolOf(tiles_[index(x, y)]);
    rows.push_back(row);
  }
  const Json pending = pending_ >= 0 ? Json{{"x", xOf(pending_)}, {"y", yOf(pending_)}} : Json();
  return {{"width", width()},
          {"height", height()},
          {"rows", rows},
          {"explorer", {{"x", xOf(player_)}, {"y", yOf(player_)}}},
          {"stepsLeft", steps_},
          {"marks", {{"active", active_}, {"defused", defused_}, {"vanished", vanishedMarks()}}},
          {"pendingDoor", pending},
          {"won", won()}};
}

double explorerBestReply(const MazeState& state) {
  if (state.actor() != 0) return state.value(0);
  thread_local std::vector<Action> legal;
  state.legalActions(legal);
  double best = -std::numeric_limits<double>::infinity();
  for (Action action : legal) best = std::max(best, state.valueAfter(action));
  return best;
}

void scoreOutcomesForOpponent(const MazeState& state, std::span<const Outcome> outcomes,
                              std::span<double> scores) {
  for (size_t i = 0; i < outcomes.size(); ++i) {
    MazeState next = state;
    next.apply(outcomes[i].action);
    scores[i] = -explorerBestReply(next);
  }
}

bool MazeState::scoreOutcomesAsOpponent(std::span<const Outcome> outcomes,
                                        std::span<double> scores) const {
  scoreOutcomesForOpponent(*this, outcomes, scores);
  return true;
}

}  // namespace ddalab::maze
