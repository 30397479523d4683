// The dice plug-in's registration: the Pig game (pig.h) and a player that holds at a turn total.
#include "pig.h"

#include "core/plugin.h"

namespace pig {

GameInfo gameInfo() {
  GameInfo info;
  info.id = DICE_GAME_ID;
  info.description = "Pig: roll to add to the turn total, hold to bank it, a 1 loses it";
  info.thesisCoefficients = {{"believability", 1000}, {"fairness", 10}, {"leading_time", 10},
                             {"tension", 10},         {"lead", 3},      {"freedom", 1}};
  info.params = {
      {"players", ParamType::Int, 2, 2, kMaxPlayers, "number of players"},
      {"target", ParamType::Int, 50, 10, 1000, "points that win"},
      {"max_rounds", ParamType::Int, 500, 1, 1e6, "rounds after which the game is a draw"},
      {"believability_threshold", ParamType::Double, 1.0, 0, 1e6,
       "T of belPC over each player's die faces"},
  };
  info.make = [](const Json& p) -> std::shared_ptr<const Game> {
    return std::make_shared<PigGame>(Config{p.at("players").get<int>(), p.at("target").get<int>(),
                                            p.at("max_rounds").get<int>(),
                                            p.at("believability_threshold").get<double>()});
  };
  return info;
}

// Rolls until the turn total reaches `hold_at`, then holds (level is ignored).
class HoldAt final : public Player {
 public:
  explicit HoldAt(int holdAt) : holdAt_(holdAt) {}
  Action chooseAction(const State& state, std::span<const Action> legal, Rng&) override {
    if (legal.size() == 1) return legal[0];
    return static_cast<const PigState&>(state).turnTotal() >= holdAt_ ? kHold : kRoll;
  }

 private:
  int holdAt_;
};

PlayerInfo holdAtInfo() {
  return {.id = "pig-hold-at",
          .kind = PlayerKind::Regular,
          .description = "Pig: rolls until the turn total reaches hold_at, then holds (plug-in)",
          .params = {{"hold_at", ParamType::Int, 20, 1, 1000, "turn total to hold at"}},
          .incompatibility =
              [](const Game& game, const Json&, PlayerKind) {
                return dynamic_cast<const PigGame*>(&game) ? std::string()
                                                           : std::string("it plays Pig only");
              },
          .makeRegular =
              [](const PlayerSetup& setup) {
                return std::make_unique<HoldAt>(setup.params.at("hold_at").get<int>());
              }};
}

void registerInto(Catalog& catalog, const std::string& origin) {
  catalog.add(gameInfo(), origin);
  catalog.add(holdAtInfo(), origin);
  catalog.add(swingInfo(), origin);
}

}  // namespace pig

DDALAB_PLUGIN("dice", DICE_VERSION, pig::registerInto)
