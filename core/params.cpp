#include "core/params.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>

namespace ddalab {

namespace {

// --- Excerpts: bounded, escaped renderings of input for error messages ---

bool isContinuationByte(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

// Length of the well-formed UTF-8 sequence `text` starts with (RFC 3629: no overlong forms, no
// surrogates, at most U+10FFFF); 0 when it starts with an ill-formed one.
size_t utf8SequenceLength(std::string_view text) {
  const auto byte = [&text](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  }
  if (length == 0 || text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (size_t i = 2; i < length; ++i)
    if (!isContinuationByte(byte(i))) return 0;
  return length;
}

// Whether the sequence of `length` bytes at the start of `text` is a control character: C0,
// DEL or C1 (U+0080..U+009F, which some terminals obey as commands).
bool isControlCharacter(std::string_view text, size_t length) {
  const auto lead = static_cast<unsigned char>(text[0]);
  if (length == 1) return lead < 0x20 || lead == 0x7F;
  return length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[1]) <= 0x9F;
}

void appendHex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kDigits[(value >> shift) & 15];
}

// Appends `text` with control characters escaped JSON-style and invalid bytes as \xNN (and, in
// JSON strings, '"' and '\\' escaped); stops once `out` is longer than `limit`, so only a
// bounded prefix of a huge text is ever copied.
void appendEscaped(std::string& out, std::string_view text, bool jsonString, size_t limit) {
  for (size_t i = 0; i < text.size() && out.size() <= limit;) {
    const std::string_view rest = text.substr(i);
    const size_t length = utf8SequenceLength(rest);
    const auto lead = static_cast<unsigned char>(rest[0]);
    if (length == 0) {
      appendHex(out, "\\x", lead, 2);
    } else if (isControlCharacter(rest, length)) {
      const unsigned code = length == 1 ? lead : static_cast<unsigned char>(rest[1]);
      if (code == '\n')
        out += "\\n";
      else if (code == '\t')
        out += "\\t";
      else if (code == '\r')
        out += "\\r";
      else
        appendHex(out, "\\u", code, 4);
    } else {
      if (jsonString && (lead == '"' || lead == '\\')) out += '\\';
      out.append(rest.substr(0, length));
    }
    i += length == 0 ? 1 : length;
  }
}

// Cuts `out` to `maxBytes` (on a character boundary) and marks the cut with "…".
std::string finishExcerpt(std::string out, size_t maxBytes) {
  if (out.size() <= maxBytes) return out;
  size_t cut = maxBytes;
  while (cut > 0 && isContinuationByte(static_cast<unsigned char>(out[cut]))) --cut;
  out.resize(cut);
  return out + "\u2026";
}

std::string numberText(const Json& v) {
  if (!v.is_number_float()) return v.dump();  // integers: exact
  const double x = v.get<double>();
  if (std::isnan(x)) return "NaN";  // dump() would print null
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return v.dump();
}

// Writes JSON text depth-first with an explicit stack (no recursion) until the excerpt is full.
class ExcerptWriter {
 public:
  std::string write(const Json& value) {
    begin(value);
    while (!frames_.empty() && !full()) step();
    return finishExcerpt(std::move(out_), kExcerptBytes);
  }

 private:
  struct Frame {
    const Json* container;
    Json::const_iterator next;
    bool first = true;
  };

  bool full() const { return out_.size() > kExcerptBytes; }

  void quoted(std::string_view text) {
    out_ += '"';
    appendEscaped(out_, text, true, kExcerptBytes);
    out_ += '"';
  }

  void begin(const Json& v) {
    if (v.is_structured()) {
      out_ += v.is_array() ? '[' : '{';
      frames_.push_back({&v, v.cbegin()});
    } else if (v.is_string()) {
      quoted(v.get_ref<const std::string&>());
    } else if (v.is_number()) {
      out_ += numberText(v);
    } else if (v.is_binary()) {
      out_ += "<binary>";
    } else if (v.is_discarded()) {
      out_ += "<discarded>";
    } else {
      out_ += v.dump();  // null, true, false
    }
  }

  void step() {
    Frame& top = frames_.back();
    if (top.next == top.container->cend()) {
      out_ += top.container->is_array() ? ']' : '}';
      frames_.pop_back();
      return;
    }
    if (!top.first) out_ += ',';
    top.first = false;
    if (top.container->is_object()) {
      quoted(top.next.key());
      out_ += ':';
    }
    const Json& child = *top.next;
    ++top.next;
    begin(child);  // may grow frames_: `top` is not used after this
  }

  std::string out_;
  std::vector<Frame> frames_;
};

// The JSON path segment of the element `it` points at: ".key" or "[index]".
std::string pathSegment(const Json& container, const Json::const_iterator& it, size_t index) {
  std::string
      segment;  // appended piece by piece: "literal" + std::string trips g++ 12's -Wrestrict
  if (container.is_object()) return segment.append(".").append(textExcerpt(it.key()));
  return segment.append("[").append(std::to_string(index)).append("]");
}

// --- Parameter values ---

std::string rangeText(const ParamSpec& spec) {
  if (spec.type != ParamType::Int && spec.type != ParamType::Double &&
      spec.type != ParamType::IntList)
    return "";
  std::ostringstream out;  // (a stream: GCC 12 warns falsely on "literal" + string&&)
  out << '[' << spec.min << ", " << spec.max << ']';
  return out.str();
}

bool isFiniteNumber(const Json& v) {
  return v.is_number() && std::isfinite(v.get<double>());
}

// Whether `v` is a number with an integral value (1 and 1.0, not 1.5, NaN or infinity).
bool isInteger(const Json& v) {
  if (v.is_number_integer()) return true;
  return isFiniteNumber(v) && std::floor(v.get<double>()) == v.get<double>();
}

// The value of an integer `v` when a 64-bit signed integer holds it exactly.
std::optional<long long> asInt64(const Json& v) {
  constexpr auto kMax = std::numeric_limits<long long>::max();
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(kMax)) return std::nullopt;
    return static_cast<long long>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) return v.get<long long>();
  const double x = v.get<double>();
  constexpr double kTwoTo63 = 9223372036854775808.0;  // exactly representable, unlike kMax
  if (!(x >= -kTwoTo63 && x < kTwoTo63)) return std::nullopt;
  return static_cast<long long>(x);
}

// `v` must be a finite number (the caller checked).
void checkRange(const ParamSpec& spec, const Json& v, const std::string& where) {
  const double x = v.get<double>();
  if (x < spec.min || x > spec.max)
    throw InputError(where, "value " + jsonExcerpt(v) + " is out of range; expected " +
                                typeName(spec.type) + " in " + rangeText(spec));
}

// An integer of an Int or IntList parameter, in its range and in 64 bits.
long long checkInteger(const ParamSpec& spec, const Json& v, const std::string& where,
                       const std::string& expected) {
  if (!isInteger(v)) throw InputError(where, expected + ", got " + jsonExcerpt(v));
  checkRange(spec, v, where);
  const auto n = asInt64(v);
  if (!n)
    throw InputError(where, "value " + jsonExcerpt(v) +
                                " is out of range; expected an integer in [-9223372036854775808, "
                                "9223372036854775807]");
  return *n;
}

Json checkType(const ParamSpec& spec, const Json& v, const std::string& where) {
  const std::string expected = "expected " + typeName(spec.type);
  switch (spec.type) {
    case ParamType::Int:
      return Json(checkInteger(spec, v, where, expected));
    case ParamType::Double:
      if (!isFiniteNumber(v))  // also refuses NaN and infinities from documents built in code
        throw InputError(where, expected + " (finite), got " + jsonExcerpt(v));
      checkRange(spec, v, where);
      return Json(v.get<double>());
    case ParamType::Bool:
      if (!v.is_boolean()) throw InputError(where, expected + ", got " + jsonExcerpt(v));
      return v;
    case ParamType::String:
      if (!v.is_string()) throw InputError(where, expected + ", got " + jsonExcerpt(v));
      return v;
    case ParamType::IntList: {
      if (!v.is_array()) throw InputError(where, expected + ", got " + jsonExcerpt(v));
      if (spec.listLength && v.size() != spec.listLength)
        throw InputError(where, "expected " + std::to_string(spec.listLength) + " integers, got " +
                                    jsonExcerpt(v));
      for (size_t i = 0; i < v.size(); ++i)
        checkInteger(spec, v[i], where + "[" + std::to_string(i) + "]", "expected integer");
      return v;
    }
    case ParamType::Object:  // checked by whoever interprets it (e.g. another schema)
      if (!v.is_object()) throw InputError(where, expected + ", got " + jsonExcerpt(v));
      return v;
  }
  return v;
}

Json checkValue(const ParamSpec& spec, const Json& v, const std::string& where) {
  Json checked = checkType(spec, v, where);
  if (spec.choices.empty()) return checked;
  std::string list;
  for (const auto& c : spec.choices) {
    if (c == checked) return checked;
    list += (list.empty() ? "" : ", ") + c.dump();
  }
  throw InputError(where, "value " + jsonExcerpt(v) + " is not allowed; valid: " + list);
}

}  // namespace

std::string typeName(ParamType type) {
  switch (type) {
    case ParamType::Int:
      return "integer";
    case ParamType::Double:
      return "number";
    case ParamType::Bool:
      return "boolean";
    case ParamType::String:
      return "string";
    case ParamType::IntList:
      return "list of integers";
    case ParamType::Object:
      return "object";
  }
  return "?";
}

std::string describe(const ParamSpec& spec) {
  std::string line =
      spec.name + " (" + typeName(spec.type) + ", default " + spec.defaultValue.dump();
  if (const auto range = rangeText(spec); !range.empty()) line += ", range " + range;
  if (!spec.choices.empty()) {
    line += ", one of";
    for (const auto& c : spec.choices) line.append(" ").append(c.dump());
  }
  return line.append("): ").append(spec.description);
}

std::string valueText(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string jsonExcerpt(const Json& value) {
  return ExcerptWriter().write(value);
}

std::string textExcerpt(std::string_view text, size_t maxBytes) {
  std::string out;
  appendEscaped(out, text, false, maxBytes);
  return finishExcerpt(std::move(out), maxBytes);
}

size_t findUnprintable(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8SequenceLength(text.substr(i));
    if (length == 0 || isControlCharacter(text.substr(i), length)) return i;
    i += length;
  }
  return std::string_view::npos;
}

void checkNestingDepth(const Json& value, const std::string& path, size_t maxDepth) {
  struct Frame {
    const Json* container;
    Json::const_iterator next;
    size_t index;         // of `next` within the container
    std::string segment;  // the container's own path segment
  };
  if (!value.is_structured()) return;
  if (maxDepth == 0) throw InputError(path, "expected no arrays or objects");
  std::vector<Frame> frames;
  frames.push_back({&value, value.cbegin(), 0, ""});
  while (!frames.empty()) {
    Frame& top = frames.back();
    if (top.next == top.container->cend()) {
      frames.pop_back();
      continue;
    }
    const Json& child = *top.next;
    const size_t index = top.index++;
    const Json::const_iterator at = top.next++;
    if (!child.is_structured()) continue;
    std::string segment = pathSegment(*top.container, at, index);
    if (frames.size() == maxDepth) {
      std::string where = path;
      for (const auto& frame : frames) where += frame.segment;
      throw InputError(where + segment, "arrays and objects nested more than " +
                                            std::to_string(maxDepth) +
                                            " levels deep; expected at "
                                            "most " +
                                            std::to_string(maxDepth) + " levels");
    }
    frames.push_back({&child, child.cbegin(), 0, std::move(segment)});  // `top` is stale now
  }
}

Json validateParams(std::span<const ParamSpec> schema, const Json& given, const std::string& path) {
  if (!given.is_null() && !given.is_object())
    throw InputError(path, "expected an object of parameters, got " + jsonExcerpt(given));
  checkNestingDepth(given, path);  // before anything below compares or copies values recursively
  Json result = Json::object();
  for (const auto& spec : schema)  // a number's default as its type, as a given value would be
    result[spec.name] = spec.type == ParamType::Double && spec.defaultValue.is_number()
                            ? Json(spec.defaultValue.get<double>())
                            : spec.defaultValue;
  if (given.is_null()) return result;
  for (const auto& [key, v] : given.items()) {
    const std::string where = path + "." + textExcerpt(key);
    const ParamSpec* spec = nullptr;
    for (const auto& s : schema)
      if (s.name == key) spec = &s;
    if (!spec) {
      std::string valid;
      for (const auto& s : schema) valid += (valid.empty() ? "" : ", ") + s.name;
      throw InputError(where, "unknown parameter '" + textExcerpt(key) +
                                  "'; valid: " + (valid.empty() ? "(none)" : valid));
    }
    result[key] = checkValue(*spec, v, where);
  }
  return result;
}

}  // namespace ddalab
