// The run-time catalog (core/catalog.h): the built-ins in their order, ids refused twice with
// both origins named, addresses kept while entries are added; the capabilities players declare
// match what they build; the default AI of each game; an experiment without players.
#include <catch2/catch.hpp>

#include "core/catalog.h"
#include "experiments/batch.h"
#include "experiments/sha256.h"
#include "games/registry.h"
#include "players/ranking.h"
#include "players/registry.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

std::string addError(Catalog& catalog, GameInfo info, const std::string& origin) {
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

}  // namespace

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

TEST_CASE("a taken or empty id is refused, naming both origins; entries never move", "[catalog]") {
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
