// ddalab serve PROTOCOL.json --dir STUDY_DIR: an online study (docs/web-api.md). Participants'
// browsers get the pages compiled into ddalab (app/web/static) and play through the JSON API v1;
// the sessions are studies/online_session.h's, their folders the GUI's (STUDY_DIR/web-<hash>).
// HTTP by cpp-httplib (Debian's libcpp-httplib-dev): small, maintained, a thread pool per server.
#include <httplib.h>
#include <sys/random.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>

#include "app/cli/options.h"
#include "app/cli/web_files.h"
#include "experiments/json_input.h"
#include "experiments/sha256.h"
#include "results/file_io.h"
#include "studies/allocation.h"
#include "studies/online_session.h"

namespace ddalab::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxBodyBytes = 16 * 1024;
constexpr const char* kTokensFile = "serve-tokens.jsonl";

struct Reply {
  int status = 200;
  Json body;
};

Reply error(int status, const std::string& message, const std::string& path = "") {
  return {status, {{"error", message}, {"path", path}}};
}

// 256 bits from the operating system's random source, as 64 hexadecimal digits.
std::string newToken() {
  unsigned char bytes[32];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno != EINTR) throw std::runtime_error("getrandom failed");
    if (n > 0) got += static_cast<size_t>(n);
  }
  static const char* hex = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) token += {hex[b >> 4], hex[b & 15]};
  return token;
}

bool validParticipantId(const std::string& id) {
  if (id.empty() || id.size() > 100) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// The sessions of one study: tokens (kept as their SHA-256 in STUDY_DIR/serve-tokens.jsonl, so a
// restart keeps every browser's session) and the sessions opened so far.
class Sessions {
 public:
  Sessions(const StudyProtocol& protocol, fs::path dir, DecisionPool& pool, int paceMs)
      : protocol_(protocol), dir_(std::move(dir)), pool_(pool), paceMs_(paceMs) {
    std::ifstream in(dir_ / kTokensFile, std::ios::binary);
    std::string line;
    uintmax_t valid = 0;  // the bytes up to the last whole record (a kill may tear the last one)
    while (std::getline(in, line) && !in.eof()) {
      try {
        const Json j = Json::parse(line);
        tokens_[j.at("sha256").get<std::string>()] = j.at("participant").get<std::string>();
        valid += line.size() + 1;
      } catch (const std::exception&) {
        break;
      }
    }
    tokensFile_ = std::make_unique<AppendFile>(dir_ / kTokensFile, valid);
  }

  // A new token for `participant`'s session (created when new); `given`: the platform's id.
  std::pair<std::string, bool> open(const std::string& participant, bool given) {
    std::lock_guard lock(mutex_);
    const bool existed = fs::exists(folderOf(participant) / "session.json");
    session(participant, given ? StudySession::IdOrigin::Given : StudySession::IdOrigin::Generated);
    const std::string token = newToken();
    const std::string hash = sha256Hex(token);
    tokensFile_->write(Json{{"sha256", hash}, {"participant", participant}}.dump() + "\n");
    tokensFile_->sync();
    tokens_[hash] = participant;
    return {token, existed};
  }

  // The session a bearer token opens (null: no such token).
  std::shared_ptr<OnlineSession> find(const std::string& token) {
    std::lock_guard lock(mutex_);
    const auto it = tokens_.find(sha256Hex(token));
    if (it == tokens_.end()) return nullptr;
    return session(it->second, StudySession::IdOrigin::Given);
  }

  // `participant`'s session, opened now unless this server has it open; null when it has.
  std::shared_ptr<OnlineSession> openIfClosed(const std::string& participant) {
    std::lock_guard lock(mutex_);
    if (open_.contains(participant)) return nullptr;
    return session(participant, StudySession::IdOrigin::Given);
  }

  const fs::path& dir() const { return dir_; }

  std::vector<std::shared_ptr<OnlineSession>> opened() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<OnlineSession>> all;
    for (auto& [id, s] : open_) all.push_back(s);
    return all;
  }

 private:
  fs::path folderOf(const std::string& participant) const {
    return dir_ / ("web-" + sha256Hex(participant).substr(0, 20));  // never the id itself
  }
  std::shared_ptr<OnlineSession> session(const std::string& participant,
                                         StudySession::IdOrigin origin) {
    auto& s = open_[participant];
    if (!s)
      s = std::make_shared<OnlineSession>(
          StudySession::open(folderOf(participant), protocol_, participant, origin), pool_,
          paceMs_);
    return s;
  }
  const StudyProtocol& protocol_;
  fs::path dir_;
  DecisionPool& pool_;
  int paceMs_;
  std::mutex mutex_;
  std::map<std::string, std::string> tokens_;  // SHA-256 of a token -> participant
  std::unique_ptr<AppendFile> tokensFile_;
  std::map<std::string, std::shared_ptr<OnlineSession>> open_;
};

// At most `perMinute` session creations per address and minute.
class CreationLimit {
 public:
  explicit CreationLimit(int perMinute) : perMinute_(perMinute) {}
  bool allow(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    auto& [start, count] = windows_[address];
    if (now - start > std::chrono::minutes(1)) start = now, count = 0;
    return ++count <= perMinute_;
  }

 private:
  int perMinute_;
  std::mutex mutex_;
  std::map<std::string, std::pair<std::chrono::steady_clock::time_point, int>> windows_;
};

std::mutex printMutex;
void progress(const std::string& line) {
  std::lock_guard lock(printMutex);
  std::cout << line << std::endl;
}

bool ended(SessionStep step) {
  return step == SessionStep::Complete || step == SessionStep::Declined ||
         step == SessionStep::DroppedOut;
}

// The 64 hex digits of an "Authorization: Bearer" header; "" when there is none of that form.
std::string bearer(const httplib::Request& req) {
  const std::string header = req.get_header_value("Authorization");
  const std::string prefix = "Bearer ";
  if (!header.starts_with(prefix) || header.size() != prefix.size() + 64) return "";
  return header.substr(prefix.size());
}

// The researcher's view of the study folder: every session folder as its files say, with the
// last activity of those this server has open. Conditions are named here (never to participants).
Json studyProgress(const fs::path& dir, Sessions& sessions) {
  std::map<std::string, double> idle;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& s : sessions.opened())
    idle[s->participant()] = std::chrono::duration<double>(now - s->lastActivity()).count();
  Json participants = Json::array();
  std::map<std::string, int> answeredByCondition;
  int complete = 0, dropped = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "session.json")) continue;
    try {
      const StudySession s = StudySession::read(entry.path());
      for (const SessionGame& g : s.games())
        if (g.answers) ++answeredByCondition[s.protocol().conditions[g.plan.condition].name];
      complete += s.complete();
      dropped += !s.dropoutReason().empty();
      Json row = {{"participant", s.participant()}, {"folder", entry.path().filename().string()},
                  {"answered", s.answered()},       {"games", s.plan().size()},
                  {"complete", s.complete()},       {"dropout", s.dropoutReason()}};
      if (idle.contains(s.participant())) row["idle_seconds"] = std::round(idle[s.participant()]);
      participants.push_back(row);
    } catch (const std::exception& e) {
      participants.push_back({{"folder", entry.path().filename().string()}, {"error", e.what()}});
    }
  }
  return {{"participants", participants},
          {"complete", complete},
          {"dropped_out", dropped},
          {"answered_by_condition", answeredByCondition}};
}

// The study folder as a POSIX tar archive (ustar) in memory: every regular file under `dir` but
// the token hashes, named "study/<relative path>"; symbolic links and other special files are
// left out, and so is a path too long for ustar's 100 + 155 characters.
std::string studyArchive(const fs::path& dir) {
  std::string tar;
  const auto octal = [](char* field, size_t width, uintmax_t value) {
    std::snprintf(field, width, "%0*jo", static_cast<int>(width - 1), value);
  };
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_symlink() || !entry.is_regular_file()) continue;
    const std::string name = ("study" / fs::relative(entry.path(), dir)).generic_string();
    if (entry.path().filename() == kTokensFile || name.size() > 100) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), {});
    char header[512] = {};
    std::memcpy(header, name.data(), name.size());
    octal(header + 100, 8, 0644);
    octal(header + 108, 8, 0);
    octal(header + 116, 8, 0);
    octal(header + 124, 12, content.size());
    octal(header + 136, 12, static_cast<uintmax_t>(std::time(nullptr)));
    header[156] = '0';
    std::memcpy(header + 257, "ustar", 6);
    std::memcpy(header + 263, "00", 2);
    std::memset(header + 148, ' ', 8);  // the checksum counts its own field as spaces
    unsigned sum = 0;
    for (unsigned char c : header) sum += c;
    std::snprintf(header + 148, 8, "%06o", sum);
    tar.append(header, sizeof header);
    tar += content;
    tar.append((512 - content.size() % 512) % 512, '\0');
  }
  tar.append(1024, '\0');  // two empty blocks end the archive
  return tar;
}

// Sessions left open on disk by an earlier server (not opened by this one) whose newest file is
// older than `idle`: opened and recorded as dropouts, like the idle sessions this server has open.
void dropIdleOnDisk(Sessions& sessions, std::chrono::milliseconds idle) {
  const auto limit = fs::file_time_type::clock::now() - idle;
  for (const auto& entry : fs::directory_iterator(sessions.dir())) {
    const fs::path folder = entry.path();
    if (!entry.is_directory() || !folder.filename().string().starts_with("web-") ||
        !fs::is_regular_file(folder / "session.json"))
      continue;
    try {
      const StudySession on = StudySession::read(folder);
      if (ended(on.step())) continue;
      auto newest = fs::file_time_type::min();
      for (const auto& file : fs::directory_iterator(folder))
        newest = std::max(newest, fs::last_write_time(file.path()));
      if (newest >= limit) continue;
      if (const auto s = sessions.openIfClosed(on.participant())) {
        s->drop("timed out");
        progress("dropped " + on.participant() + " (timed out, left by an earlier server)");
      }
    } catch (const std::exception& e) {
      progress(folder.string() + ": not checked for idleness: " + e.what());
    }
  }
}

struct Server {
  Sessions& sessions;
  CreationLimit& limit;
  std::string idParam;
  Json completion;
  fs::path dir;
  std::string adminHash;  // SHA-256 of the admin secret

  Reply admin(const httplib::Request& req) {
    if (sha256Hex(bearer(req)) != adminHash) return error(401, "expected the admin secret");
    return {200, studyProgress(dir, sessions)};
  }

  Reply create(const httplib::Request& req) {
    if (!limit.allow(req.remote_addr)) return error(429, "too many sessions from this address");
    const bool given = req.has_param(idParam.c_str());
    const std::string id = given ? req.get_param_value(idParam.c_str()) : generateParticipantId();
    if (!validParticipantId(id))
      return error(400, "expected 1 to 100 letters, digits, '-', '_' or '.'", idParam);
    const auto [token, resumed] = sessions.open(id, given);
    if (!resumed) progress("started " + id);
    return {resumed ? 200 : 201, {{"token", token}, {"resumed", resumed}}};
  }

  Reply withSession(const httplib::Request& req, const std::string& action) {
    const std::string token = bearer(req);
    if (token.empty()) return error(401, "expected an Authorization: Bearer token");
    const std::shared_ptr<OnlineSession> session = sessions.find(token);
    if (!session) return error(401, "unknown token");
    if (action.empty()) {
      Json screen = session->screen();
      if (screen["kind"] == "complete" && !completion.empty()) screen["completion"] = completion;
      return {200, screen};
    }
    const Json body = req.body.empty() ? Json::object() : parseJsonText(req.body, "body");
    const bool before = ended(session->step());
    session->submit(action, body);
    const SessionStep after = session->step();
    if (!before && ended(after))
      progress((after == SessionStep::Complete ? "finished " : "dropped ") +
               session->participant());
    return {200, {{"ok", true}}};
  }

  // Every request: the API, the pages, or a refusal.
  Reply route(const httplib::Request& req) {
    const std::string& path = req.path;
    const bool get = req.method == "GET", post = req.method == "POST";
    if (path == "/api/v1/sessions") return post ? create(req) : error(405, "expected POST");
    if (path == "/api/v1/session") return get ? withSession(req, "") : error(405, "expected GET");
    if (path == "/api/v1/admin/progress") return get ? admin(req) : error(405, "expected GET");
    if (path == "/api/v1/admin/archive")
      return get ? error(401, "expected the admin secret") : error(405, "expected GET");
    static const std::vector<std::string> actions = {"consent", "demographics", "read", "action",
                                                     "answers"};
    for (const std::string& a : actions)
      if (path == "/api/v1/session/" + a)
        return post ? withSession(req, a) : error(405, "expected POST");
    if (path.starts_with("/api/")) return error(404, "no such endpoint", path.substr(0, 200));
    return error(404, "not found");
  }
};

// The compiled-in page at `path` ("/" is index.html); null for any other path.
const WebFile* page(const std::string& path) {
  const std::string wanted = path == "/" ? "/index.html" : path == "/admin" ? "/admin.html" : path;
  for (size_t i = 0; i < kWebFileCount; ++i)
    if (wanted == kWebFiles[i].path) return &kWebFiles[i];
  return nullptr;
}

void handle(Server& server, const httplib::Request& req, httplib::Response& res) {
  if (req.method == "GET" && req.path == "/api/v1/admin/archive" &&
      sha256Hex(bearer(req)) == server.adminHash) {
    res.set_header("Content-Disposition", "attachment; filename=\"study.tar\"");
    res.set_header("Cache-Control", "no-store");
    res.set_content(studyArchive(server.dir), "application/x-tar");
    return;
  }
  if (req.method == "GET" && !req.path.starts_with("/api/")) {
    if (const WebFile* file = page(req.path)) {
      res.set_content(file->content, file->type);
      return;
    }
  }
  Reply reply;
  try {
    reply = server.route(req);
  } catch (const InputError& e) {
    reply = error(400, e.message(), e.path());
  } catch (const StepConflict& e) {
    reply = error(409, e.what());
  } catch (const std::exception& e) {
    progress(std::string("error: ") + e.what());
    reply = error(500, "the server could not do it");
  }
  res.status = reply.status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(reply.body.dump(), "application/json");
}

}  // namespace

int serveCommand(const Args& args) {
  po::options_description options("serve options");
  std::string protocolFile, dir, bind, secretFile;
  int port = 8080, paceMs = kOnlinePaceMs, threads = 2, creations = 30;
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
      "threads", po::value(&threads), "threads deciding for the AIs (default 2)")(
      "pace-ms", po::value(&paceMs), "ms between the AI's moves (default 600; tests use 0)");
  po::positional_options_description positional;
  positional.add("protocol", 1);
  po::variables_map vm;
  if (auto stop = parseArgs(args, "ddalab serve PROTOCOL.json --dir STUDY_DIR [options]", options,
                            positional, vm))
    return *stop;
  if (port < 0 || port > 65535) throw InputError("--port", "expected 0 to 65535");
  if (threads < 1 || threads > 64) throw InputError("--threads", "expected 1 to 64");
  if (creations < 1) throw InputError("--creations-per-minute", "expected at least 1");
  if (paceMs < 0 || paceMs > 60000) throw InputError("--pace-ms", "expected 0 to 60000");
  if (vm.count("timeout-minutes") && !(timeoutMinutes > 0 && timeoutMinutes <= 24 * 60))
    throw InputError("--timeout-minutes", "expected more than 0, at most a day");
  const StudyProtocol protocol = loadStudyProtocol(protocolFile);
  checkTextsFilledIn(protocol);
  if (!vm.count("timeout-minutes")) timeoutMinutes = protocol.online.timeoutMinutes;
  fs::create_directories(dir);
  Json completion = Json::object();
  if (!protocol.online.completionCode.empty()) completion["code"] = protocol.online.completionCode;
  if (!protocol.online.completionRedirect.empty())
    completion["redirect"] = protocol.online.completionRedirect;

  DecisionPool pool(threads);
  Sessions sessions(protocol, dir, pool, paceMs);
  CreationLimit limit(creations);
  // The researcher's secret: from --admin-secret-file (its first line, 64 hex digits) or new.
  std::string secret = newToken();
  if (!secretFile.empty()) {
    std::string text = readInputFile(secretFile, {1024, "an admin secret file"});
    secret = text.substr(0, text.find('\n'));
    if (secret.size() != 64 || secret.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw InputError(secretFile, "expected 64 lower-case hexadecimal digits on its first line");
  }
  Server server{sessions, limit, protocol.online.idParam, completion, dir, sha256Hex(secret)};
  httplib::Server http;
  http.set_payload_max_length(kMaxBodyBytes);
  http.set_default_headers(
      {{"Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
       {"X-Content-Type-Options", "nosniff"},
       {"X-Frame-Options", "DENY"},
       {"Referrer-Policy", "no-referrer"}});
  const auto handler = [&server](const httplib::Request& req, httplib::Response& res) {
    handle(server, req, res);
  };
  http.Get(".*", handler).Post(".*", handler).Put(".*", handler).Delete(".*", handler);
  http.Patch(".*", handler).Options(".*", handler);
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      res.set_content(
          error(res.status, res.status == 413   ? "expected a body of at most 16 KiB"
                            : res.status == 400 ? "expected a well-formed request (a POST needs a "
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
  // Requests are short (the AI decides on the pool): 16 threads serve many sessions.
  http.new_task_queue = [] { return new httplib::ThreadPool(16); };
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
  std::atomic<bool> stopping{false};
  std::thread reaper([&] {
    const auto idleLimit = std::chrono::milliseconds(static_cast<int64_t>(timeoutMinutes * 60000));
    auto nextDiskScan = std::chrono::steady_clock::now() +
                        std::min<std::chrono::milliseconds>(idleLimit, std::chrono::minutes(1));
    while (!stopping.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const auto limitTime = std::chrono::steady_clock::now() - idleLimit;
      if (std::chrono::steady_clock::now() >= nextDiskScan) {  // once a minute: reads every folder
        dropIdleOnDisk(sessions, idleLimit);
        nextDiskScan = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      }
      for (const auto& s : sessions.opened())
        if (!ended(s->step()) && s->lastActivity() < limitTime) {
          s->drop("timed out");
          progress("dropped " + s->participant() + " (timed out)");
        }
    }
  });
  static httplib::Server* running = &http;
  std::signal(SIGINT, [](int) { running->stop(); });
  std::signal(SIGTERM, [](int) { running->stop(); });
  http.listen_after_bind();
  stopping.store(true);
  reaper.join();
  progress("ddalab serve: stopped");
  return kOk;
}

}  // namespace ddalab::cli
