#pragma once
// Reading JSON input files strictly (batch files, study protocols): a bounded read whose every
// failure names the file and the operating system's reason, parse errors at their line and column,
// and strict access to an object's fields that names the JSON path of every mistake.
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.h"

namespace ddalab {

// Runs `parse`; an InputError it throws (at a JSON path) is thrown again with `source` (the file)
// in front of its path.
template <typename Parse>
auto withInputSource(const std::string& source, Parse parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.path(), e.message());
  }
}

// What kind of file a reader expects: how large it may be and what to call it in a message.
struct InputFileKind {
  size_t maxBytes;
  std::string expected;  // "a batch or experiment JSON file"
};

// The whole text of `file`, refused before reading when it is a directory, not a regular file or
// larger than kind.maxBytes; every failure an InputError naming the file.
std::string readInputFile(const std::filesystem::path& file, const InputFileKind& kind);
// The message for text of `size` bytes, more than `kind` allows.
std::string tooLargeMessage(const std::string& size, const InputFileKind& kind);

// Parses JSON text into a document; every failure (syntax, nesting deeper than kMaxJsonDepth,
// duplicate keys, numbers out of range) is an InputError at the line and column of `source`.
Json parseJsonText(std::string_view text, const std::string& source);

// The complete lines of `text`, read from a file that is only appended to: a torn last line (no
// newline: a kill during an append) is left out, for the writer to cut. `completeBytes`: the bytes
// the complete lines take, newlines included.
struct CompleteLines {
  std::vector<std::string_view> lines;  // into `text`, without their newlines
  size_t completeBytes = 0;
};
CompleteLines completeLines(std::string_view text);

// A file of one JSON value a line that is only appended to (serve's tokens, a game's moves): its
// complete lines, parsed, and the bytes they take. Only a torn last line (no newline: a kill
// during an append) is left out, for the writer to cut; any other line that is not JSON is an
// InputError naming the file and the line, and nothing is dropped. A missing file has no lines.
struct JsonLines {
  std::vector<Json> values;
  uintmax_t completeBytes = 0;
};
JsonLines readJsonLines(const std::filesystem::path& file, const InputFileKind& kind);

// Whether `v` is an integer (not a float, however integral: 1e30 is out of every range) in
// [min, max]; compared without conversions that could wrap.
bool isIntegerIn(const Json& v, long long min, long long max);
// `v` for an error message about an integer (integers beyond 64 bits say so).
std::string integerGot(const Json& v);

// Strict access to the fields of one JSON object: unknown keys are errors, every read names the
// JSON path and the expected type.
class JsonFields {
 public:
  JsonFields(const Json& object, std::string path, std::initializer_list<const char*> allowed)
      : object_(object), path_(std::move(path)) {
    if (!object.is_object())
      throw InputError(path_, "expected an object, got " + jsonExcerpt(object));
    for (const auto& [key, value] : object.items()) {
      bool known = false;
      std::string valid;
      for (const char* name : allowed) {
        known = known || key == name;
        valid += (valid.empty() ? "" : ", ") + std::string(name);
      }
      if (!known)
        throw InputError(at(textExcerpt(key)),
                         "unknown key '" + textExcerpt(key) + "'; valid: " + valid);
    }
  }

  std::string at(const std::string& key) const { return path_ + "." + key; }
  bool has(const char* key) const { return object_.contains(key); }
  const Json& get(const char* key) const {
    if (!has(key)) throw InputError(at(key), "missing required key");
    return object_.at(key);
  }
  const Json* find(const char* key) const { return has(key) ? &object_.at(key) : nullptr; }

  std::string string(const char* key) const {
    const Json& v = get(key);
    if (!v.is_string() || v.get<std::string>().empty())
      throw InputError(at(key), "expected a non-empty string, got " + jsonExcerpt(v));
    return v.get<std::string>();
  }
  std::string string(const char* key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
  }
  long long integer(const char* key, long long min, long long max) const {
    const Json& v = get(key);
    if (!isIntegerIn(v, min, max))
      throw InputError(at(key), "expected an integer in [" + std::to_string(min) + ", " +
                                    std::to_string(max) + "], got " + integerGot(v));
    return v.get<long long>();
  }
  long long integer(const char* key, long long min, long long max, long long fallback) const {
    return has(key) ? integer(key, min, max) : fallback;
  }
  uint64_t unsignedInteger(const char* key) const {
    const Json& v = get(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
      throw InputError(at(key), "expected a non-negative integer in [0, " +
                                    std::to_string(std::numeric_limits<uint64_t>::max()) +
                                    "], got " + integerGot(v));
    return v.get<uint64_t>();
  }

 private:
  const Json& object_;
  std::string path_;
};

}  // namespace ddalab
