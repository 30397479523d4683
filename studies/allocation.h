#pragma once
// Random balanced allocation (docs/user-study.md, "Allocation"): a study folder's allocation log,
// allocation.jsonl, gives each new participant a number (which seeds their games) and an order row
// of the protocol's Latin square: a random one among the rows least used by the participants who
// have not dropped out. The log is appended to and synced before the participant's session folder
// is created, so a crash loses no allocation; numbers are never reused, so deleting a session
// folder cannot make two participants share their seeds.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "studies/protocol.h"

namespace ddalab {

inline constexpr const char* kAllocationLogName = "allocation.jsonl";

// A participant's place in the design.
struct Allocation {
  std::string participant;
  int ordinal = 0;  // the participant's number in the study (0, 1, ...): seeds their games
  int row = -1;     // the order row (0-based; -1 when the protocol's order is "random")
  bool droppedOut = false;
};

// The allocations of a study folder as its log records them (empty without a log), read under a
// shared lock: the one reader of the log (serve at start, analyze, export, allocating). InputError
// naming the log, its line and what was expected for a line that is not a valid record, a
// participant or number allocated twice, a dropout of someone never allocated, or a log that is
// not a regular file (a folder, symbolic link, FIFO); a torn last line, the trace of a crash while
// appending, is ignored.
std::vector<Allocation> readAllocations(const std::filesystem::path& studyFolder);
// The same, refusing too a log with participants allocated under another protocol than
// `protocol` (one study per folder).
std::vector<Allocation> readAllocations(const std::filesystem::path& studyFolder,
                                        const StudyProtocol& protocol);

// Allocates `participant` in `studyFolder` under `protocol` and appends it to the log (locked
// against other processes, synced): the next unused number, and a random row among the least
// used ones (seeded by the protocol's seed and the number). A participant already in the log gets
// their allocation back. Throws InputError for a log that is not valid, WriteError.
Allocation allocateParticipant(const std::filesystem::path& studyFolder,
                               const StudyProtocol& protocol, const std::string& participant);

// Records that `participant` dropped out (`reason`: "declined consent", "withdrawn", "timed
// out", ...): their row counts as free again for the next participants. Idempotent.
void recordDropoutInLog(const std::filesystem::path& studyFolder, const std::string& participant,
                        const std::string& reason);

// A new pseudonymous participant id from the operating system's random source: "p-" and 12
// characters of Crockford's base 32 (60 bits), never a person's name.
std::string generateParticipantId();

}  // namespace ddalab
