#pragma once
// How results reach the disk: every file is complete under its final name or absent, and every
// write is checked (a full disk or an I/O error is reported with the file and the OS's reason).
// A file is written under a temporary name and renamed, which replaces whatever the final name
// names: so only a missing path or a regular file is ever written to. A folder, symbolic link,
// device (/dev/null, /dev/full), FIFO or socket is refused, never written through or replaced.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ddalab {

// A write to the disk failed; the message names the file and the operating system's reason.
class WriteError : public std::runtime_error {
 public:
  WriteError(const std::filesystem::path& file, const std::string& action, int error);
};

// Throws InputError naming `file` when it exists and is not a regular file (a folder, symbolic
// link, device, FIFO or socket): writing there would replace it.
void checkReplaceable(const std::filesystem::path& file);

// Throws InputError naming `file` when it exists and is not a regular file (a folder, symbolic
// link, device, FIFO or socket), saying it expected `expected` ("the study's allocation log"):
// a record read as it is, not through a link that could lead anywhere or a pipe that never ends.
void checkRegularFile(const std::filesystem::path& file, const std::string& expected);

// Whether `inner` is `outer` or inside it, by file-system identity (symbolic links, "..",
// hard-linked or bind-mounted folders see through); false when `outer` does not exist.
bool isWithin(const std::filesystem::path& inner, const std::filesystem::path& outer);

// A file written under a temporary name in its own folder and renamed to its final name by
// commit() once complete and synced, so no file under a final name is ever truncated. Dropped
// without commit(), it removes its temporary file and leaves any old file of that name as it was.
class OutputFile {
 public:
  // Creates the temporary file next to `file`; throws WriteError, or InputError when `file` is
  // not replaceable (checkReplaceable).
  explicit OutputFile(std::filesystem::path file);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends `text` (buffered); throws WriteError.
  void write(std::string_view text);
  // Writes what is buffered, syncs it and renames the file to its final name (checked again
  // with checkReplaceable first); throws WriteError or InputError.
  void commit();
  const std::filesystem::path& path() const { return file_; }

 private:
  void flush();

  std::filesystem::path file_;
  std::filesystem::path temporary_;
  int fd_ = -1;
  std::string buffer_;
};

// Writes `content` to `file` through an OutputFile (complete or not at all).
void writeFileAtomically(const std::filesystem::path& file, std::string_view content);

// Whether `name` is the temporary name of an OutputFile (left behind by a killed process).
bool isTemporaryFileName(std::string_view name);

// Bytes a temporary name adds to the final file name (for checking file-name lengths).
inline constexpr size_t kTemporaryNameOverhead = 24;

// A file that only grows: buffered appends, flush() hands them to the operating system and
// sync() makes them durable (a power cut keeps what was synced). Used for checkpoints.
class AppendFile {
 public:
  // Opens `file` for appending, first cutting it to `keepBytes` (drops a torn tail); creates it
  // when missing. Throws WriteError, or InputError when `file` is not replaceable.
  AppendFile(std::filesystem::path file, uintmax_t keepBytes);
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Appends `bytes` to the buffer (written by flush, or when the buffer is large).
  void write(std::string_view bytes);
  // Writes the buffer to the file; throws WriteError. A failed write (a full disk) leaves the
  // file as it was before it and drops the buffer: no partial line is left to append after.
  void flush();
  // flush(), then waits until the data is on the disk; throws WriteError, the file cut back to
  // what it held before the call (so a caller may answer "not recorded" and be right).
  void sync();

 private:
  void cutBack(uintmax_t bytes);  // truncates to `bytes`, drops the buffer

  std::filesystem::path file_;
  int fd_ = -1;
  std::string buffer_;
  uintmax_t size_ = 0;  // the file's bytes, all written (the buffer not counted)
};

// Syncs the folder itself, so that renames and new files in it survive a power cut.
void syncFolder(const std::filesystem::path& folder);

}  // namespace ddalab
