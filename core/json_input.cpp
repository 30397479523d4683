#include "core/json_input.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>

namespace ddalab {

// ---- Reading a file: bounded, every failure an InputError with the operating system's reason

std::string tooLargeMessage(const std::string& size, const InputFileKind& kind) {
  return "the file has " + size + " bytes; expected " + kind.expected + " of at most " +
         std::to_string(kind.maxBytes) + " bytes (" + std::to_string(kind.maxBytes >> 20) + " MiB)";
}

namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

std::string readInputFile(const std::filesystem::path& file, const InputFileKind& kind) {
  const std::string name = file.string();
  std::error_code error;
  const auto status = std::filesystem::status(file, error);
  if (error) throw InputError(name, "cannot open the file: " + error.message());
  if (std::filesystem::is_directory(status))
    throw InputError(name, std::string("cannot read the file: ") + std::strerror(EISDIR) +
                               "; expected " + kind.expected);
  // A FIFO, socket or device could block the read forever or never end: only files are read.
  if (!std::filesystem::is_regular_file(status))
    throw InputError(name,
                     "not a regular file (a pipe, socket or device); expected " + kind.expected);
  const auto size = std::filesystem::file_size(file, error);
  if (!error && size > kind.maxBytes)
    throw InputError(name, tooLargeMessage(std::to_string(size), kind));
  const std::unique_ptr<std::FILE, FileCloser> in(std::fopen(name.c_str(), "rb"));
  if (!in) throw InputError(name, std::string("cannot open the file: ") + std::strerror(errno));
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= kind.maxBytes) {  // bounded even when the size was not known
    const size_t read = std::fread(buffer, 1, sizeof buffer, in.get());
    if (read < sizeof buffer && std::ferror(in.get())) {
      const int reason = errno;
      throw InputError(name, std::string("cannot read the file: ") + std::strerror(reason));
    }
    text.append(buffer, read);
    if (read < sizeof buffer) break;
  }
  if (text.size() > kind.maxBytes)
    throw InputError(name, tooLargeMessage("more than " + std::to_string(kind.maxBytes), kind));
  return text;
}

namespace {

// ---- Parsing text: a SAX handler bounds the nesting, errors name the line and column

// Builds the document like Json::parse, but stops at arrays and objects nested deeper than
// kMaxJsonDepth and keeps the first error instead of throwing, so the caller can say where it is.
class BoundedDomBuilder {
 public:
  struct Failure {
    size_t position;  // characters read when it failed
    std::string lastToken;
    int id;  // nlohmann's exception id (406: number overflow)
    std::string what;
  };

  explicit BoundedDomBuilder(Json& root) : dom_(root, false) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& text) {
    return value() && dom_.number_float(v, text);
  }
  bool string(Json::string_t& v) { return value() && dom_.string(v); }
  bool binary(Json::binary_t& v) { return value() && dom_.binary(v); }
  bool key(Json::string_t& k) {
    Frame& object = frames_.back();
    if (!object.keys.insert(k).second) {  // the last would silently win: refused instead
      object.key = k;
      duplicate_ = path();
      return false;
    }
    object.key = k;
    return dom_.key(k);
  }
  bool start_object(size_t size) { return value() && enter(true) && dom_.start_object(size); }
  bool end_object() { return leave() && dom_.end_object(); }
  bool start_array(size_t size) { return value() && enter(false) && dom_.start_array(size); }
  bool end_array() { return leave() && dom_.end_array(); }
  bool parse_error(size_t position, const std::string& lastToken,
                   const nlohmann::detail::exception& error) {
    failure_ = Failure{position, lastToken, error.id, error.what()};
    return false;
  }

  // Whether parsing stopped at the nesting limit.
  bool tooDeep() const { return tooDeep_; }
  // The JSON path of a key an object repeats, when parsing stopped there.
  const std::optional<std::string>& duplicate() const { return duplicate_; }
  // The parser's error, if it reported one.
  const std::optional<Failure>& failure() const { return failure_; }

 private:
  // An object (its keys so far, the current one) or an array (the index of its last value).
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    long index = -1;
  };

  bool enter(bool object) {
    tooDeep_ = ++depth_ > kMaxJsonDepth;
    frames_.push_back({object, {}, {}, -1});
    return !tooDeep_;
  }
  bool leave() {
    --depth_;
    frames_.pop_back();
    return true;
  }
  // Before every value: counts the values of the enclosing array (for paths).
  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  std::string path() const {
    std::string text = "$";
    for (const Frame& f : frames_) {  // appended piece by piece (g++ 12 warns of "." + key)
      text.append(f.object ? "." : "[");
      // Keys are the user's text: escaped and bounded like every quote of input.
      text.append(f.object ? textExcerpt(f.key) : std::to_string(f.index));
      if (!f.object) text.append("]");
    }
    return text;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  size_t depth_ = 0;
  bool tooDeep_ = false;
  std::vector<Frame> frames_;
  std::optional<std::string> duplicate_;
  std::optional<Failure> failure_;
};

// Byte offset of the bracket opening nesting level `depth` in `text`, which is valid JSON up to
// there (the parser got that far); text.size() when there is none.
size_t offsetOfDepth(std::string_view text, size_t depth) {
  size_t level = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;  // skips the escaped character
      if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++level == depth) return i;
    } else if (c == ']' || c == '}') {
      --level;
    }
  }
  return text.size();
}

// An InputError at byte `offset` of `text`: path "source:line:column" (1-based; columns count
// characters, not bytes), message "<what> at line L, column C: <detail>".
InputError errorAt(std::string_view text, size_t offset, const std::string& source,
                   const std::string& what, const std::string& detail) {
  size_t line = 1, column = 1;
  const size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // a BOM takes no column
  for (size_t i = start; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {  // not a continuation
      ++column;
    }
  }
  const std::string lineText = std::to_string(line), columnText = std::to_string(column);
  return InputError(source + ":" + lineText + ":" + columnText,
                    what + " at line " + lineText + ", column " + columnText + ": " + detail);
}

// nlohmann's message without its "[json.exception...]" and position prefixes, the token it
// quotes cut to an excerpt.
std::string syntaxReason(const BoundedDomBuilder::Failure& failure) {
  std::string reason = failure.what;
  if (const size_t end = reason.find("] "); end != std::string::npos) reason.erase(0, end + 2);
  if (reason.starts_with("parse error at line"))
    if (const size_t end = reason.find(": "); end != std::string::npos) reason.erase(0, end + 2);
  const std::string quoted = "last read: '" + failure.lastToken + "'";
  if (const size_t at = reason.find(quoted); at != std::string::npos)
    reason.replace(at, quoted.size(), "last read: '" + textExcerpt(failure.lastToken) + "'");
  return reason;
}

// Parses JSON text into a document; every failure is an InputError at the line and column.
}  // namespace

Json parseJsonText(std::string_view text, const std::string& source) {
  // nlohmann's lexer takes a NUL byte outside a string for the end of the input (for C strings):
  // `{"a": 1}` NUL garbage parsed as the object. JSON has no NUL outside strings, and in a
  // string it must be escaped (\u0000).
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw errorAt(text, nul, source, "not valid JSON",
                  "a NUL byte; expected none (in a string, write \\u0000)");
  Json document;
  BoundedDomBuilder builder(document);
  if (Json::sax_parse(text.data(), text.data() + text.size(), &builder)) return document;
  if (builder.duplicate())
    throw InputError(source + ": " + *builder.duplicate(),
                     "the key appears twice in the same object; expected each key once (which "
                     "one counts would be a guess)");
  if (builder.tooDeep())
    throw errorAt(text, offsetOfDepth(text, kMaxJsonDepth + 1), source, "nested too deeply",
                  "arrays and objects nested more than " + std::to_string(kMaxJsonDepth) +
                      " levels deep; expected at most " + std::to_string(kMaxJsonDepth) +
                      " levels");
  if (!builder.failure()) throw InputError(source, "not valid JSON");  // not reached
  const auto& failure = *builder.failure();
  if (failure.id == 406)  // the position is just after the number
    throw errorAt(text, failure.position - std::min(failure.position, failure.lastToken.size()),
                  source, "number out of range of a double",
                  textExcerpt(failure.lastToken) + "; expected a magnitude of at most 1.8e308");
  throw errorAt(text, failure.position == 0 ? 0 : failure.position - 1, source, "not valid JSON",
                syntaxReason(failure));
}

CompleteLines completeLines(std::string_view text) {
  CompleteLines complete;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string_view::npos; start = end + 1)
    complete.lines.push_back(text.substr(start, end - start));
  complete.completeBytes = start;
  return complete;
}

JsonLines readJsonLines(const std::filesystem::path& file, const InputFileKind& kind) {
  JsonLines lines;
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, error))) return lines;
  const std::string text = readInputFile(file, kind);
  const CompleteLines complete = completeLines(text);
  for (size_t i = 0; i < complete.lines.size(); ++i) {
    try {
      lines.values.push_back(parseJsonText(complete.lines[i], ""));
    } catch (const InputError& e) {
      throw InputError(file.string() + ": line " + std::to_string(i + 1),
                       e.message() +
                           "; expected a JSON record on every line (only a torn last "
                           "line, without its newline, is dropped)");
    }
  }
  lines.completeBytes = complete.completeBytes;
  return lines;
}

// Whether `v` is an integer (not a float, however integral: 1e30 is out of every range) in
// [min, max]; compared without conversions that could wrap.
bool isIntegerIn(const Json& v, long long min, long long max) {
  if (v.is_number_unsigned()) {
    const uint64_t n = v.get<uint64_t>();
    return max >= 0 && n <= static_cast<uint64_t>(max) &&
           (min <= 0 || n >= static_cast<uint64_t>(min));
  }
  return v.is_number_integer() && v.get<long long>() >= min && v.get<long long>() <= max;
}

// `v` for an error message about an integer; integers beyond 64 bits say so, since JSON text such
// as 99999999999999999999 is read as the float 1e+20.
std::string integerGot(const Json& v) {
  const bool huge = v.is_number_float() && std::fabs(v.get<double>()) >= 9223372036854775808.0;
  return jsonExcerpt(v) + (huge ? " (beyond the 64-bit integer range)" : "");
}

}  // namespace ddalab
