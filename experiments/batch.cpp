#include "experiments/batch.h"

#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "games/registry.h"
#include "players/registry.h"

namespace ddalab {

namespace {

// Strict access to the fields of one JSON object: unknown keys are errors, every read names
// the JSON path and the expected type.
class Fields {
 public:
  Fields(const Json& object, std::string path, std::initializer_list<const char*> allowed)
      : object_(object), path_(std::move(path)) {
    if (!object.is_object()) throw InputError(path_, "expected an object, got " + object.dump());
    for (const auto& [key, value] : object.items()) {
      bool known = false;
      std::string valid;
      for (const char* name : allowed) {
        known = known || key == name;
        valid += (valid.empty() ? "" : ", ") + std::string(name);
      }
      if (!known) throw InputError(at(key), "unknown key '" + key + "'; valid: " + valid);
    }
  }

  std::string at(const std::string& key) const { return path_ + "." + key; }
  bool has(const char* key) const { return object_.contains(key); }
  const Json& get(const char* key) const {
    if (!has(key)) throw InputError(at(key), "missing required key");
    return object_.at(key);
  }
  const Json* find(const char* key) const { return has(key) ? &object_.at(key) : nullptr; }

  std::string string(const char* key) const {
    const Json& v = get(key);
    if (!v.is_string() || v.get<std::string>().empty())
      throw InputError(at(key), "expected a non-empty string, got " + v.dump());
    return v.get<std::string>();
  }
  std::string string(const char* key, const std::string& fallback) const {
    return has(key) ? string(key) : fallback;
  }
  long long integer(const char* key, long long min, long long max) const {
    const Json& v = get(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(max)) ||
        v.get<long long>() < min || v.get<long long>() > max)
      throw InputError(at(key), "expected an integer in [" + std::to_string(min) + ", " +
                                    std::to_string(max) + "], got " + v.dump());
    return v.get<long long>();
  }
  long long integer(const char* key, long long min, long long max, long long fallback) const {
    return has(key) ? integer(key, min, max) : fallback;
  }
  uint64_t unsignedInteger(const char* key) const {
    const Json& v = get(key);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
      throw InputError(at(key), "expected a non-negative integer, got " + v.dump());
    return v.get<uint64_t>();
  }

 private:
  const Json& object_;
  std::string path_;
};

PlayerEntry parsePlayer(const Json& node, const std::string& path, PlayerKind role,
                        const Game& game) {
  const bool regular = role == PlayerKind::Regular;
  Fields fields(node, path,
                regular ? std::initializer_list<const char*>{"id", "level", "params"}
                        : std::initializer_list<const char*>{"id", "params"});
  const std::string id = fields.string("id");
  std::vector<PlayerInfo> candidates;
  for (const auto& info : playerRegistry())
    if (info.canAct(role)) candidates.push_back(info);
  findById<PlayerInfo>(candidates, id, regular ? "regular player" : "environment player",
                       fields.at("id"));
  PlayerEntry entry;
  entry.info = &findById<PlayerInfo>(playerRegistry(), id, "player", fields.at("id"));
  if (regular) entry.level = static_cast<int>(fields.integer("level", 1, 100, 100));
  entry.params = validateParams(entry.info->params,
                                fields.find("params") ? *fields.find("params") : Json(nullptr),
                                fields.at("params"));
  if (const std::string why = entry.info->whyNot(game, entry.params, role); !why.empty())
    throw InputError(fields.at("id"), "'" + id + "' cannot play this game: " + why);
  return entry;
}

Coefficients parseCoefficients(const Json& node, const std::string& path) {
  if (!node.is_object()) throw InputError(path, "expected an object of metric weights");
  Coefficients c{};
  for (const auto& [key, value] : node.items()) {
    const auto metric = metricByKey(key);
    if (!metric) {
      std::string valid;
      for (const auto& info : allMetrics())
        valid += (valid.empty() ? "" : ", ") + std::string(info.key);
      const std::string hint =
          key == "win_ratio" ? "win_ratio needs many games and cannot weight F; " : "";
      throw InputError(path + "." + key,
                       "unknown metric '" + key + "'; " + hint + "valid: " + valid);
    }
    if (!value.is_number())
      throw InputError(path + "." + key, "expected a number, got " + value.dump());
    c[static_cast<size_t>(*metric)] = value.get<double>();
  }
  return c;
}

void parseGame(const Json& node, const std::string& path, Experiment& e) {
  Fields fields(node, path, {"id", "params"});
  const std::string id = fields.string("id");
  e.gameInfo = &findById<GameInfo>(gameRegistry(), id, "game", fields.at("id"));
  e.gameParams = validateParams(e.gameInfo->params,
                                fields.find("params") ? *fields.find("params") : Json(nullptr),
                                fields.at("params"));
  try {
    e.game = e.gameInfo->make(e.gameParams);
  } catch (const InputError& error) {  // a combination of parameters the game cannot play
    throw InputError(fields.at("params") + "." + error.path(), error.message());
  }
}

Experiment parseExperiment(const Fields& fields, const std::string& path) {
  Experiment e;
  e.name = fields.string("name");
  e.comparison = fields.string("comparison", "");
  parseGame(fields.get("game"), fields.at("game"), e);
  const Json& players = fields.get("players");
  const int n = e.game->numPlayers();
  if (!players.is_array() || static_cast<int>(players.size()) != n)
    throw InputError(
        fields.at("players"),
        "expected an array of " + std::to_string(n) +
            " players (one per seat of this game set-up), got " +
            (players.is_array() ? std::to_string(players.size()) + " entries" : players.dump()));
  for (int i = 0; i < n; ++i)
    e.players.push_back(parsePlayer(players[i],
                                    fields.at("players") + "[" + std::to_string(i) + "]",
                                    PlayerKind::Regular, *e.game));
  e.environment =
      parsePlayer(fields.has("environment") ? fields.get("environment") : Json{{"id", "e-random"}},
                  fields.at("environment"), PlayerKind::Environment, *e.game);
  if (fields.has("coefficients"))
    e.coefficients = parseCoefficients(fields.get("coefficients"), fields.at("coefficients"));
  e.iterations = static_cast<int>(fields.integer("iterations", 1, 100'000'000));
  e.salt = fields.has("salt") ? fields.unsignedInteger("salt") : 0;
  (void)path;
  return e;
}

#define DDALAB_EXPERIMENT_KEYS \
  "name", "comparison", "game", "players", "environment", "coefficients", "iterations", "salt"

Batch parseDocument(const Json& document) {
  if (!document.is_object()) throw InputError("$", "expected a JSON object");
  const Json* format = document.contains("format") ? &document.at("format") : nullptr;
  if (!format || !format->is_string())
    throw InputError("$.format", std::string("missing or not a string; expected \"") +
                                     kBatchFormat + "\" or \"" + kExperimentFormat + "\"");
  Batch batch;
  if (*format == kExperimentFormat) {
    Fields fields(document, "$", {"format", "seed", "description", DDALAB_EXPERIMENT_KEYS});
    batch.seed = fields.unsignedInteger("seed");
    batch.experiments.push_back(parseExperiment(fields, "$"));
    return batch;
  }
  if (*format != kBatchFormat)
    throw InputError("$.format", "unsupported format " + format->dump() + "; expected \"" +
                                     kBatchFormat + "\" or \"" + kExperimentFormat + "\"");
  Fields fields(document, "$", {"format", "seed", "description", "experiments"});
  batch.seed = fields.unsignedInteger("seed");
  const Json& list = fields.get("experiments");
  if (!list.is_array() || list.empty())
    throw InputError("$.experiments", "expected a non-empty array of experiments");
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "$.experiments[" + std::to_string(i) + "]";
    Fields entry(list[i], path, {DDALAB_EXPERIMENT_KEYS});
    batch.experiments.push_back(parseExperiment(entry, path));
    if (!names.insert(batch.experiments.back().name).second)
      throw InputError(path + ".name",
                       "duplicate experiment name '" + batch.experiments.back().name + "'");
  }
  return batch;
}

Json playerJson(const PlayerEntry& p, bool withLevel) {
  Json j = {{"id", p.info->id}, {"params", p.params}};
  if (withLevel) j["level"] = p.level;
  return j;
}

}  // namespace

Batch parseBatch(const Json& document, const std::string& source) {
  try {
    return parseDocument(document);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.path(), e.message());
  }
}

Batch loadBatch(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string(), "cannot open the file");
  Json document;
  try {
    document = Json::parse(in);
  } catch (const Json::parse_error& e) {
    throw InputError(file.string(), std::string("not valid JSON: ") + e.what());
  }
  return parseBatch(document, file.string());
}

Json toJson(const Batch& batch) {
  Json experiments = Json::array();
  for (const auto& e : batch.experiments) {
    Json players = Json::array();
    for (const auto& p : e.players) players.push_back(playerJson(p, true));
    Json coefficients = Json::object();
    for (const auto& info : allMetrics())
      if (double c = e.coefficients[static_cast<size_t>(info.metric)]; c != 0)
        coefficients[std::string(info.key)] = c;
    Json j = {{"name", e.name},
              {"game", {{"id", e.gameInfo->id}, {"params", e.gameParams}}},
              {"players", players},
              {"environment", playerJson(e.environment, false)},
              {"coefficients", coefficients},
              {"iterations", e.iterations}};
    if (!e.comparison.empty()) j["comparison"] = e.comparison;
    if (e.salt) j["salt"] = e.salt;
    experiments.push_back(j);
  }
  return {{"format", kBatchFormat}, {"seed", batch.seed}, {"experiments", experiments}};
}

}  // namespace ddalab
