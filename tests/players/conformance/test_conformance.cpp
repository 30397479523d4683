// The conformance checks (players/conformance/conformance.h, also `ddalab check-game`) on every
// registered game, a plug-in's of DDALAB_PLUGIN_PATH included; each check shown failing on a game
// broken its way (tests/flawed_game.h); games that break the contract the match loop relies on
// failing the checks and stopping a run instead of crashing or hanging; a HexaLines trace
// scored again from who was out; and every game's declared action bounds and action
// descriptions (State::actionJson) holding in random playouts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.h"
#include "core/params.h"
#include "experiments/runner.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "players/conformance/conformance.h"
#include "players/conformance/match_checks.h"
#include "players/conformance/trace_oracle.h"
#include "players/registry.h"
#include "tests/flawed_game.h"
#include "tests/random_play.h"

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

TEST_CASE("conformance: each check fails on a game broken its way and names where",
          "[conformance]") {
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

// Each game below crashed (a seat out of range, an empty legal or outcome list, more seats than
// the arrays hold) or hung (a game without end) check-game's match check before the match loop
// checked what the game returns.
TEST_CASE(
    "a game that breaks the contract fails check-game's match check, naming the method, "
    "the value and the state",
    "[conformance][match]") {
  const ConformanceOptions few{4, 1};
  for (const flawed::ContractFlaw& flaw : flawed::contractFlaws()) {
    const std::string id = std::string("hostile-") + flaw.suffix;
    INFO(id);
    const ConformanceReport report = checkGame(flawed::pileInfo(id, flaw.flaw), few);
    CHECK_FALSE(report.passed());
    const ConformanceCheck& match = checkNamed(report, "match");
    CHECK(match.failures > 0);
    CHECK_THAT(match.firstFailure,
               Catch::StartsWith(id + " (defaults) params {} seed") && Catch::Contains(flaw.says));
  }
}

TEST_CASE("the match loop refuses what breaks the contract and ends a game without end",
          "[match]") {
  const auto playRandom = [](flawed::Flaw flaw, uint64_t maxActions) {
    const flawed::PileGame game(flaw);
    // The seed of check-game's second match (1 ^ its far seed) deals a game the flaws strike.
    return playRandomGame(game, 0x9E3779B97F4A7C14ull, nullptr, maxActions);
  };
  for (const flawed::ContractFlaw& flaw : flawed::contractFlaws()) {
    if (flaw.flaw == flawed::Flaw::NeverEnds) continue;
    INFO(flaw.suffix);
    std::string thrown = "nothing thrown";
    try {
      playRandom(flaw.flaw, kMatchActionLimit);
    } catch (const GameContractError& broken) {
      thrown = broken.what();
    }
    CHECK_THAT(thrown, Catch::Contains(flaw.says));
  }
  // A game without end is cut off at the bound: capped, a draw, every action played counted.
  const GameRecord endless = playRandom(flawed::Flaw::NeverEnds, 5000);
  CHECK(endless.cutOff);
  CHECK(endless.capped);
  CHECK(endless.winner == -1);
  CHECK(endless.metrics[static_cast<size_t>(Metric::Rounds)] == 2500);  // a roll and a move each
  const GameRecord sound = playRandom(flawed::Flaw::None, kMatchActionLimit);
  CHECK_FALSE(sound.cutOff);
  CHECK_FALSE(sound.capped);

  // An action none of the legal ones (a player's mistake) is refused before the game sees it.
  const flawed::PileGame game(flawed::Flaw::None);
  Match match(game, 3);
  CHECK_THROWS_WITH(match.apply(7), Catch::StartsWith("expected the action applied to be one of "
                                                      "outcomes() [1, 2, 3], got 7; the state: "
                                                      "pile "));
  match.apply(2);
  CHECK_THROWS_WITH(match.apply(5), Catch::StartsWith("expected the action applied to be one of "
                                                      "legalActions() [0, 1], got 5"));
  CHECK(match.state().roundsCompleted() == 0);  // nothing applied
}

TEST_CASE("a run stops at the first game that breaks the contract, the games before it kept",
          "[conformance][match]") {
  const GameInfo info = flawed::pileInfo("hostile-actor", flawed::Flaw::ActorNoSeat);
  // The experiment of a built-in two-player game, its game replaced by the hostile one (which is
  // not registered: the catalog's games must all pass the conformance test above).
  const Json experiment = {{"name", "x"},
                           {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
                           {"players", {{{"id", "random"}}, {{"id", "random"}}}},
                           {"environment", {{"id", "e-random"}}},
                           {"iterations", 40}};
  const Json document = {
      {"format", "ddalab-batch/1"}, {"seed", 7}, {"experiments", Json::array({experiment})}};
  Batch batch = parseBatch(document, "hostile.json");
  Experiment& e = batch.experiments.front();
  e.gameInfo = &info;
  e.gameParams = Json::object();
  e.game = info.make(e.gameParams);
  // Which games the flaw strikes: those that throw when played alone.
  size_t firstStruck = 40;
  for (size_t i = 0; i < 40 && firstStruck == 40; ++i) try {
      playIteration(batch, e, i);
    } catch (const GameContractError& broken) {
      firstStruck = i;
      CHECK_THAT(broken.what(),
                 Catch::StartsWith("game 'hostile-actor' of experiment 'x', iteration " +
                                   std::to_string(i) + " (seed ") &&
                     Catch::Contains("): expected actor() to be a seat 0..1"));
    }
  REQUIRE(firstStruck > 0);  // a game finished before
  REQUIRE(firstStruck < 40);
  PlayOptions options;
  options.threads = 1;
  RunControl control;
  std::vector<uint64_t> kept;
  CHECK_THROWS_AS(
      playIterations(
          batch, e, 0, options, control,
          [&](FinishedGame&& game, bool) { kept.push_back(game.record.iteration); }, [] {}),
      GameContractError);
  std::vector<uint64_t> before(firstStruck);
  for (size_t i = 0; i < firstStruck; ++i) before[i] = i;
  CHECK(kept == before);
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

namespace {

// Where a random playout of `game` (seed `seed`) leaves its declared bounds or describes two
// legal actions alike (State::actionJson), or "" when it never does; `described` also asks every
// legal action for a non-empty description (the built-in games give one).
std::string boundsBrokenIn(const Game& game, const ActionBounds& bounds, uint64_t seed,
                           bool described) {
  const auto s = game.newGame(seed);
  Rng rng(seed + 11);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (int move = 0; !s->isTerminal(); ++move) {
    const std::string where = "seed " + std::to_string(seed) + " move " + std::to_string(move);
    if (s->isEnvironmentNode()) {
      s->outcomes(outcomes);
      if (static_cast<int>(outcomes.size()) > bounds.maxChanceOutcomes)
        return where + ": " + std::to_string(outcomes.size()) + " outcomes";
      for (const Outcome& o : outcomes)
        if (o.action < 0 || o.action >= bounds.outcomeIds)
          return where + ": outcome " + std::to_string(o.action);
    } else {
      s->legalActions(legal);
      std::vector<Json> descriptions;  // the non-empty ones: they must tell the actions apart
      for (Action a : legal) {
        if (a < 0 || a >= bounds.distinctActions) return where + ": action " + std::to_string(a);
        Json does = s->actionJson(a);
        if (!does.is_object() || (described && does.empty()))
          return where + ": action " + std::to_string(a) + " has no description";
        if (!does.empty()) descriptions.push_back(std::move(does));
      }
      std::sort(descriptions.begin(), descriptions.end());
      if (std::adjacent_find(descriptions.begin(), descriptions.end()) != descriptions.end())
        return where + ": two legal actions with one description";
    }
    s->apply(randomMove(*s, rng));
  }
  return "";
}

}  // namespace

TEST_CASE("conformance: every game's declared action bounds and descriptions hold in playouts",
          "[conformance]") {
  // Beyond the defaults, the configurations whose parameters move the bounds.
  const std::map<std::string, std::vector<Json>> variants = {
      {"ludo", {{{"players", 2}}, {{"start_on_board", false}}}},
      {"lost-cities", {{{"hand_size", 5}}}},
      {"maze", {{{"width", 11}, {"height", 21}}, {{"width", 31}, {"height", 11}}}},
      {"hexalines", {{{"radius", 1}}, {{"radius", 5}}}}};
  for (const GameInfo& info : gameRegistry()) {
    const bool builtIn = catalog().gameOrigin(info.id) == kBuiltIn;
    std::vector<Json> configurations = {Json::object()};
    if (const auto more = variants.find(info.id); more != variants.end())
      configurations.insert(configurations.end(), more->second.begin(), more->second.end());
    for (const Json& params : configurations) {
      INFO(info.id << " " << params.dump());
      const auto game = info.make(validateParams(info.params, params, info.id));
      const std::optional<ActionBounds> bounds = game->actionBounds();
      if (!bounds) {
        CHECK_FALSE(builtIn);  // a plug-in may leave them undeclared; the built-in games may not
        continue;
      }
      CHECK(bounds->distinctActions > 0);
      CHECK(bounds->maxChanceOutcomes > 0);
      CHECK(bounds->maxChanceOutcomes <= bounds->outcomeIds);
      for (uint64_t seed = 1; seed <= 12; ++seed)
        CHECK(boundsBrokenIn(*game, *bounds, seed, builtIn) == "");
    }
  }
}

TEST_CASE("conformance: the bounds check finds an action outside the declared bounds",
          "[conformance]") {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), "ludo", "game", "");
  const auto game = info.make(validateParams(info.params, nullptr, "ludo"));
  ActionBounds tight = *game->actionBounds();
  tight.distinctActions = ludo::kEnter;  // enter and pass fall outside
  CHECK_THAT(boundsBrokenIn(*game, tight, 3, true), Catch::Contains(": action 4"));
  tight = *game->actionBounds();
  tight.outcomeIds = 6;  // the six
  CHECK_THAT(boundsBrokenIn(*game, tight, 3, true), Catch::Contains(": outcome 6"));
  tight = *game->actionBounds();
  tight.maxChanceOutcomes = 5;
  CHECK_THAT(boundsBrokenIn(*game, tight, 3, true), Catch::Contains(": 6 outcomes"));
}
