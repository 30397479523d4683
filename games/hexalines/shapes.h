#pragma once
// The HexaLines cell shapes (games/hexalines.md): each of a hexagon's six sides belongs to one
// segment or is a wall; a segment joins two sides or more; segments may cross. The catalogue is
// data: the standard one is every such shape up to rotation (42 classes, 202 oriented variants:
// hexalines-notes.md, appendix A), and another can be loaded from text (the author's 45 shapes
// were never published).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ddalab::hexalines {

inline constexpr int kSides = 6;
inline constexpr uint8_t kWall = 0xFF;

// One oriented shape: segmentOf[side] is the segment of that side or kWall. Segments are
// numbered 0, 1, 2 in the order of their first side, so equal shapes have equal arrays.
struct Shape {
  std::array<uint8_t, kSides> segmentOf{};

  // Number of segments.
  int segments() const;
  // Number of sides segment `segment` joins (its length for the score).
  int length(int segment) const;
  // Number of sides that are not walls.
  int openSides() const;
  // The shape turned by `sixths` sixths: side s of the result is side s - sixths of this one.
  Shape rotated(int sixths) const;
  // The text form: one character per side, 'a'.. for segments, '.' for a wall ("aa.bb.").
  std::string text() const;
  bool operator==(const Shape&) const = default;
  auto operator<=>(const Shape&) const = default;
};

// A shape up to rotation: its smallest orientation and its distinct orientations.
struct ShapeClass {
  Shape canonical;
  std::vector<Shape> variants;  // distinct rotations, canonical first
};

class ShapeCatalogue {
 public:
  // Every shape whose segments join two sides or more, up to rotation: 42 classes.
  static ShapeCatalogue standard();
  // A catalogue from text: one shape per line in Shape::text form (any orientation), '#'
  // starts a comment. Throws InputError naming `source`:line:column for a malformed line, a
  // segment of fewer than two sides, or a shape that repeats an earlier one up to rotation.
  static ShapeCatalogue parse(std::string_view text, const std::string& source);

  size_t classes() const { return classes_.size(); }
  const ShapeClass& at(size_t index) const { return classes_[index]; }
  // Oriented variants over all classes (202 for the standard catalogue).
  size_t variants() const { return variants_; }
  // The natural probability of class `index`: its share of all oriented variants.
  double probability(size_t index) const { return probabilities_[index]; }
  // The catalogue in the form parse() reads (canonical shapes, one per line).
  std::string text() const;

 private:
  // Counts the variants and each class's probability once the classes are in.
  void finish();

  std::vector<ShapeClass> classes_;
  size_t variants_ = 0;
  std::vector<double> probabilities_;
};

// `segmentOf` with segments renumbered by first side (the form Shape keeps).
Shape normalized(std::array<uint8_t, kSides> segmentOf);
// The class of `shape`: its smallest rotation and its distinct rotations.
ShapeClass classOf(const Shape& shape);

}  // namespace ddalab::hexalines
