// The steppable match (core/match.h): stepping it by hand plays exactly the game playGame plays,
// illegal actions from outside change nothing, observers see every action and round end, and
// described environment decisions add up.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/match.h"
#include "experiments/batch.h"
#include "experiments/runner.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

struct Seats {
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> players;
  std::unique_ptr<EnvironmentPlayer> environment;
};

Seats seatsOf(const Experiment& e) {
  Seats s;
  for (const auto& p : e.players) {
    s.owned.push_back(p.info->makeRegular({*e.game, p.level, p.params, e.coefficients}));
    s.players.push_back(s.owned.back().get());
  }
  s.environment =
      e.environment.info->makeEnvironment({*e.game, 100, e.environment.params, e.coefficients});
  return s;
}

Batch batchOf(const std::string& game, const std::string& environment) {
  Json players = Json::array();
  const int n = game == "maze" ? 1 : game == "lost-cities" ? 2 : 4;
  for (int p = 0; p < n; ++p)
    players.push_back({{"id", game == "lost-cities" ? "hillclimber-is" : "hillclimber"}});
  const Json experiment = {
      {"name", "x"},
      {"game", {{"id", game}}},
      {"players", players},
      {"environment", {{"id", environment}}},
      {"coefficients", {{"believability", 10}, {"tension", 10}, {"lead", 3}, {"freedom", 1}}},
      {"iterations", 1}};
  return parseBatch({{"format", "ddalab-batch/1"}, {"seed", 3}, {"experiments", {experiment}}},
                    "test");
}

class Counter final : public MatchObserver {
 public:
  void onAction(const State&, int actor, Action, int legalCount,
                const EnvironmentDecision* decision) override {
    ++actions;
    if (actor == kEnvironment) {
      ++environmentActions;
      described += decision != nullptr;
    } else {
      CHECK(legalCount > 0);
    }
  }
  void onRoundEnd(const Match& match, bool) override {
    ++rounds;
    CHECK(match.tracker().rounds() == rounds);
  }
  int actions = 0, environmentActions = 0, described = 0, rounds = 0;
};

}  // namespace

TEST_CASE("a match stepped by hand plays the game playGame plays", "[match]") {
  for (const std::string game : {"ludo", "lost-cities", "maze"}) {
    CAPTURE(game);
    const Batch batch = batchOf(game, "e-hillclimber");
    const Experiment& e = batch.experiments.front();
    Seats a = seatsOf(e), b = seatsOf(e);
    const GameRecord played = playGame(*e.game, a.players, *a.environment, 99);
    Match match(*e.game, 99);
    Counter counter;
    match.addObserver(&counter);
    while (!match.over()) {
      const int actor = match.actor();
      match.apply(actor == kEnvironment ? match.decide(*b.environment)
                                        : match.decide(*b.players[actor]));
    }
    CHECK(fingerprint(match.record()) == fingerprint(played));
    CHECK(counter.rounds == match.tracker().rounds());
    CHECK(counter.actions >= counter.rounds);
    CHECK(counter.described == 0);  // decisions are described only when asked
  }
}

TEST_CASE("an illegal action from outside changes nothing", "[match]") {
  const Batch batch = batchOf("ludo", "e-random");
  const Experiment& e = batch.experiments.front();
  Seats seats = seatsOf(e);
  Match match(*e.game, 5);
  const std::string before = match.state().toString();
  CHECK(match.actor() == kEnvironment);
  CHECK_FALSE(match.applyIfLegal(7));  // the die has faces 1..6
  CHECK(match.state().toString() == before);
  CHECK(match.applyIfLegal(match.outcomes().front().action));
  CHECK(match.actor() == 0);
  CHECK_FALSE(match.applyIfLegal(-5));
  CHECK(match.applyIfLegal(match.legal().front()));
}

TEST_CASE("described environment decisions list every outcome and their F adds up", "[match]") {
  for (const std::string environment : {"e-random", "e-hillclimber", "e-maxmax", "e-montecarlo"}) {
    CAPTURE(environment);
    const Batch batch = batchOf("ludo", environment);
    const Experiment& e = batch.experiments.front();
    Seats seats = seatsOf(e);
    Match match(*e.game, 11);
    match.describeEnvironmentDecisions(true);
    Counter counter;
    match.addObserver(&counter);
    for (int step = 0; step < 40 && !match.over(); ++step) {
      const int actor = match.actor();
      if (actor != kEnvironment) {
        match.apply(match.decide(*seats.players[actor]));
        continue;
      }
      const size_t outcomes = match.outcomes().size();
      const Action chosen = match.decide(*seats.environment);
      const EnvironmentDecision* d = match.lastDecision();
      REQUIRE(d);
      CHECK(d->chosen == chosen);
      CHECK(d->appraisals.size() == outcomes);
      if (environment == "e-random") CHECK(d->natural);
      double probability = 0;
      for (const OutcomeAppraisal& a : d->appraisals) {
        probability += a.probability;
        double sum = 0;
        for (double term : funTerms(a.metrics, e.coefficients)) sum += term;
        CHECK(sum == Approx(a.fun).epsilon(1e-12).margin(1e-9));
        if (environment == "e-hillclimber" && !d->natural) CHECK(a.searchValue == a.fun);
      }
      CHECK(probability == Approx(1.0));
      match.apply(chosen);
    }
    CHECK(counter.described == counter.environmentActions);
  }
}

TEST_CASE("a detailed trace records the set-up and every decision, the default trace does not",
          "[match]") {
  const Batch batch = batchOf("ludo", "e-hillclimber");
  const Experiment& e = batch.experiments.front();
  Json plain, detailed;
  const GameRecord a = playIteration(batch, e, 0, &plain);
  const GameRecord b = playIteration(batch, e, 0, &detailed, {}, true);
  CHECK(fingerprint(a) == fingerprint(b));  // describing changes nothing
  const Json line = Json::parse(traceLine(e, 0, b.seed, detailed, true));
  CHECK(line.at("game").at("id") == "ludo");
  CHECK(line.at("coefficients").at("tension") == 10);
  CHECK_FALSE(Json::parse(traceLine(e, 0, a.seed, plain, false)).contains("game"));
  int decisions = 0;
  for (const Json& round : line.at("rounds"))
    for (const Json& action : round.at("actions")) {
      if (action.at("by") != "environment") {
        CHECK_FALSE(action.contains("decision"));
        continue;
      }
      const Json& d = action.at("decision");
      CHECK(d.at("chosen") == action.at("id"));
      for (const Json& o : d.at("outcomes")) {
        double sum = 0;
        for (const auto& [key, term] : o.at("terms").items()) sum += term.get<double>();
        CHECK(sum == Approx(o.at("fun").get<double>()).epsilon(1e-12).margin(1e-9));
      }
      ++decisions;
    }
  CHECK(decisions > 10);
  for (const Json& round : plain.at("rounds"))
    for (const Json& action : round.at("actions")) CHECK_FALSE(action.contains("decision"));
}
