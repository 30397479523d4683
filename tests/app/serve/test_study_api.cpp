// The online study's API without a socket (app/serve/study_api.h over studies/online_study.h,
// what `ddalab serve` answers): routing and status codes, tokens, the protocol's id parameter,
// the creation limit and the researcher's endpoints, each refusal next to the request it refuses.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <latch>
#include <mutex>
#include <thread>

#include "app/serve/study_api.h"
#include "core/sha256.h"
#include "studies/online_study.h"
#include "studies/tar_archive.h"
#include "tests/support.h"

using namespace ddalab;
using namespace ddalab::serve;
namespace fs = std::filesystem;

namespace {

const std::string kSecret(64, 'b');

StudyProtocol onlineProtocol(const Json& online, int paceMs = -1) {
  Json p = Json::parse(R"({
    "format": "ddalab-study/1", "name": "online", "seed": 5,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "a", "environment": {"id": "e-random"}},
                   {"name": "b", "environment": {"id": "e-random"}}],
    "consent": {"text": "You play two games of Ludo."},
    "completion": {"code": "DONE-1"}})");
  p["online"] = online;
  if (paceMs >= 0) p["pace_ms"] = paceMs;
  return parseStudyProtocol(p, "p.json");
}

struct Study {
  TempDir dir;
  StudyProtocol protocol;
  OnlineStudy study;
  StudyApi api{study};
  // `paceMs` -1: the protocol's pace_ms (`protocolPaceMs`, or its default when -1 too).
  explicit Study(const Json& online = Json::object(), int creations = 30, int paceMs = 0,
                 int protocolPaceMs = -1)
      : protocol(onlineProtocol(online, protocolPaceMs)),
        study(protocol, dir.path() / "study", {paceMs, 1, creations, 30, kSecret, {}}) {}

  ApiReply call(const std::string& method, const std::string& path, const std::string& bearer = "",
                const std::string& body = "", std::map<std::string, std::string> query = {}) {
    return api.handle({method, path, std::move(query), body, "10.1.2.3", bearer});
  }
  std::string create(const std::string& participant) {
    const ApiReply r = call("POST", "/api/v1/sessions", "", "", {{"participant", participant}});
    REQUIRE(r.status == 201);
    return r.body.at("token");
  }
  size_t folders() const {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir.path() / "study")) n += e.is_directory();
    return n;
  }
};

}  // namespace

TEST_CASE("the online API routes each path and method to its endpoint or refuses it",
          "[online][api]") {
  Study s;
  const std::string token = s.create("ann");
  CHECK(token.size() == 64);
  CHECK(s.call("GET", "/api/v1/session", token).body.at("kind") == "consent");
  CHECK(s.call("POST", "/api/v1/session", token).status == 405);
  CHECK(s.call("DELETE", "/api/v1/session", token).status == 405);
  CHECK(s.call("GET", "/api/v1/sessions").status == 405);
  CHECK(s.call("PUT", "/api/v1/sessions").status == 405);
  CHECK(s.call("GET", "/api/v1/session/consent", token).status == 405);
  CHECK(s.call("POST", "/api/v1/session/unknown", token).status == 404);
  CHECK(s.call("GET", "/api/v2/session", token).status == 404);
  CHECK(s.call("GET", "/api/v1/session/../sessions", token).status == 404);
  CHECK(s.call("GET", "/index.html").status == 404);  // pages are the transport's
  const ApiReply unknown = s.call("GET", "/api/v1/" + std::string(5000, 'x'));
  CHECK(unknown.status == 404);
  CHECK(unknown.body.at("path").get<std::string>().size() <= 210);
  // A path that is not UTF-8 (or cut inside a character) is refused with a JSON that can be
  // written (it was a 500: nlohmann's dump threw on the echoed bytes).
  for (const std::string& bytes :
       {std::string("\xc3"), std::string("/v1/") + std::string(300, '\xe2')}) {
    const ApiReply odd = s.call("GET", "/api/" + bytes);
    CHECK(odd.status == 404);
    CHECK_NOTHROW(odd.body.dump());
  }
  // Tokens: none, made up, another's.
  CHECK(s.call("GET", "/api/v1/session").status == 401);
  CHECK(s.call("GET", "/api/v1/session", std::string(64, '0')).status == 401);
  CHECK(s.call("POST", "/api/v1/session/consent", kSecret, R"({"agree": true})").status == 401);
  // Submissions: a bad body 400 (with its JSON path), the wrong step 409, a valid one 200.
  const ApiReply bad = s.call("POST", "/api/v1/session/consent", token, R"({"agree": "yes"})");
  CHECK(bad.status == 400);
  CHECK(bad.body.at("path") == "agree");
  CHECK(s.call("POST", "/api/v1/session/consent", token, R"({"agree": tr)").status == 400);
  CHECK(s.call("POST", "/api/v1/session/action", token, R"({"action": 1})").status == 409);
  CHECK(s.call("POST", "/api/v1/session/consent", token, R"({"agree": true})").status == 200);
  CHECK(s.call("GET", "/api/v1/session", token).body.at("kind") == "game");
  // Another participant's token opens only their session.
  const std::string other = s.create("bob");
  CHECK(s.call("GET", "/api/v1/session", other).body.at("kind") == "consent");
  CHECK(s.folders() == 2);
}

TEST_CASE("the online API's sessions: created, resumed, ids checked, creations limited",
          "[online][api]") {
  SECTION("the protocol names the id parameter") {
    Study s(Json{{"id_param", "PROLIFIC_PID"}});
    const auto create = [&](std::map<std::string, std::string> query) {
      return s.call("POST", "/api/v1/sessions", "", "", std::move(query));
    };
    const ApiReply given = create({{"PROLIFIC_PID", "P-17"}});
    CHECK(given.status == 201);
    CHECK_FALSE(given.body.at("resumed").get<bool>());
    const ApiReply again = create({{"PROLIFIC_PID", "P-17"}});
    CHECK(again.status == 200);
    CHECK(again.body.at("resumed").get<bool>());
    CHECK(again.body.at("token") != given.body.at("token"));
    CHECK(s.call("GET", "/api/v1/session", given.body.at("token")).status == 200);  // both open it
    CHECK(s.call("GET", "/api/v1/session", again.body.at("token")).status == 200);
    // "participant" is not this protocol's parameter: a generated id, a new session each time.
    CHECK(create({{"participant", "P-17"}}).status == 201);
    CHECK(create({{"participant", "P-17"}}).status == 201);
    CHECK(s.folders() == 3);
    const std::vector<std::string> hostile = {"../etc", "",    std::string(101, 'a'),
                                              "a b",    "a/b", "\xc3\xa9"};
    for (const std::string& id : hostile) {
      const ApiReply refused = create({{"PROLIFIC_PID", id}});
      CHECK(refused.status == 400);
      CHECK(refused.body.at("path") == "PROLIFIC_PID");
    }
    CHECK(create({{"PROLIFIC_PID", std::string(100, 'a')}}).status == 201);
    CHECK(s.folders() == 4);
  }
  SECTION("at most creationsPerMinute sessions an address") {
    Study s(Json::object(), 2);
    CHECK(s.call("POST", "/api/v1/sessions").status == 201);
    CHECK(s.call("POST", "/api/v1/sessions").status == 201);
    CHECK(s.call("POST", "/api/v1/sessions").status == 429);
    CHECK(s.api.handle({"POST", "/api/v1/sessions", {}, "", "10.9.9.9", ""}).status == 201);
    CHECK(s.folders() == 3);
  }
}

TEST_CASE("the online API's researcher endpoints need the admin secret", "[online][api]") {
  Study s;
  const std::string token = s.create("ann");
  for (const char* path : {"/api/v1/admin/progress", "/api/v1/admin/archive"}) {
    CHECK(s.call("GET", path).status == 401);
    CHECK(s.call("GET", path, token).status == 401);
    CHECK(s.call("GET", path, std::string(64, 'c')).status == 401);
    CHECK(s.call("POST", path, kSecret).status == 405);
  }
  const ApiReply progress = s.call("GET", "/api/v1/admin/progress", kSecret);
  CHECK(progress.status == 200);
  CHECK(progress.body.at("participants").size() == 1);
  CHECK(progress.body.at("participants")[0].at("participant") == "ann");
  CHECK(progress.body.dump().find(token) == std::string::npos);
  const ApiReply archive = s.call("GET", "/api/v1/admin/archive", kSecret);
  CHECK(archive.status == 200);
  CHECK(archive.contentType == "application/x-tar");
  CHECK(archive.bytes.substr(257, 5) == "ustar");
  CHECK(archive.bytes.find("session.json") != std::string::npos);
  CHECK(archive.bytes.find("serve-tokens") == std::string::npos);
  CHECK(archive.bytes.find(sha256Hex(token)) == std::string::npos);
}

TEST_CASE("bearerToken takes only 'Bearer ' and 64 characters", "[online][api]") {
  const std::string token(64, 'f');
  CHECK(bearerToken("Bearer " + token) == token);
  CHECK(bearerToken("Bearer " + token.substr(1)).empty());
  CHECK(bearerToken("Bearer " + token + "0").empty());
  CHECK(bearerToken("bearer " + token).empty());
  CHECK(bearerToken("Basic " + token).empty());
  CHECK(bearerToken("").empty());
  CHECK(newToken().size() == 64);
  CHECK(newToken() != newToken());
}

TEST_CASE("the endpoint table names each endpoint once, as the latency table times it",
          "[online][api]") {
  std::vector<std::string> names;
  for (const Endpoint& endpoint : kEndpoints) names.push_back(endpoint.name());
  const std::vector<std::string> expected = {
      "POST /api/v1/sessions",        "GET /api/v1/session",
      "POST /api/v1/session/consent", "POST /api/v1/session/demographics",
      "POST /api/v1/session/read",    "POST /api/v1/session/action",
      "POST /api/v1/session/answers", "GET /api/v1/admin/progress",
      "GET /api/v1/admin/archive"};
  CHECK(names == expected);
  for (const Endpoint& endpoint : kEndpoints)
    CHECK((endpoint.operation == Operation::Submit) == !endpoint.submission.empty());
}

TEST_CASE("the online study's typed operations refuse with typed errors, without HTTP",
          "[online][api]") {
  TempDir dir;
  const StudyProtocol protocol = onlineProtocol(Json{{"id_param", "PROLIFIC_PID"}});
  OnlineStudy study(protocol, dir.path() / "study", {0, 1, 2, 30, kSecret, {}});
  CHECK(study.participantIdParameter() == "PROLIFIC_PID");
  const auto refusal = [](const std::function<void()>& operation) {
    try {
      operation();
    } catch (const StudyRefusal& e) {
      return e.reason();
    }
    FAIL("not refused");
    return Refusal::UnknownToken;
  };
  const SessionStart started = study.startSession(std::string("P-1"), "10.0.0.1");
  CHECK_FALSE(started.resumed);
  CHECK(study.startSession(std::string("P-1"), "10.0.0.1").resumed);
  CHECK(refusal([&] { study.startSession(std::nullopt, "10.0.0.1"); }) == Refusal::TooManySessions);
  try {
    study.startSession(std::string("a/b"), "10.0.0.2");
    FAIL("accepted a/b");
  } catch (const InputError& e) {
    CHECK(e.path() == "PROLIFIC_PID");
  }
  const auto session = study.session(started.token);
  CHECK(study.screen(*session).at("kind") == "consent");
  study.submit(*session, "consent", Json{{"agree", true}});
  CHECK(study.screen(*session).at("kind") == "game");
  CHECK(refusal([&] { study.session(std::string(64, '0')); }) == Refusal::UnknownToken);
  CHECK(refusal([&] { study.researcherProgress(started.token); }) == Refusal::NotResearcher);
  CHECK(refusal([&] { study.researcherArchive(""); }) == Refusal::NotResearcher);
  CHECK(study.researcherProgress(kSecret).at("participants").size() == 1);
  CHECK(study.researcherArchive(kSecret).substr(257, 5) == "ustar");
}

TEST_CASE("a tar archive: ustar headers, contents padded to blocks, two empty blocks at the end",
          "[online][api]") {
  TarArchive tar;
  CHECK(tar.add("study/a.txt", "hello", 0));
  CHECK_FALSE(tar.add(std::string(TarArchive::kMaxName + 1, 'x'), "left out"));
  CHECK(tar.add(std::string(TarArchive::kMaxName, 'y'), std::string(512, 'z'), 0));
  const std::string bytes = tar.finish();
  REQUIRE(bytes.size() == 512 + 512 + 512 + 512 + 1024);
  CHECK(bytes.substr(0, 12) == std::string("study/a.txt") + '\0');
  CHECK(bytes.substr(124, 12) == std::string("00000000005") + '\0');  // the size in octal
  CHECK(bytes.substr(257, 6) == std::string("ustar") + '\0');
  unsigned sum = 0;  // the checksum: every header byte, its own field counted as spaces
  for (size_t i = 0; i < 512; ++i)
    sum += i >= 148 && i < 156 ? ' ' : static_cast<unsigned char>(bytes[i]);
  CHECK(std::stoul(bytes.substr(148, 6), nullptr, 8) == sum);
  CHECK(bytes.substr(512, 6) == std::string("hello") + '\0');
  CHECK(bytes.substr(1024, TarArchive::kMaxName) == std::string(TarArchive::kMaxName, 'y'));
  CHECK(bytes.substr(1536, 512) == std::string(512, 'z'));
  CHECK(bytes.substr(2048) == std::string(1024, '\0'));
  CHECK(tar.finish() == std::string(1024, '\0'));  // empty again
}

TEST_CASE("the AI's and the environment's moves are shown at the protocol's pace",
          "[online][api]") {
  // pace_ms 10000: half a second after the consent the first roll is still being held back (at
  // pace 0 it shows within milliseconds: an e-random roll).
  Study s(Json::object(), 30, -1, 10000);
  const std::string token = s.create("ann");
  REQUIRE(s.call("POST", "/api/v1/session/consent", token, R"({"agree": true})").status == 200);
  for (int poll = 0; poll < 10; ++poll) {
    const ApiReply screen = s.call("GET", "/api/v1/session", token);
    REQUIRE(screen.body.at("kind") == "game");
    CHECK(screen.body.at("waiting") == true);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // The server's override (tests, --pace-ms 0) wins over the protocol.
  Study fast(Json::object(), 30, 0, 10000);
  const std::string other = fast.create("bob");
  REQUIRE(fast.call("POST", "/api/v1/session/consent", other, R"({"agree": true})").status == 200);
  bool turn = false;
  for (int poll = 0; poll < 400 && !turn; ++poll) {
    turn = fast.call("GET", "/api/v1/session", other).body.at("waiting") == false;
    if (!turn) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  CHECK(turn);
}

TEST_CASE("the idle check survives the study folder deleted under the server", "[online][api]") {
  // It threw from the reaper thread: std::terminate ended the server.
  TempDir dir;
  const StudyProtocol protocol = onlineProtocol(Json::object());
  std::mutex mutex;
  std::vector<std::string> lines;
  OnlineStudySettings settings{0, 1, 30, 0.005, kSecret, [&](const std::string& line) {
                                 std::lock_guard lock(mutex);
                                 lines.push_back(line);
                               }};
  OnlineStudy study(protocol, dir.path() / "study", settings);
  StudyApi api(study);
  REQUIRE(api.handle({"POST", "/api/v1/sessions", {{"participant", "ann"}}, "", "10.0.0.1", ""})
              .status == 201);
  study.startReaper();
  fs::remove_all(dir.path() / "study");
  // Waits for the report (the reaper passes every 0.2 s; the bound only ends a failing test).
  const auto reported = [&] {
    std::lock_guard lock(mutex);
    return std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return line.find("idle check failed") != std::string::npos;
    });
  };
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!reported() && std::chrono::steady_clock::now() < limit)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(reported());
}

TEST_CASE("simultaneous creations of one participant id: one creates it, the others resume",
          "[online][api]") {
  // Each checked whether the folder existed before any had created it: 20 got 201
  // "resumed": false and 20 "started" lines were printed, for one folder.
  TempDir dir;
  const StudyProtocol protocol = onlineProtocol(Json{{"id_param", "PROLIFIC_PID"}});
  std::mutex mutex;
  std::vector<std::string> lines;
  OnlineStudySettings settings{0, 1, 100, 30, kSecret, [&](const std::string& line) {
                                 std::lock_guard lock(mutex);
                                 lines.push_back(line);
                               }};
  OnlineStudy study(protocol, dir.path() / "study", settings);
  StudyApi api(study);
  constexpr int kRequests = 20;
  std::vector<ApiReply> replies(kRequests);
  {
    std::latch start(kRequests);  // all threads ask at once
    std::vector<std::jthread> threads;
    for (int i = 0; i < kRequests; ++i)
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        replies[static_cast<size_t>(i)] = api.handle(
            {"POST", "/api/v1/sessions", {{"PROLIFIC_PID", "P-same"}}, "", "10.0.0.1", ""});
      });
  }
  int created = 0, resumed = 0;
  for (const ApiReply& r : replies) {
    created += r.status == 201 && r.body.at("resumed") == false;
    resumed += r.status == 200 && r.body.at("resumed") == true;
  }
  CHECK(created == 1);
  CHECK(resumed == kRequests - 1);
  CHECK(std::count(lines.begin(), lines.end(), "started P-same") == 1);
  for (const ApiReply& r : replies)  // every token opens the one session
    CHECK(api.handle({"GET", "/api/v1/session", {}, "", "10.0.0.1", r.body.at("token")}).status ==
          200);
}

TEST_CASE(
    "a damaged token file is refused at start naming its line, and only a torn last line is cut",
    "[online][api]") {
  // A damaged middle line ended the reading there and cut the file: every later participant's
  // token was lost on restart (3 of 4 got 401).
  TempDir dir;
  const StudyProtocol protocol = onlineProtocol(Json::object());
  const fs::path folder = dir.path() / "study", file = folder / "serve-tokens.jsonl";
  const OnlineStudySettings settings{0, 1, 30, 30, kSecret, {}};
  std::vector<std::string> tokens;
  {
    OnlineStudy study(protocol, folder, settings);
    StudyApi api(study);
    for (const char* who : {"ann", "bob", "cid", "dan"})
      tokens.push_back(
          api.handle({"POST", "/api/v1/sessions", {{"participant", who}}, "", "10.0.0.1", ""})
              .body.at("token"));
  }
  const std::string kept = readText(file);
  const size_t second = kept.find('\n') + 1, third = kept.find('\n', second) + 1;
  REQUIRE(std::count(kept.begin(), kept.end(), '\n') == 4);
  const std::string badLine = kept.substr(0, second) + "{\"sha256\": tr" + kept.substr(third - 1);
  const std::string badHash = kept.substr(0, second) +
                              R"({"sha256": "abc", "participant": "bob"})" + kept.substr(third - 1);
  const std::string badId = kept.substr(0, second) + "{\"sha256\": \"" + std::string(64, 'a') +
                            R"(", "participant": "../x"})" + kept.substr(third - 1);
  for (const auto& [damaged, expected] :
       {std::pair{badLine, file.string() + ": line 2"},
        std::pair{badHash, file.string() + ": line 2: $.sha256"},
        std::pair{badId, file.string() + ": line 2: $.participant"},
        std::pair{kept + "\n{\"sha2", file.string() + ": line 5"}}) {  // an empty middle line
    std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged;
    try {
      OnlineStudy study(protocol, folder, settings);
      FAIL("accepted: " << damaged);
    } catch (const InputError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith(expected));
    }
    CHECK(readText(file) == damaged);  // nothing cut
  }
  // A kill while appending tears the last line (no newline): dropped, every token still opens.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << kept << "{\"sha256\": \"0a";
  OnlineStudy study(protocol, folder, settings);
  StudyApi api(study);
  CHECK(readText(file) == kept);
  for (const std::string& token : tokens)
    CHECK(api.handle({"GET", "/api/v1/session", {}, "", "10.0.0.1", token}).status == 200);
}

namespace {

// Writes past `bytes` of any file fail with EFBIG (as on a full disk) while this lives.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);  // the write fails instead of killing the process
    const rlimit limit{bytes, old_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, previous_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*previous_)(int) = SIG_DFL;
};

// The screen once it is the person's turn (or not a game).
Json personsTurn(Study& s, const std::string& token) {
  for (int poll = 0; poll < 20000; ++poll) {
    Json screen = s.call("GET", "/api/v1/session", token).body;
    if (screen.at("kind") != "game" || screen.at("waiting") == false) return screen;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL("the person's turn never came");
  return nullptr;
}

}  // namespace

TEST_CASE("a move that cannot be written is not applied: 503, and the retry is kept once",
          "[online][api]") {
  // On a full disk the move was applied, the participant told 500, and the board moved on.
  Study s;
  const std::string token = s.create("ann");
  REQUIRE(s.call("POST", "/api/v1/session/consent", token, R"({"agree": true})").status == 200);
  const fs::path folder = [&] {
    for (const auto& e : fs::directory_iterator(s.dir.path() / "study"))
      if (e.is_directory()) return e.path();
    return fs::path();
  }();
  const fs::path moves = folder / "moves-01.jsonl";
  const auto move = [&](const Json& screen) {
    REQUIRE(screen.at("kind") == "game");
    const Json action = screen.at("board").at("legal").at(0).at("action");
    return s.call("POST", "/api/v1/session/action", token, Json{{"action", action}}.dump());
  };
  REQUIRE(move(personsTurn(s, token)).status == 200);  // the moves file holds one line
  const std::string kept = readText(moves);
  REQUIRE(std::count(kept.begin(), kept.end(), '\n') == 1);
  const Json before = personsTurn(s, token);
  ApiReply refused;
  {
    FileSizeLimit full(kept.size() + 5);  // the next line is written in part, then fails
    refused = move(before);
  }
  CHECK(refused.status == 503);
  CHECK(
      refused.body.at("error").get<std::string>().starts_with("the study cannot record right now"));
  CHECK(readText(moves) == kept);          // no partial line left to append after
  CHECK(personsTurn(s, token) == before);  // not applied: the same turn
  REQUIRE(move(before).status == 200);     // the page's retry
  const std::string now = readText(moves);
  CHECK(std::count(now.begin(), now.end(), '\n') == 2);
  CHECK(now.starts_with(kept));
  CHECK(Json::parse(now.substr(kept.size())).at("action") ==
        before.at("board").at("legal").at(0).at("action"));
}

TEST_CASE("a body with a NUL byte and bytes after the object is refused", "[online][api]") {
  // nlohmann's parser stopped at the NUL: {"agree": true} NUL garbage was a consent.
  Study s;
  const std::string token = s.create("ann");
  const ApiReply refused = s.call("POST", "/api/v1/session/consent", token,
                                  std::string("{\"agree\": true}\0garbage", 23));
  CHECK(refused.status == 400);
  CHECK_THAT(refused.body.at("error").get<std::string>(), Catch::Matchers::Contains("NUL"));
  CHECK(s.call("GET", "/api/v1/session", token).body.at("kind") == "consent");
}

TEST_CASE("a study folder path naming a file or a FIFO is refused naming it", "[online][api]") {
  TempDir dir;
  const StudyProtocol protocol = onlineProtocol(Json::object());
  const fs::path file = dir.write("file", "x"), fifo = dir.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const auto& [path, kind] : {std::pair{file, "is a file"}, std::pair{fifo, "is a FIFO"},
                                   std::pair{file / "study", "cannot be created"}}) {
    try {
      OnlineStudy study(protocol, path, {0, 1, 30, 30, kSecret, {}});
      FAIL("accepted " << path);
    } catch (const InputError& e) {
      CHECK(e.path() == path.string());
      CHECK_THAT(e.message(), Catch::Matchers::StartsWith(kind));
    }
  }
}
