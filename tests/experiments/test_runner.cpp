// Batch files (strict validation with clear errors) and the batch runner (determinism, stop).
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "experiments/batch.h"
#include "experiments/lineup.h"
#include "experiments/runner.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

Json batchDocument(std::vector<Json> experiments) {
  return {{"format", "ddalab-batch/1"}, {"seed", 7}, {"experiments", experiments}};
}

uint64_t signatureOf(const ExperimentResult& result) {
  uint64_t h = 1;
  for (const auto& r : result.records) h = fingerprint(r, h);
  return h;
}

}  // namespace

TEST_CASE("a valid batch loads with defaults filled in") {
  const Batch batch = parseBatch(batchDocument({ludoExperiment("a", "e-hillclimber", 5)}), "f");
  REQUIRE(batch.seed == 7);
  REQUIRE(batch.experiments.size() == 1);
  const Experiment& e = batch.experiments[0];
  CHECK(e.players.size() == 2);
  CHECK(e.players[0].level == 50);
  CHECK(e.players[1].level == 100);
  CHECK(e.players[0].params.at("sigma").get<double>() == 0.4);
  CHECK(e.environment.params.at("random_prob").get<double>() == 0.2);
  CHECK(e.gameParams.at("max_rounds").get<int>() == 2000);
  CHECK(e.coefficients[static_cast<size_t>(Metric::Believability)] == 1000);
  CHECK(e.coefficients[static_cast<size_t>(Metric::Freedom)] == 0);
  // What toJson writes loads back to the same experiment.
  const Batch again = parseBatch(toJson(batch), "again");
  CHECK(toJson(again) == toJson(batch));
}

TEST_CASE("bad batch files give errors naming the file, the JSON path and the expectation") {
  auto withChange = [](auto change) {
    Json e = ludoExperiment("a", "e-random", 5);
    change(e);
    return errorOf(batchDocument({e}));
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(withChange([](Json& e) { e["iterationz"] = 3; }),
             Contains("file.json: $.experiments[0].iterationz") && Contains("unknown key"));
  CHECK_THAT(withChange([](Json& e) { e["game"]["id"] = "chess"; }),
             Contains("$.experiments[0].game.id") && Contains("valid: ludo"));
  CHECK_THAT(withChange([](Json& e) { e["players"][1]["id"] = "alphazero"; }),
             Contains("$.experiments[0].players[1].id") && Contains("hillclimber"));
  CHECK_THAT(withChange([](Json& e) { e["players"][1]["id"] = "e-random"; }),
             Contains("unknown regular player 'e-random'"));
  CHECK_THAT(withChange([](Json& e) { e["environment"]["id"] = "random"; }),
             Contains("$.experiments[0].environment.id") && Contains("e-hillclimber"));
  CHECK_THAT(withChange([](Json& e) { e["players"][0]["level"] = 101; }),
             Contains("$.experiments[0].players[0].level") && Contains("[1, 100]"));
  CHECK_THAT(withChange([](Json& e) { e["players"][0]["level"] = "high"; }),
             Contains("players[0].level") && Contains("expected an integer"));
  CHECK_THAT(withChange([](Json& e) {
               e["players"].push_back({{"id", "random"}});
             }),
             Contains("$.experiments[0].players") && Contains("expected an array of 2 players"));
  CHECK_THAT(withChange([](Json& e) { e["game"]["params"]["players"] = 3; }),
             Contains("$.experiments[0].game.params.players") && Contains("valid: 2, 4"));
  CHECK_THAT(withChange([](Json& e) { e["game"]["params"]["max_round"] = 3; }),
             Contains("game.params.max_round") && Contains("max_rounds"));
  CHECK_THAT(withChange([](Json& e) {
               e["environment"] = {{"id", "e-hillclimber"}, {"params", {{"random_prob", 1.5}}}};
             }),
             Contains("environment.params.random_prob") && Contains("out of range"));
  CHECK_THAT(withChange([](Json& e) {
               e["environment"]["params"] = {{"random_prob", 0.5}};
             }),
             Contains("unknown parameter 'random_prob'; valid: (none)"));
  CHECK_THAT(withChange([](Json& e) { e["coefficients"]["fun"] = 1; }),
             Contains("$.experiments[0].coefficients.fun") && Contains("tension"));
  CHECK_THAT(withChange([](Json& e) { e["coefficients"]["win_ratio"] = 1; }),
             Contains("cannot weight F"));
  CHECK_THAT(withChange([](Json& e) { e["iterations"] = 0; }),
             Contains("$.experiments[0].iterations") && Contains("expected an integer"));
  CHECK_THAT(withChange([](Json& e) { e.erase("name"); }),
             Contains("$.experiments[0].name") && Contains("missing"));

  Json maze = {{"name", "m"},
               {"game", {{"id", "maze"}, {"params", {{"blue_prob", 0.6}, {"red_prob", 0.5}}}}},
               {"players", {{{"id", "hillclimber"}}}},
               {"iterations", 1}};
  CHECK_THAT(errorOf(batchDocument({maze})),
             Contains("file.json: $.experiments[0].game.params.red_prob"));
  CHECK_THAT(errorOf({{"seed", 1}, {"experiments", Json::array()}}),
             Contains("$.format") && Contains("ddalab-batch/1"));
  CHECK_THAT(errorOf(batchDocument(
                 {ludoExperiment("a", "e-random", 5), ludoExperiment("a", "e-random", 5)})),
             Contains("$.experiments[1].name") && Contains("duplicate"));
  CHECK(errorOf(batchDocument({ludoExperiment("a", "e-random", 5)})).empty());
}

TEST_CASE("files that are not JSON name the file and the place") {
  const auto file = std::filesystem::temp_directory_path() / "ddalab-broken.json";
  std::ofstream(file) << "{\n  \"format\": \"ddalab-batch/1\",\n  \"seed\": 1,,\n}";
  try {
    loadBatch(file);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(),
               Catch::Matchers::Contains(file.string()) && Catch::Matchers::Contains("line 3"));
  }
  CHECK_THROWS_WITH(loadBatch("/nonexistent/x.json"), Catch::Matchers::Contains("cannot open"));
  std::filesystem::remove(file);
}

TEST_CASE("a single-experiment file is a batch of one") {
  Json document = ludoExperiment("solo", "e-random", 3);
  document["format"] = "ddalab-experiment/1";
  document["seed"] = 5;
  const Batch batch = parseBatch(document, "solo.json");
  REQUIRE(batch.experiments.size() == 1);
  CHECK(batch.experiments[0].name == "solo");
}

TEST_CASE("results do not depend on the thread count") {
  const Batch batch = parseBatch(batchDocument({ludoExperiment("a", "e-hillclimber", 24),
                                                ludoExperiment("b", "e-random", 24)}),
                                 "f");
  RunOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const auto a = runBatch(batch, one);
  const auto b = runBatch(batch, two);
  REQUIRE(a.size() == 2);
  for (size_t e = 0; e < 2; ++e) {
    REQUIRE(a[e].records.size() == 24);
    REQUIRE(b[e].records.size() == 24);
    CHECK(signatureOf(a[e]) == signatureOf(b[e]));
    for (size_t i = 0; i < 24; ++i) CHECK(a[e].records[i].iteration == i);
  }
  // Common random numbers: both rows see the same per-iteration seeds.
  CHECK(a[0].records[3].seed == a[1].records[3].seed);
  // ...but the environment player changes what happens.
  CHECK(signatureOf(a[0]) != signatureOf(a[1]));
}

TEST_CASE("a salt gives an experiment its own seeds, the master seed changes every game") {
  Json salted = ludoExperiment("s", "e-random", 2);
  salted["salt"] = 99;
  Batch batch = parseBatch(batchDocument({ludoExperiment("a", "e-random", 2), salted}), "f");
  CHECK(gameSeed(batch, batch.experiments[0], 0) != gameSeed(batch, batch.experiments[1], 0));
  const uint64_t before = gameSeed(batch, batch.experiments[0], 0);
  batch.seed = 8;
  CHECK(gameSeed(batch, batch.experiments[0], 0) != before);
}

TEST_CASE("stop keeps every finished game, unchanged, and starts no new experiment") {
  const Batch batch = parseBatch(batchDocument({ludoExperiment("a", "e-hillclimber", 400),
                                                ludoExperiment("b", "e-random", 10)}),
                                 "f");
  RunControl control;
  RunOptions options;
  options.threads = 2;
  options.control = &control;
  options.progressInterval = 0.001;
  // Workers at most 4 games ahead of the reports: the stop lands long before game 400 however
  // the threads are scheduled (a loaded machine only slows the games).
  options.window = 4;
  options.onProgress = [&control](const Progress& p) {
    if (p.gamesDone >= 5) control.stop.store(true);
  };
  const auto results = runBatch(batch, options);
  REQUIRE(results.size() == 1);
  const auto& records = results[0].records;
  CHECK(records.size() >= 5);
  CHECK(records.size() < 400);
  for (size_t i = 1; i < records.size(); ++i)
    CHECK(records[i - 1].iteration < records[i].iteration);
  for (const auto& r : records)
    CHECK(fingerprint(r) == fingerprint(playIteration(batch, batch.experiments[0], r.iteration)));
}

TEST_CASE("progress reports count games and estimate the time left") {
  const Batch batch = parseBatch(
      batchDocument({ludoExperiment("a", "e-random", 30), ludoExperiment("b", "e-random", 20)}),
      "f");
  std::vector<Progress> seen;
  RunOptions options;
  options.threads = 2;
  options.onProgress = [&seen](const Progress& p) { seen.push_back(p); };
  std::vector<std::string> done;
  options.onExperimentDone = [&done](const ExperimentResult& r) { done.push_back(r.name); };
  runBatch(batch, options);
  REQUIRE(!seen.empty());
  CHECK(seen.back().gamesDone == 50);
  CHECK(seen.back().gamesTotal == 50);
  CHECK(seen.back().etaSeconds == 0);
  for (size_t i = 1; i < seen.size(); ++i) CHECK(seen[i - 1].gamesDone <= seen[i].gamesDone);
  CHECK(done == std::vector<std::string>{"a", "b"});
}

TEST_CASE("one experiment parses on its own, its errors pathed from the experiment",
          "[experiments][lineup]") {
  const Json experiment = ludoExperiment("c/e-random", "e-random", 10);
  const Batch batch = parseExperiment(experiment, 9, "settings");
  REQUIRE(batch.experiments.size() == 1);
  CHECK(batch.seed == 9);
  CHECK(toJson(batch).at("experiments").at(0) ==
        toJson(parseBatch(
                   {{"format", "ddalab-batch/1"}, {"seed", 9}, {"experiments", {experiment}}}, "f"))
            .at("experiments")
            .at(0));
  Json bad = experiment;
  bad["players"][1]["level"] = 500;
  try {
    parseExperiment(bad, 0, "settings");
    FAIL("a level of 500 was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind("settings: $.players[1].level", 0) == 0);
  }
}

TEST_CASE("the line-up: a player per seat, none for a person's, and the environment",
          "[experiments][lineup]") {
  const Batch batch = parseExperiment(ludoExperiment("c/e-hc", "e-hillclimber", 1), 1, "f");
  const Lineup all = buildLineup(batch.experiments.front(), {});
  REQUIRE(all.players.size() == 2);
  CHECK(all.players[0] != nullptr);
  CHECK(all.players[1] != nullptr);
  CHECK(all.environment != nullptr);
  const Lineup withPerson = buildLineup(batch.experiments.front(), {}, {true, false});
  CHECK(withPerson.players[0] == nullptr);
  CHECK(withPerson.players[1] != nullptr);
  CHECK(withPerson.seats()[0] == nullptr);
}
