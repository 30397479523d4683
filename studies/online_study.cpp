#include "studies/online_study.h"

#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>

#include "experiments/json_input.h"
#include "experiments/sha256.h"
#include "results/file_io.h"
#include "studies/allocation.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kTokensFile = "serve-tokens.jsonl";

bool validParticipantId(const std::string& id) {
  if (id.empty() || id.size() > 100) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

std::chrono::milliseconds idleLimit(const OnlineStudySettings& settings) {
  return std::chrono::milliseconds(static_cast<int64_t>(settings.timeoutMinutes * 60000));
}

// Creates the study folder when missing; refuses a path that names something else (a file, a
// FIFO) or cannot be made, naming it (create_directories' exception was an exit 1).
void prepareStudyFolder(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (fs::is_directory(dir)) return;
  std::string problem = "cannot be created (" + error.message() + ")";
  switch (fs::status(dir, error).type()) {
    case fs::file_type::regular:
      problem = "is a file";
      break;
    case fs::file_type::fifo:
      problem = "is a FIFO (named pipe)";
      break;
    case fs::file_type::socket:
      problem = "is a socket";
      break;
    case fs::file_type::block:
    case fs::file_type::character:
      problem = "is a device";
      break;
    default:
      break;
  }
  throw InputError(dir.string(), problem + "; expected the study folder (made when missing)");
}

ApiReply jsonReply(int status, Json body) {
  ApiReply reply;
  reply.status = status;
  reply.body = std::move(body);
  return reply;
}

}  // namespace

ApiReply apiError(int status, const std::string& message, const std::string& path) {
  return jsonReply(status, {{"error", message}, {"path", path}});
}

std::string bearerToken(const std::string& authorization) {
  const std::string prefix = "Bearer ";
  if (!authorization.starts_with(prefix) || authorization.size() != prefix.size() + 64) return "";
  return authorization.substr(prefix.size());
}

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

// The sessions of one study: tokens (kept as their SHA-256 in STUDY_DIR/serve-tokens.jsonl, so a
// restart keeps every browser's session) and the sessions opened so far.
class OnlineStudy::Sessions {
 public:
  Sessions(const StudyProtocol& protocol, fs::path dir, DecisionPool& pool, int paceMs)
      : protocol_(protocol), dir_(std::move(dir)), pool_(pool), paceMs_(paceMs) {
    // Only a torn last line (a kill while appending) is cut; any other damage is refused, and
    // nothing is cut: a damaged middle line once truncated every later participant's token.
    const fs::path file = dir_ / kTokensFile;
    const JsonLines lines = readJsonLines(file, {1u << 30, "serve's token file"});
    for (size_t line = 0; line < lines.values.size(); ++line) {
      const Json& record = lines.values[line];
      const std::string where = file.string() + ": line " + std::to_string(line + 1);
      JsonFields fields(record, where + ": $", {"sha256", "participant"});
      const std::string hash = fields.string("sha256"), participant = fields.string("participant");
      if (hash.size() != 64 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw InputError(fields.at("sha256"), "expected 64 lower-case hexadecimal digits");
      if (!validParticipantId(participant))
        throw InputError(fields.at("participant"),
                         "expected 1 to 100 letters, digits, '-', '_' or '.'");
      tokens_[hash] = participant;
    }
    tokensFile_ = std::make_unique<AppendFile>(file, lines.completeBytes);
  }

  // A new token for `participant`'s session (created when new); `given`: the platform's id. The
  // bool: whether the session existed (resumed). Of simultaneous first requests for one id,
  // exactly one creates it: whether it existed is decided where it is opened, one at a time.
  std::pair<std::string, bool> open(const std::string& participant, bool given) {
    bool existed = true;
    session(participant, given ? StudySession::IdOrigin::Given : StudySession::IdOrigin::Generated,
            &existed);
    const std::string token = newToken();
    const std::string hash = sha256Hex(token);
    {
      std::lock_guard lock(tokensFileMutex_);
      tokensFile_->write(Json{{"sha256", hash}, {"participant", participant}}.dump() + "\n");
      tokensFile_->sync();
    }
    std::lock_guard lock(mutex_);
    tokens_[hash] = participant;
    return {token, existed};
  }

  // The session a bearer token opens (null: no such token).
  std::shared_ptr<OnlineSession> find(const std::string& token) {
    std::string participant;
    {
      std::lock_guard lock(mutex_);
      const auto it = tokens_.find(sha256Hex(token));
      if (it == tokens_.end()) return nullptr;
      participant = it->second;
    }
    return session(participant, StudySession::IdOrigin::Given);
  }

  // `participant`'s session, opened now unless this server has it open; null when it has.
  std::shared_ptr<OnlineSession> openIfClosed(const std::string& participant) {
    std::lock_guard creating(creationMutex_);  // nobody opens it between the check and here
    if (alreadyOpen(participant)) return nullptr;
    return openHere(participant, StudySession::IdOrigin::Given);
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
  std::shared_ptr<OnlineSession> alreadyOpen(const std::string& participant) {
    std::lock_guard lock(mutex_);
    const auto it = open_.find(participant);
    return it == open_.end() ? nullptr : it->second;
  }
  // Opening a session writes its folder (fsyncs): one at a time, but without holding mutex_, so
  // requests to sessions already open do not wait (200 participants arriving at once made every
  // request wait up to 8 s behind the creations). `existed` (when given) is set to whether the
  // session was on disk or open before this call.
  std::shared_ptr<OnlineSession> session(const std::string& participant,
                                         StudySession::IdOrigin origin, bool* existed = nullptr) {
    if (auto s = alreadyOpen(participant)) return s;
    std::lock_guard creating(creationMutex_);
    return openHere(participant, origin, existed);
  }
  // session() with creationMutex_ held.
  std::shared_ptr<OnlineSession> openHere(const std::string& participant,
                                          StudySession::IdOrigin origin, bool* existed = nullptr) {
    if (auto s = alreadyOpen(participant)) return s;  // opened while this one waited
    if (existed) *existed = fs::exists(folderOf(participant) / "session.json");
    auto s = std::make_shared<OnlineSession>(
        StudySession::open(folderOf(participant), protocol_, participant, origin), pool_, paceMs_);
    std::lock_guard lock(mutex_);
    return open_[participant] = s;
  }
  const StudyProtocol& protocol_;
  fs::path dir_;
  DecisionPool& pool_;
  int paceMs_;
  std::mutex mutex_;          // tokens_ and open_
  std::mutex creationMutex_;  // opening a session
  std::mutex tokensFileMutex_;
  std::map<std::string, std::string> tokens_;  // SHA-256 of a token -> participant
  std::unique_ptr<AppendFile> tokensFile_;
  std::map<std::string, std::shared_ptr<OnlineSession>> open_;
};

// At most `perMinute` session creations per address and minute.
class OnlineStudy::CreationLimit {
 public:
  explicit CreationLimit(int perMinute) : perMinute_(perMinute) {}
  bool allow(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    // Addresses whose minute has passed are forgotten once many are kept: a flood of distinct
    // addresses cannot grow the map beyond those of the last minute.
    if (windows_.size() >= kForgetAbove)
      std::erase_if(windows_,
                    [&](const auto& w) { return now - w.second.first > std::chrono::minutes(1); });
    auto& [start, count] = windows_[address];
    if (now - start > std::chrono::minutes(1)) start = now, count = 0;
    return ++count <= perMinute_;
  }

 private:
  static constexpr size_t kForgetAbove = 4096;
  int perMinute_;
  std::mutex mutex_;
  std::map<std::string, std::pair<std::chrono::steady_clock::time_point, int>> windows_;
};

OnlineStudy::OnlineStudy(const StudyProtocol& protocol, fs::path dir, OnlineStudySettings settings)
    : protocol_(protocol),
      dir_(std::move(dir)),
      settings_(std::move(settings)),
      adminHash_(sha256Hex(settings_.adminSecret)),
      completion_(Json::object()),
      pool_(settings_.threads) {
  if (!protocol.online.completionCode.empty()) completion_["code"] = protocol.online.completionCode;
  if (!protocol.online.completionRedirect.empty())
    completion_["redirect"] = protocol.online.completionRedirect;
  prepareStudyFolder(dir_);
  readAllocations(dir_, protocol_);  // an unusable log is refused now, not at every new session
  sessions_ = std::make_unique<Sessions>(
      protocol_, dir_, pool_, settings_.paceMs < 0 ? protocol_.paceMs : settings_.paceMs);
  limit_ = std::make_unique<CreationLimit>(settings_.creationsPerMinute);
}

OnlineStudy::~OnlineStudy() {
  stopping_.store(true);
  if (reaper_.joinable()) reaper_.join();
}

void OnlineStudy::print(const std::string& line) const {
  if (settings_.progress) settings_.progress(line);
}

// The researcher's view of the study folder: every session folder as its files say, with the
// last activity of those this server has open. Conditions are named here (never to participants).
Json OnlineStudy::progress() {
  std::map<std::string, double> idle;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& s : sessions_->opened())
    idle[s->participant()] = std::chrono::duration<double>(now - s->lastActivity()).count();
  Json participants = Json::array();
  std::map<std::string, int> answeredByCondition;
  int complete = 0, dropped = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) {
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
// older than the timeout: opened and recorded as dropouts, like the idle sessions this server has
// open.
void OnlineStudy::dropIdleOnDisk() {
  const auto limit = fs::file_time_type::clock::now() - idleLimit(settings_);
  for (const auto& entry : fs::directory_iterator(sessions_->dir())) {
    const fs::path folder = entry.path();
    if (!entry.is_directory() || !folder.filename().string().starts_with("web-") ||
        !fs::is_regular_file(folder / "session.json"))
      continue;
    try {
      const StudySession on = StudySession::read(folder);
      if (sessionEnded(on.step())) continue;
      auto newest = fs::file_time_type::min();
      for (const auto& file : fs::directory_iterator(folder))
        newest = std::max(newest, fs::last_write_time(file.path()));
      if (newest >= limit) continue;
      if (const auto s = sessions_->openIfClosed(on.participant())) {
        s->drop("timed out");
        print("dropped " + on.participant() + " (timed out, left by an earlier server)");
      }
    } catch (const std::exception& e) {
      print(folder.string() + ": not checked for idleness: " + e.what());
    }
  }
}

void OnlineStudy::dropIdle() {
  const auto limitTime = std::chrono::steady_clock::now() - idleLimit(settings_);
  for (const auto& s : sessions_->opened())
    if (!sessionEnded(s->step()) && s->lastActivity() < limitTime) {
      s->drop("timed out");
      print("dropped " + s->participant() + " (timed out)");
    }
}

void OnlineStudy::startReaper() {
  reaper_ = std::thread([this] {
    auto nextDiskScan =
        std::chrono::steady_clock::now() +
        std::min<std::chrono::milliseconds>(idleLimit(settings_), std::chrono::minutes(1));
    // A pass that fails (the study folder deleted or unwritable under the server) is reported
    // and tried again; an exception must not end the thread (std::terminate ended the server).
    std::string lastProblem;
    const auto guarded = [&](const std::function<void()>& pass) {
      try {
        pass();
        lastProblem.clear();
      } catch (const std::exception& e) {
        if (e.what() != lastProblem) print(std::string("idle check failed: ") + e.what());
        lastProblem = e.what();
      }
    };
    while (!stopping_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (std::chrono::steady_clock::now() >= nextDiskScan) {  // once a minute: reads every folder
        guarded([this] { dropIdleOnDisk(); });
        nextDiskScan = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      }
      guarded([this] { dropIdle(); });
    }
  });
}

ApiReply OnlineStudy::admin(const ApiRequest& req) {
  if (sha256Hex(req.bearer) != adminHash_) return apiError(401, "expected the admin secret");
  Json body = progress();
  if (settings_.latency) body["latency"] = settings_.latency->summary();
  return jsonReply(200, body);
}

ApiReply OnlineStudy::archive(const ApiRequest& req) {
  if (sha256Hex(req.bearer) != adminHash_) return apiError(401, "expected the admin secret");
  ApiReply reply;
  reply.bytes = studyArchive(dir_);
  reply.contentType = "application/x-tar";
  reply.headers = {{"Content-Disposition", "attachment; filename=\"study.tar\""}};
  return reply;
}

ApiReply OnlineStudy::create(const ApiRequest& req) {
  if (!limit_->allow(req.client)) return apiError(429, "too many sessions from this address");
  const std::string& idParam = protocol_.online.idParam;
  const auto param = req.query.find(idParam);
  const bool given = param != req.query.end();
  const std::string id = given ? param->second : generateParticipantId();
  if (!validParticipantId(id))
    return apiError(400, "expected 1 to 100 letters, digits, '-', '_' or '.'", idParam);
  const auto [token, resumed] = sessions_->open(id, given);
  if (!resumed) print("started " + id);
  return jsonReply(resumed ? 200 : 201, {{"token", token}, {"resumed", resumed}});
}

ApiReply OnlineStudy::withSession(const ApiRequest& req, const std::string& action) {
  if (req.bearer.empty()) return apiError(401, "expected an Authorization: Bearer token");
  const std::shared_ptr<OnlineSession> session = sessions_->find(req.bearer);
  if (!session) return apiError(401, "unknown token");
  if (action.empty()) {
    Json screen = session->screen();
    if (screen["kind"] == "complete" && !completion_.empty()) screen["completion"] = completion_;
    return jsonReply(200, screen);
  }
  const Json body = req.body.empty() ? Json::object() : parseJsonText(req.body, "body");
  const bool before = sessionEnded(session->step());
  session->submit(action, body);
  const SessionStep after = session->step();
  if (!before && sessionEnded(after))
    print((after == SessionStep::Complete ? "finished " : "dropped ") + session->participant());
  return jsonReply(200, {{"ok", true}});
}

// Every API request: an endpoint, or a refusal.
ApiReply OnlineStudy::route(const ApiRequest& req) {
  const std::string& path = req.path;
  const bool get = req.method == "GET", post = req.method == "POST";
  if (path == "/api/v1/sessions") return post ? create(req) : apiError(405, "expected POST");
  if (path == "/api/v1/session") return get ? withSession(req, "") : apiError(405, "expected GET");
  if (path == "/api/v1/admin/progress") return get ? admin(req) : apiError(405, "expected GET");
  if (path == "/api/v1/admin/archive") return get ? archive(req) : apiError(405, "expected GET");
  static const std::vector<std::string> actions = {"consent", "demographics", "read", "action",
                                                   "answers"};
  for (const std::string& a : actions)
    if (path == "/api/v1/session/" + a)
      return post ? withSession(req, a) : apiError(405, "expected POST");
  if (path.starts_with("/api/"))
    return apiError(404, "no such endpoint", textExcerpt(path, 200));  // escaped: any bytes
  return apiError(404, "not found");
}

ApiReply OnlineStudy::handle(const ApiRequest& request) {
  try {
    return route(request);
  } catch (const InputError& e) {
    return apiError(400, e.message(), e.path());
  } catch (const StepConflict& e) {
    return apiError(409, e.what());
  } catch (const WriteError& e) {
    // Nothing was applied (submissions are applied once durable): the page sends it again.
    print(std::string("cannot record: ") + e.what());
    ApiReply reply = apiError(503, "the study cannot record right now; try again in a moment");
    reply.headers = {{"Retry-After", "2"}};
    return reply;
  } catch (const std::exception& e) {
    print(std::string("error: ") + e.what());
    return apiError(500, "the server could not do it");
  }
}

}  // namespace ddalab
