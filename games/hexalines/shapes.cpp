#include "games/hexalines/shapes.h"

#include <algorithm>
#include <set>

#include "core/params.h"

namespace ddalab::hexalines {

int Shape::segments() const {
  int count = 0;
  for (uint8_t s : segmentOf)
    if (s != kWall) count = std::max(count, s + 1);
  return count;
}

int Shape::length(int segment) const {
  return static_cast<int>(std::count(segmentOf.begin(), segmentOf.end(), segment));
}

int Shape::openSides() const {
  return kSides - static_cast<int>(std::count(segmentOf.begin(), segmentOf.end(), kWall));
}

Shape Shape::rotated(int sixths) const {
  std::array<uint8_t, kSides> turned{};
  for (int side = 0; side < kSides; ++side)
    turned[side] = segmentOf[((side - sixths) % kSides + kSides) % kSides];
  return normalized(turned);
}

std::string Shape::text() const {
  std::string out;
  for (uint8_t s : segmentOf) out += s == kWall ? '.' : static_cast<char>('a' + s);
  return out;
}

Shape normalized(std::array<uint8_t, kSides> segmentOf) {
  std::array<uint8_t, kSides> renumber;
  renumber.fill(kWall);
  uint8_t next = 0;
  Shape shape;
  for (int side = 0; side < kSides; ++side) {
    const uint8_t s = segmentOf[side];
    if (s == kWall) {
      shape.segmentOf[side] = kWall;
      continue;
    }
    if (renumber[s] == kWall) renumber[s] = next++;
    shape.segmentOf[side] = renumber[s];
  }
  return shape;
}

ShapeClass classOf(const Shape& shape) {
  std::set<Shape> rotations;
  for (int sixths = 0; sixths < kSides; ++sixths) rotations.insert(shape.rotated(sixths));
  ShapeClass c{*rotations.begin(), {rotations.begin(), rotations.end()}};
  return c;
}

namespace {

// Every assignment of the six sides to segments 0..2 or walls whose segments join >= 2 sides,
// in normalized form (each labelled shape once).
std::set<Shape> allShapes() {
  std::set<Shape> shapes;
  std::array<uint8_t, kSides> sides{};
  constexpr int kChoices = 4;  // wall, segment 0, 1, 2
  int total = 1;
  for (int i = 0; i < kSides; ++i) total *= kChoices;
  for (int code = 0; code < total; ++code) {
    int rest = code;
    for (int side = 0; side < kSides; ++side, rest /= kChoices)
      sides[side] = rest % kChoices == 0 ? kWall : static_cast<uint8_t>(rest % kChoices - 1);
    const Shape shape = normalized(sides);
    bool valid = shape.openSides() > 0;
    for (int s = 0; s < shape.segments(); ++s) valid = valid && shape.length(s) >= 2;
    if (valid) shapes.insert(shape);
  }
  return shapes;
}

// `prefix` 'quoted' `suffix`, appended piece by piece (operator+ chains trip a false -Wrestrict
// in g++ 12).
std::string message(std::string_view prefix, std::string_view quoted,
                    std::string_view suffix = "") {
  std::string text(prefix);
  text += '\'';
  text += quoted;
  text += '\'';
  text += suffix;
  return text;
}

[[noreturn]] void fail(const std::string& source, size_t line, size_t column,
                       const std::string& message) {
  throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column), message);
}

// The shape of one catalogue line (without comment or surrounding blanks).
Shape parseShape(std::string_view text, const std::string& source, size_t line, size_t column) {
  if (text.size() != kSides)
    fail(source, line, column,
         message("expected 6 characters, one per side ('a'..'c' a segment, '.' a wall), found ",
                 text.substr(0, 20)));
  std::array<uint8_t, kSides> sides{};
  for (int side = 0; side < kSides; ++side) {
    const char c = text[side];
    if (c != '.' && (c < 'a' || c > 'c'))
      fail(source, line, column + side,
           message("expected 'a', 'b', 'c' or '.', found ", std::string_view(&text[side], 1)));
    sides[side] = c == '.' ? kWall : static_cast<uint8_t>(c - 'a');
  }
  const Shape shape = normalized(sides);
  if (shape.openSides() == 0) fail(source, line, column, "a shape needs at least one segment");
  for (int s = 0; s < shape.segments(); ++s)
    if (shape.length(s) < 2)
      fail(source, line, column,
           message("every segment joins two sides or more; ", text, " has one of 1"));
  return shape;
}

}  // namespace

ShapeCatalogue ShapeCatalogue::standard() {
  ShapeCatalogue catalogue;
  std::set<Shape> seen;
  for (const Shape& shape : allShapes()) {
    if (seen.count(shape)) continue;
    ShapeClass c = classOf(shape);
    seen.insert(c.variants.begin(), c.variants.end());
    catalogue.classes_.push_back(std::move(c));
  }
  catalogue.finish();
  return catalogue;
}

ShapeCatalogue ShapeCatalogue::parse(std::string_view text, const std::string& source) {
  ShapeCatalogue catalogue;
  std::set<Shape> seen;
  size_t lineNumber = 0;
  while (!text.empty()) {
    ++lineNumber;
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    line = line.substr(0, line.find('#'));
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    const Shape shape = parseShape(line, source, lineNumber, first + 1);
    ShapeClass c = classOf(shape);
    if (seen.count(c.canonical))
      fail(source, lineNumber, first + 1,
           message("", line, " repeats an earlier shape up to rotation: " + c.canonical.text()));
    seen.insert(c.canonical);
    catalogue.classes_.push_back(std::move(c));
  }
  if (catalogue.classes_.empty()) throw InputError(source, "the catalogue has no shapes");
  catalogue.finish();
  return catalogue;
}

void ShapeCatalogue::finish() {
  variants_ = 0;
  for (const ShapeClass& c : classes_) variants_ += c.variants.size();
  probabilities_.clear();
  for (const ShapeClass& c : classes_)
    probabilities_.push_back(static_cast<double>(c.variants.size()) /
                             static_cast<double>(variants_));
}

std::string ShapeCatalogue::text() const {
  std::string out;
  for (const ShapeClass& c : classes_) out += c.canonical.text() + "\n";
  return out;
}

}  // namespace ddalab::hexalines
