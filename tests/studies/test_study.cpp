// User studies: protocols and their refusals, the order of games, crash-safe session
// folders, the statistics of the analysis on data worked out by hand, and the power of simulated
// studies.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>
#include <sstream>

#include "core/file_io.h"
#include "results/statistics.h"
#include "studies/analysis.h"
#include "studies/analysis_files.h"
#include "studies/analysis_report.h"
#include "studies/simulate.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

const fs::path kSourceDir = fs::path(__FILE__).parent_path().parent_path().parent_path();

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
  bad["questionnaire"] = {{"items", {{{"key", "fun"}, {"text", "Fun?"}, {"scale", "likert9"}}}}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.questionnaire.items[0].scale") &&
                               Catch::Contains("expected \"likert5\" (0-4 or 1-5), \"likert7\""));
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
  for (const char* name :
       {"user-study-ludo.json", "user-study-lost-cities.json", "user-study-ludo-igeq.json"}) {
    INFO(name);
    const StudyProtocol p = loadStudyProtocol(kSourceDir / "studies/protocols" / name);
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
    StudySession s = StudySession::inMemory(std::make_shared<const StudyProtocol>(p),
                                            std::string(1, static_cast<char>('a' + k)), k);
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
  // an AI in the participant's seat (whether the fit is reliable enough to write it is
  // test_study_fits.cpp's).
  writeFileAtomically(dir.path() / "analysis/fitted-batch.json",
                      fittedBatch(study.protocol, a.coefficients, 500).dump(2));
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

namespace {

// The folders of sessions `folders` name, read together: the refusal's message or "accepted".
std::string analyzeRefusal(const std::vector<fs::path>& folders) {
  try {
    readStudySessions(folders);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// Simulates `participants` participants of the Ludo protocol (or `protocol`) into `out` on one
// thread.
std::vector<StudySession> simulated(const fs::path& out, int participants,
                                    const Json& protocol = ludoProtocol()) {
  StudySimulation s;
  s.participants = participants;
  s.threads = 1;
  return simulateStudy(parseStudyProtocol(protocol, "p.json"), out, s);
}

Json readJsonFile(const fs::path& file) {
  return Json::parse(std::ifstream(file));
}

void writeJsonFile(const fs::path& file, const Json& j) {
  std::ofstream(file, std::ios::trunc) << j.dump(2);
}

}  // namespace

TEST_CASE("a study of one condition is analysed: descriptives and reliability, nothing compared",
          "[study][simulate]") {
  const TempDir dir;
  Json document = ludoProtocol();
  document["conditions"] = Json::array({document["conditions"][0]});
  document["games_per_condition"] = 2;
  const StudyProtocol p = parseStudyProtocol(document, "one.json");
  simulated(dir.path() / "pilot", 3, document);
  const std::vector<fs::path> folders = {dir.path() / "pilot"};
  const StudySessions study = readStudySessions(folders);
  const StudyAnalysis a = analyzeStudy(study);
  CHECK(a.games == 6);
  CHECK(a.means.size() == p.items.size());  // one condition's mean per item
  CHECK(a.comparisons.empty());
  CHECK(a.mixedItems.empty());
  CHECK(std::find(a.notes.begin(), a.notes.end(), nothingToCompare(p)) != a.notes.end());
  std::ostringstream printed;
  printStudyAnalysis(printed, a);
  CHECK_THAT(printed.str(), Catch::Contains("nothing to compare") &&
                                !Catch::Contains("Conditions compared") &&
                                !Catch::Contains("Within participants"));
  writeStudyAnalysis(dir.path() / "analysis", a, study.protocol);
  CHECK(fs::exists(dir.path() / "analysis/study-means.csv"));
}

TEST_CASE("study analyze counts each session once: the same folder twice, a copy, a link",
          "[study]") {
  const TempDir dir;
  const fs::path study = dir.path() / "ok3";
  simulated(study, 3);
  CHECK(readStudySessions(std::vector<fs::path>{study}).sessions.size() == 3);
  CHECK_THAT(
      analyzeRefusal({study, study / "p01"}),
      Catch::Contains("p01: is participant 'p01' of protocol 't' again, already read from") &&
          Catch::Contains("(the same folder, named twice)"));
  CHECK_THAT(analyzeRefusal({study, study}), Catch::Contains("again"));
  CHECK_THAT(analyzeRefusal({study / "p02", study / ".." / "ok3" / "p02"}),
             Catch::Contains("the same folder, named twice"));
  fs::create_directory_symlink(study / "p03", dir.path() / "link");
  CHECK_THAT(analyzeRefusal({study, dir.path() / "link"}),
             Catch::Contains("link: is participant 'p03'") &&
                 Catch::Contains("the same folder, named twice"));
  fs::copy(study / "p01", dir.path() / "copy", fs::copy_options::recursive);
  CHECK_THAT(analyzeRefusal({study, dir.path() / "copy"}),
             Catch::Contains("copy: is participant 'p01'") &&
                 Catch::Contains("ok3/p01 (a copy of that session?)"));
}

TEST_CASE("a session folder is checked at load: answers on their scale, records, plan, files",
          "[study]") {
  const TempDir dir;
  simulated(dir.path() / "good", 1);
  const fs::path good = dir.path() / "good/p01";
  REQUIRE(StudySession::read(good).answered() == 2);
  int copies = 0;
  // The refusal of a copy of the good session edited by `edit`.
  const auto refusal = [&](const std::function<void(const fs::path&)>& edit) -> std::string {
    const fs::path folder = dir.path() / ("bad" + std::to_string(++copies));
    fs::copy(good, folder, fs::copy_options::recursive);
    edit(folder);
    try {
      StudySession::read(folder);
    } catch (const InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  // Sets the JSON value at `pointer` of `file` (inside the session folder).
  const auto set = [&](const char* file, const char* pointer, const Json& value) {
    return refusal([=](const fs::path& folder) {
      Json j = readJsonFile(folder / file);
      j[Json::json_pointer(pointer)] = value;
      writeJsonFile(folder / file, j);
    });
  };
  const auto erase = [&](const char* file, const char* pointer, const char* key) {
    return refusal([=](const fs::path& folder) {
      Json j = readJsonFile(folder / file);
      j[Json::json_pointer(pointer)].erase(key);
      writeJsonFile(folder / file, j);
    });
  };
  const auto scale = Catch::Contains("expected a whole number in [1, 7] (the item's scale)");
  CHECK_THAT(set("answers-01.json", "/answers/enjoyment", 99),
             Catch::Contains("answers-01.json: $.answers.enjoyment") && scale &&
                 Catch::Contains("got 99"));
  CHECK_THAT(set("answers-02.json", "/answers/tension", -1e300),
             Catch::Contains("answers-02.json: $.answers.tension") && scale);
  CHECK_THAT(set("answers-01.json", "/answers/fairness", 3.5), scale);
  CHECK_THAT(set("answers-01.json", "/answers/fairness", 0), scale);
  CHECK_THAT(set("answers-01.json", "/answers/fairness", "5"), scale && Catch::Contains("\"5\""));
  CHECK_THAT(set("answers-01.json", "/answers/fairness", nullptr), scale);
  CHECK_THAT(refusal([](const fs::path& folder) {
               std::ofstream(folder / "answers-01.json", std::ios::trunc)
                   << R"({"index": 0, "answers": {"enjoyment": 1e999}, "comment": ""})";
             }),
             Catch::Contains("answers-01.json"));
  CHECK_THAT(erase("answers-01.json", "/answers", "difficulty"),
             Catch::Contains("$.answers.difficulty: missing required key"));
  CHECK_THAT(set("answers-01.json", "/answers/fun", 4), Catch::Contains("unknown item 'fun'"));
  CHECK_THAT(set("answers-01.json", "/comment", 5), Catch::Contains("answers-01.json: $.comment"));
  CHECK_THAT(set("answers-01.json", "/index", 1),
             Catch::Contains("answers-01.json: $.index: expected 0"));
  CHECK_THAT(set("game-01.json", "/record/metrics/tension", "x"),
             Catch::Contains("game-01.json: $.record.metrics.tension: expected a finite number"));
  CHECK_THAT(erase("game-01.json", "/record/metrics", "tension"),
             Catch::Contains("$.record.metrics.tension: missing required key"));
  CHECK_THAT(set("game-01.json", "/record/metrics/fun", 1),
             Catch::Contains("unknown metric 'fun'"));
  CHECK_THAT(set("game-01.json", "/record/seed", 5),
             Catch::Contains("game-01.json: $.record.seed") &&
                 Catch::Contains("the plan's seed of this game"));
  CHECK_THAT(set("game-01.json", "/record/winner", 7),
             Catch::Contains("$.record.winner: expected null (a draw) or a seat in [0, 1]"));
  CHECK_THAT(set("game-01.json", "/record/players", 3), Catch::Contains("$.record.players"));
  CHECK_THAT(set("game-02.json", "/record/seats/1/moves", -3),
             Catch::Contains("game-02.json: $.record.seats[1].moves"));
  CHECK_THAT(set("game-01.json", "/record/seats/0/chance", Json::array({1})),
             Catch::Contains("$.record.seats[0].chance: expected an array of 10 counts"));
  CHECK_THAT(set("game-01.json", "/record/seats/0/score", "high"),
             Catch::Contains("$.record.seats[0].score"));
  CHECK_THAT(set("game-01.json", "/condition", "nowhere"),
             Catch::Contains("game-01.json: $.condition: expected"));
  CHECK_THAT(set("game-01.json", "/trace", 5), Catch::Contains("game-01.json: $.trace"));
  CHECK_THAT(set("session.json", "/plan/1/seed", 5), Catch::Contains("session.json: $.plan[1]"));
  CHECK_THAT(set("session.json", "/ordinal", -1), Catch::Contains("session.json: $.ordinal"));
  CHECK_THAT(set("session.json", "/participant", ""),
             Catch::Contains("session.json: $.participant"));
  CHECK_THAT(set("session.json", "/colour", "red"), Catch::Contains("unknown key 'colour'"));
  CHECK_THAT(set("session.json", "/format", 5), Catch::Contains("not a session folder"));
  CHECK_THAT(refusal([](const fs::path& folder) { fs::remove(folder / "game-01.json"); }),
             Catch::Contains("answers-01.json: answers a game that is not there"));
  CHECK_THAT(refusal([](const fs::path& folder) {
               for (const char* file : {"game-01.json", "answers-01.json", "answers-02.json"})
                 fs::remove(folder / file);
             }),
             Catch::Contains("game-02.json: is not one of the plan's games in order"));
  CHECK_THAT(refusal([](const fs::path& folder) {
               fs::copy_file(folder / "game-02.json", folder / "game-07.json");
             }),
             Catch::Contains("game-07.json: is not one of the plan's games (2 games)"));
  // A study folder holding such a session is refused as a whole: nothing is analysed.
  CHECK_THAT(analyzeRefusal({dir.path() / "good", dir.path() / "bad1"}),
             Catch::Contains("bad1/answers-01.json: $.answers.enjoyment"));
  // Saving checks the answers the same way: a whole number on the scale.
  StudySession s =
      StudySession::open(dir.path() / "fresh", StudySession::read(good).protocol(), "fresh");
  GameRecord r = recordWith(1, 1);
  r.seed = s.next()->seed;
  s.saveGame(*s.next(), r, Json::object());
  CHECK_THROWS_WITH(s.saveAnswers(0, {{3.5, 4, 4, 4, 4}, ""}),
                    Catch::Contains("answers.enjoyment") && scale);
  CHECK_THROWS_WITH(s.saveAnswers(0, {{NAN, 4, 4, 4, 4}, ""}), scale);
  CHECK_NOTHROW(s.saveAnswers(0, {{1, 7, 4, 4, 4}, ""}));
  StudyItem slider;
  slider.scale = StudyItem::Scale::Slider100;
  CHECK_NOTHROW(checkStudyAnswer(slider, 100, "x"));
  CHECK_THROWS_WITH(checkStudyAnswer(slider, 101, "x"), Catch::Contains("[0, 100]"));
}

TEST_CASE("a refused study simulate creates nothing, and the mended command then runs",
          "[study][simulate]") {
  const TempDir dir;
  const fs::path out = dir.path() / "pilot";
  StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  StudySimulation s;
  s.participants = 3;
  s.threads = 5000;
  CHECK_THROWS_WITH(simulateStudy(p, out, s), Catch::Contains("--threads"));
  CHECK_FALSE(fs::exists(out));
  // A simulated person that cannot play, into a folder holding a file of the researcher's.
  fs::create_directories(out);
  std::ofstream(out / "notes.txt") << "pilot";
  s.threads = 1;
  StudyProtocol wrongPerson = p;
  wrongPerson.simulatedPerson = {{"id", "nobody"}};
  CHECK_THROWS_WITH(simulateStudy(wrongPerson, out, s), Catch::Contains("nobody"));
  CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator()) == 1);
  CHECK(simulateStudy(p, out, s).size() == 3);
  CHECK(StudySession::read(out / "p03").complete());
  // The protocol refuses such a person itself, at its path.
  Json bad = ludoProtocol();
  bad["simulated_person"] = {{"id", "nobody"}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.simulated_person.id"));
  bad["simulated_person"] = {{"id", "random"}, {"level", 101}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.simulated_person.level"));
  bad["simulated_person"] = {{"id", "human"}};
  CHECK_THAT(refusal(bad), Catch::Contains("p.json: $.simulated_person.id") &&
                               Catch::Contains("a person cannot be simulated"));
}

TEST_CASE(
    "study simulate writes each participant's session as its games end, the same on any "
    "number of threads",
    "[study][simulate]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(ludoProtocol(), "p.json");
  StudySimulation s;
  s.participants = 3;
  s.threads = 1;
  // What the folder holds when participant p is said to be written (seen from the worker thread,
  // checked here: Catch2's assertions belong to the test's thread).
  struct Seen {
    int participant;
    bool traced, answered, nextStarted;
  };
  std::vector<Seen> seen;
  s.written = [&](int participant) {
    const auto folder = [&](int p) { return dir.path() / "one" / ("p0" + std::to_string(p + 1)); };
    seen.push_back(
        {participant, readJsonFile(folder(participant) / "game-02.json")["trace"].is_object(),
         fs::exists(folder(participant) / "answers-01.json"), fs::exists(folder(participant + 1))});
  };
  simulateStudy(p, dir.path() / "one", s);
  REQUIRE(seen.size() == 3);
  for (const Seen& x : seen) {
    INFO("participant " << x.participant);
    // Its games are on disk, traces and all, before the next participant starts and before any
    // answer (the answers rule needs every game).
    CHECK(x.traced);
    CHECK_FALSE(x.answered);
    CHECK_FALSE(x.nextStarted);
  }
  s.written = nullptr;
  s.threads = 2;
  simulateStudy(p, dir.path() / "two", s);
  for (const char* name : {"p01", "p02", "p03"})
    for (const char* file : {"games.csv", "answers.csv", "game-01.json", "answers-02.json"}) {
      INFO(name << "/" << file);
      const auto text = [&](const char* run) {
        std::ifstream in(dir.path() / run / name / file);
        return std::string(std::istreambuf_iterator<char>(in), {});
      };
      CHECK(text("one") == text("two"));
    }
  // Sessions the study folder already holds come first: the simulated participants follow them.
  const TempDir mixed;
  StudySession::open(mixed.path() / "alice", p, "alice");
  s.participants = 2;
  const auto sessions = simulateStudy(p, mixed.path(), s);
  CHECK(sessions[0].ordinal() == 1);
  CHECK(sessions[1].ordinal() == 2);
}
