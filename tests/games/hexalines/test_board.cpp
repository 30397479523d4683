// HexaLines pieces (games/hexalines.md): the shape catalogue (hexalines-notes.md, appendix A:
// 42 classes and 202 oriented variants with the appendix's breakdown; a catalogue read from
// text says where a bad line is) and the hex board.
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <set>

#include "core/params.h"
#include "games/hexalines/board.h"
#include "games/hexalines/shapes.h"

using namespace ddalab;
using namespace ddalab::hexalines;
using Catch::Matchers::Contains;

namespace {

// "open sides / sorted segment lengths" of a shape, the appendix's breakdown key.
std::string breakdownKey(const Shape& shape) {
  std::vector<int> lengths;
  for (int s = 0; s < shape.segments(); ++s) lengths.push_back(shape.length(s));
  std::sort(lengths.begin(), lengths.end());
  // Appended piece by piece: operator+ chains trip a false -Wrestrict in g++ 12.
  std::string key = std::to_string(shape.openSides());
  key += " {";
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (i) key += ',';
    key += std::to_string(lengths[i]);
  }
  key += '}';
  return key;
}

}  // namespace

TEST_CASE("the standard catalogue has 42 classes and 202 oriented variants", "[hexalines]") {
  const ShapeCatalogue catalogue = ShapeCatalogue::standard();
  CHECK(catalogue.classes() == 42);
  CHECK(catalogue.variants() == 202);
  std::map<std::string, int> breakdown;
  std::set<Shape> oriented;
  double probabilities = 0;
  for (size_t i = 0; i < catalogue.classes(); ++i) {
    const ShapeClass& c = catalogue.at(i);
    ++breakdown[breakdownKey(c.canonical)];
    probabilities += catalogue.probability(i);
    CHECK(c.variants.front() == c.canonical);
    for (const Shape& v : c.variants) {
      CHECK(oriented.insert(v).second);  // no variant in two classes
      CHECK(classOf(v).canonical == c.canonical);
      for (int s = 0; s < v.segments(); ++s) CHECK(v.length(s) >= 2);
    }
  }
  CHECK(probabilities == Approx(1.0));
  const std::map<std::string, int> appendix = {
      {"2 {2}", 3}, {"3 {3}", 4},     {"4 {2,2}", 9}, {"4 {4}", 3},   {"5 {2,3}", 10},
      {"5 {5}", 1}, {"6 {2,2,2}", 5}, {"6 {2,4}", 3}, {"6 {3,3}", 3}, {"6 {6}", 1}};
  CHECK(breakdown == appendix);
}

TEST_CASE("rotations and normal forms of shapes", "[hexalines]") {
  const Shape straight = normalized({0, kWall, kWall, 0, kWall, kWall});
  CHECK(straight.text() == "a..a..");
  CHECK(straight.rotated(3) == straight);
  CHECK(straight.rotated(1).text() == ".a..a.");
  CHECK(classOf(straight).variants.size() == 3);
  // Segment numbers follow the first side: relabelled segments are the same shape.
  CHECK(normalized({2, 2, 1, 1, kWall, kWall}) == normalized({0, 0, 1, 1, kWall, kWall}));
  const Shape crossing = normalized({0, 1, kWall, 0, 1, kWall});
  for (int sixths = 0; sixths <= 6; ++sixths)
    CHECK(crossing.rotated(sixths).rotated(kSides - sixths) == crossing);
}

TEST_CASE("a catalogue is read from text and written back", "[hexalines]") {
  const ShapeCatalogue standard = ShapeCatalogue::standard();
  const ShapeCatalogue again = ShapeCatalogue::parse(standard.text(), "standard.txt");
  CHECK(again.text() == standard.text());
  const ShapeCatalogue small =
      ShapeCatalogue::parse("# two shapes\n  .a..a.  # a straight line\n\naabb..\n", "x");
  REQUIRE(small.classes() == 2);
  CHECK(small.at(0).canonical.text() == "a..a..");
  CHECK(small.probability(0) == Approx(3.0 / 9));  // 3 and 6 orientations
}

TEST_CASE("bad catalogue lines are refused with file, line and column", "[hexalines]") {
  const auto error = [](const std::string& text) {
    try {
      ShapeCatalogue::parse(text, "shapes.txt");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error("aa....\naab...\n"), Contains("shapes.txt:2:1") && Contains("two sides"));
  CHECK_THAT(error("aa.x..\n"), Contains("shapes.txt:1:4") && Contains("'x'"));
  CHECK_THAT(error("aa..\n"), Contains("expected 6 characters"));
  CHECK_THAT(error("aa....\n.aa...\n"), Contains("shapes.txt:2") && Contains("repeats"));
  CHECK_THAT(error("......\n"), Contains("at least one segment"));
  CHECK_THAT(error("# nothing\n"), Contains("no shapes"));
}

TEST_CASE("the hex board: fields, neighbours across opposite sides, the rim", "[hexalines]") {
  for (int radius : {1, 2, 3, 5}) {
    const Board board(radius);
    CAPTURE(radius);
    CHECK(board.fields() == 3 * radius * (radius + 1) + 1);
    CHECK(board.hexOf(board.centre()) == Hex{0, 0});
    int rim = 0;
    for (int field = 0; field < board.fields(); ++field) {
      CHECK(board.fieldAt(board.hexOf(field)) == field);
      int onBoard = 0;
      for (int side = 0; side < kSides; ++side) {
        const int next = board.neighbour(field, side);
        if (next < 0) continue;
        ++onBoard;
        CHECK(board.neighbour(next, oppositeSide(side)) == field);
        CHECK(distanceFromCentre(board.hexOf(next)) - distanceFromCentre(board.hexOf(field)) <= 1);
      }
      if (onBoard < kSides) ++rim;
      const bool corner = distanceFromCentre(board.hexOf(field)) == radius &&
                          (board.hexOf(field).q == 0 || board.hexOf(field).r == 0 ||
                           board.hexOf(field).q + board.hexOf(field).r == 0);
      if (corner) CHECK(onBoard == 3);
    }
    CHECK(rim == 6 * radius);  // the outer ring
    CHECK_FALSE(board.fieldAt({radius + 1, 0}).has_value());
  }
  CHECK_THROWS(Board(0));
}
