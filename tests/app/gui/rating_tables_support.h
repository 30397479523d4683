#pragma once
// Rating tables made by hand for the Ratings tab's tests (experiments/rating_results.h's
// structs, and the same numbers as the CSVs readRatingTables reads): a ladder of four entrants in
// no order with the anchor among them, two level curves (one flat step, one fall), two balance
// conditions over a ladder of three.
#include <QString>
#include <fstream>

#include "experiments/rating_results.h"

namespace ddalab::gui {

inline EntrantRating entrant(const std::string& name, double rating, double halfWidth,
                             double bootHalfWidth) {
  EntrantRating e;
  e.name = name;
  e.rating = rating;
  e.se = halfWidth / 1.96;
  e.interval = {rating - halfWidth, rating + halfWidth};
  e.bootstrapSe = bootHalfWidth / 1.96;
  e.bootstrap = {rating - bootHalfWidth, rating + bootHalfWidth};
  e.games = 400;
  return e;
}

inline LevelCurvePoint curvePoint(const std::string& curve, double x, double rating,
                                  std::optional<double> step = std::nullopt,
                                  RatingInterval stepInterval = {}) {
  LevelCurvePoint p;
  p.curve = curve;
  p.entrant = curve + "@" + std::to_string(static_cast<int>(x));
  p.x = x;
  p.rating = rating;
  p.interval = {rating - 40, rating + 40};
  p.bootstrap = {rating - 50, rating + 50};
  p.step = step;
  p.stepInterval = stepInterval;
  return p;
}

inline BalancePoint balancePoint(const std::string& condition, double rating, double winRate) {
  BalancePoint p;
  p.condition = condition;
  p.entrant = "hc@" + std::to_string(static_cast<int>(rating));
  p.rating = rating;
  p.ratingInterval = {rating - 30, rating + 30};
  p.games = 200;
  p.wins = static_cast<size_t>(winRate * 200);
  p.winRate = winRate;
  p.winRateInterval = {winRate - 0.07, winRate + 0.07};
  return p;
}

inline BalanceSummary balanceSummary(const std::string& condition, std::optional<double> from,
                                     std::optional<double> to, double meanDistance) {
  BalanceSummary s;
  s.condition = condition;
  s.balancedFrom = from;
  s.balancedTo = to;
  s.points = 3;
  s.meanDistance = meanDistance;
  s.meanDistanceInterval = {meanDistance - 0.02, meanDistance + 0.02};
  return s;
}

// The tables the tests draw: "hillclimber" rises 0 → 150 → 160 (flat: the step's interval holds
// 0) → 120 (falls); "mcts" over 10 to 10000 iterations (a log scale).
inline RatingTablesRead handMadeTables() {
  RatingTablesRead t;
  t.ratings = {entrant("hillclimber@50", 240, 40, 55), entrant("random", 0, 0, 0),
               entrant("hillclimber@100", 410, 45, 60), entrant("posm-player", -120, 50, 70)};
  t.firstSeat = 35;
  t.firstSeatInterval = {20, 50};
  t.curves = {curvePoint("hillclimber", 10, 0),
              curvePoint("hillclimber", 50, 150, 150, {90, 210}),
              curvePoint("hillclimber", 75, 160, 10, {-30, 50}),
              curvePoint("hillclimber", 100, 120, -40, {-70, -10}),
              curvePoint("mcts", 10, -50),
              curvePoint("mcts", 1000, 200, 250, {200, 300}),
              curvePoint("mcts", 10000, 320, 120, {60, 180})};
  t.balance = {balancePoint("no DDA", -300, 0.12), balancePoint("no DDA", 0, 0.5),
               balancePoint("no DDA", 300, 0.88),  balancePoint("POSM", -300, 0.41),
               balancePoint("POSM", 0, 0.5),       balancePoint("POSM", 300, 0.58)};
  t.balanceSummaries = {balanceSummary("no DDA", 0, 0, 0.253),
                        balanceSummary("POSM", -300, 300, 0.057)};
  return t;
}

// Writes `text` as `dir`/`name`.
inline void writeTable(const QString& dir, const QString& name, const std::string& text) {
  std::ofstream((dir + "/" + name).toStdString()) << text;
}

inline const std::string kRatingsCsv =
    "entrant,curve,x,rating,se,low,high,boot_se,boot_low,boot_high,games,score,pairings\n"
    "random,,,0,0,0,0,0,0,0,400,100,400\n"
    "hillclimber@50,hillclimber,50,240,20,200,280,25,190,290,400,250,400\n"
    "hillclimber@100,hillclimber,100,410,22,366,454,30,350,470,400,320,400\n"
    "(first seat),,,35,8,20,50,9,18,52,1200,,\n";

}  // namespace ddalab::gui
