#include "core/match.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace ddalab {

TraceRecorder::TraceRecorder(Json& out, const State& state, const Coefficients* detail)
    : out_(out), n_(state.numPlayers()), detail_(detail) {
  out_["initial"] = snapshot(state);
  out_["rounds"] = Json::array();
  startRound();
}

void TraceRecorder::onAction(const State& before, int actor, Action action, int legalCount,
                             const EnvironmentDecision* decision) {
  if (actor != kEnvironment) {
    round_["actor"] = actor;
    round_["legal"].push_back(legalCount);
  }
  Json entry = {{"by", actor != kEnvironment ? "player" : "environment"},
                {"id", action},
                {"text", before.actionToString(action)}};
  if (detail_ && decision) entry["decision"] = decisionJson(before, *decision, *detail_);
  round_["actions"].push_back(std::move(entry));
}

void TraceRecorder::onRoundEnd(const Match& match, bool hadEnvironment) {
  Json snap = snapshot(match.state());
  round_["env"] = hadEnvironment;
  round_["gains"] = std::move(snap["gains"]);
  round_["statuses"] = std::move(snap["statuses"]);
  if (snap.contains("out")) round_["out"] = std::move(snap["out"]);
  out_["rounds"].push_back(std::move(round_));
  startRound();
}

void TraceRecorder::finish(const GameRecord& record) {
  Json metrics = Json::object();
  for (const auto& info : allMetrics())
    metrics[std::string(info.key)] = record.metrics[static_cast<size_t>(info.metric)];
  out_["result"] = {{"winner", record.winner >= 0 ? Json(record.winner) : Json(nullptr)},
                    {"capped", record.capped},
                    {"scores", std::vector<double>(record.scores.begin(),
                                                   record.scores.begin() + record.numPlayers)},
                    {"metrics", metrics}};
}

void TraceRecorder::startRound() {
  round_ = {{"actor", nullptr}, {"actions", Json::array()}, {"legal", Json::array()}};
}

Json TraceRecorder::snapshot(const State& state) const {
  const Gains gains = gainsOf(state);
  Gains statuses{};
  statusesOf(state, statuses);
  Json snap = {{"gains", std::vector<double>(gains.begin(), gains.begin() + n_)},
               {"statuses", std::vector<double>(statuses.begin(), statuses.begin() + n_)}};
  // Who is out of the game, in games where a seat can be: the statuses and the lead changes
  // depend on it, so a trace without it could not be scored again outside ddalab.
  if (state.playersCanDropOut()) {
    const OutOfGame out = outOf(state);
    snap["out"] = std::vector<bool>(out.begin(), out.begin() + n_);
  }
  return snap;
}

uint64_t fingerprint(const GameRecord& r, uint64_t h) {
  auto mix = [&h](uint64_t x) {
    for (int byte = 0; byte < 8; ++byte, x >>= 8) h = (h ^ (x & 0xff)) * 0x100000001b3ull;
  };
  auto mixDouble = [&mix](double d) { mix(std::bit_cast<uint64_t>(d)); };
  mix(r.iteration);
  mix(r.seed);
  mix(static_cast<uint64_t>(r.numPlayers));
  mix(static_cast<uint64_t>(r.winner));
  mix(r.capped);
  // The thesis's metrics only: the signature checks the engine whatever plug-ins are loaded, and
  // stays comparable across versions that add metrics.
  for (size_t k = 0; k < kThesisMetrics; ++k) mixDouble(r.metrics[k]);
  for (int p = 0; p < r.numPlayers; ++p) {
    mixDouble(r.scores[p]);
    mix(static_cast<uint64_t>(r.counters[p].moves));
    mix(static_cast<uint64_t>(r.counters[p].turns));
    mix(static_cast<uint64_t>(r.counters[p].leadRounds));
  }
  return h;
}

namespace {

// The state in words for a contract error: its toString(), cut short (it may be a whole board,
// or be broken too).
std::string stateInWords(const State& state) {
  try {
    return textExcerpt(state.toString(), 300);
  } catch (const std::exception& e) {
    return "(toString() threw: " + textExcerpt(e.what(), 200) + ")";
  }
}

// The refusals build their words only when a check failed: cold, out of the match loop's way.
[[noreturn, gnu::cold, gnu::noinline]] void brokenContract(const State& state,
                                                           const std::string& what) {
  throw GameContractError(what + "; the state: " + stateInWords(state));
}

[[noreturn, gnu::cold, gnu::noinline]] void refuseNoLegalActions(const State& state) {
  brokenContract(state, "expected legalActions() to hold an action at a decision (actor() " +
                            std::to_string(state.actor()) + "), got none");
}

[[noreturn, gnu::cold, gnu::noinline]] void refuseActor(const State& state, int actor,
                                                        int numPlayers) {
  brokenContract(state, "expected actor() to be a seat 0.." + std::to_string(numPlayers - 1) +
                            ", kEnvironment (-1) or kTerminal (-2), got " + std::to_string(actor));
}

// Says which promise `outcomes` break (checkOutcomes found one).
[[noreturn, gnu::cold, gnu::noinline]] void refuseOutcomes(const State& state,
                                                           std::span<const Outcome> outcomes,
                                                           double sum) {
  if (outcomes.empty())
    brokenContract(state,
                   "expected outcomes() to hold an outcome at an environment node, got none");
  for (const Outcome& o : outcomes)
    if (!(std::isfinite(o.probability) && o.probability > 0 && o.probability <= 1))
      brokenContract(state,
                     "expected every probability of outcomes() to be finite and in (0, 1], "
                     "outcome " +
                         std::to_string(o.action) + " has " + std::to_string(o.probability));
  brokenContract(state, "expected the probabilities of outcomes() to sum to 1, they sum to " +
                            std::to_string(sum) + " (" + std::to_string(outcomes.size()) +
                            " outcomes)");
}

// `action` is none of `items` (the first 8 listed), what `method` offered.
template <typename T, typename ActionOf>
[[noreturn, gnu::cold, gnu::noinline]] void refuseAction(const State& state, Action action,
                                                         std::span<const T> items,
                                                         ActionOf actionOf, const char* method) {
  std::string list = "[";
  for (size_t i = 0; i < items.size() && i < 8; ++i)
    list += (i ? ", " : "") + std::to_string(actionOf(items[i]));
  list += items.size() > 8 ? ", ...]" : "]";
  brokenContract(state, std::string("expected the action applied to be one of ") + method + " " +
                            list + ", got " + std::to_string(action));
}

[[noreturn, gnu::cold, gnu::noinline]] void refuseRounds(const State& state, int before, int after,
                                                         Action action) {
  brokenContract(state,
                 "expected roundsCompleted() to grow by at most one an action, it went "
                 "from " +
                     std::to_string(before) + " to " + std::to_string(after) + " after action " +
                     std::to_string(action));
}

// applyTracked for an actor already read (and checked) by the caller.
bool applyTrackedAs(State& state, MetricsTracker& tracker, int actor, Action action,
                    int legalCount) {
  if (actor == kEnvironment)
    tracker.onEnvironmentEvent();
  else
    tracker.onDecision(actor, legalCount, state.isPass(action));
  state.apply(action);
  const int rounds = state.roundsCompleted();
  if (rounds == tracker.rounds()) return false;
  if (rounds != tracker.rounds() + 1) refuseRounds(state, tracker.rounds(), rounds, action);
  tracker.endRound(state);
  return true;
}

}  // namespace

void checkActor(const State& state, int actor, int numPlayers) {
  if (actor < kTerminal || actor >= numPlayers) refuseActor(state, actor, numPlayers);
}

void checkLegalActions(const State& state, std::span<const Action> legal) {
  if (legal.empty()) refuseNoLegalActions(state);
}

void checkOutcomes(const State& state, std::span<const Outcome> outcomes) {
  // Run at every environment node: one pass without branches, four sums (no chain of adds).
  std::array<double, 4> sums{};
  bool each = !outcomes.empty();  // and every probability in (0, 1]: not NaN, not infinite
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const double p = outcomes[i].probability;
    each &= (p > 0) & (p <= 1);
    sums[i & 3] += p;
  }
  const double sum = (sums[0] + sums[1]) + (sums[2] + sums[3]);
  if (!each || !(std::abs(sum - 1) <= kProbabilitySumTolerance))
    refuseOutcomes(state, outcomes, sum);
}

bool applyTracked(State& state, MetricsTracker& tracker, Action action, int legalCount) {
  return applyTrackedAs(state, tracker, state.actor(), action, legalCount);
}

Match::Match(const Game& game, uint64_t seed, uint64_t maxActions)
    : state_(game.newGame(streamSeed(seed, Stream::Setup))),
      seed_(seed),
      maxActions_(maxActions),
      nature_(streamSeed(seed, Stream::Nature)),
      environment_(streamSeed(seed, Stream::Environment)) {
  if (!state_) throw GameContractError("expected newGame() to deal a state, got none (null)");
  numPlayers_ = state_->numPlayers();
  if (numPlayers_ != game.numPlayers() || numPlayers_ < 1 || numPlayers_ > kMaxPlayers)
    brokenContract(*state_, "expected numPlayers() of the dealt state to be the game's (" +
                                std::to_string(game.numPlayers()) + ") and within 1.." +
                                std::to_string(kMaxPlayers) + ", got " +
                                std::to_string(numPlayers_));
  for (int p = 0; p < numPlayers_; ++p)
    players_[p].reseed(streamSeed(seed, Stream::FirstPlayer, p));
  tracker_ = MetricsTracker(*state_);
}

int Match::actor() const {
  const int actor = state_->actor();
  checkActor(*state_, actor, numPlayers_);
  return actor;
}

std::span<const Action> Match::legal() {
  if (!legalFresh_) state_->legalActions(legal_);
  legalFresh_ = true;
  return legal_;
}

std::span<const Outcome> Match::outcomes() {
  if (!outcomesFresh_) state_->outcomes(outcomes_);
  outcomesFresh_ = true;
  return outcomes_;
}

Action Match::decide(Player& player) {
  const int seat = actor();
  if (seat < 0) throw std::logic_error("Match::decide(Player&) asked at no regular player's turn");
  const std::span<const Action> actions = legal();
  checkLegalActions(*state_, actions);
  return player.chooseAction(*state_, actions, players_[static_cast<size_t>(seat)]);
}

Action Match::decide(EnvironmentPlayer& environment) {
  checkOutcomes(*state_, outcomes());
  if (!describe_) return environment.choose(*state_, outcomes(), tracker_, environment_, nature_);
  environment.describeDecisionsTo(&decision_);
  const Action chosen = environment.choose(*state_, outcomes(), tracker_, environment_, nature_);
  environment.describeDecisionsTo(nullptr);
  hasDecision_ = decision_.chosen == chosen;
  return chosen;
}

void Match::countChance(Action action) {
  const int recipient = state_->chanceRecipient();
  if (recipient < 0 || recipient >= kMaxPlayers) return;
  // v comes from a hash of the game's seed and the event's number, not from a stream: the
  // bookkeeping must not change what any player or the environment draws.
  const double v =
      static_cast<double>(splitmix64(seed_ ^ splitmix64(++chanceEvents_)) >> 11) * 0x1.0p-53;
  const double u = chanceQuantile(outcomes(), action, v);
  const int bin = std::min(kChanceBins - 1, static_cast<int>(u * kChanceBins));
  ++chance_[static_cast<size_t>(recipient)][static_cast<size_t>(bin)];
}

void Match::apply(Action action) {
  const int actor = this->actor();
  if (actor == kTerminal) throw std::logic_error("Match::apply after the game's end");
  // The action must be one the state offered: a player's or the environment's choice that is
  // not would be applied to a state that cannot take it.
  const auto offered = [&](auto items, auto actionOf, const char* method) {
    for (const auto& item : items)
      if (actionOf(item) == action) return;
    refuseAction(*state_, action, items, actionOf, method);
  };
  if (actor == kEnvironment) {
    offered(
        outcomes(), [](const Outcome& o) { return o.action; }, "outcomes()");
    countChance(action);
  } else {
    offered(
        legal(), [](Action a) { return a; }, "legalActions()");
  }
  const int legalCount = actor == kEnvironment ? 0 : static_cast<int>(legal().size());
  const bool described = actor == kEnvironment && hasDecision_ && decision_.chosen == action;
  hasDecision_ = described;
  for (MatchObserver* o : observers_)
    o->onAction(*state_, actor, action, legalCount, described ? &decision_ : nullptr);
  roundHadEnvironment_ = roundHadEnvironment_ || actor == kEnvironment;
  legalFresh_ = outcomesFresh_ = false;
  ++actions_;
  if (!applyTrackedAs(*state_, tracker_, actor, action, legalCount)) return;
  for (MatchObserver* o : observers_) o->onRoundEnd(*this, roundHadEnvironment_);
  roundHadEnvironment_ = false;
}

bool Match::applyIfLegal(Action action) {
  if (over()) return false;
  bool legalAction = false;
  if (actor() == kEnvironment) {
    for (const Outcome& o : outcomes()) legalAction = legalAction || o.action == action;
  } else {
    for (Action a : legal()) legalAction = legalAction || a == action;
  }
  if (legalAction) apply(action);
  return legalAction;
}

GameRecord Match::record() const {
  GameRecord record;
  record.seed = seed_;
  record.numPlayers = numPlayers_;
  record.cutOff = cutOff();
  record.winner = record.cutOff ? -1 : state_->winner();
  if (record.winner < -1 || record.winner >= numPlayers_)
    brokenContract(*state_, "expected winner() to be -1 or a seat 0.." +
                                std::to_string(numPlayers_ - 1) + ", got " +
                                std::to_string(record.winner));
  record.capped = record.cutOff || state_->capped();
  record.metrics = tracker_.values(state_->believability());
  for (int p = 0; p < record.numPlayers; ++p) {
    record.scores[p] = state_->gain(p);
    record.counters[p] = tracker_.counters(p);
  }
  record.chance = chance_;
  return record;
}

Json decisionJson(const State& before, const EnvironmentDecision& decision,
                  const Coefficients& coefficients) {
  Json outcomes = Json::array();
  for (const OutcomeAppraisal& a : decision.appraisals) {
    // The objective's terms (an appraisal without them: the weighted sum's, from the metrics).
    Json terms = Json::object(), checks = Json::object();
    const MetricValues values = funTerms(a.metrics, coefficients);
    if (a.terms.empty())
      for (const auto& info : allMetrics())
        if (coefficients[static_cast<size_t>(info.metric)] != 0)
          terms[std::string(info.key)] = values[static_cast<size_t>(info.metric)];
    for (const ObjectiveTerm& term : a.terms)
      (term.summed ? terms : checks)[term.label] = term.value;
    Json outcome = {{"id", a.outcome},
                    {"text", before.actionToString(a.outcome)},
                    {"probability", a.probability},
                    {"fun", a.fun},
                    {"terms", terms}};
    if (!checks.empty()) outcome["checks"] = checks;
    if (!a.allowed) outcome["allowed"] = false;
    if (a.searchValue) outcome["search"] = *a.searchValue;
    outcomes.push_back(std::move(outcome));
  }
  return {{"chosen", decision.chosen}, {"natural", decision.natural}, {"outcomes", outcomes}};
}

GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace, StopToken stop,
                    const Coefficients* traceDetail, uint64_t maxActions) {
  Match match(game, seed, maxActions);
  if (players.size() < static_cast<size_t>(match.state().numPlayers()))
    throw std::invalid_argument("playGame: expected a player for every seat");
  std::optional<TraceRecorder> recorder;
  if (trace) match.addObserver(&recorder.emplace(*trace, match.state(), traceDetail));
  match.describeEnvironmentDecisions(trace && traceDetail);
  while (!match.over()) {
    stop.check();
    const int actor = match.actor();
    match.apply(actor == kEnvironment ? match.decide(environment) : match.decide(*players[actor]));
  }
  GameRecord record = match.record();
  if (recorder) recorder->finish(record);
  return record;
}

double chanceQuantile(std::span<const Outcome> outcomes, Action chosen, double v) {
  double below = 0;
  for (const Outcome& o : outcomes) {
    if (o.action == chosen) return std::clamp(below + v * o.probability, 0.0, 1.0);
    below += o.probability;
  }
  return std::clamp(below, 0.0, 1.0);  // not among the outcomes: cannot happen for legal ones
}

Action EnvironmentPlayer::chooseOutcome(const State& state, const MetricsTracker& trace, Rng& own,
                                        Rng& nature) {
  std::vector<Outcome> outcomes;
  state.outcomes(outcomes);
  return choose(state, outcomes, trace, own, nature);
}

Action sampleOutcome(std::span<const Outcome> outcomes, Rng& nature) {
  if (outcomes.empty())  // a game's broken environment node met in a search or playout
    throw GameContractError(
        "expected outcomes() to hold an outcome at an environment node, got "
        "none (met by a player's playout)");
  double u = nature.uniform();
  for (const auto& o : outcomes) {
    if (u < o.probability) return o.action;
    u -= o.probability;
  }
  return outcomes.back().action;  // rounding: the remainder goes to the last outcome
}

}  // namespace ddalab
