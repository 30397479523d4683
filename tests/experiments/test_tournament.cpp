// Tournaments and balance runs (experiments/tournament.h): their expansion into experiments
// (counts for 2, 3 and 4 seats, every entrant in every seat equally often, names, entrants), the
// rating section through toJson and back, the games independent of it, and every refusal naming
// the JSON path and what was expected.
#include <catch2/catch.hpp>
#include <map>

#include "experiments/batch.h"
#include "experiments/tournament.h"
#include "tests/support.h"

using namespace ddalab;
using Catch::Matchers::Contains;

namespace {

Json ludo(int players) {
  return {{"id", "ludo"}, {"params", {{"players", players}}}};
}

Json entrant(const std::string& name, Json player) {
  return {{"name", name}, {"player", std::move(player)}};
}

// A level curve of HillClimbers and a random player: 1 + levels.size() entrants.
Json ladderEntrants(const std::vector<int>& levels) {
  Json hc = entrant("hillclimber", {{"id", "hillclimber"}});
  hc["levels"] = levels;
  return Json::array({entrant("random", {{"id", "random"}}), hc});
}

Json tournamentOf(Json game, Json entrants, Json design = {{"kind", "round-robin"}}) {
  return {{"format", kBatchFormat},
          {"seed", 7},
          {"tournament",
           {{"name", "t"},
            {"game", std::move(game)},
            {"entrants", std::move(entrants)},
            {"design", std::move(design)},
            {"games", 4}}}};
}

// Entrant name -> seat -> experiments that seat it there.
std::map<std::string, std::map<size_t, int>> seatCounts(const Batch& batch) {
  std::map<std::string, std::map<size_t, int>> counts;
  for (const Experiment& e : batch.experiments)
    for (size_t k = 0; k < e.entrants.size(); ++k) ++counts[e.entrants[k]][k];
  return counts;
}

void checkSeatBalance(const Batch& batch, size_t seats, int perSeat) {
  for (const auto& [name, bySeat] : seatCounts(batch)) {
    INFO(name);
    CHECK(bySeat.size() == seats);
    for (const auto& [seat, count] : bySeat) CHECK(count == perSeat);
  }
}

// A ratings.json of `ddalab rate` for 2-seat Ludo: random and HillClimbers at 10 and 100.
Json ratingFile() {
  const auto rated = [](const std::string& name, Json player, double rating) {
    return Json{{"name", name},
                {"player", std::move(player)},
                {"rating", rating},
                {"low", rating - 50},
                {"high", rating + 50}};
  };
  return {{"format", kRatingsFormat},
          {"ddalab", DDALAB_SDK_VERSION},
          {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
          {"entrants",
           {rated("random", {{"id", "random"}, {"level", 100}}, 0),
            rated("hillclimber@10", {{"id", "hillclimber"}, {"level", 10}}, 120),
            rated("hillclimber@100", {{"id", "hillclimber"}, {"level", 100}}, 400)}}};
}

Json balanceOf(Json ratings, int seats = 2) {
  return {{"format", kBatchFormat},
          {"seed", 7},
          {"balance",
           {{"name", "b"},
            {"game", ludo(seats)},
            {"ratings", std::move(ratings)},
            {"conditions",
             {{{"name", "none"}, {"opponent", {{"id", "hillclimber"}, {"level", 50}}}},
              {{"name", "e-hillclimber"},
               {"opponent", {{"id", "hillclimber"}, {"level", 50}}},
               {"environment", {{"id", "e-hillclimber"}}},
               {"coefficients", {{"tension", 10}}}},
              {{"name", "posm"},
               {"opponent", {{"id", "posm"}, {"params", {{"base", "hillclimber"}}}}}}}},
            {"games", 3}}}};
}

}  // namespace

TEST_CASE("a 2-seat round robin plays every pairing in both seat orders", "[tournament]") {
  const Batch batch = parseBatch(tournamentOf(ludo(2), ladderEntrants({10, 50})), "t.json");
  REQUIRE(batch.experiments.size() == 3 * 2);  // C(3, 2) pairings x 2 orders
  CHECK(batch.experiments[0].name == "t/random,hillclimber@10");
  CHECK(batch.experiments[1].name == "t/hillclimber@10,random");
  CHECK(batch.experiments[1].entrants == std::vector<std::string>{"hillclimber@10", "random"});
  CHECK(batch.experiments[1].players[0].level == 10);
  for (const Experiment& e : batch.experiments) {
    CHECK(e.iterations == 4);
    CHECK(e.salt == 0);
    CHECK(e.comparison.empty());
    CHECK(e.environment.info->id == "e-random");
  }
  checkSeatBalance(batch, 2, 2);
  const Json& section = batch.rating;
  CHECK(section.at("kind") == "tournament");
  CHECK(section.at("entrants").size() == 3);
  CHECK(section.at("entrants")[1].at("curve") == "hillclimber");
  CHECK(section.at("entrants")[2].at("x") == 50);
  CHECK(section.at("entrants")[0].at("player").at("level") == 100);  // defaults written out
  CHECK(section.at("model").at("anchor") == "random");
  CHECK(section.at("model").at("bootstrap") == 1000);
  CHECK(section.at("model").at("draws") == "half");
}

TEST_CASE("games of 3 and 4 seats play every set of entrants in each cyclic rotation",
          "[tournament]") {
  Json hex = entrant("ai", {{"id", "hexalines-ai"}});
  hex["levels"] = {20, 60, 100};
  const Batch three = parseBatch(
      tournamentOf({{"id", "hexalines"}}, {entrant("random", {{"id", "random"}}), hex}), "t.json");
  REQUIRE(three.experiments.size() == 4 * 3);  // C(4, 3) sets x 3 rotations
  CHECK(three.experiments[1].name == "t/ai@20,ai@60,random");
  checkSeatBalance(three, 3, 3);  // each entrant is in C(3, 2) = 3 sets, once in each seat

  const Batch four = parseBatch(tournamentOf(ludo(4), ladderEntrants({10, 30, 60, 100})), "t.json");
  REQUIRE(four.experiments.size() == 5 * 4);  // C(5, 4) x 4
  checkSeatBalance(four, 4, 4);
}

TEST_CASE("a ladder's newcomers meet only the anchors, which meet each other", "[tournament]") {
  const Json design = {{"kind", "ladder"}, {"anchors", {"random", "hillclimber@100"}}};
  const Batch two =
      parseBatch(tournamentOf(ludo(2), ladderEntrants({10, 20, 50, 100}), design), "t.json");
  REQUIRE(two.experiments.size() == (1 + 3 * 2) * 2);
  for (const Experiment& e : two.experiments) {
    const bool anchored = e.entrants[0] == "random" || e.entrants[0] == "hillclimber@100" ||
                          e.entrants[1] == "random" || e.entrants[1] == "hillclimber@100";
    CHECK(anchored);
  }
  CHECK(two.rating.at("design").at("anchors").size() == 2);

  const Json four = {{"kind", "ladder"},
                     {"anchors", {"random", "hillclimber@10", "hillclimber@20"}}};
  const Batch ludo4 =
      parseBatch(tournamentOf(ludo(4), ladderEntrants({10, 20, 50, 100}), four), "t.json");
  CHECK(ludo4.experiments.size() == 2 * 4);  // each newcomer with the 3 anchors, 4 rotations
}

TEST_CASE("a vary entrant names its points by value and makes a curve of numbers", "[tournament]") {
  Json mcts = entrant("hc", {{"id", "hillclimber"}});
  mcts["vary"] = {{"param", "sigma"}, {"values", {0.1, 0.5}}};
  const Batch batch =
      parseBatch(tournamentOf(ludo(2), {entrant("random", {{"id", "random"}}), mcts}), "t.json");
  CHECK(batch.rating.at("entrants")[1].at("name") == "hc@sigma=0.1");
  CHECK(batch.rating.at("entrants")[2].at("x") == 0.5);
  CHECK(batch.rating.at("entrants")[2].at("player").at("params").at("sigma") == 0.5);
}

TEST_CASE("a tournament's batch.json loads back as the same batch, its games ignoring the rating",
          "[tournament]") {
  const Batch batch = parseBatch(tournamentOf(ludo(2), ladderEntrants({10, 50})), "t.json");
  const Json written = toJson(batch);
  CHECK(written.contains("rating"));
  CHECK(written.at("experiments")[0].at("entrants") == Json({"random", "hillclimber@10"}));
  const Batch again = parseBatch(written, "batch.json");
  CHECK(toJson(again) == written);
  CHECK(batchChecksum(again) == batchChecksum(batch));

  Batch refitted = batch;
  refitted.rating["model"]["prior_sd"] = 200;
  CHECK(batchChecksum(refitted) != batchChecksum(batch));
  Batch renamed = batch;
  renamed.experiments[0].entrants = {"a", "b"};
  for (size_t i = 0; i < batch.experiments.size(); ++i) {
    CHECK(playIdentity(refitted, i) == playIdentity(batch, i));
    CHECK(playIdentity(renamed, i) == playIdentity(batch, i));
  }
  // The same pairing in an ordinary batch plays the same games (common random numbers).
  Json plain = written;
  plain.erase("rating");
  for (Json& e : plain.at("experiments")) e.erase("entrants");
  const Batch ordinary = parseBatch(plain, "plain.json");
  CHECK(playIdentity(ordinary, 3) == playIdentity(batch, 3));
  CHECK_FALSE(toJson(ordinary).contains("rating"));
  CHECK_FALSE(toJson(ordinary).at("experiments")[0].contains("entrants"));
}

TEST_CASE("an experiment's entrants and a batch's rating section are checked", "[tournament]") {
  Json written = toJson(parseBatch(tournamentOf(ludo(2), ladderEntrants({10})), "t.json"));
  Json wrongSize = written;
  wrongSize["experiments"][0]["entrants"] = {"random"};
  CHECK_THAT(errorOf(wrongSize), Contains("$.experiments[0].entrants") &&
                                     Contains("expected an array of 2 entrant names"));
  Json unknown = written;
  unknown["experiments"][1]["entrants"][0] = "nobody";
  CHECK_THAT(errorOf(unknown),
             Contains("$.experiments[1].entrants[0]") && Contains("is not named in $.rating"));
  Json badModel = written;
  badModel["rating"]["model"]["confidence"] = 1.5;
  CHECK_THAT(errorOf(badModel), Contains("$.rating.model.confidence") && Contains("[0.5, 0.999999]"));
  Json noKind = written;
  noKind["rating"]["kind"] = "league";
  CHECK_THAT(errorOf(noKind), Contains("$.rating.kind"));
  Json partial = written;  // a section written by hand: the model's defaults, no design
  partial["rating"].erase("design");
  partial["rating"]["model"] = {{"anchor", "hillclimber@10"}};
  CHECK(parseBatch(partial, "batch.json").rating.at("model").size() == 1);
}

TEST_CASE("an entrant given twice is refused naming both places", "[tournament]") {
  Json twice = ladderEntrants({10});
  twice.push_back(entrant("random", {{"id", "hillclimber"}, {"level", 40}}));
  CHECK_THAT(errorOf(tournamentOf(ludo(2), twice)),
             Contains("file.json: $.tournament.entrants[2]") &&
                 Contains("\"random\" is given twice") &&
                 Contains("also at $.tournament.entrants[0]"));
  Json samePlayer = ladderEntrants({10, 100});
  samePlayer.push_back(entrant("strong", {{"id", "hillclimber"}}));  // level 100 by default
  CHECK_THAT(errorOf(tournamentOf(ludo(2), samePlayer)),
             Contains("$.tournament.entrants[2]") && Contains("same player as entrant") &&
                 Contains("\"hillclimber@100\" ($.tournament.entrants[1].levels[1])"));
  Json level = ladderEntrants({10, 10});
  CHECK_THAT(errorOf(tournamentOf(ludo(2), level)),
             Contains("$.tournament.entrants[1].levels[1]") && Contains("given twice"));
}

TEST_CASE("names with separators and players the game refuses are refused at their paths",
          "[tournament]") {
  CHECK_THAT(errorOf(tournamentOf(ludo(2), {entrant("a,b", {{"id", "random"}}),
                                            entrant("c", {{"id", "hillclimber"}})})),
             Contains("$.tournament.entrants[0].name") && Contains("has ','"));
  CHECK_THAT(errorOf(tournamentOf(ludo(2), {entrant("a", {{"id", "random"}}),
                                            entrant("c", {{"id", "no-such-player"}})})),
             Contains("$.tournament.entrants[1].player.id"));
  Json badLevel = ladderEntrants({10, 101});
  CHECK_THAT(errorOf(tournamentOf(ludo(2), badLevel)),
             Contains("$.tournament.entrants[1].levels[1]") && Contains("[1, 100]"));
  Json badGame = tournamentOf(ludo(3), ladderEntrants({10}));
  CHECK_THAT(errorOf(badGame), Contains("$.tournament.game.params.players"));
  Json games = tournamentOf(ludo(2), ladderEntrants({10}));
  games["tournament"]["games"] = 0;
  CHECK_THAT(errorOf(games), Contains("$.tournament.games") && Contains("[1, 10000000]"));
}

TEST_CASE("an anchor that is not an entrant is refused", "[tournament]") {
  Json model = tournamentOf(ludo(2), ladderEntrants({10}));
  model["tournament"]["model"] = {{"anchor", "stockfish"}};
  CHECK_THAT(errorOf(model), Contains("$.tournament.model.anchor") &&
                                 Contains("\"stockfish\" is not an entrant") &&
                                 Contains("random, hillclimber@10"));
  const Json design = {{"kind", "ladder"}, {"anchors", {"random", "hillclimber"}}};
  CHECK_THAT(errorOf(tournamentOf(ludo(2), ladderEntrants({10}), design)),
             Contains("$.tournament.design.anchors[1]") && Contains("is not an entrant"));
  Json noRandom = tournamentOf(ludo(2), {entrant("a", {{"id", "hillclimber"}, {"level", 5}}),
                                         entrant("b", {{"id", "hillclimber"}})});
  CHECK(parseBatch(noRandom, "t.json").rating.at("model").at("anchor") == "a");
}

TEST_CASE("a design that leaves an entrant unconnected to the anchor is refused", "[tournament]") {
  const Json design = {
      {"kind", "pairings"},
      {"tables", Json::array({Json::array({"random", "hillclimber@10"}),
                              Json::array({"hillclimber@50", "hillclimber@100"})})}};
  CHECK_THAT(errorOf(tournamentOf(ludo(2), ladderEntrants({10, 50, 100}), design)),
             Contains("$.tournament.design") && Contains("leaves 2 entrants without a path") &&
                 Contains("hillclimber@50 ($.tournament.entrants[1].levels[1])") &&
                 Contains("\"random\""));
  const Json connected = {
      {"kind", "pairings"},
      {"tables", Json::array({Json::array({"random", "hillclimber@10"}),
                              Json::array({"hillclimber@10", "hillclimber@50"})})}};
  CHECK(parseBatch(tournamentOf(ludo(2), ladderEntrants({10, 50}), connected), "t.json")
            .experiments.size() == 4);
  CHECK_THAT(errorOf(tournamentOf(ludo(4), ladderEntrants({10, 50}))),
             Contains("$.tournament.entrants") && Contains("3 entrants cannot fill a table of 4"));
}

TEST_CASE("sweeps inside a tournament and designs too large are refused", "[tournament]") {
  Json sweep = tournamentOf(ludo(2), ladderEntrants({10}));
  sweep["sweep"] = Json::array({{{"path", "coefficients.tension"}, {"values", {0, 1}}}});
  CHECK_THAT(errorOf(sweep), Contains("$.sweep") && Contains("cannot be swept"));
  Json inner = tournamentOf(ludo(2), ladderEntrants({10}));
  inner["tournament"]["entrants"][1]["sweep"] = Json::array();
  CHECK_THAT(errorOf(inner), Contains("$.tournament.entrants[1].sweep"));
  const SweepAxis vary{"coefficients.tension", {0, 1}};
  CHECK_THAT(refusalOf([&] {
               parseBatch(tournamentOf(ludo(2), ladderEntrants({10})), "t.json",
                          std::span(&vary, 1));
             }),
             Contains("--vary coefficients.tension"));
  Json both = tournamentOf(ludo(2), ladderEntrants({10}));
  both["experiments"] = Json::array();
  CHECK_THAT(errorOf(both), Contains("$.tournament") && Contains("exactly one of"));

  std::vector<int> all(100);
  for (int i = 0; i < 100; ++i) all[static_cast<size_t>(i)] = i + 1;
  Json maxn = entrant("maxn", {{"id", "maxn"}});
  maxn["levels"] = all;
  Json big = ladderEntrants(all);
  big.push_back(maxn);  // 201 entrants: 40,200 experiments
  CHECK_THAT(errorOf(tournamentOf(ludo(2), big)),
             Contains("$.tournament.design") && Contains("more than 20000 experiments"));
}

TEST_CASE("a balance run plays each ladder entrant in each seat against each condition",
          "[tournament]") {
  const Batch batch = parseBatch(balanceOf(ratingFile()), "b.json");
  REQUIRE(batch.experiments.size() == 3 * 3 * 2);
  const Experiment& e = batch.experiments[5];
  CHECK(e.name == "b/none/hillclimber@100@seat1");
  CHECK(e.entrants == std::vector<std::string>{"none", "hillclimber@100"});
  CHECK(e.players[1].level == 100);
  CHECK(e.players[0].level == 50);
  CHECK(batch.experiments[6].environment.info->id == "e-hillclimber");
  CHECK(batch.experiments[12].players[1].info->id == "posm");
  const Json& section = batch.rating;
  CHECK(section.at("kind") == "balance");
  CHECK(section.at("band") == Json({0.4, 0.6}));
  CHECK(section.at("ladder")[2].at("rating") == 400);
  CHECK(section.at("conditions") == Json({"none", "e-hillclimber", "posm"}));
  CHECK(section.at("ratings_file").at("name") == "(inline)");
  CHECK(toJson(parseBatch(toJson(batch), "batch.json")) == toJson(batch));

  Json ladder = balanceOf(ratingFile());
  ladder["balance"]["ladder"] = {"hillclimber@10"};
  CHECK(parseBatch(ladder, "b.json").experiments.size() == 3 * 2);
}

TEST_CASE("a balance run reads its rating file next to the batch file", "[tournament]") {
  TempDir dir;
  dir.write("ratings.json", ratingFile().dump(2));
  const auto file = dir.write("balance.json", balanceOf("ratings.json").dump(2));
  const Batch batch = loadBatch(file);
  CHECK(batch.rating.at("ratings_file").at("name") == "ratings.json");
  CHECK(batch.rating.at("ratings_file").at("sha256").get<std::string>().size() == 64);
  CHECK_THAT(refusalOf([&] { parseBatch(balanceOf("missing.json"), "b.json", {}, dir.path()); }),
             Contains("missing.json"));
}

TEST_CASE("a rating file of another game or version is refused naming it", "[tournament]") {
  TempDir dir;
  Json otherGame = ratingFile();
  otherGame["game"]["params"]["players"] = 4;
  dir.write("other.json", otherGame.dump());
  CHECK_THAT(refusalOf([&] { parseBatch(balanceOf("other.json"), "b.json", {}, dir.path()); }),
             Contains("other.json: $.game") && Contains("expected the balance run's game"));
  Json otherVersion = ratingFile();
  otherVersion["ddalab"] = "0.0.1";
  CHECK_THAT(errorOf(balanceOf(otherVersion)),
             Contains("$.balance.ratings.ddalab") && Contains("ratings of ddalab \"0.0.1\""));
  Json format = ratingFile();
  format["format"] = "ddalab-ratings/9";
  CHECK_THAT(errorOf(balanceOf(format)), Contains("$.balance.ratings.format"));
  Json ladder = balanceOf(ratingFile());
  ladder["balance"]["ladder"] = {"hillclimber@20"};
  CHECK_THAT(errorOf(ladder),
             Contains("$.balance.ladder[0]") && Contains("not an entrant of the rating file"));
  Json clash = balanceOf(ratingFile());
  clash["balance"]["conditions"][1]["name"] = "none";
  CHECK_THAT(errorOf(clash), Contains("$.balance.conditions[1].name") &&
                                 Contains("also at $.balance.conditions[0].name"));
  Json both = balanceOf(ratingFile());
  both["balance"]["conditions"][0]["opponents"] = Json::array({{{"id", "random"}}});
  CHECK_THAT(errorOf(both),
             Contains("$.balance.conditions[0].opponent") && Contains("either \"opponent\""));
  Json band = balanceOf(ratingFile());
  band["balance"]["band"] = {0.7, 0.3};
  CHECK_THAT(errorOf(band), Contains("$.balance.band"));
  Json badOpponent = balanceOf(ratingFile());
  badOpponent["balance"]["conditions"][2]["opponent"]["params"]["base"] = "nothing";
  CHECK_THAT(errorOf(badOpponent),
             Contains("$.balance.conditions[2].opponent.id") && Contains("unknown base 'nothing'"));
}

TEST_CASE("a balance run of more than two seats uses the even share's band and every seat",
          "[tournament]") {
  Json file = ratingFile();
  file["game"]["params"]["players"] = 4;
  Json doc = balanceOf(file, 4);
  doc["balance"]["conditions"] = Json::array(
      {{{"name", "mixed"},
        {"opponents",
         {{{"id", "random"}}, {{"id", "hillclimber"}, {"level", 20}}, {{"id", "random"}}}}}});
  const Batch batch = parseBatch(doc, "b.json");
  REQUIRE(batch.experiments.size() == 3 * 4);
  CHECK(batch.experiments[2].entrants ==
        std::vector<std::string>{"mixed", "mixed", "random", "mixed"});
  CHECK(batch.experiments[2].players[1].level == 20);
  CHECK(batch.rating.at("band")[0].get<double>() == Approx(0.15));
  CHECK(batch.rating.at("band")[1].get<double>() == Approx(0.35));
}
