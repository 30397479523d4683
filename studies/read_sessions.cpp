#include "studies/read_sessions.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "core/file_io.h"
#include "studies/allocation.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

void countInFlow(const StudySession& s, SessionFlow& flow) {
  // Games without a recorded consent (consent.json missing or not agreed) count as declined:
  // what such a session holds is never analysed.
  if (!s.consented() && !s.games().empty()) {
    ++flow.declined;
    return;
  }
  switch (s.step()) {
    case SessionStep::Declined:
      ++flow.declined;
      break;
    case SessionStep::DroppedOut:
      ++flow.droppedOut[s.dropoutReason()];
      break;
    case SessionStep::Complete:
      ++flow.complete;
      break;
    default:
      ++flow.inProgress;
  }
}

// The allocation log of every study folder the sessions were created in (their parent folders,
// as StudySession::open allocates), read with the one reader and refused as serve refuses it: a
// damaged log or another protocol's cannot stand behind an analysis.
void checkAllocationLogs(std::span<const fs::path> sessions, const StudyProtocol& protocol) {
  std::set<fs::path> studies;
  for (const fs::path& folder : sessions) {
    std::error_code error;
    const fs::path real = fs::weakly_canonical(fs::absolute(folder), error);
    fs::path study = (error ? folder : real).parent_path();
    if (study.empty()) study = ".";
    if (studies.insert(study).second) readAllocations(study, protocol);
  }
}

}  // namespace

StudySessions readStudySessions(std::span<const fs::path> folders) {
  std::vector<fs::path> sessions;
  for (const fs::path& folder : folders) {
    if (fs::exists(folder / "session.json")) {
      sessions.push_back(folder);
      continue;
    }
    std::vector<fs::path> inside;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error))
      if (entry.is_directory() && fs::exists(entry.path() / "session.json"))
        inside.push_back(entry.path());
    if (error || inside.empty())
      throw InputError(folder.string(), "holds no session (session.json) and no session folders");
    std::sort(inside.begin(), inside.end());
    sessions.insert(sessions.end(), inside.begin(), inside.end());
  }
  StudySessions study;
  // A session is its participant in its protocol: read twice (a folder and its study folder, a
  // path spelled twice, a copy) it would count twice in every mean and test.
  std::map<std::pair<std::string, std::string>, fs::path> seen;
  std::string checksum;  // the first session's protocol
  for (const fs::path& folder : sessions) {
    StudySession s = StudySession::read(folder);
    if (study.flow.opened > 0 && s.protocolChecksum() != checksum)
      throw InputError(folder.string(),
                       "is a session of protocol '" + s.protocol().name + "', not of '" +
                           study.protocol.name + "' (" + sessions.front().string() +
                           "): sessions of different protocols are not analysed together");
    if (study.flow.opened == 0) checksum = s.protocolChecksum();
    const auto [first, fresh] =
        seen.emplace(std::pair(s.participant(), s.protocolChecksum()), folder);
    if (!fresh) {
      std::error_code error;
      const bool same = fs::equivalent(first->second, folder, error);
      throw InputError(
          folder.string(),
          "is participant '" + s.participant() + "' of protocol '" + s.protocol().name +
              "' again, already read from " + first->second.string() +
              (same ? " (the same folder, named twice)" : " (a copy of that session?)") +
              "; expected each session once: it would count twice in every test");
    }
    if (study.flow.opened++ == 0) study.protocol = s.protocol();
    countInFlow(s, study.flow);
    if (s.consented() && s.answered() > 0)
      study.sessions.push_back(std::move(s));
    else
      ++study.flow.notAnalysed;
  }
  checkAllocationLogs(sessions, study.protocol);
  if (study.sessions.empty())
    throw InputError(sessions.front().string(),
                     "no participant has answered a game yet (" + study.flow.text() +
                         "); expected at least one answered game to analyse");
  return study;
}

std::string SessionFlow::text() const {
  std::string t = std::to_string(opened) + (opened == 1 ? " session: " : " sessions: ");
  std::string parts;
  const auto add = [&](size_t n, const std::string& what) {
    if (n > 0) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(declined, "declined consent");
  size_t dropped = 0;
  std::string reasons;
  for (const auto& [reason, n] : droppedOut) {
    dropped += n;
    reasons += (reasons.empty() ? "" : ", ") + reason + " " + std::to_string(n);
  }
  add(dropped, "dropped out (" + reasons + ")");
  add(complete, "complete");
  add(inProgress, "in progress");
  return t + parts + "; analysed: the " + std::to_string(opened - notAnalysed) +
         " with an answered game";
}

void checkAnalysisTarget(const fs::path& out, std::span<const fs::path> inputs,
                         const StudySessions& study, const std::string& option) {
  const std::string name = option + " " + out.string();
  std::error_code error;
  const fs::file_status status = fs::status(out, error);
  if (fs::exists(status) && !fs::is_directory(status))
    throw InputError(name, "is not a folder; expected a folder for the analysis files (or none)");
  if (const auto input = studyFolderHolding(out, inputs, study))
    throw InputError(name, "is the folder " + input->string() +
                               " that the analysis reads, or inside it; expected a folder "
                               "outside the study's folders");
}

std::optional<fs::path> studyFolderHolding(const fs::path& path, std::span<const fs::path> inputs,
                                           const StudySessions& study) {
  std::vector<fs::path> read(inputs.begin(), inputs.end());
  for (const StudySession& s : study.sessions) read.push_back(s.folder());
  for (const fs::path& input : read)
    if (isWithin(path, input)) return input;
  return std::nullopt;
}

std::optional<StudySessions> withSubscales(const StudySessions& study) {
  const StudyProtocol& protocol = study.protocol;
  if (protocol.subscales.empty()) return std::nullopt;
  auto scored = std::make_shared<StudyProtocol>(protocol);
  for (const StudySubscale& s : protocol.subscales) {
    StudyItem item = protocol.items[s.items.front()];  // its scale, reversed or not
    item.key = s.key;
    item.text = s.name + " (" + s.instrument + " subscale, mean of " +
                std::to_string(s.items.size()) + " items)";
    item.reversed = false;
    item.anchors.clear();
    scored->items.push_back(item);
  }
  const auto score = [&protocol](const std::vector<double>& values) {
    std::vector<double> means;
    for (const StudySubscale& s : protocol.subscales) {
      double sum = 0;
      for (size_t i : s.items) sum += protocol.items[i].scored(values[i]);
      means.push_back(sum / static_cast<double>(s.items.size()));
    }
    return means;
  };
  StudySessions result{*scored, {}, study.flow};
  for (const StudySession& session : study.sessions)
    result.sessions.push_back(session.withDerivedAnswers(scored, score));
  return result;
}

}  // namespace ddalab
