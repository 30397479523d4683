#include "games/hexalines/hexalines.h"

#include <algorithm>
#include <bit>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "core/believability.h"
#include "core/params.h"
#include "core/rng.h"

namespace ddalab::hexalines {

namespace {

constexpr const char* kColourNames[kColours] = {"red", "green", "blue"};
// A pass that changes something lowers the number of cells, kills a player or reaches a fixed
// colouring within a few passes; far more passes than that is a bug, not a position.
constexpr int kMaxPasses = 1000;

}  // namespace

Cell Cell::of(int shapeClass, int period, const Shape& oriented) {
  Cell c;
  c.shapeClass = static_cast<int8_t>(shapeClass);
  c.period = static_cast<int8_t>(period);
  c.shape = oriented;
  c.rotate(0);
  return c;
}

void Cell::rotate(int sixths) {
  shape = shape.rotated(sixths);  // renumbers the segments by their first side
  sides.fill(0);
  for (int side = 0; side < kSides; ++side)
    if (shape.segmentOf[side] != kWall) sides[shape.segmentOf[side]] |= 1u << side;
  for (int s = 0; s < kMaxSegments; ++s) length[s] = static_cast<int8_t>(std::popcount(sides[s]));
  colour.fill(kNobody);
}

HexaLinesState::HexaLinesState(const HexaLinesConfig& config, uint64_t seed)
    : config_(config), seed_(seed), player_(config.firstPlayer) {
  cells_.resize(static_cast<size_t>(board().fields()));
  occupied_.set(board().centre());
}

int HexaLinesState::actor() const {
  if (over_) return kTerminal;
  return revealedClass_ < 0 ? kEnvironment : player_;
}

const Shape& HexaLinesState::orientationOf(int shapeClass, int round) const {
  const auto& variants = catalogue().at(static_cast<size_t>(shapeClass)).variants;
  // One mix of a distinct input per (round, class): the game seed is already a mixed 64-bit value.
  const uint64_t hash =
      splitmix64(seed_ ^ ((static_cast<uint64_t>(round) << 8) | static_cast<uint64_t>(shapeClass)));
  // The high half scaled to the variant count (a multiply, not a division: this runs for every
  // class in every round while a source's front field is empty).
  return variants[((hash >> 32) * variants.size()) >> 32];
}

// Fair in front of a source: an end on the centre-facing side whose segment has two more ends
// facing empty on-board fields (games/hexalines.md, "Precise choices"). `freeSides` has a bit per
// side of the field that faces an empty on-board field.
bool HexaLinesState::fairAt(int entry, unsigned freeSides, const Shape& shape) const {
  const uint8_t segment = shape.segmentOf[entry];
  if (segment == kWall) return false;
  unsigned ends = 0;
  for (int side = 0; side < kSides; ++side)
    if (shape.segmentOf[side] == segment) ends |= 1u << side;
  return std::popcount(ends & freeSides) >= 2;
}

int HexaLinesState::cellsDealt(int p) const {
  const auto& counts = received_[static_cast<size_t>(p)];
  return std::accumulate(counts.begin(), counts.end(), 0);
}

void HexaLinesState::prepareDeal() const {
  if (dealReady_) return;
  dealReady_ = true;
  dealable_ = 0;
  const int front = frontField(player_);
  // Only the player's first cell is dealt fair; later cells are dealt naturally even while the
  // front field stays empty (the seed: "další buňky už jsou generovány náhodně").
  if (front >= 0 && cell(front).empty() && cellsDealt(player_) == 0) {
    const int entry = oppositeSide(sourceSide(player_));
    unsigned freeSides = 0;
    for (int side = 0; side < kSides; ++side) {
      const int next = board().neighbour(front, side);
      if (next >= 0 && !occupied_.test(static_cast<size_t>(next))) freeSides |= 1u << side;
    }
    for (size_t c = 0; c < catalogue().classes(); ++c)
      if (fairAt(entry, freeSides, orientationOf(static_cast<int>(c), rounds_)))
        dealable_ |= uint64_t{1} << c;
  }
  // A later cell, no fair class, or the front field is taken: the cell is dealt as any other.
  if (dealable_ == 0) dealable_ = allClasses();
  dealableTotal_ = 0;
  for (size_t c = 0; c < catalogue().classes(); ++c)
    if ((dealable_ >> c) & 1u) dealableTotal_ += catalogue().probability(c);
}

void HexaLinesState::outcomes(std::vector<Outcome>& out) const {
  out.clear();
  if (actor() != kEnvironment) return;
  prepareDeal();
  if (dealable_ == allClasses()) {
    out = *config_.naturalDeal;
    return;
  }
  for (size_t c = 0; c < catalogue().classes(); ++c)
    if ((dealable_ >> c) & 1u)
      out.push_back({static_cast<Action>(c), catalogue().probability(c) / dealableTotal_});
}

bool HexaLinesState::rotatable(int field) const {
  const Cell& c = cell(field);
  return !c.empty() && (c.owner == kNobody || c.owner == player_);  // the centre holds no cell
}

void HexaLinesState::legalActions(std::vector<Action>& out) const {
  out.clear();
  if (actor() < 0) return;
  FieldSet frontier;  // empty fields next to an occupied one
  for (size_t field = occupied_._Find_first(); field < occupied_.size();
       field = occupied_._Find_next(field))
    frontier |= board().around(static_cast<int>(field));
  frontier &= ~occupied_;
  // Written through a pointer into room for every possible action: late in a game there are
  // ~150 of them, and this runs for every decision.
  out.resize(frontier.count() + static_cast<size_t>(fields()) * (kSides - 1));
  Action* next = out.data();
  for (size_t field = frontier._Find_first(); field < frontier.size();
       field = frontier._Find_next(field))
    *next++ = addAction(static_cast<int>(field));
  for (int field = 0; field < fields(); ++field) {
    if (!rotatable(field)) continue;
    const Action first = rotateAction(field, 0);
    for (int k = 1; k < cell(field).period; ++k) *next++ = first + k;
  }
  out.resize(static_cast<size_t>(next - out.data()));
}

void HexaLinesState::apply(Action action) {
  if (actor() == kEnvironment) {
    revealedClass_ = action;
    revealed_ = orientationOf(action, rounds_);
    ++received_[player_][static_cast<size_t>(revealed_.openSides() - 2)];
    return;
  }
  const int mover = player_;
  const int field = fieldOf(action);
  remember({static_cast<int8_t>(mover), isAdd(action), static_cast<int8_t>(field),
            static_cast<int8_t>(sixthsOf(action)), isAdd(action) ? revealed_ : Shape{}});
  Cell& target = cells_[static_cast<size_t>(field)];
  const unsigned held = target.colours();
  uncolour(field);
  if (isAdd(action)) {
    target = Cell::of(revealedClass_, periodOf(revealedClass_), revealed_);
    occupied_.set(static_cast<size_t>(field));
  } else {
    target.rotate(sixthsOf(action));
  }
  recomputeAround(mover, field, held, coloursFacing(field));
  finishMove(mover, isAdd(action) ? field : -1);
}

void HexaLinesState::remember(const MoveRecord& move) {
  if (historySize_ == history_.size()) {
    std::move(history_.begin() + 1, history_.end(), history_.begin());
    --historySize_;
  }
  history_[historySize_++] = move;
}

void HexaLinesState::finishMove(int mover, int addedField) {
  if (addedField >= 0 && alive_[mover]) {
    Cell& added = cells_[static_cast<size_t>(addedField)];
    if (!added.empty() &&
        std::find(added.colour.begin(), added.colour.end(), mover) != added.colour.end())
      added.owner = static_cast<int8_t>(mover);
  }
  updateScores();
  ++rounds_;
  revealedClass_ = -1;
  checkEnd();
  if (over_) return;
  player_ = nextLiving(mover);
  dealReady_ = false;
}

void HexaLinesState::checkEnd() {
  const int living = static_cast<int>(std::count(alive_.begin(), alive_.end(), true));
  const bool full = static_cast<int>(occupied_.count()) == fields();
  if (living <= 1) {
    over_ = true;
    winner_ = living == 1
                  ? static_cast<int>(std::find(alive_.begin(), alive_.end(), true) - alive_.begin())
                  : -1;
  } else if (full) {
    over_ = true;
    double top = -1;
    for (int p = 0; p < kColours; ++p)
      if (alive_[p]) top = std::max(top, score_[p]);
    int leaders = 0;
    for (int p = 0; p < kColours; ++p)
      if (alive_[p] && score_[p] == top) {
        ++leaders;
        winner_ = p;
      }
    if (leaders > 1) winner_ = -1;
  } else if (rounds_ >= config_.maxRounds) {
    over_ = true;
    capped_ = true;
  }
}

int HexaLinesState::nextLiving(int p) const {
  for (int step = 1; step <= kColours; ++step) {
    const int next = (p + step) % kColours;
    if (alive_[next]) return next;
  }
  return p;
}

// mover-first: the mover, then the player before it, then the one before that (R gives R, B, G);
// fixed-rbg: red, blue, green whoever moved.
std::array<int, kColours> HexaLinesState::colourOrder(int mover) const {
  if (config_.recalcOrder == RecalcOrder::FixedRbg) return {0, 2, 1};
  return {mover, (mover + 2) % kColours, (mover + 1) % kColours};
}

void HexaLinesState::recompute(int mover) {
  for (int passes = 0; pass(mover); ++passes)
    if (passes > kMaxPasses) throw std::logic_error("HexaLines: the colours do not settle");
  settled_ = true;
}

// Why flooding only the colours around the changed field is exact. On a settled board no colour's
// flood reaches a segment of another colour (it would have destroyed it), so every segment next to
// a colour's region is its own, a wall, or off the board. A colour with no path end or source
// facing the changed field, and none of its segments in it, therefore floods exactly its old
// region in a whole pass too, whatever the others do before it: a segment another colour newly
// reaches cannot lie next to its region (it would have flooded it already) unless that other colour
// meets it, which is a destruction. A colour that only faces the field keeps its old region and
// gains what it reaches through the field, so pouring its facing ends into the field gives what
// flooding it again from its source would. So when the colours around the field, in the pass
// order, meet no other colour and no other source, the whole pass would have changed the same
// segments and no more, and being without change it ends the recomputation. When they do meet one,
// the board is put back as the move left it (the segments painted are remembered) and recomputed
// in full.
void HexaLinesState::recomputeAround(int mover, int field, unsigned held, unsigned facing) {
  if (!settled_) return recompute(mover);
  trial_ = true;
  conflict_ = false;
  for (int colour : colourOrder(mover)) {
    if (!alive_[colour]) continue;
    if ((held >> colour) & 1u) {  // the change may cut its region off: flood again from the source
      clearColour(colour);
      pour(colour, board().centre(), sourceSide(colour));
    } else if ((facing >> colour) & 1u) {  // its region only grows by what it reaches through it
      pourInto(colour, field);
    }
    if (conflict_) break;
  }
  trial_ = false;
  if (conflict_) {
    for (auto it = painted_.rbegin(); it != painted_.rend(); ++it)
      paint(it->field, it->segment, it->colour);
  }
  painted_.clear();
  if (conflict_) recompute(mover);
}

void HexaLinesState::pourInto(int colour, int field) {
  for (int side = 0; side < kSides; ++side) {
    const int next = board().neighbour(field, side);
    const int back = oppositeSide(side);  // the neighbour's side facing the field
    if (next == board().centre()) {
      if (back == sourceSide(colour)) pour(colour, next, back);
    } else if (next >= 0 && cell(next).colourAt(back) == colour) {
      pour(colour, next, back);
    }
  }
}

void HexaLinesState::paint(int field, int segment, int8_t colour) {
  Cell& c = cells_[static_cast<size_t>(field)];
  const int8_t old = c.colour[static_cast<size_t>(segment)];
  if (old == colour) return;
  if (trial_) painted_.push_back({static_cast<int8_t>(field), static_cast<int8_t>(segment), old});
  if (old != kNobody) coloured_[static_cast<size_t>(old)] -= c.length[static_cast<size_t>(segment)];
  if (colour != kNobody)
    coloured_[static_cast<size_t>(colour)] += c.length[static_cast<size_t>(segment)];
  c.colour[static_cast<size_t>(segment)] = colour;
}

void HexaLinesState::clearColour(int colour) {
  for (int field = 0; field < fields(); ++field)
    for (int s = 0; s < kMaxSegments; ++s)
      if (cells_[static_cast<size_t>(field)].colour[static_cast<size_t>(s)] == colour)
        paint(field, s, kNobody);
}

void HexaLinesState::uncolour(int field) {
  for (int s = 0; s < kMaxSegments; ++s) paint(field, s, kNobody);
}

unsigned HexaLinesState::coloursFacing(int field) const {
  unsigned mask = 0;
  for (int side = 0; side < kSides; ++side) {
    const int next = board().neighbour(field, side);
    if (next < 0) continue;
    if (next == board().centre()) {  // a source opens on the centre's side facing this field
      const int owner = oppositeSide(side) / 2;
      if (oppositeSide(side) % 2 == 0 && alive_[owner]) mask |= 1u << owner;
      continue;
    }
    const int8_t c = cell(next).colourAt(oppositeSide(side));
    if (c != kNobody) mask |= 1u << c;
  }
  return mask;
}

// One pass: every living colour in order is cleared and flooded again from its source. True when
// it destroyed a cell or killed a player. A pass that did neither is a fixed point, so the pass
// the rules add to see that nothing changes is skipped: each colour's flood then met no other
// colour, so it coloured its whole reachable region, which touches no other region, and flooding
// again colours the same segments (the test "recomputation is idempotent" checks this).
bool HexaLinesState::pass(int mover) {
  passChanged_ = false;
  for (int colour : colourOrder(mover)) {
    if (!alive_[colour]) continue;
    clearColour(colour);
    pour(colour, board().centre(), sourceSide(colour));
  }
  return passChanged_;
}

// Pours `colour` across side `side` of `field` into the neighbour there: colours and enters an
// empty segment, stops at its own colour, destroys a cell of a foreign colour, kills the owner of
// a living source it reaches.
void HexaLinesState::pour(int colour, int field, int side) {
  const int next = board().neighbour(field, side);
  if (next < 0) return;  // off the board: a dead end
  const int entry = oppositeSide(side);
  if (next == board().centre()) {
    const int owner = entry / 2;
    if (entry % 2 == 0 && owner != colour && alive_[owner]) {
      if (trial_)
        conflict_ = true;
      else
        kill(owner);
    }
    return;
  }
  Cell& reached = cells_[static_cast<size_t>(next)];
  if (reached.empty()) return;
  const uint8_t segment = reached.shape.segmentOf[entry];
  if (segment == kWall) return;
  const int8_t held = reached.colour[segment];
  if (held == colour) return;
  if (held != kNobody) {
    if (trial_)
      conflict_ = true;
    else
      destroy(next);
    return;
  }
  paint(next, segment, static_cast<int8_t>(colour));
  for (int out = 0; out < kSides; ++out) {
    if (reached.empty()) return;  // this flood removed its own cell
    if (reached.shape.segmentOf[out] == segment) pour(colour, next, out);
  }
}

void HexaLinesState::kill(int victim) {
  score_[victim] = coloured_[static_cast<size_t>(victim)];
  clearColour(victim);
  for (Cell& c : cells_)
    if (c.owner == victim) c.owner = kNobody;
  alive_[victim] = false;
  passChanged_ = true;
}

void HexaLinesState::destroy(int field) {
  uncolour(field);
  cells_[static_cast<size_t>(field)] = Cell{};
  occupied_.reset(static_cast<size_t>(field));
  passChanged_ = true;
}

void HexaLinesState::updateScores() {
  for (int p = 0; p < kColours; ++p)
    if (alive_[p]) score_[p] = coloured_[static_cast<size_t>(p)];
}

std::array<int, kSides> HexaLinesState::freeExits(int p) const {
  std::array<int, kSides> counts{};
  if (!alive_[p]) return counts;
  const int front = frontField(p);
  if (front >= 0 && cell(front).empty()) ++counts[sourceSide(p)];
  // Every p-coloured side facing an empty field (the centre holds no cell: its sources are
  // counted above).
  const Board& grid = board();
  const int centre = grid.centre(), n = grid.fields();
  for (int field = 0; field < n; ++field) {
    for (unsigned sides = cells_[static_cast<size_t>(field)].sidesOf(p); sides != 0;
         sides &= sides - 1) {
      const int side = std::countr_zero(sides);
      const int next = grid.neighbour(field, side);
      if (next >= 0 && next != centre && cells_[static_cast<size_t>(next)].empty()) ++counts[side];
    }
  }
  return counts;
}

int HexaLinesState::freeExitDirections(int p) const {
  const auto counts = freeExits(p);
  return static_cast<int>(std::count_if(counts.begin(), counts.end(), [](int n) { return n > 0; }));
}

double HexaLinesState::value(int p) const {
  double best = 0;
  bool any = false;
  for (int o = 0; o < kColours; ++o)
    if (o != p && alive_[o]) {
      best = any ? std::max(best, score_[o]) : score_[o];
      any = true;
    }
  return score_[p] - best + 0.5 * freeExitDirections(p);
}

double HexaLinesState::believability() const {
  double total = 0;
  for (const auto& counts : received_) total += belPC(counts, config_.believabilityThreshold);
  return total;
}

Json HexaLinesState::actionJson(Action action) const {
  if (actor() < 0) return Json::object();
  if (isAdd(action)) return {{"verb", "add"}, {"field", fieldOf(action)}};
  return {{"verb", "rotate"}, {"field", fieldOf(action)}, {"sixths", sixthsOf(action)}};
}

std::string HexaLinesState::actionToString(Action action) const {
  const Hex hex = board().hexOf(fieldOf(action));
  std::ostringstream out;
  if (actor() == kEnvironment) {
    out << "deal " << orientationOf(action, rounds_).text();
    return out.str();
  }
  if (isAdd(action))
    out << "add " << revealed_.text() << " at (" << hex.q << "," << hex.r << ")";
  else
    out << "rotate (" << hex.q << "," << hex.r << ") by " << sixthsOf(action);
  return out.str();
}

std::string HexaLinesState::toString() const {
  std::ostringstream out;
  out << "round " << rounds_ << ", " << kColourNames[player_] << " on turn";
  if (revealedClass_ >= 0) out << " with " << revealed_.text();
  for (int p = 0; p < kColours; ++p)
    out << "; " << kColourNames[p] << ' ' << score_[p] << (alive_[p] ? "" : " (dead)");
  for (int field = 0; field < fields(); ++field) {
    const Cell& c = cell(field);
    if (c.empty()) continue;
    const Hex hex = board().hexOf(field);
    out << "\n(" << hex.q << "," << hex.r << ") " << c.shape.text() << " owner "
        << (c.owner == kNobody ? "grey" : kColourNames[c.owner]) << " colours";
    for (int s = 0; s < c.shape.segments(); ++s)
      out << ' ' << (c.colour[s] == kNobody ? "-" : kColourNames[c.colour[s]]);
  }
  return out.str();
}

Json HexaLinesState::observationJson(int player) const {
  Json cells = Json::array();
  for (int field = 0; field < fields(); ++field) {
    const Cell& c = cell(field);
    const Hex hex = board().hexOf(field);
    Json entry = {{"q", hex.q}, {"r", hex.r}};
    if (!c.empty()) {
      Json colours = Json::array();
      for (int s = 0; s < c.shape.segments(); ++s) colours.push_back(c.colour[s]);
      entry["shape"] = c.shape.text();
      entry["owner"] = c.owner;
      entry["colours"] = colours;
    }
    cells.push_back(entry);
  }
  const bool revealed = !isTerminal() && revealedClass_ >= 0;
  (void)player;  // every seat sees the same
  return {{"radius", board().radius()},
          {"fields", fields()},
          {"centre", board().centre()},
          {"cells", cells},
          {"alive", alive_},
          {"player", player_},
          {"revealed", revealed ? Json(revealed_.text()) : Json()}};
}

void HexaLinesState::placeForTest(int field, const Shape& shape, int owner) {
  const int shapeClass = classIndex(shape);
  uncolour(field);
  Cell& c = cells_[static_cast<size_t>(field)];
  c = Cell::of(shapeClass, periodOf(shapeClass), shape);
  c.owner = static_cast<int8_t>(owner);
  occupied_.set(static_cast<size_t>(field));
  dealReady_ = false;
  settled_ = false;
}

void HexaLinesState::revealForTest(int p, const Shape& shape) {
  player_ = p;
  revealed_ = shape;
  revealedClass_ = classIndex(shape);
}

int HexaLinesState::classIndex(const Shape& shape) const {
  const Shape canonical = classOf(shape).canonical;
  for (size_t i = 0; i < catalogue().classes(); ++i)
    if (catalogue().at(i).canonical == canonical) return static_cast<int>(i);
  throw std::invalid_argument("HexaLines: " + shape.text() + " is not in the catalogue");
}

int HexaLinesState::periodOf(int shapeClass) const {
  return static_cast<int>(catalogue().at(static_cast<size_t>(shapeClass)).variants.size());
}

namespace {

std::shared_ptr<const ShapeCatalogue> loadCatalogue(const std::string& file) {
  if (file.empty()) return std::make_shared<const ShapeCatalogue>(ShapeCatalogue::standard());
  std::ifstream in(file);
  if (!in) throw InputError("catalogue_file", "cannot read '" + file + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return std::make_shared<const ShapeCatalogue>(ShapeCatalogue::parse(text.str(), file));
}

int colourIndex(const std::string& name) {
  return static_cast<int>(std::find(std::begin(kColourNames), std::end(kColourNames), name) -
                          std::begin(kColourNames));
}

}  // namespace

GameInfo gameInfo() {
  GameInfo info;
  info.id = "hexalines";
  info.description =
      "HexaLines, 3 players build coloured paths on a hex board; the environment chooses the "
      "shape of each cell to place";
  info.thesisCoefficients = {{"believability", 1000}, {"fairness", 10}, {"leading_time", 10},
                             {"tension", 10},         {"lead", 3},      {"freedom", 1}};
  info.params = {
      {"radius", ParamType::Int, 3, 1, kMaxRadius,
       "fields within this hex distance of the centre (3: 37 fields; 2: 19)"},
      {"first_player",
       ParamType::String,
       "red",
       0,
       0,
       "who moves first (turns go R, G, B)",
       {"red", "green", "blue"}},
      {"recalc_order",
       ParamType::String,
       "mover-first",
       0,
       0,
       "order colours are flooded in: 'mover-first' (the mover, then the players before it) or "
       "'fixed-rbg' (red, blue, green, the article's literal order)",
       {"mover-first", "fixed-rbg"}},
      {"max_rounds", ParamType::Int, 600, 1, 1e6,
       "decisions after which the game is a draw (flagged capped)"},
      {"believability_threshold", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over each player's received cells by open sides 2..6"},
      {"catalogue_file", ParamType::String, "", 0, 0,
       "a shape catalogue file, one shape per line as 6 characters 'a'..'c' or '.' (empty: the "
       "standard 42 shapes)"},
  };
  info.make = [](const Json& p) -> std::shared_ptr<const Game> {
    HexaLinesConfig config;
    config.radius = p.at("radius").get<int>();
    config.firstPlayer = colourIndex(p.at("first_player").get<std::string>());
    config.recalcOrder = p.at("recalc_order").get<std::string>() == "fixed-rbg"
                             ? RecalcOrder::FixedRbg
                             : RecalcOrder::MoverFirst;
    config.maxRounds = p.at("max_rounds").get<int>();
    config.believabilityThreshold = p.at("believability_threshold").get<double>();
    config.catalogue = loadCatalogue(p.at("catalogue_file").get<std::string>());
    config.board = std::make_shared<const Board>(config.radius);
    std::vector<Outcome> natural;
    for (size_t c = 0; c < config.catalogue->classes(); ++c)
      natural.push_back({static_cast<Action>(c), config.catalogue->probability(c)});
    config.naturalDeal = std::make_shared<const std::vector<Outcome>>(std::move(natural));
    return std::make_shared<HexaLinesGame>(config);
  };
  return info;
}

}  // namespace ddalab::hexalines
