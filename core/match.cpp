#include "core/match.h"

#include <algorithm>
#include <bit>
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

bool applyTracked(State& state, MetricsTracker& tracker, Action action, int legalCount) {
  const int actor = state.actor();
  if (actor == kEnvironment)
    tracker.onEnvironmentEvent();
  else
    tracker.onDecision(actor, legalCount, state.isPass(action));
  state.apply(action);
  if (state.roundsCompleted() == tracker.rounds()) return false;
  tracker.endRound(state);
  return true;
}

Match::Match(const Game& game, uint64_t seed)
    : state_(game.newGame(streamSeed(seed, Stream::Setup))),
      seed_(seed),
      nature_(streamSeed(seed, Stream::Nature)),
      environment_(streamSeed(seed, Stream::Environment)) {
  const int n = state_->numPlayers();
  for (int p = 0; p < n; ++p) players_[p].reseed(streamSeed(seed, Stream::FirstPlayer, p));
  tracker_ = MetricsTracker(*state_);
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
  return player.chooseAction(*state_, legal(), players_[state_->actor()]);
}

Action Match::decide(EnvironmentPlayer& environment) {
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
  const int actor = state_->actor();
  if (actor == kEnvironment) countChance(action);
  const int legalCount = actor == kEnvironment ? 0 : static_cast<int>(legal().size());
  const bool described = actor == kEnvironment && hasDecision_ && decision_.chosen == action;
  hasDecision_ = described;
  for (MatchObserver* o : observers_)
    o->onAction(*state_, actor, action, legalCount, described ? &decision_ : nullptr);
  roundHadEnvironment_ = roundHadEnvironment_ || actor == kEnvironment;
  legalFresh_ = outcomesFresh_ = false;
  if (!applyTracked(*state_, tracker_, action, legalCount)) return;
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
  record.numPlayers = state_->numPlayers();
  record.winner = state_->winner();
  record.capped = state_->capped();
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
                    const Coefficients* traceDetail) {
  Match match(game, seed);
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
  double u = nature.uniform();
  for (const auto& o : outcomes) {
    if (u < o.probability) return o.action;
    u -= o.probability;
  }
  return outcomes.back().action;  // rounding: the remainder goes to the last outcome
}

}  // namespace ddalab
