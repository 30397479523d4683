#pragma once
// Parameter schemas of games and players: they drive validation, `ddalab list` and the GUI.
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
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

// Arrays and objects nested deeper than this are refused: no input needs it (batch files nest 8
// deep) and walking deeper values recursively could overflow the stack.
inline constexpr size_t kMaxJsonDepth = 64;

// Error messages show at most this many bytes of an offending value (then "…").
inline constexpr size_t kExcerptBytes = 60;

// `value` as a person writes it in a name or a table cell: a string without its quotes,
// anything else as compact JSON ("0.2", "true", "[1,2]").
std::string valueText(const Json& value);

// `value` as short one-line JSON for error messages: control characters and invalid UTF-8
// escaped, cut after kExcerptBytes with "…"; iterative, so safe at any nesting depth or size.
std::string jsonExcerpt(const Json& value);

// `text` (an id or key given by the user) escaped like jsonExcerpt, without quotes, cut after
// `maxBytes` with "…" (more for messages that may quote input, such as a player's reasons).
std::string textExcerpt(std::string_view text, size_t maxBytes = kExcerptBytes);

// Byte offset of the first control character (C0, DEL or C1) or invalid UTF-8 in `text`;
// std::string_view::npos when there is none.
size_t findUnprintable(std::string_view text);

// Throws InputError at `path` + the JSON path of the first array or object nested deeper than
// `maxDepth` (the outermost counts as 1). Iterative, so it is safe on any document.
void checkNestingDepth(const Json& value, const std::string& path, size_t maxDepth = kMaxJsonDepth);

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
// every parameter, defaults filled in. Unknown keys, wrong types, non-finite numbers, integers
// beyond 64 bits, out-of-range values and nesting deeper than kMaxJsonDepth throw InputError
// naming `path` + the key and listing what is valid.
Json validateParams(std::span<const ParamSpec> schema, const Json& given, const std::string& path);

// Finds `id` among the ids; throws InputError listing the valid ids if absent.
template <typename Entry>
const Entry& findById(std::span<const Entry> entries, const std::string& id,
                      const std::string& what, const std::string& path) {
  for (const auto& e : entries)
    if (e.id == id) return e;
  std::string valid;
  for (const auto& e : entries) valid += (valid.empty() ? "" : ", ") + e.id;
  throw InputError(path, "unknown " + what + " '" + textExcerpt(id) + "'; valid: " + valid);
}

}  // namespace ddalab
