// Sweeps (experiments/sweep.h): grid points crossed and zipped, ranges, names and comparisons
// carrying the values, the rows a row's sweep leaves alone played at every point with the same
// seeds, --vary, and every refusal naming the axis, the grid point and what was expected;
// sweep.csv; the Slurm scripts (experiments/slurm.h; tests/app/cli/slurm_test.sh runs them on Slurm).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "experiments/batch.h"
#include "experiments/merge.h"
#include "experiments/run_service.h"
#include "experiments/runner.h"
#include "experiments/slurm.h"
#include "experiments/sweep.h"
#include "experiments/sweep_results.h"
#include "results/csv.h"
#include "results/folder_analysis.h"
#include "results/sweep_table.h"
#include "tests/support.h"

using namespace ddalab;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {

Json batchOf(std::vector<Json> experiments, Json sweep = nullptr) {
  Json doc = {{"format", kBatchFormat}, {"seed", 5}, {"experiments", std::move(experiments)}};
  if (!sweep.is_null()) doc["sweep"] = std::move(sweep);
  return doc;
}

std::vector<std::string> namesOf(const Batch& batch) {
  std::vector<std::string> names;
  for (const auto& e : batch.experiments) names.push_back(e.name);
  return names;
}

double coefficient(const Experiment& e, Metric m) {
  return e.coefficients[static_cast<size_t>(m)];
}

}  // namespace

TEST_CASE("a batch sweep crosses its axes over every experiment, point by point", "[sweep]") {
  const Json doc = batchOf(
      {ludoExperiment("c/e-random", "e-random", 2), ludoExperiment("c/e-hc", "e-hillclimber", 2)},
      Json::array(
          {{{"path", "coefficients.tension"}, {"values", {0, 30}}},
           {{"path", "players[0].level"}, {"range", {{"from", 10}, {"to", 100}, {"steps", 4}}}}}));
  const Batch batch = parseBatch(doc, "file.json");
  REQUIRE(batch.experiments.size() == 2 * 4 * 2);
  // The first axis varies slowest; each point's rows together, in the file's order.
  CHECK(namesOf(batch)[0] == "c/e-random@tension=0,level=10");
  CHECK(namesOf(batch)[1] == "c/e-hc@tension=0,level=10");
  CHECK(namesOf(batch)[3] == "c/e-hc@tension=0,level=40");
  CHECK(namesOf(batch)[15] == "c/e-hc@tension=30,level=100");
  CHECK(batch.experiments[15].comparison == "c@tension=30,level=100");
  CHECK(coefficient(batch.experiments[15], Metric::Tension) == 30);
  CHECK(coefficient(batch.experiments[15], Metric::Lead) == 3);  // the others stay
  const std::vector<int> levels = {10, 40, 70, 100};
  for (size_t p = 0; p < 4; ++p) CHECK(batch.experiments[2 * p].players[0].level == levels[p]);
  CHECK(batch.experiments[0].salt == 0);  // every point plays the same seeds
}

TEST_CASE("zipped axes move together, log ranges, an experiment file's own sweep", "[sweep]") {
  Json experiment = ludoExperiment("x", "e-hillclimber", 2);
  experiment["format"] = kExperimentFormat;
  experiment["seed"] = 3;
  experiment["sweep"] = {
      {"combine", "zip"},
      {"axes",
       {{{"path", "coefficients.believability"},
         {"range", {{"from", 1}, {"to", 1000}, {"steps", 4}, {"scale", "log"}}}},
        {{"path", "environment.params.random_prob"}, {"values", {0, 0.1, 0.2, 0.5}}}}}};
  const Batch batch = parseBatch(experiment, "x.json");
  CHECK(batch.seed == 3);
  CHECK(namesOf(batch) == std::vector<std::string>{"x@believability=1,random_prob=0",
                                                   "x@believability=10,random_prob=0.1",
                                                   "x@believability=100,random_prob=0.2",
                                                   "x@believability=1000,random_prob=0.5"});
  CHECK(batch.experiments[2].environment.params.at("random_prob") == 0.2);
  CHECK(coefficient(batch.experiments[3], Metric::Believability) == 1000);
}

TEST_CASE("a row's own sweep plays the comparison's other rows at every point", "[sweep]") {
  Json swept = ludoExperiment("c/e-hc", "e-hillclimber", 3);
  swept["sweep"] = {{{"path", "environment.params.random_prob"}, {"values", {0, 1}}}};
  const Batch batch = parseBatch(batchOf({ludoExperiment("c/e-random", "e-random", 3), swept,
                                          [] {
                                            Json other = ludoExperiment("solo", "e-random", 3);
                                            other.erase("comparison");
                                            return other;
                                          }()}),
                                 "file.json");
  CHECK(namesOf(batch) ==
        std::vector<std::string>{"c/e-random@random_prob=0", "c/e-hc@random_prob=0",
                                 "c/e-random@random_prob=1", "c/e-hc@random_prob=1", "solo"});
  CHECK(batch.experiments[2].comparison == "c@random_prob=1");
  CHECK(batch.experiments[2].environment.params.empty());  // e-random has no random_prob
  // The same seeds at every point: the e-random copies play the same games.
  RunOptions options;
  options.threads = 2;
  const auto results = runBatch(batch, options);
  REQUIRE(results.size() == 5);
  for (size_t i = 0; i < 3; ++i) {
    CHECK(results[0].records[i].seed == results[2].records[i].seed);
    CHECK(results[0].records[i].metrics == results[2].records[i].metrics);
  }
}

TEST_CASE("the option --vary adds an axis to every experiment", "[sweep]") {
  const SweepAxis axis = parseVary("coefficients.lead=0,2.5,7");
  CHECK(axis.path == "coefficients.lead");
  CHECK(axis.values == std::vector<Json>{0, 2.5, 7});
  CHECK(parseVary("environment.id=e-random,e-hillclimber").values[1] == "e-hillclimber");
  const std::vector<SweepAxis> vary = {axis};
  const Batch batch =
      parseBatch(batchOf({ludoExperiment("c/a", "e-hillclimber", 2)}), "file.json", vary);
  CHECK(namesOf(batch) == std::vector<std::string>{"c/a@lead=0", "c/a@lead=2.5", "c/a@lead=7"});
  CHECK_THROWS_WITH(parseVary("coefficients.lead"), Contains("expected PATH=v1,v2"));
  CHECK_THROWS_WITH(parseVary("coefficients.lead=1,,2"), Contains("an empty value"));
}

TEST_CASE("sweep refusals name the file, the axis and what was expected", "[sweep]") {
  const auto refused = [](const Json& sweep) {
    Json e = ludoExperiment("c/a", "e-hillclimber", 2);
    e["sweep"] = sweep;
    return errorOf(batchOf({e}));
  };
  CHECK_THAT(refused({{{"path", "environment.params.random_prb"}, {"values", {0}}}}),
             Contains("file.json: $.experiments[0].sweep[0]: at the grid point random_prb=0") &&
                 Contains("unknown parameter 'random_prb'"));
  CHECK_THAT(refused({{{"path", "environment.params.random_prob"}, {"values", {0, 2}}}}),
             Contains("$.experiments[0].sweep[0]: at the grid point random_prob=2") &&
                 Contains("expected number in [0, 1]"));
  CHECK_THAT(refused({{{"path", "players[2].level"}, {"values", {10}}}}),
             Contains("$.experiments[0].sweep[0]: path players[2].level: $.players has no entry "
                      "[2] (it has 2)"));
  CHECK_THAT(refused({{{"path", "name"}, {"values", {"a"}}}}),
             Contains("the sweep names the experiments and comparisons and records"));
  CHECK_THAT(refused({{{"path", "coefficients..x"}, {"values", {1}}}}),
             Contains("expected a path into the experiment"));
  CHECK_THAT(refused({{{"path", "coefficients.lead"}}}),
             Contains("$.experiments[0].sweep[0]: expected either \"values\" or \"range\""));
  CHECK_THAT(
      refused({{{"path", "coefficients.lead"}, {"range", {{"from", 0}, {"to", 9}, {"steps", 1}}}}}),
      Contains("sweep[0].range.steps: expected a whole number of values 2..10000"));
  CHECK_THAT(refused({{{"path", "coefficients.lead"},
                       {"range", {{"from", 0}, {"to", 9}, {"steps", 3}, {"scale", "log"}}}}}),
             Contains("a log scale needs from and to above 0"));
  CHECK_THAT(refused({{{"path", "coefficients.lead"},
                       {"range", {{"from", 1}, {"to", 9}, {"steps", 3}, {"scale", 3}}}}}),
             Contains("sweep[0].range.scale: expected \"linear\" or \"log\", got 3"));
  CHECK_THAT(refused({{{"path", "coefficients.lead"}, {"values", {1}}, {"step", 1}}}),
             Contains("sweep[0].step: unknown key; expected path, values, range, combine"));
  CHECK_THAT(refused({{{"path", "coefficients.lead"}, {"values", {1, 2}}},
                      {{"path", "coefficients.tension"}, {"values", {1}}, {"combine", "zip"}}}),
             Contains("sweep[1]: zipped with coefficients.lead: expected 2 values, got 1"));
  // A zip on the first axis has no axis before it to move with: refused, not crossed.
  CHECK_THAT(refused({{{"path", "coefficients.lead"}, {"values", {1, 2}}, {"combine", "zip"}},
                      {{"path", "coefficients.tension"}, {"values", {3, 4}}}}),
             Contains("file.json: $.experiments[0].sweep[0].combine: \"zip\" moves an axis with "
                      "the one before it, and this is the first axis"));
  CHECK_THAT(
      errorOf(batchOf({ludoExperiment("c/a", "e-hillclimber", 2)},
                      {{{"path", "coefficients.lead"}, {"values", {1}}, {"combine", "zip"}}})),
      Contains("$.sweep[0].combine: \"zip\" moves an axis"));
  // Two rows of one comparison with sweeps of their own would not pair.
  Json a = ludoExperiment("c/a", "e-hillclimber", 2), b = ludoExperiment("c/b", "e-hillclimber", 2);
  a["sweep"] = b["sweep"] = {{{"path", "coefficients.lead"}, {"values", {1, 2}}}};
  CHECK_THAT(errorOf(batchOf({a, b})),
             Contains("$.experiments[1].sweep[0]: two experiments of the comparison \"c\""));
  // Without players written out, a seat cannot be varied.
  Json noPlayers = ludoExperiment("c/a", "e-hillclimber", 2);
  noPlayers.erase("players");
  noPlayers["sweep"] = {{{"path", "players[0].level"}, {"values", {10}}}};
  CHECK_THAT(errorOf(batchOf({noPlayers})), Contains("write its players out to vary them"));
}

namespace {

// A comparison of an unvaried row (first: it is expanded first at each point) and a row whose
// own sweep varies `path` over `values`.
Json besideUnvaried(const std::string& path, const Json& values) {
  Json swept = ludoExperiment("c/e-hc", "e-hillclimber", 2);
  swept["sweep"] = {{{"path", path}, {"values", values}}};
  return batchOf({ludoExperiment("c/e-random", "e-random", 2), swept});
}

}  // namespace

TEST_CASE(
    "a grid value that cannot name a point is refused at the axis, also for the rows the sweep "
    "leaves alone",
    "[sweep]") {
  // Each of these crashed (exit 139): the unvaried row's refusal indexed its empty axis list.
  const std::string axis = "file.json: $.experiments[1].sweep[0]";
  CHECK_THAT(
      errorOf(besideUnvaried("environment.params.random_prob", {0.5, nullptr})),
      Contains(axis + ".values[1]: expected a number, string or boolean") && Contains("got null"));
  CHECK_THAT(errorOf(besideUnvaried("game.params.safe_squares", {{0, 13}, {0, 26}})),
             Contains(axis + ".values[0]: expected a number, string or boolean") &&
                 Contains("a list or object parameter cannot be an axis"));
  CHECK_THAT(errorOf(besideUnvaried("environment.params", {{{"random_prob", 0.5}}})),
             Contains(axis + ".values[0]: expected a number, string or boolean"));
  CHECK_THAT(errorOf(besideUnvaried("environment.id", {"e-maxmax", "e-hill?climber"})),
             Contains(axis + ".values[1]: value \"e-hill?climber\" has '?'"));
  CHECK_THAT(errorOf(besideUnvaried("environment.id", {""})),
             Contains(axis + ".values[0]: expected a non-empty string"));
  const std::string longValue(190, 'x');
  CHECK_THAT(errorOf(besideUnvaried("environment.id", {longValue})),
             Contains(axis + ": at the grid point id=xxx") &&
                 Contains("the experiment \"c/e-random\" is refused: $.name:") &&
                 Contains("expected at most 200 bytes (the grid point's values make its names)"));
  // The rows a sweep leaves alone are refused at their own path, at any point.
  Json badRow = besideUnvaried("coefficients.lead", {1, 2});
  badRow["experiments"][0]["players"][0]["level"] = 0;
  CHECK_THAT(errorOf(badRow),
             Contains("file.json: $.experiments[0].players[0].level: at the grid point lead=1"));
  // The same values by --vary, whatever the row.
  CHECK_THROWS_WITH(parseVary("environment.params.random_prob=0.5,null"),
                    Contains("--vary environment.params.random_prob: expected a number"));
  CHECK_THROWS_WITH(parseVary("environment.params={}"),
                    Contains("a list or object parameter cannot be an axis"));
  CHECK_THROWS_WITH(parseVary("environment.id=a?b"), Contains("has '?'"));
}

TEST_CASE("an axis varies what no other axis varies, and each grid point is played once",
          "[sweep]") {
  const auto axis = [](const std::string& path, Json values, bool zip = false) {
    Json a = {{"path", path}, {"values", std::move(values)}};
    if (zip) a["combine"] = "zip";
    return a;
  };
  Json row = ludoExperiment("c/a", "e-hillclimber", 2);
  // The same path twice in one sweep, and a path inside another's.
  CHECK_THAT(errorOf(batchOf(
                 {row}, {axis("coefficients.lead", {1, 2}), axis("coefficients.lead", {3, 4})})),
             Contains("file.json: $.sweep[1]: varies \"coefficients.lead\", as "
                      "\"coefficients.lead\" of $.sweep[0] does; expected each part"));
  CHECK_THAT(errorOf(batchOf({row}, {axis("environment.params.random_prob", {0, 1}),
                                     axis("environment.params", {0})})),
             Contains("$.sweep[1]: varies \"environment.params\", which overlaps"));
  // A batch's axis and a row's on one path.
  Json swept = row;
  swept["sweep"] = {axis("coefficients.lead", {5})};
  CHECK_THAT(errorOf(batchOf({swept}, {axis("coefficients.lead", {1, 2})})),
             Contains("$.experiments[0].sweep[0]: varies \"coefficients.lead\", as "
                      "\"coefficients.lead\" of $.sweep[0] does"));
  // Two --vary on one path, and --vary on the file's axis.
  const std::vector<SweepAxis> twice = {parseVary("coefficients.lead=1,2"),
                                        parseVary("coefficients.lead=3")};
  CHECK_THROWS_WITH(parseBatch(batchOf({row}), "file.json", twice),
                    Contains("file.json: --vary coefficients.lead: varies") &&
                        Contains("of --vary coefficients.lead does"));
  const std::vector<SweepAxis> again = {parseVary("coefficients.lead=3")};
  CHECK_THROWS_WITH(parseBatch(batchOf({swept}), "file.json", again),
                    Contains("$.experiments[0].sweep[0]: varies") &&
                        Contains("of --vary coefficients.lead does"));
  // The point the sweep records itself.
  for (const std::string path : {"point", "point.x"})
    CHECK_THAT(errorOf(batchOf({row}, {axis(path, {1})})),
               Contains("records each one's point itself"));
  // One value twice: 1 and 1.0 are one number, 1 and "1" one name.
  CHECK_THAT(errorOf(batchOf({row}, {axis("coefficients.lead", {1, 1.0})})),
             Contains("$.sweep[0]: value 1 (1.0) repeats value 0 (1); expected each grid point "
                      "once"));
  CHECK_THAT(errorOf(batchOf({row}, {axis("coefficients.lead", {1, 2, "1"})})),
             Contains("value 2 (\"1\") repeats value 0 (1)"));
  CHECK_THAT(errorOf(batchOf({row}, {{{"path", "coefficients.lead"},
                                      {"range", {{"from", 1}, {"to", 1}, {"steps", 2}}}}})),
             Contains("value 1 (1) repeats value 0 (1)"));
  // Zipped axes: a repeated value is fine while the pair differs.
  CHECK(errorOf(batchOf({row}, {axis("coefficients.lead", {1, 1}),
                                axis("coefficients.tension", {1, 2}, true)}))
            .empty());
  CHECK_THAT(errorOf(batchOf({row}, {axis("coefficients.lead", {1, 1}),
                                     axis("coefficients.tension", {2, 2}, true)})),
             Contains("$.sweep[1]: value 1 (2) repeats value 0 (2, with the axes zipped to it)"));
}

TEST_CASE("a grid is counted before it is expanded and refused above 100000 experiments",
          "[sweep]") {
  const Json row = ludoExperiment("c/a", "e-hillclimber", 2);
  const auto range = [](const std::string& path, int steps) {
    return Json{{"path", path}, {"range", {{"from", 1}, {"to", steps}, {"steps", steps}}}};
  };
  // 10^4 x 10^4 x 10^4 points (10^12), and 10^4^6 (past 2^64): refused at once, counted exactly
  // where it can be.
  Json huge = Json::array();
  for (const char* key : {"lead", "tension", "freedom"})
    huge.push_back(range(std::string("coefficients.") + key, 10000));
  CHECK_THAT(errorOf(batchOf({row}, huge)),
             Contains("file.json: $.sweep[0]: the grid has 1000000000000 points of 1 "
                      "experiment(s) each, after 0 other experiment(s); expected at most 100000 "
                      "experiments in a batch"));
  for (const char* key : {"lead_changes", "leading_time", "randomness"})
    huge.push_back(range(std::string("coefficients.") + key, 10000));
  CHECK_THAT(errorOf(batchOf({row}, huge)),
             Contains("the grid has more than 18446744073709551615 points"));
  // The bound counts every row played at each point and the experiments expanded before.
  Json first = ludoExperiment("d/a", "e-random", 2);
  first["comparison"] = "d";
  first["sweep"] = {range("coefficients.lead", 2)};
  Json swept = row;
  swept["sweep"] = {range("coefficients.lead", 250), range("coefficients.tension", 200)};
  CHECK_THAT(errorOf(batchOf({first, swept, ludoExperiment("c/b", "e-random", 2)})),
             Contains("$.experiments[1].sweep[0]: the grid has 50000 points of 2 experiment(s) "
                      "each, after 2 other experiment(s)"));
}

TEST_CASE(
    "sweep.csv: a row per grid point with its values, metrics, scores and the paired "
    "difference to e-random, score --write and merged shards write it the same",
    "[sweep]") {
  TempDir dir;
  Json swept = ludoExperiment("c/e-hc", "e-hillclimber", 4);
  swept["sweep"] = {{{"path", "environment.params.random_prob"}, {"values", {0, 0.5}}}};
  const Batch batch =
      parseBatch(batchOf({ludoExperiment("c/e-random", "e-random", 4), swept}), "file.json");
  CHECK(batch.experiments[1].point == Json{{"random_prob", 0}});
  RunControl control;
  RunRequest request;
  request.batch = batch;
  request.out = dir.path() / "whole";
  runToFolder(request, {}, control);
  const std::string sweep = readText(dir.path() / "whole" / "sweep.csv");
  std::istringstream lines(sweep);
  std::string header, line;
  std::getline(lines, header);
  CHECK(header.rfind("experiment,comparison,@random_prob,games,rounds,rounds_low,rounds_high,",
                     0) == 0);
  CHECK_THAT(header,
             Contains(",win_ratio,win_ratio_low,win_ratio_high,score9,score9_low,score9_high,") &&
                 Contains(",tension_vs_random,tension_vs_random_low,tension_vs_random_high"));
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].rfind("c/e-random@random_prob=0,c@random_prob=0,0,4,", 0) == 0);
  CHECK(rows[3].rfind("c/e-hc@random_prob=0.5,c@random_prob=0.5,0.5,4,", 0) == 0);
  CHECK_THAT(rows[0], EndsWith(",,,"));  // the reference row has no difference to itself
  CHECK_FALSE(rows[1].ends_with(",,,"));
  // Recomputed from the folder (ddalab score --write), and merged from shards: the same bytes.
  const auto summaries = summarizeResultsDir(dir.path() / "whole");
  const auto analyses = analyzeResultsDir(dir.path() / "whole");
  std::filesystem::remove(dir.path() / "whole" / "sweep.csv");
  writeSweepResults(dir.path() / "whole", batch, summaries, analyses);
  CHECK(readText(dir.path() / "whole" / "sweep.csv") == sweep);
  std::vector<std::filesystem::path> shards;
  for (int k = 0; k < 3; ++k) {
    request.batch.shard = Shard{k, 3};
    request.out = dir.path() / "shard";
    request.out += std::to_string(k);
    runToFolder(request, {}, control);
    shards.push_back(request.out);
  }
  mergeShards(shards, dir.path() / "merged", FolderMode::Fresh);
  CHECK(readText(dir.path() / "merged" / "sweep.csv") == sweep);
}

TEST_CASE("a series varies the axes along which its rows take two or more values", "[sweep]") {
  SweepTable table;
  table.axes = {"believability", "random_prob", "tension"};
  const auto row = [](std::string series, Json point) {
    SweepRow r;
    r.series = std::move(series);
    r.point = std::move(point);
    return r;
  };
  // One comparison per coefficient, as the coefficient study's files: each series one axis.
  table.rows = {row("t/e-hc", {{"tension", 0}}),
                row("t/e-hc", {{"tension", 10}}),
                row("b/e-hc", {{"believability", 0}, {"random_prob", 0.2}}),
                row("b/e-hc", {{"believability", 10}, {"random_prob", 0.2}}),
                row("g/e-hc", {{"believability", 0}, {"random_prob", 0}}),
                row("g/e-hc", {{"believability", 10}, {"random_prob", 0.5}})};
  CHECK(table.variedAxes("t/e-hc") == std::vector<std::string>{"tension"});
  CHECK(table.variedAxes("b/e-hc") == std::vector<std::string>{"believability"});
  CHECK(table.variedAxes("g/e-hc") == std::vector<std::string>{"believability", "random_prob"});
  CHECK(table.variedAxes("unknown").empty());
}

TEST_CASE(
    "ddalab slurm's scripts: one array task per shard resuming its folder, a merge job "
    "over every shard, bad options and a full --out refused",
    "[slurm]") {
  TempDir dir;
  SlurmOptions o;
  o.shards = 4;
  o.out = dir.path() / "it's results";
  o.ddalab = DDALAB_CLI;  // checked: an executable file
  o.plugins = {"/opt/dice.so"};
  o.partition = "short";
  o.cpusPerTask = 2;
  const std::string array = slurmArrayScript(o);
  CHECK_THAT(array, Contains("#SBATCH --array=0-3\n") && Contains("#SBATCH --partition=short\n") &&
                        Contains("#SBATCH --cpus-per-task=2\n") && Contains("#SBATCH --requeue\n"));
  CHECK_THAT(array, Contains("then resume=--resume; fi") &&
                        Contains("--plugin '/opt/dice.so' --shard \"$shard/4\" --threads "
                                 "\"${SLURM_CPUS_PER_TASK:-0}\""));
  CHECK_THAT(array, Contains("/it'\\''s results.slurm/shards'"));  // quoted for the shell
  const std::string merge = slurmMergeScript(o);
  CHECK_THAT(merge, Contains(" merge --plugin '/opt/dice.so' --shard-list '") &&
                        Contains(".slurm/shards.list' --out "));
  const Batch batch = parseBatch(batchOf({ludoExperiment("c/a", "e-random", 2)}), "file.json");
  const SlurmJob job = writeSlurmJob(batch, o);
  CHECK(readText(job.batch) == toJson(batch).dump(2) + "\n");
  CHECK(readText(job.arrayScript) == array);
  CHECK_NOTHROW(writeSlurmJob(batch, o));  // the same batch again: its shards are kept
  Batch other = batch;
  other.seed = 6;
  CHECK_THROWS_WITH(writeSlurmJob(other, o), Contains("holds the shards of another batch"));
  o.partition = "a b";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--partition: expected one word"));
  o.partition.clear();
  o.shards = 0;
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("--shards: expected 1..100000"));
  o.shards = 2;
  std::filesystem::create_directories(o.out);
  std::ofstream(o.out / "x.csv") << "x";
  CHECK_THROWS_WITH(writeSlurmJob(batch, o), Contains("the folder is not empty"));
}
