#pragma once
// JSON <-> Python values: dicts, lists, str, int, float, bool and None, both ways.
#include <pybind11/pybind11.h>

#include <string>

#include "core/params.h"

namespace ddalab::python {

// The Python value of `value` (objects become dicts, arrays lists).
pybind11::object toPython(const Json& value);
// The JSON of `value`; throws pybind11::type_error naming `path` (a JSON path such as
// "params.level") for a value JSON cannot hold (a set, an object, a NaN is kept as JSON's NaN),
// and InputError naming the path for a dict or list inside itself or nested deeper than
// kMaxJsonDepth (refused before converting deeper, so no input can exhaust the stack).
Json fromPython(pybind11::handle value, const std::string& path);

}  // namespace ddalab::python
