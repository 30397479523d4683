#pragma once
// An online study (`ddalab serve`, docs/web-api.md) without its transport: the sessions of one
// study folder, their tokens, the limit on session creation, the researcher's progress and
// archive, and the idle-session reaper, as typed operations that return typed results or throw
// typed errors (StudyRefusal, InputError, StepConflict, WriteError). The JSON API v1 over them
// (routes, methods, status codes, bearer tokens) is the server's: app/serve/study_api.h.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "studies/online_session.h"
#include "studies/study.h"

namespace ddalab {

// 256 bits from the operating system's random source, as 64 hexadecimal digits.
std::string newToken();

// Why the study refuses a request it understood; the transport words it (what() is the text a
// participant or the researcher is shown) and chooses how to answer it.
enum class Refusal {
  TooManySessions,  // the client address created its limit of sessions in the last minute
  UnknownToken,     // no session of this study has the token
  NotResearcher,    // the credential is not the researcher's secret
};
class StudyRefusal : public std::runtime_error {
 public:
  StudyRefusal(Refusal reason, const std::string& message)
      : std::runtime_error(message), reason_(reason) {}
  Refusal reason() const { return reason_; }

 private:
  Refusal reason_;
};

// A session started or resumed by startSession: the participant's new token and whether the
// session existed before.
struct SessionStart {
  std::string token;
  bool resumed = false;
};

struct OnlineStudySettings {
  int paceMs = -1;              // between the AI's shown moves; -1: the protocol's pace_ms
  int threads = 2;              // the decision pool's
  int creationsPerMinute = 30;  // sessions one client address may create a minute
  double timeoutMinutes = 30;   // idle this long: a dropout (the protocol's online.timeout_minutes)
  std::string adminSecret;      // 64 hex digits: the researcher's secret
  std::function<void(const std::string&)> progress;  // progress lines (none when empty)
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

  // The name of the parameter under which the platform passes a participant's id (the
  // protocol's online.id_param).
  const std::string& participantIdParameter() const { return protocol_.online.idParam; }
  // Starts a session for the participant `givenId` names (the platform's id; none: a generated
  // one), or resumes the one they have; `client` is the address whose creations are limited.
  // StudyRefusal (TooManySessions) over the limit; InputError (path: the id parameter) for an id
  // that is not 1 to 100 letters, digits, '-', '_' or '.'. Thread-safe, like every operation.
  SessionStart startSession(const std::optional<std::string>& givenId, const std::string& client);
  // The session `token` opens; StudyRefusal (UnknownToken) when no session has it.
  std::shared_ptr<OnlineSession> session(const std::string& token);
  // What `session`'s participant is shown now; the final screen carries the protocol's
  // completion ({"code", "redirect"}) when it has one.
  Json screen(OnlineSession& session);
  // The participant's submission `kind` with its body (OnlineSession::submit: InputError,
  // StepConflict, WriteError); a progress line when it ends the session.
  void submit(OnlineSession& session, const std::string& kind, const Json& body);
  // progress() for the researcher: StudyRefusal (NotResearcher) unless `secret` is the admin's.
  Json researcherProgress(const std::string& secret);
  // studyArchive() of the study folder for the researcher: StudyRefusal (NotResearcher) unless
  // `secret` is the admin's.
  std::string researcherArchive(const std::string& secret);
  // Writes a progress line (settings.progress), e.g. a transport's report of a failed request.
  void report(const std::string& line) const;
  // Starts a thread that records idle sessions as dropouts (those this server has open, and,
  // once a minute, those an earlier server left on disk); it stops with the study.
  void startReaper();
  // One pass of the reaper over the sessions this server has open.
  void dropIdle();
  // Sessions left open on disk by an earlier server whose newest file is older than the timeout.
  void dropIdleOnDisk();
  // The researcher's view of the study folder: every session as its files say.
  Json progress();

 private:
  class Sessions;
  class CreationLimit;
  void requireResearcher(const std::string& secret) const;

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
// left out, and so is a name longer than TarArchive::kMaxName (ustar's name field).
std::string studyArchive(const std::filesystem::path& dir);

}  // namespace ddalab
