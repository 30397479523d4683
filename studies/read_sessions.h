#pragma once
// The sessions a user study's analysis reads (docs/user-study.md): the session folders of one
// protocol read together, how the participants who opened one went, and the outputs kept out of
// the folders read.
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "studies/study_session.h"

namespace ddalab {

// Sessions of one protocol read together; refuses folders of different protocols (naming both).
// A folder without a session.json but with session folders in it stands for all of them.
// How the participants who opened a session went (a CONSORT-style flow): only those with an
// answered game are analysed.
struct SessionFlow {
  size_t opened = 0;                         // sessions read
  size_t declined = 0;                       // declined consent
  std::map<std::string, size_t> droppedOut;  // by reason, declined consent left out
  size_t complete = 0, inProgress = 0;
  // Left out of the analysis: not one game answered, or no recorded consent (counted as declined).
  size_t notAnalysed = 0;
  // "14 sessions: 1 declined consent, 2 dropped out (withdrawn 1, timed out 1), 10 complete,
  // 1 in progress; analysed: the 12 with an answered game".
  std::string text() const;
};

struct StudySessions {
  StudyProtocol protocol;
  std::vector<StudySession> sessions;  // those with at least one answered game
  SessionFlow flow = {};
};
// Sessions without an answered game (declined, dropped out before, not begun) or without a
// recorded consent when the protocol asks for one are counted in `flow` and left out of
// `sessions`; InputError when no session has an answered game, and for an allocation log of the
// sessions' study folders that readAllocations refuses.
StudySessions readStudySessions(std::span<const std::filesystem::path> folders);
// Throws InputError naming `option` unless `out` may receive an analysis: missing or a folder,
// and neither one of the folders read (`inputs`, the study's session folders) nor inside one,
// where its files would join the sessions they were computed from.
void checkAnalysisTarget(const std::filesystem::path& out,
                         std::span<const std::filesystem::path> inputs, const StudySessions& study,
                         const std::string& option);

// The study with every subscale as one more item after the questionnaire's: the mean of its
// items' answers, reversed where the instrument says so. None when the protocol has no subscale.
std::optional<StudySessions> withSubscales(const StudySessions& study);

// The folder read (one of `inputs`, or a session folder of `study`) that `path` is or lies in; none
// when it lies outside them all. What keeps outputs out of the data they are computed from.
std::optional<std::filesystem::path> studyFolderHolding(
    const std::filesystem::path& path, std::span<const std::filesystem::path> inputs,
    const StudySessions& study);

}  // namespace ddalab
