#pragma once
// The run-time catalog: every game, player and metric this process can use. The built-ins
// register first (the metrics when the catalog is made; games/registry.cpp, players/registry.cpp:
// gameRegistry() and playerRegistry() are the ordered views every caller reads), then the entries
// of plug-ins in the order they are loaded.
// Entries never move once added — experiments keep their addresses — and an id is taken once
// per kind: a second entry with it is refused, naming both origins.
#include <span>
#include <string>
#include <vector>

#include "core/registry.h"

namespace ddalab {

// The origin of the entries ddalab itself registers.
inline constexpr const char* kBuiltIn = "built-in";

class Catalog {
 public:
  // Entries of one kind the catalog holds at most; the room is reserved up front so that an
  // entry's address stays valid while others are added.
  static constexpr size_t kCapacity = 512;

  Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  // Adds `info` from `origin` ("built-in" or a plug-in's file); throws InputError when the id
  // is empty or taken, a field its callers need is missing (naming origin, entry and field: a
  // game's make, a player's factory of its kind, a parameter's name or valid default, ...), or
  // the catalog is full.
  const GameInfo& add(GameInfo info, const std::string& origin);
  const PlayerInfo& add(PlayerInfo info, const std::string& origin);
  // Adds a plug-in metric: gives it the next index and its part of the tracker's scratch;
  // throws InputError when its key is empty or taken, it has no rule, or there is no room left
  // (kMaxMetrics metrics, kMetricScratch doubles of scratch).
  const MetricInfo& add(MetricInfo info, const std::string& origin);

  // The entries in registration order.
  std::span<const GameInfo> games() const { return games_; }
  std::span<const PlayerInfo> players() const { return players_; }
  std::span<const MetricInfo> metrics() const { return metrics_; }
  // Where the entry with `id` came from; empty when there is none.
  std::string gameOrigin(const std::string& id) const;
  std::string playerOrigin(const std::string& id) const;
  std::string metricOrigin(const std::string& key) const;
  // The doubles of the tracker's scratch the metrics hold (of kMetricScratch).
  size_t scratchUsed() const;

 private:
  std::vector<GameInfo> games_;
  std::vector<PlayerInfo> players_;
  std::vector<MetricInfo> metrics_;
  std::vector<std::string> gameOrigins_, playerOrigins_, metricOrigins_;  // parallel to the above
};

// The process's catalog. Read it through gameRegistry() / playerRegistry() / allMetrics(), which
// see the built-ins before anything else; add to it only while no game runs.
Catalog& catalog();

}  // namespace ddalab
