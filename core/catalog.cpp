#include "core/catalog.h"

#include <algorithm>

namespace ddalab {

namespace {

// Index of the entry with `id` in `entries`, or entries.size().
template <typename Entry>
size_t indexOf(const std::vector<Entry>& entries, const std::string& id) {
  return static_cast<size_t>(
      std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.id == id; }) -
      entries.begin());
}

// Refuses a parameter schema a game or player could never be given: a parameter without a
// name, a name twice, or a default its own range, type or choices refuse.
void checkSchema(const std::vector<ParamSpec>& params, const std::string& path) {
  Json defaults = Json::object();
  for (const ParamSpec& spec : params) {
    if (spec.name.empty()) throw InputError(path + ".params", "a parameter without a name");
    if (defaults.contains(spec.name))
      throw InputError(path + ".params", "the parameter '" + spec.name + "' is declared twice");
    defaults[spec.name] = spec.defaultValue;
  }
  try {
    validateParams(params, defaults, path + ": params");
  } catch (const InputError& e) {
    throw InputError(e.path(), "its default is refused: " + e.message());
  }
}

// Refuses a field a caller would find missing only later.
void require(bool present, const std::string& path, const std::string& field,
             const std::string& what) {
  if (!present) throw InputError(path, "expected " + field + ": " + what);
}

void checkEntry(const GameInfo& info, const std::string& path) {
  require(!info.description.empty(), path, "GameInfo::description", "a line that says what it is");
  require(bool(info.make), path, "GameInfo::make",
          "the factory that builds the game from its parameters");
  require(info.thesisCoefficients.is_object(), path, "GameInfo::thesisCoefficients",
          "an object of metric keys and weights");
  checkSchema(info.params, path);
}

void checkEntry(const PlayerInfo& info, const std::string& path) {
  require(!info.description.empty(), path, "PlayerInfo::description",
          "a line that says what it is");
  require(info.kind == PlayerKind::Regular || info.kind == PlayerKind::Environment, path,
          "PlayerInfo::kind", "Regular or Environment");
  require(
      info.canAct(info.kind), path,
      info.kind == PlayerKind::Regular ? "PlayerInfo::makeRegular" : "PlayerInfo::makeEnvironment",
      "the factory of its kind's player");
  const bool regular = info.canAct(PlayerKind::Regular);
  require(regular || !(info.ranksActions || info.adjustsDifficulty || info.defaultAi), path,
          "PlayerInfo::makeRegular",
          "a regular player's factory (it declares ranksActions, adjustsDifficulty or defaultAi)");
  require(info.canAct(PlayerKind::Environment) || !info.pursuesObjective, path,
          "PlayerInfo::makeEnvironment",
          "an environment player's factory (it declares pursuesObjective)");
  checkSchema(info.params, path);
}

// Appends `info` unless its id is empty or taken, a field is missing, or the room is used up.
template <typename Entry>
const Entry& addEntry(std::vector<Entry>& entries, std::vector<std::string>& origins, Entry info,
                      const std::string& origin, const std::string& what) {
  const std::string path = origin + ": " + what + " '" + info.id + "'";
  if (info.id.empty()) throw InputError(origin, "a " + what + " without an id");
  checkEntry(info, path);
  if (const size_t i = indexOf(entries, info.id); i < entries.size())
    throw InputError(path, "the id is taken by the " + what + " from " + origins[i]);
  if (entries.size() == Catalog::kCapacity)
    throw InputError(
        path, "the catalog holds at most " + std::to_string(Catalog::kCapacity) + " " + what + "s");
  origins.push_back(origin);
  return entries.emplace_back(std::move(info));
}

template <typename Entry>
std::string originOf(const std::vector<Entry>& entries, const std::vector<std::string>& origins,
                     const std::string& id) {
  const size_t i = indexOf(entries, id);
  return i < entries.size() ? origins[i] : std::string();
}

}  // namespace

Catalog::Catalog() {
  games_.reserve(kCapacity);
  players_.reserve(kCapacity);
  metrics_.reserve(kMaxMetrics);
  for (const MetricInfo& info : builtInMetrics()) {
    metrics_.push_back(info);
    metricOrigins_.push_back(kBuiltIn);
  }
}

const GameInfo& Catalog::add(GameInfo info, const std::string& origin) {
  return addEntry(games_, gameOrigins_, std::move(info), origin, "game");
}

const PlayerInfo& Catalog::add(PlayerInfo info, const std::string& origin) {
  return addEntry(players_, playerOrigins_, std::move(info), origin, "player");
}

const MetricInfo& Catalog::add(MetricInfo info, const std::string& origin) {
  const std::string path = origin + ": metric '" + info.key + "'";
  if (info.key.empty()) throw InputError(origin, "a metric without a key");
  if (const auto taken = metricOrigin(info.key); !taken.empty())
    throw InputError(path, "the key is taken by the metric from " + taken);
  if (!info.rule.endRound || !info.rule.value)
    throw InputError(path, "expected a rule: both endRound and value");
  if (metrics_.size() == kMaxMetrics)
    throw InputError(path, "the catalog holds at most " + std::to_string(kMaxMetrics) + " metrics");
  const size_t used = scratchUsed();
  if (used + info.scratchSize > kMetricScratch)
    throw InputError(path, "it needs " + std::to_string(info.scratchSize) +
                               " doubles of scratch, but only " +
                               std::to_string(kMetricScratch - used) + " of " +
                               std::to_string(kMetricScratch) + " are left");
  info.metric = static_cast<Metric>(metrics_.size());
  info.scratchOffset = used;
  metricOrigins_.push_back(origin);
  return metrics_.emplace_back(std::move(info));
}

size_t Catalog::scratchUsed() const {
  return metrics_.back().scratchOffset + metrics_.back().scratchSize;
}

std::string Catalog::gameOrigin(const std::string& id) const {
  return originOf(games_, gameOrigins_, id);
}

std::string Catalog::playerOrigin(const std::string& id) const {
  return originOf(players_, playerOrigins_, id);
}

std::string Catalog::metricOrigin(const std::string& key) const {
  for (size_t i = 0; i < metrics_.size(); ++i)
    if (metrics_[i].key == key) return metricOrigins_[i];
  return {};
}

Catalog& catalog() {
  static Catalog instance;
  return instance;
}

// Declared in metrics.h, beside the metrics it lists: the metrics of this run are the catalog's
// (the built-ins, then the plug-ins'), so the list is kept here and metrics.cpp knows no catalog.
std::span<const MetricInfo> allMetrics() {
  return catalog().metrics();
}

}  // namespace ddalab
