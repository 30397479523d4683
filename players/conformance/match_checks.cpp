#include "players/conformance/match_checks.h"

#include <array>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/player.h"
#include "core/status.h"
#include "players/conformance/checking.h"
#include "players/conformance/trace_oracle.h"
#include "players/registry.h"

namespace ddalab {

namespace conformance {

namespace {

// A registered player built with its default parameters.
template <typename Made>
Made makeDefault(const std::string& id, const Game& game) {
  const auto& info = findById<PlayerInfo>(playerRegistry(), id, "player", "");
  const PlayerSetup setup{game, 100, validateParams(info.params, nullptr, id), {}};
  if constexpr (std::is_same_v<Made, std::unique_ptr<Player>>)
    return info.makeRegular(setup);
  else
    return info.makeEnvironment(setup);
}

double metricOf(const GameRecord& r, Metric m) {
  return r.metrics[static_cast<size_t>(m)];
}

void expectSameRecord(const GameRecord& a, const GameRecord& b) {
  bool same = a.iteration == b.iteration && a.seed == b.seed && a.numPlayers == b.numPlayers &&
              a.winner == b.winner && a.capped == b.capped;
  for (size_t k = 0; k < kBuiltInMetrics; ++k) same = same && a.metrics[k] == b.metrics[k];
  for (size_t p = 0; p < static_cast<size_t>(kMaxPlayers); ++p)
    same = same && a.scores[p] == b.scores[p] && a.counters[p].moves == b.counters[p].moves &&
           a.counters[p].turns == b.counters[p].turns &&
           a.counters[p].leadRounds == b.counters[p].leadRounds;
  expect(same, "the same record (winner, metrics, scores, counters) for the same seed");
}

// The trace of `record`'s game has one entry per round with every seat's gains and statuses,
// the statuses of those gains, and the turns the record counts.
void checkTraceRounds(const Json& trace, const GameRecord& record, int n) {
  const int rounds = static_cast<int>(metricOf(record, Metric::Rounds));
  expect(rounds > 0, "at least one round (roundsCompleted counts them)");
  expect(trace.contains("rounds") && trace["rounds"].is_array(), "a trace with \"rounds\"");
  expect(static_cast<int>(trace["rounds"].size()) == rounds, "one trace entry per round");
  long long legalSum = 0, decisions = 0, turns = 0;
  for (const Json& round : trace["rounds"]) {
    expect(round.at("gains").size() == static_cast<size_t>(n) &&
               round.at("statuses").size() == static_cast<size_t>(n),
           "every seat's gains and statuses in each round of the trace");
    std::vector<double> gains = round.at("gains").get<std::vector<double>>();
    std::vector<double> statuses(gains.size());
    // A seat out of the game cannot lead: the statuses are those of the gains and of "out",
    // which games whose seats can drop out record in every round.
    std::array<bool, kMaxPlayers> out{};
    if (round.contains("out"))
      for (size_t p = 0; p < gains.size() && p < out.size(); ++p) out[p] = round["out"].at(p);
    computeStatuses(gains, statuses,
                    round.contains("out") ? std::span<const bool>(out.data(), gains.size())
                                          : std::span<const bool>());
    expect(round.at("statuses").get<std::vector<double>>() == statuses,
           "a trace's statuses to be those of its gains (and of the seats out of the game)");
    if (round.contains("legal"))
      for (const Json& count : round["legal"]) {
        legalSum += count.get<long long>();
        ++decisions;
      }
    if (round.contains("actor") && !round["actor"].is_null()) ++turns;
  }
  if (decisions > 0)
    expect(approx(metricOf(record, Metric::Freedom),
                  static_cast<double>(legalSum) / static_cast<double>(decisions)),
           "freedom to be the mean of the legal counts the trace lists");
  long long counterTurns = 0;
  for (int p = 0; p < n; ++p) counterTurns += record.counters[p].turns;
  expect(counterTurns == turns, "the record's turns to be the trace's");
}

// Every metric but believability (the game's own) is scored again from the trace alone, and the
// extended ones once more the long way from its statuses; the result is the record's.
void checkTraceMetrics(const Game& game, const Json& trace, const GameRecord& record, int n) {
  expect(trace["initial"].contains("out") == game.newGame(record.seed)->playersCanDropOut(),
         "the trace to say who is out exactly when players can drop out");
  const MetricValues again = metricsFromTrace(trace, metricOf(record, Metric::Believability), true);
  for (const auto& metric : allMetrics()) {
    const size_t k = static_cast<size_t>(metric.metric);
    if (!approx(again[k], record.metrics[k], 1e-12))
      fail("metric " + metric.key + " " + std::to_string(record.metrics[k]) +
           " to be scored again from the trace, got " + std::to_string(again[k]));
  }
  const std::array<double, 4> ddalab = extendedFromTrace(trace);
  const std::array<double, 3> ludii = ludiiFromTrace(trace);
  const std::array<double, 7> extended = {ddalab[0], ddalab[1], ddalab[2], ddalab[3],
                                          ludii[0],  ludii[1],  ludii[2]};
  const std::array<Metric, 7> keys = {Metric::DramaTrailing,    Metric::DecisivenessFinalLead,
                                      Metric::Uncertainty,      Metric::Comeback,
                                      Metric::DramaAverage,     Metric::DecisivenessThreshold,
                                      Metric::DecisivenessMoves};
  for (size_t k = 0; k < keys.size(); ++k)
    if (!approx(extended[k], metricOf(record, keys[k]), 1e-12))
      fail("metric " + metricInfo(keys[k]).key +
           " to be its definition worked out from the "
           "trace's statuses");
  const auto lastGains = trace["rounds"].back().at("gains").get<std::vector<double>>();
  for (int p = 0; p < n; ++p)
    expect(lastGains[static_cast<size_t>(p)] == record.scores[static_cast<size_t>(p)],
           "the final round's gains to be the record's scores");
  expect(trace.contains("result"), "a trace with \"result\"");
  const Json& result = trace["result"];
  expect(result.at("capped") == record.capped, "the trace's result to say whether it was capped");
  expect(record.winner >= 0 ? result.at("winner") == record.winner : result.at("winner").is_null(),
         "the trace's winner to be the record's");
  expect(result.at("scores").size() == static_cast<size_t>(n), "the trace's scores of every seat");
  expect(result.at("metrics").at("rounds") == metricOf(record, Metric::Rounds),
         "the trace's rounds to be the record's");
}

}  // namespace

// playGame from `seed`: the same record and trace twice, the trace complete and scored again;
// the match loop ends the game within the playouts' bound.
void checkMatch(const Game& game, uint64_t seed) {
  const int n = game.numPlayers();
  Json trace, trace2;
  const GameRecord a = playRandomGame(game, seed, &trace, kMaxActions);
  expect(!a.cutOff,
         "the game to end within 10000 actions through the match loop (playGame cut "
         "it off there)");
  expectSameRecord(a, playRandomGame(game, seed, nullptr, kMaxActions));
  playRandomGame(game, seed, &trace2, kMaxActions);
  expect(trace2 == trace, "the same trace for the same seed");
  expect(a.seed == seed && a.numPlayers == n, "a record of the seed and the seats played");
  expect(a.winner >= -1 && a.winner < n, "a record's winner -1 or a seat");
  checkTraceRounds(trace, a, n);
  checkTraceMetrics(game, trace, a, n);
}

// Two seeds play two different games.
void checkSeedsDiffer(const Game& game, uint64_t seed) {
  const GameRecord c = playRandomGame(game, seed, nullptr, kMaxActions);
  const GameRecord d = playRandomGame(game, seed + 1, nullptr, kMaxActions);
  expect(metricOf(c, Metric::Rounds) != metricOf(d, Metric::Rounds) || c.scores != d.scores ||
             c.winner != d.winner ||
             metricOf(c, Metric::Believability) != metricOf(d, Metric::Believability),
         "another seed to play another game (rounds, scores, winner or believability)");
}

}  // namespace conformance

GameRecord playRandomGame(const Game& game, uint64_t seed, Json* trace, uint64_t maxActions) {
  std::vector<std::unique_ptr<Player>> players;
  std::vector<Player*> pointers;
  for (int p = 0; p < game.numPlayers(); ++p) {
    players.push_back(conformance::makeDefault<std::unique_ptr<Player>>("random", game));
    pointers.push_back(players.back().get());
  }
  auto environment = conformance::makeDefault<std::unique_ptr<EnvironmentPlayer>>("e-random", game);
  return playGame(game, pointers, *environment, seed, trace, {}, nullptr, maxActions);
}

}  // namespace ddalab
