#pragma once
// A match: one game being played one action at a time — the state, the metrics tracker kept in
// step with it, the game's random streams, and observers told of every action and round end.
// The batch runner plays matches to their end (playGame); the GUI steps them, a human seat being
// a seat whose next action comes from outside.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/metrics.h"
#include "core/params.h"
#include "core/player.h"
#include "core/stop.h"

namespace ddalab {

// The bound of every match ddalab plays unless told another: a game that has not ended after
// this many actions is ended there and counted as capped (GameRecord::cutOff). Every built-in
// game ends far earlier by its rules or its round cap (at most 4 x 10^6 actions: Ludo at its
// largest max_rounds, 10^6 rounds of up to three rolls and a move).
inline constexpr uint64_t kMatchActionLimit = 10'000'000;

// A game broke a promise of core/state.h that the match loop relies on (an actor that is no
// seat, a decision without legal actions, outcomes that are no distribution, an applied action
// that is none of the legal ones, rounds that jump, a winner that is no seat): thrown where the
// value is used, instead of undefined behaviour, naming the method, the value and the state's
// toString(). check-game reports it as a FAILED check; a run stops with it, as when a player
// fails (the finished games kept).
class GameContractError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each throws GameContractError, naming the value and `state`, unless:
// `actor` (what state.actor() returned) is a seat 0..numPlayers-1, kEnvironment or kTerminal;
void checkActor(const State& state, int actor, int numPlayers);
// `legal` (state.legalActions() at a decision) holds at least one action;
void checkLegalActions(const State& state, std::span<const Action> legal);
// `outcomes` (state.outcomes() at an environment node) are a distribution: at least one, each
// probability in (0, 1] (so finite), summing to 1 within kProbabilitySumTolerance.
void checkOutcomes(const State& state, std::span<const Outcome> outcomes);
inline constexpr double kProbabilitySumTolerance = 1e-6;

// Where the outcomes dealt to one player fell in their natural distributions: counts of the
// deciles of chanceQuantile (uniform under natural chance; results/significance tests it).
inline constexpr int kChanceBins = 10;
using ChanceBins = std::array<uint32_t, kChanceBins>;

// The randomized probability integral transform of `chosen` among `outcomes` (in the game's
// order): P(outcomes before it) + v P(it), v in [0, 1). Uniform on [0, 1) whenever the outcome
// follows its natural probabilities, whatever they are, so decisions of different shapes pool.
double chanceQuantile(std::span<const Outcome> outcomes, Action chosen, double v);

// Everything kept of one finished game (small: a million of them fit in memory).
struct GameRecord {
  uint64_t iteration = 0;
  uint64_t seed = 0;
  int numPlayers = 0;
  int winner = -1;  // -1: draw
  bool capped = false;
  // Ended by the match's action bound, not by the game (then capped too, winner -1); known to
  // the process that played it only (journals and CSVs keep `capped`).
  bool cutOff = false;
  MetricValues metrics{};
  std::array<double, kMaxPlayers> scores{};  // final gains
  std::array<PlayerCounters, kMaxPlayers> counters{};
  std::array<ChanceBins, kMaxPlayers> chance{};  // per player: outcomes dealt, by decile
};

// Folds every field of `record` but `chance` and `cutOff` (part of `capped`) into the hash `h`
// (FNV-1a over the bits): equal hashes of whole batches mean, for practical purposes, identical
// behaviour. `chance` is bookkeeping of the same play (it draws on no stream), left out so the
// signature measures play.
uint64_t fingerprint(const GameRecord& record, uint64_t h = 0xcbf29ce484222325ull);

// Applies `action` of the current actor to `state` and keeps `tracker` in step with it
// (decision or environment event, round end). `legalCount` is the number of legal actions at a
// regular decision (unused at environment nodes). Returns true when the action ended a round;
// throws GameContractError when roundsCompleted() grew by more than one or went back.
bool applyTracked(State& state, MetricsTracker& tracker, Action action, int legalCount);

class Match;

// Told of what happens in a match (the JSON trace, the GUI's live panel).
class MatchObserver {
 public:
  virtual ~MatchObserver() = default;
  // `actor` (a seat or kEnvironment) is about to apply `action` to `before`; `legalCount` is
  // the number of legal actions at a regular decision (0 at an environment node); `decision`
  // describes an environment player's choice when the match describes them (else null).
  virtual void onAction(const State& before, int actor, Action action, int legalCount,
                        const EnvironmentDecision* decision) {
    (void)before, (void)actor, (void)action, (void)legalCount, (void)decision;
  }
  // A round ended (`hadEnvironment`: it had an environment event); `match` is after it.
  virtual void onRoundEnd(const Match& match, bool hadEnvironment) {
    (void)match, (void)hadEnvironment;
  }
};

// Builds the JSON trace of one game round by round (docs/trace-format.md) into `out`: added to a
// match as an observer before its first action; `detail` (null: none) the coefficients to
// describe environment decisions with (the match must describe them). Not copyable: the match
// holds its address.
class TraceRecorder final : public MatchObserver {
 public:
  TraceRecorder(Json& out, const State& initial, const Coefficients* detail);
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;
  void onAction(const State& before, int actor, Action action, int legalCount,
                const EnvironmentDecision* decision) override;
  void onRoundEnd(const Match& match, bool hadEnvironment) override;
  // Adds the game's result; called once the game is over.
  void finish(const GameRecord& record);

 private:
  void startRound();
  Json snapshot(const State& state) const;
  Json& out_;
  int n_;
  const Coefficients* detail_;
  Json round_;
};

// Every value of the game a match uses is checked where it is used (GameContractError): the
// seats of the dealt state, the actor, a decision's legal actions, an environment node's
// outcomes, each applied action, the rounds and the winner.
class Match {
 public:
  // Deals the game of `seed`; its set-up, natural chance, environment player and each regular
  // player draw from their own streams of that seed (streamSeed). The match is over once the
  // game ends or after `maxActions` actions (then cut off: capped, a draw).
  Match(const Game& game, uint64_t seed, uint64_t maxActions = kMatchActionLimit);

  const State& state() const { return *state_; }
  const MetricsTracker& tracker() const { return tracker_; }
  uint64_t seed() const { return seed_; }
  // The state's actor, checked (checkActor).
  int actor() const;
  // Whether the game ended or the match reached its action bound.
  bool over() const { return actions_ >= maxActions_ || actor() == kTerminal; }
  // Whether the action bound ended the match before the game ended.
  bool cutOff() const { return actions_ >= maxActions_ && state_->actor() != kTerminal; }
  // The legal actions of the regular player on turn (empty at environment nodes and the end).
  std::span<const Action> legal();
  // The outcomes with their natural probabilities at an environment node (empty otherwise).
  std::span<const Outcome> outcomes();

  // The action `player` chooses for the regular player on turn, with that seat's stream.
  Action decide(Player& player);
  // The outcome `environment` chooses at an environment node, with the environment's stream
  // and the natural-chance stream.
  Action decide(EnvironmentPlayer& environment);
  // Applies `action` of the current actor (it must be legal: a player's or environment
  // player's choice; anything else throws GameContractError) and tells the observers.
  void apply(Action action);
  // Applies `action` from outside (a human's click) if it is legal; false changes nothing.
  bool applyIfLegal(Action action);

  // Observers are told of every later action and round end; the match does not own them.
  void addObserver(MatchObserver* observer) { observers_.push_back(observer); }
  // Whether environment players describe each decision (EnvironmentDecision, for observers and
  // lastDecision()); slower: for detailed traces and the GUI.
  void describeEnvironmentDecisions(bool on) { describe_ = on; }
  // The environment decision of the last environment action, if it was described.
  const EnvironmentDecision* lastDecision() const { return hasDecision_ ? &decision_ : nullptr; }
  // The record of the game so far (complete once over()).
  GameRecord record() const;

 private:
  // Counts where the environment outcome `action`, about to be applied, fell for its recipient.
  void countChance(Action action);

  std::unique_ptr<State> state_;
  MetricsTracker tracker_;
  uint64_t seed_;
  int numPlayers_ = 0;
  uint64_t actions_ = 0, maxActions_;
  Rng nature_, environment_;
  std::array<Rng, kMaxPlayers> players_;
  std::vector<Action> legal_;
  std::vector<Outcome> outcomes_;
  bool legalFresh_ = false, outcomesFresh_ = false;
  bool roundHadEnvironment_ = false;
  bool describe_ = false;
  std::array<ChanceBins, kMaxPlayers> chance_{};
  uint64_t chanceEvents_ = 0;  // numbers the environment actions for chanceQuantile's v
  EnvironmentDecision decision_;
  bool hasDecision_ = false;  // decision_ describes the pending (or last applied) outcome
  std::vector<MatchObserver*> observers_;
};

// Plays the game dealt from `seed` to its end; `players[p]` decides for regular player p.
// With `trace` non-null, fills it with the per-round trace of docs/trace-format.md (with
// `traceDetail`, every environment decision described too). Throws GameAbandoned when `stop` is
// requested before the game ends (checked before every action), GameContractError when the game
// breaks its contract; a game still running after `maxActions` actions is cut off there.
GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace = nullptr,
                    StopToken stop = {}, const Coefficients* traceDetail = nullptr,
                    uint64_t maxActions = kMatchActionLimit);

// The JSON of a described environment decision (docs/trace-format.md, "--trace-detail"): each
// outcome with its natural probability, F and F's terms under `coefficients`.
Json decisionJson(const State& before, const EnvironmentDecision& decision,
                  const Coefficients& coefficients);

}  // namespace ddalab
