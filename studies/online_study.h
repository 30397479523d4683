#pragma once
// An online study (`ddalab serve`, docs/web-api.md) without its transport: the sessions of one
// study folder, their tokens, the limit on session creation, the researcher's progress and
// archive, the idle-session reaper, and the JSON API v1 as a function of a request. The HTTP
// layer (app/cli/serve_command.cpp) only turns HTTP into ApiRequest and ApiReply into HTTP; a
// fuzzer or a test calls handle() directly.
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "studies/online_session.h"
#include "studies/request_latency.h"
#include "studies/study.h"

namespace ddalab {

// One API request, as any transport gives it.
struct ApiRequest {
  std::string method;                        // "GET", "POST", ...
  std::string path;                          // "/api/v1/session/action" (decoded, no query)
  std::map<std::string, std::string> query;  // the query's parameters (the first of a repeated one)
  std::string body;                          // the body's bytes ("" none)
  std::string client;                        // the client's address (for the creation limit)
  std::string bearer;                        // bearerToken() of its Authorization header
};

// The answer: a status and a JSON body, or (contentType not JSON) the bytes of a download.
struct ApiReply {
  int status = 200;
  Json body;
  std::string bytes;  // the download's content (the study archive)
  std::string contentType = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // besides Cache-Control: no-store
};

// The JSON error every refusal carries: {"error": message, "path": JSON path or parameter}.
ApiReply apiError(int status, const std::string& message, const std::string& path = "");
// The 64 hex digits of an "Authorization: Bearer TOKEN" header's value; "" for any other value.
std::string bearerToken(const std::string& authorization);
// 256 bits from the operating system's random source, as 64 hexadecimal digits.
std::string newToken();

struct OnlineStudySettings {
  int paceMs = -1;              // between the AI's shown moves; -1: the protocol's pace_ms
  int threads = 2;              // the decision pool's
  int creationsPerMinute = 30;  // sessions one client address may create a minute
  double timeoutMinutes = 30;   // idle this long: a dropout (the protocol's online.timeout_minutes)
  std::string adminSecret;      // 64 hex digits: the researcher's bearer token
  std::function<void(const std::string&)> progress;  // progress lines (none when empty)
  const LatencyTable* latency = nullptr;  // the transport's request timing, shown on /admin
};

class OnlineStudy {
 public:
  // Serves `protocol`'s sessions in `dir` (created; its token file read, a torn last record
  // dropped). InputError naming `dir` when it is not a folder, or naming the token file's line
  // for any other damaged record. `protocol` must outlive the study.
  OnlineStudy(const StudyProtocol& protocol, std::filesystem::path dir,
              OnlineStudySettings settings);
  ~OnlineStudy();  // stops the reaper; sessions give up their decisions in flight
  OnlineStudy(const OnlineStudy&) = delete;
  OnlineStudy& operator=(const OnlineStudy&) = delete;

  // The API's answer to `request` (docs/web-api.md, "The endpoints"); never throws: bad input is
  // 400, a wrong step 409, a record that cannot be written 503 (nothing applied; logged),
  // anything unexpected 500 (logged as a progress line). Thread-safe.
  ApiReply handle(const ApiRequest& request);
  // Starts a thread that records idle sessions as dropouts (those this server has open, and,
  // once a minute, those an earlier server left on disk); it stops with the study.
  void startReaper();
  // One pass of the reaper over the sessions this server has open.
  void dropIdle();
  // Sessions left open on disk by an earlier server whose newest file is older than the timeout.
  void dropIdleOnDisk();
  // The researcher's view of the study folder (GET /api/v1/admin/progress).
  Json progress();

 private:
  class Sessions;
  class CreationLimit;
  ApiReply route(const ApiRequest& request);
  ApiReply create(const ApiRequest& request);
  ApiReply withSession(const ApiRequest& request, const std::string& action);
  ApiReply admin(const ApiRequest& request);
  ApiReply archive(const ApiRequest& request);
  void print(const std::string& line) const;

  const StudyProtocol& protocol_;
  std::filesystem::path dir_;
  OnlineStudySettings settings_;
  std::string adminHash_;  // SHA-256 of the admin secret
  Json completion_;        // {"code", "redirect"} from the protocol
  DecisionPool pool_;      // before the sessions: they use it until they are destroyed
  std::unique_ptr<Sessions> sessions_;
  std::unique_ptr<CreationLimit> limit_;
  std::atomic<bool> stopping_{false};
  std::thread reaper_;
};

// The study folder as a POSIX tar archive (ustar) in memory: every regular file under `dir` but
// the token hashes, named "study/<relative path>"; symbolic links and other special files are
// left out, and so is a path too long for ustar's 100 + 155 characters.
std::string studyArchive(const std::filesystem::path& dir);

}  // namespace ddalab
