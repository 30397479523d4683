#pragma once
// A POSIX tar archive (ustar) built in memory: what the researcher downloads of a study folder
// (OnlineStudy::researcherArchive). Regular files only, each owned by uid and gid 0, mode 0644.
#include <cstddef>
#include <ctime>
#include <string>

namespace ddalab {

class TarArchive {
 public:
  // The longest name add() takes: ustar's name field (its 155-character prefix field is not used).
  static constexpr size_t kMaxName = 100;

  // Appends a regular file `name` (at most kMaxName bytes; a longer one is left out, returning
  // false) holding `content`, last modified at `modified`.
  bool add(const std::string& name, const std::string& content,
           std::time_t modified = std::time(nullptr));
  // The archive's bytes, ended by its two empty blocks; the archive is empty again afterwards.
  std::string finish();

 private:
  std::string bytes_;
};

}  // namespace ddalab
