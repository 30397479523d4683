// A bare HexaLines simulator for speed comparisons (scripts/profile.sh): the rules of ddalab's
// `hexalines` (docs/games/hexalines.md) written plainly and on their own — three random players, the
// natural deal with the fair first cell, no metrics, no statuses, no files, nothing of ddalab.
// It plays the same kind of games, not the same games (its own random numbers).
//
//   bare_hexalines GAMES [SEED]   prints the games, their mean rounds and a checksum of the scores
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kSides = 6, kWall = 3, kColours = 3, kRadius = 3, kMaxRounds = 600;

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Random {
  uint64_t state;
  uint64_t next() { return state = splitmix(state); }
  int below(int n) { return static_cast<int>((next() >> 33) % static_cast<uint64_t>(n)); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

using Shape = std::array<int, kSides>;  // segment 0..2 of each side, or kWall

Shape normalized(const Shape& raw) {
  std::array<int, 4> renumber{-1, -1, -1, kWall};
  int next = 0;
  Shape out{};
  for (int side = 0; side < kSides; ++side) {
    if (renumber[raw[side]] < 0) renumber[raw[side]] = next++;
    out[side] = renumber[raw[side]];
  }
  return out;
}

Shape rotated(const Shape& s, int sixths) {
  Shape turned{};
  for (int side = 0; side < kSides; ++side) turned[side] = s[(side - sixths + kSides) % kSides];
  return normalized(turned);
}

struct ShapeClass {
  std::vector<Shape> variants;  // its distinct orientations
};

// Every shape whose segments join two sides or more (but no shape of walls only), by class.
std::vector<ShapeClass> catalogue() {
  std::vector<Shape> all;
  for (int code = 0; code < 4096; ++code) {
    Shape raw{};
    for (int side = 0, c = code; side < kSides; ++side, c /= 4) raw[side] = c % 4;
    const Shape s = normalized(raw);
    std::array<int, 4> count{};
    for (int v : s) ++count[v];
    bool ok = count[kWall] < kSides;
    for (int v = 0; v < 3; ++v) ok = ok && (count[v] == 0 || count[v] >= 2);
    bool seen = false;
    for (const Shape& t : all) seen = seen || t == s;
    if (ok && !seen) all.push_back(s);
  }
  std::vector<ShapeClass> classes;
  std::vector<bool> used(all.size(), false);
  for (size_t i = 0; i < all.size(); ++i) {
    if (used[i]) continue;
    ShapeClass c;
    for (size_t j = i; j < all.size(); ++j)
      for (int k = 0; k < kSides; ++k)
        if (!used[j] && rotated(all[i], k) == all[j]) {
          used[j] = true;
          c.variants.push_back(all[j]);
        }
    classes.push_back(c);
  }
  return classes;
}

struct Board {
  std::vector<std::array<int, 2>> hexes;
  std::vector<std::array<int, kSides>> next;  // -1 off the board
  int centre = 0;
  Board() {
    for (int q = -kRadius; q <= kRadius; ++q)
      for (int r = -kRadius; r <= kRadius; ++r)
        if (std::abs(q) + std::abs(r) + std::abs(q + r) <= 2 * kRadius) hexes.push_back({q, r});
    const int dq[] = {1, 1, 0, -1, -1, 0}, dr[] = {0, -1, -1, 0, 1, 1};
    next.resize(hexes.size());
    for (size_t f = 0; f < hexes.size(); ++f) {
      if (hexes[f][0] == 0 && hexes[f][1] == 0) centre = static_cast<int>(f);
      for (int s = 0; s < kSides; ++s) {
        next[f][s] = -1;
        for (size_t g = 0; g < hexes.size(); ++g)
          if (hexes[g][0] == hexes[f][0] + dq[s] && hexes[g][1] == hexes[f][1] + dr[s])
            next[f][s] = static_cast<int>(g);
      }
    }
  }
};

struct Cell {
  bool placed = false;
  int owner = -1;
  int period = 0;
  Shape shape{};
  std::array<int, 3> colour{-1, -1, -1};
};

class Game {
 public:
  Game(const Board& board, const std::vector<ShapeClass>& classes, uint64_t seed)
      : board_(board), classes_(classes), seed_(seed), cells_(board.hexes.size()) {}

  // Plays to the end; returns the rounds played.
  int play(Random& random) {
    while (living() > 1 && !full() && rounds_ < kMaxRounds) {
      const Shape dealt = deal(random);
      move(dealt, random);
      ++rounds_;
      player_ = nextLiving(player_);
    }
    return rounds_;
  }
  int score(int p) const { return score_[p]; }

 private:
  int living() const { return alive_[0] + alive_[1] + alive_[2]; }
  bool full() const {
    for (size_t f = 0; f < cells_.size(); ++f)
      if (static_cast<int>(f) != board_.centre && !cells_[f].placed) return false;
    return true;
  }
  int nextLiving(int p) const {
    for (int step = 1; step <= kColours; ++step)
      if (alive_[(p + step) % kColours]) return (p + step) % kColours;
    return p;
  }
  bool empty(int f) const { return f >= 0 && f != board_.centre && !cells_[f].placed; }
  const Shape& orientation(int c) const {
    const auto& v = classes_[c].variants;
    return v[splitmix(seed_ ^ (static_cast<uint64_t>(rounds_) << 8 | c)) % v.size()];
  }

  // The environment's natural deal; for the player's first cell, when the front field of its
  // source is empty, only the classes whose orientation there can join the source and run on to
  // two free fields.
  Shape deal(Random& random) {
    const int front = board_.next[board_.centre][2 * player_];
    const bool first = !dealtBefore_[player_];
    dealtBefore_[player_] = true;
    std::vector<int> dealable;
    std::vector<double> weight;
    for (size_t c = 0; c < classes_.size(); ++c) {
      bool fair = true;
      if (first && empty(front)) {
        const Shape& s = orientation(static_cast<int>(c));
        const int entry = (2 * player_ + 3) % kSides, segment = s[entry];
        int ends = 0;
        for (int side = 0; side < kSides; ++side)
          ends += segment != kWall && s[side] == segment && empty(board_.next[front][side]);
        fair = ends >= 2;
      }
      if (fair) {
        dealable.push_back(static_cast<int>(c));
        weight.push_back(static_cast<double>(classes_[c].variants.size()));
      }
    }
    if (dealable.empty()) {
      for (size_t c = 0; c < classes_.size(); ++c) {
        dealable.push_back(static_cast<int>(c));
        weight.push_back(static_cast<double>(classes_[c].variants.size()));
      }
    }
    double total = 0;
    for (double w : weight) total += w;
    double u = random.uniform() * total;
    size_t i = 0;
    while (i + 1 < dealable.size() && u >= weight[i]) u -= weight[i++];
    dealtClass_ = dealable[i];
    return orientation(dealable[i]);
  }

  // The random player: adds the cell next to an occupied field or rotates an own or grey cell.
  void move(const Shape& dealt, Random& random) {
    std::vector<std::array<int, 2>> moves;  // {field, sixths}; sixths 0 = add
    for (size_t f = 0; f < cells_.size(); ++f) {
      const int field = static_cast<int>(f);
      if (empty(field)) {
        bool touches = false;
        for (int s = 0; s < kSides; ++s) {
          const int n = board_.next[field][s];
          touches = touches || (n >= 0 && (n == board_.centre || cells_[n].placed));
        }
        if (touches) moves.push_back({field, 0});
      } else if (cells_[f].placed && (cells_[f].owner < 0 || cells_[f].owner == player_)) {
        for (int k = 1; k < cells_[f].period; ++k) moves.push_back({field, k});
      }
    }
    const auto [field, sixths] = moves[random.below(static_cast<int>(moves.size()))];
    Cell& c = cells_[field];
    if (sixths == 0) {
      c = Cell{};
      c.placed = true;
      c.shape = dealt;
      c.period = static_cast<int>(classes_[dealtClass_].variants.size());
    } else {
      c.shape = rotated(c.shape, sixths);
      c.colour = {-1, -1, -1};
    }
    while (pass()) {
    }
    if (sixths == 0 && c.placed)
      for (int v : c.colour)
        if (v == player_) c.owner = player_;
    std::array<int, kColours> total{};
    for (const Cell& cell : cells_)
      for (int s = 0; s < kSides; ++s)
        if (cell.shape[s] != kWall && cell.colour[cell.shape[s]] >= 0)
          ++total[cell.colour[cell.shape[s]]];
    for (int p = 0; p < kColours; ++p)
      if (alive_[p]) score_[p] = total[p];
  }

  // One pass: each living colour, the mover's first, cleared and flooded from its source.
  bool pass() {
    changed_ = false;
    const int order[] = {player_, (player_ + 2) % kColours, (player_ + 1) % kColours};
    for (int colour : order) {
      if (!alive_[colour]) continue;
      for (Cell& c : cells_)
        for (int& v : c.colour)
          if (v == colour) v = -1;
      pour(colour, board_.centre, 2 * colour);
    }
    return changed_;
  }

  void pour(int colour, int field, int side) {
    const int next = board_.next[field][side];
    if (next < 0) return;
    const int entry = (side + 3) % kSides;
    if (next == board_.centre) {
      if (entry % 2 == 0 && entry / 2 != colour && alive_[entry / 2]) kill(entry / 2);
      return;
    }
    Cell& c = cells_[next];
    if (!c.placed || c.shape[entry] == kWall) return;
    const int segment = c.shape[entry];
    if (c.colour[segment] == colour) return;
    if (c.colour[segment] >= 0) {
      c = Cell{};
      changed_ = true;
      return;
    }
    c.colour[segment] = colour;
    for (int out = 0; out < kSides; ++out)
      if (c.placed && c.shape[out] == segment) pour(colour, next, out);
  }

  void kill(int victim) {
    int total = 0;
    for (Cell& c : cells_) {
      for (int s = 0; s < kSides; ++s)
        if (c.shape[s] != kWall && c.colour[c.shape[s]] == victim) ++total;
      for (int& v : c.colour)
        if (v == victim) v = -1;
      if (c.owner == victim) c.owner = -1;
    }
    score_[victim] = total;
    alive_[victim] = false;
    changed_ = true;
  }

  const Board& board_;
  const std::vector<ShapeClass>& classes_;
  uint64_t seed_;
  std::vector<Cell> cells_;
  std::array<bool, kColours> alive_{true, true, true};
  std::array<bool, kColours> dealtBefore_{};  // a cell was dealt to the player
  std::array<int, kColours> score_{};
  int player_ = 0, rounds_ = 0, dealtClass_ = 0;
  bool changed_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bare_hexalines GAMES [SEED]\n");
    return 2;
  }
  const long games = std::atol(argv[1]);
  Random random{argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20261122};
  const Board board;
  const std::vector<ShapeClass> classes = catalogue();
  long rounds = 0;
  uint64_t checksum = 0;
  for (long g = 0; g < games; ++g) {
    Game game(board, classes, random.next());
    rounds += game.play(random);
    for (int p = 0; p < kColours; ++p) checksum = checksum * 31 + static_cast<uint64_t>(game.score(p));
  }
  std::printf("%ld games, %.1f rounds a game, %zu shape classes, checksum %016llx\n", games,
              games ? static_cast<double>(rounds) / games : 0.0, classes.size(),
              static_cast<unsigned long long>(checksum));
  return 0;
}
