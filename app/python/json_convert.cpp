#include "app/python/json_convert.h"

#include <nlohmann/json.hpp>
#include <vector>

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

namespace {

// One conversion: the containers being converted (outermost first) and their paths, so that a
// container met again inside itself is a cycle, and the nesting is bounded before the C++ stack
// is (a recursion per level, at most kMaxJsonDepth deep).
class Converter {
 public:
  Json convert(py::handle value, const std::string& path, bool scalarOnly = false) {
    if (value.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
    if (py::isinstance<py::int_>(value)) return integer(value, path);
    if (py::isinstance<py::float_>(value)) return value.cast<double>();
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    const bool dict = py::isinstance<py::dict>(value);
    if (!scalarOnly &&
        (dict || py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value))) {
      enter(value, path);
      Json json = dict ? object(value, path) : array(value, path);
      open_.pop_back();
      return json;
    }
    // numpy scalars and the like: anything whose item() is an int, float, bool, str or None.
    if (!scalarOnly && py::hasattr(value, "item")) return convert(value.attr("item")(), path, true);
    throw py::type_error(where(path) +
                         ": expected a dict, list, str, int, float, bool or None, got " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
  }

 private:
  struct Open {
    PyObject* container;
    std::string path;
  };

  static std::string where(const std::string& path) { return path.empty() ? "value" : path; }

  // A dict or list one level deeper: refused when it is one of those it is inside of, or when it
  // would nest deeper than any ddalab input may (as checkNestingDepth counts: the outermost is 1).
  void enter(py::handle container, const std::string& path) {
    for (const Open& outer : open_)
      if (outer.container == container.ptr())
        throw InputError(where(path), "the " + kindOf(container) + " at " + where(outer.path) +
                                          " contains itself; expected values JSON can hold, "
                                          "without cycles");
    if (open_.size() == kMaxJsonDepth) {
      const std::string levels = std::to_string(kMaxJsonDepth);
      throw InputError(where(path), "arrays and objects nested more than " + levels +
                                        " levels deep; expected at most " + levels + " levels");
    }
    open_.push_back({container.ptr(), path});
  }

  static std::string kindOf(py::handle container) {
    return py::isinstance<py::dict>(container) ? "dict" : "list";
  }

  // Python's ints are unbounded; JSON's (and ddalab's parameters) stop at 64 bits.
  static Json integer(py::handle value, const std::string& path) {
    try {
      return value.cast<long long>();
    } catch (const py::cast_error&) {
    }
    try {
      return value.cast<unsigned long long>();
    } catch (const py::cast_error&) {
      throw py::type_error(where(path) + ": expected an integer of at most 64 bits");
    }
  }

  Json object(py::handle value, const std::string& path) {
    Json object = Json::object();
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(where(path) + ": expected string keys, got " +
                             std::string(py::str(py::type::of(key).attr("__name__"))));
      const std::string name = key.cast<std::string>();
      object[name] =
          convert(item, path.empty() ? textExcerpt(name) : path + "." + textExcerpt(name));
    }
    return object;
  }

  Json array(py::handle value, const std::string& path) {
    Json array = Json::array();
    size_t index = 0;
    for (const auto& item : value)
      array.push_back(convert(item, path + "[" + std::to_string(index++) + "]"));
    return array;
  }

  std::vector<Open> open_;
};

}  // namespace

Json fromPython(py::handle value, const std::string& path) {
  return Converter().convert(value, path);
}

}  // namespace ddalab::python
