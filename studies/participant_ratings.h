#pragma once
// People on the AIs' scale (`ddalab study analyze --ratings FILE`): each participant rated on the
// Elo scale of a ratings.json (`ddalab rate`) from their games against the study's AI, whose
// rating the file states. Every game is, for each rated AI seat, one result of the person against
// an opponent of known rating (more than two seats: the person's place against that seat's in the
// final order); results/ratings.h's rateAgainstFixed turns a participant's results into the mode
// of the posterior under a normal prior, so that a participant who won (or lost) every game has a
// finite rating.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "experiments/rating_results.h"
#include "results/ratings.h"
#include "studies/read_sessions.h"

namespace ddalab {

// Which conditions' games rate a participant. A DDA that changes chance (any environment but
// e-random) moves the results towards an even share, so its games measure the person against the
// AI and the DDA together, not on the scale the file's tournament measured (without a DDA).
enum class RatedConditions {
  NoDda,  // only conditions with the environment e-random (the default)
  All,    // every condition: the rating then includes what each DDA did
};

inline constexpr double kDefaultParticipantPriorSd = 400;  // Elo

struct ParticipantRatingOptions {
  RatedConditions conditions = RatedConditions::NoDda;
  double priorSd = kDefaultParticipantPriorSd;  // > 0
  // The prior's mean; none: the mean rating of the study's rated AI seats (a person of whom
  // nothing is known is taken as strong as the AI they meet).
  std::optional<double> priorMean;
  double confidence = 0.95;
};

// An AI seat of the study and the entrant of the rating file it is (none: not rated).
struct RatedSeat {
  size_t seat = 0;
  std::string player;  // "hillclimber-is level 100" (how the report names the seat)
  std::optional<RatingFileEntrant> entrant;
};

// One participant's rating: none when they played no rated game.
struct ParticipantRating {
  std::string participant;
  size_t wins = 0, draws = 0, losses = 0;  // over every result against a rated seat
  std::optional<SingleRating> rating;
};

struct ParticipantRatings {
  std::string file;  // the rating file as given
  double priorMean = 0, priorSd = kDefaultParticipantPriorSd, confidence = 0.95;
  bool priorMeanGiven = false;  // the prior's mean came from the option, not the AI's rating
  RatedConditions used = RatedConditions::NoDda;
  std::vector<RatedSeat> seats;           // every AI seat, in seat order
  std::vector<std::string> rated;         // the conditions whose games rate the participants
  std::vector<std::string> leftOut;       // the others, each with why ("e-hillclimber: a DDA")
  std::vector<ParticipantRating> participants;  // in the study's session order
  // The participants without a rated game (reported, left out of the skill covariate).
  size_t unrated() const;
};

// The ratings of `study`'s participants from `file` (read by readRatingFile; `source` names it in
// refusals). Throws InputError naming the file and "$.game" for a rating file of another game (or
// other parameters), "$.entrants" when none of the study's AI seats is an entrant of the file,
// and naming "--rating-conditions" when no condition is left to rate from; std::invalid_argument
// for options out of range (priorSd <= 0, confidence outside (0, 1)).
ParticipantRatings rateParticipants(const StudySessions& study, const RatingFile& file,
                                    const std::string& source,
                                    const ParticipantRatingOptions& options = {});

// Each game's final order, seat by seat (0 = first; equal places drew): the winner first, the
// others by their final score (higher first, equal scores share a place); a game without a
// winner (a draw, a capped game) is a draw of every seat.
std::vector<int> finalPlaces(const GameRecord& record);

// The skill covariate of the mixed model: each session's rating, centred on the mean over the
// rated participants and in units of 100 Elo; none for a participant without a rated game.
std::vector<std::optional<double>> skillCovariate(const ParticipantRatings& ratings);

// "no-dda" or "all", as --rating-conditions takes them; parseRatedConditions throws InputError at
// `option` for anything else.
const char* ratedConditionsName(RatedConditions conditions);
RatedConditions parseRatedConditions(const std::string& text, const std::string& option);

}  // namespace ddalab
