// A tournament's and a balance run's tables from a results folder (experiments/rating_results.h):
// a tiny tournament run through the run service, its files read back, its level curve; balance
// tables of a folder of known winners; hostile folders refused naming the file.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/file_io.h"
#include "core/json_input.h"
#include "experiments/merge.h"
#include "experiments/rating_report.h"
#include "experiments/rating_results.h"
#include "experiments/run_service.h"
#include "results/aggregate.h"
#include "results/csv.h"
#include "results/statistics.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

Json twoSeatLudo() {
  return {{"id", "ludo"}, {"params", {{"players", 2}}}};
}

// An experiment of the tournament: entrant `a` in seat 0, `b` in seat 1.
Json pairing(const std::string& a, const Json& playerA, const std::string& b, const Json& playerB,
             int iterations) {
  return {{"name", a + "-" + b},
          {"game", twoSeatLudo()},
          {"players", {playerA, playerB}},
          {"iterations", iterations},
          {"entrants", {a, b}}};
}

struct Entrant {
  std::string name;
  Json player;
  std::string curve;
  double x = 0;
};

const std::vector<Entrant>& tinyEntrants() {
  static const std::vector<Entrant> entrants = {
      {"random", {{"id", "random"}}, "", 0},
      {"hc10", {{"id", "hillclimber"}, {"level", 10}}, "hillclimber", 10},
      {"hc100", {{"id", "hillclimber"}, {"level", 100}}, "hillclimber", 100}};
  return entrants;
}

Json ratingSection(const std::vector<Entrant>& entrants, Json model) {
  Json list = Json::array();
  for (const Entrant& e : entrants) {
    Json j = {{"name", e.name}, {"player", e.player}};
    if (!e.curve.empty()) {
      j["curve"] = e.curve;
      j["x"] = e.x;
    }
    list.push_back(j);
  }
  return {{"kind", "tournament"}, {"model", std::move(model)}, {"entrants", list}};
}

// A round robin of `entrants` in both seat orders (what experiments/tournament.h expands).
Json tournamentDocument(const std::vector<Entrant>& entrants, int iterations, Json model) {
  Json experiments = Json::array();
  for (const Entrant& a : entrants)
    for (const Entrant& b : entrants)
      if (a.name != b.name)
        experiments.push_back(pairing(a.name, a.player, b.name, b.player, iterations));
  return {{"format", "ddalab-batch/1"},
          {"seed", 11},
          {"experiments", experiments},
          {"rating", ratingSection(entrants, std::move(model))}};
}

const Json kModel = {{"anchor", "random"}, {"bootstrap", 40}, {"prior_sd", 0}};

RunOutcome runInto(const Batch& batch, const fs::path& out, int threads = 2) {
  RunRequest request;
  request.batch = batch;
  request.out = out;
  request.threads = threads;
  RunControl control;
  return runToFolder(request, {}, control);
}

// The folder of the tiny tournament, run once for the cases that read it.
const fs::path& tinyTournament() {
  static TempDir dir;
  static const bool ran = [] {
    const Batch batch = parseBatch(tournamentDocument(tinyEntrants(), 30, kModel), "t.json");
    const RunOutcome outcome = runInto(batch, dir.path() / "t");
    REQUIRE_FALSE(outcome.ratingWarning);
    REQUIRE(outcome.complete);
    return true;
  }();
  (void)ran;
  static const fs::path folder = dir.path() / "t";
  return folder;
}

Batch batchOf(const fs::path& dir) {
  return loadBatch(dir / "batch.json");
}

std::string inputErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<CsvRecord> csvRows(const fs::path& file) {
  CsvReader reader(file);
  std::vector<CsvRecord> rows;
  CsvRecord fields;
  while (reader.next(fields)) rows.push_back(fields);
  return rows;
}

}  // namespace

TEST_CASE("a tournament's folder gets ratings.csv, pairwise.csv, level_curves.csv, ratings.json",
          "[rating_results]") {
  const fs::path& dir = tinyTournament();
  const std::vector<CsvRecord> rows = csvRows(dir / "ratings.csv");
  REQUIRE(rows.size() == 1 + 3 + 1);  // header, the entrants, the first seat
  CHECK(rows[0] == ratingsColumns());
  CHECK(rows[1][0] == "random");
  CHECK(rows[1][3] == "0");  // the anchor
  CHECK(rows[1][4] == "0");
  CHECK(rows[2][1] == "hillclimber");
  CHECK(rows[2][2] == "10");
  CHECK(rows[4][0] == "(first seat)");
  CHECK(rows[4][10].empty());  // no games of its own

  const TournamentTables tables = tournamentTables(dir, batchOf(dir));
  CHECK(tables.data.games() == 6 * 30);
  uint64_t games = 0;
  for (const EntrantRating& r : tables.fit.entrants) games += r.games;
  CHECK(games == 2 * 6 * 30);               // each game counts for both its entrants
  CHECK(tables.model.bootstrapSeed == 11);  // the batch's seed
  CHECK(tables.pairwise.size() == 3);       // every pair of 3
  CHECK(tables.entrantPlayers.at(1) == tinyEntrants()[1].player);

  const RatingFile file = readRatingFile(dir / "ratings.json");
  CHECK(file.game == Json({{"id", "ludo"}, {"params", batchOf(dir).experiments[0].gameParams}}));
  REQUIRE(file.entrants.size() == 3);
  CHECK(file.entrants[2].name == "hc100");
  CHECK(file.entrants[2].rating == tables.fit.entrants[2].rating);
  CHECK(file.entrants[2].player == tinyEntrants()[2].player);
  checkRatingGame(file, file.game, "x");
}

TEST_CASE("readRatingTables reads back what the tournament wrote, exactly", "[rating_results]") {
  const fs::path& dir = tinyTournament();
  const TournamentTables tables = tournamentTables(dir, batchOf(dir));
  const RatingTablesRead read = readRatingTables(dir);
  REQUIRE(read.ratings.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const EntrantRating &a = tables.fit.entrants[i], &b = read.ratings[i];
    CHECK(b.name == a.name);
    CHECK(b.rating == a.rating);
    CHECK(b.se == a.se);
    CHECK(b.interval.low == a.interval.low);
    CHECK(b.bootstrap.high == a.bootstrap.high);
    CHECK(b.bootstrapSe == a.bootstrapSe);
    CHECK(b.games == a.games);
    CHECK(b.score == a.score);
  }
  REQUIRE(read.firstSeat);
  CHECK(*read.firstSeat == tables.fit.firstSeat);
  CHECK(read.firstSeatInterval.high == tables.fit.firstSeatInterval.high);
  CHECK_FALSE(read.drawParameter);
  REQUIRE(read.pairwise.size() == tables.pairwise.size());
  for (size_t k = 0; k < read.pairwise.size(); ++k) {
    CHECK(read.pairwise[k].a == tables.pairwise[k].a);
    CHECK(read.pairwise[k].difference == tables.pairwise[k].difference);
    CHECK(read.pairwise[k].p == tables.pairwise[k].p);
  }
  REQUIRE(read.curves.size() == 2);
  CHECK(read.curves[1].step == tables.curves[1].step);
  CHECK(read.curves[1].stepInterval.low == tables.curves[1].stepInterval.low);
  CHECK(read.balance.empty());

  std::ostringstream out;
  printRatingTables(out, read);
  CHECK_THAT(out.str(), Contains("Ratings (Elo") && Contains("first-seat advantage") &&
                            Contains("Level curve hillclimber") && Contains("(anchor)"));
}

TEST_CASE("a level curve: its points by x, each step with the interval of the difference",
          "[rating_results]") {
  const fs::path& dir = tinyTournament();
  const TournamentTables t = tournamentTables(dir, batchOf(dir));
  REQUIRE(t.curves.size() == 2);
  CHECK(t.curves[0].entrant == "hc10");
  CHECK(t.curves[0].x == 10);
  CHECK_FALSE(t.curves[0].step);
  CHECK(t.curves[1].entrant == "hc100");
  REQUIRE(t.curves[1].step);
  const double step = t.fit.entrants[2].rating - t.fit.entrants[1].rating;
  CHECK(*t.curves[1].step == step);
  // se² = var_i + var_j − 2 cov_ij, the 95 % normal interval around the step.
  const double se =
      std::sqrt(t.fit.covarianceOf(2, 2) + t.fit.covarianceOf(1, 1) - 2 * t.fit.covarianceOf(1, 2));
  CHECK(t.curves[1].stepInterval.low == Approx(step - 1.959963984540054 * se).epsilon(1e-9));
  CHECK(t.curves[1].stepInterval.high == Approx(step + 1.959963984540054 * se).epsilon(1e-9));
  CHECK(normalCentralZ(0.95) == Approx(1.959963984540054).epsilon(1e-12));
  CHECK(normalCentralZ(0.99) == Approx(2.5758293035489).epsilon(1e-12));

  // A curve listed out of order is sorted by x; "flat" and "falls" are marked.
  RatingTablesRead read = readRatingTables(dir);
  read.curves[1].step = -5;
  read.curves[1].stepInterval = {-30, 20};
  std::ostringstream out;
  printRatingTables(out, read);
  CHECK_THAT(out.str(), Contains("flat, falls") && Contains("not monotone; 1 of 1 steps flat"));
}

TEST_CASE("a tournament's tables are the same for any thread count and after a merge of shards",
          "[rating_results]") {
  TempDir dir;
  const Batch batch = parseBatch(tournamentDocument(tinyEntrants(), 30, kModel), "t.json");
  runInto(batch, dir.path() / "one", 1);
  Batch shard = batch;
  std::vector<fs::path> shards;
  for (int k = 0; k < 2; ++k) {
    shard.shard = Shard{k, 2};
    shards.push_back(dir.path() / ("s" + std::to_string(k)));
    runInto(shard, shards.back());
  }
  CHECK_FALSE(mergeShards(shards, dir.path() / "merged", FolderMode::Fresh));
  for (const char* file : {"ratings.csv", "pairwise.csv", "level_curves.csv", "ratings.json"}) {
    CAPTURE(file);
    CHECK(readText(dir.path() / "one" / file) == readText(tinyTournament() / file));
    CHECK(readText(dir.path() / "merged" / file) == readText(tinyTournament() / file));
  }
  CHECK_FALSE(fs::exists(shards[0] / "ratings.csv"));  // a shard is not rated on its own
  const fs::path copy = dir.path() / "copy";
  CHECK_FALSE(exportResults(dir.path() / "one", copy, FolderMode::Fresh));
  CHECK(readText(copy / "ratings.csv") == readText(tinyTournament() / "ratings.csv"));
}

TEST_CASE("a tournament without a maximum keeps its games and reports why", "[rating_results]") {
  TempDir dir;
  // random and hc10 play each other, hc50 and hc100 each other: no path of games from hc50 or
  // hc100 to the anchor.
  const Entrant hc50 = {"hc50", {{"id", "hillclimber"}, {"level", 50}}, "hillclimber", 50};
  std::vector<Entrant> all = tinyEntrants();
  all.push_back(hc50);
  Json document = tournamentDocument({all[0], all[1]}, 4, kModel);
  const Json other = tournamentDocument({all[2], all[3]}, 4, kModel);
  for (const Json& e : other.at("experiments")) document["experiments"].push_back(e);
  document["rating"] = ratingSection(all, kModel);
  const RunOutcome outcome = runInto(parseBatch(document, "t.json"), dir.path() / "r");
  CHECK(outcome.complete);
  REQUIRE(outcome.ratingWarning);
  CHECK_THAT(*outcome.ratingWarning, Contains("not fitted") && Contains("hc100"));
  CHECK(fs::exists(dir.path() / "r" / "random-hc10.games.csv"));
  CHECK(fs::exists(dir.path() / "r" / "hc100-hc50.games.csv"));
  CHECK(fs::exists(dir.path() / "r" / "summary.csv"));
  CHECK_FALSE(fs::exists(dir.path() / "r" / "ratings.csv"));
  CHECK(readRatingTables(dir.path() / "r").ratings.empty());
  // A prior does not put them on the anchor's scale either (results/ratings.h refuses).
  CHECK_THROWS_AS(
      tournamentTables(dir.path() / "r", batchOf(dir.path() / "r"), {{"prior_sd", 400}}),
      RatingError);
}

// ---- balance ---------------------------------------------------------------------

namespace {

struct KnownPoint {
  std::string condition, entrant;
  double rating;
  int wins, draws, games;  // of the rated player, over both seats
};

// Writes a folder of the games of every experiment of `batch` with known winners (game i of
// experiment k: winnerOf(k, i)), its summary.csv and batch.json.
void writeKnownGames(const fs::path& dir, const Batch& batch,
                     const std::function<int(size_t, int)>& winnerOf) {
  std::vector<ExperimentSummary> summaries;
  for (size_t k = 0; k < batch.experiments.size(); ++k) {
    const Experiment& e = batch.experiments[k];
    ExperimentResult result;
    static_cast<ExperimentLabel&>(result) = labelOf(e);
    SummaryBuilder summary(result);
    for (int i = 0; i < e.iterations; ++i) {
      GameRecord g;
      g.iteration = static_cast<uint64_t>(i);
      g.numPlayers = 2;
      g.winner = winnerOf(k, i);
      result.records.push_back(g);
      summary.add(g);
    }
    summaries.push_back(summary.summary(false));
    writeExperimentCsvs(dir, result, summaries.back());
  }
  writeBatchCsvs(dir, summaries);
  writeFileAtomically(dir / "batch.json", toJson(batch).dump(2));
}

// A balance run's folder of known winners: each (condition, entrant) in two experiments (the
// rated player in seat 0, then in seat 1) of games / 2 games each.
Batch writeBalanceFolder(const fs::path& dir, const std::vector<KnownPoint>& points) {
  Json experiments = Json::array(), ladder = Json::array(), conditions = Json::array();
  for (const KnownPoint& p : points) {
    const Json entry = {{"name", p.entrant},
                        {"player", {{"id", "hillclimber"}}},
                        {"rating", p.rating},
                        {"low", p.rating - 50},
                        {"high", p.rating + 50}};
    if (std::find(ladder.begin(), ladder.end(), entry) == ladder.end()) ladder.push_back(entry);
    if (std::find(conditions.begin(), conditions.end(), p.condition) == conditions.end())
      conditions.push_back(p.condition);
    for (int seat = 0; seat < 2; ++seat)
      experiments.push_back(
          {{"name", p.condition + "-" + p.entrant + "@" + std::to_string(seat)},
           {"game", twoSeatLudo()},
           {"iterations", p.games / 2},
           {"entrants", seat == 0 ? Json{p.entrant, p.condition} : Json{p.condition, p.entrant}}});
  }
  const Json document = {
      {"format", "ddalab-batch/1"},
      {"seed", 3},
      {"experiments", experiments},
      {"rating", {{"kind", "balance"}, {"ladder", ladder}, {"conditions", conditions}}}};
  const Batch batch = parseBatch(document, "b.json");
  writeKnownGames(dir, batch, [&](size_t k, int i) {
    // The rated player's wins and draws split over its two seats (the first takes the odd one).
    const KnownPoint& p = points[k / 2];
    const int seat = static_cast<int>(k % 2);
    const int wins = (p.wins + 1 - seat) / 2, draws = (p.draws + 1 - seat) / 2;
    return i < wins ? seat : i < wins + draws ? -1 : 1 - seat;
  });
  return batch;
}

// Ladder -200, 0, 200, 400: "none" at 20 %, 50 %, 55 %, 90 %; "posm" all even (draws included).
const std::vector<KnownPoint> kKnown = {
    {"none", "strong", 200, 11, 0, 20}, {"none", "weak", -200, 4, 0, 20},
    {"none", "mid", 0, 10, 0, 20},      {"none", "top", 400, 18, 0, 20},
    {"posm", "strong", 200, 8, 4, 20},  {"posm", "weak", -200, 10, 0, 20},
    {"posm", "mid", 0, 9, 2, 20},       {"posm", "top", 400, 6, 8, 20}};

}  // namespace

TEST_CASE("balance tables of known winners: win rates, Wilson intervals, the balanced range",
          "[rating_results]") {
  TempDir dir;
  const Batch batch = writeBalanceFolder(dir.path(), kKnown);
  const BalanceTables t = balanceTables(dir.path(), batch);
  REQUIRE(t.points.size() == 8);
  const std::vector<std::string> order = {"weak", "mid", "strong", "top"};
  const double none[] = {0.2, 0.5, 0.55, 0.9};
  for (size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const BalancePoint& p = t.points[i];
    CHECK(p.condition == "none");
    CHECK(p.entrant == order[i]);
    CHECK(p.games == 20);
    CHECK(p.winRate == Approx(none[i]).epsilon(1e-12));
    const auto [low, high] = wilsonInterval(p.wins, p.games);
    CHECK(p.winRateInterval.low == Approx(low).epsilon(1e-12));
    CHECK(p.winRateInterval.high == Approx(high).epsilon(1e-12));
    CHECK(p.evenShare == 0.5);
    CHECK(p.ratingInterval.low == p.rating - 50);
  }
  CHECK(t.points[5].draws == 2);
  CHECK(t.points[5].winRate == Approx(0.5).epsilon(1e-12));  // 9 wins and 2 draws of 20

  REQUIRE(t.summaries.size() == 2);
  const BalanceSummary& s = t.summaries[0];
  CHECK(s.bandLow == 0.4);
  CHECK(s.bandHigh == 0.6);
  CHECK(s.pointsInside == 2);
  CHECK(s.points == 4);
  CHECK(s.balancedFrom == 0);
  CHECK(s.balancedTo == 200);
  CHECK(s.meanDistance == Approx((0.3 + 0 + 0.05 + 0.4) / 4).epsilon(1e-12));
  // The delta method: the points' binomial variances, summed, over 4².
  double variance = 0;
  for (double w : none) variance += w * (1 - w) / 20;
  const double half = 1.959963984540054 * std::sqrt(variance) / 4;
  CHECK(s.meanDistanceInterval.low == Approx(s.meanDistance - half).epsilon(1e-9));
  CHECK(s.meanDistanceInterval.high == Approx(s.meanDistance + half).epsilon(1e-9));
  const BalanceSummary& posm = t.summaries[1];
  CHECK(posm.pointsInside == 4);
  CHECK(posm.balancedFrom == -200);
  CHECK(posm.balancedTo == 400);

  // Written, read back, printed.
  writeRatingResults(dir.path(), batch, std::vector<ExperimentSummary>(1));
  const RatingTablesRead read = readRatingTables(dir.path());
  REQUIRE(read.balance.size() == 8);
  CHECK(read.balance[3].winRate == t.points[3].winRate);
  CHECK(read.balance[3].winRateInterval.high == t.points[3].winRateInterval.high);
  REQUIRE(read.balanceSummaries.size() == 2);
  CHECK(read.balanceSummaries[0].meanDistanceInterval.low == s.meanDistanceInterval.low);
  CHECK(read.balanceSummaries[0].balancedTo == 200);
  CHECK(read.ratings.empty());
  std::ostringstream out;
  printRatingTables(out, read);
  CHECK_THAT(out.str(), Contains("Balance of none: balanced from 0 to +200 (2 of 4 points in "
                                 "40-60 %), mean distance 0.19 [") &&
                            Contains("Balance of posm: balanced from -200 to +400 (4 of 4"));
}

TEST_CASE("balance: a band the section states, a condition balanced nowhere", "[rating_results]") {
  TempDir dir;
  Batch batch = writeBalanceFolder(dir.path(), kKnown);
  batch.rating["band"] = {0.45, 0.52};
  const BalanceTables t = balanceTables(dir.path(), batch);
  CHECK(t.summaries[0].pointsInside == 1);
  CHECK(t.summaries[0].balancedFrom == 0);
  CHECK(t.summaries[0].balancedTo == 0);
  batch.rating["band"] = {0.95, 1};
  const BalanceTables none = balanceTables(dir.path(), batch);
  CHECK_FALSE(none.summaries[0].balancedFrom);
  CHECK(none.summaries[0].pointsInside == 0);
  batch.rating["band"] = {0.6, 0.4};
  CHECK_THAT(inputErrorOf([&] { balanceTables(dir.path(), batch); }),
             Contains("batch.json: $.rating.band[1]"));
}

// ---- hostile folders ---------------------------------------------------------------

TEST_CASE("hostile: a games file with a winner out of range names the file", "[rating_results]") {
  TempDir dir;
  const Batch batch = writeBalanceFolder(dir.path(), kKnown);
  const fs::path games = dir.path() / "none-mid@0.games.csv";
  std::string text = readText(games);
  const size_t row = text.find('\n') + 1;  // the first game's row
  const size_t winner = text.find(',', text.find(',', text.find(',', row) + 1) + 1) + 1;
  text.replace(winner, text.find(',', winner) - winner, "7");
  writeFileAtomically(games, text);
  CHECK_THAT(inputErrorOf([&] { balanceTables(dir.path(), batch); }),
             Contains("none-mid@0.games.csv:2") && Contains("seat below 2"));
}

TEST_CASE("hostile: a rating section or experiment naming an unknown entrant", "[rating_results]") {
  const fs::path& dir = tinyTournament();
  Batch batch = batchOf(dir);
  batch.experiments[0].entrants[1] = "ghost";
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }),
             Contains("batch.json: $.experiments[0].entrants[1]") && Contains("'ghost'"));
  batch = batchOf(dir);
  batch.experiments[2].entrants = {"hc10", "hc10"};
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }),
             Contains("$.experiments[2].entrants[1]") && Contains("two seats"));
  batch = batchOf(dir);
  batch.rating["model"]["anchor"] = "nobody";
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }),
             Contains("batch.json: $.rating.model.anchor") && Contains("'nobody'"));
  batch = batchOf(dir);
  batch.rating["entrants"][2]["name"] = "hc10";
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }),
             Contains("$.rating.entrants[2].name") && Contains("twice"));
  batch = batchOf(dir);
  batch.rating["model"]["draws"] = "thirds";
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }), Contains("$.rating.model.draws"));
  CHECK_THAT(inputErrorOf([&] {
               tournamentTables(dir, batchOf(dir), {{"prior_sd", -1}});
             }),
             Contains("$.rating.model.prior_sd"));
  batch = batchOf(dir);
  batch.rating["kind"] = "balance";
  CHECK_THAT(inputErrorOf([&] { tournamentTables(dir, batch); }), Contains("$.rating"));
}

TEST_CASE("hostile: a ratings.json of another game, version or format", "[rating_results]") {
  const fs::path& dir = tinyTournament();
  TempDir other;
  const Json document = parseJsonText(readText(dir / "ratings.json"), "ratings.json");
  const auto refusal = [&](const std::function<void(Json&)>& edit) {
    Json changed = document;
    edit(changed);
    const fs::path file = other.write("ratings.json", changed.dump());
    return inputErrorOf([&] { readRatingFile(file); });
  };
  CHECK(refusal([](Json&) {}).empty());
  CHECK_THAT(refusal([](Json& d) { d["ddalab"] = "0.0.1"; }),
             Contains("ratings.json: $.ddalab") && Contains("0.0.1"));
  CHECK_THAT(refusal([](Json& d) { d["format"] = "ddalab-ratings/2"; }), Contains("$.format"));
  CHECK_THAT(refusal([](Json& d) { d["entrants"][1]["rating"] = "high"; }),
             Contains("$.entrants[1].rating"));
  CHECK_THAT(refusal([](Json& d) { d["entrants"][1]["name"] = "random"; }),
             Contains("$.entrants[1].name") && Contains("twice"));
  CHECK_THAT(refusal([](Json& d) { d["extra"] = 1; }), Contains("$.extra"));
  CHECK_THAT(refusal([](Json& d) { d["entrants"][0]["low"] = 5; }), Contains("$.entrants[0]"));
  const RatingFile file = readRatingFile(dir / "ratings.json");
  CHECK_THAT(inputErrorOf([&] {
               checkRatingGame(file, {{"id", "hexalines"}, {"params", Json::object()}}, "r.json");
             }),
             Contains("r.json: $.game.id"));
  Json otherSetUp = file.game;
  otherSetUp["params"]["players"] = 4;
  CHECK_THAT(inputErrorOf([&] { checkRatingGame(file, otherSetUp, "r.json"); }),
             Contains("r.json: $.game.params"));
  CHECK_THAT(inputErrorOf([&] { readRatingFile(other.path() / "missing.json"); }),
             Contains("missing.json"));
}

TEST_CASE("hostile: a cut or edited rating table names the file and line", "[rating_results]") {
  TempDir dir;
  for (const char* name : {"ratings.csv", "pairwise.csv", "level_curves.csv"})
    fs::copy_file(tinyTournament() / name, dir.path() / name);
  const std::string ratings = readText(dir.path() / "ratings.csv");
  writeFileAtomically(dir.path() / "ratings.csv", ratings.substr(0, ratings.size() / 2));
  CHECK_THAT(inputErrorOf([&] { readRatingTables(dir.path()); }),
             Contains("ratings.csv:") && Contains("fields"));
  writeFileAtomically(dir.path() / "ratings.csv", "");
  CHECK_THAT(inputErrorOf([&] { readRatingTables(dir.path()); }),
             Contains("ratings.csv") && Contains("empty"));
  std::string edited = ratings;
  edited.replace(edited.find("\nhc10,") + 1, 4, "hc11");
  writeFileAtomically(dir.path() / "ratings.csv", edited);
  CHECK_THAT(inputErrorOf([&] { readRatingTables(dir.path()); }),
             Contains("pairwise.csv:") && Contains("'hc10'"));
  writeFileAtomically(dir.path() / "ratings.csv", "entrant,rating\nrandom,0\n");
  CHECK_THAT(inputErrorOf([&] { readRatingTables(dir.path()); }),
             Contains("ratings.csv:1") && Contains("header"));
  std::string nan = ratings;
  nan.replace(nan.find("\nhc10,hillclimber,10,") + 21, 1, "x");
  writeFileAtomically(dir.path() / "ratings.csv", nan);
  CHECK_THAT(inputErrorOf([&] { readRatingTables(dir.path()); }),
             Contains("ratings.csv:3: column 4"));
}

TEST_CASE("a perfect record: refused under maximum likelihood, rated under a prior",
          "[rating_results]") {
  TempDir dir;
  const std::vector<Entrant> two = {tinyEntrants()[0], tinyEntrants()[2]};
  const Batch batch = parseBatch(tournamentDocument(two, 10, kModel), "t.json");
  writeKnownGames(dir.path(), batch, [](size_t k, int) { return k == 0 ? 1 : 0; });  // hc100
  const std::optional<std::string> warning =
      writeRatingResults(dir.path(), batch, std::vector<ExperimentSummary>(2));
  REQUIRE(warning);
  CHECK_THAT(*warning, Contains("hc100"));
  CHECK_FALSE(fs::exists(dir.path() / "ratings.csv"));
  Batch withPrior = batch;
  withPrior.rating["model"]["prior_sd"] = 400;
  CHECK_FALSE(writeRatingResults(dir.path(), withPrior, std::vector<ExperimentSummary>(2)));
  const RatingTablesRead read = readRatingTables(dir.path());
  REQUIRE(read.ratings.size() == 2);
  CHECK(read.ratings[1].rating > 200);  // finite, far above the anchor
  CHECK(std::isfinite(read.ratings[1].interval.high));
  // A later write whose fit fails removes the tables the folder would otherwise keep.
  CHECK(writeRatingResults(dir.path(), batch, std::vector<ExperimentSummary>(2)));
  CHECK_FALSE(fs::exists(dir.path() / "ratings.csv"));
  CHECK_FALSE(fs::exists(dir.path() / "ratings.json"));
}
