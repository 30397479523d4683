// User studies (issue 22): protocols and their refusals, the order of games, crash-safe session
// folders, the statistics of the analysis on data worked out by hand, and the power of simulated
// studies.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>

#include "experiments/study_analysis.h"
#include "experiments/study_simulate.h"
#include "results/statistics.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

const fs::path kSourceDir = fs::path(__FILE__).parent_path().parent_path();

Json ludoProtocol() {
  return Json::parse(R"({
    "format": "ddalab-study/1", "name": "t", "seed": 7,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "plain", "environment": {"id": "e-random"}},
                   {"name": "steered", "environment": {"id": "e-hillclimber"},
                    "coefficients": {"lead_changes": 10}}],
    "games_per_condition": 1,
    "simulated_person": {"id": "random"}})");
}

// The message parseStudyProtocol gives for `document`.
std::string refusal(const Json& document) {
  try {
    parseStudyProtocol(document, "p.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// A game record with the given metric values (the others 0).
GameRecord recordWith(double leadChanges, double tension) {
  GameRecord r;
  r.numPlayers = 2;
  r.metrics[static_cast<size_t>(Metric::LeadChanges)] = leadChanges;
  r.metrics[static_cast<size_t>(Metric::Tension)] = tension;
  return r;
}

}  // namespace

TEST_CASE(
    "a study protocol is validated like a batch file: the file, the JSON path, what was "
    "expected",
    "[study]") {
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  CHECK(p.conditions.size() == 2);
  CHECK(p.items.size() == 5);  // the default questionnaire
  CHECK(p.items[3].key == "manipulated");
  CHECK(p.items[3].text == "The dice seemed manipulated.");
  CHECK(p.people() == std::vector<bool>{true, false});

  Json bad = ludoProtocol();
  bad["questionnaire"] = {{"items", {{{"key", "fun"}, {"text", "Fun?"}, {"scale", "likert5"}}}}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.questionnaire.items[0].scale") &&
                               Catch::Contains("expected \"likert7\""));
  bad = ludoProtocol();
  bad["conditions"][1]["environment"]["params"] = {{"random_prob", 2}};
  CHECK_THAT(refusal(bad),
             Catch::Contains("p.json: $.conditions[1].environment.params.random_prob"));
  bad = ludoProtocol();
  bad["order"] = {{"scheme", "alphabetical"}};
  CHECK_THAT(refusal(bad),
             Catch::Contains("p.json: $.order.scheme") && Catch::Contains("\"latin-square\""));
  bad = ludoProtocol();
  bad["conditions"][1]["name"] = "plain";
  CHECK_THAT(refusal(bad), Catch::Contains("$.conditions[1].name") && Catch::Contains("twice"));
  bad = ludoProtocol();
  bad["seats"] = {{{"id", "random"}}, {{"id", "random"}}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.seats") &&
                               Catch::Contains("exactly one seat {\"id\": \"human\"}"));
  bad = ludoProtocol();
  bad["seats"][1]["level"] = 101;
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.seats[1].level"));
  bad = ludoProtocol();
  bad["colour"] = "red";
  CHECK_THAT(refusal(bad), Catch::Contains("unknown key 'colour'"));
}

TEST_CASE("the shipped study protocols are valid", "[study]") {
  for (const char* name : {"user-study-ludo.json", "user-study-lost-cities.json"}) {
    INFO(name);
    const StudyProtocol p = loadStudyProtocol(kSourceDir / "experiments/studies" / name);
    CHECK(p.conditions.size() >= 2);
  }
}

TEST_CASE("a balanced Latin square orders the conditions evenly over participants", "[study]") {
  for (size_t n : {2u, 3u, 4u, 5u}) {
    INFO("n = " << n);
    const auto rows = balancedLatinSquare(n);
    CHECK(rows.size() == (n % 2 == 0 ? n : 2 * n));
    std::vector<std::vector<int>> position(n, std::vector<int>(n, 0));
    std::vector<std::vector<int>> follows(n, std::vector<int>(n, 0));
    for (const auto& row : rows) {
      CHECK(std::set<size_t>(row.begin(), row.end()).size() == n);
      for (size_t i = 0; i < n; ++i) ++position[row[i]][i];
      for (size_t i = 0; i + 1 < n; ++i) ++follows[row[i]][row[i + 1]];
    }
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        CHECK(position[a][b] == static_cast<int>(rows.size() / n));  // every place equally often
        if (a != b) CHECK(follows[a][b] == static_cast<int>(rows.size() / n));  // carry-over
      }
  }
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  const auto first = planGames(p, 0), second = planGames(p, 1);
  REQUIRE(first.size() == 2);
  CHECK(first[0].condition != second[0].condition);
  CHECK(first[0].seed != second[0].seed);  // every participant's games have their own seeds
  CHECK(planGames(p, 0)[1].seed == first[1].seed);
}

TEST_CASE("a session folder keeps every game and answer the moment it exists and resumes",
          "[study]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  const fs::path folder = dir.path() / "alice";
  {
    StudySession s = StudySession::open(folder, p, "alice");
    const PlannedGame g = *s.next();
    CHECK(g.index == 0);
    GameRecord r = recordWith(3, 1);
    r.seed = g.seed;
    s.saveGame(g, r, Json::object());
  }  // the window closes after the game, before the questionnaire
  StudySession again = StudySession::open(folder, p, "alice");
  CHECK(again.needsAnswersOnly());
  CHECK(again.next()->index == 0);
  again.saveAnswers(0, {{6, 5, 4, 2, 3}, "nice"});
  CHECK_THROWS_WITH(again.saveAnswers(0, {{8, 5, 4, 2, 3}, ""}),
                    Catch::Contains("answers.enjoyment") && Catch::Contains("[1, 7]"));
  StudySession read = StudySession::read(folder);
  CHECK(read.answered() == 1);
  CHECK(read.games()[0].answers->comment == "nice");
  CHECK(read.next()->index == 1);
  CHECK(fs::exists(folder / "games.csv"));
  CHECK(fs::exists(folder / "answers.csv"));
  CHECK_THROWS_WITH(StudySession::open(folder, p, "bob"),
                    Catch::Contains("holds participant 'alice'"));
  // A second participant in the same study folder is participant number 1 (the next row).
  CHECK(StudySession::open(dir.path() / "bob", p, "bob").ordinal() == 1);
}

TEST_CASE("the analysis statistics match values worked out by hand", "[study][statistics]") {
  // Wilcoxon: differences 1, 2, 3, -4, 5: W+ = 11, W- = 4; 7 of the 32 sign patterns have
  // W+ <= 4, so the exact two-sided p is 14/32; rank-biserial (11 - 4) / 15.
  const std::vector<double> d = {1, 2, 3, -4, 5};
  const WilcoxonTest w = wilcoxonSignedRank(d);
  CHECK(w.n == 5);
  CHECK(w.plus == 11);
  CHECK(w.minus == 4);
  CHECK(w.exact);
  CHECK(w.p == Approx(14.0 / 32));
  CHECK(w.effect == Approx(7.0 / 15));
  // Above 50 pairs, the normal approximation of the batch analyses.
  std::vector<double> many(51);
  std::iota(many.begin(), many.end(), 1.0);
  CHECK_FALSE(wilcoxonSignedRank(many).exact);
  CHECK(wilcoxonSignedRank(many).p == Approx(pairedDifference(many).wilcoxonP));
  // Spearman: y swaps two pairs of neighbours of x: 1 - 6 * 4 / (5 * 24) = 0.8.
  CHECK(spearman(std::vector<double>{1, 2, 3, 4, 5}, std::vector<double>{2, 1, 4, 3, 5}) ==
        Approx(0.8));
  // Ridge: y = 2x; the standardized slope sum(zy) / (sum(z^2) + lambda) = 2 sd * 4 / (4 + 1), so
  // per unit of x: 2 * 4 / 5 = 1.6.
  const std::vector<std::vector<double>> x = {{1}, {2}, {3}, {4}};
  const std::vector<double> y = {2, 4, 6, 8};
  const RidgeFit fit = ridgeRegression(x, y, 1.0);
  CHECK(fit.rawWeights()[0] == Approx(1.6));
  CHECK(fit.intercept == Approx(5));
  CHECK(ridgeRegression(x, y, 0.0).rawWeights()[0] == Approx(2.0));
}

TEST_CASE("the analysis of a small fixed study: means, within-participant tests, correlations",
          "[study]") {
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  StudySessions study;
  study.protocol = p;
  // Three participants, one game per condition; enjoyment "plain" 5, 6, 7, "steered" 3, 4, 4.
  const double plain[] = {5, 6, 7}, steered[] = {3, 4, 4};
  for (int k = 0; k < 3; ++k) {
    StudySession s = StudySession::inMemory(p, std::string(1, static_cast<char>('a' + k)), k);
    for (const PlannedGame& g : s.plan()) {
      const bool isPlain = p.conditions[g.condition].name == "plain";
      s.saveGame(g, recordWith(isPlain ? 2.0 + k : 10.0 + k, 1), Json());
      const double enjoyment = isPlain ? plain[k] : steered[k];
      s.saveAnswers(g.index, {{enjoyment, 4, 4, isPlain ? 2.0 : 6.0, 4}, ""});
    }
    study.sessions.push_back(std::move(s));
  }
  const StudyAnalysis a = analyzeStudy(study);
  const auto mean = [&](const std::string& c, const std::string& item) {
    for (const auto& m : a.means)
      if (m.condition == c && m.item == item) return m;
    FAIL("no mean");
    return a.means.front();
  };
  // plain enjoyment: mean 6, sd 1 over 3 participants: 6 -+ t(2) 4.303 / sqrt(3).
  CHECK(mean("plain", "enjoyment").mean == Approx(6));
  CHECK(mean("plain", "enjoyment").high == Approx(6 + 4.302653 / std::sqrt(3.0)).epsilon(1e-5));
  CHECK(mean("steered", "enjoyment").mean == Approx(11.0 / 3));
  // Differences 2, 2, 3: ranks 1.5, 1.5, 3 (tied): W+ = 6, W- = 0; of the 8 sign patterns one
  // has W+ = 6 and one W+ = 0, so the exact two-sided p is 2/8.
  const auto& c = *std::find_if(a.comparisons.begin(), a.comparisons.end(),
                                [](const auto& x) { return x.item == "enjoyment"; });
  CHECK(c.test.plus == 6);
  CHECK(c.test.exact);
  CHECK(c.test.p == Approx(0.25));
  CHECK(c.test.effect == 1);
  // lead_changes is 2..4 under plain and 10..12 under steered: it ranks games exactly as the
  // "manipulated" answers do (2 against 6) and against the enjoyment answers.
  const auto& r = *std::find_if(a.correlations.begin(), a.correlations.end(), [](const auto& x) {
    return x.metric == "lead_changes" && x.item == "manipulated";
  });
  CHECK(r.rho == Approx(std::sqrt(27.0 / 35)).epsilon(1e-6));  // ranks 1..6 against two ties of 3
  REQUIRE(a.noticed.size() == 2);
  CHECK(a.noticed[0].rateAbove == 0);  // plain: 2 < midpoint 4
  CHECK(a.noticed[1].rateAbove == 1);
}

TEST_CASE("simulated studies: a planted effect is found, no effect at about the test's level",
          "[study][simulate]") {
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  StudySimulation s;
  s.participants = 12;
  s.seed = 3;
  s.threads = 2;
  const auto rowOf = [](const std::vector<PowerRow>& rows, const std::string& item) {
    return *std::find_if(rows.begin(), rows.end(),
                         [&](const PowerRow& r) { return r.item == item; });
  };
  // No effect (two conditions that are the same environment, one slider item): false positives
  // at the test's level, 5 % inside the rate's Wilson interval.
  Json same = ludoProtocol();
  same["conditions"][1]["environment"] = {{"id", "e-random"}};
  same["questionnaire"] =
      Json::parse(R"({"items": [{"key": "enjoyment", "text": "Fun?", "scale": "slider100"}]})");
  const PowerRow none = studyPower(parseStudyProtocol(same, "same.json"), s, 400).at(0);
  INFO("false positives " << none.detected << " of 400");
  CHECK(none.low <= 0.05);
  CHECK(none.high >= 0.05);
  s.effects = parsePlantedEffects("enjoyment:steered=2", p, "--effect");
  const PowerRow planted = rowOf(studyPower(p, s, 120), "enjoyment");
  CHECK(planted.plantedDifference == Approx(-2));  // plain minus steered
  CHECK(planted.rate > 0.8);
  // Another set of simulated studies (other seeds) finds it at a rate inside that interval's
  // neighbourhood (both are binomial estimates of the same power).
  s.seed = 99;
  const PowerRow again = rowOf(studyPower(p, s, 120), "enjoyment");
  CHECK(std::abs(again.rate - planted.rate) < 0.12);
  CHECK_THROWS_WITH(parsePlantedEffects("enjoyment:nowhere=1", p, "--effect"),
                    Catch::Contains("unknown condition 'nowhere'; valid: plain, steered"));
}

TEST_CASE("study simulate writes ordinary sessions that study analyze reads", "[study][simulate]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  StudySimulation s;
  s.participants = 6;  // 12 games: enough for the ridge fit (10)
  const auto sessions = simulateStudy(p, dir.path() / "pilot", s);
  REQUIRE(sessions.size() == 6);
  const std::vector<fs::path> folders = {dir.path() / "pilot"};
  const StudySessions study = readStudySessions(folders);
  CHECK(study.sessions.size() == 6);
  CHECK(study.sessions[2].ordinal() == 2);
  CHECK(study.sessions[0].complete());
  const StudyAnalysis a = analyzeStudy(study);
  CHECK(a.games == 12);
  REQUIRE_FALSE(a.coefficients.empty());
  writeStudyAnalysis(dir.path() / "analysis", a, study.protocol);
  CHECK(fs::exists(dir.path() / "analysis/fitted-coefficients.json"));
  // The batch with the fitted coefficients is a valid batch: every condition and the fitted row,
  // an AI in the participant's seat.
  const Batch fitted = loadBatch(dir.path() / "analysis/fitted-batch.json");
  REQUIRE(fitted.experiments.size() == p.conditions.size() + 1);
  CHECK(fitted.experiments.back().name == p.name + "/fitted");
  for (const auto& e : fitted.experiments) CHECK_FALSE(e.comparison.empty());
  CHECK(Json::parse(std::ifstream(
            dir.path() / "analysis/fitted-batch.json"))["experiments"][2]["coefficients"] ==
        a.coefficients);
  // Sessions of another protocol are refused, naming the folder.
  Json other = ludoProtocol();
  other["name"] = "other";
  StudySimulation one;
  one.participants = 1;
  simulateStudy(parseStudyProtocol(other, "o.json"), dir.path() / "other", one);
  const std::vector<fs::path> mixed = {dir.path() / "pilot", dir.path() / "other/p01"};
  CHECK_THROWS_WITH(readStudySessions(mixed),
                    Catch::Contains("other/p01") && Catch::Contains("different protocols"));
}
