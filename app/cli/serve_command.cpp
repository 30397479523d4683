// ddalab serve PROTOCOL.json --dir STUDY_DIR: an online study (docs/web-api.md). Participants'
// browsers get the pages compiled into ddalab (app/web/static) and play through the JSON API v1;
// the study (sessions, tokens, limits, the researcher's view) is studies/online_study.h's: this
// file only adapts HTTP to it (pages, headers, body limit, listening). Folders as the GUI's.
// HTTP by cpp-httplib (Debian's libcpp-httplib-dev): small, maintained, a thread pool per server.
#include <httplib.h>

#include <csignal>
#include <iostream>
#include <mutex>

#include "app/cli/options.h"
#include "app/cli/serve_connections.h"
#include "app/cli/serve_timing.h"
#include "app/cli/web_files.h"
#include "experiments/json_input.h"
#include "results/file_io.h"
#include "studies/online_study.h"

namespace ddalab::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxBodyBytes = 16 * 1024;
// A connection's request line, headers and body must arrive within this (a slow client held a
// request thread for as long as it kept sending; docs/web-api.md, "Limits").
constexpr std::chrono::seconds kRequestReadDeadline{10};

std::mutex printMutex;
void progress(const std::string& line) {
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

// The request as OnlineStudy takes it: httplib's decoded path and parameters (the first of a
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

void handle(OnlineStudy& study, const std::vector<std::string>& trusted,
            const httplib::Request& req, httplib::Response& res) {
  if (req.method == "GET" && !req.path.starts_with("/api/")) {
    if (const WebFile* file = page(req.path)) {
      res.set_content(file->content, file->type);
      return;
    }
  }
  const ApiReply reply = study.handle(apiRequest(req, trusted));
  res.status = reply.status;
  res.set_header("Cache-Control", "no-store");
  for (const auto& [key, value] : reply.headers) res.set_header(key, value);
  if (reply.contentType == "application/json")
    res.set_content(reply.body.dump(), reply.contentType);
  else
    res.set_content(reply.bytes, reply.contentType);
}

}  // namespace

int serveCommand(const Args& args) {
  po::options_description options("serve options");
  std::string protocolFile, dir, bind, secretFile;
  std::vector<std::string> trustedProxies;
  int port = 8080, paceMs = -1, threads = 2, creations = 30, connectionsPerAddress = 16;
  double timeoutMinutes = 0;
  options.add_options()("protocol", po::value(&protocolFile)->required(), "the study protocol")(
      "dir", po::value(&dir)->required(), "the study folder (sessions, allocation log)")(
      "port", po::value(&port), "TCP port (default 8080; 0 picks a free one)")(
      "bind", po::value(&bind)->default_value("127.0.0.1"), "address to listen on")(
      "timeout-minutes", po::value(&timeoutMinutes),
      "for tests only: overrides the protocol's online.timeout_minutes (idle minutes until a "
      "dropout; fractions allowed)")(
      "admin-secret-file", po::value(&secretFile),
      "the /admin secret (64 hex digits); default: a new one, printed at start")(
      "creations-per-minute", po::value(&creations),
      "sessions one address may create a minute (default 30)")(
      "connections-per-address", po::value(&connectionsPerAddress),
      "connections one address may have open at once, more are answered 503 (default 16; "
      "a --trusted-proxy is not limited)")(
      "trusted-proxy", po::value(&trustedProxies)->composing(),
      "a reverse proxy's address (e.g. 127.0.0.1): its X-Forwarded-For names the participant's "
      "address; repeatable")("threads", po::value(&threads),
                             "threads deciding for the AIs (default 2)")(
      "pace-ms", po::value(&paceMs),
      "for tests only: overrides the protocol's pace_ms (ms between the AI's shown moves)");
  po::positional_options_description positional;
  positional.add("protocol", 1);
  po::variables_map vm;
  if (auto stop = parseArgs(args, "ddalab serve PROTOCOL.json --dir STUDY_DIR [options]", options,
                            positional, vm))
    return *stop;
  if (port < 0 || port > 65535) throw InputError("--port", "expected 0 to 65535");
  if (threads < 1 || threads > 64) throw InputError("--threads", "expected 1 to 64");
  if (creations < 1) throw InputError("--creations-per-minute", "expected at least 1");
  if (connectionsPerAddress < 1 || connectionsPerAddress > 64)
    throw InputError("--connections-per-address", "expected 1 to 64 (the request threads)");
  for (const std::string& proxy : trustedProxies)
    if (proxy.empty() || proxy.find_first_not_of("0123456789abcdefABCDEF.:") != std::string::npos)
      throw InputError("--trusted-proxy", "expected an IP address such as 127.0.0.1, got " + proxy);
  if (vm.count("pace-ms") && (paceMs < 0 || paceMs > 60000))
    throw InputError("--pace-ms", "expected 0 to 60000");
  if (vm.count("timeout-minutes") && !(timeoutMinutes > 0 && timeoutMinutes <= 24 * 60))
    throw InputError("--timeout-minutes", "expected more than 0, at most a day");
  const StudyProtocol protocol = loadStudyProtocol(protocolFile);
  checkTextsFilledIn(protocol);
  if (!vm.count("timeout-minutes")) timeoutMinutes = protocol.online.timeoutMinutes;

  // The researcher's secret: from --admin-secret-file (its first line, 64 hex digits) or new.
  std::string secret = newToken();
  if (!secretFile.empty()) {
    std::string text = readInputFile(secretFile, {1024, "an admin secret file"});
    secret = text.substr(0, text.find('\n'));
    if (secret.size() != 64 || secret.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw InputError(secretFile, "expected 64 lower-case hexadecimal digits on its first line");
  }
  LatencyTable latency(servedEndpoints());
  OnlineStudy study(protocol, dir,
                    {paceMs, threads, creations, timeoutMinutes, secret, progress, &latency});
  ConnectionLimit connections(static_cast<size_t>(connectionsPerAddress), trustedProxies);
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
    handle(study, trustedProxies, req, res);
    latency.record(req.method + " " + (page(req.path) ? "page" : req.path),
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
  progress("ddalab serve: " + protocol.name + " on http://" + bind + ":" + std::to_string(bound) +
           "/ (sessions in " + dir + ")");
  if (secretFile.empty())
    progress("ddalab serve: the researcher's view is /admin, secret " + secret);

  // Idle participants become dropouts; SIGINT/SIGTERM stop the server.
  study.startReaper();
  static httplib::Server* running = &http;
  std::signal(SIGINT, [](int) { running->stop(); });
  std::signal(SIGTERM, [](int) { running->stop(); });
  http.listen_after_bind();
  for (const std::string& line : latencyLines(latency.summary())) progress("ddalab serve: " + line);
  progress("ddalab serve: stopped");
  return kOk;
}

}  // namespace ddalab::cli
