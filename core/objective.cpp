#include "core/objective.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/metric_applies.h"

namespace ddalab {

namespace {

const ObjectiveKindInfo kKinds[] = {
    {ObjectiveKind::WeightedSum,
     "weighted-sum",
     "maximize F = the sum of coefficient x metric (the thesis)",
     {},
     ""},
    {ObjectiveKind::Target,
     "target",
     "reach per-metric targets: F = -sum of weight x |metric - target| / scale (metrics that "
     "grow with game length per round)",
     {{"per_round", ParamType::Bool, true, 0, 0,
       "compare rounds, lead_changes and leading_time per round (else as totals)"}},
     "targets"},
    {ObjectiveKind::Constrained,
     "constrained",
     "keep the outcomes whose settled continuation stays within every bound (the least "
     "violating when none does); the weighted sum decides among them",
     {},
     "bounds"},
    {ObjectiveKind::Lexicographic,
     "lexicographic",
     "an ordered list of metrics: each keeps the outcomes within its tolerance of the best, the "
     "next breaks their ties; the weighted sum decides among the rest",
     {},
     "order"},
    {ObjectiveKind::WinRate,
     "win-rate",
     "steer a seat's win rate over the experiment towards a target: F + strength x (target - "
     "estimate) x the seat's status / tension (the game's mean lead so far), the estimate from "
     "the blocks of games before",
     {{"seat", ParamType::Int, 0, 0, kMaxPlayers - 1, "the seat whose win rate is steered"},
      {"target", ParamType::Double, 0.5, 0, 1, "the seat's target win probability"},
      {"block", ParamType::Int, 50, 1, 1000000,
       "games per block; each block steers by the win rate of the blocks before it"},
      {"strength", ParamType::Double, 100.0, 0, 1e6,
       "weight of the steering term: F units per mean lead (the game's tension) of the seat's "
       "status"}},
     ""},
};

std::string metricKey(Metric metric) {
  return metricInfo(metric).key;
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string boundText(const MetricBound& b) {
  const std::string key = metricKey(b.metric);
  if (b.min && b.max) return number(*b.min) + " <= " + key + " <= " + number(*b.max);
  return b.min ? key + " >= " + number(*b.min) : key + " <= " + number(*b.max);
}

// The value `target` compares with its target: per round where the metric grows with length.
double comparedValue(const Objective& o, Metric metric, const MetricValues& values, int rounds) {
  const double m = values[static_cast<size_t>(metric)];
  return o.perRound && growsWithLength(metric) ? m / std::max(1, rounds) : m;
}

double targetTerm(const Objective& o, const MetricTarget& t, const MetricValues& values,
                  int rounds) {
  return -t.weight * std::abs(comparedValue(o, t.metric, values, rounds) - t.target) / t.scale;
}

// The seat's status in units of the game's own status scale: tension, the mean |lead of the
// leader| over the rounds so far. Ludo's statuses are a few squares, Lost Cities' a hundred
// points; divided by the game's typical lead both are of order 1, so the strength carries no gain
// unit (it still weighs against F, whose size the coefficients set). No lead yet (every round
// tied, tension 0): no scale, no steering.
double scaledStatus(const MetricsTracker& tracker, const MetricValues& values, int seat) {
  const double tension = values[static_cast<size_t>(Metric::Tension)];
  return tension > 0 ? tracker.status(seat) / tension : 0.0;
}

double steering(const Objective& o, const MetricsTracker& tracker, const MetricValues& values) {
  if (!o.estimate || o.seat >= tracker.numPlayers()) return 0;
  return o.strength * (o.winRate - *o.estimate) * scaledStatus(tracker, values, o.seat);
}

}  // namespace

std::span<const ObjectiveKindInfo> objectiveKinds() {
  return kKinds;
}

const ObjectiveKindInfo& objectiveKindInfo(ObjectiveKind kind) {
  return kKinds[static_cast<size_t>(kind)];
}

bool growsWithLength(Metric metric) {
  return metric == Metric::Rounds || metric == Metric::LeadChanges || metric == Metric::LeadingTime;
}

double MetricBound::violation(double value) const {
  if (min && value < *min) return *min - value;
  if (max && value > *max) return value - *max;
  return 0;
}

const Objective& weightedSum() {
  static const Objective objective;
  return objective;
}

double Objective::value(const MetricsTracker& tracker, double believability,
                        const FunWeights& weights) const {
  switch (kind) {
    case ObjectiveKind::Target: {
      const MetricValues values = tracker.values(believability);
      double f = 0;
      for (const MetricTarget& t : targets) f += targetTerm(*this, t, values, tracker.rounds());
      return f;
    }
    case ObjectiveKind::WinRate: {
      const MetricValues values = tracker.values(believability);
      return weights.fun(values) + steering(*this, tracker, values);
    }
    default:
      return tracker.fun(weights, believability);
  }
}

std::vector<ObjectiveTerm> Objective::terms(const MetricsTracker& tracker, double believability,
                                            const Coefficients& coefficients) const {
  const MetricValues values = tracker.values(believability);
  std::vector<ObjectiveTerm> terms;
  if (kind == ObjectiveKind::Target) {
    for (const MetricTarget& t : targets)
      terms.push_back({metricKey(t.metric), targetTerm(*this, t, values, tracker.rounds())});
    return terms;
  }
  const MetricValues weighted = funTerms(values, coefficients);
  for (const auto& info : allMetrics())
    if (const auto k = static_cast<size_t>(info.metric); coefficients[k] != 0)
      terms.push_back({info.key, weighted[k]});
  if (kind == ObjectiveKind::WinRate)
    terms.push_back({"steer seat " + std::to_string(seat) + " to " + number(winRate),
                     steering(*this, tracker, values)});
  for (const MetricBound& b : bounds)
    terms.push_back({boundText(b), b.violation(values[static_cast<size_t>(b.metric)]), false});
  for (size_t i = 0; i < order.size(); ++i)
    terms.push_back({std::to_string(i + 1) + ". " + metricKey(order[i].metric) +
                         (order[i].higher ? " (max)" : " (min)"),
                     values[static_cast<size_t>(order[i].metric)], false});
  return terms;
}

double Objective::violation(const MetricValues& values) const {
  double sum = 0;
  for (const MetricBound& b : bounds) sum += b.violation(values[static_cast<size_t>(b.metric)]);
  return sum;
}

std::vector<bool> Objective::allowedOutcomes(std::span<const MetricValues> settled) const {
  std::vector<bool> allowed(settled.size(), true);
  if (kind == ObjectiveKind::Constrained && !settled.empty()) {
    std::vector<double> v;
    for (const MetricValues& m : settled)  // a NaN metric counts as violating without bound
      v.push_back(std::isnan(violation(m)) ? INFINITY : violation(m));
    const double least = *std::min_element(v.begin(), v.end());  // 0 when any is within
    for (size_t i = 0; i < v.size(); ++i) allowed[i] = v[i] <= least;
  }
  if (kind == ObjectiveKind::Lexicographic)
    for (const LexicographicStep& step : order) {
      const auto k = static_cast<size_t>(step.metric);
      const auto score = [&](size_t i) { return step.higher ? settled[i][k] : -settled[i][k]; };
      double best = -INFINITY;
      for (size_t i = 0; i < settled.size(); ++i)
        if (allowed[i]) best = std::max(best, score(i));
      std::vector<bool> kept = allowed;
      for (size_t i = 0; i < settled.size(); ++i)
        kept[i] = kept[i] && score(i) >= best - step.tolerance;  // NaN values drop out
      if (std::find(kept.begin(), kept.end(), true) != kept.end()) allowed = std::move(kept);
    }
  return allowed;
}

bool Objective::weighsExtended(const Coefficients& coefficients) const {
  const auto extended = [](Metric m) { return metricInfo(m).extended; };
  for (const auto& info : allMetrics())
    if (info.extended && coefficients[static_cast<size_t>(info.metric)] != 0) return true;
  return std::any_of(targets.begin(), targets.end(),
                     [&](const auto& t) { return extended(t.metric); }) ||
         std::any_of(bounds.begin(), bounds.end(),
                     [&](const auto& b) { return extended(b.metric); }) ||
         std::any_of(order.begin(), order.end(), [&](const auto& s) { return extended(s.metric); });
}

std::string_view objectiveKindKey(ObjectiveKind kind) {
  return objectiveKindInfo(kind).key;
}

}  // namespace ddalab

namespace ddalab {

namespace {

std::string validMetricKeys() {
  std::string valid;
  for (const auto& info : allMetrics()) valid += (valid.empty() ? "" : ", ") + info.key;
  return valid;
}

Metric parseMetric(const std::string& key, const std::string& path) {
  if (const auto metric = metricByKey(key)) return *metric;
  throw InputError(path, "unknown metric '" + textExcerpt(key) + "'; valid: " + validMetricKeys());
}

double parseNumber(const Json& node, const std::string& path, double min, double max) {
  if (!node.is_number() || !std::isfinite(node.get<double>()) || node.get<double>() < min ||
      node.get<double>() > max)
    throw InputError(path, "expected a number in [" + number(min) + ", " + number(max) + "], got " +
                               jsonExcerpt(node));
  return node.get<double>();
}

// Throws unless `node` is an object whose keys are among `allowed`.
void checkKeys(const Json& node, const std::string& path, const std::vector<std::string>& allowed) {
  if (!node.is_object()) throw InputError(path, "expected an object, got " + jsonExcerpt(node));
  std::string valid;
  for (const auto& key : allowed) valid += (valid.empty() ? "" : ", ") + key;
  for (const auto& [key, value] : node.items())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(path + "." + textExcerpt(key),
                       "unknown key '" + textExcerpt(key) + "'; valid: " + valid);
}

const Json& required(const Json& node, const std::string& key, const std::string& path) {
  if (!node.contains(key)) throw InputError(path + "." + key, "missing required key");
  return node.at(key);
}

// An object of numbers by metric key, every key a metric (`targets`, `weights`, `scales`).
std::vector<std::pair<Metric, double>> metricNumbers(const Json& node, const std::string& path,
                                                     double min, double max) {
  if (!node.is_object() || node.empty())
    throw InputError(path, "expected an object of numbers by metric key, got " + jsonExcerpt(node));
  std::vector<std::pair<Metric, double>> numbers;
  for (const auto& [key, value] : node.items())
    numbers.emplace_back(parseMetric(key, path + "." + textExcerpt(key)),
                         parseNumber(value, path + "." + key, min, max));
  return numbers;
}

void parseTargets(const Json& node, const std::string& path, Objective& o) {
  for (const auto& [metric, value] :
       metricNumbers(required(node, "targets", path), path + ".targets", -1e12, 1e12))
    o.targets.push_back({metric, value});
  const auto targetOf = [&](Metric metric, const std::string& where) -> MetricTarget& {
    for (MetricTarget& t : o.targets)
      if (t.metric == metric) return t;
    throw InputError(where, "'" + metricKey(metric) + "' has no target in .targets");
  };
  if (node.contains("weights"))
    for (const auto& [metric, value] :
         metricNumbers(node.at("weights"), path + ".weights", 0, 1e6))  // as coefficients
      targetOf(metric, path + ".weights." + metricKey(metric)).weight = value;
  if (node.contains("scales"))
    for (const auto& [metric, value] :
         metricNumbers(node.at("scales"), path + ".scales", 1e-12, 1e12))
      targetOf(metric, path + ".scales." + metricKey(metric)).scale = value;
}

// A non-empty array of objects at `node[key]`, each handed to `parse` with its path.
template <typename Parse>
void forEachEntry(const Json& node, const char* key, const std::string& path, Parse&& parse) {
  const Json& list = required(node, key, path);
  const std::string where = path + "." + key;
  if (!list.is_array() || list.empty())
    throw InputError(where, "expected a non-empty array, got " + jsonExcerpt(list));
  for (size_t i = 0; i < list.size(); ++i) parse(list[i], where + "[" + std::to_string(i) + "]");
}

Metric entryMetric(const Json& entry, const std::string& path) {
  const Json& key = required(entry, "metric", path);
  if (!key.is_string())
    throw InputError(path + ".metric", "expected a metric key, got " + jsonExcerpt(key));
  return parseMetric(key.get<std::string>(), path + ".metric");
}

void parseBounds(const Json& node, const std::string& path, Objective& o) {
  forEachEntry(node, "bounds", path, [&](const Json& entry, const std::string& at) {
    checkKeys(entry, at, {"metric", "min", "max"});
    MetricBound b;
    b.metric = entryMetric(entry, at);
    if (entry.contains("min")) b.min = parseNumber(entry.at("min"), at + ".min", -1e12, 1e12);
    if (entry.contains("max")) b.max = parseNumber(entry.at("max"), at + ".max", -1e12, 1e12);
    if (!b.min && !b.max) throw InputError(at, "expected \"min\", \"max\" or both");
    if (b.min && b.max && *b.min > *b.max)
      throw InputError(at + ".max", "expected max >= min (" + number(*b.min) + ")");
    o.bounds.push_back(b);
  });
}

void parseOrder(const Json& node, const std::string& path, Objective& o) {
  forEachEntry(node, "order", path, [&](const Json& entry, const std::string& at) {
    checkKeys(entry, at, {"metric", "tolerance", "direction"});
    LexicographicStep step;
    step.metric = entryMetric(entry, at);
    if (entry.contains("tolerance"))
      step.tolerance = parseNumber(entry.at("tolerance"), at + ".tolerance", 0, 1e12);
    const Better better = metricInfo(step.metric).better;
    if (entry.contains("direction")) {
      const Json& d = entry.at("direction");
      if (d != "max" && d != "min")
        throw InputError(at + ".direction", "expected \"max\" or \"min\", got " + jsonExcerpt(d));
      step.higher = d == "max";
    } else if (better == Better::Neither) {
      throw InputError(at + ".direction", "'" + metricKey(step.metric) +
                                              "' is neither better higher nor lower: say "
                                              "\"max\" or \"min\"");
    } else {
      step.higher = better == Better::Higher;
    }
    o.order.push_back(step);
  });
}

// Every metric the objective names, with its JSON path under the objective's.
std::vector<std::pair<Metric, std::string>> namedMetrics(const Objective& o,
                                                         const std::string& path) {
  std::vector<std::pair<Metric, std::string>> named;
  for (const MetricTarget& t : o.targets)
    named.emplace_back(t.metric, path + ".targets." + metricKey(t.metric));
  for (size_t i = 0; i < o.bounds.size(); ++i)
    named.emplace_back(o.bounds[i].metric, path + ".bounds[" + std::to_string(i) + "].metric");
  for (size_t i = 0; i < o.order.size(); ++i)
    named.emplace_back(o.order[i].metric, path + ".order[" + std::to_string(i) + "].metric");
  return named;
}

const ObjectiveKindInfo& kindNamed(const Json& kind, const std::string& path) {
  std::string valid;
  for (const auto& info : objectiveKinds()) {
    if (kind.is_string() && kind.get<std::string>() == info.key) return info;
    valid += (valid.empty() ? "" : ", ") + info.key;
  }
  throw InputError(path, "unknown objective " + jsonExcerpt(kind) + "; valid: " + valid);
}

}  // namespace

Objective parseObjective(const Json& node, const std::string& path, int players) {
  if (!node.is_object())
    throw InputError(path, "expected an object {\"kind\": ...}, got " + jsonExcerpt(node));
  const ObjectiveKindInfo& info = kindNamed(required(node, "kind", path), path + ".kind");
  std::vector<std::string> allowed = {"kind"};
  for (const ParamSpec& p : info.params) allowed.push_back(p.name);
  if (info.kind == ObjectiveKind::Target)
    allowed.insert(allowed.end(), {"targets", "weights", "scales"});
  if (!info.table.empty() && info.kind != ObjectiveKind::Target) allowed.push_back(info.table);
  checkKeys(node, path, allowed);
  Json scalars = Json::object();
  for (const ParamSpec& p : info.params)
    if (node.contains(p.name)) scalars[p.name] = node.at(p.name);
  const Json params = validateParams(info.params, scalars, path);
  Objective o;
  o.kind = info.kind;
  if (o.kind == ObjectiveKind::Target) {
    o.perRound = params.at("per_round").get<bool>();
    parseTargets(node, path, o);
  }
  if (o.kind == ObjectiveKind::Constrained) parseBounds(node, path, o);
  if (o.kind == ObjectiveKind::Lexicographic) parseOrder(node, path, o);
  if (o.kind == ObjectiveKind::WinRate) {
    o.seat = params.at("seat").get<int>();
    if (o.seat >= players)
      throw InputError(path + ".seat", "expected a seat of this game, 0.." +
                                           std::to_string(players - 1) + ", got " +
                                           std::to_string(o.seat));
    o.winRate = params.at("target").get<double>();
    o.block = params.at("block").get<int>();
    o.strength = params.at("strength").get<double>();
  }
  for (const auto& [metric, where] : namedMetrics(o, path))
    checkMetricApplies(metric, players, where);
  return o;
}

void checkMetricApplies(Metric metric, int players, const std::string& path) {
  if (metricInfo(metric).appliesTo(players)) return;
  std::string valid;
  for (const auto& info : allMetrics())
    if (info.appliesTo(players)) valid += (valid.empty() ? "" : ", ") + info.key;
  throw InputError(path, "a game of " + std::to_string(players) +
                             (players == 1 ? " player" : " players") + " cannot have '" +
                             metricKey(metric) + "' (" + metricInfo(metric).description +
                             "), so it would steer nothing; expected one of " + valid);
}

Json objectiveJson(const Objective& o) {
  Json j = {{"kind", objectiveKindKey(o.kind)}};
  if (o.kind == ObjectiveKind::Target) {
    Json targets = Json::object(), weights = Json::object(), scales = Json::object();
    for (const MetricTarget& t : o.targets) {
      targets[metricKey(t.metric)] = t.target;
      weights[metricKey(t.metric)] = t.weight;
      scales[metricKey(t.metric)] = t.scale;
    }
    j.update({{"targets", targets},
              {"weights", weights},
              {"scales", scales},
              {"per_round", o.perRound}});
  }
  if (o.kind == ObjectiveKind::Constrained) {
    Json bounds = Json::array();
    for (const MetricBound& b : o.bounds) {
      Json entry = {{"metric", metricKey(b.metric)}};
      if (b.min) entry["min"] = *b.min;
      if (b.max) entry["max"] = *b.max;
      bounds.push_back(entry);
    }
    j["bounds"] = bounds;
  }
  if (o.kind == ObjectiveKind::Lexicographic) {
    Json order = Json::array();
    for (const LexicographicStep& s : o.order)
      order.push_back({{"metric", metricKey(s.metric)},
                       {"tolerance", s.tolerance},
                       {"direction", s.higher ? "max" : "min"}});
    j["order"] = order;
  }
  if (o.kind == ObjectiveKind::WinRate)
    j.update(
        {{"seat", o.seat}, {"target", o.winRate}, {"block", o.block}, {"strength", o.strength}});
  return j;
}

std::string describeObjective(const Objective& o) {
  std::string text(objectiveKindKey(o.kind));
  std::string parts;
  const auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : ", ") + part; };
  for (const MetricTarget& t : o.targets)
    add(metricKey(t.metric) + " " + number(t.target) +
        (o.perRound && growsWithLength(t.metric) ? "/round" : ""));
  for (const MetricBound& b : o.bounds) add(boundText(b));
  for (const LexicographicStep& s : o.order)
    add(metricKey(s.metric) + (s.higher ? " max" : " min") + " ±" + number(s.tolerance));
  if (o.kind == ObjectiveKind::WinRate)
    add("seat " + std::to_string(o.seat) + " wins " + number(o.winRate) + ", blocks of " +
        std::to_string(o.block));
  return parts.empty() ? text : text + ": " + parts;
}

}  // namespace ddalab
