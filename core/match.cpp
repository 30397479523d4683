#include "core/match.h"

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace ddalab {

namespace {

using Gains = std::array<double, kMaxPlayers>;

Gains gainsOf(const State& state) {
  Gains g{};
  for (int p = 0; p < state.numPlayers(); ++p) g[p] = state.gain(p);
  return g;
}

// Builds the JSON trace of one game round by round (only when a trace is requested).
class TraceBuilder {
 public:
  TraceBuilder(Json& out, const State& state) : out_(out), n_(state.numPlayers()) {
    out_["initial"] = snapshot(gainsOf(state));
    out_["rounds"] = Json::array();
    startRound();
  }
  void action(bool byPlayer, Action a, const std::string& text) {
    round_["actions"].push_back({{"by", byPlayer ? "player" : "environment"}, {"id", a}, {"text", text}});
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
          {"scores", std::vector<double>(record.scores.begin(),
                                         record.scores.begin() + record.numPlayers)},
          {"metrics", metrics}};
}

}  // namespace

GameRecord playGame(const Game& game, std::span<Player* const> players,
                    EnvironmentPlayer& environment, uint64_t seed, Json* trace) {
  auto state = game.newGame(streamSeed(seed, Stream::Setup));
  const int n = state->numPlayers();
  Rng nature(streamSeed(seed, Stream::Nature));
  Rng environmentRng(streamSeed(seed, Stream::Environment));
  std::array<Rng, kMaxPlayers> playerRngs;
  for (int p = 0; p < n; ++p) playerRngs[p].reseed(streamSeed(seed, Stream::FirstPlayer, p));

  Gains gains = gainsOf(*state);
  MetricsTracker tracker(std::span(gains.data(), n));
  std::optional<TraceBuilder> tracer;
  if (trace) tracer.emplace(*trace, *state);
  std::vector<Action> legal;
  bool roundHadEnvironment = false;
  while (!state->isTerminal()) {
    const int actor = state->actor();
    Action action;
    if (actor == kEnvironment) {
      action = environment.chooseOutcome(*state, tracker, environmentRng, nature);
      tracker.onEnvironmentEvent();
      roundHadEnvironment = true;
    } else {
      state->legalActions(legal);
      action = players[actor]->chooseAction(*state, legal, playerRngs[actor]);
      tracker.onDecision(actor, static_cast<int>(legal.size()), state->isPass(action));
      if (tracer) tracer->decision(actor, legal.size());
    }
    if (tracer) tracer->action(actor != kEnvironment, action, state->actionToString(action));
    state->apply(action);
    if (state->roundsCompleted() != tracker.rounds()) {
      gains = gainsOf(*state);
      tracker.endRound(std::span(gains.data(), n));
      if (tracer) tracer->endRound(roundHadEnvironment, gains);
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
