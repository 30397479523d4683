// The power of a study's design from the mixed model (studies/power.h): rejection rates rise with
// participants and effect, sit at alpha without an effect, agree with the minimum detectable
// effect, and the design warning names the participants a too-small study needs.
#include <catch2/catch.hpp>

#include "core/params.h"
#include "core/json_input.h"
#include "studies/analysis.h"
#include "studies/power.h"

using namespace ddalab;

namespace {

// The shipped Ludo protocol (3 conditions x 2 games, no pre-registered test).
StudyProtocol shippedLudo() {
  // A path joined, not a string concatenated: g++ 12 at -O1 warns falsely about the latter
  // (-Warray-bounds, GCC bug 105651).
  return loadStudyProtocol(std::filesystem::path(DDALAB_TEST_DATA) / ".." / ".." / ".." / "studies" /
                           "protocols" / "user-study-ludo.json");
}

// The same with a pre-registered primary test (alone and unadjusted, so its null rate is alpha).
StudyProtocol preregisteredLudo() {
  StudyProtocol p = shippedLudo();
  p.analysis.primaryItem = "enjoyment";
  p.analysis.primaryFirst = "e-hillclimber";
  p.analysis.primarySecond = "no-dda";
  return p;
}

// The shipped Ludo protocol with its first condition only (no-dda): the format allows 1-12.
StudyProtocol oneConditionLudo() {
  const std::filesystem::path file = std::filesystem::path(DDALAB_TEST_DATA) / ".." / ".." / ".." /
                                     "studies" / "protocols" / "user-study-ludo.json";
  Json document = Json::parse(readInputFile(file, {1 << 20, "a protocol"}));
  document["conditions"] = Json::array({document["conditions"][0]});
  return parseStudyProtocol(document, "one.json");
}

PowerModel planted(int participants, double points, uint64_t seed = 1) {
  PowerModel m;
  m.participants = participants;
  m.seed = seed;
  m.effects = {{"enjoyment", "e-hillclimber", points}};
  return m;
}

}  // namespace

TEST_CASE("model power rises with participants and with the planted effect", "[power]") {
  const StudyProtocol p = shippedLudo();
  const ModelPower small = modelPower(p, planted(12, 0.5), 150);
  REQUIRE(small.rows.size() == 2);  // e-hillclimber and e-hillclimber-half against no-dda
  CHECK_FALSE(small.preregistered);
  CHECK(small.item == "enjoyment");
  CHECK(small.participantSd == Approx(0.9));  // 0.15 of the 1-7 range
  const ModelPowerRow& row = small.rows.front();
  CHECK(row.first == "e-hillclimber");
  CHECK(row.second == "no-dda");
  CHECK(row.planted == Approx(0.5));
  const ModelPowerRow more = modelPower(p, planted(48, 0.5), 150).rows.front();
  const ModelPowerRow larger = modelPower(p, planted(12, 1.0), 150).rows.front();
  INFO("12 x 0.5: " << row.rate << ", 48 x 0.5: " << more.rate << ", 12 x 1: " << larger.rate);
  CHECK(more.low > row.high);
  CHECK(larger.low > row.high);
  CHECK(more.rate > 0.8);
  // Nothing planted on e-hillclimber-half: rejected at most at alpha (Holm makes it rarer).
  CHECK(small.rows[1].low < 0.05);
  // The same seed draws the same studies.
  CHECK(modelPower(p, planted(12, 0.5), 150).rows.front().rejected == row.rejected);
}

TEST_CASE("model power without an effect rejects at alpha", "[power]") {
  const ModelPower none = modelPower(preregisteredLudo(), planted(12, 0), 400);
  REQUIRE(none.rows.size() == 1);
  CHECK(none.preregistered);
  INFO("false positives " << none.rows[0].rejected << " of 400");
  CHECK(none.rows[0].low <= 0.05);
  CHECK(none.rows[0].high >= 0.05);
}

TEST_CASE("the minimum detectable effect has the power it claims", "[power]") {
  const StudyProtocol p = preregisteredLudo();
  const DetectableEffect mde = minimumDetectableEffect(p, planted(24, 0), 200, 0.8, 0.02);
  REQUIRE_FALSE(std::isnan(mde.effect));
  CHECK(mde.precision <= 0.02);
  CHECK(mde.atEffect.rate >= 0.8);
  INFO("MDE " << mde.effect);
  CHECK(mde.effect > 0.2);
  CHECK(mde.effect < 1.5);
  // A direct evaluation with other seeds at that effect: about 80 % (binomial neighbourhood).
  const ModelPowerRow direct = modelPower(p, planted(24, mde.effect, 77), 400).rows.front();
  INFO("direct power " << direct.rate);
  CHECK(direct.rate > 0.7);
  CHECK(direct.rate < 0.9);
  // Too few participants to detect even the whole range: none.
  PowerModel tiny = planted(2, 0);
  tiny.residualSd = 3;
  CHECK(std::isnan(minimumDetectableEffect(p, tiny, 50).effect));
}

TEST_CASE("the design warning names the participants a study needs", "[power]") {
  const StudyProtocol p = shippedLudo();
  // 5 items x 3 pairs = 15 Holm-adjusted tests: 2/2^n x 15 <= 0.05 needs n = 10.
  CHECK(participantsForWilcoxon(p) == 10);
  CHECK_THAT(designWarning(p, 6), Catch::Contains("at least 10 participants are needed"));
  CHECK(designWarning(p, 9) != "");
  CHECK(designWarning(p, 10).empty());
  CHECK(designWarning(p, 48).empty());
  // The pre-registered test stands alone: 2/2^n <= 0.05 needs n = 6.
  CHECK(participantsForWilcoxon(preregisteredLudo()) == 6);
}

TEST_CASE("the mixed model's design note warns when the detectable effect is too large",
          "[power]") {
  const StudyProtocol p = shippedLudo();
  const std::string three = mixedModelDesignNote(p, 3), twelve = mixedModelDesignNote(p, 12);
  CHECK_THAT(three, Catch::StartsWith("WARNING: the mixed model with 3 participants") &&
                        Catch::Contains("more participants are needed"));
  CHECK_THAT(twelve, Catch::StartsWith("  the mixed model with 12 participants") &&
                         Catch::Contains("points on enjoyment (e-hillclimber - no-dda)"));
  // The note's effect is minimumDetectableEffect's for the same model.
  PowerModel model;
  model.participants = 12;
  const double mde = minimumDetectableEffect(p, model, 100).effect;
  char effect[32];
  std::snprintf(effect, sizeof effect, " detects %.2f points", mde);
  CHECK_THAT(twelve, Catch::Contains(effect));
  CHECK(mde < 1.0);  // a sixth of 1-7
  model.participants = 3;
  CHECK(minimumDetectableEffect(p, model, 100).effect > 1.0);
}

TEST_CASE("hostile power options are refused", "[power]") {
  const StudyProtocol p = shippedLudo();
  PowerModel m = planted(12, 0.5);
  m.participantSd = -1;
  CHECK_THROWS_WITH(modelPower(p, m, 10), Catch::Contains("--participant-sd"));
  m.participantSd = NAN;
  m.residualSd = INFINITY;
  CHECK_THROWS_WITH(modelPower(p, m, 10), Catch::Contains("--residual-sd"));
  m.residualSd = NAN;
  m.participants = 1;
  CHECK_THROWS_WITH(modelPower(p, m, 10), Catch::Contains("--participants"));
}

TEST_CASE("a protocol of one condition has nothing to compare: a warning, never a crash",
          "[power]") {
  // minimumDetectableEffect took the first of no contrasts: validate, simulate --power and analyze
  // segfaulted.
  const StudyProtocol one = oneConditionLudo();
  const std::string why = nothingToCompare(one);
  CHECK(why ==
        "protocol 'user-study-ludo' has one condition (no-dda): nothing to compare; its analysis "
        "reports descriptives and reliability only");
  CHECK(nothingToCompare(shippedLudo()).empty());
  CHECK(mixedModelDesignNote(one, 12) == "WARNING: " + why);
  CHECK(designWarning(one, 3).empty());  // no test to make significant
  PowerModel model;
  CHECK_THROWS_WITH(modelPower(one, model, 10),
                    Catch::Contains("--power: " + why + "; expected 2 or more conditions"));
  CHECK_THROWS_WITH(minimumDetectableEffect(one, model, 10), Catch::Contains(why));
  CHECK_THROWS_WITH(checkSomethingToCompare(one), Catch::Contains(why));
  CHECK_NOTHROW(checkSomethingToCompare(shippedLudo()));
}
