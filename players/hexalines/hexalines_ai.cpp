// `hexalines-ai`: the HexaLines author's AI (hexalines-notes.md section 3) as a ranking player.
// Every legal move is scored by six parameters compared lexicographically (3.4) with a random key
// as the last one; the special cases of 3.7 and the loop guard of 3.8 may force one move to the
// top. The scores are the positions of that total order, so level scaling, POSM and Dynamic
// Level rank over it and level 100 with sigma 0 plays the author's AI exactly.
//
// Deviation: P1 (points) is computed exactly, by applying the move to a copy of the state (the
// full recomputation with cascades and kills), not by the author's local estimate of 3.5 / 3.6.
// He estimated locally only for speed on a PDA and called the estimate inexact; the exact value
// is what it approximates. P2..P6 follow the PROPOSALs of 3.4..3.6 (local to the moved field, on
// the board before and after the move).
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>

#include "core/registry.h"
#include "games/hexalines/hexalines.h"
#include "players/regular/ranking.h"

namespace ddalab {

namespace {

using hexalines::Cell;
using hexalines::HexaLinesState;
using hexalines::kNobody;
using hexalines::kSides;
using hexalines::kWall;
using hexalines::MoveRecord;
using hexalines::oppositeSide;
using hexalines::Shape;

// The loop guard compares blocks of 2..6 moves (3.8).
constexpr int kShortestLoop = 2;
constexpr int kLongestLoop = 6;

// Which neighbour cells P4 counts as foreign (3.4: UNSPECIFIED; grey cells can be rotated by the
// opponents too, so the proposal counts them).
enum class Foreign { NonOwn, Opponents };

struct AiConfig {
  Foreign foreign = Foreign::NonOwn;
  int history = 12;       // global decisions the repeated-block check looks at
  int rotationLimit = 6;  // own rotations in a row that count as a loop
};

// The parameters of 3.4 in priority order, then the random tie key; higher is better.
struct Appraisal {
  int points = 0;            // P1: own gain minus the opponents' gains
  bool safe = false;         // P2: attaches to / rotates an own cell
  int newDirections = 0;     // P3: distinct free-exit directions gained
  int exposuresRemoved = 0;  // P4: own exits facing foreign walls removed
  bool rotation = false;     // P5: rotates rather than adds
  int emptyJoins = 0;        // P6: empty path ends joined to empty ones
  uint64_t tieKey = 0;
  bool killsOpponent = false;  // for 3.7: an opponent dies and the AI lives
  bool winsLastField = false;  // for 3.7: fills the last field and leads alone

  auto key() const {
    return std::tie(points, safe, newDirections, exposuresRemoved, rotation, emptyJoins, tieKey);
  }
};

// --- the board seen from one field -------------------------------------------------------------

bool isPlaced(const HexaLinesState& s, int field) {
  return field >= 0 && field != s.board().centre() && !s.cell(field).empty();
}

bool isEmptyField(const HexaLinesState& s, int field) {
  return field >= 0 && field != s.board().centre() && s.cell(field).empty();
}

// Adds `delta` per direction for each of p's free exits (own-coloured path ends facing an empty
// field) that involve `field`: the cell's own ends when it is placed, the neighbours' ends (the
// source's too) into it when it is empty. Summed over all empty fields these are the counts of
// HexaLinesState::freeExits; the AI updates them locally for a move.
void countExitsAt(const HexaLinesState& s, int field, int p, std::array<int, kSides>& counts,
                  int delta) {
  if (!s.alive(p)) return;
  const int centre = s.board().centre();
  for (int side = 0; side < kSides; ++side) {
    const int next = s.board().neighbour(field, side);
    const int back = oppositeSide(side);
    if (isPlaced(s, field)) {
      if (s.cell(field).colourAt(side) == p && isEmptyField(s, next)) counts[side] += delta;
    } else if (next == centre) {
      if (back == HexaLinesState::sourceSide(p)) counts[back] += delta;
    } else if (isPlaced(s, next) && s.cell(next).colourAt(back) == p) {
      counts[back] += delta;
    }
  }
}

int distinctDirections(const std::array<int, kSides>& counts) {
  return static_cast<int>(std::count_if(counts.begin(), counts.end(), [](int n) { return n > 0; }));
}

bool isForeign(const Cell& c, int me, Foreign foreign) {
  return c.owner != me && (foreign == Foreign::NonOwn || c.owner != kNobody);
}

// Sum of `contact(here, side, there, back)` over the sides where the cell on `field` meets a
// placed neighbour (0 when the field holds no cell).
template <typename Contact>
int sumOverContacts(const HexaLinesState& s, int field, Contact contact) {
  if (!isPlaced(s, field)) return 0;
  int sum = 0;
  for (int side = 0; side < kSides; ++side) {
    const int next = s.board().neighbour(field, side);
    if (isPlaced(s, next)) sum += contact(s.cell(field), side, s.cell(next), oppositeSide(side));
  }
  return sum;
}

// Own-coloured path ends of the cell on `field` facing a foreign wall, and own ends of its
// neighbours facing its walls when it is foreign itself.
int exposures(const HexaLinesState& s, int field, int me, Foreign foreign) {
  return sumOverContacts(s, field, [&](const Cell& here, int side, const Cell& there, int back) {
    const bool outward = here.colourAt(side) == me && there.shape.segmentOf[back] == kWall &&
                         isForeign(there, me, foreign);
    const bool inward = there.colourAt(back) == me && here.shape.segmentOf[side] == kWall &&
                        isForeign(here, me, foreign);
    return int{outward} + int{inward};
  });
}

// Sides where the cell on `field` and a neighbour meet with path ends that are both uncoloured.
int emptyJoins(const HexaLinesState& s, int field) {
  return sumOverContacts(s, field, [](const Cell& here, int side, const Cell& there, int back) {
    return int{here.shape.segmentOf[side] != kWall && there.shape.segmentOf[back] != kWall &&
               here.colourAt(side) == kNobody && there.colourAt(back) == kNobody};
  });
}

// P2 of an add (3.4 PROPOSAL): the new cell holds own colour after the move and every neighbour
// feeding own colour into it (before the move) is the AI's own cell or its source.
bool safeAdd(const HexaLinesState& before, const HexaLinesState& after, int field, int me) {
  if (!isPlaced(after, field) || after.cell(field).owner != me) return false;
  const Shape& added = before.revealedShape();
  for (int side = 0; side < kSides; ++side) {
    const int next = before.board().neighbour(field, side);
    if (added.segmentOf[side] == kWall || !isPlaced(before, next)) continue;
    const Cell& feeder = before.cell(next);
    if (feeder.colourAt(oppositeSide(side)) == me && feeder.owner != me) return false;
  }
  return true;
}

// P1, exact: own gain change minus each opponent's (a dead one's counts up to its death).
int pointsOf(const HexaLinesState& before, const HexaLinesState& after, int me) {
  double points = 0;
  for (int p = 0; p < before.numPlayers(); ++p)
    points += (p == me ? 1 : -1) * (after.gain(p) - before.gain(p));
  return static_cast<int>(std::lround(points));
}

bool killsOpponent(const HexaLinesState& before, const HexaLinesState& after, int me) {
  if (!after.alive(me)) return false;
  for (int p = 0; p < before.numPlayers(); ++p)
    if (p != me && before.alive(p) && !after.alive(p)) return true;
  return false;
}

int emptyFields(const HexaLinesState& s) {
  int count = 0;
  for (int field = 0; field < s.fields(); ++field) count += isEmptyField(s, field);
  return count;
}

// Whether `me` lives and has the unique top score among the living.
bool leadsAlone(const HexaLinesState& s, int me) {
  if (!s.alive(me)) return false;
  for (int p = 0; p < s.numPlayers(); ++p)
    if (p != me && s.alive(p) && s.gain(p) >= s.gain(me)) return false;
  return true;
}

// --- the loop guard (3.8) ----------------------------------------------------------------------

// Whether the last k decisions of the newest `window` repeat the k before them, for a k in 2..6.
bool repeatsBlock(std::span<const MoveRecord> history, size_t window) {
  const auto recent = history.last(std::min(window, history.size()));
  for (size_t k = kShortestLoop; k <= kLongestLoop && 2 * k <= recent.size(); ++k)
    if (std::equal(recent.end() - static_cast<long>(k), recent.end(),
                   recent.end() - static_cast<long>(2 * k)))
      return true;
  return false;
}

// Whether p's own last `limit` decisions were all rotations.
bool rotatedOnly(std::span<const MoveRecord> history, int p, int limit) {
  int rotations = 0;
  for (auto it = history.rbegin(); it != history.rend() && rotations < limit; ++it) {
    if (it->player != p) continue;
    if (it->add) return false;
    ++rotations;
  }
  return rotations >= limit;
}

// p's own last decision, if the history holds one.
std::optional<MoveRecord> lastOwnMove(std::span<const MoveRecord> history, int p) {
  for (auto it = history.rbegin(); it != history.rend(); ++it)
    if (it->player == p) return *it;
  return std::nullopt;
}

// --- the player --------------------------------------------------------------------------------

// A kill by rotation the AI chose (3.7): what it left on the field, to turn back next turn.
struct KillRotation {
  int field;
  int sixths;
  Shape turned;
};

class HexaLinesAi final : public RankingPlayer {
 public:
  HexaLinesAi(int level, const LevelScaling& scaling, const AiConfig& config)
      : RankingPlayer(level, scaling), config_(config) {}

  // Scores every legal action by its position in the AI's total order (the forced move of 3.7 /
  // 3.8, if any, on top); remembers a chosen kill rotation for the next turn.
  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng& rng) override {
    const auto& s = dynamic_cast<const HexaLinesState&>(state);
    me_ = s.actor();
    exitsBefore_ = s.freeExits(me_);
    std::vector<Appraisal> appraisals(legal.size());
    for (size_t i = 0; i < legal.size(); ++i) appraisals[i] = appraise(s, legal[i], rng);
    std::vector<size_t> order = lexicographicOrder(appraisals);
    const size_t forced = chooseForced(s, legal, appraisals, order);
    const auto top = std::find(order.begin(), order.end(), forced);
    std::rotate(order.begin(), top, top + 1);
    for (size_t rank = 0; rank < order.size(); ++rank)
      scores[order[rank]] = static_cast<double>(order.size() - rank);
    addsOnly_.clear();
    if (loopDetected(s))
      for (Action action : legal) addsOnly_.push_back(s.isAdd(action));
  }

  // When the loop guard fires, the AI would play an add whatever it ranks first (3.8): the adds,
  // so that a level scaled over proposals (level_proposed) still breaks the loop; else every move.
  void proposals(std::vector<uint8_t>& out) const override { out = addsOnly_; }

 private:
  // All parameters of `action` (3.4..3.6), P1 and the special-case flags on a copy of the state.
  Appraisal appraise(const HexaLinesState& before, Action action, Rng& rng) {
    if (!after_)
      after_.emplace(before);
    else
      *after_ = before;  // reuses the cells' memory
    const HexaLinesState& after = *after_;
    after_->apply(action);
    const int field = before.fieldOf(action);
    Appraisal a;
    a.points = pointsOf(before, after, me_);
    a.rotation = !before.isAdd(action);
    a.safe = a.rotation ? before.cell(field).owner == me_ : safeAdd(before, after, field, me_);
    a.newDirections = newDirections(before, after, field);
    a.exposuresRemoved = exposures(before, field, me_, config_.foreign) -
                         exposures(after, field, me_, config_.foreign);
    a.emptyJoins = emptyJoins(after, field) - emptyJoins(before, field);
    a.tieKey = rng.next();
    a.killsOpponent = a.rotation && killsOpponent(before, after, me_);
    a.winsLastField = !a.rotation && emptyFields(before) == 1 && leadsAlone(after, me_);
    return a;
  }

  // P3: distinct free-exit directions after the move minus before, where only the exits at the
  // moved field change (local, as the author's counts per direction).
  int newDirections(const HexaLinesState& before, const HexaLinesState& after, int field) const {
    std::array<int, kSides> counts = exitsBefore_;  // before.freeExits(me_)
    const int old = distinctDirections(counts);
    countExitsAt(before, field, me_, counts, -1);
    countExitsAt(after, field, me_, counts, +1);
    return distinctDirections(counts) - old;
  }

  static std::vector<size_t> lexicographicOrder(const std::vector<Appraisal>& appraisals) {
    std::vector<size_t> order(appraisals.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return appraisals[a].key() > appraisals[b].key(); });
    return order;
  }

  // Index of the move the AI plays: the special case of 3.7 in the proposal's priority, else the
  // best move; replaced by the best add when the loop guard fires on a rotation.
  size_t chooseForced(const HexaLinesState& s, std::span<const Action> legal,
                      const std::vector<Appraisal>& appraisals, const std::vector<size_t>& order) {
    const std::optional<KillRotation> pending = std::exchange(pending_, std::nullopt);
    size_t chosen = order.front();
    if (const auto win = firstWhere(order, [&](size_t i) { return appraisals[i].winsLastField; }))
      chosen = *win;
    else if (const auto kill =
                 firstWhere(order, [&](size_t i) { return appraisals[i].killsOpponent; }))
      chosen = *kill;
    else if (const auto cover = coverSource(s, legal))
      chosen = *cover;
    else if (const auto back = rotateBack(s, legal, pending))
      chosen = *back;
    if (!s.isAdd(legal[chosen]) && loopDetected(s))
      if (const auto add = firstWhere(order, [&](size_t i) { return s.isAdd(legal[i]); }))
        return *add;
    if (appraisals[chosen].killsOpponent) pending_ = killRotationOf(s, legal[chosen]);
    return chosen;
  }

  template <typename Predicate>
  static std::optional<size_t> firstWhere(const std::vector<size_t>& order, Predicate wanted) {
    const auto it = std::find_if(order.begin(), order.end(), wanted);
    return it == order.end() ? std::nullopt : std::optional<size_t>(*it);
  }

  static std::optional<size_t> indexOf(std::span<const Action> legal, Action action) {
    const auto it = std::find(legal.begin(), legal.end(), action);
    return it == legal.end() ? std::nullopt : std::optional<size_t>(it - legal.begin());
  }

  // The add on the empty field in front of the own source, when the revealed cell has a path end
  // facing the source (3.7 case 3).
  std::optional<size_t> coverSource(const HexaLinesState& s, std::span<const Action> legal) const {
    const int front = s.frontField(me_);
    const int facingSource = oppositeSide(HexaLinesState::sourceSide(me_));
    if (!isEmptyField(s, front) || s.revealedShape().segmentOf[facingSource] == kWall)
      return std::nullopt;
    return indexOf(legal, s.addAction(front));
  }

  KillRotation killRotationOf(const HexaLinesState& s, Action rotation) const {
    const int field = s.fieldOf(rotation);
    return {field, s.sixthsOf(rotation), s.cell(field).shape.rotated(s.sixthsOf(rotation))};
  }

  // The rotation undoing the kill rotation the AI played last turn, if it did and the cell is
  // still as it left it and may be rotated (3.7 case 2, PROPOSAL: skipped otherwise).
  std::optional<size_t> rotateBack(const HexaLinesState& s, std::span<const Action> legal,
                                   const std::optional<KillRotation>& pending) const {
    if (!pending) return std::nullopt;
    const MoveRecord played{static_cast<int8_t>(me_), false, static_cast<int8_t>(pending->field),
                            static_cast<int8_t>(pending->sixths), Shape{}};
    if (lastOwnMove(s.history(), me_) != played || !isPlaced(s, pending->field) ||
        s.cell(pending->field).shape != pending->turned)
      return std::nullopt;
    const int period = s.cell(pending->field).period;
    return indexOf(legal, s.rotateAction(pending->field, (kSides - pending->sixths) % period));
  }

  bool loopDetected(const HexaLinesState& s) const {
    return repeatsBlock(s.history(), static_cast<size_t>(config_.history)) ||
           rotatedOnly(s.history(), me_, config_.rotationLimit);
  }

  AiConfig config_;
  int me_ = 0;
  std::array<int, kSides> exitsBefore_{};  // freeExits(me_) of the position being scored
  std::optional<HexaLinesState> after_;    // the position after a move (reused)
  std::optional<KillRotation> pending_;    // one player object plays one game
  std::vector<uint8_t> addsOnly_;          // the proposals of the last scoring
};

AiConfig hexaLinesConfigFrom(const Json& params) {
  AiConfig config;
  config.foreign = params.at("p4_counts").get<std::string>() == "opponents" ? Foreign::Opponents
                                                                            : Foreign::NonOwn;
  config.history = params.at("history").get<int>();
  config.rotationLimit = params.at("rotation_limit").get<int>();
  return config;
}

bool isHexaLines(const Game& game) {
  return dynamic_cast<const hexalines::HexaLinesGame*>(&game) != nullptr;
}

constexpr const char* kOnlyHexaLines =
    "hexalines-ai plays HexaLines only (it reads the board, cells and colours)";

}  // namespace

PlayerInfo hexaLinesAiInfo() {
  return {.id = "hexalines-ai",
          .kind = PlayerKind::Regular,
          .description =
              "HexaLines: the game author's AI, six lexicographic move parameters (points exact), "
              "kill by rotation and turn back, cover the own source, loop guard; ranks all moves",
          .params = withLevelParams({
              {"p4_counts",
               ParamType::String,
               "non-own",
               0,
               0,
               "which neighbour cells P4 (own exits exposed to walls) counts: 'non-own' "
               "(opponents' and grey cells: both can be rotated by an opponent) or 'opponents'",
               {"non-own", "opponents"}},
              {"history", ParamType::Int, 12, 2 * kShortestLoop, hexalines::kHistory,
               "last decisions of all players the loop guard scans for a block of 2..6 moves "
               "repeated twice in a row"},
              {"rotation_limit", ParamType::Int, 6, 1, 6,
               "own rotations in a row after which the loop guard makes it add"},
          }),
          .incompatibility =
              [](const Game& game, const Json&, PlayerKind) {
                return isHexaLines(game) ? std::string() : std::string(kOnlyHexaLines);
              },
          .makeRegular = [](const PlayerSetup& setup) -> std::unique_ptr<Player> {
            // Refused here too, so that it is never offered as a DDA base of another game.
            if (!isHexaLines(setup.game)) throw InputError("params", kOnlyHexaLines);
            return std::make_unique<HexaLinesAi>(setup.level, levelScalingFrom(setup.params),
                                                 hexaLinesConfigFrom(setup.params));
          },
          .ranksActions = true,
          .defaultAi = true};
}

}  // namespace ddalab
