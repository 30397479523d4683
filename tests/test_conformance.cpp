// The conformance checks (experiments/conformance.h, also `ddalab check-game`) on every
// registered game, a plug-in's of DDALAB_PLUGIN_PATH included; each check shown failing on a game
// broken its way (tests/flawed_game.h); and a HexaLines trace scored again from who was out.
#include <catch2/catch.hpp>
#include <string>

#include "core/params.h"
#include "experiments/conformance.h"
#include "games/registry.h"
#include "tests/flawed_game.h"

using namespace ddalab;

namespace {

const ConformanceCheck& checkNamed(const ConformanceReport& report, const std::string& name) {
  for (const ConformanceCheck& check : report.checks)
    if (check.name == name) return check;
  FAIL("no check " << name);
  return report.checks.front();
}

double metricOf(const GameRecord& r, Metric m) {
  return r.metrics[static_cast<size_t>(m)];
}

}  // namespace

TEST_CASE("conformance: random playouts of every registered game", "[conformance]") {
  REQUIRE_FALSE(gameRegistry().empty());
  for (const GameInfo& info : gameRegistry()) {
    const ConformanceReport report = checkGame(info);
    CHECK(report.checks.size() == conformanceChecks().size());
    for (const ConformanceCheck& check : report.checks) {
      INFO(info.id << " " << check.name << ": " << check.runs
                   << " runs, first failure: " << check.firstFailure);
      CHECK(check.passed());
    }
  }
}

TEST_CASE("conformance: each check fails on a game broken its way and names where", "[conformance]") {
  using flawed::Flaw;
  const ConformanceOptions few{4, 1};
  const ConformanceReport sound = checkGame(flawed::pileInfo("pile", Flaw::None), few);
  for (const ConformanceCheck& check : sound.checks) {
    INFO(check.name << ": " << check.firstFailure);
    CHECK(check.passed());
  }
  const std::vector<std::pair<Flaw, std::string>> flaws = {
      {Flaw::StatusScaleZero, "builds"},
      {Flaw::ProbabilitiesOff, "nodes"},
      {Flaw::DealByCounter, "replay"},
      {Flaw::SharedScores, "copies"},
      {Flaw::ObservationDiffers, "observations"},
      {Flaw::GainsDisagree, "shortcuts"},
      {Flaw::RoundsNeverCount, "match"}};
  REQUIRE(flaws.size() == conformanceChecks().size());  // every check has its flaw
  for (const auto& [flaw, name] : flaws) {
    INFO(name);
    const ConformanceReport report = checkGame(flawed::pileInfo("pile", flaw), few);
    const ConformanceCheck& check = checkNamed(report, name);
    CHECK_FALSE(check.passed());
    CHECK_FALSE(report.passed());
    CHECK(check.failures > 0);
    CHECK_THAT(check.firstFailure,
               Catch::StartsWith("pile (defaults) params {}") && Catch::Contains("expected"));
  }
  // A game that throws fails the check that asked it, with what it threw.
  GameInfo throwing = flawed::pileInfo("pile", Flaw::None);
  throwing.make = [](const Json&) -> std::shared_ptr<const Game> {
    throw std::runtime_error("no board file");
  };
  const ConformanceReport thrown = checkGame(throwing, few);  // kept: the check refers into it
  const ConformanceCheck& builds = checkNamed(thrown, "builds");
  CHECK(builds.failures == 1);
  CHECK_THAT(builds.firstFailure, Catch::EndsWith("threw: no board file"));
}

TEST_CASE("a trace says who was out, and its metrics are scored again from it alone",
          "[conformance][match]") {
  // HexaLines players die; a trace without "out" would count their stale statuses in the lead.
  const auto& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "");
  const auto game = info.make(validateParams(info.params, Json::object(), "params"));
  int gamesWithOut = 0, differWithoutOut = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Json trace;
    const GameRecord record = playRandomGame(*game, seed, &trace);
    bool anyOut = false;
    for (const Json& round : trace["rounds"])
      for (const Json& out : round.at("out")) anyOut = anyOut || out.get<bool>();
    gamesWithOut += anyOut;
    const double believability = metricOf(record, Metric::Believability);
    const auto leadChanges = static_cast<size_t>(Metric::LeadChanges);
    CHECK(metricsFromTrace(trace, believability, true)[leadChanges] ==
          metricOf(record, Metric::LeadChanges));
    differWithoutOut += metricsFromTrace(trace, believability, false)[leadChanges] !=
                        metricOf(record, Metric::LeadChanges);
  }
  CHECK(gamesWithOut > 0);
  CHECK(differWithoutOut > 0);  // the field matters
}
