#pragma once
// Ratings (docs/ratings.md): Bradley–Terry by maximum likelihood on the Elo scale, as BayesElo
// and Ordo rate chess engines. P(a beats b) = 1 / (1 + 10^((r_b − r_a − h·s) / 400)), where
// s = +1 when a held the first seat, −1 when b did, 0 otherwise (games of more than two seats:
// only the pairs that involve seat 0), and h the first-seat advantage. One entrant is anchored at
// a stated rating. Draws count as half a win to each side, or (Davidson 1970) with a draw
// parameter ν: P(a) = π_a / (π_a + π_b + ν√(π_aπ_b)), P(draw) = ν√(π_aπ_b) / (…).
// A game of more than two seats becomes the pairwise outcomes of its final order (every pair of
// seats: the one placed higher won, equal places drew); those outcomes are not independent, so the
// information-matrix intervals of such games are too narrow and the bootstrap's are the ones to
// quote (it resamples whole games).
//
// Pure statistics: no files, no batches (experiments/rating_results.h reads a results folder).
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace ddalab {

// Elo points per natural-log unit of the odds: 400 / ln 10.
inline constexpr double kEloPerLogOdds = 173.71779276130073;

enum class DrawRule {
  Half,      // a draw is half a win to each side
  Davidson,  // a draw parameter ν (Davidson 1970), reported as the draw rate of equal entrants
};

// What the fit is asked for (a tournament file's "model").
struct RatingModel {
  size_t anchor = 0;        // the entrant whose rating is fixed
  double anchorRating = 0;  // ... at this value
  DrawRule draws = DrawRule::Half;
  bool firstSeatAdvantage = true;  // fit h; false: h = 0
  double confidence = 0.95;        // of every interval
  int bootstrap = 1000;            // replicates over games (0: none)
  uint64_t bootstrapSeed = 0;      // the replicates' seed (a batch's seed: reproducible)
  // > 0: every rating but the anchor's has a normal prior N(anchorRating, priorSd²) (Elo): the
  // fit is then a posterior mode, and an entrant that won or lost every game gets a finite rating.
  // 0: maximum likelihood; such an entrant is refused (RatingError names it).
  double priorSd = 0;
};

// Why a fit has no answer: an entrant with no path of games to the anchor, an entrant that won
// (or lost) every game under maximum likelihood, a fit that did not converge. `entrants` are the
// entrants concerned (indices), named in what().
class RatingError : public std::runtime_error {
 public:
  RatingError(const std::string& message, std::vector<size_t> entrants)
      : std::runtime_error(message), entrants_(std::move(entrants)) {}
  const std::vector<size_t>& entrants() const { return entrants_; }

 private:
  std::vector<size_t> entrants_;
};

// One game as the fit sees it.
struct RatedGame {
  uint32_t stratum = 0;                // the bootstrap resamples games within each stratum
  std::span<const uint32_t> entrants;  // seat by seat (seat 0 first)
  std::span<const int> places;         // seat by seat: 0 = first; equal places drew
};

// The games of a tournament, kept as distinct outcomes with counts (a million two-seat games of
// a few hundred pairings are a few thousand cells, so fitting and resampling cost little).
class RatingData {
 public:
  // Throws std::invalid_argument on a name given twice.
  explicit RatingData(std::vector<std::string> entrantNames);
  // Adds `game` `count` times; throws std::invalid_argument on an entrant index out of range, an
  // entrant twice in one game, a negative place, fewer than two seats or sizes that differ.
  void add(const RatedGame& game, uint64_t count = 1);

  const std::vector<std::string>& entrants() const { return names_; }
  uint64_t games() const { return games_; }

  // One pairwise cell: entrant a against entrant b with `advantage` (+1 a in seat 0, −1 b in seat
  // 0, 0 neither), how often a won, b won, they drew (a < b).
  struct Cell {
    uint32_t a = 0, b = 0;
    int advantage = 0;
    double aWins = 0, bWins = 0, draws = 0;
  };
  // Every pairwise cell of the games with the given weight of each distinct game (nullptr: its
  // count); the bootstrap passes resampled counts.
  std::vector<Cell> cells(const std::vector<uint64_t>* gameCounts = nullptr) const;

  // The distinct games (outcome patterns) with their strata and counts.
  struct DistinctGame {
    uint32_t stratum = 0;
    std::vector<uint32_t> entrants;
    std::vector<int> places;
    uint64_t count = 0;
  };
  const std::vector<DistinctGame>& distinctGames() const { return distinct_; }

 private:
  std::vector<std::string> names_;
  std::vector<DistinctGame> distinct_;
  std::map<std::pair<uint32_t, std::vector<int64_t>>, size_t> index_;  // pattern -> distinct_
  uint64_t games_ = 0;
};

// An interval with the estimate's standard error.
struct RatingInterval {
  double low = 0, high = 0;
};

// One entrant's rating.
struct EntrantRating {
  std::string name;
  double rating = 0;         // Elo
  double se = 0;             // from the information matrix (0 for the anchor)
  RatingInterval interval;   // rating ± z·se
  double bootstrapSe = 0;    // standard deviation of the bootstrap replicates (0: none)
  RatingInterval bootstrap;  // percentile interval of the replicates (= rating: none)
  uint64_t games = 0;        // games it played
  double score = 0;          // its pairwise points (wins + draws / 2) over its pairings
  uint64_t pairings = 0;     // its pairwise outcomes
};

struct RatingFit {
  std::vector<EntrantRating> entrants;  // in entrant order
  double firstSeat = 0;                 // h (Elo); 0 when not fitted
  double firstSeatSe = 0;
  RatingInterval firstSeatInterval, firstSeatBootstrap;
  // Davidson only: ν with its standard error (delta method), and the draw rate of two equal
  // entrants, ν / (2 + ν).
  double drawParameter = 0, drawParameterSe = 0;
  double drawRate = 0;
  double logLikelihood = 0;  // at the estimate (the prior's log density included when priorSd > 0)
  int iterations = 0;        // Newton steps taken
  // The bootstrap: replicates kept, and replicates dropped because their redraw has no maximum
  // (under maximum likelihood an entrant with a perfect record in the redraw, or a redraw without
  // a path to the anchor) or their fit did not converge. Intervals are of the kept ones.
  int bootstrapKept = 0, bootstrapDropped = 0;
  // Covariance of the ratings (Elo², entrant order, the anchor's row and column 0), row-major.
  std::vector<double> covariance;
  // The bootstrap's kept replicates of each rating (replicate-major: replicate r, entrant i at
  // r * entrants + i; bootstrapKept of them); empty without a bootstrap.
  std::vector<double> replicates;
  // covariance[i * entrants + j] (Elo²); throws std::out_of_range outside.
  double covarianceOf(size_t i, size_t j) const;
};

// Fits `data` under `model`; throws RatingError (no maximum: unconnected, a perfect record under
// maximum likelihood; or no convergence) and std::invalid_argument on a model that does not fit
// the data (anchor out of range, confidence outside (0, 1), negative bootstrap or prior).
RatingFit fitRatings(const RatingData& data, const RatingModel& model);

// Two entrants compared: the difference of their ratings with its interval, the expected score of
// a against b on neutral seats, and the likelihood-ratio test of r_a = r_b (the fit refitted with
// them equal: χ² with 1 df).
struct RatingComparison {
  size_t a = 0, b = 0;
  double difference = 0, se = 0;  // r_a − r_b
  RatingInterval interval, bootstrap;
  double expectedScore = 0.5;
  double lrChi2 = 0, p = 1;
};
// Every pair when there are at most `allPairsUpTo` entrants, else each entrant against the next in
// rating order (the table a reader looks at); a before b in rating order.
std::vector<RatingComparison> compareRatings(const RatingData& data, const RatingModel& model,
                                             const RatingFit& fit, size_t allPairsUpTo = 40);

// One entrant rated against opponents of known, fixed ratings (a participant against a study's
// rated AI): the posterior mode under a normal prior N(priorMean, priorSd²) (priorSd > 0), its
// standard error from the curvature, and the interval. Draws count half; no first-seat term.
struct FixedOpponentResult {
  double opponentRating = 0;
  double score = 0;  // 1 win, 0.5 draw, 0 loss
};
struct SingleRating {
  double rating = 0, se = 0;
  RatingInterval interval;
  size_t games = 0;
  double score = 0;
};
SingleRating rateAgainstFixed(std::span<const FixedOpponentResult> games, double priorMean,
                              double priorSd, double confidence = 0.95);

// P(a beats b) for ratings ra, rb on neutral seats (draws half), Elo scale.
double expectedScore(double ra, double rb);

}  // namespace ddalab
