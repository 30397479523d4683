// belPC (metrics.md, "Believability of a frequency array") against hand-computed arrays.
#include <array>
#include <catch2/catch.hpp>
#include <vector>

#include "core/believability.h"

using namespace ddalab;

namespace {

double bel(std::vector<int> counts, double threshold) {
  return belPC(counts, threshold);
}

}  // namespace

TEST_CASE("belPC: the 27-rolls example is the most even array", "[believability]") {
  // 27 rolls of a die: most even counts 5,5,5,4,4,4 -> var1 = varMin -> 0.
  CHECK(bel({5, 5, 5, 4, 4, 4}, 0.0) == 0.0);
  CHECK(bel({4, 5, 4, 5, 4, 5}, 0.0) == 0.0);  // any order
  // One roll moved from a 4 to a 5: 6,5,5,4,4,3 (still 27). Sum of squares 127 vs 123 for the
  // even array; same mean, so var1 - varMin = (127 - 123) / 6 = 2/3.
  CHECK(bel({6, 5, 5, 4, 4, 3}, 0.0) == Approx(2.0 / 3));
  // The same from the definition: mean 4.5; var1 = (2.25 + 4 * 0.25 + 2.25) / 6 = 5.5 / 6;
  // varMin = 0.25 (every count 0.5 from the mean).
  CHECK(bel({6, 5, 5, 4, 4, 3}, 0.0) == Approx(5.5 / 6 - 0.25));
}

TEST_CASE("belPC: perfectly even arrays give 0", "[believability]") {
  CHECK(bel({3, 3, 3, 3, 3, 3}, 0.0) == 0.0);
  CHECK(bel({0, 0, 0, 0, 0, 0}, 0.0) == 0.0);
  CHECK(bel({7}, 0.0) == 0.0);
  CHECK(bel({3, 3, 3, 3, 3, 3}, 1.0) == 0.0);  // the threshold never makes it negative
}

TEST_CASE("belPC: the threshold is subtracted and the result clamped at 0", "[believability]") {
  // 6,5,5,4,4,3: excess 2/3 (see above).
  CHECK(bel({6, 5, 5, 4, 4, 3}, 0.5) == Approx(2.0 / 3 - 0.5));
  CHECK(bel({6, 5, 5, 4, 4, 3}, 2.0 / 3) == Approx(0.0).margin(1e-12));
  CHECK(bel({6, 5, 5, 4, 4, 3}, 1.0) == 0.0);  // clamped, not -1/3
  // 10,0,0,0,0,2: N = 12, mean 2, var1 = (64 + 4 * 4 + 0) / 6 = 80/6; varMin = 0 (all 2).
  CHECK(bel({10, 0, 0, 0, 0, 2}, 1.0) == Approx(80.0 / 6 - 1.0));
  CHECK(bel({10, 0, 0, 0, 0, 2}, 100.0) == 0.0);
}

TEST_CASE("belPC: hand-computed uneven arrays", "[believability]") {
  // 7,1,0 (k = 3, N = 8): mean 8/3; var1 = 50/3 - 64/9 = 86/9.
  // Most even: 3,3,2 -> var = (9 + 9 + 4)/3 - 64/9 = 66/9 - 64/9 = 2/9.
  // belPC = 86/9 - 2/9 = 84/9.
  CHECK(bel({7, 1, 0}, 0.0) == Approx(84.0 / 9));
  // 7,1,1 (k = 3, N = 9): mean 3, var1 = (16 + 4 + 4)/3 = 8, varMin = 0; T = 0.5 -> 7.5.
  CHECK(bel({7, 1, 1}, 0.5) == Approx(7.5));
  // All 4 rolls on one face of six: mean 2/3; var1 = 16/6 - 4/9 = 20/9;
  // most even 1,1,1,1,0,0 -> 4/6 - 4/9 = 2/9; belPC = 18/9 = 2.
  const std::array<int, 6> faces = {0, 0, 4, 0, 0, 0};
  CHECK(belPC(faces, 0.0) == Approx(2.0));
}
