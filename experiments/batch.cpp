#include "experiments/batch.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/json_input.h"
#include "core/metric_applies.h"
#include "core/sha256.h"
#include "experiments/name_checks.h"
#include "experiments/plugins.h"
#include "experiments/tournament.h"
#include "games/registry.h"
#include "players/registry.h"
#include "results/experiment_result.h"

namespace ddalab {

namespace {

const InputFileKind kBatchFileKind{kMaxBatchFileBytes, "a batch or experiment JSON file"};

// findById, its message saying where the entries of plug-ins come from.
template <typename Entry>
const Entry& findEntry(std::span<const Entry> entries, const std::string& id,
                       const std::string& what, const std::string& path) {
  try {
    return findById<Entry>(entries, id, what, path);
  } catch (const InputError& e) {
    throw InputError(e.path(), e.message() + " (a plug-in's " + what +
                                   "s join these with --plugin FILE or DDALAB_PLUGIN_PATH)");
  }
}

// Longest reason a player gives for refusing a game that an error message shows: room for its
// list of valid ids, not for input it quotes at length.
constexpr size_t kMaxReasonBytes = 1000;

PlayerEntry parsePlayer(const Json& node, const std::string& path, PlayerKind role,
                        const Game& game) {
  const bool regular = role == PlayerKind::Regular;
  JsonFields fields(node, path,
                    regular ? std::initializer_list<const char*>{"id", "level", "params"}
                            : std::initializer_list<const char*>{"id", "params"});
  const std::string id = fields.string("id");
  std::vector<PlayerInfo> candidates;
  for (const auto& info : playerRegistry())
    if (info.canAct(role)) candidates.push_back(info);
  findById<PlayerInfo>(candidates, id, regular ? "regular player" : "environment player",
                       fields.at("id"));
  PlayerEntry entry;
  entry.info = &findEntry<PlayerInfo>(playerRegistry(), id, "player", fields.at("id"));
  if (regular) entry.level = static_cast<int>(fields.integer("level", 1, 100, 100));
  entry.params = validateParams(entry.info->params,
                                fields.find("params") ? *fields.find("params") : Json(nullptr),
                                fields.at("params"));
  // The player's reason may quote its parameters verbatim: escaped and bounded here.
  if (const std::string why = entry.info->whyNot(game, entry.params, role); !why.empty())
    throw InputError(fields.at("id"),
                     "'" + id + "' cannot play this game: " + textExcerpt(why, kMaxReasonBytes));
  return entry;
}

}  // namespace

Coefficients parseCoefficients(const Json& node, const std::string& path, int players) {
  if (!node.is_object())
    throw InputError(path, "expected an object of metric weights, got " + jsonExcerpt(node));
  Coefficients c{};
  for (const auto& [key, value] : node.items()) {
    const auto metric = metricByKey(key);
    if (!metric) {
      std::string valid;
      for (const auto& info : allMetrics())
        valid += (valid.empty() ? "" : ", ") + std::string(info.key);
      const std::string hint =
          key == "win_ratio" ? "win_ratio needs many games and cannot weight F; " : "";
      throw InputError(path + "." + textExcerpt(key),
                       "unknown metric '" + textExcerpt(key) + "'; " + hint + "valid: " + valid);
    }
    // Finite bounds keep the fun score F finite for every metric value a game produces.
    if (!value.is_number() || !std::isfinite(value.get<double>()) ||
        std::fabs(value.get<double>()) > kMaxCoefficient) {
      const std::string bound = std::to_string(static_cast<long long>(kMaxCoefficient));
      throw InputError(path + "." + key, "expected a number in [-" + bound + ", " + bound +
                                             "], got " + jsonExcerpt(value));
    }
    if (value.get<double>() != 0) checkMetricApplies(*metric, players, path + "." + key);
    c[static_cast<size_t>(*metric)] = value.get<double>();
  }
  return c;
}

void checkPortableCharacters(const std::string& text, const std::string& path,
                             const std::string& named, const std::string& expected) {
  if (const size_t at = findUnprintable(text); at != std::string::npos)
    throw InputError(path, named + " has a control character or invalid UTF-8 at byte " +
                               std::to_string(at) + expected);
  if (const size_t at = text.find_first_of(kNonPortableNameCharacters); at != std::string::npos)
    throw InputError(path, named + " has '" + text[at] +
                               "', which cannot appear in file names on every system" + expected);
}

namespace {

// Refuses a name (`what`: "experiment name", "comparison name") that would not make a safe,
// visible, portable file name of at most kMaxNameStemBytes bytes.
void checkFileName(const std::string& name, const std::string& path, const std::string& what) {
  const std::string named = what + " " + jsonExcerpt(name);
  const std::string expected =
      "; expected printable characters other than \\ : * ? \" < > |, not starting with '.' "
      "(names become file names with '/' -> \"__\")";
  checkPortableCharacters(name, path, named, expected);
  const std::string stem = fileStem(name);
  if (stem.front() == '.')  // also "." and ".."
    throw InputError(path, named + " starts with '.' and would make hidden files" + expected);
  if (stem.size() > kMaxNameStemBytes)
    throw InputError(path, named + " is " + std::to_string(stem.size()) +
                               " bytes long as a file name; expected at most " +
                               std::to_string(kMaxNameStemBytes) + " bytes");
}

// The file stem of `name` with ASCII letters in lower case: names whose stems differ only in
// case write the same files on case-insensitive file systems (macOS, Windows). Other letters
// are compared as they are.
std::string foldedStem(const std::string& name) {
  std::string stem = fileStem(name);
  for (char& c : stem)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return stem;
}

// The names given so far of one kind and their paths: refuses a name whose files would be
// those of an earlier, different name (or the same name, unless `sharedNames`).
class FileNameClaims {
 public:
  FileNameClaims(std::string what, bool sharedNames)
      : what_(std::move(what)), sharedNames_(sharedNames) {}

  // Records `name`, found at `path`; throws InputError when its files are taken.
  void claim(const std::string& name, const std::string& path) {
    const auto [earlier, added] = claims_.emplace(foldedStem(name), Claim{name, path});
    if (added || (sharedNames_ && earlier->second.name == name)) return;
    if (earlier->second.name == name)
      throw InputError(path, "duplicate " + what_ + " '" + textExcerpt(name) + "'");
    throw InputError(path, what_ + " " + jsonExcerpt(name) + " writes the same files as " +
                               jsonExcerpt(earlier->second.name) + " (" + earlier->second.path +
                               "): '/' becomes \"__\" in file names and some file systems "
                               "ignore letter case; expected names whose files differ");
  }

 private:
  struct Claim {
    std::string name;
    std::string path;
  };
  std::string what_;
  bool sharedNames_;
  std::map<std::string, Claim> claims_;  // by folded file stem
};

// A grid point's values (written by a sweep's expansion): an object of numbers and strings.
Json parsePoint(const Json& node, const std::string& path) {
  if (!node.is_object())
    throw InputError(path,
                     "expected an object of the sweep's values by axis, got " + jsonExcerpt(node));
  for (const auto& [axis, value] : node.items())
    if (!value.is_number() && !value.is_string() && !value.is_boolean())
      throw InputError(path + "." + axis,
                       "expected a number, string or boolean, got " + jsonExcerpt(value));
  return node;
}

void parseGame(const Json& node, const std::string& path, Experiment& e) {
  JsonFields fields(node, path, {"id", "params"});
  const std::string id = fields.string("id");
  e.gameInfo = &findEntry<GameInfo>(gameRegistry(), id, "game", fields.at("id"));
  e.gameParams = validateParams(e.gameInfo->params,
                                fields.find("params") ? *fields.find("params") : Json(nullptr),
                                fields.at("params"));
  try {
    e.game = e.gameInfo->make(e.gameParams);
  } catch (const InputError& error) {  // a combination of parameters the game cannot play
    throw InputError(fields.at("params") + "." + error.path(), error.message());
  }
}

// The experiment's objective: only a fun-seeking environment player pursues one other than the
// weighted sum.
void parseExperimentObjective(const JsonFields& fields, Experiment& e) {
  e.objective =
      parseObjective(fields.get("objective"), fields.at("objective"), e.game->numPlayers());
  if (e.objective.kind != ObjectiveKind::WeightedSum && !e.environment.info->pursuesObjective)
    throw InputError(fields.at("objective"),
                     "environment '" + e.environment.info->id +
                         "' pursues no objective (it draws or ranks outcomes by its own rule); "
                         "choose e-hillclimber, e-maxmax, e-maxn or e-montecarlo, or remove "
                         "\"objective\"");
}

// A tournament's experiment's "entrants": a non-empty name for each of the game's `seats`.
std::vector<std::string> parseEntrantNames(const JsonFields& fields, int seats) {
  const Json& list = fields.get("entrants");
  const std::string expected =
      "expected an array of " + std::to_string(seats) + " entrant names (one per seat), got ";
  if (!list.is_array() || static_cast<int>(list.size()) != seats)
    throw InputError(fields.at("entrants"), expected + jsonExcerpt(list));
  std::vector<std::string> names;
  for (size_t k = 0; k < list.size(); ++k) {
    if (!list[k].is_string() || list[k].get<std::string>().empty())
      throw InputError(fields.at("entrants") + "[" + std::to_string(k) + "]",
                       "expected a non-empty entrant name, got " + jsonExcerpt(list[k]));
    names.push_back(list[k]);
  }
  return names;
}

Experiment parseExperiment(const JsonFields& fields, const std::string& path) {
  Experiment e;
  e.name = fields.string("name");
  checkFileName(e.name, fields.at("name"), "experiment name");
  e.comparison = fields.string("comparison", "");
  if (!e.comparison.empty())
    checkFileName(e.comparison, fields.at("comparison"), "comparison name");
  parseGame(fields.get("game"), fields.at("game"), e);
  const int n = e.game->numPlayers();
  // Without "players", every seat gets the game's default AI at level 100 (as the GUI's Add).
  const Json players =
      fields.has("players")
          ? fields.get("players")
          : Json(std::vector<Json>(static_cast<size_t>(n),
                                   Json{{"id", defaultAi(*e.game).id}, {"level", 100}}));
  if (!players.is_array() || static_cast<int>(players.size()) != n)
    throw InputError(fields.at("players"),
                     "expected an array of " + std::to_string(n) +
                         " players (one per seat of this game set-up), got " +
                         (players.is_array() ? std::to_string(players.size()) + " entries"
                                             : jsonExcerpt(players)));
  for (int i = 0; i < n; ++i)
    e.players.push_back(parsePlayer(players[i],
                                    fields.at("players") + "[" + std::to_string(i) + "]",
                                    PlayerKind::Regular, *e.game));
  e.environment =
      parsePlayer(fields.has("environment") ? fields.get("environment") : Json{{"id", "e-random"}},
                  fields.at("environment"), PlayerKind::Environment, *e.game);
  if (fields.has("coefficients"))
    e.coefficients = parseCoefficients(fields.get("coefficients"), fields.at("coefficients"), n);
  if (fields.has("objective")) parseExperimentObjective(fields, e);
  e.iterations = static_cast<int>(fields.integer("iterations", 1, 100'000'000));
  e.salt = fields.has("salt") ? fields.unsignedInteger("salt") : 0;
  if (fields.has("point")) e.point = parsePoint(fields.get("point"), fields.at("point"));
  if (fields.has("entrants")) e.entrants = parseEntrantNames(fields, n);
  (void)path;
  return e;
}

#define DDALAB_EXPERIMENT_KEYS                                                         \
  "name", "comparison", "game", "players", "environment", "coefficients", "objective", \
      "iterations", "salt", "point", "entrants"

// Throws unless every plug-in `plugins` (a batch.json's record) names is loaded: the batch needs
// its games and players.
void checkPluginsLoaded(const Json& plugins) {
  if (!plugins.is_array())
    throw InputError("$.plugins",
                     "expected an array of the plug-ins a run used, got " + jsonExcerpt(plugins));
  const std::vector<LoadedPlugin> loaded = loadedPlugins();
  for (size_t i = 0; i < plugins.size(); ++i) {
    const std::string path = "$.plugins[" + std::to_string(i) + "]";
    const Json& plugin = plugins[i];
    if (!plugin.is_object() || !plugin.contains("name") || !plugin.at("name").is_string())
      throw InputError(path, "expected {\"name\", \"version\", \"sha256\", \"file\"}, got " +
                                 jsonExcerpt(plugin));
    const std::string name = plugin.at("name");
    if (std::none_of(loaded.begin(), loaded.end(),
                     [&](const LoadedPlugin& p) { return p.name == name; }))
      throw InputError(path, "the batch uses plug-in '" + textExcerpt(name) +
                                 "', which is not loaded; load it with --plugin " +
                                 textExcerpt(plugin.value("file", std::string("FILE"))));
  }
}

Batch parseDocument(const Json& document) {
  if (!document.is_object()) throw InputError("$", "expected a JSON object");
  const Json* format = document.contains("format") ? &document.at("format") : nullptr;
  if (!format || !format->is_string())
    throw InputError("$.format", std::string("missing or not a string; expected \"") +
                                     kBatchFormat + "\" or \"" + kExperimentFormat + "\"");
  Batch batch;
  if (*format == kExperimentFormat) {
    JsonFields fields(document, "$", {"format", "seed", "description", DDALAB_EXPERIMENT_KEYS});
    batch.seed = fields.unsignedInteger("seed");
    batch.experiments.push_back(parseExperiment(fields, "$"));
    return batch;
  }
  if (*format != kBatchFormat)
    throw InputError("$.format", "unsupported format " + jsonExcerpt(*format) + "; expected \"" +
                                     kBatchFormat + "\" or \"" + kExperimentFormat + "\"");
  // "plugins" records what a run used (toJson); --resume compares it with what is loaded.
  JsonFields fields(document, "$",
                    {"format", "seed", "description", "experiments", "plugins", "shard",
                     "unreliable_fit", "rating"});
  // Written by ddalab study analyze --write-unreliable-fit: a fit from noise is not run.
  if (fields.has("unreliable_fit"))
    throw InputError(fields.at("unreliable_fit"),
                     "this batch's fitted coefficients did not beat the constant model (" +
                         jsonExcerpt(fields.get("unreliable_fit")) +
                         "); expected a reliable fit: delete this key to run it anyway");
  if (fields.has("plugins")) checkPluginsLoaded(fields.get("plugins"));
  if (fields.has("shard")) batch.shard = parseShardRecord(fields.get("shard")).shard;
  batch.seed = fields.unsignedInteger("seed");
  const Json& list = fields.get("experiments");
  if (!list.is_array() || list.empty())
    throw InputError("$.experiments", "expected a non-empty array of experiments");
  FileNameClaims names("experiment name", false), comparisons("comparison name", true);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "$.experiments[" + std::to_string(i) + "]";
    JsonFields entry(list[i], path, {DDALAB_EXPERIMENT_KEYS});
    batch.experiments.push_back(parseExperiment(entry, path));
    names.claim(batch.experiments.back().name, path + ".name");
    if (const std::string& comparison = batch.experiments.back().comparison; !comparison.empty())
      comparisons.claim(comparison, path + ".comparison");
  }
  if (fields.has("rating")) {
    std::vector<std::vector<std::string>> entrants;
    for (const Experiment& e : batch.experiments) entrants.push_back(e.entrants);
    checkRatingSection(fields.get("rating"), entrants);
    batch.rating = fields.get("rating");
  }
  // A shard record is a split like --shard's: the same games or none.
  if (batch.shard) checkShardable(batch, batch.shard->count, "$.shard");
  return batch;
}

Json playerJson(const PlayerEntry& p, bool withLevel) {
  Json j = {{"id", p.info->id}, {"params", p.params}};
  if (withLevel) j["level"] = p.level;
  return j;
}

}  // namespace

ShardRecord parseShardRecord(const Json& node) {
  JsonFields fields(node, "$.shard", {"index", "count", "ddalab", "batch_sha256"});
  const auto count = static_cast<int>(fields.integer("count", 1, 100000));
  const auto index = static_cast<int>(fields.integer("index", 0, count - 1));
  ShardRecord record{{index, count}, fields.string("ddalab"), fields.string("batch_sha256")};
  // Printable characters only: a NUL or a control character would cut or garble the message
  // that names the version.
  const bool printable = std::all_of(record.ddalab.begin(), record.ddalab.end(),
                                     [](unsigned char c) { return c >= 0x20 && c != 0x7f; });
  if (record.ddalab.size() > 64 || !printable)
    throw InputError(fields.at("ddalab"),
                     "expected a version (at most 64 printable characters), got " +
                         jsonExcerpt(node.at("ddalab")));
  if (record.batchSha256.size() != 64 ||
      record.batchSha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError(fields.at("batch_sha256"), "expected 64 lowercase hex digits, got " +
                                                    jsonExcerpt(node.at("batch_sha256")));
  return record;
}

Batch parseBatch(const Json& document, const std::string& source, std::span<const SweepAxis> vary,
                 const std::filesystem::path& baseDir) {
  try {
    checkNestingDepth(document, "$");  // before anything walks it recursively
    const ExperimentCheck checkExperiment = [](const Json& experiment) {
      parseExperiment(experiment, 0, "");
    };
    if (hasRatingDesign(document)) {
      if (!vary.empty())
        throw InputError("--vary " + vary.front().path,
                         "a tournament or balance run cannot be swept; expected \"levels\" or "
                         "\"vary\" on an entrant");
      // Paths of the probe's own parts ("$.players[0]"): the expansion moves them into place.
      const ExperimentCheck checkProbe = [](const Json& experiment) {
        parseExperiment(JsonFields(experiment, "$", {DDALAB_EXPERIMENT_KEYS}), "$");
      };
      return parseDocument(expandRatingDesign(document, baseDir, checkProbe));
    }
    return parseDocument(expandSweeps(document, checkExperiment, vary));
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.path(), e.message());
  }
}

Batch parseExperiment(const Json& experiment, uint64_t seed, const std::string& source) {
  try {
    checkNestingDepth(experiment, "$");
    Batch batch;
    batch.seed = seed;
    batch.experiments.push_back(
        parseExperiment(JsonFields(experiment, "$", {DDALAB_EXPERIMENT_KEYS}), "$"));
    return batch;
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.path(), e.message());
  }
}

Batch parseBatchText(std::string_view text, const std::string& source,
                     std::span<const SweepAxis> vary, const std::filesystem::path& baseDir) {
  if (text.size() > kMaxBatchFileBytes)
    throw InputError(source, tooLargeMessage(std::to_string(text.size()), kBatchFileKind));
  return parseBatch(parseJsonText(text, source), source, vary, baseDir);
}

Batch loadBatch(const std::filesystem::path& file, std::span<const SweepAxis> vary) {
  return parseBatchText(readInputFile(file, kBatchFileKind), file.string(), vary,
                        file.parent_path());
}

namespace {

// Every "id" and "base" string in `node` (games, players, environments, DDA bases).
void collectIds(const Json& node, std::vector<std::string>& ids) {
  if (node.is_array())
    for (const Json& item : node) collectIds(item, ids);
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    if ((key == "id" || key == "base") && value.is_string()) ids.push_back(value);
    collectIds(value, ids);
  }
}

std::vector<std::string> idsNamed(const Json& experiments) {
  std::vector<std::string> ids;
  collectIds(experiments, ids);
  return ids;
}

}  // namespace

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
    // The default objective is left out: a batch.json is as before objectives existed.
    if (e.objective.kind != ObjectiveKind::WeightedSum) j["objective"] = objectiveJson(e.objective);
    if (e.salt) j["salt"] = e.salt;
    if (!e.point.empty()) j["point"] = e.point;
    if (!e.entrants.empty()) j["entrants"] = e.entrants;
    experiments.push_back(j);
  }
  Json document = {{"format", kBatchFormat}, {"seed", batch.seed}, {"experiments", experiments}};
  // The plug-ins whose games or players the batch names, with their checksums (a batch of
  // built-ins has none, and its batch.json is as before plug-ins existed).
  if (Json plugins = pluginsUsed(idsNamed(experiments)); !plugins.empty())
    document["plugins"] = std::move(plugins);
  if (!batch.rating.is_null()) document["rating"] = batch.rating;
  if (batch.shard) {
    Batch whole = batch;
    whole.shard.reset();
    document["shard"] = {{"index", batch.shard->index},
                         {"count", batch.shard->count},
                         {"ddalab", DDALAB_SDK_VERSION},
                         {"batch_sha256", batchChecksum(whole)}};
  }
  return document;
}

namespace {

// What decides the games of each experiment of `batch`: its document without the fields that
// do not change game i.
std::vector<Json> playKeys(const Batch& batch) {
  std::vector<Json> keys;
  const Json document = toJson(batch);  // outlives the loop (a temporary's member would not)
  for (Json e : document.at("experiments")) {
    for (const char* field : {"name", "comparison", "iterations", "point", "entrants"})
      e.erase(field);
    keys.push_back(std::move(e));
  }
  return keys;
}

}  // namespace

std::string batchChecksum(const Batch& batch) {
  Batch whole = batch;
  whole.shard.reset();
  Json document = toJson(whole);
  if (document.contains("plugins"))
    for (Json& plugin : document.at("plugins")) plugin.erase("file");
  return sha256Hex(document.dump(2) + "\n");
}

size_t plannedGames(const Batch& batch) {
  size_t total = 0;
  for (const auto& e : batch.experiments) total += iterationsOf(batch, e).size();
  return total;
}

IterationRange iterationsOf(const Batch& batch, const Experiment& experiment) {
  const auto n = static_cast<size_t>(experiment.iterations);
  if (!batch.shard) return {0, n};
  const auto k = static_cast<size_t>(batch.shard->index),
             count = static_cast<size_t>(batch.shard->count);
  return {n * k / count, n * (k + 1) / count};
}

void checkShardable(const Batch& batch, int shards, const std::string& option) {
  if (shards <= 1) return;
  for (const Experiment& e : batch.experiments)
    if (e.objective.kind == ObjectiveKind::WinRate)
      throw InputError(option, "experiment '" + e.name +
                                   "' pursues a win-rate objective: each block of its games steers "
                                   "by the games before it, so it cannot be split into shards; "
                                   "run it whole (or in a batch of its own without shards)");
}

Shard parseShard(const std::string& text, const std::string& option) {
  const size_t slash = text.find('/');
  const auto number = [&](const std::string& part) {
    long long value = -1;
    if (!part.empty() && part.size() <= 6 &&
        part.find_first_not_of("0123456789") == std::string::npos)
      value = std::stoll(part);
    return value;
  };
  const long long k = slash == std::string::npos ? -1 : number(text.substr(0, slash));
  const long long n = slash == std::string::npos ? -1 : number(text.substr(slash + 1));
  if (k < 0 || n < 1 || n > 100000 || k >= n)
    throw InputError(option, "expected K/N with 0 <= K < N <= 100000 (shard K of N), got '" +
                                 textExcerpt(text) + "'");
  return {static_cast<int>(k), static_cast<int>(n)};
}

uint64_t playIdentity(const Batch& batch, size_t index) {
  const std::string key = std::to_string(batch.seed) + " " + playKeys(batch).at(index).dump();
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::vector<std::optional<size_t>> matchExperiments(const Batch& held, const Batch& wanted) {
  std::vector<std::optional<size_t>> match(wanted.experiments.size());
  if (held.seed != wanted.seed) return match;
  const std::vector<Json> heldKeys = playKeys(held), wantedKeys = playKeys(wanted);
  std::vector<bool> used(heldKeys.size(), false);
  const auto assign = [&](bool sameNameOnly) {
    for (size_t w = 0; w < wantedKeys.size(); ++w)
      for (size_t h = 0; h < heldKeys.size() && !match[w]; ++h)
        if (!used[h] && heldKeys[h] == wantedKeys[w] &&
            (!sameNameOnly || held.experiments[h].name == wanted.experiments[w].name)) {
          match[w] = h;
          used[h] = true;
        }
  };
  assign(true);  // an experiment keeps its own games first, then renamed ones find theirs
  assign(false);
  return match;
}

}  // namespace ddalab
