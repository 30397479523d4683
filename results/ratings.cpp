#include "results/ratings.h"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "core/rng.h"
#include "results/statistics.h"

namespace ddalab {

RatingData::RatingData(std::vector<std::string> entrantNames) : names_(std::move(entrantNames)) {
  std::set<std::string> seen;
  for (const auto& name : names_)
    if (!seen.insert(name).second)
      throw std::invalid_argument("entrant \"" + name + "\" is given twice");
}

void RatingData::add(const RatedGame& game, uint64_t count) {
  const size_t seats = game.entrants.size();
  if (seats < 2)
    throw std::invalid_argument("a rated game needs two seats or more, not " +
                                std::to_string(seats));
  if (game.places.size() != seats)
    throw std::invalid_argument("a rated game has " + std::to_string(seats) + " entrants but " +
                                std::to_string(game.places.size()) + " places");
  for (size_t seat = 0; seat < seats; ++seat) {
    if (game.entrants[seat] >= names_.size())
      throw std::invalid_argument("entrant " + std::to_string(game.entrants[seat]) +
                                  " is out of range (" + std::to_string(names_.size()) +
                                  " entrants)");
    if (game.places[seat] < 0)
      throw std::invalid_argument("place " + std::to_string(game.places[seat]) +
                                  " is negative (0 is first)");
    for (size_t other = 0; other < seat; ++other)
      if (game.entrants[other] == game.entrants[seat])
        throw std::invalid_argument("entrant \"" + names_[game.entrants[seat]] +
                                    "\" holds two seats of one game");
  }
  if (count == 0) return;
  std::pair<uint32_t, std::vector<int64_t>> key{game.stratum, {}};
  key.second.reserve(2 * seats);
  for (uint32_t e : game.entrants) key.second.push_back(e);
  for (int place : game.places) key.second.push_back(place);
  const auto [it, inserted] = index_.try_emplace(std::move(key), distinct_.size());
  if (inserted)
    distinct_.push_back({game.stratum,
                         {game.entrants.begin(), game.entrants.end()},
                         {game.places.begin(), game.places.end()},
                         0});
  distinct_[it->second].count += count;
  games_ += count;
}

namespace {

using Cell = RatingData::Cell;

// Where one distinct game's pairwise outcomes go: the cell and which of its counts.
enum class PairResult { AWon, BWon, Drew };
struct PairOutcome {
  size_t cell = 0;
  PairResult result = PairResult::Drew;
};

// The pairwise cells of a set of distinct games (counts zero) and, per distinct game, the cells
// its pairs land in: built once, filled with the counts of each bootstrap redraw.
struct PairLayout {
  std::vector<Cell> cells;  // ordered by (a, b, advantage)
  std::vector<std::vector<PairOutcome>> ofGame;
};

// Seat i against seat j (i < j) of `game`, as (a, b, advantage) with a < b, and who won.
std::tuple<uint32_t, uint32_t, int, PairResult> pairOfSeats(const RatingData::DistinctGame& game,
                                                            size_t i, size_t j) {
  const uint32_t first = game.entrants[i], second = game.entrants[j];
  const bool swapped = first > second;
  int advantage = i == 0 ? 1 : 0;  // only seat 0 is the first seat
  PairResult result = PairResult::Drew;
  if (game.places[i] != game.places[j]) {
    const bool firstWon = game.places[i] < game.places[j];
    result = firstWon != swapped ? PairResult::AWon : PairResult::BWon;
  }
  if (swapped) advantage = -advantage;
  return {std::min(first, second), std::max(first, second), advantage, result};
}

PairLayout pairLayoutOf(const std::vector<RatingData::DistinctGame>& games) {
  std::map<std::tuple<uint32_t, uint32_t, int>, size_t> index;
  for (const auto& game : games)
    for (size_t i = 0; i < game.entrants.size(); ++i)
      for (size_t j = i + 1; j < game.entrants.size(); ++j) {
        const auto [a, b, advantage, result] = pairOfSeats(game, i, j);
        index.try_emplace({a, b, advantage}, 0);
      }
  PairLayout layout;
  for (auto& [key, position] : index) {
    position = layout.cells.size();
    layout.cells.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), 0, 0, 0});
  }
  layout.ofGame.resize(games.size());
  for (size_t g = 0; g < games.size(); ++g)
    for (size_t i = 0; i < games[g].entrants.size(); ++i)
      for (size_t j = i + 1; j < games[g].entrants.size(); ++j) {
        const auto [a, b, advantage, result] = pairOfSeats(games[g], i, j);
        layout.ofGame[g].push_back({index.at({a, b, advantage}), result});
      }
  return layout;
}

// The layout's cells with `weight(g)` games of distinct game g.
template <typename Weight>
void fillCells(const PairLayout& layout, Weight weight, std::vector<Cell>& cells) {
  cells = layout.cells;
  for (size_t g = 0; g < layout.ofGame.size(); ++g) {
    const auto w = static_cast<double>(weight(g));
    if (w == 0) continue;
    for (const auto& outcome : layout.ofGame[g]) {
      Cell& cell = cells[outcome.cell];
      switch (outcome.result) {
        case PairResult::AWon:
          cell.aWins += w;
          break;
        case PairResult::BWon:
          cell.bWins += w;
          break;
        case PairResult::Drew:
          cell.draws += w;
          break;
      }
    }
  }
}

double cellTotal(const Cell& cell) {
  return cell.aWins + cell.bWins + cell.draws;
}

// ---- Why a fit has no maximum -------------------------------------------------------------

std::string quotedEntrants(const std::vector<size_t>& entrants,
                           const std::vector<std::string>& names) {
  std::string text;
  for (size_t k = 0; k < entrants.size(); ++k)
    text.append(k ? ", \"" : "\"").append(names[entrants[k]]).append("\"");
  return text;
}

const char* const kRatingRemedy =
    "set a prior (model \"prior_sd\", e.g. 400) or add games with them";

// Entrants not reached from `anchor` over the games played (either direction).
std::vector<size_t> unreachedFromAnchor(const std::vector<Cell>& cells, size_t entrants,
                                        size_t anchor, const std::vector<bool>& played) {
  std::vector<std::vector<size_t>> neighbours(entrants);
  for (const auto& cell : cells)
    if (cellTotal(cell) > 0) {
      neighbours[cell.a].push_back(cell.b);
      neighbours[cell.b].push_back(cell.a);
    }
  std::vector<bool> reached(entrants, false);
  std::vector<size_t> stack{anchor};
  reached[anchor] = true;
  while (!stack.empty()) {
    const size_t e = stack.back();
    stack.pop_back();
    for (size_t next : neighbours[e])
      if (!reached[next]) {
        reached[next] = true;
        stack.push_back(next);
      }
  }
  std::vector<size_t> unreached;
  for (size_t e = 0; e < entrants; ++e)
    if (played[e] && !reached[e]) unreached.push_back(e);
  return unreached;
}

// The strongly connected components of "beat or drew" (Kosaraju), as a component per entrant.
std::vector<size_t> beatOrDrewComponents(const std::vector<std::vector<size_t>>& beat,
                                         size_t& count) {
  const size_t n = beat.size();
  std::vector<std::vector<size_t>> beaten(n);
  for (size_t e = 0; e < n; ++e)
    for (size_t f : beat[e]) beaten[f].push_back(e);
  std::vector<size_t> finished;
  std::vector<bool> seen(n, false);
  for (size_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    seen[root] = true;
    while (!stack.empty()) {
      auto& [e, next] = stack.back();
      if (next < beat[e].size()) {
        const size_t f = beat[e][next++];
        if (!seen[f]) {
          seen[f] = true;
          stack.emplace_back(f, 0);  // e and next are not used after this
        }
      } else {
        finished.push_back(e);
        stack.pop_back();
      }
    }
  }
  std::vector<size_t> component(n, n);
  count = 0;
  for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
    if (component[*it] != n) continue;
    std::vector<size_t> stack{*it};
    component[*it] = count;
    while (!stack.empty()) {
      const size_t e = stack.back();
      stack.pop_back();
      for (size_t f : beaten[e])
        if (component[f] == n) {
          component[f] = count;
          stack.push_back(f);
        }
    }
    ++count;
  }
  return component;
}

// Ford's condition (1957) under maximum likelihood: "a beat or drew b" strongly connected.
std::optional<RatingError> fordViolation(const std::vector<Cell>& cells,
                                         const std::vector<std::string>& names) {
  const size_t n = names.size();
  std::vector<std::vector<size_t>> beat(n);
  std::vector<bool> hasWon(n, false), hasLost(n, false);  // won or drew, lost or drew
  for (const auto& cell : cells) {
    if (cell.aWins + cell.draws > 0) {
      beat[cell.a].push_back(cell.b);
      hasWon[cell.a] = hasLost[cell.b] = true;
    }
    if (cell.bWins + cell.draws > 0) {
      beat[cell.b].push_back(cell.a);
      hasWon[cell.b] = hasLost[cell.a] = true;
    }
  }
  std::vector<size_t> perfect, hopeless;
  for (size_t e = 0; e < n; ++e) {
    if (!hasLost[e]) perfect.push_back(e);
    if (!hasWon[e]) hopeless.push_back(e);
  }
  if (!perfect.empty() || !hopeless.empty()) {
    std::vector<std::string> records;
    if (!perfect.empty()) records.push_back(quotedEntrants(perfect, names) + " won");
    if (!hopeless.empty()) records.push_back(quotedEntrants(hopeless, names) + " lost");
    std::string message = "the ratings have no maximum (maximum likelihood): ";
    for (size_t k = 0; k < records.size(); ++k)
      message.append(k ? "; " : "").append(records[k]).append(" every pairwise outcome");
    std::vector<size_t> concerned = perfect;
    concerned.insert(concerned.end(), hopeless.begin(), hopeless.end());
    return RatingError(message + ": " + kRatingRemedy, concerned);
  }
  size_t components = 0;
  const auto component = beatOrDrewComponents(beat, components);
  if (components == 1) return std::nullopt;
  // A group that nobody outside it ever beat or drew: it won every outcome against the rest.
  std::vector<bool> beatenFromOutside(components, false);
  for (size_t e = 0; e < n; ++e)
    for (size_t f : beat[e])
      if (component[e] != component[f]) beatenFromOutside[component[f]] = true;
  std::vector<size_t> group;
  for (size_t e = 0; e < n; ++e)
    if (!beatenFromOutside[component[e]]) group.push_back(e);
  return RatingError("the ratings have no maximum (maximum likelihood): the group " +
                         quotedEntrants(group, names) +
                         " won every pairwise outcome against the other entrants: " + kRatingRemedy,
                     group);
}

// The first seat's and the draw parameter's boundaries (a prior on the ratings does not help).
std::optional<RatingError> parameterViolation(const std::vector<Cell>& cells,
                                              const RatingModel& model) {
  double firstWon = 0, firstNotWon = 0, draws = 0, outcomes = 0;
  for (const auto& cell : cells) {
    draws += cell.draws;
    outcomes += cellTotal(cell);
    if (cell.advantage == 0) continue;
    const double firstWins = cell.advantage > 0 ? cell.aWins : cell.bWins;
    firstWon += firstWins;
    firstNotWon += cellTotal(cell) - firstWins;
  }
  if (model.firstSeatAdvantage && (firstWon == 0 || firstNotWon == 0))
    return RatingError(std::string("the first-seat advantage has no maximum: the first seat ") +
                           (firstWon == 0 ? "won no" : "won every") +
                           " pairwise outcome it took part in: add games, or fit none "
                           "(model \"first_seat\": false)",
                       {});
  if (model.draws == DrawRule::Davidson && (draws == 0 || draws == outcomes))
    return RatingError(
        std::string("the draw parameter has no maximum: ") +
            (draws == 0 ? "no pairwise outcome was a draw" : "every pairwise outcome was a draw") +
            ": count draws as half a win (model \"draws\": \"half\") or add games",
        {});
  return std::nullopt;
}

// Why `cells` give no answer under `model`, or nothing.
std::optional<RatingError> noMaximumReason(const std::vector<Cell>& cells,
                                           const std::vector<std::string>& names,
                                           const RatingModel& model) {
  std::vector<bool> played(names.size(), false);
  for (const auto& cell : cells)
    if (cellTotal(cell) > 0) played[cell.a] = played[cell.b] = true;
  std::vector<size_t> idle;
  for (size_t e = 0; e < names.size(); ++e)
    if (!played[e]) idle.push_back(e);
  if (!idle.empty())
    return RatingError(quotedEntrants(idle, names) +
                           " played no game: there is nothing to rate them by: add games with "
                           "them or leave them out",
                       idle);
  const auto unreached = unreachedFromAnchor(cells, names.size(), model.anchor, played);
  if (!unreached.empty())
    return RatingError(quotedEntrants(unreached, names) +
                           " have no path of games to the anchor \"" + names[model.anchor] +
                           "\": their ratings are not on its scale: add games that connect them",
                       unreached);
  if (model.priorSd == 0)
    if (auto violation = fordViolation(cells, names)) return violation;
  return parameterViolation(cells, model);
}

// ---- The likelihood ---------------------------------------------------------------------

// The fit's parameters: a rating per group of entrants (-1: the anchor's, fixed), then h, then
// log ν. The likelihood-ratio test ties two entrants to one parameter.
struct RatingParameters {
  std::vector<int> ofEntrant;
  int ratings = 0;
  int firstSeat = -1;
  int logDraw = -1;
  int size() const { return ratings + (firstSeat >= 0) + (logDraw >= 0); }
};

// The parameters of `model`; with `tie`, its two entrants share one rating (the anchor's when
// either is the anchor).
RatingParameters parametersOf(size_t entrants, const RatingModel& model,
                              std::optional<std::pair<size_t, size_t>> tie = std::nullopt) {
  RatingParameters p;
  p.ofEntrant.assign(entrants, -1);
  const auto groupOf = [&](size_t e) { return tie && e == tie->second ? tie->first : e; };
  const bool tiedToAnchor = tie && (tie->first == model.anchor || tie->second == model.anchor);
  for (size_t e = 0; e < entrants; ++e) {
    const bool fixed = e == model.anchor || (tiedToAnchor && e == tie->first);
    if (groupOf(e) == e && !fixed) p.ofEntrant[e] = p.ratings++;
  }
  for (size_t e = 0; e < entrants; ++e) p.ofEntrant[e] = p.ofEntrant[groupOf(e)];
  if (model.firstSeatAdvantage) p.firstSeat = p.ratings;
  if (model.draws == DrawRule::Davidson) p.logDraw = p.ratings + (model.firstSeatAdvantage ? 1 : 0);
  return p;
}

struct RatingEvaluation {
  double logLikelihood = 0, logPrior = 0;
  Eigen::VectorXd gradient;  // of the log posterior (the log likelihood without a prior)
  Eigen::MatrixXd hessian;
  double objective() const { return logLikelihood + logPrior; }
};

// One cell's log likelihood and its derivatives in x (the cell's linear predictor) and log ν.
struct CellTerms {
  double logLikelihood = 0, gx = 0, gl = 0, hxx = 0, hxl = 0, hll = 0;
};

// Half: x = η = β_a − β_b + h·s, P(a) = σ(η), draws half a win each.
CellTerms halfTerms(const Cell& cell, double eta) {
  const double wa = cell.aWins + cell.draws / 2, wb = cell.bWins + cell.draws / 2, n = wa + wb;
  const double p = 1 / (1 + std::exp(-eta));
  const double logP = -std::log1p(std::exp(-eta)), logQ = -std::log1p(std::exp(eta));
  return {wa * logP + wb * logQ, wa - n * p, 0, -n * p * (1 - p), 0, 0};
}

// Davidson: x = η / 2, P(a) = e^x / D, P(b) = e^−x / D, P(draw) = ν / D, D = e^x + e^−x + ν.
CellTerms davidsonTerms(const Cell& cell, double x, double logNu) {
  const double m = std::max({x, -x, logNu});
  const double logD = m + std::log(std::exp(x - m) + std::exp(-x - m) + std::exp(logNu - m));
  const double pa = std::exp(x - logD), pb = std::exp(-x - logD), pd = std::exp(logNu - logD);
  const double n = cellTotal(cell);
  CellTerms t;
  t.logLikelihood = cell.aWins * x - cell.bWins * x + cell.draws * logNu - n * logD;
  t.gx = cell.aWins - cell.bWins - n * (pa - pb);
  t.gl = cell.draws - n * pd;
  t.hxx = -n * ((pa + pb) - (pa - pb) * (pa - pb));
  t.hxl = n * (pa - pb) * pd;
  t.hll = -n * pd * (1 - pd);
  return t;
}

// Adds one cell's terms: x depends on the parameters through dx/dθ = +scale at a's rating,
// −scale at b's, scale·s at h (a sparse vector of at most 3 terms), and on log ν directly.
void addCellTerms(const Cell& cell, const CellTerms& t, double scale, const RatingParameters& p,
                  RatingEvaluation& ev) {
  std::pair<int, double> u[3];
  int terms = 0;
  if (p.ofEntrant[cell.a] >= 0) u[terms++] = {p.ofEntrant[cell.a], scale};
  if (p.ofEntrant[cell.b] >= 0) u[terms++] = {p.ofEntrant[cell.b], -scale};
  if (p.firstSeat >= 0 && cell.advantage != 0) u[terms++] = {p.firstSeat, scale * cell.advantage};
  ev.logLikelihood += t.logLikelihood;
  for (int i = 0; i < terms; ++i) {
    ev.gradient[u[i].first] += t.gx * u[i].second;
    for (int j = 0; j < terms; ++j)
      ev.hessian(u[i].first, u[j].first) += t.hxx * u[i].second * u[j].second;
    if (p.logDraw >= 0) {
      ev.hessian(u[i].first, p.logDraw) += t.hxl * u[i].second;
      ev.hessian(p.logDraw, u[i].first) += t.hxl * u[i].second;
    }
  }
  if (p.logDraw >= 0) {
    ev.gradient[p.logDraw] += t.gl;
    ev.hessian(p.logDraw, p.logDraw) += t.hll;
  }
}

// Adds the normal prior N(anchor rating, priorSd²) of every rating parameter (density in Elo).
void addRatingPrior(const RatingParameters& p, const RatingModel& model,
                    const Eigen::VectorXd& theta, RatingEvaluation& ev) {
  const double anchorLogit = model.anchorRating / kEloPerLogOdds;
  const double sd = model.priorSd / kEloPerLogOdds;
  const double logNorm = -std::log(model.priorSd * std::sqrt(2 * std::numbers::pi));
  for (int k = 0; k < p.ratings; ++k) {
    const double d = theta[k] - anchorLogit;
    ev.logPrior += logNorm - d * d / (2 * sd * sd);
    ev.gradient[k] -= d / (sd * sd);
    ev.hessian(k, k) -= 1 / (sd * sd);
  }
}

// The log posterior with its gradient and Hessian at `theta`.
RatingEvaluation evaluateRatings(const std::vector<Cell>& cells, const RatingParameters& p,
                                 const RatingModel& model, const Eigen::VectorXd& theta) {
  const double anchorLogit = model.anchorRating / kEloPerLogOdds;
  const auto betaOf = [&](uint32_t e) {
    return p.ofEntrant[e] < 0 ? anchorLogit : theta[p.ofEntrant[e]];
  };
  RatingEvaluation ev;
  ev.gradient = Eigen::VectorXd::Zero(p.size());
  ev.hessian = Eigen::MatrixXd::Zero(p.size(), p.size());
  const bool davidson = p.logDraw >= 0;
  const double scale = davidson ? 0.5 : 1.0;  // dx/dη
  const double h = p.firstSeat >= 0 ? theta[p.firstSeat] : 0;
  for (const auto& cell : cells) {
    if (cellTotal(cell) == 0) continue;
    const double eta = betaOf(cell.a) - betaOf(cell.b) + h * cell.advantage;
    addCellTerms(
        cell, davidson ? davidsonTerms(cell, scale * eta, theta[p.logDraw]) : halfTerms(cell, eta),
        scale, p, ev);
  }
  if (model.priorSd > 0) addRatingPrior(p, model, theta, ev);
  return ev;
}

// ---- Newton–Raphson ---------------------------------------------------------------------

struct NewtonResult {
  Eigen::VectorXd theta;
  RatingEvaluation at;
  int iterations = 0;
  std::string failure;  // empty: converged
};

constexpr int kMaxNewtonSteps = 200;
// Beyond this (in log-odds, ≈ 10 400 Elo) a parameter is running off to infinity.
constexpr double kDivergedLogOdds = 60;

// The gradient norm the fit stops at: 1e-10, or the rounding of its sums for huge tournaments.
double gradientTolerance(const std::vector<Cell>& cells) {
  double total = 0;
  for (const auto& cell : cells) total += cellTotal(cell);
  return 1e-10 * std::max(1.0, total * 1e-6);
}

// Whether the information matrix factored in `ldlt` is positive definite to working precision
// (Eigen's LDLT treats tiny pivots as zero and solves as with a pseudo-inverse: a parameter the
// data do not identify would silently stay where it started).
bool isInvertible(const Eigen::LDLT<Eigen::MatrixXd>& ldlt) {
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) return false;
  const Eigen::VectorXd pivots = ldlt.vectorD().cwiseAbs();
  return pivots.size() == 0 || pivots.minCoeff() > 1e-12 * pivots.maxCoeff();
}

Eigen::VectorXd startOf(const std::vector<Cell>& cells, const RatingParameters& p,
                        const RatingModel& model);

// The log posterior's maximum from `theta`: Newton steps, halved until the objective does not
// fall (the log likelihood is concave in every parameter, so a halved step always helps).
NewtonResult maximizeRatings(const std::vector<Cell>& cells, const RatingParameters& p,
                             const RatingModel& model, Eigen::VectorXd theta) {
  NewtonResult result;
  const double tolerance = gradientTolerance(cells);
  RatingEvaluation ev = evaluateRatings(cells, p, model, theta);
  while (p.size() > 0) {
    // Checked at the estimate too: a parameter the data do not identify has a zero gradient.
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(-ev.hessian);
    if (!isInvertible(ldlt)) {
      result.failure =
          "the information matrix is singular: the parameters cannot be told apart "
          "(a first-seat advantage needs games in both seat orders)";
      break;
    }
    if (ev.gradient.norm() <= tolerance) break;
    if (result.iterations == kMaxNewtonSteps) {
      result.failure = "Newton-Raphson did not converge in " + std::to_string(kMaxNewtonSteps) +
                       " steps (gradient norm " + std::to_string(ev.gradient.norm()) + ")";
      break;
    }
    const Eigen::VectorXd step = ldlt.solve(ev.gradient);
    bool accepted = false;
    for (double length = 1; length > 1e-12; length /= 2) {
      const Eigen::VectorXd trial = theta + length * step;
      RatingEvaluation next = evaluateRatings(cells, p, model, trial);
      if (std::isfinite(next.objective()) &&
          (next.objective() >= ev.objective() || next.gradient.norm() < ev.gradient.norm())) {
        theta = trial;
        ev = std::move(next);
        accepted = true;
        break;
      }
    }
    ++result.iterations;
    if (!accepted) {  // no step helps: the maximum to within rounding, or a failure
      if (ev.gradient.norm() > 1e4 * tolerance)
        result.failure = "no Newton step increases the likelihood (gradient norm " +
                         std::to_string(ev.gradient.norm()) + ")";
      break;
    }
    if ((theta - startOf({}, p, model)).cwiseAbs().maxCoeff() > kDivergedLogOdds) {
      result.failure = "a parameter runs off to infinity (the data separate the entrants)";
      break;
    }
  }
  result.theta = std::move(theta);
  result.at = std::move(ev);
  return result;
}

// Where Newton starts: every rating at the anchor's, no first-seat advantage, and ν from the
// share of draws as if the entrants were equal (P(draw) = ν / (2 + ν)).
Eigen::VectorXd startOf(const std::vector<Cell>& cells, const RatingParameters& p,
                        const RatingModel& model) {
  Eigen::VectorXd theta = Eigen::VectorXd::Constant(p.size(), model.anchorRating / kEloPerLogOdds);
  if (p.firstSeat >= 0) theta[p.firstSeat] = 0;
  if (p.logDraw >= 0) {
    double draws = 0, total = 0;
    for (const auto& cell : cells) draws += cell.draws, total += cellTotal(cell);
    const double share = std::clamp(total > 0 ? draws / total : 0.5, 1e-6, 1 - 1e-6);
    theta[p.logDraw] = std::log(2 * share / (1 - share));
  }
  return theta;
}

void validateRatingModel(const RatingData& data, const RatingModel& model) {
  const size_t n = data.entrants().size();
  if (n < 2) throw std::invalid_argument("a rating needs two entrants or more");
  if (model.anchor >= n)
    throw std::invalid_argument("the anchor is entrant " + std::to_string(model.anchor) +
                                " but there are " + std::to_string(n) + " entrants");
  if (!(model.confidence > 0 && model.confidence < 1))
    throw std::invalid_argument("the confidence level must be in (0, 1)");
  if (model.bootstrap < 0) throw std::invalid_argument("the bootstrap replicates are negative");
  if (!(model.priorSd >= 0 && std::isfinite(model.priorSd)))
    throw std::invalid_argument("the prior's standard deviation must be 0 or positive");
  if (!std::isfinite(model.anchorRating))
    throw std::invalid_argument("the anchor's rating is not a number");
}

double ratingZ(double confidence) {
  return boost::math::quantile(boost::math::normal_distribution<double>(), 0.5 + confidence / 2);
}

// The fit's parameter of entrant e in Elo.
double eloOf(const NewtonResult& r, const RatingParameters& p, const RatingModel& model, size_t e) {
  return p.ofEntrant[e] < 0 ? model.anchorRating : r.theta[p.ofEntrant[e]] * kEloPerLogOdds;
}

// Fits `cells` (checked first) from the start of the model; throws RatingError without answer.
NewtonResult solveRatings(const std::vector<Cell>& cells, const std::vector<std::string>& names,
                          const RatingParameters& p, const RatingModel& model,
                          const Eigen::VectorXd& start) {
  if (auto reason = noMaximumReason(cells, names, model)) throw *reason;
  NewtonResult r = maximizeRatings(cells, p, model, start);
  if (!r.failure.empty()) throw RatingError("the ratings have no answer: " + r.failure, {});
  return r;
}

// The per-entrant counts: games played, pairwise points and outcomes.
void countEntrantGames(const RatingData& data, const std::vector<Cell>& cells, RatingFit& fit) {
  for (const auto& game : data.distinctGames())
    for (uint32_t e : game.entrants) fit.entrants[e].games += game.count;
  for (const auto& cell : cells) {
    fit.entrants[cell.a].score += cell.aWins + cell.draws / 2;
    fit.entrants[cell.b].score += cell.bWins + cell.draws / 2;
    fit.entrants[cell.a].pairings += static_cast<uint64_t>(cellTotal(cell));
    fit.entrants[cell.b].pairings += static_cast<uint64_t>(cellTotal(cell));
  }
}

// The estimate, the covariance (inverse of the observed information) and the Wald intervals.
void describeFit(const NewtonResult& r, const RatingParameters& p, const RatingModel& model,
                 RatingFit& fit) {
  const size_t n = fit.entrants.size();
  const double z = ratingZ(model.confidence);
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(p.size(), p.size());
  if (p.size() > 0)
    cov = (-r.at.hessian).ldlt().solve(Eigen::MatrixXd::Identity(p.size(), p.size()));
  fit.covariance.assign(n * n, 0);
  const double elo2 = kEloPerLogOdds * kEloPerLogOdds;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (p.ofEntrant[i] >= 0 && p.ofEntrant[j] >= 0)
        fit.covariance[i * n + j] = cov(p.ofEntrant[i], p.ofEntrant[j]) * elo2;
  for (size_t e = 0; e < n; ++e) {
    auto& entrant = fit.entrants[e];
    entrant.rating = eloOf(r, p, model, e);
    entrant.se = std::sqrt(std::max(0.0, fit.covariance[e * n + e]));
    entrant.interval = {entrant.rating - z * entrant.se, entrant.rating + z * entrant.se};
    entrant.bootstrap = {entrant.rating, entrant.rating};
  }
  if (p.firstSeat >= 0) {
    fit.firstSeat = r.theta[p.firstSeat] * kEloPerLogOdds;
    fit.firstSeatSe = std::sqrt(cov(p.firstSeat, p.firstSeat)) * kEloPerLogOdds;
    fit.firstSeatInterval = {fit.firstSeat - z * fit.firstSeatSe,
                             fit.firstSeat + z * fit.firstSeatSe};
    fit.firstSeatBootstrap = {fit.firstSeat, fit.firstSeat};
  }
  if (p.logDraw >= 0) {
    fit.drawParameter = std::exp(r.theta[p.logDraw]);
    fit.drawParameterSe = fit.drawParameter * std::sqrt(cov(p.logDraw, p.logDraw));
    fit.drawRate = fit.drawParameter / (2 + fit.drawParameter);
  }
  fit.logLikelihood = r.at.objective();
  fit.iterations = r.iterations;
}

// ---- The bootstrap ----------------------------------------------------------------------

// core/rng.h's generator as a standard uniform random bit generator.
struct RatingBitSource {
  using result_type = uint64_t;
  Rng* rng;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() { return rng->next(); }
};

// One multinomial redraw of every stratum's games over its distinct games (sequential binomials
// of the distinct games' counts: the same distribution as drawing that many games with
// replacement, at the cost of one binomial per distinct game).
void redrawGames(const std::vector<std::vector<size_t>>& strata,
                 const std::vector<RatingData::DistinctGame>& games, RatingBitSource& bits,
                 std::vector<uint64_t>& counts) {
  counts.assign(games.size(), 0);
  for (const auto& stratum : strata) {
    uint64_t total = 0;
    for (size_t g : stratum) total += games[g].count;
    uint64_t left = total, leftWeight = total;
    for (size_t g : stratum) {
      if (left == 0) break;
      const uint64_t weight = games[g].count;
      uint64_t drawn = left;
      if (weight < leftWeight) {
        std::binomial_distribution<uint64_t> binomial(
            left, static_cast<double>(weight) / static_cast<double>(leftWeight));
        drawn = binomial(bits);
      }
      counts[g] = drawn;
      left -= drawn;
      leftWeight -= weight;
    }
  }
}

std::vector<std::vector<size_t>> strataOf(const std::vector<RatingData::DistinctGame>& games) {
  std::map<uint32_t, std::vector<size_t>> byStratum;
  for (size_t g = 0; g < games.size(); ++g) byStratum[games[g].stratum].push_back(g);
  std::vector<std::vector<size_t>> strata;
  for (auto& [stratum, members] : byStratum) strata.push_back(std::move(members));
  return strata;
}

double standardDeviation(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double mean =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

void bootstrapRatings(const RatingData& data, const PairLayout& layout, const RatingParameters& p,
                      const RatingModel& model, const NewtonResult& estimate, RatingFit& fit) {
  const auto& games = data.distinctGames();
  const auto strata = strataOf(games);
  const size_t n = fit.entrants.size();
  Rng rng(model.bootstrapSeed);
  RatingBitSource bits{&rng};
  std::vector<uint64_t> counts;
  std::vector<Cell> cells;
  std::vector<double> firstSeats;
  for (int replicate = 0; replicate < model.bootstrap; ++replicate) {
    redrawGames(strata, games, bits, counts);
    fillCells(
        layout, [&](size_t g) { return counts[g]; }, cells);
    if (noMaximumReason(cells, data.entrants(), model)) {
      ++fit.bootstrapDropped;
      continue;
    }
    const NewtonResult r = maximizeRatings(cells, p, model, estimate.theta);
    if (!r.failure.empty()) {
      ++fit.bootstrapDropped;
      continue;
    }
    for (size_t e = 0; e < n; ++e) fit.replicates.push_back(eloOf(r, p, model, e));
    if (p.firstSeat >= 0) firstSeats.push_back(r.theta[p.firstSeat] * kEloPerLogOdds);
    ++fit.bootstrapKept;
  }
  if (fit.bootstrapKept == 0) return;
  std::vector<double> values(fit.bootstrapKept);
  for (size_t e = 0; e < n; ++e) {
    for (int k = 0; k < fit.bootstrapKept; ++k) values[k] = fit.replicates[k * n + e];
    fit.entrants[e].bootstrapSe = standardDeviation(values);
    const auto [low, high] = percentileInterval(values, model.confidence);
    fit.entrants[e].bootstrap = {low, high};
  }
  if (!firstSeats.empty()) {
    const auto [low, high] = percentileInterval(firstSeats, model.confidence);
    fit.firstSeatBootstrap = {low, high};
  }
}

// The pairs compareRatings reports, in rating order.
std::vector<std::pair<size_t, size_t>> pairsToCompare(const RatingFit& fit, size_t allPairsUpTo) {
  std::vector<size_t> order(fit.entrants.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return fit.entrants[a].rating > fit.entrants[b].rating;
  });
  std::vector<std::pair<size_t, size_t>> pairs;
  if (order.size() <= allPairsUpTo) {
    for (size_t i = 0; i < order.size(); ++i)
      for (size_t j = i + 1; j < order.size(); ++j) pairs.emplace_back(order[i], order[j]);
  } else {
    for (size_t i = 0; i + 1 < order.size(); ++i) pairs.emplace_back(order[i], order[i + 1]);
  }
  return pairs;
}

// Newton's start for the fit with a and b tied: the full fit's values, the tied pair at its mean.
Eigen::VectorXd tiedStart(const NewtonResult& full, const RatingParameters& fullP,
                          const RatingParameters& tiedP) {
  Eigen::VectorXd start = Eigen::VectorXd::Zero(tiedP.size());
  Eigen::VectorXd weight = Eigen::VectorXd::Zero(tiedP.size());
  for (size_t e = 0; e < tiedP.ofEntrant.size(); ++e)
    if (tiedP.ofEntrant[e] >= 0 && fullP.ofEntrant[e] >= 0) {
      start[tiedP.ofEntrant[e]] += full.theta[fullP.ofEntrant[e]];
      weight[tiedP.ofEntrant[e]] += 1;
    }
  for (int k = 0; k < tiedP.ratings; ++k)
    if (weight[k] > 0) start[k] /= weight[k];
  if (tiedP.firstSeat >= 0) start[tiedP.firstSeat] = full.theta[fullP.firstSeat];
  if (tiedP.logDraw >= 0) start[tiedP.logDraw] = full.theta[fullP.logDraw];
  return start;
}

// r_a − r_b with its covariance-based se, its Wald and bootstrap intervals and the expected score.
RatingComparison differenceOf(const RatingFit& fit, size_t a, size_t b, double confidence) {
  const size_t n = fit.entrants.size();
  const double z = ratingZ(confidence);
  RatingComparison c;
  c.a = a, c.b = b;
  c.difference = fit.entrants[a].rating - fit.entrants[b].rating;
  c.se = std::sqrt(
      std::max(0.0, fit.covarianceOf(a, a) + fit.covarianceOf(b, b) - 2 * fit.covarianceOf(a, b)));
  c.interval = {c.difference - z * c.se, c.difference + z * c.se};
  c.bootstrap = {c.difference, c.difference};
  const size_t kept = fit.replicates.size() / n;
  if (kept > 0) {
    std::vector<double> differences(kept);
    for (size_t k = 0; k < kept; ++k)
      differences[k] = fit.replicates[k * n + a] - fit.replicates[k * n + b];
    const auto [low, high] = percentileInterval(differences, confidence);
    c.bootstrap = {low, high};
  }
  c.expectedScore = expectedScore(fit.entrants[a].rating, fit.entrants[b].rating);
  return c;
}

void checkFixedOpponentInput(std::span<const FixedOpponentResult> games, double priorMean,
                             double priorSd, double confidence) {
  if (!(priorSd > 0 && std::isfinite(priorSd)))
    throw std::invalid_argument("rating against fixed opponents needs a prior sd > 0");
  if (!std::isfinite(priorMean)) throw std::invalid_argument("the prior's mean is not a number");
  if (!(confidence > 0 && confidence < 1))
    throw std::invalid_argument("the confidence level must be in (0, 1)");
  for (const auto& game : games) {
    if (!(game.score >= 0 && game.score <= 1))
      throw std::invalid_argument("a game's score must be in [0, 1]");
    if (!std::isfinite(game.opponentRating))
      throw std::invalid_argument("an opponent's rating is not a number");
  }
}

}  // namespace

std::vector<RatingData::Cell> RatingData::cells(const std::vector<uint64_t>* gameCounts) const {
  if (gameCounts && gameCounts->size() != distinct_.size())
    throw std::invalid_argument("the game counts are " + std::to_string(gameCounts->size()) +
                                " for " + std::to_string(distinct_.size()) + " distinct games");
  std::vector<Cell> all;
  fillCells(
      pairLayoutOf(distinct_),
      [&](size_t g) { return gameCounts ? (*gameCounts)[g] : distinct_[g].count; }, all);
  std::erase_if(all, [](const Cell& cell) { return cellTotal(cell) == 0; });
  return all;
}

double RatingFit::covarianceOf(size_t i, size_t j) const {
  return covariance.at(i * entrants.size() + j);
}

RatingFit fitRatings(const RatingData& data, const RatingModel& model) {
  validateRatingModel(data, model);
  const PairLayout layout = pairLayoutOf(data.distinctGames());
  std::vector<Cell> cells;
  fillCells(
      layout, [&](size_t g) { return data.distinctGames()[g].count; }, cells);
  const auto p = parametersOf(data.entrants().size(), model);
  const NewtonResult estimate =
      solveRatings(cells, data.entrants(), p, model, startOf(cells, p, model));
  RatingFit fit;
  for (const auto& name : data.entrants()) fit.entrants.emplace_back().name = name;
  countEntrantGames(data, cells, fit);
  describeFit(estimate, p, model, fit);
  if (model.bootstrap > 0) bootstrapRatings(data, layout, p, model, estimate, fit);
  return fit;
}

std::vector<RatingComparison> compareRatings(const RatingData& data, const RatingModel& model,
                                             const RatingFit& fit, size_t allPairsUpTo) {
  validateRatingModel(data, model);
  const size_t n = data.entrants().size();
  if (fit.entrants.size() != n)
    throw std::invalid_argument("the fit has " + std::to_string(fit.entrants.size()) +
                                " entrants, the data " + std::to_string(n));
  const auto cells = data.cells();
  const auto fullP = parametersOf(n, model);
  const NewtonResult full =
      solveRatings(cells, data.entrants(), fullP, model, startOf(cells, fullP, model));
  std::vector<RatingComparison> comparisons;
  for (const auto& [a, b] : pairsToCompare(fit, allPairsUpTo)) {
    RatingComparison c = differenceOf(fit, a, b, model.confidence);
    const auto tiedP = parametersOf(n, model, std::pair{a, b});
    const NewtonResult tied =
        solveRatings(cells, data.entrants(), tiedP, model, tiedStart(full, fullP, tiedP));
    // The data's log likelihood (without a prior's density) at both modes.
    c.lrChi2 = std::max(0.0, 2 * (full.at.logLikelihood - tied.at.logLikelihood));
    c.p = chiSquareUpperTail(c.lrChi2, 1);
    comparisons.push_back(c);
  }
  return comparisons;
}

SingleRating rateAgainstFixed(std::span<const FixedOpponentResult> games, double priorMean,
                              double priorSd, double confidence) {
  checkFixedOpponentInput(games, priorMean, priorSd, confidence);
  SingleRating result;
  for (const auto& game : games) result.score += game.score;
  result.games = games.size();
  const double precision = 1 / (priorSd * priorSd);
  // The log posterior (Elo) with its first and second derivatives at r.
  const auto at = [&](double r) {
    double f = -(r - priorMean) * (r - priorMean) * precision / 2;
    double g = -(r - priorMean) * precision, h = -precision;
    for (const auto& game : games) {
      const double x = (r - game.opponentRating) / kEloPerLogOdds;
      const double p = 1 / (1 + std::exp(-x));
      f += -game.score * std::log1p(std::exp(-x)) - (1 - game.score) * std::log1p(std::exp(x));
      g += (game.score - p) / kEloPerLogOdds;
      h -= p * (1 - p) / (kEloPerLogOdds * kEloPerLogOdds);
    }
    return std::tuple{f, g, h};
  };
  // Newton with halving: the log posterior is strictly concave, so this converges from anywhere.
  double r = priorMean;
  auto [f, g, h] = at(r);
  for (int step = 0; step < kMaxNewtonSteps && std::abs(g) > 1e-12 / priorSd; ++step) {
    double length = 1;
    for (; length > 1e-12; length /= 2) {
      const auto [f2, g2, h2] = at(r - length * g / h);
      if (f2 >= f || std::abs(g2) < std::abs(g)) break;
    }
    r -= length * g / h;
    std::tie(f, g, h) = at(r);
  }
  result.rating = r;
  result.se = 1 / std::sqrt(-h);
  const double z = ratingZ(confidence);
  result.interval = {r - z * result.se, r + z * result.se};
  return result;
}

double expectedScore(double ra, double rb) {
  return 1 / (1 + std::pow(10.0, (rb - ra) / 400));
}

}  // namespace ddalab
