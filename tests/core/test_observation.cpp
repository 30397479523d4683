// What a seat may know as structured data (State::observationJson, seatScreen): for every game
// of the registry, a seat's screen is the same in every state consistent with what the seat has
// seen (its determinizations), so nothing hidden from it can be in it; it is valid JSON of
// bounded size; the check finds a leak (the opponent's Lost Cities hand added); each legal move
// carries its game's description of what it does (State::actionJson).
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/observation.h"
#include "core/params.h"
#include "games/lost-cities/lost_cities.h"
#include "games/ludo/ludo.h"
#include "games/registry.h"
#include "tests/random_play.h"

using namespace ddalab;

namespace {

using ScreenOf = std::function<Json(const State&, int seat)>;

constexpr int kCheckEvery = 3;        // states checked: every third of a playout
constexpr int kDeterminizations = 4;  // rngs tried per state and seat

std::shared_ptr<const Game> defaultGame(const GameInfo& info) {
  return info.make(validateParams(info.params, nullptr, info.id));
}

// Where seat `seat`'s screen of `s` differs from that of a determinization of `s` for the seat
// (something hidden from it shows), or "" when none of kDeterminizations does.
std::string leakOf(const State& s, int seat, const ScreenOf& screenOf, uint64_t salt) {
  const Json screen = screenOf(s, seat);
  for (int i = 0; i < kDeterminizations; ++i) {
    Rng rng(salt * 31 + static_cast<uint64_t>(i));
    const Json other = screenOf(*s.determinize(seat, rng, {}), seat);
    if (other != screen)
      return "differs from a determinization's: " + Json::diff(screen, other).dump();
  }
  return "";
}

struct Found {
  int statesChecked = 0;
  size_t largestBytes = 0;
  std::string firstLeak;
};

// Random playouts of `game`; at every kCheckEvery-th state each seat's screen is checked.
Found playAndCheck(const Game& game, const ScreenOf& screenOf, int games) {
  Found found;
  for (int g = 0; g < games && found.firstLeak.empty(); ++g) {
    const auto s = game.newGame(static_cast<uint64_t>(1000 + g));
    Rng rng(static_cast<uint64_t>(g) + 7);
    for (int move = 0; found.firstLeak.empty(); ++move) {
      if (move % kCheckEvery == 0 || s->isTerminal()) {
        ++found.statesChecked;
        for (int seat = 0; seat < s->numPlayers(); ++seat) {
          const std::string text = screenOf(*s, seat).dump();  // throws on invalid UTF-8
          found.largestBytes = std::max(found.largestBytes, text.size());
          CHECK(Json::parse(text) == screenOf(*s, seat));
          const std::string leak = leakOf(*s, seat, screenOf, static_cast<uint64_t>(move));
          if (!leak.empty())
            found.firstLeak = "game " + std::to_string(g) + " move " + std::to_string(move) +
                              " seat " + std::to_string(seat) + ": " + leak;
        }
      }
      if (s->isTerminal()) break;
      s->apply(randomMove(*s, rng));
    }
  }
  return found;
}

}  // namespace

TEST_CASE("observation: a seat's screen tells nothing hidden from it, in every game",
          "[observation]") {
  for (const GameInfo& info : gameRegistry()) {
    INFO(info.id);
    const auto game = defaultGame(info);
    const Found found = playAndCheck(
        *game, [&](const State& s, int seat) { return seatScreen(s, seat, info.id); }, 3);
    CHECK(found.firstLeak == "");
    CHECK(found.statesChecked > 10);
    CHECK(found.largestBytes <= kMaxScreenBytes);
    WARN(info.id << ": " << found.statesChecked << " states, largest screen " << found.largestBytes
                 << " bytes");
  }
}

TEST_CASE("observation: the check finds the opponent's Lost Cities hand added to a screen",
          "[observation]") {
  const auto game = defaultGame(findById<GameInfo>(gameRegistry(), "lost-cities", "game", ""));
  const Found found = playAndCheck(
      *game,
      [](const State& s, int seat) {
        Json screen = seatScreen(s, seat, "lost-cities");
        const auto& lc = dynamic_cast<const lostcities::LostCitiesState&>(s);
        screen["observation"]["opponent"]["hand"] =
            lc.observationJson(1 - seat)["you"]["hand"];  // the leak
        return screen;
      },
      1);
  CHECK_THAT(found.firstLeak, Catch::Contains("/observation/opponent/hand"));
}

TEST_CASE("observation: the screen's fields follow the seat and the game's end", "[observation]") {
  const auto game = defaultGame(findById<GameInfo>(gameRegistry(), "lost-cities", "game", ""));
  auto s = game->newGame(5);
  const Json mine = seatScreen(*s, 0, "lost-cities"), theirs = seatScreen(*s, 1, "lost-cities");
  CHECK(mine["actor"] == "you");
  CHECK(theirs["actor"] == "opponent 0");
  CHECK(mine["legal"].size() > 0);
  CHECK_FALSE(theirs.contains("legal"));  // only the seat on turn gets its moves
  CHECK_FALSE(mine.contains("gains"));    // the heuristic weighs hidden cards
  CHECK_FALSE(mine.contains("winner"));   // still running
  CHECK(mine["observation"]["you"]["hand"].size() == 8);
  CHECK(mine["observation"]["opponent"]["handSize"] == 8);
  CHECK_FALSE(mine["observation"]["opponent"].contains("hand"));
  CHECK(mine["observation"]["deck"] == 60 - 16);
  Rng rng(3);
  while (!s->isTerminal()) s->apply(randomMove(*s, rng));
  const Json over = seatScreen(*s, 0, "lost-cities");
  CHECK(over["actor"] == "over");
  CHECK(over["gains"].size() == 2);
  CHECK(over["winner"] == (s->winner() < 0 ? "none" : s->winner() == 0 ? "you" : "opponent 1"));
}

TEST_CASE("observation: a plug-in game's default screen is its observation text", "[observation]") {
  const auto game = defaultGame(findById<GameInfo>(gameRegistry(), "ludo", "game", ""));
  const auto s = game->newGame(1);
  // The State default, reached past LudoState's override.
  const Json plain = s->State::observationJson(1);
  CHECK(plain == Json{{"text", s->observationString(1)}, {"players", 4}, {"seat", 1}});
}

TEST_CASE("observation: the largest maze's screens stay within kMaxScreenBytes", "[observation]") {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), "maze", "game", "");
  const Json params = {{"width", 101}, {"height", 101}, {"bombs", 32}, {"max_steps", 1000000}};
  const auto game = info.make(validateParams(info.params, params, "maze"));
  const Found found = playAndCheck(
      *game, [](const State& s, int seat) { return seatScreen(s, seat, "maze"); }, 2);
  CHECK(found.largestBytes > 101 * 101);  // every tile is in it
  CHECK(found.largestBytes <= kMaxScreenBytes);
  WARN("101 x 101 maze: largest screen " << found.largestBytes << " bytes");
}

TEST_CASE("observation: each legal move on a screen says what it does", "[observation]") {
  for (const GameInfo& info : gameRegistry()) {
    INFO(info.id);
    const auto game = defaultGame(info);
    const auto s = game->newGame(3);
    Rng rng(5);
    int screens = 0;
    for (int move = 0; move < 200 && !s->isTerminal(); ++move, s->apply(randomMove(*s, rng))) {
      if (s->isEnvironmentNode()) continue;
      const Json screen = seatScreen(*s, s->actor(), info.id);
      for (const Json& legal : screen["legal"]) {
        CHECK(legal["does"] == s->actionJson(legal["action"].get<Action>()));
        CHECK(legal["does"].contains("verb"));
      }
      ++screens;
    }
    CHECK(screens > 0);
  }
}

TEST_CASE("observation: what each game's moves do, as its action ids encode it", "[observation]") {
  const auto gameOf = [](const std::string& id) {
    return defaultGame(findById<GameInfo>(gameRegistry(), id, "game", ""));
  };
  const auto lostCities = gameOf("lost-cities")->newGame(5);
  CHECK(lostCities->actionJson(lostcities::makeAction(23, true, lostcities::pileSource(4))) ==
        Json{{"verb", "discard"}, {"card", 23}, {"draw", "pile"}, {"pile", 4}});
  CHECK(lostCities->actionJson(lostcities::makeAction(0, false, lostcities::kDeckSource)) ==
        Json{{"verb", "play"}, {"card", 0}, {"draw", "deck"}});
  const auto ludo = gameOf("ludo")->newGame(1);
  ludo->apply(3);  // the roll
  CHECK(ludo->actionJson(ludo::kPass) == Json{{"verb", "pass"}});
  CHECK(ludo->actionJson(ludo::kEnter) == Json{{"verb", "enter"}});
  CHECK(ludo->actionJson(2) == Json{{"verb", "move"}, {"from", 2}, {"to", 5}});
  CHECK(ludo->State::actionJson(2) == Json::object());  // the default: no description
}
