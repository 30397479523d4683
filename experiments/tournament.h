#pragma once
// Rated tournaments and balance runs as batches (docs/ratings.md). A batch file carries, instead of
// "experiments", either
//
//   "tournament": {"name": "ludo-levels", "game": {...}, "environment": {...},   // e-random
//                  "entrants": [{"name": "random", "player": {"id": "random"}},
//                               {"name": "hillclimber", "player": {"id": "hillclimber"},
//                                "levels": [10, 20, 50, 100]},                 // a level curve
//                               {"name": "mcts", "player": {"id": "mcts"},
//                                "vary": {"param": "iterations", "values": [10, 100]}}],
//                  "design": {"kind": "round-robin"}            // or "ladder" with "anchors",
//                                                               // or "pairings" with "tables"
//                  "games": 100,            // per table and seat order
//                  "model": {"anchor": "random", "anchor_rating": 0, "draws": "half",
//                            "first_seat": true, "bootstrap": 1000, "confidence": 0.95,
//                            "prior_sd": 0}}
//
// or "balance": {"name", "game", "ratings": "FILE" (a ratings.json of `ddalab rate`, relative to
// the batch file) or its content, "ladder": [entrant names] (default all), "conditions":
// [{"name", "opponent" (or "opponents", one per other seat), "environment", "coefficients",
// "objective"}], "games", "band": [low, high]}.
//
// Both expand, before validation, into ordinary experiments (so they run, resume, shard and go
// to Slurm as every batch does, with common random numbers: every experiment has salt 0). Each
// generated experiment records "entrants": the entrant (or condition) name of each seat, and the
// batch keeps a "rating" section (what the fit and the balance tables need, the rating file's
// content included), so a results folder's batch.json is self-contained.
//
// Seats: a two-seat game plays every pairing in both seat orders; a game of n > 2 seats plays
// every set of n entrants (round robin) or each newcomer with every set of n − 1 anchors and the
// anchors' sets of n among themselves (ladder), or the given tables of n entrants (pairings), in
// the n cyclic rotations of the set; balance runs put the rated player in each seat in turn, the
// condition's opponents in the others. Names: "<name>/<e0>,<e1>,..." (seat order) and
// "<name>/<condition>/<entrant>@seat<k>"; a "levels" entrant becomes "<name>@<level>", a "vary"
// one "<name>@<param>=<value>" (a level curve named <name>).
#include <filesystem>
#include <string>
#include <vector>

#include "core/params.h"
#include "experiments/sweep.h"

namespace ddalab {

inline constexpr const char* kRatingsFormat = "ddalab-ratings/1";  // ratings.json

// The win rate that is even for a rated player in a game of `seats` seats: 1/seats, and for a game
// of one seat (the player against the game: the Maze) one half.
inline double evenShare(int seats) { return seats == 1 ? 0.5 : 1.0 / seats; }

// Whether `document` (a batch file) is a tournament or a balance run.
bool hasRatingDesign(const Json& document);

// The batch document with its "tournament" or "balance" expanded into "experiments" and a
// "rating" section; a document without one is returned as it is. `baseDir` resolves a balance's
// relative "ratings" file. `checkExperiment` (the batch format's parser, paths from "$") checks
// each entrant's player in every seat and each condition once, before anything is generated, its
// errors moved to where the part stands in `document` (the batch parser checks the rest); throws
// InputError naming the JSON path in `document` and what was expected (an entrant given twice, an
// anchor that is not an entrant, a design that leaves an entrant without a path of games to the
// anchor, a rating file of another game or ddalab version, ...).
Json expandRatingDesign(const Json& document, const std::filesystem::path& baseDir,
                        const ExperimentCheck& checkExperiment);

// The "rating" section of a batch (what expandRatingDesign wrote), checked with the entrant names
// of each experiment (each must be an entrant, ladder entrant or condition of the section): throws
// InputError naming "$.rating..." or "$.experiments[i].entrants[k]" and what was expected. Kept as
// JSON in Batch::rating.
void checkRatingSection(const Json& section,
                        const std::vector<std::vector<std::string>>& experimentEntrants);

}  // namespace ddalab
