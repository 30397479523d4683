#include "experiments/rating_results.h"

#include <array>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/json_input.h"
#include "experiments/batch.h"
#include "experiments/tournament.h"
#include "results/aggregate.h"
#include "results/csv_format.h"
#include "results/results_reader.h"
#include "results/statistics.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

std::string batchFileOf(const fs::path& dir) {
  return (dir / "batch.json").string();
}

std::string indexed(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

const Json& requiredField(const Json& object, const char* key, const std::string& path) {
  if (!object.is_object()) throw InputError(path, "expected an object, got " + jsonExcerpt(object));
  if (!object.contains(key)) throw InputError(path + "." + key, "missing required key");
  return object.at(key);
}

std::string nameValue(const Json& value, const std::string& path) {
  if (!value.is_string() || value.get<std::string>().empty())
    throw InputError(path, "expected a non-empty name, got " + jsonExcerpt(value));
  return value;
}

// A finite number in [min, max] (no bounds: any finite number).
double finiteValue(const Json& value, const std::string& path,
                   std::optional<std::pair<double, double>> bounds = std::nullopt) {
  const bool number = value.is_number() && std::isfinite(value.get<double>());
  if (!number ||
      (bounds && (value.get<double>() < bounds->first || value.get<double>() > bounds->second)))
    throw InputError(path, (bounds ? "expected a number in [" + csvNumber(bounds->first) + ", " +
                                         csvNumber(bounds->second) + "]"
                                   : std::string("expected a finite number")) +
                               ", got " + jsonExcerpt(value));
  return value;
}

const Json& arrayField(const Json& object, const char* key, const std::string& path) {
  const Json& list = requiredField(object, key, path);
  if (!list.is_array() || list.empty())
    throw InputError(path + "." + key, "expected a non-empty array, got " + jsonExcerpt(list));
  return list;
}

// The index of `name` among `names`; throws InputError at `path` listing them when absent.
size_t indexOfName(const std::vector<std::string>& names, const std::string& name,
                   const std::string& path, const std::string& what) {
  const auto found = std::find(names.begin(), names.end(), name);
  if (found != names.end()) return static_cast<size_t>(found - names.begin());
  std::string valid;
  for (const std::string& n : names) valid += (valid.empty() ? "" : ", ") + n;
  throw InputError(path,
                   "unknown " + what + " '" + textExcerpt(name) + "'; expected one of " + valid);
}

// Throws InputError at `path` when `name` is already among `names`; else adds it.
void claimName(std::vector<std::string>& names, const std::string& name, const std::string& path) {
  if (std::find(names.begin(), names.end(), name) != names.end())
    throw InputError(path,
                     "entrant '" + textExcerpt(name) + "' given twice; expected unique names");
  names.push_back(name);
}

// ---------------------------------------------------------------------------------------------
// The "rating" section

struct SectionEntrant {
  std::string name, curve;  // curve: empty when the entrant is no point of a level curve
  double x = 0;
  Json player;
};

struct TournamentSection {
  std::vector<SectionEntrant> entrants;
  std::vector<std::string> names;
  Json model = Json::object();
};

struct LadderEntrant {
  std::string name;
  Json player;
  double rating = 0;
  RatingInterval interval;
};

struct BalanceSection {
  std::vector<LadderEntrant> ladder;
  std::vector<std::string> ladderNames, conditions;
  std::optional<std::pair<double, double>> band;
};

const Json& sectionOf(const Batch& batch, const char* kind) {
  if (!batch.rating.is_object() || batch.rating.value("kind", std::string()) != kind)
    throw InputError("$.rating", std::string("expected the rating section of a ") + kind +
                                     " (\"kind\": \"" + kind + "\")");
  return batch.rating;
}

// An entrant line's name (added to `names`, unique) and player.
std::pair<std::string, Json> namedPlayer(const Json& node, const std::string& path,
                                         std::vector<std::string>& names) {
  std::string name = nameValue(requiredField(node, "name", path), path + ".name");
  claimName(names, name, path + ".name");
  return {std::move(name), requiredField(node, "player", path)};
}

TournamentSection parseTournamentSection(const Batch& batch) {
  const Json& section = sectionOf(batch, "tournament");
  TournamentSection parsed;
  const Json& list = arrayField(section, "entrants", "$.rating");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = indexed("$.rating.entrants", i);
    SectionEntrant entrant;
    std::tie(entrant.name, entrant.player) = namedPlayer(list[i], path, parsed.names);
    if (list[i].contains("curve") && !list[i].at("curve").is_null()) {
      entrant.curve = nameValue(list[i].at("curve"), path + ".curve");
      entrant.x = finiteValue(requiredField(list[i], "x", path), path + ".x");
    }
    parsed.entrants.push_back(std::move(entrant));
  }
  if (section.contains("model")) parsed.model = section.at("model");
  return parsed;
}

std::pair<double, double> parseBand(const Json& band) {
  if (!band.is_array() || band.size() != 2)
    throw InputError("$.rating.band", "expected [low, high], got " + jsonExcerpt(band));
  const double low = finiteValue(band[0], "$.rating.band[0]", std::pair(0.0, 1.0));
  const double high = finiteValue(band[1], "$.rating.band[1]", std::pair(low, 1.0));
  return {low, high};
}

BalanceSection parseBalanceSection(const Batch& batch) {
  const Json& section = sectionOf(batch, "balance");
  BalanceSection parsed;
  const Json& ladder = arrayField(section, "ladder", "$.rating");
  for (size_t i = 0; i < ladder.size(); ++i) {
    const std::string path = indexed("$.rating.ladder", i);
    LadderEntrant entrant;
    std::tie(entrant.name, entrant.player) = namedPlayer(ladder[i], path, parsed.ladderNames);
    entrant.rating = finiteValue(requiredField(ladder[i], "rating", path), path + ".rating");
    entrant.interval.low = finiteValue(requiredField(ladder[i], "low", path), path + ".low");
    entrant.interval.high = finiteValue(requiredField(ladder[i], "high", path), path + ".high");
    parsed.ladder.push_back(std::move(entrant));
  }
  const Json& conditions = arrayField(section, "conditions", "$.rating");
  for (size_t i = 0; i < conditions.size(); ++i) {
    const std::string path = indexed("$.rating.conditions", i);
    const Json& c = conditions[i];
    const std::string name = c.is_object()
                                 ? nameValue(requiredField(c, "name", path), path + ".name")
                                 : nameValue(c, path);
    if (std::find(parsed.ladderNames.begin(), parsed.ladderNames.end(), name) !=
        parsed.ladderNames.end())
      throw InputError(path, "condition '" + textExcerpt(name) +
                                 "' has a ladder entrant's name; expected names of their own");
    claimName(parsed.conditions, name, path);
  }
  if (section.contains("band")) parsed.band = parseBand(section.at("band"));
  return parsed;
}

// The model of a tournament's "model" (overrides applied): anchor, anchor_rating, draws
// ("half" or "davidson"), first_seat, bootstrap, confidence, prior_sd.
RatingModel parseModel(Json node, const Json& overrides, const std::vector<std::string>& names,
                       uint64_t seed) {
  if (!overrides.is_object())
    throw InputError("overrides", "expected an object, got " + jsonExcerpt(overrides));
  for (const auto& [key, value] : overrides.items()) node[key] = value;
  const std::string path = "$.rating.model";
  JsonFields fields(
      node, path,
      {"anchor", "anchor_rating", "draws", "first_seat", "bootstrap", "confidence", "prior_sd"});
  RatingModel model;
  const bool hasRandom = std::find(names.begin(), names.end(), "random") != names.end();
  model.anchor = indexOfName(names, fields.string("anchor", hasRandom ? "random" : names.front()),
                             fields.at("anchor"), "anchor entrant");
  if (const Json* v = fields.find("anchor_rating"))
    model.anchorRating = finiteValue(*v, fields.at("anchor_rating"));
  const std::string draws = fields.string("draws", "half");
  if (draws != "half" && draws != "davidson")
    throw InputError(fields.at("draws"),
                     "expected \"half\" or \"davidson\", got " + jsonExcerpt(node.at("draws")));
  model.draws = draws == "half" ? DrawRule::Half : DrawRule::Davidson;
  if (const Json* v = fields.find("first_seat")) {
    if (!v->is_boolean())
      throw InputError(fields.at("first_seat"), "expected true or false, got " + jsonExcerpt(*v));
    model.firstSeatAdvantage = v->get<bool>();
  }
  model.bootstrap = static_cast<int>(fields.integer("bootstrap", 0, 1'000'000, model.bootstrap));
  if (const Json* v = fields.find("confidence"))
    model.confidence = finiteValue(*v, fields.at("confidence"), std::pair(0.5, 0.999999));
  if (const Json* v = fields.find("prior_sd"))
    model.priorSd = finiteValue(*v, fields.at("prior_sd"), std::pair(0.0, 1e6));
  model.bootstrapSeed = seed;
  return model;
}

// ---------------------------------------------------------------------------------------------
// The games

// Calls onGame(experiment index, game) for every game of the experiments the folder's
// summary.csv lists, in order.
void forEachGame(const fs::path& dir, const Batch& batch,
                 const std::function<void(size_t, const GameRecord&)>& onGame) {
  std::map<std::string, size_t> indexByName;
  for (size_t i = 0; i < batch.experiments.size(); ++i) indexByName[batch.experiments[i].name] = i;
  size_t current = 0;
  readResultsDir(
      dir,
      [&](const ExperimentLabel& label) {
        const auto found = indexByName.find(label.name);
        if (found == indexByName.end())
          throw InputError((dir / "summary.csv").string(),
                           "experiment '" + label.name + "' is not in " + batchFileOf(dir));
        current = found->second;
      },
      [&](const GameRecord& game) { onGame(current, game); });
}

// The place of each seat in the final order: the winner first, the others by score (higher
// first), equal scores equal places; a two-seat game without a winner is a draw.
std::vector<int> finalPlaces(const GameRecord& game) {
  const int seats = game.numPlayers;
  std::vector<int> places(static_cast<size_t>(seats), 0);
  if (game.winner < 0 && seats == 2) return places;
  for (int s = 0; s < seats; ++s) {
    if (s == game.winner) continue;
    for (int t = 0; t < seats; ++t)
      if (t != s && (t == game.winner || game.scores[t] > game.scores[s])) ++places[s];
  }
  return places;
}

std::string entrantsPath(size_t experiment) {
  return indexed("$.experiments", experiment) + ".entrants";
}

// The seats' entrant names of experiment `index`, one per seat of its games.
const std::vector<std::string>& seatNames(const Batch& batch, size_t index, int seats) {
  const Experiment& e = batch.experiments[index];
  if (e.entrants.size() != static_cast<size_t>(seats))
    throw InputError(entrantsPath(index), "expected the entrant of each of the " +
                                              std::to_string(seats) + " seats, got " +
                                              std::to_string(e.entrants.size()) + " names");
  return e.entrants;
}

// The tournament entrant of each seat of experiment `index`.
std::vector<uint32_t> seatEntrants(const Batch& batch, size_t index, int seats,
                                   const std::vector<std::string>& names) {
  std::vector<uint32_t> entrants;
  const std::vector<std::string>& seatsNamed = seatNames(batch, index, seats);
  for (size_t s = 0; s < seatsNamed.size(); ++s) {
    const auto entrant = static_cast<uint32_t>(
        indexOfName(names, seatsNamed[s], indexed(entrantsPath(index), s), "entrant"));
    if (std::find(entrants.begin(), entrants.end(), entrant) != entrants.end())
      throw InputError(indexed(entrantsPath(index), s),
                       "entrant '" + seatsNamed[s] + "' in two seats; expected one seat each");
    entrants.push_back(entrant);
  }
  return entrants;
}

// A game of one seat (the Maze) is rated as its player against the game itself: a virtual
// entrant "(<game id>)" in seat 1 that wins when the player does not.
bool playedAlone(const Batch& batch) {
  return !batch.experiments.empty() && batch.experiments.front().game->numPlayers() == 1;
}
std::string gameEntrantName(const Batch& batch) {
  return "(" + batch.experiments.front().gameInfo->id + ")";
}

RatingData tournamentData(const fs::path& dir, const Batch& batch,
                          const TournamentSection& section) {
  const bool alone = playedAlone(batch);
  std::vector<std::string> names = section.names;
  if (alone) names.push_back(gameEntrantName(batch));
  RatingData data(names);
  const auto gameEntrant = static_cast<uint32_t>(section.names.size());
  std::vector<std::vector<uint32_t>> seats(batch.experiments.size());
  forEachGame(dir, batch, [&](size_t experiment, const GameRecord& game) {
    std::vector<uint32_t>& entrants = seats[experiment];
    if (entrants.empty())
      entrants = withInputSource(batchFileOf(dir), [&] {
        return seatEntrants(batch, experiment, game.numPlayers, section.names);
      });
    if (alone) {
      const std::array<uint32_t, 2> pair = {entrants.front(), gameEntrant};
      const std::array<int, 2> places = {game.winner == 0 ? 0 : 1, game.winner == 0 ? 1 : 0};
      data.add({static_cast<uint32_t>(experiment), pair, places});
      return;
    }
    const std::vector<int> places = finalPlaces(game);
    data.add({static_cast<uint32_t>(experiment), entrants, places});
  });
  return data;
}

// Each curve's points in order of x (curves in the order their first entrant is listed), with
// the step from the previous point and its interval (se² = var_i + var_j − 2 cov_ij).
std::vector<LevelCurvePoint> levelCurves(const TournamentSection& section, const RatingFit& fit,
                                         double confidence) {
  std::vector<std::string> curves;
  for (const SectionEntrant& e : section.entrants)
    if (!e.curve.empty() && std::find(curves.begin(), curves.end(), e.curve) == curves.end())
      curves.push_back(e.curve);
  const double z = normalCentralZ(confidence);
  std::vector<LevelCurvePoint> points;
  for (const std::string& curve : curves) {
    std::vector<size_t> members;
    for (size_t i = 0; i < section.entrants.size(); ++i)
      if (section.entrants[i].curve == curve) members.push_back(i);
    std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) {
      return section.entrants[a].x < section.entrants[b].x;
    });
    for (size_t k = 0; k < members.size(); ++k) {
      const size_t i = members[k];
      const EntrantRating& r = fit.entrants[i];
      LevelCurvePoint point{curve,      r.name,      section.entrants[i].x, r.rating,
                            r.interval, r.bootstrap, std::nullopt,          {}};
      if (k > 0) {
        const size_t j = members[k - 1];
        const double step = r.rating - fit.entrants[j].rating;
        const double variance =
            fit.covarianceOf(i, i) + fit.covarianceOf(j, j) - 2 * fit.covarianceOf(i, j);
        const double se = std::sqrt(std::max(0.0, variance));
        point.step = step;
        point.stepInterval = {step - z * se, step + z * se};
      }
      points.push_back(std::move(point));
    }
  }
  return points;
}

// ---------------------------------------------------------------------------------------------
// Balance

// The games of one ladder entrant against one condition.
struct BalanceTally {
  size_t games = 0, wins = 0, draws = 0;
  int seats = 2;
};

// Experiment `index`'s tally (condition × ladder entrant, condition-major) and its rated seat (the
// one a ladder entrant holds; the condition's name is in every other seat).
std::pair<size_t, size_t> ratedSeat(const Batch& batch, size_t index, int seats,
                                    const BalanceSection& section) {
  const std::vector<std::string>& names = seatNames(batch, index, seats);
  const auto isLadder = [&](const std::string& name) {
    return std::find(section.ladderNames.begin(), section.ladderNames.end(), name) !=
           section.ladderNames.end();
  };
  const auto rated = std::find_if(names.begin(), names.end(), isLadder);
  // Alone (one seat) no seat holds the condition: its name is the experiment name's middle part
  // ("<run>/<condition>/<entrant>@seat0"; names hold no '/').
  const std::string& experimentName = batch.experiments[index].name;
  const size_t slash = experimentName.find('/'), next = experimentName.find('/', slash + 1);
  const std::string condition =
      seats == 1 ? (next == std::string::npos ? std::string()
                                              : experimentName.substr(slash + 1, next - slash - 1))
      : rated == names.begin() ? names.back()
                               : names.front();
  const bool valid = rated != names.end() &&
                     std::count_if(names.begin(), names.end(), isLadder) == 1 &&
                     std::count(names.begin(), names.end(), condition) == seats - 1;
  if (!valid)
    throw InputError(entrantsPath(index),
                     "expected one ladder entrant's name and the condition's in every other seat");
  const size_t c = indexOfName(section.conditions, condition, entrantsPath(index), "condition");
  return {c * section.ladder.size() +
              indexOfName(section.ladderNames, *rated, entrantsPath(index), "ladder entrant"),
          static_cast<size_t>(rated - names.begin())};
}

BalancePoint balancePoint(const std::string& condition, const LadderEntrant& entrant,
                          const BalanceTally& tally) {
  BalancePoint point;
  point.condition = condition;
  point.entrant = entrant.name;
  point.rating = entrant.rating;
  point.ratingInterval = entrant.interval;
  point.games = tally.games;
  point.wins = tally.wins;
  point.draws = tally.draws;
  const double n = static_cast<double>(tally.games);
  point.evenShare = evenShare(tally.seats);
  point.winRate =
      (static_cast<double>(tally.wins) + static_cast<double>(tally.draws) / tally.seats) / n;
  const auto [low, high] = wilsonRateInterval(point.winRate, n);
  point.winRateInterval = {low, high};
  return point;
}

// The variance of a point's win rate: its games' scores (1 a win, 1/seats a draw, 0 a loss).
double winRateVariance(const BalancePoint& p) {
  const double n = static_cast<double>(p.games);
  const double squares =
      (static_cast<double>(p.wins) + static_cast<double>(p.draws) * p.evenShare * p.evenShare) / n;
  return std::max(0.0, squares - p.winRate * p.winRate) / n;
}

// A condition's summary of its points (in rating order). The mean distance's interval is the
// delta method's (the points' win rates independent, each |w − e| of slope ±1): 95 %, floored at 0.
BalanceSummary balanceSummary(const std::string& condition, std::span<const BalancePoint> points,
                              std::pair<double, double> band) {
  BalanceSummary s;
  s.condition = condition;
  s.bandLow = band.first;
  s.bandHigh = band.second;
  s.points = points.size();
  double variance = 0;
  size_t run = 0, best = 0;
  for (size_t k = 0; k < points.size(); ++k) {
    const BalancePoint& p = points[k];
    const bool inside = p.winRate >= band.first && p.winRate <= band.second;
    s.pointsInside += inside;
    run = inside ? run + 1 : 0;
    if (run > best) {
      best = run;
      s.balancedFrom = points[k + 1 - run].rating;
      s.balancedTo = p.rating;
    }
    s.meanDistance += std::abs(p.winRate - p.evenShare);
    variance += winRateVariance(p);
  }
  if (points.empty()) return s;
  const double k = static_cast<double>(points.size());
  s.meanDistance /= k;
  const double half = normalCentralZ(0.95) * std::sqrt(variance) / k;
  s.meanDistanceInterval = {std::max(0.0, s.meanDistance - half), s.meanDistance + half};
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

bool isTournament(const Batch& batch) {
  return batch.rating.is_object() && batch.rating.value("kind", std::string()) == "tournament";
}

bool isBalanceRun(const Batch& batch) {
  return batch.rating.is_object() && batch.rating.value("kind", std::string()) == "balance";
}

TournamentTables tournamentTables(const fs::path& dir, const Batch& batch, const Json& overrides) {
  const std::string source = batchFileOf(dir);
  const TournamentSection section =
      withInputSource(source, [&] { return parseTournamentSection(batch); });
  const RatingModel model = withInputSource(
      source, [&] {
        RatingModel parsed = parseModel(section.model, overrides, section.names, batch.seed);
        // Alone, the player always holds the first seat: an advantage would be the game's rating.
        if (playedAlone(batch)) parsed.firstSeatAdvantage = false;
        return parsed;
      });
  RatingData data = tournamentData(dir, batch, section);
  RatingFit fit;
  try {
    fit = fitRatings(data, model);
  } catch (const std::invalid_argument& e) {
    throw InputError(source + ": $.rating.model", e.what());
  }
  std::vector<RatingComparison> pairwise = compareRatings(data, model, fit);
  std::vector<LevelCurvePoint> curves = levelCurves(section, fit, model.confidence);
  Json players = Json::array();
  for (const SectionEntrant& e : section.entrants) players.push_back(e.player);
  return {std::move(data),   model, std::move(fit), std::move(pairwise), std::move(curves),
          std::move(players)};
}

BalanceTables balanceTables(const fs::path& dir, const Batch& batch) {
  const std::string source = batchFileOf(dir);
  const BalanceSection section =
      withInputSource(source, [&] { return parseBalanceSection(batch); });
  std::vector<BalanceTally> tallies(section.conditions.size() * section.ladder.size());
  std::map<size_t, std::pair<size_t, size_t>> seatOf;  // experiment -> (tally, rated seat)
  forEachGame(dir, batch, [&](size_t experiment, const GameRecord& game) {
    auto found = seatOf.find(experiment);
    if (found == seatOf.end())
      found = seatOf
                  .emplace(experiment, withInputSource(source,
                                                       [&] {
                                                         return ratedSeat(batch, experiment,
                                                                          game.numPlayers, section);
                                                       }))
                  .first;
    const auto [tally, seat] = found->second;
    BalanceTally& t = tallies[tally];
    t.seats = game.numPlayers;
    ++t.games;
    t.wins += game.winner == static_cast<int>(seat);
    t.draws += game.winner < 0 && game.numPlayers > 1;  // alone, no winner is a loss
  });
  std::vector<size_t> order(section.ladder.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return section.ladder[a].rating < section.ladder[b].rating;
  });
  BalanceTables tables;
  for (size_t c = 0; c < section.conditions.size(); ++c) {
    const size_t first = tables.points.size();
    int seats = 2;
    for (size_t i : order) {
      const BalanceTally& tally = tallies[c * section.ladder.size() + i];
      if (tally.games == 0) continue;  // a stopped run's ladder entrant not yet played
      seats = tally.seats;
      tables.points.push_back(balancePoint(section.conditions[c], section.ladder[i], tally));
    }
    const double even = evenShare(seats);
    const auto band = section.band.value_or(std::pair{even - 0.1, even + 0.1});
    tables.summaries.push_back(
        balanceSummary(section.conditions[c], std::span(tables.points).subspan(first), band));
  }
  return tables;
}

}  // namespace ddalab
