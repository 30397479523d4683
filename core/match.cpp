#include "core/match.h"

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace ddalab {

namespace {

// Builds the JSON trace of one game round by round (only when a trace is requested).
class TraceBuilder {
 public:
  TraceBuilder(Json& out, const State& state) : out_(out), n_(state.numPlayers()) {
    out_["initial"] = snapshot(gainsOf(state));
    out_["rounds"] = Json::array();
    startRound();
  }
  void action(bool byPlayer, Action a, const std::string& text) {
    round_["actions"].push_back(
        {{"by", byPlayer ? "player" : "environment"}, {"id", a}, {"text", text}});
  }
  void decision(int actor, size_t legalCount) {
    round_["actor"] = actor;
    round_["legal"].push_back(legalCount);
  }
  void endRound(bool hadEnvironment, const Gains& gains) {
    Json snap = snapshot(gains);
    round_["env"] = hadEnvironment;
    round_["gains"] = std::move(snap["gains"]);
    round_["statuses"] = std::move(snap["statuses"]);
    out_["rounds"].push_back(std::move(round_));
    startRound();
  }

 private:
  void startRound() {
    round_ = {{"actor", nullptr}, {"actions", Json::array()}, {"legal", Json::array()}};
  }
  Json snapshot(const Gains& gains) const {
    Gains statuses{};
    computeStatuses(std::span(gains.data(), n_), std::span(statuses.data(), n_));
    return {{"gains", std::vector<double>(gains.begin(), gains.begin() + n_)},
            {"statuses", std::vector<double>(statuses.begin(), statuses.begin() + n_)}};
  }
  Json& out_;
  int n_;
  Json round_;
};

Json resultJson(const GameRecord& record) {
  Json metrics = Json::object();
  for (const auto& info : allMetrics())
    metrics[std::string(info.key)] = record.metrics[static_cast<size_t>(info.metric)];
  return {{"winner", record.winner >= 0 ? Json(record.winner) : Json(nullptr)},
          {"capped", record.capped},
          {"scores",
           std::vector<double>(record.scores.begin(), record.scores.begin() + record.numPlayers)},
          {"metrics", metrics}};
}

}  // namespace

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
  for (double m : r.metrics) mixDouble(m);
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
  const Gains gains = gainsOf(state);
  tracker.endRound(std::span(gains.data(), static_cast<size_t>(state.numPlayers())));
  return true;
}

GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace, StopToken stop) {
  auto state = game.newGame(streamSeed(seed, Stream::Setup));
  const int n = state->numPlayers();
  Rng nature(streamSeed(seed, Stream::Nature));
  Rng environmentRng(streamSeed(seed, Stream::Environment));
  std::array<Rng, kMaxPlayers> playerRngs;
  for (int p = 0; p < n; ++p) playerRngs[p].reseed(streamSeed(seed, Stream::FirstPlayer, p));

  const Gains initialGains = gainsOf(*state);
  MetricsTracker tracker(std::span(initialGains.data(), n));
  std::optional<TraceBuilder> tracer;
  if (trace) tracer.emplace(*trace, *state);
  std::vector<Action> legal;
  bool roundHadEnvironment = false;
  while (!state->isTerminal()) {
    stop.check();
    const int actor = state->actor();
    Action action;
    if (actor == kEnvironment) {
      action = environment.chooseOutcome(*state, tracker, environmentRng, nature);
      roundHadEnvironment = true;
      legal.clear();
    } else {
      state->legalActions(legal);
      action = players[actor]->chooseAction(*state, legal, playerRngs[actor]);
      if (tracer) tracer->decision(actor, legal.size());
    }
    if (tracer) tracer->action(actor != kEnvironment, action, state->actionToString(action));
    if (applyTracked(*state, tracker, action, static_cast<int>(legal.size()))) {
      if (tracer) tracer->endRound(roundHadEnvironment, gainsOf(*state));
      roundHadEnvironment = false;
    }
  }

  GameRecord record;
  record.seed = seed;
  record.numPlayers = n;
  record.winner = state->winner();
  record.capped = state->capped();
  record.metrics = tracker.values(state->believability());
  for (int p = 0; p < n; ++p) {
    record.scores[p] = state->gain(p);
    record.counters[p] = tracker.counters(p);
  }
  if (trace) (*trace)["result"] = resultJson(record);
  return record;
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
