#pragma once
// `ddalab serve`'s HTTP server (docs/web-api.md): the participant's pages compiled into ddalab
// (app/web/static), the JSON API v1 (StudyApi) over an OnlineStudy, the headers every answer
// carries, the body limit, the connection limits and deadlines (connections.h), the request
// timing (server_timing.h), and listening until SIGINT or SIGTERM.
// HTTP by cpp-httplib (Debian's libcpp-httplib-dev): small, maintained, a thread pool per server.
#include <cstddef>
#include <string>
#include <vector>

#include "studies/online_study.h"

namespace ddalab::serve {

// Where and how the server listens (the study's own settings are OnlineStudySettings).
struct ServerSettings {
  std::string bind = "127.0.0.1";           // the address to listen on
  int port = 8080;                          // 0: a free one (printed)
  size_t connectionsPerAddress = 16;        // more at once are answered 503
  std::vector<std::string> trustedProxies;  // their X-Forwarded-For names the client's address
  bool printSecret = false;                 // the admin secret was made now: print it at start
};

// Serves `protocol`'s online study in `dir` until SIGINT or SIGTERM, printing progress lines on
// the standard output (study.progress is set to print them); then prints the latency per
// endpoint. InputError from OnlineStudy (an unusable study folder); std::runtime_error when it
// cannot listen.
void serveStudy(const StudyProtocol& protocol, const std::string& dir, OnlineStudySettings study,
                const ServerSettings& server);

}  // namespace ddalab::serve
