#pragma once
// A tournament's or balance run's tables (docs/ratings.md), from a results folder: its batch.json
// (the "rating" section, each experiment's "entrants") and <experiment>.games.csv (each game's
// winner and final scores: the final order). Written after every run, merge and export, as
// sweep.csv is, and by `ddalab rate DIR`:
//
//   ratings.csv        entrant, curve, x, rating, se, low, high, boot_se, boot_low, boot_high,
//                      games, score, pairings          (one row per entrant; then the first-seat
//                                                       advantage and the draw parameter as rows
//                                                       named "(first seat)", "(draw)")
//   pairwise.csv       a, b, difference, se, low, high, boot_low, boot_high, expected_score,
//                      lr_chi2, p
//   level_curves.csv   curve, x, entrant, rating, low, high, boot_low, boot_high, step,
//                      step_low, step_high   (the rise from the previous point with its interval)
//   ratings.json       kRatingsFormat: game, environment, ddalab version, model, each entrant's
//                      player and rating (what a balance run and `study analyze --ratings` read)
//   balance.csv        condition, entrant, rating, rating_low, rating_high, games, wins, draws,
//                      win_rate, win_rate_low, win_rate_high (Wilson), even_share
//   balance_summary.csv condition, band_low, band_high, balanced_from, balanced_to, points_inside,
//                      points, mean_distance, mean_distance_low, mean_distance_high
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/params.h"
#include "results/ratings.h"

namespace ddalab {

struct Batch;
struct ExperimentSummary;

// One point of a level curve (a "levels" or "vary" entrant line of a tournament).
struct LevelCurvePoint {
  std::string curve, entrant;
  double x = 0;  // the level or the varied parameter's value
  double rating = 0;
  RatingInterval interval, bootstrap;
  // The rise from the previous point of the curve (none for the first), with the interval of the
  // difference (covariance included): where a curve is flat (the interval holds 0) or falls.
  std::optional<double> step;
  RatingInterval stepInterval;
};

// What a tournament's folder holds, fitted.
struct TournamentTables {
  RatingData data;
  RatingModel model;
  RatingFit fit;
  std::vector<RatingComparison> pairwise;
  std::vector<LevelCurvePoint> curves;
  Json entrantPlayers;  // each entrant's player as the batch gave it (ratings.json's)
};

// One point of a balance curve: the rated player `entrant` against condition `condition`.
struct BalancePoint {
  std::string condition, entrant;
  double rating = 0;
  RatingInterval ratingInterval;
  size_t games = 0, wins = 0, draws = 0;
  double winRate = 0;  // (wins + draws / seats) / games
  RatingInterval winRateInterval;
  double evenShare = 0.5;
};
struct BalanceSummary {
  std::string condition;
  double bandLow = 0.4, bandHigh = 0.6;
  // The longest run of consecutive ladder points (in rating order) whose win rate is inside the
  // band: its lowest and highest rating (none: no point inside).
  std::optional<double> balancedFrom, balancedTo;
  size_t pointsInside = 0, points = 0;
  double meanDistance = 0;  // mean |win rate − even share| over the ladder
  RatingInterval meanDistanceInterval;
};
struct BalanceTables {
  std::vector<BalancePoint> points;  // condition by condition, ladder in rating order
  std::vector<BalanceSummary> summaries;
};

// Whether `batch` is a tournament or a balance run (has a "rating" section).
bool isTournament(const Batch& batch);
bool isBalanceRun(const Batch& batch);

// The tables of the tournament in `dir` (its batch.json and games files; the experiments
// `summaries` lists, a stopped run has fewer). `overrides` may change the model's prior, bootstrap
// and confidence (`ddalab rate DIR --prior-sd ...`). Throws InputError naming the file and what
// was expected; RatingError when the fit has no maximum (naming the entrants).
TournamentTables tournamentTables(const std::filesystem::path& dir, const Batch& batch,
                                  const Json& overrides = Json::object());
BalanceTables balanceTables(const std::filesystem::path& dir, const Batch& batch);

// Writes ratings.csv, pairwise.csv, level_curves.csv and ratings.json (tournament) or balance.csv
// and balance_summary.csv (balance run) into `dir` when `batch` is one; nothing otherwise (nor for
// a shard: its merge is rated). A fit without a maximum writes no tables (and removes those an
// earlier write left) and is reported by the caller (the games are kept; `ddalab rate DIR
// --prior-sd 400` rates them with a prior).
// Returns the message of such a fit, if any; throws InputError as tournamentTables.
std::optional<std::string> writeRatingResults(const std::filesystem::path& dir, const Batch& batch,
                                              std::span<const ExperimentSummary> summaries);

// Reads the tables written by writeRatingResults back (the GUI's and Python's source): empty
// vectors when the folder has none. Throws InputError naming the file, line and column.
struct RatingTablesRead {
  std::vector<EntrantRating> ratings;
  std::optional<double> firstSeat;
  RatingInterval firstSeatInterval;
  std::optional<double> drawParameter;  // Davidson's ν ("(draw)" row), with its interval
  RatingInterval drawParameterInterval;
  std::vector<RatingComparison> pairwise;  // a, b as indices into `ratings`
  std::vector<LevelCurvePoint> curves;
  std::vector<BalancePoint> balance;
  std::vector<BalanceSummary> balanceSummaries;
};
RatingTablesRead readRatingTables(const std::filesystem::path& dir);

// A ratings.json (kRatingsFormat), checked strictly: its format and ddalab version must be this
// build's (else InputError naming the file and "$.format" / "$.ddalab"); checkRatingGame then
// compares its game with the one it is used for.
struct RatingFileEntrant {
  std::string name;
  Json player;  // {"id", "level", "params"}
  double rating = 0;
  RatingInterval interval;
};
struct RatingFile {
  Json game;  // {"id", "params"}
  std::vector<RatingFileEntrant> entrants;
};
RatingFile readRatingFile(const std::filesystem::path& file);
RatingFile parseRatingFile(const Json& document, const std::string& source);
// Throws InputError naming `source` and "$.game.id" / "$.game.params" unless `file` rates the
// game `game` ({"id", "params"}, the parameters with their defaults filled in).
void checkRatingGame(const RatingFile& file, const Json& game, const std::string& source);

}  // namespace ddalab
