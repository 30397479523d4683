// Objectives beyond the weighted sum (docs/objectives.md): each on hand-made outcome sets and
// games, the filters in real games, the win-rate blocks' determinism, and the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/objective.h"
#include "experiments/run_service.h"
#include "experiments/runner.h"
#include "results/csv.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

// A two-player game of three rounds: gains (1, 0), (1, 2), (4, 2). Leaders 0, 1, 0: two lead
// changes; the leader's |status| 1, 1, 2: tension 4/3, lead 2; seat 0's status at the end +2.
// `unit` multiplies every gain (the same game counted in other units).
MetricsTracker threeRounds(double unit = 1) {
  MetricsTracker t(std::vector<double>{0, 0});
  for (const std::vector<double>& gains : {std::vector<double>{1, 0}, {1, 2}, {4, 2}})
    t.endRound(std::vector<double>{unit * gains[0], unit * gains[1]});
  return t;
}

Objective parsed(const Json& node, int players = 2) {
  return parseObjective(node, "$.objective", players);
}

MetricValues settledWith(std::initializer_list<std::pair<Metric, double>> values) {
  MetricValues m{};
  for (const auto& [metric, value] : values) m[static_cast<size_t>(metric)] = value;
  return m;
}

std::string objectiveError(const Json& objective,
                           const std::string& environment = "e-hillclimber") {
  Json e = ludoExperiment("x", environment, 1);
  e["objective"] = objective;
  return errorOf({{"format", "ddalab-batch/1"}, {"seed", 1}, {"experiments", {e}}});
}

Json batchWith(const Json& objective, const std::string& environment, int iterations) {
  Json e = ludoExperiment("x/steered", environment, iterations);
  e["environment"]["params"] = {{"random_prob", 0.0}};
  if (!objective.is_null()) e["objective"] = objective;
  return {{"format", "ddalab-batch/1"}, {"seed", 11}, {"experiments", {e}}};
}

uint64_t batchFingerprint(const Batch& batch) {
  RunOptions options;
  options.threads = 2;
  uint64_t h = 0xcbf29ce484222325ull;
  for (const ExperimentResult& r : runBatch(batch, options))
    for (const GameRecord& g : r.records) h = fingerprint(g, h);
  return h;
}

// Every environment decision of a detailed trace line.
std::vector<Json> decisionsOf(const Json& line) {
  std::vector<Json> decisions;
  for (const Json& round : line.at("rounds"))
    for (const Json& action : round.at("actions"))
      if (action.contains("decision")) decisions.push_back(action.at("decision"));
  return decisions;
}

// The sum of how far an outcome of a detailed trace lies outside the bounds (its checks).
double violationOf(const Json& outcome) {
  double sum = 0;
  const Json checks = outcome.value("checks", Json::object());
  for (const auto& [label, value] : checks.items()) sum += value.get<double>();
  return sum;
}

}  // namespace

TEST_CASE("objective: target values the distance to per-round targets", "[objective]") {
  const MetricsTracker t = threeRounds();
  REQUIRE(t.values(0)[static_cast<size_t>(Metric::LeadChanges)] == 2);
  REQUIRE(t.values(0)[static_cast<size_t>(Metric::Tension)] == Approx(4.0 / 3));
  const Json node = {{"kind", "target"},
                     {"targets", {{"lead_changes", 0.5}, {"tension", 1}}},
                     {"scales", {{"tension", 0.5}}}};
  // Per round: -|2/3 - 1/2| - |4/3 - 1| / 0.5 = -1/6 - 2/3 = -5/6.
  const Objective perRound = parsed(node);
  CHECK(perRound.value(t, 0, Coefficients{}) == Approx(-5.0 / 6));
  const auto terms = perRound.terms(t, 0, Coefficients{});
  REQUIRE(terms.size() == 2);
  CHECK(terms[0].label == "lead_changes");
  CHECK(terms[0].value == Approx(-1.0 / 6));
  CHECK(terms[1].value == Approx(-2.0 / 3));
  // As totals: -|2 - 1/2| - 2/3 = -13/6; a weight of 2 doubles the first term.
  Json totals = node;
  totals["per_round"] = false;
  CHECK(parsed(totals).value(t, 0, Coefficients{}) == Approx(-13.0 / 6));
  totals["weights"] = {{"lead_changes", 2}};
  CHECK(parsed(totals).value(t, 0, Coefficients{}) == Approx(-3 - 2.0 / 3));
  // Reaching a target exactly is the best a term can be.
  const Objective exact = parsed({{"kind", "target"}, {"targets", {{"lead", 2}}}});
  CHECK(exact.value(t, 0, Coefficients{}) == 0);
}

TEST_CASE("objective: constrained keeps the outcomes within the bounds, else the least violating",
          "[objective]") {
  const Objective o = parsed(
      {{"kind", "constrained"},
       {"bounds",
        {{{"metric", "believability"}, {"max", 5}}, {{"metric", "fairness"}, {"min", 0.1}}}}});
  using M = Metric;
  // Violations: 2 (believability 7), 0, 0.05 (fairness 0.05 under 0.1).
  const std::vector<MetricValues> some = {
      settledWith({{M::Believability, 7}, {M::Fairness, 0.2}}),
      settledWith({{M::Believability, 3}, {M::Fairness, 0.2}}),
      settledWith({{M::Believability, 5}, {M::Fairness, 0.05}})};
  CHECK(o.violation(some[0]) == Approx(2));
  CHECK(o.violation(some[2]) == Approx(0.05));
  CHECK(o.allowedOutcomes(some) == std::vector<bool>{false, true, false});
  // None within: only the least violating (0.05) stays.
  std::vector<MetricValues> none = some;
  none[1][static_cast<size_t>(M::Believability)] = 6;  // violation 1
  CHECK(o.allowedOutcomes(none) == std::vector<bool>{false, false, true});
  // Two within: both stay (the weighted sum decides between them).
  none[0] = some[1];
  none[1] = some[1];
  CHECK(o.allowedOutcomes(none) == std::vector<bool>{true, true, false});
}

TEST_CASE("objective: lexicographic steps break ties within the tolerance of the ones before",
          "[objective]") {
  using M = Metric;
  const std::vector<MetricValues> settled = {
      settledWith({{M::Believability, 2}, {M::LeadChanges, 5}}),
      settledWith({{M::Believability, 2.5}, {M::LeadChanges, 9}}),
      settledWith({{M::Believability, 4}, {M::LeadChanges, 20}}),
      settledWith({{M::Believability, 2}, {M::LeadChanges, 9}})};
  // believability (lower is better) within 1 of 2 keeps 0, 1, 3; the most lead changes of
  // those (9) keeps 1 and 3.
  Json node = {{"kind", "lexicographic"},
               {"order",
                {{{"metric", "believability"}, {"tolerance", 1}},
                 {{"metric", "lead_changes"}, {"tolerance", 0}}}}};
  CHECK(parsed(node).allowedOutcomes(settled) == std::vector<bool>{false, true, false, true});
  // Without tolerance believability keeps 0 and 3, and lead changes then 3 alone.
  node["order"][0]["tolerance"] = 0;
  CHECK(parsed(node).allowedOutcomes(settled) == std::vector<bool>{false, false, false, true});
  // A tolerance of 3 on lead changes keeps 0 too? No: 5 is 4 below 9.
  node["order"][1]["tolerance"] = 3;
  CHECK(parsed(node).allowedOutcomes(settled) == std::vector<bool>{false, false, false, true});
  // "direction" overrides the metric's own: the fewest lead changes among 0 and 3 is 0.
  node["order"][1] = {{"metric", "lead_changes"}, {"direction", "min"}};
  CHECK(parsed(node).allowedOutcomes(settled) == std::vector<bool>{true, false, false, false});
}

TEST_CASE("objective: win-rate adds the steering term once there is an estimate", "[objective]") {
  const MetricsTracker t = threeRounds();  // seat 0's status +2, seat 1's -2, tension 4/3
  Coefficients c{};
  c[static_cast<size_t>(Metric::Lead)] = 1;  // F = -lead = -2
  Objective o =
      parsed({{"kind", "win-rate"}, {"seat", 0}, {"target", 0.5}, {"block", 10}, {"strength", 2}});
  CHECK(o.value(t, 0, c) == -2);  // the first block: the weighted sum alone
  // The status counts in units of the game's tension: +2 / (4/3) = 1.5.
  o.estimate = 0.2;  // seat 0 wins too rarely: its lead is worth 2 x 0.3 x 1.5
  CHECK(o.value(t, 0, c) == Approx(-2 + 0.9));
  o.estimate = 0.9;  // too often: its lead costs 2 x 0.4 x 1.5
  CHECK(o.value(t, 0, c) == Approx(-2 - 1.2));
  o.seat = 1;  // seat 1 trails by 2
  CHECK(o.value(t, 0, c) == Approx(-2 + 1.2));
  const auto terms = o.terms(t, 0, c);
  REQUIRE(terms.size() == 2);
  CHECK(terms[1].label == "steer seat 1 to 0.5");  // seats 0-based, as in files and the panel
  CHECK(terms[1].value == Approx(1.2));
}

TEST_CASE("objective: win-rate's steering does not depend on the game's gain units",
          "[objective]") {
  // Ludo counts squares, Lost Cities points: the same game in units 100 times larger steers by
  // the same term (the status divided by the game's tension), F aside.
  Objective o = parsed({{"kind", "win-rate"}, {"seat", 0}, {"target", 0.5}, {"strength", 3}});
  o.estimate = 0.1;
  const Coefficients none{};
  for (double factor : {0.01, 1.0, 100.0}) {
    INFO("gains x " << factor);
    CHECK(o.value(threeRounds(factor), 0, none) == Approx(3 * 0.4 * 1.5));
  }
}

TEST_CASE("objective: win-rate's default strength is 100 F units per mean lead", "[objective]") {
  // Chosen by the strength sweep (docs/study-objectives.md); files without "strength" get it.
  const Objective o = parsed({{"kind", "win-rate"}, {"seat", 1}});
  CHECK(o.strength == 100);
  CHECK(objectiveJson(o).at("strength") == 100);
}

TEST_CASE("objective: win-rate does not steer before the game has shown a lead", "[objective]") {
  // Seats 0 and 1 tied for the lead, seat 2 five behind: no leader, tension 0, no scale yet.
  MetricsTracker t(std::vector<double>{0, 0, 0});
  t.endRound(std::vector<double>{5, 5, 0});
  REQUIRE(t.status(2) == -5);
  Objective o = parsed({{"kind", "win-rate"}, {"seat", 2}, {"target", 0.5}, {"strength", 1}}, 3);
  o.estimate = 0;
  CHECK(o.value(t, 0, Coefficients{}) == 0);  // not -inf, not NaN
  // One round later the game has a lead (seat 0 by 1 over seat 1): seat 2's -6 is -6 / 0.5.
  t.endRound(std::vector<double>{6, 5, 0});
  CHECK(o.value(t, 0, Coefficients{}) == Approx(0.5 * -6 / 0.5));
}

TEST_CASE("objective: WinRateBlocks publishes each block's estimate from the blocks before",
          "[objective]") {
  Objective o = parsed({{"kind", "win-rate"}, {"seat", 1}, {"block", 2}});
  WinRateBlocks blocks(o, 7);
  CHECK(blocks.blockStart(5) == 4);
  CHECK_FALSE(blocks.estimateFor(1));
  for (int winner : {1, 0, 1, 1}) blocks.add(blocks.counted(), winner);
  blocks.add(9, 1);  // out of order: ignored
  CHECK(blocks.counted() == 4);
  CHECK(*blocks.estimateFor(2) == Approx(0.5));   // games 0-1: one win of seat 1
  CHECK(*blocks.estimateFor(5) == Approx(0.75));  // games 0-3: three
  CHECK_FALSE(WinRateBlocks(weightedSum(), 7).active());
}

TEST_CASE("objective: an explicit weighted sum plays exactly as no objective, target does not",
          "[objective]") {
  const uint64_t none = batchFingerprint(parseBatch(batchWith(nullptr, "e-hillclimber", 6), "t"));
  CHECK(batchFingerprint(
            parseBatch(batchWith({{"kind", "weighted-sum"}}, "e-hillclimber", 6), "t")) == none);
  const Json target = {{"kind", "target"}, {"targets", {{"lead_changes", 0.05}}}};
  CHECK(batchFingerprint(parseBatch(batchWith(target, "e-hillclimber", 6), "t")) != none);
  // The default objective leaves batch.json as it was.
  CHECK_FALSE(toJson(parseBatch(batchWith({{"kind", "weighted-sum"}}, "e-hillclimber", 1), "t"))
                  .at("experiments")[0]
                  .contains("objective"));
}

TEST_CASE("objective: a filtering objective never chooses an outcome its filter removed",
          "[objective]") {
  const Json constrained = {
      {"kind", "constrained"},
      {"bounds", {{{"metric", "believability"}, {"max", 2}}, {{"metric", "tension"}, {"max", 1}}}}};
  const Json lexicographic = {
      {"kind", "lexicographic"},
      {"order", {{{"metric", "believability"}, {"tolerance", 0.5}}, {{"metric", "lead_changes"}}}}};
  for (const Json& objective : {constrained, lexicographic})
    for (const char* environment : {"e-hillclimber", "e-maxmax", "e-montecarlo"}) {
      CAPTURE(objective.at("kind"), environment);
      const Batch batch = parseBatch(batchWith(objective, environment, 2), "t");
      size_t decisions = 0, filtered = 0, violatingKept = 0;
      for (uint64_t i = 0; i < 2; ++i) {
        Json trace;
        playIteration(batch, batch.experiments[0], i, &trace, {}, true);
        for (const Json& d : decisionsOf(trace)) {
          ++decisions;
          double least = INFINITY;
          for (const Json& o : d.at("outcomes")) least = std::min(least, violationOf(o));
          for (const Json& o : d.at("outcomes")) {
            filtered += !o.value("allowed", true);
            if (o.at("id") != d.at("chosen")) continue;
            CHECK(o.value("allowed", true));
            if (objective.at("kind") == "constrained") {
              CHECK(violationOf(o) == least);  // 0 whenever any outcome is within the bounds
              violatingKept += violationOf(o) > 0;
            }
          }
        }
      }
      CHECK(decisions > 50);
      CHECK(filtered > 0);  // the filter removed outcomes: the checks above were exercised
      if (objective.at("kind") == "constrained") CHECK(violatingKept > 0);  // and the fallback
    }
}

TEST_CASE("objective: win-rate games are byte-identical for 1 and 2 threads and after a resume",
          "[objective]") {
  TempDir dir;
  const Json objective = {
      {"kind", "win-rate"}, {"seat", 0}, {"target", 0.5}, {"block", 4}, {"strength", 5}};
  const Batch batch = parseBatch(batchWith(objective, "e-hillclimber", 14), "t");
  const auto runWith = [&](const fs::path& out, int threads, FolderMode mode, size_t stopAfter) {
    RunRequest request;
    request.batch = batch;
    request.out = out;
    request.threads = threads;
    request.mode = mode;
    request.traces = TraceOutput{out / "traces", false};
    RunControl control;
    RunEvents events;
    size_t games = 0;
    events.onGame = [&](size_t, const GameRecord&) {
      if (++games == stopAfter) control.abandon.store(true);
    };
    return runToFolder(request, events, control);
  };
  runWith(dir.path() / "one", 1, FolderMode::Fresh, 0);
  runWith(dir.path() / "two", 2, FolderMode::Fresh, 0);
  CHECK(readText(dir.path() / "one" / "x__steered.games.csv") ==
        readText(dir.path() / "two" / "x__steered.games.csv"));
  CHECK(runWith(dir.path() / "resumed", 2, FolderMode::Fresh, 6).complete == false);
  CHECK(runWith(dir.path() / "resumed", 1, FolderMode::Resume, 0).complete);
  CHECK(readText(dir.path() / "resumed" / "x__steered.games.csv") ==
        readText(dir.path() / "one" / "x__steered.games.csv"));
  CHECK(readText(dir.path() / "resumed" / "traces" / "x__steered.trace.jsonl") ==
        readText(dir.path() / "one" / "traces" / "x__steered.trace.jsonl"));
  // Each game steered by seat 0's win rate over the blocks before its own.
  std::ifstream lines(dir.path() / "one" / "traces" / "x__steered.trace.jsonl");
  std::vector<int> winners;
  for (std::string text; std::getline(lines, text);) {
    const Json line = Json::parse(text);
    const size_t i = line.at("iteration");
    const size_t start = i / 4 * 4;
    CAPTURE(i);
    if (start == 0) {
      CHECK_FALSE(line.contains("win_rate_estimate"));
    } else {
      const double wins =
          static_cast<double>(std::count(winners.begin(), winners.begin() + start, 0));
      CHECK(line.at("win_rate_estimate").get<double>() == Approx(wins / start));
    }
    winners.push_back(
        line.at("result").at("winner").is_null() ? -1 : line.at("result").at("winner").get<int>());
  }
  CHECK(winners.size() == 14);
}

TEST_CASE("objective: bad objectives are refused naming the key and what was expected",
          "[objective]") {
  CHECK_THAT(objectiveError({{"kind", "maximin"}}), Contains("$.experiments[0].objective.kind") &&
                                                        Contains("valid: weighted-sum, target"));
  CHECK_THAT(objectiveError({{"kind", "target"}}),
             Contains("objective.targets") && Contains("missing required key"));
  CHECK_THAT(objectiveError({{"kind", "target"}, {"targets", {{"drama_x", 1}}}}),
             Contains("objective.targets.drama_x") && Contains("unknown metric"));
  CHECK_THAT(objectiveError(
                 {{"kind", "target"}, {"targets", {{"lead", 1}}}, {"scales", {{"tension", 2}}}}),
             Contains("objective.scales.tension") && Contains("has no target"));
  CHECK_THAT(
      objectiveError({{"kind", "target"}, {"targets", {{"lead", 1}}}, {"scales", {{"lead", 0}}}}),
      Contains("objective.scales.lead") && Contains("expected a number in"));
  CHECK_THAT(objectiveError({{"kind", "constrained"},
                             {"bounds", {{{"metric", "lead"}, {"min", 3}, {"max", 1}}}}}),
             Contains("objective.bounds[0].max") && Contains("max >= min"));
  CHECK_THAT(objectiveError({{"kind", "constrained"}, {"bounds", {{{"metric", "lead"}}}}}),
             Contains("objective.bounds[0]") && Contains("\"min\", \"max\" or both"));
  CHECK_THAT(objectiveError({{"kind", "lexicographic"}, {"order", {{{"metric", "randomness"}}}}}),
             Contains("objective.order[0].direction") && Contains("say \"max\" or \"min\""));
  CHECK_THAT(objectiveError({{"kind", "win-rate"}, {"seat", 2}}),
             Contains("objective.seat") && Contains("0..1"));
  CHECK_THAT(objectiveError({{"kind", "win-rate"}, {"bounds", 1}}),
             Contains("objective.bounds") && Contains("unknown key"));
  CHECK_THAT(objectiveError({{"kind", "win-rate"}}, "e-random"),
             Contains("objective") && Contains("'e-random' pursues no objective"));
  CHECK(objectiveError({{"kind", "weighted-sum"}}, "e-random").empty());
  const Batch batch =
      parseBatch(batchWith({{"kind", "win-rate"}, {"seat", 0}}, "e-hillclimber", 4), "t");
  CHECK_THROWS_WITH(checkShardable(batch, 2, "--shards"),
                    Contains("--shards") && Contains("cannot be split into shards"));
  CHECK_NOTHROW(checkShardable(batch, 1, "--shards"));
}

TEST_CASE("objective: a metric the game cannot have is refused where the objective or F names it",
          "[objective]") {
  const auto mazeError = [](const Json& objective, const Json& coefficients = Json::object()) {
    const Json e = {{"name", "m"},
                    {"game", {{"id", "maze"}}},
                    {"environment", {{"id", "e-hillclimber"}}},
                    {"iterations", 1},
                    {"coefficients", coefficients},
                    {"objective", objective}};
    return errorOf({{"format", "ddalab-batch/1"}, {"seed", 1}, {"experiments", {e}}});
  };
  // The one-player Maze has no fairness, drama or comeback: aiming at them steers nothing.
  CHECK_THAT(mazeError({{"kind", "target"}, {"targets", {{"lead", 1}, {"fairness", 0}}}}),
             Contains("file.json: $.experiments[0].objective.targets.fairness: a game of 1 "
                      "player cannot have 'fairness'") &&
                 Contains("expected one of rounds, lead_changes, lead"));
  CHECK_THAT(
      mazeError({{"kind", "constrained"}, {"bounds", {{{"metric", "drama_average"}, {"min", 1}}}}}),
      Contains("$.experiments[0].objective.bounds[0].metric: a game of 1 player cannot "
               "have 'drama_average'"));
  CHECK_THAT(mazeError({{"kind", "lexicographic"},
                        {"order", {{{"metric", "tension"}}, {{"metric", "comeback"}}}}}),
             Contains("objective.order[1].metric: a game of 1 player cannot have 'comeback'"));
  CHECK(mazeError({{"kind", "target"}, {"targets", {{"lead", 1}, {"tension", 2}}}}).empty());
  // The fun score's coefficients by the same check: a weight on such a metric steers nothing.
  const Json sum = {{"kind", "weighted-sum"}};
  CHECK_THAT(mazeError(sum, {{"lead", 1}, {"drama_trailing", 5}}),
             Contains("$.experiments[0].coefficients.drama_trailing: a game of 1 player cannot "
                      "have 'drama_trailing'"));
  CHECK(mazeError(sum, {{"lead", 1}, {"fairness", 0}}).empty());
  // The same objectives on a game of two players.
  CHECK(objectiveError({{"kind", "target"}, {"targets", {{"fairness", 0}}}}).empty());
  CHECK(objectiveError(
            {{"kind", "constrained"}, {"bounds", {{{"metric", "drama_average"}, {"min", 1}}}}})
            .empty());
}

TEST_CASE("objective: a batch's shard record cannot split a win-rate objective either",
          "[objective]") {
  // A shard folder's batch.json (or any file) carrying "shard" is split as --shard splits it.
  // A record as a shard's batch.json holds it (merge checks the version and checksum).
  const auto record = [](int index, int count) {
    return Json{{"index", index},
                {"count", count},
                {"ddalab", "0.1.0"},
                {"batch_sha256", std::string(64, '0')}};
  };
  Json doc = batchWith({{"kind", "win-rate"}, {"seat", 0}}, "e-hillclimber", 4);
  doc["shard"] = record(1, 2);
  CHECK_THAT(errorOf(doc), Contains("file.json: $.shard: experiment 'x/steered' pursues a "
                                    "win-rate objective") &&
                               Contains("cannot be split into shards"));
  doc["shard"] = record(0, 1);
  CHECK(errorOf(doc).empty());
  doc = batchWith({{"kind", "target"}, {"targets", {{"lead", 1}}}}, "e-hillclimber", 4);
  doc["shard"] = record(1, 2);
  CHECK(errorOf(doc).empty());
}

TEST_CASE("objective: the file form reads back to the same objective", "[objective]") {
  for (const Json& node :
       {Json{{"kind", "target"}, {"targets", {{"lead_changes", 0.3}}}, {"per_round", false}},
        Json{{"kind", "constrained"}, {"bounds", {{{"metric", "fairness"}, {"min", 0.1}}}}},
        Json{{"kind", "lexicographic"}, {"order", {{{"metric", "tension"}, {"tolerance", 1}}}}},
        Json{{"kind", "win-rate"}, {"seat", 1}, {"target", 0.4}, {"block", 20}}}) {
    CAPTURE(node);
    const Json once = objectiveJson(parsed(node));
    CHECK(objectiveJson(parsed(once)) == once);
    CHECK_FALSE(describeObjective(parsed(node)).empty());
  }
  CHECK(describeObjective(parsed({{"kind", "target"}, {"targets", {{"lead_changes", 0.3}}}})) ==
        "target: lead_changes 0.3/round");
}

TEST_CASE("objective: searches track the extended metrics only when something weighs them",
          "[objective]") {
  Coefficients c{};
  c[static_cast<size_t>(Metric::Tension)] = 10;
  CHECK_FALSE(weightedSum().weighsExtended(c));
  CHECK(parsed({{"kind", "target"}, {"targets", {{"decisiveness_moves", 2}}}}).weighsExtended(c));
  CHECK(parsed({{"kind", "constrained"}, {"bounds", {{{"metric", "comeback"}, {"max", 0.5}}}}})
            .weighsExtended(c));
  c[static_cast<size_t>(Metric::Uncertainty)] = 1;
  CHECK(weightedSum().weighsExtended(c));
  // A tracker that dropped them keeps the nine thesis metrics exactly and reports them unknown.
  MetricsTracker full = threeRounds(), lean(std::vector<double>{0, 0});
  lean.dropExtended();
  for (const std::vector<double>& gains : {std::vector<double>{1, 0}, {1, 2}, {4, 2}})
    lean.endRound(gains);
  const MetricValues a = full.values(3), b = lean.values(3);
  for (const auto& info : allMetrics()) {
    CAPTURE(info.key);
    const auto k = static_cast<size_t>(info.metric);
    if (info.extended)
      CHECK(std::isnan(b[k]));
    else
      CHECK(a[k] == b[k]);
  }
}
