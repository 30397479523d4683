#include "studies/participant_ratings.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "experiments/lineup.h"

namespace ddalab {

namespace {

// The study's first condition played with `game` and seat `seat` replaced (when given): how a
// rating file's game and entrants are brought to the defaults the study's own are validated with.
std::optional<Experiment> studyExperimentWith(const StudyProtocol& protocol, const Json* game,
                                              std::optional<size_t> seat, const Json* player) {
  Json e = protocol.experiment(0);
  if (game) e["game"] = *game;
  if (seat) e["players"][*seat] = *player;
  try {
    return parsePlayedExperiment(e, protocol.seed, "");
  } catch (const InputError&) {
    return std::nullopt;  // not this study's game, or a player it cannot seat: no match
  }
}

bool samePlayer(const PlayerEntry& a, const PlayerEntry& b) {
  return a.info == b.info && a.level == b.level && a.params == b.params;
}

// "hillclimber level 100", with the parameters the protocol gives the seat (not the defaults).
std::string playerText(const PlayerEntry& p, const Json& seat) {
  std::string text = p.info->id + " level " + std::to_string(p.level);
  if (const Json params = seat.value("params", Json::object()); !params.empty()) {
    text += ' ';  // appended apart: GCC 12 warns of a false overlap in " " + dump()
    text += params.dump();
  }
  return text;
}

void checkGame(const StudyProtocol& protocol, const Experiment& study, const RatingFile& file,
               const std::string& source) {
  const std::optional<Experiment> rated = studyExperimentWith(protocol, &file.game, {}, nullptr);
  if (rated && rated->gameInfo == study.gameInfo && rated->gameParams == study.gameParams) return;
  throw InputError(source + ": $.game",
                   "is " + jsonExcerpt(file.game) + "; expected the study's game " +
                       jsonExcerpt(protocol.game) +
                       " (its parameters, defaults filled in, the same: a rating file of another "
                       "game rates no one here)");
}

// Every AI seat of the study with the file's entrant that is it (same player, level, params).
std::vector<RatedSeat> ratedSeats(const StudyProtocol& protocol, const Experiment& study,
                                  const RatingFile& file) {
  const std::vector<bool> people = protocol.people();
  std::vector<RatedSeat> seats;
  for (size_t s = 0; s < people.size(); ++s) {
    if (people[s]) continue;
    RatedSeat seat{s, playerText(study.players[s], protocol.seats[s]), std::nullopt};
    for (const RatingFileEntrant& entrant : file.entrants) {
      const std::optional<Experiment> e =
          studyExperimentWith(protocol, nullptr, s, &entrant.player);
      if (e && samePlayer(e->players[s], study.players[s])) {
        seat.entrant = entrant;
        break;
      }
    }
    seats.push_back(seat);
  }
  return seats;
}

// Splits the conditions into those that rate and those left out (with why).
void chooseConditions(const StudyProtocol& protocol, RatedConditions used, ParticipantRatings& r,
                      std::vector<bool>& rates) {
  for (const StudyCondition& c : protocol.conditions) {
    const std::string environment = c.environment.value("id", "");
    const bool dda = environment != "e-random";
    rates.push_back(!dda || used == RatedConditions::All);
    if (rates.back())
      r.rated.push_back(c.name);
    else
      r.leftOut.push_back(c.name + ": a DDA (" + environment +
                          ") changes chance; --rating-conditions all rates from it too");
  }
  if (r.rated.empty())
    throw InputError("--rating-conditions",
                     "no condition of study '" + protocol.name +
                         "' is without a DDA (environment e-random); expected "
                         "--rating-conditions all to rate from the DDA conditions (the rating "
                         "then includes what the DDA did)");
}

double resultAgainst(const std::vector<int>& places, size_t person, size_t seat) {
  if (places[person] == places[seat]) return 0.5;
  return places[person] < places[seat] ? 1.0 : 0.0;
}

ParticipantRating rateOne(const StudySession& session, const std::vector<bool>& rates,
                          const std::vector<RatedSeat>& seats, size_t person,
                          const ParticipantRatings& r) {
  ParticipantRating out{session.participant(), 0, 0, 0, std::nullopt};
  std::vector<FixedOpponentResult> results;
  for (const SessionGame& g : session.games()) {
    if (!rates[g.plan.condition]) continue;
    const std::vector<int> places = finalPlaces(g.record);
    for (const RatedSeat& seat : seats) {
      if (!seat.entrant) continue;
      const double score = resultAgainst(places, person, seat.seat);
      results.push_back({seat.entrant->rating, score});
      (score == 1 ? out.wins : score == 0 ? out.losses : out.draws) += 1;
    }
  }
  if (!results.empty()) out.rating = rateAgainstFixed(results, r.priorMean, r.priorSd, r.confidence);
  return out;
}

}  // namespace

size_t ParticipantRatings::unrated() const {
  return static_cast<size_t>(std::count_if(participants.begin(), participants.end(),
                                           [](const auto& p) { return !p.rating; }));
}

std::vector<int> finalPlaces(const GameRecord& record) {
  const auto n = static_cast<size_t>(record.numPlayers);
  std::vector<int> places(n, 0);
  if (record.winner < 0) return places;
  const auto w = static_cast<size_t>(record.winner);
  for (size_t s = 0; s < n; ++s) {
    if (s == w) continue;
    int place = 1;  // behind the winner, and behind every other seat that scored more
    for (size_t o = 0; o < n; ++o)
      if (o != w && o != s && record.scores[o] > record.scores[s]) ++place;
    places[s] = place;
  }
  return places;
}

ParticipantRatings rateParticipants(const StudySessions& study, const RatingFile& file,
                                    const std::string& source,
                                    const ParticipantRatingOptions& options) {
  if (!(options.priorSd > 0)) throw std::invalid_argument("the prior's SD must be > 0");
  if (!(options.confidence > 0 && options.confidence < 1))
    throw std::invalid_argument("the confidence must lie in (0, 1)");
  const StudyProtocol& protocol = study.protocol;
  const Experiment base = parsePlayedExperiment(protocol.experiment(0), protocol.seed, "");
  checkGame(protocol, base, file, source);
  ParticipantRatings r;
  r.file = source;
  r.priorSd = options.priorSd;
  r.confidence = options.confidence;
  r.used = options.conditions;
  r.seats = ratedSeats(protocol, base, file);
  std::vector<double> aiRatings;
  for (const RatedSeat& seat : r.seats)
    if (seat.entrant) aiRatings.push_back(seat.entrant->rating);
  if (aiRatings.empty()) {
    std::string seats;
    for (const RatedSeat& seat : r.seats)
      seats += (seats.empty() ? "" : ", ") + std::to_string(seat.seat) + " (" + seat.player + ')';
    throw InputError(source + ": $.entrants",
                     "has none of the study's AI seats " + seats +
                         "; expected an entrant with the same player, level and params");
  }
  r.priorMeanGiven = options.priorMean.has_value();
  r.priorMean = options.priorMean.value_or(
      std::accumulate(aiRatings.begin(), aiRatings.end(), 0.0) /
      static_cast<double>(aiRatings.size()));
  std::vector<bool> rates;
  chooseConditions(protocol, options.conditions, r, rates);
  const std::vector<bool> people = protocol.people();
  const auto person = static_cast<size_t>(std::find(people.begin(), people.end(), true) -
                                          people.begin());
  for (const StudySession& session : study.sessions)
    r.participants.push_back(rateOne(session, rates, r.seats, person, r));
  return r;
}

std::vector<std::optional<double>> skillCovariate(const ParticipantRatings& ratings) {
  double sum = 0;
  size_t rated = 0;
  for (const ParticipantRating& p : ratings.participants)
    if (p.rating) {
      sum += p.rating->rating;
      ++rated;
    }
  std::vector<std::optional<double>> skill;
  for (const ParticipantRating& p : ratings.participants)
    skill.push_back(p.rating ? std::optional<double>((p.rating->rating -
                                                      sum / static_cast<double>(rated)) /
                                                     100)
                             : std::nullopt);
  return skill;
}

const char* ratedConditionsName(RatedConditions conditions) {
  return conditions == RatedConditions::All ? "all" : "no-dda";
}

RatedConditions parseRatedConditions(const std::string& text, const std::string& option) {
  if (text == "no-dda") return RatedConditions::NoDda;
  if (text == "all") return RatedConditions::All;
  throw InputError(option, "expected no-dda or all, got '" + textExcerpt(text) + "'");
}

}  // namespace ddalab
