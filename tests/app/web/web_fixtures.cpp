// Writes fixture screens (core/observation.h) for the browser test of the boards: for each
// built-in game and a game without its own observationJson (the generic view), seat 0's screen
// at the start, mid-game on its turn and at the end, as OUT_DIR/<game>-<when>.json, and
// OUT_DIR/index.json listing them. Random play from fixed seeds: the same files every run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/observation.h"
#include "games/registry.h"
#include "tests/flawed_game.h"
#include "tests/random_play.h"

using namespace ddalab;

namespace {

// Plays randomly until seat 0 decides with more than one choice (or the game ends).
void untilSeatZeroChooses(State& s, Rng& rng) {
  std::vector<Action> legal;
  while (!s.isTerminal()) {
    s.legalActions(legal);
    if (s.actor() == 0 && legal.size() > 1) return;
    s.apply(randomMove(s, rng));
  }
}

// Decisions (of any seat) `s` takes to its end when played on by `rng`: both copied.
int decisionsLeft(const State& s, Rng rng) {
  const auto copy = s.clone();
  int decisions = 0;
  for (; !copy->isTerminal(); copy->apply(randomMove(*copy, rng)))
    decisions += !copy->isEnvironmentNode();
  return decisions;
}

void write(const std::filesystem::path& file, const Json& screen) {
  std::ofstream out(file);
  out << screen.dump(1) << "\n";
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

// The three fixtures of one game; their names appended to `names`.
void fixturesOf(const std::string& id, const Game& game, const std::filesystem::path& dir,
                Json& names) {
  Rng rng(42);
  const auto s = game.newGame(7);
  const auto save = [&](const std::string& when) {
    write(dir / (id + "-" + when + ".json"), seatScreen(*s, 0, id));
    names.push_back(id + "-" + when);
  };
  untilSeatZeroChooses(*s, rng);
  save("start");
  // Mid-game: half-way through this very game (the same rng plays it), seat 0 to choose.
  const int half = std::min(24, decisionsLeft(*s, rng) / 2);
  for (int decisions = 0; decisions < half && !s->isTerminal();) {
    decisions += !s->isEnvironmentNode();
    s->apply(randomMove(*s, rng));
  }
  untilSeatZeroChooses(*s, rng);
  save("mid");
  while (!s->isTerminal()) s->apply(randomMove(*s, rng));
  save("over");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ddalab_web_fixtures OUT_DIR\n";
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    Json names = Json::array();
    for (const std::string id : {"maze", "ludo", "lost-cities", "hexalines"}) {
      const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "");
      fixturesOf(id, *info.make(validateParams(info.params, nullptr, id)), dir, names);
    }
    // A game with no observationJson of its own, as a plug-in's: the generic view.
    const GameInfo pile = flawed::pileInfo("pile", flawed::Flaw::None);
    fixturesOf(pile.id, *pile.make(Json::object()), dir, names);
    write(dir / "index.json", names);
    std::cout << names.size() << " fixtures in " << dir.string() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "ddalab_web_fixtures: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
