#include "studies/allocation.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string_view>

#include "core/rng.h"
#include "core/json_input.h"
#include "core/sha256.h"
#include "core/file_io.h"
#include "studies/plan.h"
#include "studies/timing.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxLogBytes = 64 << 20;
const InputFileKind kSessionKind{64 << 20, "a session file of ddalab"};

constexpr const char* kLogExpected = "the study's allocation log";

// How the log is opened: to read (a shared lock; nothing created, nothing written) or to append
// (an exclusive lock; created when missing).
enum class LogAccess { Read, Append };

// The log, opened and locked against other processes (flock) while it lives: one allocation at a
// time, even from two windows or a server's threads on the same study folder, and no reader sees
// half an append. Refused by name (InputError) when it is not a regular file: a folder, a
// symbolic link (O_NOFOLLOW, against a swap after the check too) or a FIFO, opened without
// blocking so that a pipe cannot hang the reader.
class LockedLog {
 public:
  LockedLog(const fs::path& file, LogAccess access) : file_(file) {
    checkRegularFile(file, kLogExpected);
    const int flags = access == LogAccess::Append ? O_RDWR | O_CREAT : O_RDONLY | O_NONBLOCK;
    fd_ = ::open(file.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      const int error = errno;
      checkRegularFile(file, kLogExpected);  // replaced since the check
      if (access == LogAccess::Read)
        throw InputError(file.string(), std::string("cannot open the file: ") +
                                            std::strerror(error) + "; expected " + kLogExpected);
      throw WriteError(file, "open", error);
    }
    struct stat info {};
    if (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd_);
      throw InputError(file.string(), std::string("is not a regular file; expected ") +
                                          kLogExpected + ", a regular file");
    }
    if (::flock(fd_, access == LogAccess::Append ? LOCK_EX : LOCK_SH) != 0) {
      const int error = errno;
      ::close(fd_);
      throw WriteError(file, "lock", error);
    }
  }
  ~LockedLog() { ::close(fd_); }  // closing releases the lock
  LockedLog(const LockedLog&) = delete;
  LockedLog& operator=(const LockedLog&) = delete;

  std::string read() const {
    std::string text;
    char buffer[1 << 16];
    for (off_t at = 0;;) {
      const ssize_t n = ::pread(fd_, buffer, sizeof buffer, at);
      if (n < 0) throw WriteError(file_, "read", errno);
      if (n == 0) return text;
      text.append(buffer, static_cast<size_t>(n));
      at += n;
      if (text.size() > kMaxLogBytes)
        throw InputError(file_.string(), "is larger than 64 MB; expected a study's allocation log");
    }
  }

 private:
  fs::path file_;
  int fd_ = -1;
};

struct LogRecord {
  std::string event;  // "allocated" or "dropout"
  std::string participant;
  int ordinal = 0, row = -1;
  std::string protocolChecksum;
  std::string reason;
};

LogRecord parseRecord(std::string_view line, const std::string& where) {
  const Json node = parseJsonText(line, where);
  LogRecord r;
  const Json* event = node.is_object() ? &node["event"] : nullptr;
  if (event && *event == "allocated") {
    JsonFields f(node, where + ": $",
                 {"event", "participant", "ordinal", "row", "protocol_sha256", "at"});
    r.event = "allocated";
    r.participant = f.string("participant");
    r.ordinal = static_cast<int>(f.integer("ordinal", 0, kMaxSessionOrdinal - 1));
    r.row = static_cast<int>(f.integer("row", -1, 1000));
    r.protocolChecksum = f.string("protocol_sha256");
  } else if (event && *event == "dropout") {
    JsonFields f(node, where + ": $", {"event", "participant", "reason", "at"});
    r.event = "dropout";
    r.participant = f.string("participant");
    r.reason = f.string("reason");
  } else {
    throw InputError(where + ": $.event",
                     "expected \"allocated\" or \"dropout\", got " +
                         (node.is_object() && node.contains("event") ? jsonExcerpt(node["event"])
                                                                     : std::string("nothing")));
  }
  return r;
}

struct LogState {
  std::vector<Allocation> allocations;
  std::vector<std::string> checksums;  // the protocol each allocation was made under
  size_t bytes = 0;                    // of complete lines
};

LogState parseLog(const fs::path& file, const std::string& text) {
  LogState state;
  std::map<std::string, size_t> byParticipant;
  std::set<int> ordinals;
  const CompleteLines complete = completeLines(text);  // a torn last line is left out
  state.bytes = complete.completeBytes;
  for (size_t i = 0; i < complete.lines.size(); ++i) {
    const std::string where = file.string() + ":" + std::to_string(i + 1);
    const LogRecord r = parseRecord(complete.lines[i], where);
    const auto known = byParticipant.find(r.participant);
    if (r.event == "allocated") {
      if (known != byParticipant.end() || !ordinals.insert(r.ordinal).second)
        throw InputError(where, "allocates participant '" + textExcerpt(r.participant) +
                                    "' or number " + std::to_string(r.ordinal) +
                                    " a second time; expected each once");
      byParticipant[r.participant] = state.allocations.size();
      state.allocations.push_back({r.participant, r.ordinal, r.row, false});
      state.checksums.push_back(r.protocolChecksum);
    } else {
      if (known == byParticipant.end())
        throw InputError(where,
                         "records a dropout of '" + textExcerpt(r.participant) +
                             "', who was never allocated; expected an allocated participant");
      state.allocations[known->second].droppedOut = true;
    }
  }
  return state;
}

// Refuses a log with an allocation made under another protocol than the one of `checksum`.
void checkOneProtocol(const fs::path& file, const LogState& state, const std::string& checksum) {
  for (size_t i = 0; i < state.allocations.size(); ++i)
    if (state.checksums[i] != checksum)
      throw InputError(file.string(), "holds participants of another protocol (participant '" +
                                          textExcerpt(state.allocations[i].participant) +
                                          "'); expected one study per folder");
}

std::string logLine(const Json& record) {
  Json line = record;
  line["at"] = utcTimestamp(std::chrono::system_clock::now());
  return line.dump() + "\n";
}

void append(const fs::path& file, size_t keepBytes, const std::string& lines) {
  AppendFile log(file, keepBytes);  // drops a torn last line
  log.write(lines);
  log.sync();
}

// Sessions a study folder held before it had a log (ddalab before allocation.jsonl, or a log
// deleted): their numbers and rows, so that the log starts from them and no number is given
// twice. Only session.json's participant, ordinal and row are read: a session broken elsewhere
// still keeps its number; one whose session.json cannot say it (the analysis refuses it too) is
// passed over, as is a second folder of a participant or number already seen (a copy).
std::vector<Allocation> sessionsWithoutLog(const fs::path& studyFolder,
                                           const StudyProtocol& protocol) {
  std::vector<Allocation> found;
  std::set<std::string> participants;
  std::set<int> ordinals;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(studyFolder, error)) {
    const fs::path file = entry.path() / "session.json";
    if (!entry.is_directory() || !fs::is_regular_file(fs::symlink_status(file))) continue;
    try {
      const Json session = parseJsonText(readInputFile(file, kSessionKind), file.string());
      const std::string participant = session.at("participant").get<std::string>();
      const int ordinal = session.at("ordinal").get<int>();
      if (participant.empty() || ordinal < 0 || ordinal >= kMaxSessionOrdinal) continue;
      int row = cyclicRow(protocol, ordinal);
      if (session.contains("row") && session["row"].is_number_integer()) row = session["row"];
      if (row < -1 || row >= std::max(orderRows(protocol), 0)) row = -1;
      if (participants.insert(participant).second && ordinals.insert(ordinal).second)
        found.push_back({participant, ordinal, row, false});
    } catch (const std::exception&) {
      continue;  // not a session.json that can say its number
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Allocation& a, const Allocation& b) { return a.ordinal < b.ordinal; });
  return found;
}

Json allocationRecord(const Allocation& a, const std::string& checksum) {
  return {{"event", "allocated"},
          {"participant", a.participant},
          {"ordinal", a.ordinal},
          {"row", a.row},
          {"protocol_sha256", checksum}};
}

// A random row among those the participants still in the study use least.
int leastUsedRow(const StudyProtocol& protocol, std::span<const Allocation> allocations,
                 int ordinal) {
  const int rows = orderRows(protocol);
  if (rows == 0) return -1;
  std::vector<int> use(static_cast<size_t>(rows), 0);
  for (const Allocation& a : allocations)
    if (!a.droppedOut && a.row >= 0 && a.row < rows) ++use[static_cast<size_t>(a.row)];
  const int least = *std::min_element(use.begin(), use.end());
  std::vector<int> candidates;
  for (int r = 0; r < rows; ++r)
    if (use[static_cast<size_t>(r)] == least) candidates.push_back(r);
  Rng rng(deriveGameSeed(protocol.seed, static_cast<uint64_t>(ordinal), 0x616c6c6f63ull));
  return candidates[rng.below(static_cast<uint32_t>(candidates.size()))];
}

}  // namespace

namespace {

LogState readLog(const fs::path& studyFolder) {
  const fs::path file = studyFolder / kAllocationLogName;
  if (!fs::exists(fs::symlink_status(file))) return {};
  const LockedLog log(file, LogAccess::Read);
  return parseLog(file, log.read());
}

}  // namespace

std::vector<Allocation> readAllocations(const fs::path& studyFolder) {
  return readLog(studyFolder).allocations;
}

std::vector<Allocation> readAllocations(const fs::path& studyFolder,
                                        const StudyProtocol& protocol) {
  const LogState state = readLog(studyFolder);
  checkOneProtocol(studyFolder / kAllocationLogName, state, sha256Hex(protocol.document.dump()));
  return state.allocations;
}

Allocation allocateParticipant(const fs::path& studyFolder, const StudyProtocol& protocol,
                               const std::string& participant) {
  fs::create_directories(studyFolder);
  const fs::path file = studyFolder / kAllocationLogName;
  const bool existed = fs::exists(fs::symlink_status(file));
  LockedLog log(file, LogAccess::Append);
  LogState state = parseLog(file, log.read());
  const std::string checksum = sha256Hex(protocol.document.dump());
  checkOneProtocol(file, state, checksum);
  std::string lines;
  if (!existed || state.allocations.empty())
    for (const Allocation& a : sessionsWithoutLog(studyFolder, protocol)) {
      state.allocations.push_back(a);
      lines += logLine(allocationRecord(a, checksum));
    }
  for (const Allocation& a : state.allocations)
    if (a.participant == participant) {
      if (!lines.empty()) append(file, state.bytes, lines);
      return a;
    }
  int ordinal = 0;
  for (const Allocation& a : state.allocations) ordinal = std::max(ordinal, a.ordinal + 1);
  if (ordinal >= kMaxSessionOrdinal)
    throw InputError(file.string(), "has given every participant number (up to " +
                                        std::to_string(kMaxSessionOrdinal) + ")");
  const Allocation allocation{participant, ordinal,
                              leastUsedRow(protocol, state.allocations, ordinal), false};
  lines += logLine(allocationRecord(allocation, checksum));
  append(file, state.bytes, lines);
  syncFolder(studyFolder);
  return allocation;
}

void recordDropoutInLog(const fs::path& studyFolder, const std::string& participant,
                        const std::string& reason) {
  const fs::path file = studyFolder / kAllocationLogName;
  if (!fs::exists(fs::symlink_status(file))) return;  // a study without allocation (simulated)
  LockedLog log(file, LogAccess::Append);
  const LogState state = parseLog(file, log.read());
  for (const Allocation& a : state.allocations)
    if (a.participant == participant && !a.droppedOut) {
      append(file, state.bytes,
             logLine({{"event", "dropout"}, {"participant", participant}, {"reason", reason}}));
      return;
    }
}

std::string generateParticipantId() {
  static const char kCrockford[] = "0123456789abcdefghjkmnpqrstvwxyz";
  std::random_device device;  // the operating system's random source (getrandom on Linux)
  uint64_t bits = (static_cast<uint64_t>(device()) << 32) | device();
  std::string id = "p-";
  for (int i = 0; i < 12; ++i, bits >>= 5) id += kCrockford[bits & 31];
  return id;
}

}  // namespace ddalab
