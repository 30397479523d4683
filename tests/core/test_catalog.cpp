// The run-time catalog (core/catalog.h): the built-ins in their order, ids refused twice with
// both origins named, addresses kept while entries are added; the capabilities players declare
// match what they build; the default AI of each game; an experiment without players; metric
// descriptors (indices and scratch given out, refusals) and a plug-in's metric followed by the
// tracker (run by tests/app/cli/plugin_test.sh with the example plug-in loaded).
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "core/catalog.h"
#include "core/metrics.h"
#include "experiments/batch.h"
#include "experiments/plugins.h"
#include "core/sha256.h"
#include "games/registry.h"
#include "players/environment/fun_seeking.h"
#include "players/registry.h"
#include "players/regular/ranking.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

// What adding `info` from `origin` throws; empty when it is added.
template <typename Info>
std::string addError(Catalog& catalog, Info info, const std::string& origin = "plug-in m") {
  try {
    catalog.add(std::move(info), origin);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

GameInfo copyOf(const std::string& id) {
  for (const GameInfo& info : gameRegistry())
    if (info.id == id) return info;
  FAIL("no game " << id);
  return {};
}

std::shared_ptr<const Game> defaultGame(const GameInfo& info) {
  return info.make(validateParams(info.params, nullptr, "params"));
}

// A metric that counts rounds in `scratch` doubles.
MetricInfo countingMetric(const std::string& key, size_t scratch) {
  MetricInfo info;
  info.key = key;
  info.rule = {[](std::span<double> state, const RoundView&) { state[0] += 1; },
               [](std::span<const double> state, const RoundView&) { return state[0]; }};
  info.scratchSize = scratch;
  return info;
}

}  // namespace

TEST_CASE("metrics: the built-ins first, plug-in metrics get the next index and their scratch",
          "[catalog]") {
  Catalog local;
  REQUIRE(local.metrics().size() == kBuiltInMetrics);
  for (size_t k = 0; k < kBuiltInMetrics; ++k) {
    CHECK(local.metrics()[k].metric == static_cast<Metric>(k));
    CHECK(local.metricOrigin(local.metrics()[k].key) == kBuiltIn);
  }
  CHECK(local.metrics()[static_cast<size_t>(Metric::Fairness)].appliesTo(2));
  CHECK_FALSE(local.metrics()[static_cast<size_t>(Metric::Fairness)].appliesTo(1));
  CHECK_FALSE(local.metrics()[static_cast<size_t>(Metric::Rounds)].scored);
  const MetricInfo& a = local.add(countingMetric("a", 6), "plug-in m");
  const MetricInfo& b = local.add(countingMetric("b", 10), "plug-in m");
  CHECK(a.metric == static_cast<Metric>(kBuiltInMetrics));
  CHECK(b.metric == static_cast<Metric>(kBuiltInMetrics + 1));
  CHECK(a.scratchOffset == 0);
  CHECK(b.scratchOffset == 6);
  CHECK(local.metricOrigin("b") == "plug-in m");
  // Refusals: a taken key (naming its origin), no rule, no scratch left, no room left.
  CHECK_THAT(addError(local, countingMetric("tension", 0)),
             Catch::Contains("plug-in m: metric 'tension'") &&
                 Catch::Contains("taken by the metric from built-in"));
  MetricInfo ruleless = countingMetric("c", 0);
  ruleless.rule.value = nullptr;
  CHECK_THAT(addError(local, ruleless), Catch::Contains("expected a rule"));
  CHECK_THAT(addError(local, countingMetric("d", 1)),
             Catch::Contains("needs 1 doubles of scratch, but only 0 of 16 are left"));
  for (size_t k = local.metrics().size(); k < kMaxMetrics; ++k)
    local.add(countingMetric("e" + std::to_string(k), 0), "plug-in m");
  CHECK_THAT(addError(local, countingMetric("full", 0)),
             Catch::Contains("the catalog holds at most 20 metrics"));
  CHECK(a.key == "a");  // entries never move
}

// Run by tests/app/cli/plugin_test.sh with examples/plugin-dice loaded (hidden otherwise): the tracker
// calls the plug-in's rule at the end of every round with the statuses and the leader, and
// its value is swing as swing.cpp defines it, worked out here from the tracker's statuses.
TEST_CASE("a plug-in metric is followed round by round by the tracker", "[.plugin-metric]") {
  const auto swing = metricByKey("swing");
  REQUIRE(swing);
  CHECK(catalog().metricOrigin("swing").find("plug-in dice") == 0);
  const std::vector<std::vector<double>> rounds = {
      {0, 10, 5}, {0, 20, 5}, {30, 20, 5}, {25, 26, 5}, {40, 20, 10}};
  MetricsTracker tracker(std::vector<double>{0, 0, 0});
  std::array<double, 3> gapSum{}, trailed{};
  for (const auto& gains : rounds) {
    tracker.endRound(gains);
    double best = tracker.status(0);
    for (int p = 1; p < 3; ++p) best = std::max(best, tracker.status(p));
    for (int p = 0; p < 3; ++p)
      if (best - tracker.status(p) > 0) gapSum[p] += best - tracker.status(p), trailed[p] += 1;
  }
  REQUIRE(tracker.leader() == 0);
  REQUIRE(trailed[0] == 3);  // player 0 trailed in the first two rounds and the fourth
  const double expected = gapSum[0] / trailed[0];
  CHECK(expected > 0);
  CHECK(tracker.values(0)[static_cast<size_t>(*swing)] == Approx(expected));
  // A copy follows on by itself (search players copy the tracker).
  MetricsTracker copy = tracker;
  copy.endRound(std::vector<double>{0, 50, 0});
  CHECK(tracker.values(0)[static_cast<size_t>(*swing)] == Approx(expected));
  CHECK(copy.leader() == 1);
}

TEST_CASE("the built-ins register through the catalog in display order", "[catalog]") {
  std::vector<std::string> games, players;
  for (const GameInfo& info : gameRegistry()) games.push_back(info.id);
  for (const PlayerInfo& info : playerRegistry()) players.push_back(info.id);
  games.resize(4);  // plug-ins (DDALAB_PLUGIN_PATH) come after the built-ins
  CHECK(games == std::vector<std::string>{"ludo", "maze", "lost-cities", "hexalines"});
  REQUIRE(players.size() >= 14);
  CHECK(players.front() == "random");
  CHECK(players[13] == "e-montecarlo");
  CHECK(catalog().gameOrigin("ludo") == kBuiltIn);
  CHECK(catalog().playerOrigin("posm") == kBuiltIn);
  CHECK(catalog().gameOrigin("chess").empty());
}

TEST_CASE("a taken or empty id is refused, naming both origins, entries never move", "[catalog]") {
  Catalog own;
  const GameInfo& first = own.add(copyOf("ludo"), "built-in");
  CHECK(addError(own, copyOf("ludo"), "libdice.so") ==
        "libdice.so: game 'ludo': the id is taken by the game from built-in");
  GameInfo unnamed = copyOf("maze");
  unnamed.id = "";
  CHECK(addError(own, unnamed, "libdice.so") == "libdice.so: a game without an id");
  for (size_t i = 1; i < Catalog::kCapacity; ++i) {
    GameInfo more = copyOf("maze");
    more.id = "maze-" + std::to_string(i);
    own.add(std::move(more), "test");
  }
  CHECK(&own.games().front() == &first);  // the room was reserved: the first entry stayed put
  CHECK(own.games().size() == Catalog::kCapacity);
  GameInfo beyond = copyOf("maze");
  beyond.id = "one-too-many";
  CHECK(addError(own, beyond, "test") ==
        "test: game 'one-too-many': the catalog holds at most 512 games");
}

TEST_CASE("an entry without a field a caller needs is refused, naming the entry and the field",
          "[catalog]") {
  Catalog own;
  GameInfo makeless = copyOf("maze");
  makeless.make = nullptr;
  CHECK(addError(own, makeless, "plug-in p (libp.so)") ==
        "plug-in p (libp.so): game 'maze': expected GameInfo::make: the factory that builds the "
        "game from its parameters");
  GameInfo undescribed = copyOf("maze");
  undescribed.description.clear();
  CHECK_THAT(addError(own, undescribed, "o"), Catch::StartsWith("o: game 'maze': expected "
                                                                "GameInfo::description"));
  GameInfo coefficients = copyOf("maze");
  coefficients.thesisCoefficients = Json::array();
  CHECK_THAT(addError(own, coefficients, "o"), Catch::Contains("GameInfo::thesisCoefficients"));
  GameInfo badDefault = copyOf("ludo");
  badDefault.params.front().defaultValue = 99;  // players: 2 or 4
  CHECK_THAT(addError(own, badDefault, "o"),
             Catch::StartsWith("o: game 'ludo': params.players: its default is refused: "));
  GameInfo twice = copyOf("ludo");
  twice.params.push_back(twice.params.front());
  CHECK_THAT(addError(own, twice, "o"),
             Catch::Contains("the parameter 'players' is declared twice"));
  GameInfo unnamed = copyOf("ludo");
  unnamed.params.front().name.clear();
  CHECK_THAT(addError(own, unnamed, "o"), Catch::Contains("a parameter without a name"));
  CHECK(own.games().empty());  // nothing refused was added

  const PlayerInfo random = findById<PlayerInfo>(playerRegistry(), "random", "player", "");
  PlayerInfo factoryless = random;
  factoryless.makeRegular = nullptr;
  CHECK(addError(own, factoryless, "plug-in p (libp.so)") ==
        "plug-in p (libp.so): player 'random': expected PlayerInfo::makeRegular: the factory of "
        "its kind's player");
  PlayerInfo environmentless = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  environmentless.makeEnvironment = nullptr;
  CHECK_THAT(addError(own, environmentless, "plug-in p (libp.so)"),
             Catch::Contains("expected PlayerInfo::makeEnvironment"));
  PlayerInfo ranksNothing = findById<PlayerInfo>(playerRegistry(), "e-random", "player", "");
  ranksNothing.ranksActions = true;  // declared, but no regular player to rank with
  CHECK_THAT(addError(own, ranksNothing, "plug-in p (libp.so)"),
             Catch::Contains("expected PlayerInfo::makeRegular"));
  PlayerInfo pursuesNothing = random;
  pursuesNothing.pursuesObjective = true;
  CHECK_THAT(addError(own, pursuesNothing, "plug-in p (libp.so)"),
             Catch::Contains("expected PlayerInfo::makeEnvironment"));
  PlayerInfo undescribedPlayer = random;
  undescribedPlayer.description.clear();
  CHECK_THAT(addError(own, undescribedPlayer, "plug-in p (libp.so)"),
             Catch::Contains("PlayerInfo::description"));
  CHECK(own.players().empty());
  CHECK(addError(own, random, "plug-in p (libp.so)").empty());  // the entries as registered pass
}

TEST_CASE("declared capabilities match the players built", "[catalog]") {
  for (const GameInfo& gameInfo : gameRegistry()) {
    const auto game = defaultGame(gameInfo);
    for (const PlayerInfo& info : playerRegistry()) {
      if (!info.canAct(PlayerKind::Regular)) continue;
      const Json params = validateParams(info.params, nullptr, "params");
      if (!info.whyNot(*game, params, PlayerKind::Regular).empty()) continue;
      INFO(info.id << " on " << gameInfo.id);
      const auto player = info.makeRegular({*game, 100, params, {}});
      CHECK(info.ranksActions == (dynamic_cast<RankingPlayer*>(player.get()) != nullptr));
      CHECK(!(info.ranksActions && info.adjustsDifficulty));  // a DDA player ranks nothing
    }
    for (const PlayerInfo& info : playerRegistry()) {  // who pursues an objective
      if (!info.canAct(PlayerKind::Environment)) continue;
      const Json params = validateParams(info.params, nullptr, "params");
      if (!info.whyNot(*game, params, PlayerKind::Environment).empty()) continue;
      INFO(info.id << " on " << gameInfo.id);
      std::vector<SeatSetup> seats(static_cast<size_t>(game->numPlayers()));
      const auto player = info.makeEnvironment({*game, 100, params, {}, {}, seats});
      CHECK(info.pursuesObjective ==
            (dynamic_cast<FunSeekingEnvironment*>(player.get()) != nullptr));
    }
  }
  CHECK(findById<PlayerInfo>(playerRegistry(), "posm", "player", "p").adjustsDifficulty);
  CHECK(findById<PlayerInfo>(playerRegistry(), "dynamic-level", "player", "p").adjustsDifficulty);
}

TEST_CASE("each game's default AI is the first offered player that can play it", "[catalog]") {
  const std::map<std::string, std::string> expected = {{"ludo", "hillclimber"},
                                                       {"maze", "hillclimber"},
                                                       {"lost-cities", "hillclimber-is"},
                                                       {"hexalines", "hillclimber"}};
  for (const GameInfo& info : gameRegistry()) {
    INFO(info.id);
    CHECK(defaultAi(*defaultGame(info)).id == expected.at(info.id));
  }
}

TEST_CASE("an experiment without players gets the game's default AI at level 100 in each seat",
          "[catalog]") {
  Json experiment = ludoExperiment("c/e-random", "e-random", 10);
  experiment["game"]["params"]["players"] = 4;
  experiment.erase("players");
  const Batch batch =
      parseBatch({{"format", "ddalab-batch/1"}, {"seed", 1}, {"experiments", {experiment}}}, "f");
  const Experiment& e = batch.experiments.front();
  REQUIRE(e.players.size() == 4);
  for (const auto& seat : e.players) {
    CHECK(seat.info->id == "hillclimber");
    CHECK(seat.level == 100);
  }
}

TEST_CASE("sha256 of the FIPS 180-4 examples (how batch.json names a plug-in's file)",
          "[catalog]") {
  CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the length no longer fits the first padding block.
  CHECK(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256Hex(std::string(1'000'000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every way of loading a plug-in (--plugin, DDALAB_PLUGIN_PATH, the GUI's view libraries and its
// File -> Load plug-in...) goes through readPluginFile, isViewLibrary, loadPlugin or pluginSymbol:
// each refuses what is no bounded regular file at once, before a read or dlopen could block.
TEST_CASE("a FIFO, a device, a folder or a dangling link is no plug-in file, refused unread",
          "[catalog]") {
  const TempDir dir;
  const auto fifo = dir.path() / "fifo.so";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::filesystem::create_directory(dir.path() / "folder.so");
  std::filesystem::create_symlink(dir.path() / "gone.so", dir.path() / "dangling.so");
  const std::vector<std::pair<std::filesystem::path, std::string>> refused = {
      {fifo, "expected a plug-in file (a shared library), found a FIFO"},
      {"/dev/zero", "expected a plug-in file (a shared library), found a device"},
      {dir.path() / "folder.so", "expected a plug-in file (a shared library), found a folder"},
      {dir.path() / "dangling.so", "no such plug-in file"}};
  for (const auto& [file, why] : refused) {
    INFO(file);
    CHECK_THROWS_WITH(readPluginFile(file), file.string() + ": " + why);
    CHECK_THROWS_WITH(loadPlugin(file), file.string() + ": " + why);
    CHECK_THROWS_WITH(pluginSymbol(file, "ddalab_plugin_entry"), Catch::Contains(why));
    CHECK_FALSE(isViewLibrary(file));
  }
  // A folder on the path contributes its *.so entries, whatever they are: loading checks them.
  const auto files = pluginFilesOnPath(dir.path().string() + "::/nonexistent");
  CHECK(files == std::vector<std::filesystem::path>{dir.path() / "dangling.so", fifo,
                                                    dir.path() / "folder.so", "/nonexistent"});
  CHECK(readPluginFile(dir.write("tiny.so", "abc")) == "abc");
}
