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

// Appends `info` unless its id is empty or taken, or the room is used up.
template <typename Entry>
const Entry& addEntry(std::vector<Entry>& entries, std::vector<std::string>& origins, Entry info,
                      const std::string& origin, const std::string& what) {
  const std::string path = origin + ": " + what + " '" + info.id + "'";
  if (info.id.empty()) throw InputError(origin, "a " + what + " without an id");
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

}  // namespace ddalab
