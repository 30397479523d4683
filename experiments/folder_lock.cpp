#include "experiments/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "core/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

std::string hostName() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown host";
  return name;
}

std::string holderOf(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str().empty() ? std::string("a process that is starting") : text.str();
}

}  // namespace

FolderInUse::FolderInUse(const fs::path& dir, std::string holder)
    : InputError(dir.string(), "the folder is in use by " + holder), holder_(std::move(holder)) {}

FolderLock::FolderLock(const fs::path& dir, const std::string& name) : file_(dir / name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      throw InputError(dir.string(),
                       "cannot create " + file_.string() + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      throw FolderInUse(dir, holderOf(file_));
    }
    // The lock counts only if the file is still the one at that path: the previous holder
    // unlinks it before unlocking.
    struct stat held {
    }, named{};
    if (::fstat(fd, &held) == 0 && ::stat(file_.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
      const std::string owner =
          "pid " + std::to_string(::getpid()) + " on host " + hostName() + ", since " +
          std::to_string(static_cast<long long>(std::time(nullptr))) + " (Unix time)";
      if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, owner.data(), owner.size(), 0) < 0) {
        const int error = errno;
        ::close(fd);
        throw WriteError(file_, "write", error);
      }
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
  throw InputError(dir.string(), "could not take the folder's lock " + file_.string());
}

FolderLock::~FolderLock() {
  ::unlink(file_.c_str());
  ::close(fd_);
}

bool lockHeld(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);
  return held;
}

}  // namespace ddalab
