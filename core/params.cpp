#include "core/params.h"

#include <cmath>
#include <sstream>

namespace ddalab {

namespace {

std::string rangeText(const ParamSpec& spec) {
  if (spec.type != ParamType::Int && spec.type != ParamType::Double &&
      spec.type != ParamType::IntList)
    return "";
  std::ostringstream out;  // (a stream: GCC 12 warns falsely on "literal" + string&&)
  out << '[' << spec.min << ", " << spec.max << ']';
  return out.str();
}

bool isInteger(const Json& v) {
  if (v.is_number_integer()) return true;
  return v.is_number_float() && std::floor(v.get<double>()) == v.get<double>();
}

void checkRange(const ParamSpec& spec, const Json& v, const std::string& where) {
  const double x = v.get<double>();
  if (x < spec.min || x > spec.max)
    throw InputError(where, "value " + v.dump() + " is out of range; expected " +
                                typeName(spec.type) + " in " + rangeText(spec));
}

Json checkType(const ParamSpec& spec, const Json& v, const std::string& where) {
  const std::string expected = "expected " + typeName(spec.type);
  switch (spec.type) {
    case ParamType::Int:
      if (!v.is_number() || !isInteger(v)) throw InputError(where, expected + ", got " + v.dump());
      checkRange(spec, v, where);
      return Json(v.get<long long>());
    case ParamType::Double:
      if (!v.is_number()) throw InputError(where, expected + ", got " + v.dump());
      checkRange(spec, v, where);
      return Json(v.get<double>());
    case ParamType::Bool:
      if (!v.is_boolean()) throw InputError(where, expected + ", got " + v.dump());
      return v;
    case ParamType::String:
      if (!v.is_string()) throw InputError(where, expected + ", got " + v.dump());
      return v;
    case ParamType::IntList: {
      if (!v.is_array()) throw InputError(where, expected + ", got " + v.dump());
      if (spec.listLength && v.size() != spec.listLength)
        throw InputError(
            where, "expected " + std::to_string(spec.listLength) + " integers, got " + v.dump());
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!v[i].is_number() || !isInteger(v[i]))
          throw InputError(at, "expected integer, got " + v[i].dump());
        checkRange(spec, v[i], at);
      }
      return v;
    }
    case ParamType::Object:  // checked by whoever interprets it (e.g. another schema)
      if (!v.is_object()) throw InputError(where, expected + ", got " + v.dump());
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
  throw InputError(where, "value " + v.dump() + " is not allowed; valid: " + list);
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

Json validateParams(std::span<const ParamSpec> schema, const Json& given, const std::string& path) {
  if (!given.is_null() && !given.is_object())
    throw InputError(path, "expected an object of parameters, got " + given.dump());
  Json result = Json::object();
  for (const auto& spec : schema) result[spec.name] = spec.defaultValue;
  if (given.is_null()) return result;
  for (const auto& [key, v] : given.items()) {
    const std::string where = path + "." + key;
    const ParamSpec* spec = nullptr;
    for (const auto& s : schema)
      if (s.name == key) spec = &s;
    if (!spec) {
      std::string valid;
      for (const auto& s : schema) valid += (valid.empty() ? "" : ", ") + s.name;
      throw InputError(
          where, "unknown parameter '" + key + "'; valid: " + (valid.empty() ? "(none)" : valid));
    }
    result[key] = checkValue(*spec, v, where);
  }
  return result;
}

}  // namespace ddalab
