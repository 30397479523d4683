#include "experiments/lineup.h"

namespace ddalab {

std::vector<Player*> Lineup::seats() const {
  std::vector<Player*> seats;
  for (const auto& player : players) seats.push_back(player.get());
  return seats;
}

std::vector<bool> personSeats(const Json& experiment) {
  std::vector<bool> people;
  for (const Json& p : experiment.value("players", Json::array()))
    people.push_back(p.is_object() && p.value("id", "") == kPersonSeat);
  return people;
}

Experiment parsePlayedExperiment(const Json& experiment, uint64_t seed, const std::string& source) {
  Json checked = experiment;
  checked["iterations"] = 1;
  if (!checked.contains("name")) checked["name"] = "game";
  if (checked.contains("players") && checked["players"].is_array())
    for (size_t seat = 0; seat < checked["players"].size(); ++seat) {
      Json& p = checked["players"][seat];
      if (!p.is_object() || p.value("id", "") != kPersonSeat) continue;
      // A person has no level or parameters: a seat that gives them would have them ignored.
      for (const auto& member : p.items())
        if (member.key() != "id")
          throw InputError(
              source + ": $.players[" + std::to_string(seat) + "]." + textExcerpt(member.key()),
              "a person's seat takes no '" + textExcerpt(member.key()) +
                  "' (it would be ignored); expected {\"id\": \"" + std::string(kPersonSeat) +
                  "\"}");
      p = {{"id", "random"}};
    }
  return parseExperiment(checked, seed, source).experiments.front();
}

Lineup buildLineup(const Experiment& e, StopToken stop, const std::vector<bool>& people,
                   std::optional<double> winRateEstimate) {
  Lineup lineup;
  std::vector<SeatSetup> models;  // what the environment player knows of each seat
  for (size_t seat = 0; seat < e.players.size(); ++seat) {
    const PlayerEntry& p = e.players[seat];
    const bool person = seat < people.size() && people[seat];
    PlayerSetup setup{*e.game, p.level, p.params, e.coefficients, stop};
    setup.gameInfo = e.gameInfo;
    setup.gameParams = &e.gameParams;
    lineup.players.push_back(person ? nullptr : p.info->makeRegular(setup));
    models.push_back(person ? SeatSetup{} : SeatSetup{p.info, p.level, p.params});
  }
  Objective objective = e.objective;
  objective.estimate = winRateEstimate;
  PlayerSetup setup{*e.game,
                    100,
                    e.environment.params,
                    e.coefficients,
                    stop,
                    std::move(models),
                    std::move(objective)};
  setup.gameInfo = e.gameInfo;
  setup.gameParams = &e.gameParams;
  lineup.environment = e.environment.info->makeEnvironment(setup);
  return lineup;
}

}  // namespace ddalab
