#pragma once
// Ludo ("Člověče, nezlob se") with safe squares, 2 or 4 players (spec games/ludo.md).
#include <array>
#include <cstdint>
#include <memory>

#include "core/params.h"
#include "core/registry.h"
#include "core/state.h"
#include "core/state_copy.h"

namespace ddalab::ludo {

inline constexpr int kRing = 40;        // shared squares
inline constexpr int kLastSquare = 43;  // relative squares 40..43 are the private home
inline constexpr int kPieces = 4;
inline constexpr int kSeats = 4;
inline constexpr int kInHouse = -1;  // a piece's relative square while off the board

// Action ids of a regular decision: 0..43 = the relative square of the piece that moves.
inline constexpr Action kEnter = 44;  // move a piece from the house onto the start square
inline constexpr Action kPass = 45;   // no piece can move
// Environment outcomes are the die faces 1..kFaces.
inline constexpr int kFaces = 6;

struct LudoConfig {
  int players = 4;           // 2 (seats 0 and 2) or 4
  uint64_t safeSquares = 0;  // bit per absolute ring square
  bool startOnBoard = true;
  int maxRounds = 2000;
  double believabilityThreshold = 1.0;
  double streakPenalty = 5.0;

  bool isSafe(int square) const { return (safeSquares >> square) & 1u; }
};

class LudoState final : public State {
 public:
  explicit LudoState(const LudoConfig& config);

  std::unique_ptr<State> clone() const override { return std::make_unique<LudoState>(*this); }
  bool assign(const State& other) override { return assignSameClass(*this, other); }
  int numPlayers() const override { return config_.players; }
  int actor() const override;
  void legalActions(std::vector<Action>& out) const override;
  void outcomes(std::vector<Outcome>& out) const override;
  void apply(Action action) override;
  int winner() const override { return winner_; }
  bool capped() const override { return capped_; }
  double gain(int p) const override { return valueOfUnits(unitsOf(seatOf(p))); }
  // The mover's own value after its move, without a copy (its pieces with the one moved, against
  // the opponents' pieces less any it captures); other seats' values are left to a copy.
  std::optional<double> valueAfter(Action action, int p) const override;
  // valueAfter of each of the mover's actions, its units and the opponents' squares worked out
  // once.
  bool valueAfterEach(std::span<const Action> actions, int p,
                      std::span<double> values) const override;
  // The wanted players' values after the mover's move without a copy: the seats the move cannot
  // reach keep their units, the others are counted on the board as the move leaves it.
  bool valuesAfter(Action action, unsigned wanted, std::span<double> values) const override;
  void gains(std::span<double> gains) const override;
  // Counts every seat's units (a copy inherits them).
  void prepareCopies() const override;
  bool playersCanDropOut() const override { return false; }
  int roundsCompleted() const override { return rounds_; }
  double believability() const override;
  // The player who rolls.
  int chanceRecipient() const override { return player_; }
  bool isPass(Action action) const override { return action == kPass; }
  std::string actionToString(Action action) const override;
  std::string toString() const override;
  // Everything (Ludo hides nothing): the pieces of every seat that plays, the safe squares, the
  // roll (docs/web-api.md).
  Json observationJson(int player) const override;
  // {"verb": "move", "from": r, "to": r + roll} (relative squares, 40..43 the home), {"verb":
  // "enter"} or {"verb": "pass"} (docs/web-api.md).
  Json actionJson(Action action) const override;

  // Turns the seat still needs, in exact units of 1/21 turn (games/ludo.md heuristic).
  int turnsNeededUnits(int seat) const { return unitsWith(seat, pieces_[seat], opponentsOf(seat)); }
  // Relative square of a piece (kInHouse when off the board).
  int piece(int seat, int index) const { return pieces_[seat][index]; }
  // Places the pieces of a seat (tests and constructed positions); squares relative.
  void setPieces(int seat, std::array<int, kPieces> squares);
  int seatOf(int player) const { return config_.players == 2 ? 2 * player : player; }
  int currentRoll() const { return roll_; }
  const LudoConfig& config() const { return config_; }
  // The die faces rolled so far by player p, counted per face 1..6.
  const std::array<int, 6>& faceCounts(int p) const { return faces_[p]; }

 private:
  // The absolute ring square of `seat`'s relative ring square (0..39).
  static int absoluteSquare(int seat, int relative);
  bool hasPieceOnRing(int seat) const;
  bool canMove(int seat, int from, int roll) const;
  int targetOf(int from, int roll) const { return from == kInHouse ? 0 : from + roll; }
  uint64_t opponentsOf(int seat) const;  // ring squares held by other seats
  // turnsNeededUnits of `seat` with its pieces on `pieces` and the other seats on `opponents`.
  int unitsWith(int seat, const std::array<int8_t, kPieces>& pieces, uint64_t opponents) const;
  // One piece's part of unitsWith: `seat`'s piece on relative square r.
  int pieceUnits(int seat, int r, uint64_t opponents) const;
  // A seat's gain and value: minus the turns it still needs (`units` of 1/21 turn).
  static double valueOfUnits(int units) { return -units / 21.0; }
  // turnsNeededUnits(seat), recomputed only when a move may have changed it.
  int unitsOf(int seat) const;
  // The mover's value after `action`, given its units and the squares its opponents hold.
  double valueAfterMove(Action action, int seat, int units, uint64_t opponents) const;
  // What moving `seat`'s piece from relative square `from` to `to` does on the ring.
  struct Step {
    int left = -1;               // absolute ring square the piece leaves, -1 from the house
    int reached = -1;            // absolute ring square it reaches, -1 when it goes home
    int victim = -1;             // seat whose piece on `reached` is captured, -1 none
    uint64_t threatChanged = 0;  // ring squares where a threat may have appeared or gone
  };
  Step stepOf(int seat, int from, int to) const;
  // Updates every seat's ring squares `ring` for `seat`'s `step` (a captured piece leaves its
  // square).
  static void moveOnRing(std::array<uint64_t, kSeats>& ring, int seat, const Step& step);
  // Sends `seat`'s piece on absolute ring square `square` (among `pieces`) back to its house.
  static void sendHome(std::array<int8_t, kPieces>& pieces, int seat, int square);
  void movePiece(int seat, int from, int to);
  void rebuildBoard();
  void finishTurn();
  void recordRoll(int face);

  LudoConfig config_;  // a copy: states never depend on the Game's lifetime
  std::array<std::array<int8_t, kPieces>, kSeats> pieces_{};
  std::array<int8_t, kRing> board_{};        // seat occupying each absolute square, -1 empty
  std::array<uint64_t, kSeats> ringMask_{};  // per seat, a bit per absolute square it occupies
  int player_ = 0;                           // regular player on turn
  int roll_ = 0;                             // 0 = the die has not been rolled yet this try
  int tries_ = 0;                            // rolls made this round
  int rounds_ = 0;
  int winner_ = -1;
  bool capped_ = false;
  bool over_ = false;
  std::array<std::array<int, 6>, kSeats> faces_{};  // per player
  // Per player, the rolls and the sum of the face counts' squares: believability from them in
  // constant time (the searches ask for it at the end of every line).
  std::array<int, kSeats> rolls_{};
  std::array<long long, kSeats> rollSquares_{};
  std::array<int, kSeats> lastFace_{};
  std::array<int, kSeats> runLength_{};
  std::array<int, kSeats> streakExcess_{};  // sum over runs of (length - 2) for length >= 3
  // turnsNeededUnits per seat as last computed, and a bit per seat whose value is out of date
  // (a seat's units change only when its own pieces move, are captured, or an opponent arrives
  // at or leaves one of the six squares behind them).
  mutable std::array<int, kSeats> units_{};
  mutable unsigned staleUnits_ = (1u << kSeats) - 1;
};

class LudoGame final : public Game {
 public:
  explicit LudoGame(const LudoConfig& config) : config_(config) {}
  int numPlayers() const override { return config_.players; }
  std::unique_ptr<State> newGame(uint64_t setupSeed) const override;
  double statusScale() const override { return 3.0; }
  // Actions 0..kPass (a relative square, kEnter, kPass); outcomes the faces 1..kFaces.
  std::optional<ActionBounds> actionBounds() const override {
    return ActionBounds{kPass + 1, kFaces + 1, kFaces};
  }

 private:
  LudoConfig config_;
};

// Registry entry: id "ludo", its parameter schema and factory.
GameInfo gameInfo();

}  // namespace ddalab::ludo
