#pragma once
// The game state interface every game implements (extensive form with explicit
// environment nodes for chance and for hidden information no player knows yet).
#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/rng.h"

namespace ddalab {

using Action = int32_t;
using Json = nlohmann::json;

// Actor ids besides the regular players 0..n-1.
inline constexpr int kEnvironment = -1;
inline constexpr int kTerminal = -2;
inline constexpr int kMaxPlayers = 4;

// One possible revelation at an environment node with its natural probability.
struct Outcome {
  Action action;
  double probability;
};

class State {
 public:
  virtual ~State() = default;

  // ---- Required: the rules. A game implements these fourteen; everything below has a default.

  // A deep copy that evolves independently of this state.
  virtual std::unique_ptr<State> clone() const = 0;
  // Number of regular players taking part (0..n-1).
  virtual int numPlayers() const = 0;
  // The regular player on turn, kEnvironment at an environment node, kTerminal at the end.
  virtual int actor() const = 0;
  // Legal actions of the regular actor in a fixed order; cleared when no player decides.
  virtual void legalActions(std::vector<Action>& out) const = 0;
  // Environment outcomes with natural probabilities (positive, summing to 1); cleared otherwise.
  virtual void outcomes(std::vector<Outcome>& out) const = 0;
  // Applies a legal action of the current actor (player action or environment outcome).
  virtual void apply(Action action) = 0;
  // Winner index once terminal; -1 for a draw or while the game runs.
  virtual int winner() const = 0;
  // True when the game ended by its round guard instead of its rules.
  virtual bool capped() const = 0;
  // The game's gain of player p (higher is better); drives status and the metrics.
  virtual double gain(int p) const = 0;
  // Rounds completed so far; grows by exactly one when a round ends.
  virtual int roundsCompleted() const = 0;
  // Believability of the environment's choices so far (lower = more believable).
  virtual double believability() const = 0;
  // True when `action` of the current actor leaves the board as it is (a pass).
  virtual bool isPass(Action action) const = 0;
  // Human-readable form of `action` of the current actor.
  virtual std::string actionToString(Action action) const = 0;
  // Human-readable form of the whole state.
  virtual std::string toString() const = 0;

  // ---- Hooks for players and metrics: what a game may tell beyond its rules (defaults fit a
  // game that says nothing more).

  // What AIs rank states with for player p; defaults to the gain.
  virtual double value(int p) const { return gain(p); }
  // The group of `action` of the current actor for level scaling by groups (players.md): actions
  // of one group differ only in a detail the base algorithm settles (in Lost Cities the draw
  // source of a card's play or discard). Defaults to the action itself: every action its own group.
  virtual Action actionGroup(Action action) const { return action; }
  // At an environment node, scores[i] = how good outcomes[i] is for an opponent of the regular
  // players who builds the environment (higher = worse for them); the DDA players acting as the
  // environment rank outcomes by it. Returns false when the game has no such view.
  virtual bool scoreOutcomesAsOpponent(std::span<const Outcome> outcomes,
                                       std::span<double> scores) const {
    (void)outcomes;
    (void)scores;
    return false;
  }
  // True when player p is out of the game (a dead HexaLines player): it keeps its gain but can
  // neither lead nor win; status and the metrics treat it so (core/status.h).
  virtual bool isOut(int p) const {
    (void)p;
    return false;
  }
  // At an environment node, the regular player the outcome is dealt to (whose die, whose card,
  // whose maze), or -1 when it is nobody's; the detectability test pools outcomes per player.
  virtual int chanceRecipient() const { return -1; }

  // ---- What a seat may know (the information model; OpenSpiel's observation strings are the
  // model): the views, the live panel and a person's replays show a person only this. Games
  // without hidden information keep the defaults (everything is seen by everyone).

  // The state as seat `player` sees it: other seats' hidden cards and undealt ones left out.
  virtual std::string observationString(int player) const {
    (void)player;
    return toString();
  }
  // The state as seat `player` sees it, as structured data for a front-end (a browser's board):
  // exactly what observationString(player) tells, never the set-up seed, the deck order or
  // another seat's hidden cards, so it equals that of every determinize(player, ...) of the
  // state. Default (a plug-in game): {"text": observationString(player), "players":
  // numPlayers(), "seat": player}. docs/web-api.md documents each game's fields.
  virtual Json observationJson(int player) const;
  // What legal `action` of the regular actor does, as structured data for a view (which piece,
  // which card and pile, which field): a board picks the legal action whose description matches
  // what the person chose instead of computing the game's action id. Distinct legal actions have
  // distinct descriptions; they tell nothing the actor may not know; docs/web-api.md documents
  // each game's fields. Default (a plug-in game): an empty object (no description: a view offers
  // the actions by their actionToString).
  virtual Json actionJson(Action action) const;
  // The whole state as numbers, for learning environment players (the environment sees all):
  // the same length in every state of one game configuration. Default: every seat's gain, then
  // every seat's status, then the rounds completed (2 numPlayers() + 1 numbers).
  virtual void features(std::vector<double>& out) const;
  // At an environment node: whether seat `player` learns which outcome is chosen (a die all see,
  // a card into its own hand), not only that one was (a card into another seat's hidden hand).
  virtual bool outcomeVisibleTo(int player) const {
    (void)player;
    return true;
  }
  // At an environment node: whether the outcomes and their natural probabilities are public (a
  // die's faces), or would tell hidden information (the cards left in a deck, whose split with
  // the hidden hands is secret).
  virtual bool outcomesPublic() const { return true; }
  // At an environment node: how the chosen outcome reads to a seat it is hidden from.
  virtual std::string hiddenOutcomeString() const { return "an outcome hidden from you"; }
  // Whether every seat may know every gain(p) — and so the statuses and the fun metrics built
  // from them and from every seat's legal actions — or they weigh hidden cards (Lost Cities'
  // heuristic values the hands and the deck until the game is over).
  virtual bool gainsPublic() const { return true; }
  // A state consistent with everything `player` has seen, hidden parts re-sampled from rng.
  // `kindWeights` (empty = uniform) weights the game's hidden item kinds for inference
  // (the game documents its kind ids). Perfect-information games return a plain copy.
  virtual std::unique_ptr<State> determinize(int player, Rng& rng,
                                             std::span<const double> kindWeights) const {
    (void)player;
    (void)rng;
    (void)kindWeights;
    return clone();
  }

  // ---- Speed shortcuts: each gives exactly what the required functions give the slow way
  // (the conformance checks compare them); a game overrides those that pay off for it.

  // Makes this state a copy of `other` reusing this state's memory, when `other` is a state of the
  // same class (assignSameClass, core/state_copy.h); false leaves it unchanged (ScratchState then
  // clones). Searches copy positions thousands of times a decision: this spares a heap allocation
  // for each.
  virtual bool assign(const State& other) {
    (void)other;
    return false;
  }
  // gains[p] = gain(p) for every player (numPlayers() entries): the metrics ask for all of them
  // every round, so games override it to share work between the players.
  virtual void gains(std::span<double> gains) const {
    for (int p = 0; p < numPlayers(); ++p) gains[static_cast<size_t>(p)] = gain(p);
  }
  // value(p) of the state `action` of the current actor leads to, when the game can tell it
  // without a copy (exactly the copy's value); nullopt: it cannot (the searches copy).
  virtual std::optional<double> valueAfter(Action action, int p) const {
    (void)action, (void)p;
    return std::nullopt;
  }
  // valueAfter(actions[i], p) into values[i] for every action at once, for the searches that rank
  // all the actor's moves (a game can share the work the moves have in common); false, nothing
  // written, when the game has no such shortcut (the searches then ask one action at a time).
  virtual bool valueAfterEach(std::span<const Action> actions, int p,
                              std::span<double> values) const {
    (void)actions, (void)p, (void)values;
    return false;
  }
  // value(p) of every player p in the bit set `wanted` (bit p: player p) in the state `action` of
  // the current actor leads to, into values[p], exactly a copy's, the other entries untouched;
  // false, nothing written, when the game cannot tell without a copy (the searches then copy).
  virtual bool valuesAfter(Action action, unsigned wanted, std::span<double> values) const {
    (void)action, (void)wanted, (void)values;
    return false;
  }
  // Works out now what the state otherwise works out on demand (caches), before a search copies
  // it once for each of its children: the copies then share that work instead of each doing it.
  // Changes no answer of the state.
  virtual void prepareCopies() const {}
  // At a regular decision right after an environment outcome: whether the values after `action`
  // can depend on which outcome it was. False promises they are the same after every outcome of
  // that environment node (a HexaLines rotation ignores the cell just dealt), so the searches
  // work them out once for all the outcomes they try there. Default: true (nothing is shared).
  virtual bool outcomeMatters(Action action) const {
    (void)action;
    return true;
  }
  // False when no player can ever be out (isOut always false): spares asking every round.
  virtual bool playersCanDropOut() const { return true; }

  // ---- Convenience (not virtual).

  bool isTerminal() const { return actor() == kTerminal; }
  bool isEnvironmentNode() const { return actor() == kEnvironment; }
};

using Gains = std::array<double, kMaxPlayers>;

// The gains of all players of `state` (entries past numPlayers() are 0).
inline Gains gainsOf(const State& state) {
  Gains g{};
  state.gains(std::span(g.data(), static_cast<size_t>(state.numPlayers())));
  return g;
}

// Which players of `state` are out of the game (entries past numPlayers() are false).
using OutOfGame = std::array<bool, kMaxPlayers>;
inline OutOfGame outOf(const State& state) {
  OutOfGame out{};
  if (!state.playersCanDropOut()) return out;
  for (int p = 0; p < state.numPlayers(); ++p) out[p] = state.isOut(p);
  return out;
}

// How far the action ids of a game configuration reach (OpenSpiel's NumDistinctActions and
// MaxChanceOutcomes): what a view or a learner sizes its tables and spaces by, without knowing
// how the game encodes its actions.
struct ActionBounds {
  int distinctActions = 0;    // every regular action id lies in [0, distinctActions)
  int outcomeIds = 0;         // every environment outcome's id lies in [0, outcomeIds)
  int maxChanceOutcomes = 0;  // no environment node offers more outcomes than this
};

// An immutable, validated game configuration that deals new games.
class Game {
 public:
  virtual ~Game() = default;
  // Number of regular players of every game this configuration deals.
  virtual int numPlayers() const = 0;
  // A fresh game whose set-up (deal, maze layout, ...) comes from `setupSeed`.
  virtual std::unique_ptr<State> newGame(uint64_t setupSeed) const = 0;
  // Typical size of a meaningful status difference (DDA thresholds default to it).
  virtual double statusScale() const = 0;
  // Whether some information is hidden from some player (IS players apply).
  virtual bool hasHiddenInformation() const { return false; }
  // The bounds every state this configuration deals keeps, from its rules and parameters (not
  // from playouts, which can miss a rare node); nullopt when the game does not declare them (a
  // plug-in's default: a learner then asks its user for them).
  virtual std::optional<ActionBounds> actionBounds() const { return std::nullopt; }
};

}  // namespace ddalab
