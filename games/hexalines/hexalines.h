#pragma once
// HexaLines (spec games/hexalines.md, hexalines-notes.md): three players build paths of cells
// on a hex board; each colour floods from its source in the centre, pouring into another colour
// destroys that cell and pouring into another player's source kills that player.
//
// Rounds: a round is one decision of a living player. It starts with the environment revealing
// the cell to place (a shape class; its orientation is fixed by hash(seed, round, class)); the
// player then adds it to an empty field next to an occupied one, or rotates one of its own or a
// grey cell. Actions: 0..fields-1 = add on that field; fields + 6 * field + k = rotate the cell
// on `field` by k sixths (k = 1 .. period - 1). Environment outcomes are class indices.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/state.h"
#include "core/state_copy.h"
#include "games/hexalines/board.h"
#include "games/hexalines/shapes.h"

namespace ddalab::hexalines {

inline constexpr int kColours = 3;     // red, green, blue = players 0, 1, 2
inline constexpr int8_t kNobody = -1;  // a grey cell's owner, an uncoloured segment
inline constexpr int kMaxSegments = 3;
inline constexpr int kOpenSideBins = 5;  // believability bins: 2..6 open sides

// One decision as the loop guard of the author's AI compares them (hexalines-notes.md 3.8).
struct MoveRecord {
  int8_t player = 0;
  bool add = false;
  int8_t field = 0;
  int8_t sixths = 0;  // rotations: the sixths turned; adds: 0
  Shape shape;        // adds: the cell as placed; rotations: unused
  bool operator==(const MoveRecord&) const = default;
};
inline constexpr int kHistory = 18;  // decisions kept: six own moves of each of three players

enum class RecalcOrder { MoverFirst, FixedRbg };

struct HexaLinesConfig {
  int radius = 3;
  int firstPlayer = 0;
  RecalcOrder recalcOrder = RecalcOrder::MoverFirst;
  int maxRounds = 600;
  double believabilityThreshold = 1.0;
  std::shared_ptr<const ShapeCatalogue> catalogue;          // never null in a built game
  std::shared_ptr<const Board> board;                       // never null in a built game
  std::shared_ptr<const std::vector<Outcome>> naturalDeal;  // every class, natural probability
};

// One placed cell: its oriented shape, owner and the colour of each segment.
struct Cell {
  int8_t shapeClass = -1;  // -1: the field is empty
  int8_t owner = kNobody;
  int8_t period = 0;  // distinct orientations of the shape (rotations by 1 .. period-1 differ)
  Shape shape;
  std::array<int8_t, kMaxSegments> colour{kNobody, kNobody, kNobody};
  std::array<int8_t, kMaxSegments> length{};  // of each segment (kept: scores sum them often)
  std::array<uint8_t, kMaxSegments> sides{};  // a bit per side of each segment (kept likewise)

  // A cell of class `shapeClass` oriented as `oriented`, with no owner and no colour.
  static Cell of(int shapeClass, int period, const Shape& oriented);
  // Turns the shape by `sixths`; the segments lose their colour.
  void rotate(int sixths);
  bool empty() const { return shapeClass < 0; }
  bool operator==(const Cell&) const = default;
  // The colour at side `side`, or kNobody for a wall or an uncoloured segment.
  int8_t colourAt(int side) const {
    const uint8_t s = shape.segmentOf[side];
    return s == kWall ? kNobody : colour[s];
  }
  // A bit per side whose segment has colour `c` (without a loop: the free-exit count of every
  // value a search asks for scans every cell with it).
  unsigned sidesOf(int c) const {
    static_assert(kMaxSegments == 3);
    const auto k = static_cast<int8_t>(c);  // compared byte to byte
    return (colour[0] == k ? sides[0] : 0u) | (colour[1] == k ? sides[1] : 0u) |
           (colour[2] == k ? sides[2] : 0u);
  }
  // A bit per colour some segment of the cell has.
  unsigned colours() const {
    unsigned mask = 0;
    for (int8_t c : colour)
      if (c != kNobody) mask |= 1u << c;
    return mask;
  }
};

class HexaLinesState final : public State {
 public:
  HexaLinesState(const HexaLinesConfig& config, uint64_t seed);

  std::unique_ptr<State> clone() const override { return std::make_unique<HexaLinesState>(*this); }
  bool assign(const State& other) override { return assignSameClass(*this, other); }
  int numPlayers() const override { return kColours; }
  int actor() const override;
  void legalActions(std::vector<Action>& out) const override;
  void outcomes(std::vector<Outcome>& out) const override;
  void apply(Action action) override;
  int winner() const override { return winner_; }
  bool capped() const override { return capped_; }
  // The player's score (a dead player's score at its death).
  double gain(int p) const override { return score_[p]; }
  // gain - the best living opponent's gain + 0.5 x distinct free-exit directions.
  double value(int p) const override;
  int roundsCompleted() const override { return rounds_; }
  double believability() const override;
  bool isPass(Action) const override { return false; }
  std::string actionToString(Action action) const override;
  std::string toString() const override;
  // Everything a seat sees (HexaLines hides nothing but the cells to come): the board's cells,
  // who lives, who is on turn and the revealed cell (docs/web-api.md).
  Json observationJson(int player) const override;
  // {"verb": "add", "field"} or {"verb": "rotate", "field", "sixths"} (docs/web-api.md).
  Json actionJson(Action action) const override;
  bool isOut(int p) const override { return !alive_[p]; }
  // A rotation's result does not depend on the cell the environment dealt.
  bool outcomeMatters(Action action) const override { return isAdd(action); }
  int chanceRecipient() const override { return player_; }

  // --- the board, for players, the GUI and tests ---
  const HexaLinesConfig& config() const { return config_; }
  const Board& board() const { return *config_.board; }
  const ShapeCatalogue& catalogue() const { return *config_.catalogue; }
  const Cell& cell(int field) const { return cells_[static_cast<size_t>(field)]; }
  bool alive(int p) const { return alive_[p]; }
  // The regular player on turn (also at the environment node revealing its cell).
  int player() const { return player_; }
  // The revealed cell (valid at a decision node).
  int revealedClass() const { return revealedClass_; }
  const Shape& revealedShape() const { return revealed_; }
  // The orientation a revealed cell of class `shapeClass` gets in round `round`.
  const Shape& orientationOf(int shapeClass, int round) const;
  // At the environment node: the cell that outcome `action` (a shape class) deals.
  const Shape& dealtShape(Action action) const { return orientationOf(action, rounds_); }
  // The field in front of player p's source.
  int frontField(int p) const { return board().neighbour(board().centre(), sourceSide(p)); }
  // The centre side player p's source opens through.
  static int sourceSide(int p) { return 2 * p; }
  // Player p's distinct directions with an own-coloured path end facing an empty field.
  int freeExitDirections(int p) const;
  // Player p's own-coloured path ends facing an empty field (its source's too), per direction.
  std::array<int, kSides> freeExits(int p) const;
  // The cells revealed to player p, counted by open sides 2..6.
  const std::array<int, kOpenSideBins>& received(int p) const { return received_[p]; }
  // The cells revealed to player p so far (0 until its first cell: the one dealt fair).
  int cellsDealt(int p) const;

  // The last kHistory decisions of all players, oldest first.
  std::span<const MoveRecord> history() const { return {history_.data(), historySize_}; }

  // --- actions ---
  int fields() const { return board().fields(); }
  Action addAction(int field) const { return field; }
  Action rotateAction(int field, int sixths) const { return fields() + kSides * field + sixths; }
  bool isAdd(Action action) const { return action < fields(); }
  // The field an action adds to or rotates.
  int fieldOf(Action action) const { return isAdd(action) ? action : (action - fields()) / 6; }
  // The sixths a rotation turns by (0 for an add).
  int sixthsOf(Action action) const { return isAdd(action) ? 0 : (action - fields()) % 6; }

  // --- set-up for tests and constructed positions ---
  // Places `shape` (of any class) on `field` with `owner` and no colour; recomputes nothing.
  void placeForTest(int field, const Shape& shape, int owner);
  // Makes `p` the player on turn at its decision node with `shape` revealed.
  void revealForTest(int p, const Shape& shape);
  // Floods every colour until stable (mover first = `mover`), as after a move.
  void recomputeForTest(int mover) { recompute(mover); }
  // Makes the next move flood every colour again (as after placeForTest), not only the colours
  // around its field: tests compare the two.
  void recomputeInFullNextForTest() { settled_ = false; }

 private:
  // Whether `shape` has an end on side `entry` (facing the source) whose segment has two more
  // ends on `freeSides` (a bit per side facing an empty on-board field).
  bool fairAt(int entry, unsigned freeSides, const Shape& shape) const;
  // Sets the classes the environment may deal the player on turn now (the fair ones for its first
  // cell, when the field in front of its source is empty then).
  void prepareDeal() const;
  bool rotatable(int field) const;
  // The catalogue index of `shape`'s class; throws std::invalid_argument if it has none.
  int classIndex(const Shape& shape) const;
  // The distinct orientations of class `shapeClass`.
  int periodOf(int shapeClass) const;
  uint64_t allClasses() const { return (uint64_t{1} << catalogue().classes()) - 1; }
  void recompute(int mover);
  // recompute after the move changed the cell on `field` of a settled board, flooding only the
  // colours it held (`held`, a bit per colour: flooded again from their sources) and the colours
  // facing it (`facing`: poured into it) when that is exact.
  void recomputeAround(int mover, int field, unsigned held, unsigned facing);
  // Pours every end of `colour` facing `field` (a neighbour's path end, or its source) into it.
  void pourInto(int colour, int field);
  // Gives segment `segment` of the cell on `field` colour `colour` (kNobody: none), keeping the
  // colour totals; in a trial, remembers what it was.
  void paint(int field, int segment, int8_t colour);
  // Clears colour `colour` from the board.
  void clearColour(int colour);
  // A bit per living colour with a path end or source facing `field`.
  unsigned coloursFacing(int field) const;
  bool pass(int mover);
  void pour(int colour, int field, int side);
  // Takes the colours of the cell on `field` off the colour totals (it is rotated or replaced).
  void uncolour(int field);
  void kill(int victim);
  void destroy(int field);
  void updateScores();
  void finishMove(int mover, int addedField);
  void remember(const MoveRecord& move);
  void checkEnd();
  int nextLiving(int p) const;
  std::array<int, kColours> colourOrder(int mover) const;

  HexaLinesConfig config_;  // shares the immutable board and catalogue
  uint64_t seed_;
  std::vector<Cell> cells_;
  std::array<bool, kColours> alive_{true, true, true};
  std::array<double, kColours> score_{};
  std::array<std::array<int, kOpenSideBins>, kColours> received_{};
  int player_ = 0;
  int revealedClass_ = -1;  // -1: the environment reveals next
  Shape revealed_;
  int rounds_ = 0;
  int winner_ = -1;
  bool over_ = false;
  bool capped_ = false;
  bool passChanged_ = false;
  // Every colour is at its fixed point (recompute ran since the last placeForTest), so a move needs
  // only the colours around its field flooded again (recomputeAround).
  bool settled_ = true;
  // recomputeAround's trial: a flood that would destroy a cell or kill a player stops and says so,
  // and every segment painted is remembered so that the trial can be taken back.
  bool trial_ = false;
  bool conflict_ = false;
  struct Painted {
    int8_t field, segment, colour;  // the colour it had
  };
  std::vector<Painted> painted_;  // empty between moves
  // The total length of each colour's segments on the board (a living player's score).
  std::array<int, kColours> coloured_{};
  FieldSet occupied_;  // fields holding a cell, the centre included
  // The deal is worked out when first asked for: simulations that only move never need it.
  mutable bool dealReady_ = false;
  mutable double dealableTotal_ = 1;  // their natural probability
  mutable uint64_t dealable_ =
      0;  // bit per class the environment may deal now (catalogues have <= 42)
  std::array<MoveRecord, kHistory> history_{};
  size_t historySize_ = 0;  // a destruction or kill happened in the current pass
};

class HexaLinesGame final : public Game {
 public:
  explicit HexaLinesGame(HexaLinesConfig config) : config_(std::move(config)) {}
  int numPlayers() const override { return kColours; }
  std::unique_ptr<State> newGame(uint64_t setupSeed) const override {
    return std::make_unique<HexaLinesState>(config_, setupSeed);
  }
  double statusScale() const override { return 4.0; }
  // Actions an add on each field, then a rotation by each sixth of each field; outcomes the
  // catalogue's class indices.
  std::optional<ActionBounds> actionBounds() const override {
    const int fields = config_.board->fields();
    const int classes = static_cast<int>(config_.catalogue->classes());
    return ActionBounds{fields + kSides * fields, classes, classes};
  }

 private:
  HexaLinesConfig config_;
};

// Registry entry: id "hexalines", its parameter schema and factory.
GameInfo gameInfo();

}  // namespace ddalab::hexalines
