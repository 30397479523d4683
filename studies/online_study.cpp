#include "studies/online_study.h"

#include <sys/random.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>

#include "core/json_input.h"
#include "core/sha256.h"
#include "core/file_io.h"
#include "studies/allocation.h"
#include "studies/tar_archive.h"

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

}  // namespace

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

void OnlineStudy::report(const std::string& line) const {
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
  TarArchive tar;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_symlink() || !entry.is_regular_file()) continue;
    const std::string name = ("study" / fs::relative(entry.path(), dir)).generic_string();
    if (entry.path().filename() == kTokensFile || name.size() > TarArchive::kMaxName) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    tar.add(name, std::string((std::istreambuf_iterator<char>(in)), {}));
  }
  return tar.finish();
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
        report("dropped " + on.participant() + " (timed out, left by an earlier server)");
      }
    } catch (const std::exception& e) {
      report(folder.string() + ": not checked for idleness: " + e.what());
    }
  }
}

void OnlineStudy::dropIdle() {
  const auto limitTime = std::chrono::steady_clock::now() - idleLimit(settings_);
  for (const auto& s : sessions_->opened())
    if (!sessionEnded(s->step()) && s->lastActivity() < limitTime) {
      s->drop("timed out");
      report("dropped " + s->participant() + " (timed out)");
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
        if (e.what() != lastProblem) report(std::string("idle check failed: ") + e.what());
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

void OnlineStudy::requireResearcher(const std::string& secret) const {
  if (sha256Hex(secret) != adminHash_)
    throw StudyRefusal(Refusal::NotResearcher, "expected the admin secret");
}

Json OnlineStudy::researcherProgress(const std::string& secret) {
  requireResearcher(secret);
  return progress();
}

std::string OnlineStudy::researcherArchive(const std::string& secret) {
  requireResearcher(secret);
  return studyArchive(dir_);
}

SessionStart OnlineStudy::startSession(const std::optional<std::string>& givenId,
                                       const std::string& client) {
  if (!limit_->allow(client))
    throw StudyRefusal(Refusal::TooManySessions, "too many sessions from this address");
  const std::string id = givenId ? *givenId : generateParticipantId();
  if (!validParticipantId(id))
    throw InputError(participantIdParameter(),
                     "expected 1 to 100 letters, digits, '-', '_' or '.'");
  const auto [token, resumed] = sessions_->open(id, givenId.has_value());
  if (!resumed) report("started " + id);
  return {token, resumed};
}

std::shared_ptr<OnlineSession> OnlineStudy::session(const std::string& token) {
  std::shared_ptr<OnlineSession> session = sessions_->find(token);
  if (!session) throw StudyRefusal(Refusal::UnknownToken, "unknown token");
  return session;
}

Json OnlineStudy::screen(OnlineSession& session) {
  Json screen = session.screen();
  if (screen["kind"] == "complete" && !completion_.empty()) screen["completion"] = completion_;
  return screen;
}

void OnlineStudy::submit(OnlineSession& session, const std::string& kind, const Json& body) {
  const bool before = sessionEnded(session.step());
  session.submit(kind, body);
  const SessionStep after = session.step();
  if (!before && sessionEnded(after))
    report((after == SessionStep::Complete ? "finished " : "dropped ") + session.participant());
}

}  // namespace ddalab
