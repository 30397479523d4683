#include "experiments/tournament.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "core/json_input.h"
#include "core/sha256.h"
#include "experiments/formats.h"
#include "experiments/name_checks.h"
#include "games/registry.h"
#include "players/registry.h"
#include "results/experiment_result.h"

namespace ddalab {

namespace {

// Most experiments a tournament or balance run expands into, counted before any is made: a
// larger design runs as several batches (validating 20,000 experiments takes about 15 s).
constexpr size_t kMaxRatingExperiments = 20'000;
constexpr long long kMaxGamesPerExperiment = 10'000'000;
// Most entrants (after "levels" and "vary"): far more than any design of kMaxRatingExperiments.
constexpr size_t kMaxEntrants = 10'000;
constexpr double kMaxAnchorRating = 1e6;
constexpr int kMaxBootstrap = 100'000;
const InputFileKind kRatingsFileKind{16 << 20, "a ratings.json file of `ddalab rate`"};

std::string elementPath(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string joined(const std::vector<std::string>& names, const std::string& separator) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

// ---- names -----------------------------------------------------------------------------------

// Refuses a name (`what`: "entrant name", ...) that would not make a portable file name or that
// holds a separator of the generated experiment names.
void checkGivenName(const std::string& name, const std::string& path, const std::string& what) {
  const std::string named = what + " " + jsonExcerpt(name);
  const std::string expected =
      "; expected printable characters other than \\ : * ? \" < > | , / @ (names become parts of "
      "experiment and file names)";
  checkPortableCharacters(name, path, named, expected);
  if (const size_t at = name.find_first_of(",/@"); at != std::string::npos)
    throw InputError(path, named + " has '" + name[at] +
                               "', which separates the parts of the experiments' names" + expected);
}

// Names given so far with their paths: a name given twice is refused naming both places.
class NameClaims {
 public:
  explicit NameClaims(std::string what) : what_(std::move(what)) {}
  void claim(const std::string& name, const std::string& path) {
    const auto [earlier, added] = paths_.emplace(name, path);
    if (!added)
      throw InputError(path, what_ + " " + jsonExcerpt(name) + " is given twice (also at " +
                                 earlier->second + "); expected distinct names");
  }
  bool has(const std::string& name) const { return paths_.count(name) > 0; }

 private:
  std::string what_;
  std::map<std::string, std::string> paths_;
};

// The experiment name `name` as a file stem must fit kMaxNameStemBytes; refused at `path`.
void checkExperimentNameLength(const std::string& name, const std::string& path) {
  if (const size_t bytes = fileStem(name).size(); bytes > kMaxNameStemBytes)
    throw InputError(path, "the generated experiment name " + jsonExcerpt(name) + " is " +
                               std::to_string(bytes) +
                               " bytes long as a file name; expected at "
                               "most " +
                               std::to_string(kMaxNameStemBytes) + " bytes: give shorter names");
}

// ---- probes: the batch parser's checks with paths into the document --------------------------

// Where a part of a probe experiment came from in the document: an error at `prefix` (or below
// it) is reported at `path` instead.
struct Origin {
  std::string prefix, path;
};

// Runs `check` on `experiment`; an InputError's path is moved to where its part came from (the
// first origin whose prefix it starts with).
void checkProbe(const ExperimentCheck& check, const Json& experiment,
                const std::vector<Origin>& origins) {
  try {
    check(experiment);
  } catch (const InputError& e) {
    const std::string& at = e.path();
    for (const Origin& origin : origins) {
      const size_t n = origin.prefix.size();
      if (at.compare(0, n, origin.prefix) == 0 && (at.size() == n || at[n] == '.' || at[n] == '['))
        throw InputError(origin.path + at.substr(n), e.message());
    }
    throw;
  }
}

// The parts a tournament's or balance run's experiments share, as given (paths for errors).
struct Setting {
  std::string base;  // "$.tournament" or "$.balance"
  Json game;
  int seats = 0;
};

// `players` in a probe experiment with the setting's game (and `extra`: environment, ...).
Json probeExperiment(const Setting& setting, const Json& players, const Json& extra) {
  Json e = extra;
  e["name"] = "probe";
  e["game"] = setting.game;
  e["players"] = players;
  e["iterations"] = 1;
  return e;
}

// The game with its parameters' defaults filled in (checked by a probe first).
Json normalizedGame(const Json& game) {
  const std::string id = game.at("id");
  const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "$");
  return {{"id", id},
          {"params", validateParams(info.params, game.value("params", Json(nullptr)), "$")}};
}

int seatsOf(const Json& game) {
  const std::string id = game.at("id");
  const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "$");
  return info.make(game.at("params"))->numPlayers();
}

// Checks the setting's game (at base.game) and learns its seats.
Setting parseSetting(const JsonFields& fields, const std::string& base,
                     const ExperimentCheck& check) {
  Setting setting{base, fields.get("game"), 0};
  checkProbe(check, Json{{"name", "probe"}, {"game", setting.game}, {"iterations", 1}},
             {{"$.game", fields.at("game")}, {"$", base}});
  setting.game = normalizedGame(setting.game);
  setting.seats = seatsOf(setting.game);
  return setting;
}

// A player object with its level's and parameters' defaults filled in: two entrants whose
// players normalize equally are the same player. A player the registry does not know is kept.
Json normalizedPlayer(const Json& player) {
  const std::string id = player.at("id");
  for (const PlayerInfo& info : playerRegistry())
    if (info.id == id)
      return {{"id", id},
              {"level", player.value("level", 100)},
              {"params", validateParams(info.params, player.value("params", Json(nullptr)), "$")}};
  return player;
}

void refuseSweep(const Json& node, const std::string& path) {
  if (node.is_object() && node.contains("sweep"))
    throw InputError(path + ".sweep",
                     "a tournament or balance run cannot be swept: its entrants are its grid; "
                     "expected \"levels\" or \"vary\" on an entrant (or a batch of experiments)");
}

// ---- tournament entrants ---------------------------------------------------------------------

struct Entrant {
  std::string name;
  Json player;  // as given, with its level or varied value
  std::string curve;
  std::optional<double> x;
  std::string path;             // where it was given
  std::vector<Origin> origins;  // of its player in a probe (seat 0)
};

Json playerObject(const JsonFields& fields) {
  const Json& player = fields.get("player");
  if (!player.is_object())
    throw InputError(fields.at("player"),
                     "expected a player object {\"id\", \"level\", "
                     "\"params\"}, got " +
                         jsonExcerpt(player));
  return player;
}

const Json& nonEmptyArray(const JsonFields& fields, const char* key, const std::string& what) {
  const Json& list = fields.get(key);
  if (!list.is_array() || list.empty())
    throw InputError(fields.at(key),
                     "expected a non-empty array of " + what + ", got " + jsonExcerpt(list));
  return list;
}

void addLevelEntrants(const JsonFields& fields, const std::string& name, const Json& player,
                      std::vector<Entrant>& out) {
  if (player.contains("level"))
    throw InputError(fields.at("player") + ".level",
                     "an entrant with \"levels\" takes each level from the list; expected no "
                     "\"level\" in its player");
  const Json& levels = nonEmptyArray(fields, "levels", "levels (integers in [1, 100])");
  std::set<long long> seen;
  for (size_t k = 0; k < levels.size(); ++k) {
    const std::string path = elementPath(fields.at("levels"), k);
    if (!isIntegerIn(levels[k], 1, 100))
      throw InputError(path,
                       "expected a level, an integer in [1, 100], got " + jsonExcerpt(levels[k]));
    const long long level = levels[k].get<long long>();
    if (!seen.insert(level).second)
      throw InputError(path, "level " + std::to_string(level) +
                                 " is given twice; expected "
                                 "distinct levels");
    Json p = player;
    p["level"] = level;
    out.push_back({name + "@" + std::to_string(level),
                   p,
                   name,
                   static_cast<double>(level),
                   path,
                   {{"$.players[0].level", path}, {"$.players[0]", fields.at("player")}}});
  }
}

void addVaryEntrants(const JsonFields& fields, const std::string& name, const Json& player,
                     std::vector<Entrant>& out) {
  JsonFields vary(fields.get("vary"), fields.at("vary"), {"param", "values"});
  const std::string param = vary.string("param");
  if (player.contains("params") && player.at("params").is_object() &&
      player.at("params").contains(param))
    throw InputError(fields.at("player") + ".params." + textExcerpt(param),
                     "an entrant with \"vary\" takes \"" + textExcerpt(param) +
                         "\" from its values; expected it not in the player's params");
  const Json& values = nonEmptyArray(vary, "values", "values");
  const bool curve =
      std::all_of(values.begin(), values.end(), [](const Json& v) { return v.is_number(); });
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string path = elementPath(vary.at("values"), k);
    Json p = player;
    p["params"][param] = values[k];
    const std::string entrant = name + "@" + param + "=" + valueText(values[k]);
    checkPortableCharacters(entrant, path, "entrant name " + jsonExcerpt(entrant),
                            "; expected values that make portable names");
    std::optional<double> x;
    if (curve) x = values[k].get<double>();
    out.push_back(
        {entrant,
         p,
         curve ? name : "",
         x,
         path,
         {{"$.players[0].params." + param, path}, {"$.players[0]", fields.at("player")}}});
  }
}

std::vector<Entrant> parseEntrants(const JsonFields& tournament) {
  const Json& list = nonEmptyArray(tournament, "entrants", "entrants {\"name\", \"player\"}");
  std::vector<Entrant> entrants;
  for (size_t i = 0; i < list.size() && entrants.size() <= kMaxEntrants; ++i) {
    const std::string path = elementPath(tournament.at("entrants"), i);
    refuseSweep(list[i], path);
    JsonFields fields(list[i], path, {"name", "player", "levels", "vary"});
    const std::string name = fields.string("name");
    checkGivenName(name, fields.at("name"), "entrant name");
    const Json player = playerObject(fields);
    if (fields.has("levels") && fields.has("vary"))
      throw InputError(fields.at("vary"),
                       "an entrant has \"levels\" or \"vary\"; expected one "
                       "of them (give a second entrant for the other)");
    if (fields.has("levels"))
      addLevelEntrants(fields, name, player, entrants);
    else if (fields.has("vary"))
      addVaryEntrants(fields, name, player, entrants);
    else
      entrants.push_back(
          {name, player, "", std::nullopt, path, {{"$.players[0]", fields.at("player")}}});
  }
  if (entrants.size() > kMaxEntrants)
    throw InputError(tournament.at("entrants"), "more than " + std::to_string(kMaxEntrants) +
                                                    " entrants; expected fewer (run several "
                                                    "tournaments)");
  return entrants;
}

// Each entrant's player checked in every seat of the game, then names and players distinct.
void checkEntrants(const std::vector<Entrant>& entrants, const Setting& setting, const Json& shared,
                   const std::vector<Origin>& sharedOrigins, const ExperimentCheck& check) {
  NameClaims names("entrant name");
  std::map<std::string, const Entrant*> players;  // by normalized player
  for (const Entrant& entrant : entrants) {
    names.claim(entrant.name, entrant.path);
    std::vector<Origin> origins = entrant.origins;
    origins.insert(origins.end(), sharedOrigins.begin(), sharedOrigins.end());
    const Json seats(std::vector<Json>(static_cast<size_t>(setting.seats), entrant.player));
    checkProbe(check, probeExperiment(setting, seats, shared), origins);
    const auto [earlier, added] =
        players.emplace(normalizedPlayer(entrant.player).dump(), &entrant);
    if (!added)
      throw InputError(entrant.path,
                       "entrant " + jsonExcerpt(entrant.name) + " is the same player as entrant " +
                           jsonExcerpt(earlier->second->name) + " (" + earlier->second->path +
                           "); expected each player once (a rating per player)");
  }
}

// ---- designs ---------------------------------------------------------------------------------

// C(n, k), or `cap` + 1 when larger.
size_t choose(size_t n, size_t k, size_t cap) {
  if (k > n) return 0;
  size_t r = 1;
  for (size_t i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;  // C(n - k + i, i): exact, and growing with i
    if (r > cap) return cap + 1;
  }
  return r;
}

// Every k-subset of `from` (indices in increasing order), passed to `visit`.
template <typename Visit>
void forEachSubset(const std::vector<size_t>& from, size_t k, Visit&& visit) {
  if (k > from.size()) return;
  std::vector<size_t> pick(k);
  std::iota(pick.begin(), pick.end(), size_t{0});
  std::vector<size_t> subset(k);
  while (true) {
    for (size_t i = 0; i < k; ++i) subset[i] = from[pick[i]];
    visit(subset);
    size_t i = k;
    while (i > 0 && pick[i - 1] == from.size() - k + i - 1) --i;
    if (i == 0) return;
    ++pick[i - 1];
    for (size_t j = i; j < k; ++j) pick[j] = pick[j - 1] + 1;
  }
}

// The design: tables of `seats` entrants, each played in its `seats` cyclic rotations.
struct Design {
  Json json;  // normalized, for the rating section
  std::vector<std::vector<size_t>> tables;
};

size_t entrantIndex(const std::vector<Entrant>& entrants, const Json& name, const std::string& path,
                    const std::string& role) {
  for (size_t i = 0; i < entrants.size(); ++i)
    if (name.is_string() && entrants[i].name == name.get<std::string>()) return i;
  std::vector<std::string> valid;
  for (const Entrant& e : entrants) valid.push_back(e.name);
  throw InputError(path, role + " " + jsonExcerpt(name) + " is not an entrant; expected one of " +
                             textExcerpt(joined(valid, ", ")));
}

// Names of entrants (`key` of `fields`): distinct entrant indices.
std::vector<size_t> entrantList(const JsonFields& fields, const char* key,
                                const std::vector<Entrant>& entrants, const std::string& role) {
  const Json& list = nonEmptyArray(fields, key, role + " names");
  std::vector<size_t> indices;
  NameClaims claims(role);
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = elementPath(fields.at(key), i);
    indices.push_back(entrantIndex(entrants, list[i], path, role));
    claims.claim(list[i].get<std::string>(), path);
  }
  return indices;
}

void checkDesignSize(size_t tables, size_t seats, const std::string& path) {
  if (tables > kMaxRatingExperiments / seats)
    throw InputError(path, "the design makes more than " + std::to_string(kMaxRatingExperiments) +
                               " experiments; expected fewer entrants or a ladder (or several "
                               "tournaments)");
}

Design roundRobin(size_t entrants, size_t seats, const std::string& path) {
  checkDesignSize(choose(entrants, seats, kMaxRatingExperiments), seats, path);
  std::vector<size_t> all(entrants);
  std::iota(all.begin(), all.end(), size_t{0});
  Design design{{{"kind", "round-robin"}}, {}};
  forEachSubset(all, seats, [&](const std::vector<size_t>& s) { design.tables.push_back(s); });
  return design;
}

// Newcomers meet every set of seats − 1 anchors; the anchors meet each other in every set of
// `seats` of them.
Design ladderDesign(const JsonFields& fields, const std::vector<Entrant>& entrants, size_t seats) {
  const std::vector<size_t> anchors = entrantList(fields, "anchors", entrants, "anchor");
  if (anchors.size() + 1 < seats)
    throw InputError(fields.at("anchors"),
                     std::to_string(anchors.size()) + " anchors cannot fill the other seats of a " +
                         std::to_string(seats) + "-seat game; expected at least " +
                         std::to_string(seats - 1));
  std::vector<size_t> sortedAnchors = anchors;
  std::sort(sortedAnchors.begin(), sortedAnchors.end());
  const size_t newcomers = entrants.size() - anchors.size();
  const size_t perNewcomer = choose(anchors.size(), seats - 1, kMaxRatingExperiments);
  checkDesignSize(perNewcomer * newcomers + choose(anchors.size(), seats, kMaxRatingExperiments),
                  seats, fields.at("anchors"));
  Json names = Json::array();
  for (size_t a : anchors) names.push_back(entrants[a].name);
  Design design{{{"kind", "ladder"}, {"anchors", names}}, {}};
  forEachSubset(sortedAnchors, seats,
                [&](const std::vector<size_t>& s) { design.tables.push_back(s); });
  for (size_t e = 0; e < entrants.size(); ++e) {
    if (std::binary_search(sortedAnchors.begin(), sortedAnchors.end(), e)) continue;
    forEachSubset(sortedAnchors, seats - 1, [&](const std::vector<size_t>& s) {
      std::vector<size_t> table{e};
      table.insert(table.end(), s.begin(), s.end());
      design.tables.push_back(table);
    });
  }
  return design;
}

// Explicit tables: each an array of `seats` distinct entrant names.
Design pairingsDesign(const JsonFields& fields, const std::vector<Entrant>& entrants,
                      size_t seats) {
  const Json& list = nonEmptyArray(fields, "tables", "tables (arrays of entrant names)");
  checkDesignSize(list.size(), seats, fields.at("tables"));
  Design design{{{"kind", "pairings"}, {"tables", Json::array()}}, {}};
  for (size_t t = 0; t < list.size(); ++t) {
    const std::string path = elementPath(fields.at("tables"), t);
    if (!list[t].is_array() || list[t].size() != seats)
      throw InputError(path, "expected an array of " + std::to_string(seats) +
                                 " entrant names (one table of the game), got " +
                                 jsonExcerpt(list[t]));
    std::vector<size_t> table;
    for (size_t k = 0; k < seats; ++k) {
      const size_t e = entrantIndex(entrants, list[t][k], elementPath(path, k), "entrant");
      if (std::find(table.begin(), table.end(), e) != table.end())
        throw InputError(elementPath(path, k),
                         "entrant " + jsonExcerpt(list[t][k]) +
                             " twice at one table; expected distinct entrants");
      table.push_back(e);
    }
    design.json["tables"].push_back(list[t]);
    design.tables.push_back(table);
  }
  return design;
}

Design parseDesign(const JsonFields& tournament, const std::vector<Entrant>& entrants,
                   size_t seats) {
  JsonFields fields(tournament.get("design"), tournament.at("design"),
                    {"kind", "anchors", "tables"});
  const std::string kind = fields.string("kind");
  const auto refuseKey = [&](const char* key) {
    if (fields.has(key))
      throw InputError(fields.at(key),
                       "design '" + textExcerpt(kind) + "' takes no \"" + key + "\"");
  };
  if (entrants.size() < seats)
    throw InputError(tournament.at("entrants"),
                     std::to_string(entrants.size()) + " entrants cannot fill a table of " +
                         std::to_string(seats) + " seats; expected at least " +
                         std::to_string(seats) + " entrants");
  if (kind == "round-robin") {
    refuseKey("anchors");
    refuseKey("tables");
    return roundRobin(entrants.size(), seats, tournament.at("design"));
  }
  if (kind == "ladder") {
    refuseKey("tables");
    return ladderDesign(fields, entrants, seats);
  }
  if (kind == "pairings") {
    refuseKey("anchors");
    return pairingsDesign(fields, entrants, seats);
  }
  throw InputError(fields.at("kind"), "unknown design " + jsonExcerpt(kind) +
                                          "; expected \"round-robin\", \"ladder\" or \"pairings\"");
}

// Refuses a design under which an entrant has no path of games to the anchor: the likelihood
// would have no maximum.
void checkConnected(const Design& design, const std::vector<Entrant>& entrants, size_t anchor,
                    const std::string& path) {
  std::vector<size_t> parent(entrants.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  const auto root = [&](size_t e) {
    while (parent[e] != e) e = parent[e] = parent[parent[e]];
    return e;
  };
  for (const auto& table : design.tables)
    for (size_t e : table) parent[root(e)] = root(table.front());
  std::vector<std::string> apart;
  for (size_t e = 0; e < entrants.size(); ++e)
    if (root(e) != root(anchor)) apart.push_back(entrants[e].name + " (" + entrants[e].path + ")");
  if (!apart.empty())
    throw InputError(path, "the design leaves " + std::to_string(apart.size()) +
                               " entrants without a path of games to the anchor " +
                               jsonExcerpt(entrants[anchor].name) + ": " +
                               textExcerpt(joined(apart, ", ")) +
                               "; their ratings would have no maximum likelihood; expected a "
                               "design that connects every entrant to the anchor");
}

// ---- the model -------------------------------------------------------------------------------

// A bound in a message: whole numbers without a fraction ("1", not "1.0").
std::string boundText(double x) {
  return x == std::trunc(x) && std::fabs(x) < 1e15 ? std::to_string(static_cast<long long>(x))
                                                   : jsonExcerpt(x);
}

double finiteNumber(const JsonFields& fields, const char* key, double fallback, double low,
                    double high, bool openLow, bool openHigh) {
  if (!fields.has(key)) return fallback;
  const Json& v = fields.get(key);
  const bool ok = v.is_number() && std::isfinite(v.get<double>()) &&
                  (openLow ? v.get<double>() > low : v.get<double>() >= low) &&
                  (openHigh ? v.get<double>() < high : v.get<double>() <= high);
  if (!ok)
    throw InputError(fields.at(key), "expected a number in " + std::string(openLow ? "(" : "[") +
                                         boundText(low) + ", " + boundText(high) +
                                         (openHigh ? ")" : "]") + ", got " + jsonExcerpt(v));
  return v.get<double>();
}

// The default anchor: the entrant named "random" if there is one, else the first.
std::string defaultAnchor(const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), "random") != names.end() ? "random" : names.front();
}

// The model object with every default written out (the same object when complete).
Json parseTournamentModel(const Json* node, const std::string& path,
                          const std::vector<std::string>& names) {
  const Json empty = Json::object();
  JsonFields fields(
      node ? *node : empty, path,
      {"anchor", "anchor_rating", "draws", "first_seat", "bootstrap", "confidence", "prior_sd"});
  const std::string anchor = fields.string("anchor", defaultAnchor(names));
  if (std::find(names.begin(), names.end(), anchor) == names.end())
    throw InputError(fields.at("anchor"), "anchor " + jsonExcerpt(anchor) +
                                              " is not an entrant; expected one of " +
                                              textExcerpt(joined(names, ", ")));
  const std::string draws = fields.string("draws", "half");
  if (draws != "half" && draws != "davidson")
    throw InputError(fields.at("draws"),
                     "expected \"half\" (a draw is half a win) or "
                     "\"davidson\" (a draw parameter), got " +
                         jsonExcerpt(fields.get("draws")));
  const Json* firstSeat = fields.find("first_seat");
  if (firstSeat && !firstSeat->is_boolean())
    throw InputError(
        fields.at("first_seat"),
        "expected true (fit a first-seat advantage) or false, got " + jsonExcerpt(*firstSeat));
  return {{"anchor", anchor},
          {"anchor_rating", finiteNumber(fields, "anchor_rating", 0, -kMaxAnchorRating,
                                         kMaxAnchorRating, false, false)},
          {"draws", draws},
          {"first_seat", firstSeat ? firstSeat->get<bool>() : true},
          {"bootstrap", fields.integer("bootstrap", 0, kMaxBootstrap, 1000)},
          {"confidence", finiteNumber(fields, "confidence", 0.95, 0.5, 0.999999, false, false)},
          {"prior_sd", finiteNumber(fields, "prior_sd", 0, 0, kMaxAnchorRating, false, false)}};
}

// ---- generated experiments -------------------------------------------------------------------

// The keys of a tournament or condition an experiment takes as they are.
Json sharedKeys(const JsonFields& fields, std::initializer_list<const char*> keys,
                std::vector<Origin>& origins) {
  Json shared = Json::object();
  for (const char* key : keys)
    if (fields.has(key)) {
      shared[key] = fields.get(key);
      origins.push_back({std::string("$.") + key, fields.at(key)});
    }
  return shared;
}

Json generatedExperiment(const std::string& name, const Setting& setting, const Json& shared,
                         const Json& players, const std::vector<std::string>& entrants,
                         long long games) {
  Json e = shared;
  e["name"] = name;
  e["game"] = setting.game;
  e["players"] = players;
  e["entrants"] = entrants;
  e["iterations"] = games;
  return e;
}

Json tournamentExperiments(const std::string& name, const Setting& setting, const Json& shared,
                           const std::vector<Entrant>& entrants, const Design& design,
                           long long games, const std::string& path) {
  Json out = Json::array();
  const size_t n = static_cast<size_t>(setting.seats);
  for (const auto& table : design.tables)
    for (size_t rotation = 0; rotation < n; ++rotation) {
      Json players = Json::array();
      std::vector<std::string> names;
      for (size_t seat = 0; seat < n; ++seat) {
        const Entrant& e = entrants[table[(seat + rotation) % n]];
        players.push_back(e.player);
        names.push_back(e.name);
      }
      const std::string experiment = name + "/" + joined(names, ",");
      checkExperimentNameLength(experiment, path);
      out.push_back(generatedExperiment(experiment, setting, shared, players, names, games));
    }
  return out;
}

Json entrantsSection(const std::vector<Entrant>& entrants) {
  Json list = Json::array();
  for (const Entrant& e : entrants) {
    Json j = {{"name", e.name}, {"player", normalizedPlayer(e.player)}};
    if (!e.curve.empty()) j["curve"] = e.curve;
    if (e.x) j["x"] = *e.x;
    list.push_back(std::move(j));
  }
  return list;
}

long long gamesOf(const JsonFields& fields) {
  return fields.integer("games", 1, kMaxGamesPerExperiment);
}

// "tournament" → experiments and the rating section.
std::pair<Json, Json> expandTournament(const Json& node, const ExperimentCheck& check) {
  const std::string base = "$.tournament";
  refuseSweep(node, base);
  JsonFields fields(
      node, base,
      {"name", "game", "environment", "coefficients", "entrants", "design", "games", "model"});
  const std::string name = fields.string("name");
  checkGivenName(name, fields.at("name"), "tournament name");
  const Setting setting = parseSetting(fields, base, check);
  std::vector<Origin> origins;
  const Json shared = sharedKeys(fields, {"environment", "coefficients"}, origins);
  origins.push_back({"$", base});
  const std::vector<Entrant> entrants = parseEntrants(fields);
  checkEntrants(entrants, setting, shared, origins, check);
  const Design design = parseDesign(fields, entrants, static_cast<size_t>(setting.seats));
  std::vector<std::string> names;
  for (const Entrant& e : entrants) names.push_back(e.name);
  const Json model = parseTournamentModel(fields.find("model"), fields.at("model"), names);
  const size_t anchor = static_cast<size_t>(
      std::find(names.begin(), names.end(), model.at("anchor").get<std::string>()) - names.begin());
  // Alone (one seat) every entrant plays the game itself, which connects them all.
  if (setting.seats > 1) checkConnected(design, entrants, anchor, fields.at("design"));
  const long long games = gamesOf(fields);
  Json section = {
      {"kind", "tournament"},  {"name", name},   {"entrants", entrantsSection(entrants)},
      {"design", design.json}, {"games", games}, {"model", model}};
  return {tournamentExperiments(name, setting, shared, entrants, design, games, fields.at("name")),
          std::move(section)};
}

// ---- balance runs ----------------------------------------------------------------------------

struct RatedLadderEntrant {
  std::string name;
  Json player;
  double rating = 0, low = 0, high = 0;
  std::string path;  // in the rating file
};

struct RatingSource {
  Json document;
  std::string name, sha256, where;  // `where`: how errors name it
};

RatingSource ratingSource(const JsonFields& fields, const std::filesystem::path& baseDir) {
  const Json& given = fields.get("ratings");
  if (given.is_object()) {
    const std::string where = fields.at("ratings");
    return {given, "(inline)", sha256Hex(given.dump()), where};
  }
  if (!given.is_string() || given.get<std::string>().empty())
    throw InputError(fields.at("ratings"),
                     "expected a ratings.json file's name or its content "
                     "(an object), got " +
                         jsonExcerpt(given));
  const std::filesystem::path file = baseDir / given.get<std::string>();
  const std::string text = readInputFile(file, kRatingsFileKind);
  return {parseJsonText(text, file.string()), given.get<std::string>(), sha256Hex(text),
          file.string() + ": $"};
}

// `key` of the object `node` at `path` (other keys are left to the file's writer).
const Json& requiredMember(const Json& node, const std::string& path, const char* key) {
  if (!node.is_object()) throw InputError(path, "expected an object, got " + jsonExcerpt(node));
  if (!node.contains(key)) throw InputError(path + "." + key, "missing required key");
  return node.at(key);
}

double ratingNumber(const Json& node, const std::string& path, const char* key) {
  const Json& v = requiredMember(node, path, key);
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw InputError(path + "." + key, "expected a finite rating, got " + jsonExcerpt(v));
  return v.get<double>();
}

std::string ratedName(const Json& node, const std::string& path) {
  const Json& v = requiredMember(node, path, "name");
  if (!v.is_string() || v.get<std::string>().empty())
    throw InputError(path + ".name", "expected a non-empty name, got " + jsonExcerpt(v));
  return v.get<std::string>();
}

// The rating file's entrants, its game and version checked against `setting`.
std::vector<RatedLadderEntrant> ratingFileEntrants(const RatingSource& source,
                                                   const Setting& setting,
                                                   const ExperimentCheck& check) {
  const Json& doc = source.document;
  const std::string& at = source.where;  // "FILE: $" or "$.balance.ratings"
  if (!doc.is_object()) throw InputError(at, "expected a ratings.json object");
  if (!doc.contains("format") || doc.at("format") != kRatingsFormat)
    throw InputError(at + ".format", std::string("expected \"") + kRatingsFormat + "\", got " +
                                         jsonExcerpt(doc.value("format", Json())));
  if (!doc.contains("ddalab") || doc.at("ddalab") != DDALAB_SDK_VERSION)
    throw InputError(at + ".ddalab",
                     "ratings of ddalab " + jsonExcerpt(doc.value("ddalab", Json())) +
                         "; this is ddalab " DDALAB_SDK_VERSION
                         ": ratings depend on the players' "
                         "code; expected a file of this version (rate the ladder again)");
  const Json game = doc.value("game", Json());
  Json normalized;
  try {
    checkProbe(check, Json{{"name", "probe"}, {"game", game}, {"iterations", 1}}, {});
    normalized = normalizedGame(game);
  } catch (const InputError& e) {
    throw InputError(at + ".game", "not a game of this build (" + e.message() + ")");
  }
  if (normalized != setting.game)
    throw InputError(at + ".game", "ratings of " + jsonExcerpt(normalized) +
                                       "; expected the "
                                       "balance run's game " +
                                       jsonExcerpt(setting.game));
  if (!doc.contains("entrants") || !doc.at("entrants").is_array() || doc.at("entrants").empty())
    throw InputError(at + ".entrants", "expected a non-empty array of rated entrants");
  std::vector<RatedLadderEntrant> out;
  NameClaims names("entrant name");
  for (size_t i = 0; i < doc.at("entrants").size(); ++i) {
    const std::string path = elementPath(at + ".entrants", i);
    const Json& node = doc.at("entrants")[i];
    RatedLadderEntrant e{ratedName(node, path),
                         requiredMember(node, path, "player"),
                         ratingNumber(node, path, "rating"),
                         ratingNumber(node, path, "low"),
                         ratingNumber(node, path, "high"),
                         path};
    names.claim(e.name, path + ".name");
    checkPortableCharacters(e.name, path + ".name", "entrant name " + jsonExcerpt(e.name), "");
    const Json seats(std::vector<Json>(static_cast<size_t>(setting.seats), e.player));
    checkProbe(check, probeExperiment(setting, seats, Json::object()),
               {{"$.players[0]", path + ".player"}});
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<RatedLadderEntrant> chooseLadder(const JsonFields& fields,
                                             const std::vector<RatedLadderEntrant>& rated) {
  if (!fields.has("ladder")) return rated;
  const Json& list = nonEmptyArray(fields, "ladder", "entrant names of the rating file");
  std::vector<RatedLadderEntrant> ladder;
  NameClaims claims("ladder entrant");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = elementPath(fields.at("ladder"), i);
    const auto found = std::find_if(rated.begin(), rated.end(), [&](const RatedLadderEntrant& e) {
      return list[i].is_string() && e.name == list[i].get<std::string>();
    });
    if (found == rated.end()) {
      std::vector<std::string> valid;
      for (const RatedLadderEntrant& e : rated) valid.push_back(e.name);
      throw InputError(path, jsonExcerpt(list[i]) +
                                 " is not an entrant of the rating file; "
                                 "expected one of " +
                                 textExcerpt(joined(valid, ", ")));
    }
    claims.claim(found->name, path);
    ladder.push_back(*found);
  }
  return ladder;
}

struct Condition {
  std::string name;
  Json opponents;  // one player per other seat
  Json shared;     // environment, coefficients, objective
  std::vector<Origin> origins;
};

Json conditionOpponents(const JsonFields& f, int seats, std::vector<Origin>& origins) {
  if (f.has("opponent") == f.has("opponents"))
    throw InputError(f.at("opponent"),
                     "expected either \"opponent\" (one player for every other "
                     "seat) or \"opponents\" (one per other seat)");
  const size_t others = static_cast<size_t>(seats - 1);
  if (f.has("opponent")) {
    for (size_t k = 1; k <= others; ++k)
      origins.push_back({elementPath("$.players", k), f.at("opponent")});
    return Json(std::vector<Json>(others, f.get("opponent")));
  }
  const Json& list = f.get("opponents");
  if (!list.is_array() || list.size() != others)
    throw InputError(f.at("opponents"), "expected an array of " + std::to_string(others) +
                                            " players (one per seat but the rated player's), got " +
                                            jsonExcerpt(list));
  for (size_t k = 1; k <= others; ++k)
    origins.push_back({elementPath("$.players", k), elementPath(f.at("opponents"), k - 1)});
  return list;
}

std::vector<Condition> parseConditions(const JsonFields& fields, const Setting& setting,
                                       const std::vector<RatedLadderEntrant>& ladder,
                                       const ExperimentCheck& check) {
  const Json& list = nonEmptyArray(fields, "conditions", "conditions {\"name\", \"opponent\"}");
  checkDesignSize(list.size() * ladder.size(), static_cast<size_t>(setting.seats),
                  fields.at("conditions"));
  NameClaims names("condition name");
  std::vector<Condition> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = elementPath(fields.at("conditions"), i);
    refuseSweep(list[i], path);
    JsonFields f(list[i], path,
                 {"name", "opponent", "opponents", "environment", "coefficients", "objective"});
    Condition c{f.string("name"), Json(), Json(), {}};
    checkGivenName(c.name, f.at("name"), "condition name");
    names.claim(c.name, f.at("name"));
    for (const RatedLadderEntrant& e : ladder)
      if (e.name == c.name)
        throw InputError(f.at("name"), "condition name " + jsonExcerpt(c.name) +
                                           " is also a ladder entrant's; expected distinct names");
    c.opponents = conditionOpponents(f, setting.seats, c.origins);
    c.shared = sharedKeys(f, {"environment", "coefficients", "objective"}, c.origins);
    c.origins.push_back({"$.players[0]", ladder.front().path + ".player"});
    c.origins.push_back({"$", path});
    Json players = c.opponents;
    players.insert(players.begin(), ladder.front().player);
    checkProbe(check, probeExperiment(setting, players, c.shared), c.origins);
    out.push_back(std::move(c));
  }
  return out;
}

// [low, high] of win rates, checked.
Json checkedBand(const Json& band, const std::string& path) {
  const auto inUnit = [](const Json& v) {
    return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0 &&
           v.get<double>() <= 1;
  };
  if (!band.is_array() || band.size() != 2 || !inUnit(band[0]) || !inUnit(band[1]) ||
      band[0].get<double>() >= band[1].get<double>())
    throw InputError(path, "expected [low, high], win rates with 0 <= low < high <= 1, got " +
                               jsonExcerpt(band));
  return band;
}

// The band a balance run states, by default the even share ± 0.1 (0.4 to 0.6 for one or two
// seats).
Json balanceBand(const JsonFields& fields, int seats) {
  if (fields.has("band")) return checkedBand(fields.get("band"), fields.at("band"));
  const double even = evenShare(seats);
  return Json::array({std::max(0.0, even - 0.1), std::min(1.0, even + 0.1)});
}

Json balanceExperiments(const std::string& name, const Setting& setting,
                        const std::vector<RatedLadderEntrant>& ladder,
                        const std::vector<Condition>& conditions, long long games,
                        const std::string& path) {
  Json out = Json::array();
  const size_t n = static_cast<size_t>(setting.seats);
  for (const Condition& c : conditions)
    for (const RatedLadderEntrant& rated : ladder)
      for (size_t seat = 0; seat < n; ++seat) {
        Json players = c.opponents;
        players.insert(players.begin() + static_cast<std::ptrdiff_t>(seat), rated.player);
        std::vector<std::string> names(n, c.name);
        names[seat] = rated.name;
        const std::string experiment =
            name + "/" + c.name + "/" + rated.name + "@seat" + std::to_string(seat);
        checkExperimentNameLength(experiment, path);
        out.push_back(generatedExperiment(experiment, setting, c.shared, players, names, games));
      }
  return out;
}

std::pair<Json, Json> expandBalance(const Json& node, const std::filesystem::path& baseDir,
                                    const ExperimentCheck& check) {
  const std::string base = "$.balance";
  refuseSweep(node, base);
  JsonFields fields(node, base,
                    {"name", "game", "ratings", "ladder", "conditions", "games", "band"});
  const std::string name = fields.string("name");
  checkGivenName(name, fields.at("name"), "balance run name");
  const Setting setting = parseSetting(fields, base, check);
  const RatingSource source = ratingSource(fields, baseDir);
  const std::vector<RatedLadderEntrant> ladder =
      chooseLadder(fields, ratingFileEntrants(source, setting, check));
  const std::vector<Condition> conditions = parseConditions(fields, setting, ladder, check);
  const long long games = gamesOf(fields);
  Json ladderJson = Json::array(), conditionNames = Json::array();
  for (const RatedLadderEntrant& e : ladder)
    ladderJson.push_back({{"name", e.name},
                          {"player", normalizedPlayer(e.player)},
                          {"rating", e.rating},
                          {"low", e.low},
                          {"high", e.high}});
  for (const Condition& c : conditions) conditionNames.push_back(c.name);
  Json section = {{"kind", "balance"},
                  {"name", name},
                  {"ladder", ladderJson},
                  {"conditions", conditionNames},
                  {"games", games},
                  {"band", balanceBand(fields, setting.seats)},
                  {"ratings_file", {{"name", source.name}, {"sha256", source.sha256}}}};
  return {balanceExperiments(name, setting, ladder, conditions, games, fields.at("name")),
          std::move(section)};
}

// ---- the rating section, read back ----------------------------------------------------------

std::vector<std::string> sectionNames(const JsonFields& fields, const char* key, bool objects) {
  const Json& list = nonEmptyArray(fields, key, objects ? "entrants" : "names");
  std::vector<std::string> names;
  NameClaims claims("name");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = elementPath(fields.at(key), i);
    // Conditions may be names or {"name", ...} objects.
    const bool named = list[i].is_object() && list[i].contains("name");
    const Json* name = named ? &list[i].at("name") : objects ? nullptr : &list[i];
    if (!name || !name->is_string() || name->get<std::string>().empty())
      throw InputError(objects ? path + ".name" : path,
                       "expected a non-empty name, got " + jsonExcerpt(list[i]));
    claims.claim(name->get<std::string>(), path);
    names.push_back(name->get<std::string>());
  }
  return names;
}

void checkSectionEntrant(const Json& entrant, const std::string& path, bool balance) {
  JsonFields f(entrant, path,
               balance
                   ? std::initializer_list<const char*>{"name", "player", "rating", "low", "high"}
                   : std::initializer_list<const char*>{"name", "player", "curve", "x"});
  if (!f.get("player").is_object() || !f.get("player").contains("id"))
    throw InputError(f.at("player"), "expected a player object {\"id\", \"level\", \"params\"}");
  if (balance) {
    for (const char* key : {"rating", "low", "high"}) ratingNumber(entrant, path, key);
    return;
  }
  if (f.has("curve")) f.string("curve");
  if (f.has("x") && (!f.get("x").is_number() || !std::isfinite(f.get("x").get<double>())))
    throw InputError(f.at("x"), "expected a finite number, got " + jsonExcerpt(f.get("x")));
  if (f.has("curve") != f.has("x"))
    throw InputError(f.at("curve"), "expected \"curve\" and \"x\" together");
}

// The names a section's experiments may seat: entrants, or ladder entrants and conditions.
std::vector<std::string> checkSectionFields(const JsonFields& f, const std::string& kind) {
  // The expansion writes every field; a section written by hand (or by another tool) may leave
  // out what the tables do not need: the name, the games, the design, the model's defaults.
  if (f.has("name")) f.string("name");
  if (f.has("games")) f.integer("games", 1, kMaxGamesPerExperiment);
  const bool balance = kind == "balance";
  const char* list = balance ? "ladder" : "entrants";
  std::vector<std::string> names = sectionNames(f, list, true);
  for (size_t i = 0; i < names.size(); ++i)
    checkSectionEntrant(f.get(list)[i], elementPath(f.at(list), i), balance);
  if (!balance) {
    if (f.has("design"))
      JsonFields(f.get("design"), f.at("design"), {"kind", "anchors", "tables"}).string("kind");
    parseTournamentModel(f.find("model"), f.at("model"), names);
    return names;
  }
  for (const std::string& c : sectionNames(f, "conditions", false)) names.push_back(c);
  if (f.has("band")) checkedBand(f.get("band"), f.at("band"));
  if (f.has("ratings_file")) {
    JsonFields file(f.get("ratings_file"), f.at("ratings_file"), {"name", "sha256"});
    file.string("name");
    file.string("sha256");
  }
  return names;
}

}  // namespace

bool hasRatingDesign(const Json& document) {
  return document.is_object() && (document.contains("tournament") || document.contains("balance"));
}

Json expandRatingDesign(const Json& document, const std::filesystem::path& baseDir,
                        const ExperimentCheck& checkExperiment) {
  if (!hasRatingDesign(document)) return document;
  const int given = static_cast<int>(document.contains("tournament")) +
                    static_cast<int>(document.contains("balance")) +
                    static_cast<int>(document.contains("experiments"));
  const char* key = document.contains("tournament") ? "tournament" : "balance";
  if (given != 1)
    throw InputError(std::string("$.") + key,
                     "a batch has exactly one of \"experiments\", "
                     "\"tournament\" and \"balance\"");
  if (document.value("format", Json()) != kBatchFormat)
    throw InputError(
        "$.format",
        std::string("a tournament or balance run is a batch; expected \"") + kBatchFormat + "\"");
  for (const char* written : {"rating", "sweep"})
    if (document.contains(written))
      throw InputError(std::string("$.") + written,
                       std::string(written) == "sweep"
                           ? "a tournament or balance run cannot be swept; expected \"levels\" or "
                             "\"vary\" on an entrant"
                           : "the \"rating\" section is written by the expansion of \"" +
                                 std::string(key) + "\"; expected it left out");
  Json out = document;
  out.erase(key);
  auto [experiments, section] = std::string(key) == "tournament"
                                    ? expandTournament(document.at(key), checkExperiment)
                                    : expandBalance(document.at(key), baseDir, checkExperiment);
  out["experiments"] = std::move(experiments);
  out["rating"] = std::move(section);
  return out;
}

void checkRatingSection(const Json& section,
                        const std::vector<std::vector<std::string>>& experimentEntrants) {
  const std::string base = "$.rating";
  if (!section.is_object() || !section.contains("kind"))
    throw InputError(base,
                     "expected the rating section {\"kind\", ...} of a tournament or "
                     "balance run, got " +
                         jsonExcerpt(section));
  const std::string kind = section.value("kind", Json("")).is_string()
                               ? section.at("kind").get<std::string>()
                               : std::string();
  if (kind != "tournament" && kind != "balance")
    throw InputError(base + ".kind", "expected \"tournament\" or \"balance\", got " +
                                         jsonExcerpt(section.at("kind")));
  JsonFields f(section, base,
               kind == "tournament"
                   ? std::initializer_list<const char*>{"kind", "name", "entrants", "design",
                                                        "games", "model"}
                   : std::initializer_list<const char*>{"kind", "name", "ladder", "conditions",
                                                        "games", "band", "ratings_file"});
  const std::vector<std::string> names = checkSectionFields(f, kind);
  const std::set<std::string> known(names.begin(), names.end());
  for (size_t e = 0; e < experimentEntrants.size(); ++e) {
    if (experimentEntrants[e].empty())
      throw InputError(elementPath("$.experiments", e) + ".entrants",
                       "missing: every experiment of a " + kind + " names its seats' entrants");
    for (size_t k = 0; k < experimentEntrants[e].size(); ++k)
      if (!known.count(experimentEntrants[e][k]))
        throw InputError(elementPath(elementPath("$.experiments", e) + ".entrants", k),
                         jsonExcerpt(experimentEntrants[e][k]) + " is not named in " + base +
                             "; expected one of its entrants" +
                             (kind == "balance" ? " or conditions" : ""));
  }
}

}  // namespace ddalab
