// A study session played through OnlineSession's screens and submissions (what `ddalab serve`
// hands to browsers): a whole Lost Cities session by random legal moves reads back and analyses,
// no screen holds the condition, a seed or the opponent's hand, submissions are checked, and a
// session restarted in the middle of a game replays the person's moves kept in moves-NN.json.
#include <catch2/catch.hpp>
#include <filesystem>
#include <thread>

#include "core/rng.h"
#include "experiments/json_input.h"
#include "studies/analysis.h"
#include "studies/online_session.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = fs::path(__FILE__).parent_path().parent_path();

Json parseJsonFile(const fs::path& file) {
  return parseJsonText(readInputFile(file, {1 << 20, "a protocol"}), file.string());
}

// The shipped Lost Cities protocol with the iGEQ protocol's pages, one game per condition and a
// quick opponent (the test plays whole games).
std::shared_ptr<const StudyProtocol> lostCitiesWithPages() {
  Json lc = parseJsonFile(kSource / "studies/protocols/user-study-lost-cities.json");
  const Json igeq = parseJsonFile(kSource / "studies/protocols/user-study-ludo-igeq.json");
  for (const char* key : {"consent", "demographics", "instructions", "debrief"})
    lc[key] = igeq[key];
  lc["games_per_condition"] = 1;
  lc["seats"][1]["level"] = 5;
  return std::make_shared<const StudyProtocol>(parseStudyProtocol(lc, "lost-cities.json"));
}

// The screen once it is not waiting for the AI or the environment (pace 0: soon).
Json settled(OnlineSession& s) {
  for (int i = 0; i < 20000; ++i) {
    Json screen = s.screen();
    if (screen["kind"] != "game" || !screen["waiting"].get<bool>()) return screen;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  FAIL("the game did not come back to the person");
  return {};
}

// Plays the current screen with random but valid submissions; returns the screen answered.
Json answerOnce(OnlineSession& s, Rng& rng) {
  const Json screen = settled(s);
  const std::string kind = screen["kind"];
  if (kind == "consent") {
    s.submit("consent", {{"agree", true}});
  } else if (kind == "demographics") {
    Json answers = Json::object();
    for (const Json& item : screen["items"])
      answers[item["key"].get<std::string>()] = item["options"][0];
    s.submit("demographics", {{"answers", answers}});
  } else if (kind == "instructions" || kind == "debrief") {
    s.submit("read", Json::object());
  } else if (kind == "game") {
    const Json& legal = screen["board"]["legal"];
    s.submit("action",
             {{"action", legal[rng.below(static_cast<uint32_t>(legal.size()))]["action"]}});
  } else if (kind == "questionnaire") {
    Json answers = Json::object(), times = Json::object();
    for (const Json& item : screen["items"]) {
      const int low = item["min"], high = item["max"];
      answers[item["key"].get<std::string>()] =
          low + static_cast<int>(rng.below(static_cast<uint32_t>(high - low + 1)));
      times[item["key"].get<std::string>()] = 10;
    }
    s.submit("answers", {{"answers", answers}, {"item_ms", times}, {"comment", "ok"}});
  }
  return screen;
}

}  // namespace

TEST_CASE(
    "an online Lost Cities session played by its screens is kept and analyses and no "
    "screen tells the condition or what the seat may not know",
    "[online]") {
  const TempDir dir;
  const auto protocol = lostCitiesWithPages();
  DecisionPool pool(2);
  const fs::path folder = dir.path() / "p1";
  OnlineSession s(StudySession::open(folder, *protocol, "p1"), pool, 0);
  const StudySession plan = StudySession::read(folder);
  std::vector<std::string> secrets = {"e-random",    "e-hillclimber", "no-dda",
                                      "hillclimber", "\"seed\"",      "condition"};
  for (const PlannedGame& g : plan.plan()) secrets.push_back(std::to_string(g.seed));
  Rng rng(7);
  std::map<std::string, int> kinds;
  int hands = 0;
  for (int i = 0; i < 5000; ++i) {
    const Json screen = settled(s);
    const std::unique_ptr<State> state = s.peekState();  // before the person's move
    const std::string text = screen.dump();
    ++kinds[screen["kind"]];
    for (const std::string& secret : secrets) {
      INFO(text);
      CHECK(text.find(secret) == std::string::npos);
    }
    if (screen["kind"] == "game") {
      // The opponent's hand, read from the server's state, is not in the screen.
      REQUIRE(state);
      const Json opponentHand = state->observationJson(1)["you"]["hand"];
      REQUIRE(opponentHand.size() >= 1);
      CHECK(text.find(opponentHand.dump()) == std::string::npos);
      CHECK_FALSE(screen["board"]["observation"]["opponent"].contains("hand"));
      ++hands;
    }
    if (screen["kind"] == "complete") break;
    answerOnce(s, rng);
  }
  CHECK(kinds["consent"] == 1);
  CHECK(kinds["demographics"] == 1);
  CHECK(kinds["instructions"] == 1);
  CHECK(kinds["questionnaire"] == 2);
  CHECK(kinds["debrief"] == 1);
  CHECK(kinds["complete"] == 1);
  CHECK(hands > 20);
  const StudySession read = StudySession::read(folder);
  CHECK(read.complete());
  REQUIRE(read.games().size() == 2);
  CHECK_FALSE(read.games()[0].decisions.empty());
  CHECK(read.games()[0].answers->comment == "ok");
  CHECK_FALSE(fs::exists(folder / "moves-01.json"));
  const std::vector<fs::path> folders = {dir.path()};
  CHECK(readStudySessions(folders).sessions.size() == 1);
}

TEST_CASE("an online session refuses submissions that are not valid or not due", "[online]") {
  const TempDir dir;
  const auto protocol = lostCitiesWithPages();
  DecisionPool pool(1);
  OnlineSession s(StudySession::open(dir.path() / "p", *protocol, "p"), pool, 0);
  CHECK(s.screen()["kind"] == "consent");
  CHECK_THROWS_AS(s.submit("consent", Json::array()), InputError);
  CHECK_THROWS_AS(s.submit("consent", {{"agree", "yes"}}), InputError);
  CHECK_THROWS_AS(s.submit("consent", Json::object()), InputError);
  CHECK_THROWS_AS(s.submit("read", Json::object()), StepConflict);
  CHECK_THROWS_AS(s.submit("action", {{"action", 1}}), StepConflict);
  CHECK_THROWS_AS(s.submit("answers", Json::object()), StepConflict);
  CHECK_THROWS_AS(s.submit("nonsense", Json::object()), InputError);
  CHECK_FALSE(fs::exists(dir.path() / "p" / "consent.json"));
  s.submit("consent", {{"agree", true}});
  CHECK(s.screen()["kind"] == "demographics");
  CHECK_THROWS_WITH(s.submit("demographics", {{"answers", {{"age_band", "200"}}}}),
                    Catch::Contains("members"));
  Json answers = Json::object();
  for (const DemographicItem& item : protocol->pages.demographics)
    answers[item.key] = "none of those";
  CHECK_THROWS_AS(s.submit("demographics", {{"answers", answers}}), InputError);
  for (const DemographicItem& item : protocol->pages.demographics) answers[item.key] = 3;
  CHECK_THROWS_AS(s.submit("demographics", {{"answers", answers}}), InputError);
  CHECK_FALSE(fs::exists(dir.path() / "p" / "demographics.json"));
  for (const DemographicItem& item : protocol->pages.demographics)
    answers[item.key] = item.options.back();
  s.submit("demographics", {{"answers", answers}});
  s.submit("read", Json::object());
  const Json game = settled(s);
  REQUIRE(game["kind"] == "game");
  CHECK(game["label"] == "Game 1 of 2");
  CHECK_THROWS_AS(s.submit("action", {{"action", 100000}}), InputError);
  CHECK_THROWS_AS(s.submit("action", {{"action", 1.5}}), InputError);
  CHECK_THROWS_AS(s.submit("action", {{"action", "1"}}), InputError);
  CHECK_FALSE(fs::exists(dir.path() / "p" / "moves-01.json"));
}

TEST_CASE("an online session restarted in the middle of a game replays the person's moves",
          "[online]") {
  const TempDir dir;
  const auto protocol = lostCitiesWithPages();
  DecisionPool pool(2);
  const fs::path folder = dir.path() / "p";
  Rng rng(3);
  std::string before;
  {
    OnlineSession s(StudySession::open(folder, *protocol, "p"), pool, 0);
    for (int moves = 0; moves < 6;)
      if (answerOnce(s, rng)["kind"] == "game") ++moves;
    before = settled(s).dump();
  }  // the server stops (the moves file stays)
  REQUIRE(fs::exists(folder / "moves-01.json"));
  OnlineSession again(StudySession::open(folder, *protocol, "p"), pool, 0);
  CHECK(settled(again).dump() == before);
  for (int i = 0; i < 5000 && settled(again)["kind"] != "complete"; ++i) answerOnce(again, rng);
  const StudySession read = StudySession::read(folder);
  CHECK(read.complete());
  CHECK(read.games()[0].decisions.size() >= 6);
}
