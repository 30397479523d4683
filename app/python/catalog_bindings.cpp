// The catalog as data: every game, player and metric with its parameters (types, defaults,
// ranges), the same entries `ddalab list` prints, plug-ins' included.
#include <nlohmann/json.hpp>

#include "app/python/bindings.h"
#include "app/python/json_convert.h"
#include "core/catalog.h"
#include "games/registry.h"
#include "players/registry.h"

namespace py = pybind11;

namespace ddalab::python {

namespace {

// A bound of a parameter's range, or None where the parameter has none (the ±1e300 defaults).
py::object bound(double value) {
  if (value <= -1e300 || value >= 1e300) return py::none();
  return py::float_(value);
}

py::list paramsOf(const std::vector<ParamSpec>& specs) {
  py::list list;
  for (const ParamSpec& spec : specs) {
    py::dict entry;
    entry["name"] = spec.name;
    entry["type"] = typeName(spec.type);
    entry["default"] = toPython(spec.defaultValue);
    entry["min"] = bound(spec.min);
    entry["max"] = bound(spec.max);
    py::list choices;
    for (const Json& choice : spec.choices) choices.append(toPython(choice));
    entry["choices"] = choices;
    entry["length"] = spec.listLength == 0 ? py::object(py::none()) : py::int_(spec.listLength);
    entry["description"] = spec.description;
    list.append(entry);
  }
  return list;
}

py::list games() {
  py::list list;
  for (const GameInfo& info : gameRegistry()) {
    py::dict entry;
    entry["id"] = info.id;
    entry["description"] = info.description;
    entry["params"] = paramsOf(info.params);
    entry["thesis_coefficients"] = toPython(info.thesisCoefficients);
    entry["origin"] = catalog().gameOrigin(info.id);
    list.append(entry);
  }
  return list;
}

py::list players() {
  py::list list;
  for (const PlayerInfo& info : playerRegistry()) {
    py::list roles;
    if (info.canAct(PlayerKind::Regular)) roles.append("regular");
    if (info.canAct(PlayerKind::Environment)) roles.append("environment");
    py::dict entry;
    entry["id"] = info.id;
    entry["kind"] = info.kind == PlayerKind::Regular ? "regular" : "environment";
    entry["roles"] = roles;
    entry["description"] = info.description;
    entry["params"] = paramsOf(info.params);
    entry["ranks_actions"] = info.ranksActions;
    entry["adjusts_difficulty"] = info.adjustsDifficulty;
    entry["pursues_objective"] = info.pursuesObjective;
    entry["origin"] = catalog().playerOrigin(info.id);
    list.append(entry);
  }
  return list;
}

const char* betterName(Better better) {
  switch (better) {
    case Better::Higher:
      return "higher";
    case Better::Lower:
      return "lower";
    case Better::Neither:
      break;
  }
  return "neither";
}

py::list metrics() {
  py::list list;
  for (const MetricInfo& info : allMetrics()) {
    py::dict entry;
    entry["key"] = info.key;
    entry["label"] = info.label;
    entry["thesis_name"] = info.thesisName;
    entry["description"] = info.description;
    entry["better"] = betterName(info.better);
    entry["scored"] = info.scored;
    entry["extended"] = info.extended;
    entry["origin"] = catalog().metricOrigin(info.key);
    list.append(entry);
  }
  return list;
}

}  // namespace

void bindCatalog(py::module_& m) {
  m.def("games", &games,
        "The games of the catalog: id, description, parameters (name, type, default, min, max, "
        "choices, length, description), the thesis's coefficients and where the game came from.");
  m.def("players", &players,
        "The players of the catalog, regular and environment: id, kind, roles, description, "
        "parameters and capabilities.");
  m.def("metrics", &metrics,
        "The per-game metrics: key (the coefficient key), label, the thesis's name, description, "
        "which direction is better, whether it is scored.");
}

}  // namespace ddalab::python
