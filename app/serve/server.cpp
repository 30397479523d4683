#include "app/serve/server.h"

#include <httplib.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <mutex>

#include "app/serve/connections.h"
#include "app/serve/server_timing.h"
#include "app/serve/study_api.h"
#include "app/serve/web_files.h"

namespace ddalab::serve {
namespace {

constexpr size_t kMaxBodyBytes = 16 * 1024;
// A connection's request line, headers and body must arrive within this (a slow client held a
// request thread for as long as it kept sending; docs/web-api.md, "Limits").
constexpr std::chrono::seconds kRequestReadDeadline{10};

std::mutex printMutex;
void printLine(const std::string& line) {
  std::lock_guard lock(printMutex);
  std::cout << line << std::endl;
}

// The compiled-in page at `path` ("/" is index.html); null for any other path.
const WebFile* page(const std::string& path) {
  const std::string wanted = path == "/" ? "/index.html" : path == "/admin" ? "/admin.html" : path;
  for (size_t i = 0; i < kWebFileCount; ++i)
    if (wanted == kWebFiles[i].path) return &kWebFiles[i];
  return nullptr;
}

// The address a request came from: the last X-Forwarded-For of a request from a trusted reverse
// proxy (the proxy sets it to the address it saw), else the peer's. A participant's own
// X-Forwarded-For counts for nothing, so it cannot evade the per-address limits.
std::string clientAddress(const httplib::Request& req, const std::vector<std::string>& trusted) {
  const size_t count = req.get_header_value_count("X-Forwarded-For");
  if (count == 0 || std::find(trusted.begin(), trusted.end(), req.remote_addr) == trusted.end())
    return req.remote_addr;
  std::string value = req.get_header_value("X-Forwarded-For", count - 1);
  value = value.substr(value.find_last_of(',') + 1);  // the entry the proxy appended, if a list
  value.erase(0, value.find_first_not_of(' '));
  const bool address = !value.empty() && value.size() <= 45 &&
                       value.find_first_not_of("0123456789abcdefABCDEF.:") == std::string::npos;
  return address ? value : req.remote_addr;
}

// The request as StudyApi takes it: httplib's decoded path and parameters (the first of a
// repeated one), the body, the client's address and the bearer token.
ApiRequest apiRequest(const httplib::Request& req, const std::vector<std::string>& trusted) {
  ApiRequest api{req.method,
                 req.path,
                 {},
                 req.body,
                 clientAddress(req, trusted),
                 bearerToken(req.get_header_value("Authorization"))};
  for (const auto& [key, value] : req.params) api.query.emplace(key, value);
  return api;
}

// A page for a GET of one, else the API's reply.
void respond(StudyApi& api, const std::vector<std::string>& trusted, const httplib::Request& req,
             httplib::Response& res) {
  if (req.method == "GET" && !req.path.starts_with("/api/")) {
    if (const WebFile* file = page(req.path)) {
      res.set_content(file->content, file->type);
      return;
    }
  }
  const ApiReply reply = api.handle(apiRequest(req, trusted));
  res.status = reply.status;
  res.set_header("Cache-Control", "no-store");
  for (const auto& [key, value] : reply.headers) res.set_header(key, value);
  if (reply.contentType == "application/json")
    res.set_content(reply.body.dump(), reply.contentType);
  else
    res.set_content(reply.bytes, reply.contentType);
}

}  // namespace

void serveStudy(const StudyProtocol& protocol, const std::string& dir, OnlineStudySettings settings,
                const ServerSettings& server) {
  const std::vector<std::string>& trustedProxies = server.trustedProxies;
  const std::string& bind = server.bind;
  const int port = server.port;
  const std::string secret = settings.adminSecret;
  settings.progress = printLine;
  LatencyTable latency(timedNames());
  OnlineStudy study(protocol, dir, std::move(settings));
  StudyApi api(study, &latency);
  ConnectionLimit connections(server.connectionsPerAddress, trustedProxies);
  GuardedServer http(kRequestReadDeadline, connections);
  http.set_payload_max_length(kMaxBodyBytes);
  http.set_default_headers(
      {{"Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
       {"X-Content-Type-Options", "nosniff"},
       {"X-Frame-Options", "DENY"},
       {"Referrer-Policy", "no-referrer"}});
  const auto handler = [&](const httplib::Request& req, httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    respond(api, trustedProxies, req, res);
    latency.record(req.method + " " + (page(req.path) ? kPageName : req.path),
                   std::chrono::steady_clock::now() - start);
  };
  http.Get(".*", handler).Post(".*", handler).Put(".*", handler).Delete(".*", handler);
  http.Patch(".*", handler).Options(".*", handler);
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      res.set_content(apiError(res.status, res.status == 413 ? "expected a body of at most 16 KiB"
                                           : res.status == 400
                                               ? "expected a well-formed request (a POST needs a "
                                                 "Content-Length, 0 for no body)"
                                               : "HTTP " + std::to_string(res.status))
                          .body.dump(),
                      "application/json");
  });
  // httplib listens with a backlog of 5 (compiled into the library): 50 participants connecting
  // at once saw resets. listen() again on the bound socket raises it (Linux allows that).
  int listening = -1;
  http.set_socket_options([&listening](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listening = sock;
  });
  // Requests are short (the AI decides on the pool), but httplib keeps a thread on a kept-alive
  // connection until its client sends again or 5 s pass; browsers keep theirs and the page polls,
  // so 200 participants' connections queued for 2 s on average (tests/app/serve/serve_load.py). So each
  // connection carries one request, and 64 threads serve them. A reverse proxy keeps the
  // browser's connection alive in front (docs/nginx-ddalab.conf).
  http.set_keep_alive_max_count(1);
  http.new_task_queue = [&latency] { return new TimedThreadPool(64, latency); };
  const int bound = port == 0 ? http.bind_to_any_port(bind) : port;
  if (port != 0 && !http.bind_to_port(bind, port))
    throw std::runtime_error("cannot listen on " + bind + ":" + std::to_string(port));
  if (bound < 0) throw std::runtime_error("cannot listen on " + bind);
  if (listening >= 0) ::listen(listening, SOMAXCONN);
  printLine("ddalab serve: " + protocol.name + " on http://" + bind + ":" + std::to_string(bound) +
            "/ (sessions in " + dir + ")");
  if (server.printSecret)
    printLine("ddalab serve: the researcher's view is /admin, secret " + secret);

  // Idle participants become dropouts; SIGINT/SIGTERM stop the server.
  study.startReaper();
  static httplib::Server* running = &http;
  std::signal(SIGINT, [](int) { running->stop(); });
  std::signal(SIGTERM, [](int) { running->stop(); });
  http.listen_after_bind();
  for (const std::string& line : latencyLines(latency.summary()))
    printLine("ddalab serve: " + line);
  printLine("ddalab serve: stopped");
}

}  // namespace ddalab::serve
