// The online study's API without HTTP (studies/online_study.h, what `ddalab serve` answers):
// routing and status codes, tokens, the protocol's id parameter, the creation limit and the
// researcher's endpoints, each refusal next to the request it refuses.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "experiments/sha256.h"
#include "studies/online_study.h"
#include "tests/support.h"

using namespace ddalab;
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
  // `paceMs` -1: the protocol's pace_ms (`protocolPaceMs`, or its default when -1 too).
  explicit Study(const Json& online = Json::object(), int creations = 30, int paceMs = 0,
                 int protocolPaceMs = -1)
      : protocol(onlineProtocol(online, protocolPaceMs)),
        study(protocol, dir.path() / "study", {paceMs, 1, creations, 30, kSecret, {}}) {}

  ApiReply call(const std::string& method, const std::string& path, const std::string& bearer = "",
                const std::string& body = "", std::map<std::string, std::string> query = {}) {
    return study.handle({method, path, std::move(query), body, "10.1.2.3", bearer});
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
    CHECK(s.study.handle({"POST", "/api/v1/sessions", {}, "", "10.9.9.9", ""}).status == 201);
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
  REQUIRE(study.handle({"POST", "/api/v1/sessions", {{"participant", "ann"}}, "", "10.0.0.1", ""})
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
