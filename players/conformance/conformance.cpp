#include "players/conformance/conformance.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "players/conformance/checking.h"
#include "players/conformance/match_checks.h"
#include "players/conformance/state_checks.h"

namespace ddalab {

namespace conformance {

namespace {

constexpr uint64_t kFarSeed = 0x9E3779B97F4A7C15ull;  // a seed with every bit pattern in play

struct Config {
  std::string label;
  Json params;  // validated, complete
};

// Default parameters, plus every other allowed player count when the game has a "players"
// parameter (Ludo: 4 by default, and 2).
std::vector<Config> configsOf(const GameInfo& info) {
  std::vector<Config> configs;
  const Json defaults = validateParams(info.params, Json(), "params");
  configs.push_back({info.id + " (defaults)", defaults});
  for (const auto& spec : info.params) {
    if (spec.name != "players" || spec.type != ParamType::Int) continue;
    std::vector<long long> counts;
    if (!spec.choices.empty()) {
      for (const auto& c : spec.choices) counts.push_back(c.get<long long>());
    } else {
      for (long long k = static_cast<long long>(std::max(1.0, spec.min));
           k <= static_cast<long long>(std::min<double>(spec.max, kMaxPlayers)); ++k)
        counts.push_back(k);
    }
    for (long long k : counts) {
      if (Json(k) == defaults.at("players")) continue;
      Json given = {{"players", k}};
      configs.push_back({info.id + " (players " + std::to_string(k) + ")",
                         validateParams(info.params, given, "params")});
    }
  }
  return configs;
}

// Every check of one configuration.
void checkConfig(const GameInfo& info, const Config& config, const ConformanceOptions& options,
                 Recorder& recorder) {
  const std::string where = config.label + " params " + jsonExcerpt(config.params);
  std::shared_ptr<const Game> game;
  if (!recorder.run(
          Builds, [&] { return where; },
          [&] {
            game = info.make(config.params);
            expect(game != nullptr, "make() to build a game");
            expect(game->numPlayers() >= 1 && game->numPlayers() <= kMaxPlayers,
                   "numPlayers() within 1..kMaxPlayers");
            expect(game->statusScale() > 0.0, "statusScale() > 0");
          }))
    return;
  for (int i = 0; i < options.games; ++i) {
    const uint64_t seed = options.seed + static_cast<uint64_t>(i);
    const auto first = randomPlayout(*game, seed, recorder, where);
    if (!first) continue;
    const auto again = randomPlayout(*game, seed, recorder, where + " (replayed)");
    if (!again) continue;
    recorder.run(
        Replay, [&] { return where + " seed " + std::to_string(seed); },
        [&] {
          expect(again->actions == first->actions, "the same moves from the same seed");
          expect(again->finalText == first->finalText, "the same end from the same seed");
          expect(game->newGame(seed)->toString() == game->newGame(seed)->toString(),
                 "newGame(seed) to deal the same state twice");
        });
  }
  for (const uint64_t seed : {options.seed + 2, options.seed ^ kFarSeed})
    recorder.run(
        Matches, [&] { return where + " seed " + std::to_string(seed); },
        [&] { checkMatch(*game, seed); });
  recorder.run(
      Matches, [&] { return where + " seeds " + std::to_string(options.seed + 2) + ", +1"; },
      [&] { checkSeedsDiffer(*game, options.seed + 2); });
}

}  // namespace

}  // namespace conformance

ConformanceReport checkGame(const GameInfo& info, const ConformanceOptions& options) {
  ConformanceReport report{{}, conformanceChecks()};
  conformance::Recorder recorder(report);
  std::vector<conformance::Config> configs;
  if (!recorder.run(
          conformance::Builds, [&] { return info.id; },
          [&] { configs = conformance::configsOf(info); }))
    return report;
  for (const conformance::Config& config : configs) {
    report.configurations.push_back(config.label);
    conformance::checkConfig(info, config, options, recorder);
  }
  return report;
}

}  // namespace ddalab
