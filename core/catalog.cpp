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
}

const GameInfo& Catalog::add(GameInfo info, const std::string& origin) {
  return addEntry(games_, gameOrigins_, std::move(info), origin, "game");
}

const PlayerInfo& Catalog::add(PlayerInfo info, const std::string& origin) {
  return addEntry(players_, playerOrigins_, std::move(info), origin, "player");
}

std::string Catalog::gameOrigin(const std::string& id) const {
  return originOf(games_, gameOrigins_, id);
}

std::string Catalog::playerOrigin(const std::string& id) const {
  return originOf(players_, playerOrigins_, id);
}

Catalog& catalog() {
  static Catalog instance;
  return instance;
}

}  // namespace ddalab
