#pragma once
// The checkpoint of an experiment being run: its finished games in iteration order (each with its
// trace line when traces are kept), appended as they finish, so that a run stopped by Ctrl-C, a
// signal, SIGKILL or a power cut resumes where it stopped. Records carry a checksum; a torn last
// record (a kill in the middle of a write) is recognised and dropped. The encoding is the
// machine's own (a checkpoint is resumed where it was written, or on a machine of the same kind).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "core/match.h"
#include "core/file_io.h"

namespace ddalab {

struct JournalEntry {
  GameRecord record;
  std::string trace;  // the game's trace as one JSON line; empty when traces are not kept
};

// What readJournal found.
struct JournalScan {
  size_t entries = 0;        // valid records read
  uintmax_t validBytes = 0;  // length of the valid prefix (where appending continues)
};

// Calls `onEntry` for each valid record of `file` in order, up to the first torn or foreign one or
// the first `onEntry` refuses (returns false; that record counts as not valid). A missing file,
// or one of another format, has no entries. `identity` is the experiment's playIdentity: a
// checkpoint of another experiment (journals renamed or swapped) throws InputError, and
// std::runtime_error is thrown when the file cannot be read.
JournalScan readJournal(const std::filesystem::path& file, uint64_t identity,
                        const std::function<bool(JournalEntry&&)>& onEntry);

// readJournal of one experiment's games in iteration order from `first` on (a run's or shard's
// first iteration): the first record that is not the next game (first + records so far) ends
// the valid prefix. Resume and merge read checkpoints this way.
JournalScan readJournalFrom(const std::filesystem::path& file, uint64_t identity, size_t first,
                            const std::function<void(JournalEntry&&)>& onEntry);

// Appends records to a journal after its valid prefix.
class JournalWriter {
 public:
  // Opens `file`, keeping its first `validBytes` (from readJournal; 0 starts a new journal of
  // the experiment whose playIdentity is `identity`).
  JournalWriter(const std::filesystem::path& file, uintmax_t validBytes, uint64_t identity);
  // Appends one finished game (buffered).
  void append(const GameRecord& record, std::string_view trace);
  // Hands the buffered records to the operating system; throws WriteError.
  void flush() { file_.flush(); }
  // Makes every record appended so far durable; throws WriteError.
  void sync() { file_.sync(); }

 private:
  AppendFile file_;
  std::string scratch_;
};

}  // namespace ddalab
