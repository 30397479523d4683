#pragma once
// What several test files share: a temporary folder, reading a file, a small Ludo experiment,
// and the message validation gives for a batch document.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "experiments/batch.h"
#include "games/registry.h"

namespace ddalab {

// A fresh folder under the system's temporary folder, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("ddalab-test-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `text` into the file `name` of the folder; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name, std::ios::binary) << text;
    return path_ / name;
  }

 private:
  std::filesystem::path path_;
};

// The bytes of `file` ("" when it cannot be read).
inline std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A two-player Ludo experiment of HillClimbers (levels 50 and 100) in comparison "c".
inline Json ludoExperiment(const std::string& name, const std::string& environment,
                           int iterations) {
  return {{"name", name},
          {"comparison", "c"},
          {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
          {"players", {{{"id", "hillclimber"}, {"level", 50}}, {{"id", "hillclimber"}}}},
          {"environment", {{"id", environment}}},
          {"coefficients", {{"believability", 1000}, {"tension", 10}, {"lead", 3}}},
          {"iterations", iterations}};
}

// The InputError message parseBatch gives for `document` ("" when it is valid).
inline std::string errorOf(const Json& document) {
  try {
    parseBatch(document, "file.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Parameters of the game `id` for tests that need it to run, not to end: a game with a
// `max_rounds` parameter stops after `rounds` rounds (search environment players cost seconds per
// HexaLines game at full length).
inline Json shortGameParams(const std::string& id, int rounds = 20) {
  for (const auto& info : gameRegistry())
    if (info.id == id)
      for (const auto& spec : info.params)
        if (spec.name == "max_rounds") return {{"max_rounds", rounds}};
  return Json::object();
}

// The game `id` in a batch document with shortGameParams.
inline Json shortGame(const std::string& id) {
  return {{"id", id}, {"params", shortGameParams(id)}};
}

// The message of the InputError `f` throws, or "accepted".
template <typename F>
std::string refusalOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace ddalab
