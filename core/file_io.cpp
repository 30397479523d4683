#include "core/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/params.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTemporaryMarker = ".ddalab-tmp-";
constexpr size_t kBufferSize = 1 << 16;

// Writes all of `bytes` to `fd`, retrying short writes and interrupted calls.
void writeAll(int fd, std::string_view bytes, const fs::path& file) {
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw WriteError(file, "write", written < 0 ? errno : EIO);
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

int openOrThrow(const fs::path& file, int flags, const fs::path& named) {
  const int fd = ::open(file.c_str(), flags | O_CLOEXEC, 0644);
  // A name too long is the user's path, not the machine failing: bad input, exit 2.
  if (fd < 0 && errno == ENAMETOOLONG)
    throw InputError(named.string(), "the file name is too long for the file system (with the "
                                     "temporary name it is written under); expected a shorter one");
  if (fd < 0) throw WriteError(named, "create", errno);
  return fd;
}

// What `mode` (from lstat) names, for a refusal.
std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void syncOrThrow(int fd, const fs::path& file) {
  if (::fsync(fd) != 0 && errno != EINVAL) throw WriteError(file, "sync", errno);
}

}  // namespace

WriteError::WriteError(const fs::path& file, const std::string& action, int error)
    : std::runtime_error("cannot " + action + " " + file.string() + ": " + std::strerror(error)) {}

bool isWithin(const fs::path& inner, const fs::path& outer) {
  std::error_code error;
  fs::path p = fs::weakly_canonical(fs::absolute(inner, error), error);
  while (true) {
    if (fs::equivalent(p, outer, error)) return true;
    if (p == p.parent_path() || p.empty()) return false;
    p = p.parent_path();
  }
}

void checkReplaceable(const fs::path& file) {
  struct stat status {};
  if (::lstat(file.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
  throw InputError(file.string(), "is " + kindOf(status.st_mode) +
                                      ", not a regular file: ddalab writes a file by replacing "
                                      "it and leaves this one alone; give the path of a file");
}

void checkRegularFile(const fs::path& file, const std::string& expected) {
  struct stat status {};
  if (::lstat(file.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
  throw InputError(file.string(),
                   "is " + kindOf(status.st_mode) + "; expected " + expected + ", a regular file");
}

OutputFile::OutputFile(fs::path file) : file_(std::move(file)) {
  checkReplaceable(file_);
  std::string name = ".";  // built piece by piece: "." + std::string trips g++ 12's -Wrestrict
  name += file_.filename().string();
  name += kTemporaryMarker;
  name += std::to_string(::getpid());
  temporary_ = file_.parent_path() / name;
  fd_ = openOrThrow(temporary_, O_WRONLY | O_CREAT | O_TRUNC, file_);
  buffer_.reserve(kBufferSize);
}

OutputFile::~OutputFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(temporary_.c_str());
}

void OutputFile::write(std::string_view text) {
  buffer_ += text;
  if (buffer_.size() >= kBufferSize) flush();
}

void OutputFile::flush() {
  writeAll(fd_, buffer_, file_);
  buffer_.clear();
}

void OutputFile::commit() {
  flush();
  syncOrThrow(fd_, file_);
  checkReplaceable(file_);  // something may have been put there while the file was written
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    throw WriteError(file_, "write", error);
  }
  if (::rename(temporary_.c_str(), file_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    throw WriteError(file_, "rename a temporary file to", error);
  }
  syncFolder(file_.parent_path());
}

void writeFileAtomically(const fs::path& file, std::string_view content) {
  OutputFile out(file);
  out.write(content);
  out.commit();
}

bool isTemporaryFileName(std::string_view name) {
  const size_t marker = name.rfind(kTemporaryMarker);
  if (name.empty() || name.front() != '.' || marker == std::string_view::npos) return false;
  const std::string_view pid = name.substr(marker + kTemporaryMarker.size());
  return !pid.empty() && pid.find_first_not_of("0123456789") == std::string_view::npos;
}

AppendFile::AppendFile(fs::path file, uintmax_t keepBytes) : file_(std::move(file)) {
  checkReplaceable(file_);
  fd_ = openOrThrow(file_, O_WRONLY | O_CREAT, file_);
  const off_t end = ::ftruncate(fd_, static_cast<off_t>(keepBytes)) == 0
                        ? ::lseek(fd_, 0, SEEK_END)
                        : static_cast<off_t>(-1);
  if (end < 0) {
    const int error = errno;
    ::close(fd_);
    throw WriteError(file_, "prepare", error);
  }
  size_ = static_cast<uintmax_t>(end);
  buffer_.reserve(kBufferSize);
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendFile::write(std::string_view bytes) {
  buffer_ += bytes;
  if (buffer_.size() >= kBufferSize) flush();
}

void AppendFile::flush() {
  try {
    writeAll(fd_, buffer_, file_);
  } catch (const WriteError&) {
    cutBack(size_);
    throw;
  }
  size_ += buffer_.size();
  buffer_.clear();
}

void AppendFile::sync() {
  const uintmax_t before = size_;
  flush();
  if (::fdatasync(fd_) != 0 && errno != EINVAL) {
    const int error = errno;
    cutBack(before);
    throw WriteError(file_, "sync", error);
  }
}

// Best effort: the error being reported is the write's, not this one's.
void AppendFile::cutBack(uintmax_t bytes) {
  buffer_.clear();
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) == 0 &&
      ::lseek(fd_, static_cast<off_t>(bytes), SEEK_SET) >= 0)
    size_ = bytes;
}

void syncFolder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the files themselves are synced
  ::fsync(fd);
  ::close(fd);
}

}  // namespace ddalab
