#include "app/python/json_convert.h"

#include <nlohmann/json.hpp>

namespace py = pybind11;

namespace ddalab::python {

py::object toPython(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      py::dict dict;
      for (const auto& [key, item] : value.items()) dict[py::str(key)] = toPython(item);
      return dict;
    }
    case Json::value_t::array: {
      py::list list;
      for (const auto& item : value) list.append(toPython(item));
      return list;
    }
    case Json::value_t::string:
      return py::str(value.get<std::string>());
    case Json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case Json::value_t::number_integer:
      return py::int_(value.get<long long>());
    case Json::value_t::number_unsigned:
      return py::int_(value.get<unsigned long long>());
    case Json::value_t::number_float:
      return py::float_(value.get<double>());
    default:
      return py::none();
  }
}

Json fromPython(py::handle value, const std::string& path) {
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) {
    // Python's ints are unbounded; JSON's (and ddalab's parameters) stop at 64 bits.
    try {
      return value.cast<long long>();
    } catch (const py::cast_error&) {
    }
    try {
      return value.cast<unsigned long long>();
    } catch (const py::cast_error&) {
      throw py::type_error(path + ": expected an integer of at most 64 bits");
    }
  }
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    Json object = Json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(path + ": expected string keys, got " +
                             std::string(py::str(py::type::of(key).attr("__name__"))));
      const std::string name = key.cast<std::string>();
      object[name] = fromPython(item, path.empty() ? name : path + "." + name);
    }
    return object;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    Json array = Json::array();
    size_t index = 0;
    for (const auto& item : value)
      array.push_back(fromPython(item, path + "[" + std::to_string(index++) + "]"));
    return array;
  }
  // numpy scalars and the like: anything that converts to int or float exactly.
  if (py::hasattr(value, "item")) return fromPython(value.attr("item")(), path);
  throw py::type_error((path.empty() ? std::string("value") : path) +
                       ": expected a dict, list, str, int, float, bool or None, got " +
                       std::string(py::str(py::type::of(value).attr("__name__"))));
}

}  // namespace ddalab::python
