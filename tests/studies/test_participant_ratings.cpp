// People on the AI's scale (studies/participant_ratings.h, `study analyze --ratings`): each
// participant rated from their games against a rated AI, checked against the posterior mode worked
// out here on its own (bisection on the score equation); the conditions rated from, the final order
// of games of more seats, the skill covariate of the mixed model, and the refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <sstream>

#include "core/file_io.h"
#include "studies/analysis.h"
#include "studies/analysis_files.h"
#include "studies/analysis_report.h"
#include "studies/participant_ratings.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

#ifdef DDALAB_SDK_VERSION
constexpr const char* kVersion = DDALAB_SDK_VERSION;
#else
constexpr const char* kVersion = "unknown";
#endif

Json protocolJson(int gamesPerCondition = 4) {
  Json p = Json::parse(R"({
    "format": "ddalab-study/1", "name": "rated", "seed": 11,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "hillclimber", "level": 50}],
    "conditions": [{"name": "plain", "environment": {"id": "e-random"}},
                   {"name": "steered", "environment": {"id": "e-hillclimber"},
                    "coefficients": {"lead_changes": 10}}],
    "simulated_person": {"id": "random"}})");
  p["games_per_condition"] = gamesPerCondition;
  return p;
}

// A ratings.json as `ddalab rate` writes it: random at 0 and HillClimber level 50 at `aiRating`.
Json ratingsJson(double aiRating, const Json& game = {{"id", "ludo"}, {"params", {{"players", 2}}}}) {
  Json file = Json::parse(R"({
    "format": "ddalab-ratings/1",
    "entrants": [
      {"name": "random", "player": {"id": "random", "level": 100, "params": {}},
       "rating": 0, "low": 0, "high": 0},
      {"name": "hillclimber-50", "player": {"id": "hillclimber", "level": 50, "params": {}}}]})");
  file["ddalab"] = kVersion;
  file["game"] = game;
  Json& ai = file["entrants"][1];
  ai["rating"] = aiRating;
  ai["low"] = aiRating - 30;
  ai["high"] = aiRating + 30;
  return file;
}

// The posterior mode of a rating r from `score` points in `n` games against an opponent rated
// `opponent`, prior N(mean, sd^2), worked out on its own: the root of the score equation
// (score - n p(r)) ln 10 / 400 = (r - mean) / sd^2, p(r) = 1 / (1 + 10^((opponent - r) / 400)),
// found by bisection (the left side falls and the right side rises in r).
double posteriorMode(double score, int n, double opponent, double mean, double sd) {
  const auto equation = [&](double r) {
    const double p = 1 / (1 + std::pow(10.0, (opponent - r) / 400));
    return (score - n * p) * std::log(10.0) / 400 - (r - mean) / (sd * sd);
  };
  double low = -5000, high = 5000;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (equation(mid) > 0 ? low : high) = mid;
  }
  return (low + high) / 2;
}

// A study in memory: participant i wins wins[i] of their games under condition "plain" (the
// first ones) and every other game; `gamesPlayed[i]` games of the plan (all when 0), each answered
// with values that vary by participant and game.
StudySessions studyWith(const std::vector<int>& wins, const std::vector<int>& gamesPlayed = {},
                        const Json& protocol = protocolJson()) {
  StudySessions study;
  study.protocol = parseStudyProtocol(protocol, "p.json");
  const auto shared = std::make_shared<const StudyProtocol>(study.protocol);
  for (size_t i = 0; i < wins.size(); ++i) {
    StudySession s = StudySession::inMemory(shared, "p" + std::to_string(i), static_cast<int>(i));
    int won = 0;
    const size_t played = gamesPlayed.empty() || gamesPlayed[i] == 0
                              ? s.plan().size()
                              : static_cast<size_t>(gamesPlayed[i]);
    for (size_t g = 0; g < played; ++g) {
      const PlannedGame& plan = s.plan()[g];
      GameRecord record;
      record.numPlayers = 2;
      const bool plain = plan.condition == 0;
      record.winner = plain ? (won++ < wins[i] ? 0 : 1) : 0;
      s.saveGame(plan, record, Json());
      StudyAnswers answers;
      for (size_t k = 0; k < study.protocol.items.size(); ++k)
        answers.values.push_back(
            study.protocol.items[k].min() +
            static_cast<double>((i * 3 + g * 2 + k + (plain ? 0 : 2)) % 5));
      s.saveAnswers(static_cast<int>(g), answers);
    }
    study.sessions.push_back(s);
  }
  return study;
}

RatingFile ratingFile(double aiRating) {
  return parseRatingFile(ratingsJson(aiRating), "ratings.json");
}

std::string refusal(const std::function<void()>& run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a participant who won k of n against a rated AI gets the posterior mode worked out by hand",
          "[study][participant_ratings]") {
  const std::vector<int> wins = {0, 1, 2, 3, 4};  // of the 4 games under "plain"
  const StudySessions study = studyWith(wins);
  const ParticipantRatings r = rateParticipants(study, ratingFile(250), "ratings.json");
  CHECK(r.priorMean == 250);  // the rated AI's rating
  CHECK(r.priorSd == 400);
  CHECK_FALSE(r.priorMeanGiven);
  REQUIRE(r.seats.size() == 1);
  REQUIRE(r.seats[0].entrant);
  CHECK(r.seats[0].entrant->name == "hillclimber-50");
  CHECK(r.rated == std::vector<std::string>{"plain"});
  REQUIRE(r.leftOut.size() == 1);
  CHECK(r.leftOut[0].find("steered") == 0);
  REQUIRE(r.participants.size() == wins.size());
  for (size_t i = 0; i < wins.size(); ++i) {
    INFO("participant " << i << " won " << wins[i] << " of 4");
    const ParticipantRating& p = r.participants[i];
    REQUIRE(p.rating);
    CHECK(p.wins == static_cast<size_t>(wins[i]));
    CHECK(p.losses == static_cast<size_t>(4 - wins[i]));
    CHECK(p.rating->games == 4);
    CHECK(p.rating->rating == Approx(posteriorMode(wins[i], 4, 250, 250, 400)).margin(1e-6));
    CHECK(p.rating->interval.low < p.rating->rating);
    CHECK(p.rating->interval.high > p.rating->rating);
  }
  // 2 of 4 against the AI is its own rating; the prior pulls a perfect record to a finite one.
  CHECK(r.participants[2].rating->rating == Approx(250).margin(1e-6));
  CHECK(std::isfinite(r.participants[4].rating->rating));
  CHECK(r.participants[4].rating->rating > r.participants[3].rating->rating);

  SECTION("the prior is the option's: its SD and mean") {
    ParticipantRatingOptions options;
    options.priorSd = 100;
    options.priorMean = 0;
    const ParticipantRatings narrow = rateParticipants(study, ratingFile(250), "r.json", options);
    CHECK(narrow.priorMeanGiven);
    CHECK(narrow.participants[3].rating->rating ==
          Approx(posteriorMode(3, 4, 250, 0, 100)).margin(1e-6));
  }
  SECTION("--rating-conditions all: every game rates, the DDA's included") {
    ParticipantRatingOptions options;
    options.conditions = RatedConditions::All;
    const ParticipantRatings all = rateParticipants(study, ratingFile(250), "r.json", options);
    CHECK(all.leftOut.empty());
    CHECK(all.rated.size() == 2);
    // Every steered game is a win: wins[i] + 4 of 8.
    CHECK(all.participants[1].wins == 5);
    CHECK(all.participants[1].rating->rating ==
          Approx(posteriorMode(5, 8, 250, 250, 400)).margin(1e-6));
  }
}

TEST_CASE("the final order of a game: the winner first, the others by score, a draw all equal",
          "[study][participant_ratings]") {
  GameRecord r;
  r.numPlayers = 4;
  r.winner = 2;
  r.scores = {5, 9, 0, 5};
  CHECK(finalPlaces(r) == std::vector<int>{2, 1, 0, 2});
  r.winner = -1;
  CHECK(finalPlaces(r) == std::vector<int>{0, 0, 0, 0});
}

TEST_CASE("a participant without a rated game is reported and left out of the skill covariate",
          "[study][participant_ratings]") {
  // Participant 1's plan (Latin square row 1) starts with "steered": one game played, none rated.
  const StudySessions study = studyWith({1, 2, 3, 0, 4, 2}, {0, 1, 0, 0, 0, 0});
  REQUIRE(study.sessions[1].games().front().plan.condition == 1);
  const ParticipantRatings r = rateParticipants(study, ratingFile(100), "ratings.json");
  CHECK_FALSE(r.participants[1].rating);
  CHECK(r.unrated() == 1);
  const std::vector<std::optional<double>> skill = skillCovariate(r);
  CHECK_FALSE(skill[1]);
  double sum = 0;
  for (const auto& s : skill) sum += s.value_or(0);
  CHECK(sum == Approx(0).margin(1e-9));  // centred over the rated participants
  CHECK(*skill[0] == Approx((r.participants[0].rating->rating -
                             (r.participants[0].rating->rating + r.participants[2].rating->rating +
                              r.participants[3].rating->rating + r.participants[4].rating->rating +
                              r.participants[5].rating->rating) /
                                 5) /
                            100));
  const StudyCovariate covariate{"skill", skill};
  const StudyAnalysis a = analyzeStudy(study, 1, false, &covariate);
  CHECK(a.covariate == "skill");
  CHECK(a.covariateLeftOut == 1);
  REQUIRE_FALSE(a.mixedItems.empty());
  const StudyAnalysis::MixedItem& item = a.mixedItems.front();
  INFO(item.failure);
  REQUIRE(item.covariate);
  CHECK(item.participants == 5);
  // The same model fitted directly: the rated participants' answers with their skill.
  MixedData d;
  d.covariate = "skill";
  for (const StudySession& s : study.sessions) d.participants.push_back(s.participant());
  d.conditions = {"plain", "steered"};
  d.periods = {"1", "2"};
  for (size_t p = 0; p < study.sessions.size(); ++p) {
    if (!skill[p]) continue;
    for (const SessionGame& g : study.sessions[p].games())
      d.observations.push_back({p, g.plan.condition, studyPeriod(study.protocol, g.plan) - 1,
                                g.answers->values[0], *skill[p]});
  }
  const std::optional<MixedFit> fit = fitMixedModel(d);
  REQUIRE(fit);
  CHECK(item.covariate->estimate == Approx(fit->coefficients.back()).epsilon(1e-12));
  CHECK(fit->coefficientNames.back() == "skill");

  SECTION("the files and the report say who is rated and who is not") {
    const TempDir dir;
    writeStudyAnalysis(dir.path(), a, study.protocol, false, &r);
    std::ifstream csv(dir.path() / "participants_ratings.csv");
    std::string header, first, second;
    std::getline(csv, header);
    std::getline(csv, first);
    std::getline(csv, second);
    CHECK(header ==
          "participant,rated,rating,se,low,high,games,score,wins,draws,losses,prior_mean,prior_sd");
    CHECK(first.rfind("p0,1,", 0) == 0);
    CHECK(second == "p1,0,,,,,0,,0,0,0,100,400");
    CHECK(fs::exists(dir.path() / "study-covariate.csv"));
    std::ostringstream report;
    printParticipantRatings(report, r);
    CHECK(report.str().find("p1") != std::string::npos);
    CHECK(report.str().find("no rated game") != std::string::npos);
    CHECK(report.str().find("N(100, 400^2)") != std::string::npos);
    // An analysis without ratings leaves no table of an earlier one behind.
    writeStudyAnalysis(dir.path(), analyzeStudy(study, 1, false), study.protocol);
    CHECK_FALSE(fs::exists(dir.path() / "participants_ratings.csv"));
    CHECK_FALSE(fs::exists(dir.path() / "study-covariate.csv"));
  }
}

TEST_CASE("a rating file that does not rate the study's AI is refused naming the file and path",
          "[study][participant_ratings]") {
  const StudySessions study = studyWith({1, 2});
  // Another game, other parameters of the same game.
  const Json otherGame = {{"id", "lost-cities"}, {"params", Json::object()}};
  CHECK_THAT(refusal([&] {
               rateParticipants(study, parseRatingFile(ratingsJson(0, otherGame), "lc.json"),
                                "lc.json");
             }),
             Catch::StartsWith("lc.json: $.game") && Catch::Contains("expected the study's game"));
  const Json fourPlayers = {{"id", "ludo"}, {"params", {{"players", 4}}}};
  CHECK_THAT(refusal([&] {
               rateParticipants(study, parseRatingFile(ratingsJson(0, fourPlayers), "l4.json"),
                                "l4.json");
             }),
             Catch::StartsWith("l4.json: $.game"));
  // The study's AI (HillClimber level 50) is not an entrant.
  Json other = ratingsJson(0);
  other["entrants"][1]["player"]["level"] = 60;
  CHECK_THAT(refusal([&] {
               rateParticipants(study, parseRatingFile(other, "o.json"), "o.json");
             }),
             Catch::StartsWith("o.json: $.entrants") && Catch::Contains("hillclimber level 50"));
  // Only DDA conditions: the default rates from none of them, and says how to.
  Json dda = protocolJson();
  dda["conditions"][0]["environment"]["id"] = "e-hillclimber";
  dda["conditions"][0]["coefficients"] = {{"tension", 1}};
  const StudySessions steered = studyWith({1}, {}, dda);
  CHECK_THAT(refusal([&] { rateParticipants(steered, ratingFile(0), "r.json"); }),
             Catch::StartsWith("--rating-conditions") && Catch::Contains("all"));
  CHECK_THAT(refusal([] { parseRatedConditions("some", "--rating-conditions"); }),
             Catch::StartsWith("--rating-conditions") && Catch::Contains("no-dda or all"));
}

TEST_CASE("a broken rating file is refused naming the file and the JSON path",
          "[study][participant_ratings]") {
  const TempDir dir;
  const fs::path notJson = dir.path() / "broken.json";
  writeFileAtomically(notJson, "{\"format\": ");
  CHECK_THAT(refusal([&] { readRatingFile(notJson); }), Catch::Contains("broken.json"));
  Json noEntrants = ratingsJson(0);
  noEntrants.erase("entrants");
  const fs::path missing = dir.path() / "missing.json";
  writeFileAtomically(missing, noEntrants.dump());
  CHECK_THAT(refusal([&] { readRatingFile(missing); }),
             Catch::Contains("missing.json") && Catch::Contains("$.entrants"));
}
