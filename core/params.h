#pragma once
// Parameter schemas of games and players: they drive validation, `ddalab list` and the GUI.
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ddalab {

using Json = nlohmann::json;

// Bad input: says where (file, JSON path) and what was expected.
class InputError : public std::runtime_error {
 public:
  InputError(std::string path, std::string message)
      : std::runtime_error(path.empty() ? message : path + ": " + message),
        path_(std::move(path)),
        message_(std::move(message)) {}
  // Where: a file and/or JSON path ("" when not known).
  const std::string& path() const { return path_; }
  // What was wrong and what was expected.
  const std::string& message() const { return message_; }

 private:
  std::string path_;
  std::string message_;
};

enum class ParamType { Int, Double, Bool, String, IntList, Object };

struct ParamSpec {
  std::string name;
  ParamType type;
  Json defaultValue;
  double min = -1e300;  // inclusive range of numbers (and of list elements)
  double max = 1e300;
  std::string description;
  std::vector<Json> choices = {};  // allowed values; empty = any in range
  size_t listLength = 0;           // IntList: required number of elements; 0 = any
};

// "int", "number", ... as shown to users.
std::string typeName(ParamType type);
// One line per parameter: name, type, default, range, description.
std::string describe(const ParamSpec& spec);

// Checks `given` (an object, or null for none) against the schema and returns an object with
// every parameter, defaults filled in. Unknown keys, wrong types and out-of-range values throw
// InputError naming `path` + the key and listing what is valid.
Json validateParams(std::span<const ParamSpec> schema, const Json& given, const std::string& path);

// Finds `id` among the ids; throws InputError listing the valid ids if absent.
template <typename Entry>
const Entry& findById(std::span<const Entry> entries, const std::string& id,
                      const std::string& what, const std::string& path) {
  for (const auto& e : entries)
    if (e.id == id) return e;
  std::string valid;
  for (const auto& e : entries) valid += (valid.empty() ? "" : ", ") + e.id;
  throw InputError(path, "unknown " + what + " '" + id + "'; valid: " + valid);
}

}  // namespace ddalab
