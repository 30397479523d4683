// libFuzzer target: the online study's JSON API (app/serve/study_api.h over
// studies/online_study.h, what `ddalab serve` answers) driven by a sequence of requests decoded
// from the fuzzer's bytes. Each input gets a fresh study folder (tests/fuzz/online-protocol.json,
// pace 0) and one participant's token; each request is one op byte and its operands:
//   op % 10 = 0  a valid step (the current screen answered as a participant would: the session
//                walks forward through consent, demographics, instructions, games, questionnaires)
//             1  valid steps until the screen's kind changes (finishes a game)
//             2  GET /api/v1/session
//             3..7  POST /api/v1/session/{consent,demographics,read,action,answers}, body = a chunk
//             8  any method and path (chunk), a query (chunk), a body (chunk), a token
//             9  the researcher's progress or archive, with the secret
// A chunk is a 2-byte little-endian length (cut to 16 KiB, httplib's limit) and that many bytes.
// Refusals (4xx) are fine; a 5xx, a reply that is not a JSON object, a JSON body that cannot be
// written (invalid UTF-8), a valid step refused, or a sanitizer report is a finding.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "app/serve/study_api.h"
#include "studies/online_study.h"

namespace fs = std::filesystem;
using ddalab::Json;
using ddalab::OnlineStudy;
using ddalab::serve::ApiReply;
using ddalab::serve::ApiRequest;
using ddalab::serve::StudyApi;

namespace {

constexpr size_t kMaxBody = 16 * 1024;
const std::string kSecret(64, 'a');

std::string lastError;  // the study's last "error: ..." line (what a 500 hides)

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %.2000s %.2000s\n", what.c_str(), lastError.c_str());
  std::abort();
}

const ddalab::StudyProtocol& protocol() {
  static const ddalab::StudyProtocol p = ddalab::loadStudyProtocol(DDALAB_FUZZ_PROTOCOL);
  return p;
}

// The fuzzer's bytes, read front to back; zeros once they run out.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::string chunk() {
    size_t n = byte();
    n |= static_cast<size_t>(byte()) << 8;
    n = std::min({n, kMaxBody, size_ - std::min(at_, size_)});
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// A study folder of its own, removed afterwards (on tmpfs when there is one: sessions fsync).
struct Folder {
  fs::path path;
  Folder() {
    const fs::path base =
        fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string pattern = (base / "fuzz-online-XXXXXX").string();
    if (!mkdtemp(pattern.data())) finding("mkdtemp failed");
    path = pattern;
  }
  ~Folder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// The reply, checked: 2xx or 4xx, a JSON object that can be written. FUZZ_ONLINE_TRACE=1 prints
// each request (to see what an input does when replayed).
ApiReply checked(const ApiRequest& request, const ApiReply& reply) {
  const std::string what =
      request.method + " " + request.path + ": " + std::to_string(reply.status);
  static const bool trace = std::getenv("FUZZ_ONLINE_TRACE") != nullptr;
  if (trace)
    std::fprintf(
        stderr, "%s %s\n", what.c_str(),
        reply.body.dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 120).c_str());
  if (reply.status < 200 || reply.status >= 500 || (reply.status >= 300 && reply.status < 400))
    finding(what + " " + reply.body.dump(-1, ' ', false, Json::error_handler_t::replace));
  if (reply.contentType == "application/json") {
    if (!reply.body.is_object()) finding(what + ": not a JSON object");
    try {
      (void)reply.body.dump();
    } catch (const std::exception& e) {
      finding(what + ": the body cannot be written: " + e.what());
    }
  }
  return reply;
}

struct Driver {
  StudyApi& api;
  Bytes& in;
  std::string token;

  ApiReply call(const std::string& method, const std::string& path, const std::string& body = "",
                const std::string& bearer = "") {
    const ApiRequest request{method, path, {}, body, "127.0.0.1", bearer};
    return checked(request, api.handle(request));
  }
  ApiReply session(const std::string& method, const std::string& path,
                   const std::string& body = "") {
    return call(method, path, body, token);
  }

  // The screen once the AI and the environment have moved (pace 0: soon; the bound only makes a
  // game that never comes back a finding, however loaded the machine).
  Json settled() {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < limit) {
      Json screen = session("GET", "/api/v1/session").body;
      if (screen.value("kind", "") != "game" || !screen.value("waiting", false)) return screen;
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    finding("the game did not come back to the person");
  }

  // Answers the current screen validly, each choice `choose()`; its kind ("" when ended).
  template <typename Choose>
  std::string step(Choose choose) {
    const Json screen = settled();
    const std::string kind = screen.value("kind", "");
    std::string submission, body = "{}";
    if (kind == "consent") {
      submission = "consent", body = Json{{"agree", choose() % 8 != 0}}.dump();
    } else if (kind == "demographics") {
      Json answers = Json::object();
      for (const Json& item : screen["items"])
        answers[item["key"].get<std::string>()] =
            item["options"][choose() % item["options"].size()];
      submission = "demographics", body = Json{{"answers", answers}}.dump();
    } else if (kind == "instructions" || kind == "debrief") {
      submission = "read";
    } else if (kind == "game") {
      const Json& legal = screen["board"]["legal"];
      submission = "action",
      body = Json{{"action", legal[choose() % legal.size()]["action"]}}.dump();
    } else if (kind == "questionnaire") {
      Json answers = Json::object(), times = Json::object();
      for (const Json& item : screen["items"]) {
        const int low = item["min"], high = item["max"];
        answers[item["key"].get<std::string>()] = low + choose() % (high - low + 1);
        times[item["key"].get<std::string>()] = choose();
      }
      submission = "answers", body = Json{{"answers", answers}, {"item_ms", times}}.dump();
    } else {
      return "";
    }
    const ApiReply reply = session("POST", "/api/v1/session/" + submission, body);
    if (reply.status != 200) finding("a valid " + submission + " refused: " + reply.body.dump());
    return kind;
  }

  void request() {
    static const char* submissions[] = {"consent", "demographics", "read", "action", "answers"};
    static const char* methods[] = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"};
    const uint8_t op = in.byte();
    switch (op % 10) {
      case 0:
        step([this] { return in.byte(); });
        break;
      case 1: {  // choices from a generator seeded by one byte (not the input: it holds requests)
        uint32_t state = in.byte() + 1;
        const auto choose = [&state] { return (state = state * 1664525u + 1013904223u) >> 24; };
        const std::string first = settled().value("kind", "");
        for (int i = 0; i < 2000 && !first.empty(); ++i) {
          if (step(choose).empty() || settled().value("kind", "") != first) break;
        }
        break;
      }
      case 2:
        session("GET", "/api/v1/session");
        break;
      case 3:
      case 4:
      case 5:
      case 6:
      case 7:
        session("POST", std::string("/api/v1/session/") + submissions[op % 10 - 3], in.chunk());
        break;
      case 8: {
        ApiRequest request{methods[in.byte() % 7], in.chunk(), {}, "", "10.0.0.1", ""};
        const std::string key = in.chunk();
        request.query[key] = in.chunk();
        request.body = in.chunk();
        const uint8_t who = in.byte() % 4;
        request.bearer = who == 0 ? token : who == 1 ? kSecret : who == 2 ? in.chunk() : "";
        checked(request, api.handle(request));
        break;
      }
      case 9:
        call("GET", in.byte() % 2 ? "/api/v1/admin/progress" : "/api/v1/admin/archive", "",
             kSecret);
        break;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const Folder folder;
  lastError.clear();
  const auto keepError = [](const std::string& line) {
    if (line.starts_with("error: ")) lastError = line;
  };
  OnlineStudy study(protocol(), folder.path, {0, 1, 1000000, 30, kSecret, keepError});
  StudyApi api(study);
  ApiRequest create{"POST", "/api/v1/sessions", {{"participant", "fuzz-1"}}, "", "127.0.0.1", ""};
  const ApiReply created = checked(create, api.handle(create));
  if (created.status != 201) finding("no session: " + created.body.dump());
  Driver driver{api, in, created.body["token"]};
  for (int requests = 0; !in.empty() && requests < 200; ++requests) driver.request();
  return 0;
}
