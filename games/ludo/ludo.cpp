#include "games/ludo/ludo.h"

#include <algorithm>
#include <sstream>

#include "core/believability.h"

namespace ddalab::ludo {

namespace {

constexpr int kHouseUnits = 268;  // 40/3.5 + 4/3 turns, in units of 1/21

// Per absolute square q, the bits of the six ring squares behind it (q-6 .. q-1).
constexpr std::array<uint64_t, kRing> kBehindMasks = [] {
  std::array<uint64_t, kRing> masks{};
  for (int q = 0; q < kRing; ++q)
    for (int d = 1; d <= 6; ++d) masks[q] |= uint64_t{1} << ((q - d + kRing) % kRing);
  return masks;
}();

// Per absolute square q, the bits of the six ring squares ahead of it (q+1 .. q+6): the squares
// whose pieces a piece on q threatens.
constexpr std::array<uint64_t, kRing> kAheadMasks = [] {
  std::array<uint64_t, kRing> masks{};
  for (int q = 0; q < kRing; ++q)
    for (int d = 1; d <= 6; ++d) masks[q] |= uint64_t{1} << ((q + d) % kRing);
  return masks;
}();

// Per seat and relative ring square r, the absolute square (absoluteSquare: a load instead of a
// division, in the hottest function of the searches).
constexpr std::array<std::array<int8_t, kRing>, kSeats> kSquareOf = [] {
  std::array<std::array<int8_t, kRing>, kSeats> squares{};
  for (int seat = 0; seat < kSeats; ++seat)
    for (int r = 0; r < kRing; ++r) squares[seat][r] = static_cast<int8_t>((10 * seat + r) % kRing);
  return squares;
}();

// Per relative ring square r, a piece's units before any threat: 6 per square still to go, and 84
// more within the last six (games/ludo.md heuristic).
constexpr std::array<int, kRing> kRingUnits = [] {
  std::array<int, kRing> units{};
  for (int r = 0; r < kRing; ++r) units[r] = 6 * (kRing - r) + (kRing - r <= 6 ? 84 : 0);
  return units;
}();

}  // namespace

int LudoState::absoluteSquare(int seat, int relative) {
  return kSquareOf[seat][relative];
}

LudoState::LudoState(const LudoConfig& config) : config_(config) {
  for (int seat = 0; seat < kSeats; ++seat)
    for (int i = 0; i < kPieces; ++i)
      pieces_[seat][i] = static_cast<int8_t>(config_.startOnBoard ? i : kInHouse);
  rebuildBoard();
}

void LudoState::setPieces(int seat, std::array<int, kPieces> squares) {
  for (int i = 0; i < kPieces; ++i) pieces_[seat][i] = static_cast<int8_t>(squares[i]);
  rebuildBoard();
}

void LudoState::rebuildBoard() {
  staleUnits_ = (1u << kSeats) - 1;
  board_.fill(-1);
  ringMask_.fill(0);
  for (int p = 0; p < numPlayers(); ++p) {
    const int seat = seatOf(p);
    for (int r : pieces_[seat]) {
      if (r < 0 || r >= kRing) continue;
      board_[absoluteSquare(seat, r)] = static_cast<int8_t>(seat);
      ringMask_[seat] |= uint64_t{1} << absoluteSquare(seat, r);
    }
  }
}

int LudoState::actor() const {
  if (over_) return kTerminal;
  return roll_ == 0 ? kEnvironment : player_;
}

bool LudoState::hasPieceOnRing(int seat) const {
  return std::any_of(pieces_[seat].begin(), pieces_[seat].end(),
                     [](int r) { return r >= 0 && r < kRing; });
}

bool LudoState::canMove(int seat, int from, int roll) const {
  if (from == kInHouse && roll != 6) return false;
  const int to = targetOf(from, roll);
  if (to > kLastSquare) return false;
  if (to >= kRing)  // home squares are private: only own pieces can block them
    return std::none_of(pieces_[seat].begin(), pieces_[seat].end(),
                        [to](int r) { return r == to; });
  const int square = absoluteSquare(seat, to);
  const int occupant = board_[square];
  if (occupant == seat) return false;
  return occupant < 0 || !config_.isSafe(square);
}

void LudoState::legalActions(std::vector<Action>& out) const {
  out.clear();
  if (actor() < 0) return;
  const int seat = seatOf(player_);
  // The pieces' squares in ascending order (the order of the actions), by a sorting network.
  std::array<int, kPieces> r;
  std::copy(pieces_[seat].begin(), pieces_[seat].end(), r.begin());
  const auto order = [&r](size_t i, size_t j) {
    const int low = std::min(r[i], r[j]);
    r[j] = std::max(r[i], r[j]);
    r[i] = low;
  };
  order(0, 1), order(2, 3), order(0, 2), order(1, 3), order(1, 2);
  std::array<Action, kPieces> moves;
  size_t count = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] == kInHouse && i > 0 && r[i - 1] == kInHouse) continue;  // one action for the house
    if (canMove(seat, r[i], roll_)) moves[count++] = r[i] == kInHouse ? kEnter : r[i];
  }
  if (count == 0) out.push_back(kPass);
  out.insert(out.end(), moves.begin(), moves.begin() + static_cast<ptrdiff_t>(count));
}

void LudoState::outcomes(std::vector<Outcome>& out) const {
  static constexpr std::array<Outcome, kFaces> kDie = {
      {{1, 1.0 / 6}, {2, 1.0 / 6}, {3, 1.0 / 6}, {4, 1.0 / 6}, {5, 1.0 / 6}, {6, 1.0 / 6}}};
  out.clear();
  if (actor() == kEnvironment) out.assign(kDie.begin(), kDie.end());
}

void LudoState::recordRoll(int face) {
  rollSquares_[player_] += 2 * faces_[player_][face - 1] + 1;  // (c + 1)^2 - c^2
  ++faces_[player_][face - 1];
  ++rolls_[player_];
  runLength_[player_] = (lastFace_[player_] == face) ? runLength_[player_] + 1 : 1;
  lastFace_[player_] = face;
  if (runLength_[player_] >= 3) ++streakExcess_[player_];
}

void LudoState::apply(Action action) {
  if (actor() == kEnvironment) {
    recordRoll(action);
    ++tries_;
    roll_ = action;
    // With no piece on the ring the player may roll up to three times until a 6.
    if (action != 6 && tries_ < 3 && !hasPieceOnRing(seatOf(player_))) roll_ = 0;
    return;
  }
  const int seat = seatOf(player_);
  if (action != kPass) {
    const int from = action == kEnter ? kInHouse : action;
    movePiece(seat, from, targetOf(from, roll_));
    if (std::all_of(pieces_[seat].begin(), pieces_[seat].end(), [](int r) { return r >= kRing; })) {
      winner_ = player_;
      over_ = true;
    }
  }
  finishTurn();
}

LudoState::Step LudoState::stepOf(int seat, int from, int to) const {
  Step step;
  if (from >= 0 && from < kRing) {
    step.left = absoluteSquare(seat, from);
    step.threatChanged |= kAheadMasks[step.left];
  }
  if (to < kRing) {
    step.reached = absoluteSquare(seat, to);
    step.victim = board_[step.reached];
    step.threatChanged |= kAheadMasks[step.reached];
  }
  return step;
}

void LudoState::sendHome(std::array<int8_t, kPieces>& pieces, int seat, int square) {
  for (auto& r : pieces)
    if (r >= 0 && r < kRing && absoluteSquare(seat, r) == square) r = kInHouse;
}

void LudoState::moveOnRing(std::array<uint64_t, kSeats>& ring, int seat, const Step& step) {
  if (step.left >= 0) ring[seat] &= ~(uint64_t{1} << step.left);
  if (step.reached >= 0) {
    const uint64_t bit = uint64_t{1} << step.reached;
    ring[seat] |= bit;
    if (step.victim >= 0) ring[step.victim] &= ~bit;
  }
}

void LudoState::movePiece(int seat, int from, int to) {
  auto& mine = pieces_[seat];
  *std::find(mine.begin(), mine.end(), static_cast<int8_t>(from)) = static_cast<int8_t>(to);
  const Step step = stepOf(seat, from, to);
  // Without a capture the opponents' squares stay, and with them the threats to the mover's other
  // pieces: its kept units change by the moved piece's part alone (valueAfterMove's sum).
  const unsigned self = 1u << seat;
  if (step.victim < 0 && !(staleUnits_ & self)) {
    const uint64_t opponents = opponentsOf(seat);
    units_[seat] += pieceUnits(seat, to, opponents) - pieceUnits(seat, from, opponents);
  } else {
    staleUnits_ |= self;
  }
  moveOnRing(ringMask_, seat, step);
  if (step.left >= 0) board_[step.left] = -1;
  if (step.reached >= 0) {
    if (step.victim >= 0) {  // capture: back to its house
      sendHome(pieces_[step.victim], step.victim, step.reached);
      staleUnits_ |= 1u << step.victim;
    }
    board_[step.reached] = static_cast<int8_t>(seat);
  }
  for (int other = 0; other < kSeats; ++other)  // threats to the other seats' pieces may change
    if (other != seat && (ringMask_[other] & step.threatChanged)) staleUnits_ |= 1u << other;
}

int LudoState::unitsOf(int seat) const {
  if (staleUnits_ & (1u << seat)) {
    units_[seat] = turnsNeededUnits(seat);
    staleUnits_ &= ~(1u << seat);
  }
  return units_[seat];
}

std::optional<double> LudoState::valueAfter(Action action, int p) const {
  if (actor() != p) return std::nullopt;
  const int seat = seatOf(p);
  return valueAfterMove(action, seat, unitsOf(seat), opponentsOf(seat));
}

bool LudoState::valueAfterEach(std::span<const Action> actions, int p,
                               std::span<double> values) const {
  if (actor() != p) return false;
  const int seat = seatOf(p);
  const int units = unitsOf(seat);
  const uint64_t opponents = opponentsOf(seat);
  for (size_t i = 0; i < actions.size(); ++i)
    values[i] = valueAfterMove(actions[i], seat, units, opponents);
  return true;
}

bool LudoState::valuesAfter(Action action, unsigned wanted, std::span<double> values) const {
  if (actor() < 0) return false;
  const int seat = seatOf(player_);
  const int from = action == kEnter ? kInHouse : action;
  const Step step = action == kPass ? Step{} : stepOf(seat, from, targetOf(from, roll_));
  std::array<uint64_t, kSeats> ring = ringMask_;  // as the move leaves it
  moveOnRing(ring, seat, step);
  const uint64_t occupied = ring[0] | ring[1] | ring[2] | ring[3];
  for (int p = 0; p < numPlayers(); ++p) {
    if (!((wanted >> p) & 1u)) continue;
    const int s = seatOf(p);
    double& value = values[static_cast<size_t>(p)];
    if (s == seat) {
      value = valueAfterMove(action, s, unitsOf(s), opponentsOf(s));
    } else if (s == step.victim) {
      std::array<int8_t, kPieces> pieces = pieces_[s];
      sendHome(pieces, s, step.reached);
      value = valueOfUnits(unitsWith(s, pieces, occupied & ~ring[s]));
    } else if (ring[s] & step.threatChanged) {
      value = valueOfUnits(unitsWith(s, pieces_[s], occupied & ~ring[s]));
    } else {
      value = valueOfUnits(unitsOf(s));
    }
  }
  return true;
}

double LudoState::valueAfterMove(Action action, int seat, int units, uint64_t opponents) const {
  if (action == kPass) return valueOfUnits(units);  // value(p): the board stays
  const int from = action == kEnter ? kInHouse : action;
  const int to = targetOf(from, roll_);
  const uint64_t captured = to < kRing ? opponents & (uint64_t{1} << absoluteSquare(seat, to)) : 0;
  if (!captured)  // the other pieces keep their threats: only the moved piece's part changes
    return valueOfUnits(units - pieceUnits(seat, from, opponents) +
                        pieceUnits(seat, to, opponents));
  std::array<int8_t, kPieces> pieces = pieces_[seat];
  *std::find(pieces.begin(), pieces.end(), static_cast<int8_t>(from)) = static_cast<int8_t>(to);
  return valueOfUnits(unitsWith(seat, pieces, opponents & ~captured));
}

void LudoState::gains(std::span<double> gains) const {
  for (int p = 0; p < numPlayers(); ++p) gains[static_cast<size_t>(p)] = gain(p);
}

void LudoState::prepareCopies() const {
  for (int p = 0; p < numPlayers(); ++p) unitsOf(seatOf(p));
}

void LudoState::finishTurn() {
  ++rounds_;
  roll_ = 0;
  tries_ = 0;
  player_ = (player_ + 1) % numPlayers();
  if (!over_ && rounds_ >= config_.maxRounds) {
    capped_ = true;
    over_ = true;
  }
}

uint64_t LudoState::opponentsOf(int seat) const {
  static_assert(kSeats == 4);  // the seats' ring masks are disjoint: all of them but its own
  return (ringMask_[0] | ringMask_[1] | ringMask_[2] | ringMask_[3]) & ~ringMask_[seat];
}

int LudoState::unitsWith(int seat, const std::array<int8_t, kPieces>& pieces,
                         uint64_t opponents) const {
  int units = 0;
  for (int r : pieces) units += pieceUnits(seat, r, opponents);
  return units;
}

int LudoState::pieceUnits(int seat, int r, uint64_t opponents) const {
  if (r == kInHouse) return kHouseUnits;
  if (r >= kRing) return 0;  // home
  const int square = absoluteSquare(seat, r);
  // Expected loss of the progress made when an opponent stands 1-6 squares behind.
  const bool threatened = !config_.isSafe(square) && (opponents & kBehindMasks[square]);
  return kRingUnits[r] + (threatened ? r : 0);
}

double LudoState::believability() const {
  double total = 0;
  for (int p = 0; p < numPlayers(); ++p)
    total += belPCOfSums(6, rolls_[p], rollSquares_[p], config_.believabilityThreshold) +
             config_.streakPenalty * streakExcess_[p];
  return total;
}

std::string LudoState::actionToString(Action action) const {
  if (actor() == kEnvironment) return "roll " + std::to_string(action);
  if (action == kPass) return "pass";
  if (action == kEnter) return "enter";
  const int to = action + roll_;
  return "move " + std::to_string(action) + "->" +
         (to >= kRing ? "home" + std::to_string(to - kRing + 1) : std::to_string(to));
}

Json LudoState::actionJson(Action action) const {
  if (actor() < 0) return Json::object();
  if (action == kPass) return {{"verb", "pass"}};
  if (action == kEnter) return {{"verb", "enter"}};
  return {{"verb", "move"}, {"from", action}, {"to", action + roll_}};
}

std::string LudoState::toString() const {
  std::ostringstream out;
  out << "round " << rounds_ << ", player " << player_ << " on turn";
  if (roll_) out << " with roll " << roll_;
  out << "\n";
  for (int p = 0; p < numPlayers(); ++p) {
    out << "player " << p << " (seat " << seatOf(p) << "):";
    for (int r : pieces_[seatOf(p)])
      out << ' ' << (r == kInHouse ? std::string("house") : std::to_string(r));
    out << "  gain " << gain(p) << "\n";
  }
  out << "ring:";
  for (int sq = 0; sq < kRing; ++sq)
    out << (board_[sq] < 0 ? (config_.isSafe(sq) ? '*' : '.')
                           : static_cast<char>('0' + board_[sq]));
  if (over_)
    out << "\n" << (capped_ ? "capped (draw)" : "winner: player " + std::to_string(winner_));
  return out.str();
}

Json LudoState::observationJson(int player) const {
  Json seats = Json::array();
  for (int p = 0; p < numPlayers(); ++p) {
    const int seat = seatOf(p);
    Json pieces = Json::array();
    for (int r : pieces_[seat]) pieces.push_back(r);
    seats.push_back({{"player", p}, {"seat", seat}, {"pieces", pieces}});
  }
  Json safe = Json::array();
  for (int square = 0; square < kRing; ++square)
    if (config_.isSafe(square)) safe.push_back(square);
  return {{"players", numPlayers()},
          {"yourSeat", seatOf(player)},
          {"seats", seats},
          {"safe", safe},
          {"roll", roll_}};
}

std::unique_ptr<State> LudoGame::newGame(uint64_t) const {
  return std::make_unique<LudoState>(config_);  // Ludo's set-up is fixed: no random deal
}

GameInfo gameInfo() {
  GameInfo info;
  info.id = "ludo";
  info.description = "Ludo with safe squares, 2 or 4 players, the environment rolls the die";
  info.thesisCoefficients = {{"believability", 1000}, {"fairness", 10}, {"leading_time", 10},
                             {"tension", 10},         {"lead", 3},      {"freedom", 1}};
  info.params = {
      {"players", ParamType::Int, 4, 2, 4, "number of players (2 uses seats 0 and 2)", {2, 4}},
      {"safe_squares", ParamType::IntList, Json::array({0, 5, 10, 15, 20, 25, 30, 35}), 0, 39,
       "ring squares where no piece can be captured (start squares are 0, 10, 20, 30)"},
      {"start_on_board", ParamType::Bool, true, 0, 0,
       "pieces start on relative squares 0..3 (false: all in the house)"},
      {"max_rounds", ParamType::Int, 2000, 1, 1e6, "rounds after which the game is a draw"},
      {"believability_threshold", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over each player's die faces"},
      {"streak_penalty", ParamType::Double, 5.0, 0, 1e6,
       "believability added per roll beyond the 2nd in a run of equal faces"},
  };
  info.make = [](const Json& p) -> std::shared_ptr<const Game> {
    LudoConfig config;
    config.players = p.at("players").get<int>();
    for (int square : p.at("safe_squares")) config.safeSquares |= uint64_t{1} << square;
    config.startOnBoard = p.at("start_on_board").get<bool>();
    config.maxRounds = p.at("max_rounds").get<int>();
    config.believabilityThreshold = p.at("believability_threshold").get<double>();
    config.streakPenalty = p.at("streak_penalty").get<double>();
    return std::make_shared<LudoGame>(config);
  };
  return info;
}

}  // namespace ddalab::ludo
