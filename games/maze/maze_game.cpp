// The Maze's configuration: validation, the Game that deals new mazes, the registry entry.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "games/maze/maze.h"

namespace ddalab::maze {

namespace {

// Interior tiles at Manhattan distance >= `distance` from the start: where marks may go.
long long markPlaces(int width, int height, int distance) {
  const int cx = width / 2, cy = height / 2;
  long long places = 0;
  for (int y = 1; y < height - 1; ++y)
    for (int x = 1; x < width - 1; ++x)
      if (std::abs(x - cx) + std::abs(y - cy) >= std::max(distance, 2)) ++places;
  return places;
}

void require(bool ok, const std::string& parameter, const std::string& expected) {
  if (!ok) throw InputError(parameter, expected);
}

bool isProbability(double p) {
  return p >= 0.0 && p <= 1.0;
}

}  // namespace

void validate(const MazeConfig& c) {
  const std::string side =
      "expected an integer in [" + std::to_string(kMinSide) + ", " + std::to_string(kMaxSide) + "]";
  require(c.width >= kMinSide && c.width <= kMaxSide, "width", side);
  require(c.height >= kMinSide && c.height <= kMaxSide, "height", side);
  require(c.bombs >= 1 && c.bombs <= kMaxBombs, "bombs",
          "expected an integer in [1, " + std::to_string(kMaxBombs) + "]");
  require(c.minBombDistance >= 2, "min_bomb_distance", "expected an integer >= 2");
  const long long places = markPlaces(c.width, c.height, c.minBombDistance);
  require(places >= c.bombs, "bombs",
          std::to_string(c.bombs) + " marks do not fit: only " + std::to_string(places) +
              " tiles of a " + std::to_string(c.width) + " x " + std::to_string(c.height) +
              " maze are at least min_bomb_distance " + std::to_string(c.minBombDistance) +
              " from the start");
  require(c.maxSteps >= 1, "max_steps", "expected an integer >= 1");
  require(isProbability(c.blueProb), "blue_prob", "expected a probability in [0, 1]");
  require(isProbability(c.redProb), "red_prob", "expected a probability in [0, 1]");
  require(c.blueProb + c.redProb <= 1.0, "red_prob",
          "blue_prob + red_prob must not exceed 1 (the rest are plain doors)");
  require(c.doorBonus >= 0, "door_bonus", "expected an integer >= 0");
  require(c.doorPenalty >= 0, "door_penalty", "expected an integer >= 0");
  require(isProbability(c.endDoorProb), "end_door_prob", "expected a probability in [0, 1]");
  require(c.defuseWeight >= 0, "defuse_weight", "expected a number >= 0 (or -1 for automatic)");
  require(c.unknownWeight >= 0, "unknown_weight", "expected a number >= 0");
  require(c.believabilityThreshold >= 0, "believability_threshold", "expected a number >= 0");
}

MazeGame::MazeGame(const MazeConfig& config) : config_(config) {
  validate(config_);
}

std::unique_ptr<State> MazeGame::newGame(uint64_t setupSeed) const {
  return std::make_unique<MazeState>(config_, setupSeed);
}

GameInfo gameInfo() {
  GameInfo info;
  info.id = "maze";
  info.description =
      "Maze: one explorer checks bomb marks within a step limit; the environment builds a "
      "corridor behind every opened door";
  info.thesisCoefficients = {
      {"believability", 10}, {"tension", 100}, {"lead", 500}, {"freedom", 100}};
  info.params = {
      {"width", ParamType::Int, 41, kMinSide, kMaxSide, "columns, border walls included"},
      {"height", ParamType::Int, 41, kMinSide, kMaxSide, "rows, border walls included"},
      {"bombs", ParamType::Int, 6, 1, kMaxBombs, "bomb marks placed before the game"},
      {"min_bomb_distance", ParamType::Int, 5, 2, 1000,
       "least Manhattan distance of a mark from the start"},
      {"max_steps", ParamType::Int, 400, 1, 1e6,
       "steps the explorer starts with (thesis experiment: 777)"},
      {"blue_prob", ParamType::Double, 0.1, 0, 1, "share of blue door positions (bonus)"},
      {"red_prob", ParamType::Double, 0.1, 0, 1,
       "share of red door positions (penalty); blue_prob + red_prob <= 1"},
      {"door_bonus", ParamType::Int, 10, 0, 1e4, "steps gained by opening a blue door"},
      {"door_penalty", ParamType::Int, 10, 0, 1e4,
       "steps lost by opening a red door (they must be left to open it)"},
      {"end_door_prob", ParamType::Double, 0.5, 0, 1,
       "probability that a corridor short of its room ends in a door"},
      {"defuse_weight", ParamType::Double, -1, -1, 1e9,
       "value (AI) penalty per active mark; -1 = 10 * (width + height), 820 at 41 x 41; the "
       "thesis formula is 0"},
      {"unknown_weight", ParamType::Double, 0.5, 0, 1e6,
       "gain penalty per unknown tile until the game is won"},
      {"believability_threshold", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over the corridor length bins"},
  };
  info.make = [](const Json& p) -> std::shared_ptr<const Game> {
    MazeConfig config;
    config.width = p.at("width").get<int>();
    config.height = p.at("height").get<int>();
    config.bombs = p.at("bombs").get<int>();
    config.minBombDistance = p.at("min_bomb_distance").get<int>();
    config.maxSteps = p.at("max_steps").get<int>();
    config.blueProb = p.at("blue_prob").get<double>();
    config.redProb = p.at("red_prob").get<double>();
    config.doorBonus = p.at("door_bonus").get<int>();
    config.doorPenalty = p.at("door_penalty").get<int>();
    config.endDoorProb = p.at("end_door_prob").get<double>();
    const double defuseWeight = p.at("defuse_weight").get<double>();
    if (defuseWeight < 0 && defuseWeight != -1.0)
      throw InputError("defuse_weight", "expected -1 (automatic) or a number >= 0");
    config.defuseWeight = defuseWeight < 0 ? 10.0 * (config.width + config.height) : defuseWeight;
    config.unknownWeight = p.at("unknown_weight").get<double>();
    config.believabilityThreshold = p.at("believability_threshold").get<double>();
    return std::make_shared<MazeGame>(config);
  };
  return info;
}

}  // namespace ddalab::maze
