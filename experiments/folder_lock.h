#pragma once
// An exclusive lock of a folder held by one process at a time: a lock file in the folder holds
// who holds it (pid, host, since when), so that the one refused can say which process to end.
// A run's results folder is locked this way, and so is the folder of a ddalab-gui session.
#include <filesystem>
#include <string>

#include "core/params.h"

namespace ddalab {

// The folder is locked by another process; holder() says which ("pid 12 on host h, since ...").
class FolderInUse : public InputError {
 public:
  FolderInUse(const std::filesystem::path& dir, std::string holder);
  const std::string& holder() const { return holder_; }

 private:
  std::string holder_;
};

class FolderLock {
 public:
  // Takes the lock file `dir`/`name` (created when missing) and writes this process into it;
  // throws FolderInUse when another process holds it, InputError or WriteError when the file
  // cannot be created or written.
  FolderLock(const std::filesystem::path& dir, const std::string& name);
  // Removes the lock file, then releases the lock (a process waiting on it sees it replaced).
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  std::filesystem::path file_;
  int fd_ = -1;
};

// Whether a process holds the lock file `file` (a missing file is held by nobody).
bool lockHeld(const std::filesystem::path& file);

}  // namespace ddalab
