#include "experiments/sweep.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <variant>

#include "experiments/formats.h"
#include "experiments/name_checks.h"

namespace ddalab {

namespace {

// Most experiments a batch's sweeps may expand into (grid points times the rows played at each,
// with the batch's other experiments), counted before any is made. `validate` of that many took
// 74 s and 0.6 GB on a loaded 2-core machine; a larger study runs as several batches.
constexpr size_t kMaxSweepExperiments = 100'000;

// ---- paths -----------------------------------------------------------------------------------

using Segment = std::variant<std::string, size_t>;  // an object key or an array index

bool isKeyCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// "players[0].level" -> players, 0, level; throws InputError at `where` when malformed.
std::vector<Segment> parsePath(const std::string& path, const std::string& where) {
  const std::string expected =
      "expected a path into the experiment such as coefficients.tension, "
      "environment.params.random_prob or players[0].level, got " +
      jsonExcerpt(path);
  std::vector<Segment> segments;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (segments.empty() || close == std::string::npos || close == i + 1)
        throw InputError(where, expected);
      size_t index = 0;
      for (size_t k = i + 1; k < close; ++k) {
        if (path[k] < '0' || path[k] > '9' || index > 1'000'000) throw InputError(where, expected);
        index = index * 10 + static_cast<size_t>(path[k] - '0');
      }
      segments.emplace_back(index);
      i = close + 1;
      continue;
    }
    if (path[i] == '.') {
      if (segments.empty()) throw InputError(where, expected);
      ++i;
    }
    const size_t start = i;
    while (i < path.size() && isKeyCharacter(path[i])) ++i;
    if (i == start) throw InputError(where, expected);
    segments.emplace_back(path.substr(start, i - start));
  }
  if (segments.empty()) throw InputError(where, expected);
  const auto& first = std::get<std::string>(segments.front());
  if (first == "name" || first == "comparison" || first == "point")
    throw InputError(where,
                     "the sweep names the experiments and comparisons and records each one's "
                     "point itself; expected another path than " +
                         jsonExcerpt(path));
  return segments;
}

// Sets `value` at `segments` in `experiment`; objects on the way are created (coefficients,
// params), arrays must hold the index. Throws InputError at `where`.
void setAt(Json& experiment, const std::vector<Segment>& segments, const Json& value,
           const std::string& path, const std::string& where) {
  Json* node = &experiment;
  std::string walked = "$";
  for (size_t s = 0; s < segments.size(); ++s) {
    if (const auto* key = std::get_if<std::string>(&segments[s])) {
      if (!node->is_object())
        throw InputError(where, "path " + path + ": " + walked + " is " + jsonExcerpt(*node) +
                                    ", not an object with '" + *key + "'");
      if (s == 0 && *key == "players" && !node->contains("players"))
        throw InputError(where, "path " + path +
                                    ": the experiment has no \"players\" (every seat gets the "
                                    "game's default AI); write its players out to vary them");
      walked += "." + *key;
      node = &(*node)[*key];
      if (node->is_null() && s + 1 < segments.size() &&
          std::holds_alternative<std::string>(segments[s + 1]))
        *node = Json::object();
      continue;
    }
    const size_t index = std::get<size_t>(segments[s]);
    if (!node->is_array() || index >= node->size())
      throw InputError(
          where, "path " + path + ": " + walked + " has no entry [" + std::to_string(index) + "]" +
                     (node->is_array() ? " (it has " + std::to_string(node->size()) + ")" : ""));
    walked += "[" + std::to_string(index) + "]";
    node = &(*node)[index];
  }
  *node = value;
}

// ---- axes ------------------------------------------------------------------------------------

// A number as JSON: an integer where it is one (a level of 40, not 40.0).
Json numberJson(double x) {
  const double rounded = std::round(x);
  if (std::abs(x - rounded) <= 1e-9 * std::max(1.0, std::abs(x)) && std::abs(rounded) < 9e15)
    return static_cast<long long>(rounded);
  return x;
}

double numberAt(const Json& range, const char* key, const std::string& where) {
  if (!range.contains(key) || !range.at(key).is_number())
    throw InputError(where + "." + key, "expected a number");
  const double x = range.at(key).get<double>();
  if (!std::isfinite(x)) throw InputError(where + "." + key, "expected a finite number");
  return x;
}

// Throws unless `node` is an object of `allowed` keys only (`what` describes it).
void checkKeys(const Json& node, const std::string& where, std::vector<std::string> allowed,
               const std::string& what) {
  if (!node.is_object()) throw InputError(where, "expected " + what + ", got " + jsonExcerpt(node));
  for (const auto& [key, _] : node.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
      throw InputError(where + "." + key, "unknown key; expected " + list);
    }
}

// {"from", "to", "steps", "scale": "linear" | "log"} -> its values, `from` and `to` included.
std::vector<Json> rangeValues(const Json& range, const std::string& where) {
  checkKeys(range, where, {"from", "to", "steps", "scale"},
            "{\"from\", \"to\", \"steps\", \"scale\"}");
  const double from = numberAt(range, "from", where), to = numberAt(range, "to", where);
  const Json steps = range.value("steps", Json());
  if (!steps.is_number_integer() || steps.get<long long>() < 2 || steps.get<long long>() > 10000)
    throw InputError(where + ".steps",
                     "expected a whole number of values 2..10000, got " + jsonExcerpt(steps));
  const Json scaleNode = range.value("scale", Json("linear"));
  if (scaleNode != "linear" && scaleNode != "log")
    throw InputError(where + ".scale",
                     "expected \"linear\" or \"log\", got " + jsonExcerpt(scaleNode));
  const std::string scale = scaleNode.get<std::string>();
  if (scale == "log" && (from <= 0 || to <= 0))
    throw InputError(where, "a log scale needs from and to above 0");
  const auto n = steps.get<int>();
  std::vector<Json> values;
  for (int i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / (n - 1);
    values.push_back(
        numberJson(scale == "log" ? from * std::pow(to / from, t) : from + t * (to - from)));
  }
  return values;
}

// Throws unless `value` can be a grid point's value: it names the point's experiments and
// comparisons ("x@random_prob=0.2") and fills a column of sweep.csv, so it is a number, a
// boolean or a string that makes a portable file name.
void checkAxisValue(const Json& value, const std::string& where) {
  if (value.is_number() || value.is_boolean()) return;
  if (!value.is_string())
    throw InputError(where,
                     "expected a number, string or boolean (a grid point's value names its "
                     "experiments and fills a column of sweep.csv), got " +
                         jsonExcerpt(value) +
                         "; a list or object parameter cannot be an axis: write one experiment "
                         "per value instead");
  if (value.get<std::string>().empty()) throw InputError(where, "expected a non-empty string");
  checkPortableCharacters(value.get<std::string>(), where, "value " + jsonExcerpt(value),
                          "; expected printable characters other than \\ : * ? \" < > | "
                          "(a grid point's values become part of file names)");
}

SweepAxis parseAxis(const Json& node, const std::string& where) {
  checkKeys(node, where, {"path", "values", "range", "combine"},
            "an axis {\"path\", \"values\" or \"range\"}");
  SweepAxis axis;
  if (!node.contains("path") || !node.at("path").is_string())
    throw InputError(where + ".path", "expected a path into the experiment (a string)");
  axis.path = node.at("path").get<std::string>();
  parsePath(axis.path, where + ".path");
  if (node.contains("values") == node.contains("range"))
    throw InputError(where, "expected either \"values\" or \"range\"");
  if (node.contains("values")) {
    const Json& values = node.at("values");
    if (!values.is_array() || values.empty())
      throw InputError(where + ".values", "expected a non-empty array of values");
    axis.values.assign(values.begin(), values.end());
    for (size_t v = 0; v < axis.values.size(); ++v)
      checkAxisValue(axis.values[v], where + ".values[" + std::to_string(v) + "]");
  } else {
    axis.values = rangeValues(node.at("range"), where + ".range");
  }
  if (node.contains("combine")) {
    const Json& combine = node.at("combine");
    if (combine != "zip" && combine != "cross")
      throw InputError(where + ".combine",
                       "expected \"zip\" or \"cross\", got " + jsonExcerpt(combine));
    axis.zip = combine == "zip";
  }
  return axis;
}

// Where an axis came from, for messages: the file's JSON path or the option.
struct PlacedAxis {
  SweepAxis axis;
  std::string where;
  std::vector<Segment> segments;  // axis.path parsed (once, not at every grid point)

  PlacedAxis(SweepAxis a, std::string at)
      : axis(std::move(a)), where(std::move(at)), segments(parsePath(axis.path, where)) {}
};

// The axes of a "sweep" node at `where`, each placed at its own path for messages.
std::vector<PlacedAxis> parseSweep(const Json& node, const std::string& where) {
  const bool object = node.is_object();
  const Json& list = object && node.contains("axes") ? node.at("axes") : node;
  const std::string listPath = object ? where + ".axes" : where;
  if (!list.is_array() || list.empty())
    throw InputError(listPath, "expected a non-empty array of axes, got " + jsonExcerpt(list));
  bool zipAll = false;
  if (object) {
    checkKeys(node, where, {"axes", "combine"}, "{\"axes\", \"combine\"}");
    const Json combine = node.value("combine", Json("cross"));
    if (combine != "zip" && combine != "cross")
      throw InputError(where + ".combine",
                       "expected \"zip\" or \"cross\", got " + jsonExcerpt(combine));
    zipAll = combine == "zip";
  }
  std::vector<PlacedAxis> axes;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = listPath + "[" + std::to_string(i) + "]";
    axes.push_back({parseAxis(list[i], at), at});
    if (zipAll && i > 0) axes.back().axis.zip = true;
  }
  return axes;
}

// ---- grid ------------------------------------------------------------------------------------

// The axes grouped as they move: an axis with zip joins the group before it (same length); the
// first group varies slowest.
std::vector<std::vector<size_t>> axisGroups(const std::vector<PlacedAxis>& axes) {
  std::vector<std::vector<size_t>> groups;  // axis indices
  // A zip on the first axis has nothing to move with: the author likely meant to zip it with the
  // axis after it, so it is refused rather than crossed.
  if (!axes.empty() && axes.front().axis.zip)
    throw InputError(axes.front().where + ".combine",
                     "\"zip\" moves an axis with the one before it, and this is the first axis; "
                     "expected \"combine\": \"zip\" on the axes that move with it (or "
                     "{\"combine\": \"zip\", \"axes\": [...]} to zip them all)");
  for (size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].axis.zip && !groups.empty()) {
      const size_t first = groups.back().front();
      if (axes[a].axis.values.size() != axes[first].axis.values.size())
        throw InputError(axes[a].where, "zipped with " + axes[first].axis.path + ": expected " +
                                            std::to_string(axes[first].axis.values.size()) +
                                            " values, got " +
                                            std::to_string(axes[a].axis.values.size()));
      groups.back().push_back(a);
    } else {
      groups.push_back({a});
    }
  }
  return groups;
}

// The keys under which two values are one grid value: written alike (1 and "1" make one name),
// and equal (1 and 1.0 are one number).
std::array<std::string, 2> valueKeys(const Json& value) {
  std::string equal = value.dump();
  if (value.is_number_float()) {
    const double x = value.get<double>();
    if (x == std::trunc(x) && std::abs(x) < 9e15) equal = std::to_string(static_cast<long long>(x));
  }
  return {valueText(value), std::move(equal)};
}

// Throws unless the group's axes take a different combination of values at each of its steps:
// a repeated one would play the same grid point twice under two names.
void checkDistinctSteps(const std::vector<PlacedAxis>& axes, const std::vector<size_t>& group) {
  std::array<std::map<std::string, size_t>, 2> seen;  // a step's keys -> the first step
  const size_t steps = axes[group.front()].axis.values.size();
  for (size_t v = 0; v < steps; ++v) {
    std::array<std::string, 2> keys;
    for (size_t a : group) {
      const auto valueKey = valueKeys(axes[a].axis.values[v]);
      for (size_t k = 0; k < keys.size(); ++k) keys[k] += valueKey[k] + '\n';
    }
    for (size_t k = 0; k < keys.size(); ++k) {
      const auto [earlier, added] = seen[k].emplace(keys[k], v);
      if (added) continue;
      const PlacedAxis& last = axes[group.back()];
      throw InputError(last.where, "value " + std::to_string(v) + " (" +
                                       jsonExcerpt(last.axis.values[v]) + ") repeats value " +
                                       std::to_string(earlier->second) + " (" +
                                       jsonExcerpt(last.axis.values[earlier->second]) +
                                       (group.size() > 1 ? ", with the axes zipped to it" : "") +
                                       "); expected each grid point once");
    }
  }
}

// Whether `inner` is `outer` or lies inside it (players[0] holds players[0].level).
bool withinPath(const std::vector<Segment>& inner, const std::vector<Segment>& outer) {
  return inner.size() >= outer.size() && std::equal(outer.begin(), outer.end(), inner.begin());
}

// Throws unless every axis varies a part of the experiment no other axis varies: the same path
// twice (in one sweep, a batch's and a row's, two --vary or --vary and a file's) or a path inside
// another would name points by values that are never played.
void checkDistinctPaths(const std::vector<PlacedAxis>& axes) {
  for (size_t a = 0; a < axes.size(); ++a)
    for (size_t b = 0; b < a; ++b) {
      const PlacedAxis &later = axes[a], &earlier = axes[b];
      if (!withinPath(later.segments, earlier.segments) &&
          !withinPath(earlier.segments, later.segments))
        continue;
      throw InputError(later.where,
                       "varies " + jsonExcerpt(later.axis.path) +
                           (later.axis.path == earlier.axis.path ? ", as " : ", which overlaps ") +
                           jsonExcerpt(earlier.axis.path) + " of " + earlier.where +
                           " does; expected each part of the experiment in one axis only");
    }
}

// The number of grid points of `axes`, or nullopt when above `bound` (counted without
// overflow, before anything is expanded).
std::optional<size_t> pointCount(const std::vector<PlacedAxis>& axes,
                                 const std::vector<std::vector<size_t>>& groups, size_t bound) {
  size_t count = 1;
  for (const auto& group : groups) {
    const size_t n = axes[group.front()].axis.values.size();
    if (count > bound / n) return std::nullopt;
    count *= n;
  }
  return count;
}

// Every grid point: one value index per axis; zipped axes (a group) share an index.
std::vector<std::vector<size_t>> gridPoints(const std::vector<PlacedAxis>& axes,
                                            const std::vector<std::vector<size_t>>& groups) {
  std::vector<std::vector<size_t>> points = {std::vector<size_t>(axes.size())};
  for (const auto& group : groups) {
    std::vector<std::vector<size_t>> next;
    for (const auto& point : points)
      for (size_t v = 0; v < axes[group.front()].axis.values.size(); ++v) {
        next.push_back(point);
        for (size_t a : group) next.back()[a] = v;
      }
    points = std::move(next);
  }
  return points;
}

// The name of each axis in experiment names: its last key ("random_prob"), or its whole path
// where two axes share the last key.
std::vector<std::string> axisNames(const std::vector<PlacedAxis>& axes) {
  std::vector<std::string> names;
  for (const auto& a : axes) {
    std::string last = a.axis.path;
    for (auto s = a.segments.rbegin(); s != a.segments.rend(); ++s)
      if (const auto* key = std::get_if<std::string>(&*s)) {
        last = *key;
        break;
      }
    names.push_back(last);
  }
  for (size_t a = 0; a < axes.size(); ++a)
    for (size_t b = 0; b < axes.size(); ++b)
      if (a != b && names[a] == names[b] && names[a] != axes[a].axis.path) {
        names[a] = axes[a].axis.path;
        break;
      }
  return names;
}

// "@random_prob=0.2,believability=100" of one grid point; `names` are axisNames(axes).
std::string pointLabel(const std::vector<PlacedAxis>& axes, const std::vector<std::string>& names,
                       const std::vector<size_t>& point) {
  std::string label = "@";
  for (size_t a = 0; a < axes.size(); ++a) {
    if (a > 0) label += ',';
    label += names[a] + "=" + valueText(axes[a].axis.values[point[a]]);
  }
  return label;
}

// {"random_prob": 0.2, "believability": 100} of one grid point: what sweep.csv and the charts
// read (the experiment's "point"); `names` are axisNames(axes).
Json pointValues(const std::vector<PlacedAxis>& axes, const std::vector<std::string>& names,
                 const std::vector<size_t>& point) {
  Json values = Json::object();
  for (size_t a = 0; a < axes.size(); ++a) values[names[a]] = axes[a].axis.values[point[a]];
  return values;
}

// The experiment's name ("" when it has none yet: validation then says so).
std::string nameOf(const Json& experiment) {
  const Json* name = experiment.contains("name") ? &experiment.at("name") : nullptr;
  return name && name->is_string() ? name->get<std::string>() : std::string();
}

struct Row {
  Json experiment;               // without "sweep"
  std::vector<PlacedAxis> axes;  // its own
  std::string where;             // its JSON path in the file ("$.experiments[2]", "$")
};

// The index of the axis of `axes` whose path the JSON path `inner` ("$.players[0].level") lies
// in, if any.
std::optional<size_t> axisAt(const std::string& inner, const std::vector<PlacedAxis>& axes) {
  for (size_t a = 0; a < axes.size(); ++a) {
    const std::string prefix = "$." + axes[a].axis.path;
    if (inner.rfind(prefix, 0) == 0 && (inner.size() == prefix.size() ||
                                        inner[prefix.size()] == '.' || inner[prefix.size()] == '['))
      return a;
  }
  return std::nullopt;
}

// Rethrows the refusal of `row` at a grid point where it belongs: at the axis of `own` (the axes
// that set its values) whose path it names; at the first of `all` (the point's axes) when it is
// the name the point's values make; else at the row, the same in every point.
[[noreturn]] void refusePoint(const InputError& error, const Row& row,
                              const std::vector<PlacedAxis>& own,
                              const std::vector<PlacedAxis>& all, const std::string& label) {
  const size_t dollar = error.path().find('$');
  const std::string inner =
      dollar == std::string::npos ? error.path() : error.path().substr(dollar);
  const std::string what = "at the grid point " + label.substr(1) + ", the experiment " +
                           jsonExcerpt(nameOf(row.experiment)) + " is refused: ";
  if (const auto culprit = axisAt(inner, own))
    throw InputError(own[*culprit].where, what + inner + ": " + error.message());
  for (const char* named : {"$.name", "$.comparison", "$.point"})
    if (inner.rfind(named, 0) == 0)
      throw InputError(all.front().where, what + inner + ": " + error.message() +
                                              " (the grid point's values make its names)");
  const std::string rest = inner.rfind('$', 0) == 0 ? inner.substr(1) : "";
  throw InputError(row.where + rest, what + error.message());
}

// The experiment of `row` at one grid point, validated; `own` are the axes that set its values
// (every axis for the swept row, the batch's for the others), `all` the point's axes.
Json pointExperiment(const Row& row, const std::vector<PlacedAxis>& own,
                     const std::vector<PlacedAxis>& all, const std::vector<size_t>& point,
                     const std::string& label, const Json& values,
                     const ExperimentCheck& checkExperiment) {
  const Json& experiment = row.experiment;
  Json e = experiment;
  for (size_t a = 0; a < own.size(); ++a)
    setAt(e, own[a].segments, own[a].axis.values[point[a]], own[a].axis.path, own[a].where);
  e["name"] = nameOf(experiment) + label;
  e["point"] = values;
  if (experiment.contains("comparison") && experiment.at("comparison").is_string())
    e["comparison"] = experiment.at("comparison").get<std::string>() + label;
  try {
    checkExperiment(e);
  } catch (const InputError& error) {
    refusePoint(error, row, own, all, label);
  }
  return e;
}

// ---- expansion -------------------------------------------------------------------------------

// The axes every experiment of a comparison is played at: the batch's, then the one swept
// row's own (two rows sweeping differently are refused: their points would not pair).
std::vector<PlacedAxis> comparisonAxes(const std::vector<Row>& rows,
                                       const std::vector<size_t>& members,
                                       const std::vector<PlacedAxis>& batchAxes) {
  const Row* swept = nullptr;
  for (size_t i : members) {
    if (rows[i].axes.empty()) continue;
    if (swept) {
      throw InputError(rows[i].axes.front().where,
                       "two experiments of the comparison " +
                           jsonExcerpt(rows[i].experiment.at("comparison")) +
                           " carry their own sweep; expected one (its other rows are played at "
                           "each of its points) or a sweep of the batch");
    }
    swept = &rows[i];
  }
  std::vector<PlacedAxis> axes = batchAxes;
  if (swept) axes.insert(axes.end(), swept->axes.begin(), swept->axes.end());
  checkDistinctPaths(axes);
  return axes;
}

// Whether `row` sets the values of these axes: the batch's always, a row's own only its own.
std::vector<PlacedAxis> axesOf(const Row& row, const std::vector<PlacedAxis>& all,
                               size_t batchCount) {
  if (!row.axes.empty()) return all;
  return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(batchCount)};
}

// The grid points of `axes` with their groups, refused when any repeats or when the batch would
// hold more than kMaxSweepExperiments experiments: `members` rows at each point after the
// `expanded` experiments before them (counted before any is made).
std::vector<std::vector<size_t>> checkedGrid(const std::vector<PlacedAxis>& axes, size_t members,
                                             size_t expanded) {
  const auto groups = axisGroups(axes);
  const size_t room = expanded < kMaxSweepExperiments ? kMaxSweepExperiments - expanded : 0;
  if (!pointCount(axes, groups, room / members)) {
    const auto points = pointCount(axes, groups, SIZE_MAX);
    throw InputError(
        axes.front().where,
        "the grid has " +
            (points ? std::to_string(*points) : "more than " + std::to_string(SIZE_MAX)) +
            " points of " + std::to_string(members) + " experiment(s) each, after " +
            std::to_string(expanded) + " other experiment(s); expected at most " +
            std::to_string(kMaxSweepExperiments) +
            " experiments in a batch: fewer values, or several batches");
  }
  for (const auto& group : groups) checkDistinctSteps(axes, group);
  return gridPoints(axes, groups);
}

void emitPoints(const std::vector<Row>& rows, const std::vector<size_t>& members,
                const std::vector<PlacedAxis>& axes, size_t batchCount,
                const ExperimentCheck& checkExperiment, Json& out) {
  if (axes.empty()) {
    for (size_t i : members) out.push_back(rows[i].experiment);
    return;
  }
  const std::vector<std::string> names = axisNames(axes);
  for (const auto& point : checkedGrid(axes, members.size(), out.size())) {
    const std::string label = pointLabel(axes, names, point);
    const Json values = pointValues(axes, names, point);
    for (size_t i : members) {
      const std::vector<PlacedAxis> own = axesOf(rows[i], axes, batchCount);
      const std::vector<size_t> ownPoint(point.begin(),
                                         point.begin() + static_cast<std::ptrdiff_t>(own.size()));
      out.push_back(pointExperiment(rows[i], own, axes, ownPoint, label, values, checkExperiment));
    }
  }
}

Json expandExperiments(const Json& list, const std::vector<PlacedAxis>& batchAxes,
                       const std::string& listPath, const ExperimentCheck& checkExperiment) {
  std::vector<Row> rows;
  for (size_t i = 0; i < list.size(); ++i) {
    Row row{list[i], {}, listPath == "$" ? "$" : listPath + "[" + std::to_string(i) + "]"};
    if (row.experiment.is_object() && row.experiment.contains("sweep")) {
      row.axes = parseSweep(row.experiment.at("sweep"), row.where + ".sweep");
      row.experiment.erase("sweep");
    }
    rows.push_back(std::move(row));
  }
  // Rows of one comparison are expanded together, where the first of them stands.
  std::map<std::string, std::vector<size_t>> comparisons;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Json& e = rows[i].experiment;
    if (e.is_object() && e.contains("comparison") && e.at("comparison").is_string() &&
        !e.at("comparison").get<std::string>().empty())
      comparisons[e.at("comparison").get<std::string>()].push_back(i);
  }
  Json out = Json::array();
  std::vector<bool> done(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (done[i]) continue;
    const Json& e = rows[i].experiment;
    std::vector<size_t> members = {i};
    if (e.is_object() && e.contains("comparison") && e.at("comparison").is_string() &&
        !e.at("comparison").get<std::string>().empty())
      members = comparisons.at(e.at("comparison").get<std::string>());
    for (size_t m : members) done[m] = true;
    emitPoints(rows, members, comparisonAxes(rows, members, batchAxes), batchAxes.size(),
               checkExperiment, out);
  }
  return out;
}

}  // namespace

SweepAxis parseVary(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError("--vary", "expected PATH=v1,v2,... (e.g. coefficients.tension=0,10,30), got " +
                                   jsonExcerpt(text));
  SweepAxis axis;
  axis.path = text.substr(0, eq);
  parsePath(axis.path, "--vary");
  size_t start = eq + 1;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    if (item.empty()) throw InputError("--vary", "an empty value in " + jsonExcerpt(text));
    const Json parsed = Json::parse(item, nullptr, false);
    axis.values.push_back(parsed.is_discarded() ? Json(item) : parsed);
    checkAxisValue(axis.values.back(), "--vary " + axis.path);
    start = end + 1;
  }
  return axis;
}

bool hasSweep(const Json& document) {
  if (!document.is_object()) return false;
  if (document.contains("sweep")) return true;
  const Json* list = document.contains("experiments") ? &document.at("experiments") : nullptr;
  if (!list || !list->is_array()) return false;
  for (const Json& e : *list)
    if (e.is_object() && e.contains("sweep")) return true;
  return false;
}

Json expandSweeps(const Json& document, const ExperimentCheck& checkExperiment,
                  std::span<const SweepAxis> extra) {
  if (!hasSweep(document) && extra.empty()) return document;
  if (!document.is_object() || !document.contains("format"))
    return document;  // refused by the batch's validation, with its message
  Json batch = document;
  std::string listPath = "$.experiments";
  if (document.at("format") == kExperimentFormat) {  // one experiment: a batch of its points
    Json experiment = document;
    batch = {{"format", kBatchFormat}};
    for (const char* key : {"seed", "description"})
      if (experiment.contains(key)) {
        batch[key] = experiment.at(key);
        experiment.erase(key);
      }
    experiment.erase("format");
    batch["experiments"] = Json::array({experiment});
    listPath = "$";
  }
  std::vector<PlacedAxis> batchAxes;
  if (batch.contains("sweep")) {
    batchAxes = parseSweep(batch.at("sweep"), "$.sweep");
    batch.erase("sweep");
  }
  for (const SweepAxis& axis : extra) batchAxes.push_back({axis, "--vary " + axis.path});
  const Json& list = batch.value("experiments", Json());
  if (!list.is_array()) return batch;  // refused by the batch's validation
  batch["experiments"] = expandExperiments(list, batchAxes, listPath, checkExperiment);
  return batch;
}

}  // namespace ddalab
