#pragma once
// Catalog entries: how games and players are described, validated and constructed.
// The built-ins are listed in games/registry.cpp and players/registry.cpp; the catalog
// (catalog.h) holds them and the entries of plug-ins.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/metrics.h"
#include "core/params.h"
#include "core/player.h"
#include "core/stop.h"

namespace ddalab {

struct GameInfo {
  std::string id;
  std::string description;
  std::vector<ParamSpec> params;
  // The fun-score coefficients of the thesis's experiments on this game (metric key -> weight):
  // what a new experiment or game of it starts with.
  Json thesisCoefficients = Json::object();
  // Builds a game from parameters already validated against `params` (all keys present);
  // a combination it cannot play throws InputError whose path is the parameter's name.
  std::function<std::shared_ptr<const Game>(const Json& params)> make;
};

enum class PlayerKind { Regular, Environment };

struct PlayerInfo;

// Who plays a seat: what an environment player needs to model the seats' decisions.
struct SeatSetup {
  const PlayerInfo* info = nullptr;  // null: a person (no model of it)
  int level = 100;
  Json params;  // validated against info->params
};

// Everything a player needs at construction; one player object plays one game.
struct PlayerSetup {
  const Game& game;
  int level = 100;            // 1..100, regular players only
  Json params;                // validated against PlayerInfo::params
  Coefficients coefficients;  // the experiment's fun-score weights
  StopToken stop = {};        // long decisions poll it and throw GameAbandoned when requested
  std::vector<SeatSetup> seats = {};  // environment players only: the seats, in seat order
  Objective objective = {};           // fun-seeking environment players: what they pursue
  // What `game` is in the catalog: its entry and validated parameters, for players that report
  // their set-up (Python players); null when the caller has only a bare Game (tools, tests).
  const GameInfo* gameInfo = nullptr;
  const Json* gameParams = nullptr;
};

// A player acts in the roles it has a factory for: regular players decide for a seat, environment
// players at environment nodes; some (the DDA players in a one-player game) can do both.
struct PlayerInfo {
  std::string id;
  PlayerKind kind;  // its main role, for listing
  std::string description;
  std::vector<ParamSpec> params;
  // Why this player, with these validated parameters, cannot take `role` in `game`; empty when
  // it can (unset: every game).
  std::function<std::string(const Game& game, const Json& params, PlayerKind role)>
      incompatibility = {};
  std::function<std::unique_ptr<Player>(const PlayerSetup&)> makeRegular = {};
  std::function<std::unique_ptr<EnvironmentPlayer>(const PlayerSetup&)> makeEnvironment = {};
  // Capabilities, declared so that nobody has to build the player to find out:
  // its regular player is a RankingPlayer (it scores every legal action), so it can be a DDA
  // player's base and an environment player's ranking model of a seat;
  bool ranksActions = false;
  // it is a DDA player (it adjusts its play to its opponents' and ranks nothing itself);
  bool adjustsDifficulty = false;
  // it is offered as a game's default AI (the first such, in catalog order, that can play it);
  bool defaultAi = false;
  // its environment player pursues PlayerSetup::objective (a FunSeekingEnvironment).
  bool pursuesObjective = false;

  // Whether the player has a factory for `role`.
  bool canAct(PlayerKind role) const {
    return role == PlayerKind::Regular ? bool(makeRegular) : bool(makeEnvironment);
  }
  // Why this player, with these validated parameters, cannot take `role` in `game`; empty when
  // it can.
  std::string whyNot(const Game& game, const Json& params, PlayerKind role) const {
    return incompatibility ? incompatibility(game, params, role) : std::string();
  }
};

}  // namespace ddalab
