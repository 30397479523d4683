#pragma once
// The JSON API v1 of an online study (docs/web-api.md, "The endpoints") as a function of a
// request, without a socket: the endpoint table (routes and methods), status codes, the bearer
// token of the Authorization header, the JSON replies. It turns each request into one of
// OnlineStudy's typed operations and its result or typed error into a reply. The HTTP server
// (app/serve/server.h) only turns HTTP into ApiRequest and ApiReply into HTTP; a fuzzer or a test
// calls StudyApi::handle() directly.
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/serve/request_latency.h"
#include "studies/online_study.h"

namespace ddalab::serve {

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

// What an endpoint asks of the study.
enum class Operation { StartSession, Screen, Submit, Progress, Archive };

// One endpoint of the API: its method and path, the operation, and for Submit the submission's
// kind (OnlineSession::submit).
struct Endpoint {
  std::string_view method;
  std::string_view path;
  Operation operation;
  std::string_view submission = "";
  // "METHOD PATH", the endpoint's name in the server's latency table.
  std::string name() const { return std::string(method) + " " + std::string(path); }
};

// Every endpoint, once: StudyApi routes by it and the server times requests by its names.
inline constexpr std::array<Endpoint, 9> kEndpoints = {{
    {"POST", "/api/v1/sessions", Operation::StartSession},
    {"GET", "/api/v1/session", Operation::Screen},
    {"POST", "/api/v1/session/consent", Operation::Submit, "consent"},
    {"POST", "/api/v1/session/demographics", Operation::Submit, "demographics"},
    {"POST", "/api/v1/session/read", Operation::Submit, "read"},
    {"POST", "/api/v1/session/action", Operation::Submit, "action"},
    {"POST", "/api/v1/session/answers", Operation::Submit, "answers"},
    {"GET", "/api/v1/admin/progress", Operation::Progress},
    {"GET", "/api/v1/admin/archive", Operation::Archive},
}};

class StudyApi {
 public:
  // Answers for `study`; `latency` (may be null), the transport's request timing, is shown in the
  // researcher's progress. Both must outlive the API.
  explicit StudyApi(OnlineStudy& study, const LatencyTable* latency = nullptr);

  // The API's answer to `request`; never throws: a path no endpoint has 404, another method 405,
  // no or an unknown token 401, bad input 400, a wrong step 409, too many creations 429, a record
  // that cannot be written 503 (nothing applied; logged), anything unexpected 500 (logged as a
  // progress line). Thread-safe.
  ApiReply handle(const ApiRequest& request);

 private:
  ApiReply route(const ApiRequest& request);
  ApiReply answer(const Endpoint& endpoint, const ApiRequest& request);
  ApiReply startSession(const ApiRequest& request);
  ApiReply withSession(const Endpoint& endpoint, const ApiRequest& request);

  OnlineStudy& study_;
  const LatencyTable* latency_;
};

}  // namespace ddalab::serve
