// What a study records: consent, demographics, instructions and debrief from
// the protocol; a UTC timestamp and a response time on every decision and answer; pseudonymous
// ids; random balanced allocation in a crash-safe log that dropouts and deleted folders cannot
// unbalance or make reuse seeds.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/file_io.h"
#include "studies/allocation.h"
#include "studies/analysis.h"
#include "studies/export.h"
#include "studies/online_study.h"
#include "studies/simulate.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

// Three conditions (6 order rows), a person's pages.
Json protocolWithPages() {
  return Json::parse(R"({
    "format": "ddalab-study/1", "name": "pages", "seed": 11,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "a", "environment": {"id": "e-random"}},
                   {"name": "b", "environment": {"id": "e-random"}},
                   {"name": "c", "environment": {"id": "e-random"}}],
    "consent": {"text": "You play six games of Ludo.", "agree": "Yes", "decline": "No"},
    "demographics": [{"key": "age_band", "text": "Your age", "options": ["18-24", "25-34", "35+"]},
                     {"key": "gaming", "text": "How often do you play?",
                      "options": ["never", "monthly", "weekly", "daily"]}],
    "instructions": "Move a piece by clicking it.",
    "debrief": "The games differed in how the dice were steered."})");
}

std::string refusal(const Json& document) {
  return refusalOf([&] { parseStudyProtocol(document, "p.json"); });
}

ResponseTiming timing(int64_t ms) {
  return {"2026-11-27T10:00:00.000Z", "2026-11-27T10:00:01.250Z", ms};
}

GameRecord recordOf(const PlannedGame& g) {
  GameRecord r;
  r.numPlayers = 2;
  r.seed = g.seed;
  return r;
}

// A game's trace whose round 3 holds the person's move 17 (the decision `finish` records).
Json traceWithMove() {
  Json rounds = Json::array();
  for (int r = 0; r < 4; ++r)
    rounds.push_back({{"actor", r % 2}, {"actions", Json::array({{{"by", "player"}, {"id", 2}}})}});
  rounds[3]["actor"] = 0;
  rounds[3]["actions"] =
      Json::array({{{"by", "environment"}, {"id", 5}}, {{"by", "player"}, {"id", 17}}});
  return {{"rounds", rounds}};
}

// Plays and answers every game of `s` (answers 4, times given), then the debrief.
void finish(StudySession& s) {
  while (s.step() == SessionStep::Game) {
    const PlannedGame g = *s.next();
    const DecisionTiming d{3, 0, 17, timing(900)};
    s.saveGame(g, recordOf(g), traceWithMove(), std::span(&d, 1));
    StudyAnswers a{std::vector<double>(s.protocol().items.size(), 4), ""};
    a.timing = timing(5000);
    a.itemMs.assign(s.protocol().items.size(), 1200);
    s.saveAnswers(g.index, a);
  }
  if (s.step() == SessionStep::Debrief) s.recordDebriefRead(timing(3000));
}

// Takes a session through consent, demographics and instructions.
void start(StudySession& s) {
  s.recordConsent(true, timing(8000));
  s.saveDemographics({{"25-34", "weekly"}, timing(4000)});
  s.recordInstructionsRead(timing(2000));
}

// The session of `id` in the study folder `study`, taken through every page and game.
void completeSession(const fs::path& study, const StudyProtocol& p, const std::string& id) {
  StudySession s = StudySession::open(study / id, p, id);
  start(s);
  finish(s);
}

// Copies of the session folder `session`, each with one value of one file set, read back.
class TamperedCopies {
 public:
  explicit TamperedCopies(fs::path session) : session_(std::move(session)) {}
  // The refusal of reading a copy whose `file` has `value` at JSON pointer `pointer`.
  std::string refusal(const char* file, const char* pointer, const Json& value) {
    const fs::path folder = session_.parent_path() / ("bad" + std::to_string(++copies_));
    fs::copy(session_, folder, fs::copy_options::recursive);
    Json j = fs::exists(folder / file) ? Json::parse(readText(folder / file)) : Json::object();
    j[Json::json_pointer(pointer)] = value;
    std::ofstream(folder / file, std::ios::trunc) << j.dump();
    return refusalOf([&] { StudySession::read(folder); });
  }

 private:
  fs::path session_;
  int copies_ = 0;
};

std::vector<std::string> lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("a protocol's consent, demographics, instructions and debrief are read and checked",
          "[study][records]") {
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  CHECK(p.pages.consent == "You play six games of Ludo.");
  CHECK(p.pages.agree == "Yes");
  CHECK(p.pages.decline == "No");
  REQUIRE(p.pages.demographics.size() == 2);
  CHECK(p.pages.demographics[1].options.size() == 4);
  CHECK(p.pages.instructions == "Move a piece by clicking it.");
  CHECK_FALSE(p.pages.debrief.empty());
  const auto with = [](const char* pointer, const Json& value) {
    Json d = protocolWithPages();
    d[Json::json_pointer(pointer)] = value;
    return refusal(d);
  };
  CHECK_THAT(with("/consent/text", ""), Catch::Contains("p.json: $.consent.text: expected a text"));
  CHECK_THAT(with("/consent/text", std::string(20001, 'x')),
             Catch::Contains("$.consent.text: expected a text of 1 to 20000 characters"));
  CHECK_THAT(with("/consent/decline", "Yes"), Catch::Contains("$.consent.decline"));
  CHECK_THAT(with("/consent/signature", true), Catch::Contains("unknown key 'signature'"));
  CHECK_THAT(with("/demographics/0/options", Json::array({"only"})),
             Catch::Contains("$.demographics[0].options: expected an array of 2 to 20 options"));
  CHECK_THAT(with("/demographics/0/options/1", "18-24"),
             Catch::Contains("$.demographics[0].options[1]: the option '18-24' is listed twice"));
  CHECK_THAT(with("/demographics/1/key", "age_band"),
             Catch::Contains("$.demographics[1].key: the key 'age_band' is used twice"));
  CHECK_THAT(with("/demographics/1/key", "enjoyment"),  // an item of the questionnaire
             Catch::Contains("$.demographics[1].key: the key 'enjoyment' is used twice"));
  CHECK_THAT(with("/demographics/0/key", "age band"), Catch::Contains("a CSV column"));
  CHECK_THAT(with("/demographics/0/options/0", "a\nb"),
             Catch::Contains("options[0]: expected a text without control characters"));
  CHECK_THAT(with("/demographics/0/free_text", true), Catch::Contains("unknown key 'free_text'"));
  CHECK_THAT(with("/instructions", 5), Catch::Contains("$.instructions: expected a text"));
  CHECK_THAT(with("/debrief", Json::array()), Catch::Contains("$.debrief: expected a text"));
}

TEST_CASE("a protocol's completion and online settings are read and checked", "[study][records]") {
  const StudyProtocol defaults = parseStudyProtocol(protocolWithPages(), "p.json");
  CHECK(defaults.online.completionCode.empty());
  CHECK(defaults.online.completionRedirect.empty());
  CHECK(defaults.online.idParam == "participant");
  CHECK(defaults.online.timeoutMinutes == 30);
  Json d = protocolWithPages();
  d["completion"] = {{"code", "C1A2B3"},
                     {"redirect",
                      "https://app.prolific.com/submissions/"
                      "complete?cc=C1A2B3"}};
  d["online"] = {{"id_param", "PROLIFIC_PID"}, {"timeout_minutes", 12.5}};
  const StudyProtocol p = parseStudyProtocol(d, "p.json");
  CHECK(p.online.completionCode == "C1A2B3");
  CHECK(p.online.completionRedirect == "https://app.prolific.com/submissions/complete?cc=C1A2B3");
  CHECK(p.online.idParam == "PROLIFIC_PID");
  CHECK(p.online.timeoutMinutes == 12.5);
  CHECK(p.document.at("online").at("id_param") == "PROLIFIC_PID");  // a session records them
  // Either part alone.
  Json codeOnly = protocolWithPages();
  codeOnly["completion"] = {{"code", "X"}};
  CHECK(parseStudyProtocol(codeOnly, "p.json").online.completionRedirect.empty());
  const auto changed = [&](const char* pointer, const Json& value) {
    Json changed = d;
    changed[Json::json_pointer(pointer)] = value;
    return changed;
  };
  const auto with = [&](const char* pointer, const Json& value) {
    return refusal(changed(pointer, value));
  };
  const std::string code = "p.json: $.completion.code: expected a code of 1 to 64 printable";
  CHECK_THAT(with("/completion/code", ""), Catch::Contains(code));
  CHECK_THAT(with("/completion/code", std::string(65, 'A')), Catch::Contains(code));
  CHECK(parseStudyProtocol(changed("/completion/code", std::string(64, 'A')), "p.json")
            .online.completionCode.size() == 64);
  CHECK_THAT(with("/completion/code", "C1 A2"), Catch::Contains(code));
  CHECK_THAT(with("/completion/code", "C1\nA2"), Catch::Contains(code));
  CHECK_THAT(with("/completion/code", "C\u00e91"), Catch::Contains(code));
  CHECK_THAT(with("/completion/code", 1234), Catch::Contains(code));
  const std::string url = "p.json: $.completion.redirect: expected an https:// URL";
  CHECK_THAT(with("/completion/redirect", "http://example.org/"), Catch::Contains(url));
  CHECK_THAT(with("/completion/redirect", "javascript:alert(1)"), Catch::Contains(url));
  CHECK_THAT(with("/completion/redirect", "https://"), Catch::Contains(url));
  CHECK_THAT(with("/completion/redirect", "https://a.org/ x"), Catch::Contains(url));
  CHECK_THAT(with("/completion/redirect", "https://a.org/\r\nSet-Cookie:x"), Catch::Contains(url));
  CHECK_THAT(with("/completion/redirect", "https://a.org/" + std::string(1987, 'x')),
             Catch::Contains(url));
  CHECK_THAT(with("/completion/url", "https://a.org/"),
             Catch::Contains("$.completion.url: unknown key 'url'"));
  CHECK_THAT(with("/completion", "C1A2B3"), Catch::Contains("$.completion: expected an object"));
  const std::string param = "p.json: $.online.id_param: expected a query parameter name of 1 to 40";
  CHECK_THAT(with("/online/id_param", ""), Catch::Contains(param));
  CHECK_THAT(with("/online/id_param", "a-b"), Catch::Contains(param));
  CHECK_THAT(with("/online/id_param", "id&token"), Catch::Contains(param));
  CHECK_THAT(with("/online/id_param", std::string(41, 'a')), Catch::Contains(param));
  CHECK_THAT(with("/online/id_param", true), Catch::Contains(param));
  const std::string minutes = "p.json: $.online.timeout_minutes: expected a number of minutes";
  CHECK_THAT(with("/online/timeout_minutes", 0), Catch::Contains(minutes));
  CHECK_THAT(with("/online/timeout_minutes", -5), Catch::Contains(minutes));
  CHECK_THAT(with("/online/timeout_minutes", 1440.5), Catch::Contains(minutes));
  CHECK_THAT(with("/online/timeout_minutes", "30"), Catch::Contains(minutes));
  CHECK(parseStudyProtocol(changed("/online/timeout_minutes", 1440), "p.json")
            .online.timeoutMinutes == 1440);
  CHECK_THAT(with("/online/port", 8080), Catch::Contains("$.online.port: unknown key 'port'"));
  // The AIs' pace, for the GUI's study mode and the server alike.
  CHECK(defaults.paceMs == kDefaultStudyPaceMs);
  CHECK(parseStudyProtocol(changed("/pace_ms", 0), "p.json").paceMs == 0);
  CHECK(parseStudyProtocol(changed("/pace_ms", 1500), "p.json").paceMs == 1500);
  CHECK_THAT(with("/pace_ms", 10001), Catch::Contains("p.json: $.pace_ms: expected"));
  CHECK_THAT(with("/pace_ms", -1), Catch::Contains("p.json: $.pace_ms: expected"));
  CHECK_THAT(with("/pace_ms", "600"), Catch::Contains("p.json: $.pace_ms: expected"));
}

TEST_CASE("a session goes consent, demographics, instructions, games, debrief, each recorded",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  StudySession s = StudySession::open(dir.path() / "ann", p, "ann");
  CHECK(s.step() == SessionStep::Consent);
  CHECK_THROWS_AS(s.saveDemographics({{"25-34", "weekly"}, timing(1)}), std::logic_error);
  s.recordConsent(true, timing(8000));
  CHECK(s.step() == SessionStep::Demographics);
  CHECK_THAT(refusalOf([&] {
               s.saveDemographics({{"25-34", "hourly"}, timing(1)});
             }),
             Catch::Contains("demographics.gaming: expected one of the question's options"));
  CHECK_THAT(refusalOf([&] {
               s.saveDemographics({{"25-34"}, timing(1)});
             }),
             Catch::Contains("expected 2 answers"));
  s.saveDemographics({{"25-34", "weekly"}, timing(4000)});
  CHECK(s.step() == SessionStep::Instructions);
  s.recordInstructionsRead(timing(2000));
  CHECK(s.step() == SessionStep::Game);
  CHECK(s.statusText() == "0 of 3 answered");
  // The window closes: the session resumes at the same point with what was recorded.
  StudySession again = StudySession::open(dir.path() / "ann", p, "ann");
  CHECK(again.step() == SessionStep::Game);
  REQUIRE(again.consent());
  CHECK(again.consent()->responseMs == 8000);
  REQUIRE(again.demographics());
  CHECK(again.demographics()->values == std::vector<std::string>{"25-34", "weekly"});
  finish(again);
  CHECK(again.step() == SessionStep::Complete);
  CHECK(again.statusText() == "complete");
  const StudySession read = StudySession::read(dir.path() / "ann");
  CHECK(read.step() == SessionStep::Complete);
  REQUIRE(read.games().size() == 3);
  REQUIRE(read.games()[0].decisions.size() == 1);
  CHECK(read.games()[0].decisions[0].action == 17);
  CHECK(read.games()[0].decisions[0].round == 3);
  CHECK(read.games()[0].decisions[0].timing.responseMs == 900);
  CHECK(read.games()[0].decisions[0].timing.answeredAt == "2026-11-27T10:00:01.250Z");
  REQUIRE(read.games()[2].answers->timing);
  CHECK(read.games()[2].answers->timing->responseMs == 5000);
  CHECK(read.games()[2].answers->itemMs == std::vector<int64_t>(p.items.size(), 1200));
  // A complete session is not a dropout.
  again.recordDropout("withdrawn");
  CHECK(StudySession::read(dir.path() / "ann").step() == SessionStep::Complete);
}

TEST_CASE("declining consent ends the session, is recorded and frees the order row",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  StudySession s = StudySession::open(dir.path() / "bea", p, "bea");
  const int row = s.row();
  s.recordConsent(false, timing(3000));
  CHECK(s.step() == SessionStep::Declined);
  CHECK(s.dropoutReason() == kDeclinedConsent);
  CHECK_THROWS_AS(s.recordInstructionsRead(timing(1)), std::logic_error);
  const StudySession read = StudySession::read(dir.path() / "bea");
  CHECK(read.step() == SessionStep::Declined);
  CHECK(read.statusText() == "consent declined");
  CHECK(read.games().empty());
  const std::vector<Allocation> log = readAllocations(dir.path());
  REQUIRE(log.size() == 1);
  CHECK(log[0].droppedOut);
  // Five more participants fill the six rows: the declined one's row is among them again.
  std::multiset<int> rows;
  for (int k = 0; k < 6; ++k)
    rows.insert(
        StudySession::open(dir.path() / ("q" + std::to_string(k)), p, "q" + std::to_string(k))
            .row());
  CHECK(rows == std::multiset<int>{0, 1, 2, 3, 4, 5});
  CHECK(rows.count(row) == 1);
}

TEST_CASE("a session read back refuses timestamps and times that are not", "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  completeSession(dir.path(), p, "cal");
  TamperedCopies copies(dir.path() / "cal");
  const auto set = [&](const char* file, const char* pointer, const Json& value) {
    return copies.refusal(file, pointer, value);
  };
  CHECK_THAT(set("consent.json", "/timing/shown_at", "yesterday"),
             Catch::Contains("consent.json: $.timing.shown_at: expected a UTC time"));
  CHECK_THAT(set("consent.json", "/agreed", "yes"),
             Catch::Contains("consent.json: $.agreed: expected true or false"));
  CHECK_THAT(set("demographics.json", "/answers/gaming", "hourly"),
             Catch::Contains("demographics.json: $.answers.gaming: expected one of the"));
  CHECK_THAT(set("instructions.json", "/timing/response_ms", -5),
             Catch::Contains("instructions.json: $.timing.response_ms: expected a whole number"));
  CHECK_THAT(set("game-01.json", "/decisions/0/seat", 9),
             Catch::Contains("game-01.json: $.decisions[0].seat"));
  CHECK_THAT(set("game-02.json", "/decisions", "fast"),
             Catch::Contains("game-02.json: $.decisions: expected an array"));
  CHECK_THAT(set("answers-01.json", "/item_ms/enjoyment", 999999),
             Catch::Contains("answers-01.json: $.item_ms.enjoyment: expected a whole number of "
                             "milliseconds in [0, 5000]"));
  CHECK_THAT(set("answers-01.json", "/timing/answered_at", "2026-13-27T10:00:01.250Z"),
             Catch::Contains("$.timing.answered_at: expected a UTC time"));
  CHECK_THAT(set("dropout.json", "/reason", ""),
             Catch::Contains("dropout.json: $.reason: expected a non-empty string"));
  CHECK_THAT(set("session.json", "/row", 6), Catch::Contains("session.json: $.row"));
  CHECK_THAT(set("session.json", "/id_origin", "stolen"), Catch::Contains("$.id_origin"));
}

TEST_CASE("a session read back refuses an answer before its showing and a move no one played",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  completeSession(dir.path(), p, "dan");
  REQUIRE_NOTHROW(StudySession::read(dir.path() / "dan"));
  TamperedCopies copies(dir.path() / "dan");
  const char* early = "2026-11-27T09:59:59.999Z";  // before timing()'s shown_at
  CHECK_THAT(copies.refusal("consent.json", "/timing/answered_at", early),
             Catch::Contains("consent.json: $.timing.answered_at: expected a time not before "
                             "shown_at (2026-11-27T10:00:00.000Z), got \"2026-11-27T09:59:59"));
  CHECK_THAT(copies.refusal("answers-02.json", "/timing/answered_at", early),
             Catch::Contains("answers-02.json: $.timing.answered_at: expected a time not before"));
  CHECK_THAT(copies.refusal("game-01.json", "/decisions/0/answered_at", early),
             Catch::Contains("game-01.json: $.decisions[0].answered_at: expected a time not"));
  // The AI's seat (1), a move the round does not hold, the environment's move, a round the game
  // never had.
  CHECK_THAT(copies.refusal("game-01.json", "/decisions/0/seat", 1),
             Catch::Contains("game-01.json: $.decisions[0].seat: expected the participant's seat "
                             "0, got 1 (an AI's)"));
  CHECK_THAT(copies.refusal("game-02.json", "/decisions/0/action", 18),
             Catch::Contains("game-02.json: $.decisions[0].action: expected a move played in "
                             "round 3 (one of the trace's, legal), got 18"));
  CHECK_THAT(copies.refusal("game-02.json", "/decisions/0/action", 5),
             Catch::Contains("game-02.json: $.decisions[0].action: expected a move played"));
  CHECK_THAT(copies.refusal("game-03.json", "/decisions/0/round", 4),
             Catch::Contains("game-03.json: $.decisions[0].round: expected a round the game's "
                             "trace records (0 to 3), got 4"));
  CHECK_THAT(copies.refusal("game-03.json", "/trace", Json::object()),
             Catch::Contains("game-03.json: $.decisions[0].round: expected a round"));
}

TEST_CASE("allocation: random among the least used rows, seeded, balanced, never a number twice",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  std::vector<int> rows;
  for (int k = 0; k < 12; ++k) {
    const Allocation a = allocateParticipant(dir.path(), p, "p" + std::to_string(k));
    CHECK(a.ordinal == k);
    rows.push_back(a.row);
  }
  // Every block of six participants uses each row once; the order is not the arrival order.
  for (int block = 0; block < 2; ++block)
    CHECK(std::set<int>(rows.begin() + 6 * block, rows.begin() + 6 * block + 6).size() == 6);
  CHECK(rows != std::vector<int>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  // Seeded: the same log gives the same rows.
  const TempDir other;
  for (int k = 0; k < 12; ++k)
    CHECK(allocateParticipant(other.path(), p, "p" + std::to_string(k)).row == rows[size_t(k)]);
  // A participant already allocated gets their place back.
  CHECK(allocateParticipant(dir.path(), p, "p3").ordinal == 3);
  CHECK(allocateParticipant(dir.path(), p, "p3").row == rows[3]);
  // Two dropouts: the next two participants take exactly their rows.
  recordDropoutInLog(dir.path(), "p4", "withdrawn");
  recordDropoutInLog(dir.path(), "p9", "timed out");
  recordDropoutInLog(dir.path(), "p9", "timed out");  // idempotent
  const Allocation x = allocateParticipant(dir.path(), p, "x");
  const Allocation y = allocateParticipant(dir.path(), p, "y");
  CHECK(std::multiset<int>{x.row, y.row} == std::multiset<int>{rows[4], rows[9]});
  CHECK(x.ordinal == 12);
  CHECK(y.ordinal == 13);
}

TEST_CASE("a deleted session folder cannot make two participants share their seeds",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  const StudySession a = StudySession::open(dir.path() / "a", p, "a");
  const StudySession b = StudySession::open(dir.path() / "b", p, "b");
  fs::remove_all(dir.path() / "a");
  const StudySession c = StudySession::open(dir.path() / "c", p, "c");
  CHECK(c.ordinal() == 2);
  std::set<uint64_t> seeds;
  for (const StudySession* s : {&a, &b, &c})
    for (const PlannedGame& g : s->plan()) CHECK(seeds.insert(g.seed).second);
  // Without the log (deleted too), numbers continue from the sessions still there.
  fs::remove(dir.path() / kAllocationLogName);
  const StudySession d = StudySession::open(dir.path() / "d", p, "d");
  CHECK(d.ordinal() == 3);
  CHECK(readAllocations(dir.path()).size() == 3);  // b, c and d
}

TEST_CASE("the allocation log survives a torn line, and refuses what it cannot trust",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  allocateParticipant(dir.path(), p, "a");
  const fs::path log = dir.path() / kAllocationLogName;
  std::ofstream(log, std::ios::app) << R"({"event": "allocated", "partic)";  // a crash mid-line
  CHECK(readAllocations(dir.path()).size() == 1);
  CHECK(allocateParticipant(dir.path(), p, "b").ordinal == 1);
  CHECK(lines(log).size() == 2);  // the torn line was cut before the append
  CHECK(readAllocations(dir.path()).size() == 2);
  const std::string good = readText(log);
  const auto refusalWith = [&](const std::string& text) {
    std::ofstream(log, std::ios::trunc) << text;
    return refusalOf([&] { allocateParticipant(dir.path(), p, "z"); });
  };
  CHECK_THAT(refusalWith(good + "{\"event\": \"moved\"}\n"),
             Catch::Contains("allocation.jsonl:3: $.event: expected \"allocated\" or \"dropout\""));
  CHECK_THAT(refusalWith(good + lines(log)[0] + "\n"),
             Catch::Contains("allocation.jsonl:3: allocates participant 'a' or number 0 a second"));
  CHECK_THAT(
      refusalWith(good + R"({"event": "dropout", "participant": "nobody", "reason": "x"})" + "\n"),
      Catch::Contains("allocation.jsonl:3: records a dropout of 'nobody', who was never"));
  CHECK_THAT(refusalWith("not json\n"), Catch::Contains("allocation.jsonl:1"));
  // Another protocol's study folder.
  std::ofstream(log, std::ios::trunc) << good;
  Json otherDocument = protocolWithPages();
  otherDocument["seed"] = 12;
  const StudyProtocol other = parseStudyProtocol(otherDocument, "q.json");
  CHECK_THAT(refusalOf([&] { allocateParticipant(dir.path(), other, "z"); }),
             Catch::Contains("allocation.jsonl: holds participants of another protocol"));
  // A log that is a symbolic link or a folder is not written through.
  const TempDir linked;
  fs::create_symlink(log, linked.path() / kAllocationLogName);
  CHECK_THAT(refusalOf([&] { allocateParticipant(linked.path(), p, "z"); }),
             Catch::Contains(kAllocationLogName));
  CHECK(readText(log) == good);
  const TempDir folder;
  fs::create_directory(folder.path() / kAllocationLogName);
  CHECK_THAT(refusalOf([&] { allocateParticipant(folder.path(), p, "z"); }),
             Catch::Contains("allocation.jsonl: is a folder; expected the study's allocation log"));
}

namespace {

// A study folder of two complete sessions, "ann" and "bob" (allocated in its log), and "dee", who
// declined consent.
void twoCompleteAndOneDeclined(const fs::path& study, const StudyProtocol& p) {
  for (const char* id : {"ann", "bob"}) {
    StudySession s = StudySession::open(study / id, p, id);
    start(s);
    finish(s);
  }
  StudySession::open(study / "dee", p, "dee").recordConsent(false, timing(100));
}

// A copy of the study folder `from` as `to`, for one hostile variant.
fs::path copyOf(const fs::path& from, const fs::path& to) {
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return to;
}

// readStudySessions's refusal of `folder` ("accepted" when it reads it).
std::string analysisRefusal(const fs::path& folder) {
  const std::vector<fs::path> folders = {folder};
  return refusalOf([&] { readStudySessions(folders); });
}

}  // namespace

TEST_CASE("a session without a recorded consent is never analysed or exported: it counts as declined",
          "[study][records][export]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  twoCompleteAndOneDeclined(dir.path() / "study", p);
  StudySession::open(dir.path() / "study" / "eve", p, "eve");  // reading the consent now
  const auto analysed = [](const fs::path& study) {
    const std::vector<fs::path> folders = {study};
    return readStudySessions(folders);
  };
  const std::string bob = hashedParticipantId("pages", "bob");
  {
    const StudySessions all = analysed(dir.path() / "study");
    CHECK(all.sessions.size() == 2);
    CHECK(all.flow.text() ==
          "4 sessions: 1 declined consent, 2 complete, 1 in progress; analysed: the 2 with an "
          "answered game");
    CHECK_THAT(tidyExportCsv(all, false), Catch::Contains(bob));
  }
  // Bob's consent recorded as declined, or not recorded at all: his answers are not Bob's to give.
  const fs::path declined = copyOf(dir.path() / "study", dir.path() / "declined");
  std::ofstream(declined / "bob" / "consent.json", std::ios::trunc)
      << R"({"agreed": false, "timing": {"shown_at": "2026-11-27T10:00:00.000Z",
             "answered_at": "2026-11-27T10:00:01.250Z", "response_ms": 8000}})";
  const fs::path missing = copyOf(dir.path() / "study", dir.path() / "missing");
  fs::remove(missing / "bob" / "consent.json");
  for (const fs::path& study : {declined, missing}) {
    INFO(study.filename().string());
    const StudySessions read = analysed(study);
    REQUIRE(read.sessions.size() == 1);
    CHECK(read.sessions[0].participant() == "ann");
    CHECK(read.flow.text() ==
          "4 sessions: 2 declined consent, 1 complete, 1 in progress; analysed: the 1 with an "
          "answered game");
    CHECK(analyzeStudy(read).participants == 1);
    const std::string csv = tidyExportCsv(read, false);
    CHECK(csv.find(bob) == std::string::npos);
    CHECK_THAT(csv, Catch::Contains(hashedParticipantId("pages", "ann")));
  }
  // A tampered consent record is refused, naming it: a link (here to Dee's declined consent, which
  // is not Bob's), a folder, a FIFO, not JSON, a wrong type.
  int variant = 0;
  const auto tampered = [&](const std::function<void(const fs::path&)>& damage) {
    const fs::path study =
        copyOf(dir.path() / "study", dir.path() / ("tampered" + std::to_string(++variant)));
    const fs::path consent = study / "bob" / "consent.json";
    fs::remove(consent);
    damage(consent);
    return analysisRefusal(study);
  };
  CHECK_THAT(tampered([&](const fs::path& c) {
               fs::create_symlink(c.parent_path().parent_path() / "dee" / "consent.json", c);
             }),
             Catch::Contains("bob/consent.json: is a symbolic link; expected the participant's "
                             "record, a regular file"));
  CHECK_THAT(tampered([](const fs::path& c) { fs::create_directory(c); }),
             Catch::Contains("bob/consent.json: is a folder"));
  CHECK_THAT(tampered([](const fs::path& c) { REQUIRE(::mkfifo(c.c_str(), 0600) == 0); }),
             Catch::Contains("bob/consent.json: is a FIFO"));
  CHECK_THAT(tampered([](const fs::path& c) { std::ofstream(c) << "agreed"; }),
             Catch::Contains("bob/consent.json:1:"));
  CHECK_THAT(tampered([](const fs::path& c) {
               std::ofstream(c) << R"({"agreed": 1, "timing": {}})";
             }),
             Catch::Contains("bob/consent.json: $.agreed: expected true or false"));
}

TEST_CASE("study analyze, export and serve read the allocation log alike: each damage refused",
          "[study][records][export]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  twoCompleteAndOneDeclined(dir.path() / "study", p);
  const fs::path good = dir.path() / "study" / kAllocationLogName;
  const std::vector<std::string> log = lines(good);
  REQUIRE(log.size() == 4);  // ann, bob, dee allocated; dee's dropout
  CHECK(analysisRefusal(dir.path() / "study") == "accepted");
  const TempDir otherStudy;
  Json otherDocument = protocolWithPages();
  otherDocument["seed"] = 12;
  allocateParticipant(otherStudy.path(), parseStudyProtocol(otherDocument, "q.json"), "ann");
  int variant = 0;
  // The study folder with its log replaced by `damage`; analyze's refusal of it, and of one of
  // its session folders (whose study folder's log is the one it was allocated in).
  const auto refusals = [&](const std::function<void(const fs::path&)>& damage) {
    const fs::path study =
        copyOf(dir.path() / "study", dir.path() / ("variant" + std::to_string(++variant)));
    fs::remove(study / kAllocationLogName);
    damage(study / kAllocationLogName);
    const std::string refused = analysisRefusal(study);
    CHECK(analysisRefusal(study / "ann") == refused);
    // serve refuses it at start, before any participant comes.
    const StudyProtocol protocol = p;
    CHECK(refusalOf([&] { OnlineStudy(protocol, study, {0, 1, 30, 30, std::string(64, 'b'), {}}); }) ==
          refused);
    return refused;
  };
  const auto text = [&](const std::string& content) {
    return refusals([&](const fs::path& file) { std::ofstream(file) << content; });
  };
  const std::string all = log[0] + "\n" + log[1] + "\n" + log[2] + "\n" + log[3] + "\n";
  CHECK(text(all + R"({"event": "allocated", "partic)") == "accepted");  // a torn last line: a crash
  CHECK_THAT(text(log[0] + "\n" + R"({"event": "allocated", "partic)" + "\n" + log[1] + "\n"),
             Catch::Contains("allocation.jsonl:2:"));
  CHECK_THAT(text(all + log[1] + "\n"),
             Catch::Contains("allocation.jsonl:5: allocates participant 'bob' or number 1 a "
                             "second time; expected each once"));
  Json number = Json::parse(log[1]);
  number["participant"] = "zed";
  CHECK_THAT(text(all + number.dump() + "\n"),
             Catch::Contains("allocation.jsonl:5: allocates participant 'zed' or number 1"));
  CHECK_THAT(text(all + R"({"event": "dropout", "participant": "nobody", "reason": "x"})" + "\n"),
             Catch::Contains("allocation.jsonl:5: records a dropout of 'nobody', who was never "
                             "allocated"));
  CHECK_THAT(text(readText(otherStudy.path() / kAllocationLogName)),
             Catch::Contains("allocation.jsonl: holds participants of another protocol "
                             "(participant 'ann'); expected one study per folder"));
  CHECK_THAT(refusals([&](const fs::path& file) { fs::create_symlink(good, file); }),
             Catch::Contains("allocation.jsonl: is a symbolic link; expected the study's "
                             "allocation log, a regular file"));
  CHECK_THAT(refusals([](const fs::path& file) { REQUIRE(::mkfifo(file.c_str(), 0600) == 0); }),
             Catch::Contains("allocation.jsonl: is a FIFO"));
  CHECK_THAT(refusals([](const fs::path& file) { fs::create_directory(file); }),
             Catch::Contains("allocation.jsonl: is a folder"));
  // A study folder without a log (simulated, or older than the log) is read as before.
  CHECK(refusals([](const fs::path&) {}) == "accepted");
}

TEST_CASE("generated ids are pseudonyms from the OS's random source", "[study][records]") {
  std::set<std::string> ids;
  for (int k = 0; k < 200; ++k) {
    const std::string id = generateParticipantId();
    REQUIRE(id.size() == 14);
    CHECK(id.rfind("p-", 0) == 0);
    CHECK(id.find_first_not_of("0123456789abcdefghjkmnpqrstvwxyz", 2) == std::string::npos);
    ids.insert(id);
  }
  CHECK(ids.size() == 200);
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  const std::string id = generateParticipantId();
  StudySession::open(dir.path() / id, p, id, StudySession::IdOrigin::Generated);
  CHECK(StudySession::read(dir.path() / id).idOrigin() == StudySession::IdOrigin::Generated);
}

TEST_CASE("the export carries status, demographics, decision and answer times, given ids hashed",
          "[study][records][export]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  {
    StudySession s = StudySession::open(dir.path() / "PROLIFIC123", p, "PROLIFIC123");
    start(s);
    finish(s);
    const std::string id = generateParticipantId();
    StudySession g = StudySession::open(dir.path() / id, p, id, StudySession::IdOrigin::Generated);
    start(g);
    const PlannedGame first = *g.next();
    g.saveGame(first, recordOf(first), Json::object());
    g.saveAnswers(first.index, {std::vector<double>(p.items.size(), 2), ""});
    g.recordDropout("withdrawn");
    StudySession::open(dir.path() / "dee", p, "dee").recordConsent(false, timing(100));
  }
  const std::vector<fs::path> folders = {dir.path()};
  const StudySessions study = readStudySessions(folders);
  // The declined session is counted, not analysed.
  CHECK(study.sessions.size() == 2);
  CHECK(study.flow.text() ==
        "3 sessions: 1 declined consent, 1 dropped out (withdrawn 1), 1 complete; analysed: the 2 "
        "with an answered game");
  const std::string csv = tidyExportCsv(study, false);
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK_THAT(line, Catch::StartsWith("participant,order_row,status,age_band,gaming,period,"));
  CHECK_THAT(line, Catch::Contains(",game_seed,decisions,decision_ms_median,"));
  CHECK_THAT(
      line, Catch::EndsWith(",item,answer,item_ms,questionnaire_shown_at,questionnaire_answered_at,"
                            "questionnaire_ms"));
  CHECK(csv.find("PROLIFIC123") == std::string::npos);  // given: hashed
  CHECK_THAT(csv, Catch::Contains(hashedParticipantId("pages", "PROLIFIC123") + ",") &&
                      Catch::Contains(",complete,25-34,weekly,"));
  CHECK_THAT(csv, Catch::Contains(",1,900,"));  // one decision, its median time
  CHECK_THAT(csv, Catch::Contains(",1200,2026-11-27T10:00:00.000Z,2026-11-27T10:00:01.250Z,5000"));
  CHECK_THAT(csv, Catch::Contains(",dropped out: withdrawn,25-34,weekly,"));
  CHECK_THAT(csv, Catch::Contains(",0,NA,"));  // the untimed game: no decisions
  CHECK_THAT(csv, Catch::Contains(",NA,NA,NA,NA\n"));
}

TEST_CASE("a simulated participant reads no pages: its session goes straight to the games",
          "[study][records]") {
  const TempDir dir;
  const StudyProtocol p = parseStudyProtocol(protocolWithPages(), "p.json");
  StudySimulation simulation;
  simulation.participants = 2;
  simulation.threads = 1;
  simulateStudy(p, dir.path() / "s", simulation);
  const std::vector<fs::path> folders = {dir.path() / "s"};
  const StudySessions study = readStudySessions(folders);
  CHECK(study.flow.text() == "2 sessions: 2 complete; analysed: the 2 with an answered game");
  for (const StudySession& s : study.sessions) {
    CHECK(s.simulated());
    CHECK(s.step() == SessionStep::Complete);
    CHECK_FALSE(s.consent());
  }
  // A person's session of the same protocol starts with the consent.
  CHECK(StudySession::open(dir.path() / "s" / "ann", p, "ann").step() == SessionStep::Consent);
}
