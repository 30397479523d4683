// One randomized conformance test for every registered game (like OpenSpiel's RandomSimTest),
// and the determinism of the match loop. Works for every entry of gameRegistry() unchanged.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "core/match.h"
#include "core/params.h"
#include "core/player.h"
#include "core/rng.h"
#include "core/status.h"
#include "games/registry.h"
#include "players/registry.h"

using namespace ddalab;

namespace {

constexpr int kMaxActions = 10000;  // a playout must end within this many actions
constexpr int kSeedsPerConfig = 24;
constexpr int kCloneCheckEvery = 5;  // clone independence / determinize on every 5th node

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

struct Snapshot {
  std::string text;
  int actor;
  int rounds;
  std::vector<double> gains;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const State& s) {
  Snapshot snap{s.toString(), s.actor(), s.roundsCompleted(), {}};
  for (int p = 0; p < s.numPlayers(); ++p) snap.gains.push_back(s.gain(p));
  return snap;
}

// Picks the next action like a random playout: uniform among legal actions for players, by
// natural probability (core sampleOutcome) at environment nodes.
Action randomAction(const State& s, Rng& rng, std::vector<Action>& legal,
                    std::vector<Outcome>& outcomes) {
  if (s.actor() == kEnvironment) {
    s.outcomes(outcomes);
    return sampleOutcome(outcomes, rng);
  }
  s.legalActions(legal);
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

// Checks every invariant at the current node of `s`.
void checkNode(const State& s, int n, std::vector<Action>& legal, std::vector<Outcome>& outcomes) {
  const int actor = s.actor();
  REQUIRE((actor == kEnvironment || actor == kTerminal || (actor >= 0 && actor < n)));
  CHECK(s.isTerminal() == (actor == kTerminal));
  CHECK(s.isEnvironmentNode() == (actor == kEnvironment));
  s.legalActions(legal);
  s.outcomes(outcomes);
  for (int p = 0; p < n; ++p) REQUIRE(std::isfinite(s.gain(p)));
  if (actor == kTerminal) {
    REQUIRE(legal.empty());
    REQUIRE(outcomes.empty());
    return;
  }
  if (actor == kEnvironment) {
    REQUIRE(legal.empty());
    REQUIRE_FALSE(outcomes.empty());
    double sum = 0;
    std::set<Action> distinct;
    for (const auto& o : outcomes) {
      REQUIRE(o.probability > 0.0);
      sum += o.probability;
      distinct.insert(o.action);
    }
    REQUIRE(sum == Approx(1.0).margin(1e-9));
    REQUIRE(distinct.size() == outcomes.size());
    return;
  }
  REQUIRE_FALSE(legal.empty());
  REQUIRE(outcomes.empty());
  REQUIRE(std::set<Action>(legal.begin(), legal.end()).size() == legal.size());
}

// Applying actions to a clone never changes the original; a clone starts equal to it.
// For the actor of a decision, a determinization keeps what it can see: actor, rounds and its
// legal actions.
void checkCloneIndependence(const State& s, Rng& rng) {
  const Snapshot before = snapshot(s);
  auto copy = s.clone();
  REQUIRE(snapshot(*copy) == before);
  std::vector<Action> legal, legal2;
  std::vector<Outcome> outcomes;
  for (int i = 0; i < 3 && !copy->isTerminal(); ++i)
    copy->apply(randomAction(*copy, rng, legal, outcomes));
  REQUIRE(snapshot(s) == before);
  copy.reset();  // destroying the clone leaves the original intact too
  REQUIRE(snapshot(s) == before);

  if (s.actor() >= 0) {
    Rng detRng(rng.next());
    auto det = s.determinize(s.actor(), detRng, {});
    REQUIRE(snapshot(s) == before);
    CHECK(det->actor() == s.actor());
    CHECK(det->numPlayers() == s.numPlayers());
    CHECK(det->roundsCompleted() == s.roundsCompleted());
    s.legalActions(legal);
    det->legalActions(legal2);
    CHECK(legal2 == legal);
  }
}

// What outcomeMatters(a) = false promises at the decisions after the outcomes of the environment
// node `s`: the copy's values after the action are the same after each of them (the first few
// outcomes: the check is run at many nodes).
void checkOutcomeIndependence(const State& s) {
  std::vector<Outcome> outcomes;
  s.outcomes(outcomes);
  outcomes.resize(std::min<size_t>(outcomes.size(), 4));
  std::vector<std::pair<Action, std::vector<double>>> seen;  // action, values per seat
  for (const Outcome& o : outcomes) {
    auto next = s.clone();
    next->apply(o.action);
    if (next->actor() < 0) continue;
    std::vector<Action> legal;
    next->legalActions(legal);
    for (Action a : legal) {
      if (next->outcomeMatters(a)) continue;
      auto after = next->clone();
      after->apply(a);
      std::vector<double> values;
      for (int p = 0; p < s.numPlayers(); ++p) values.push_back(after->value(p));
      const auto it = std::find_if(seen.begin(), seen.end(), [a](auto& e) { return e.first == a; });
      if (it == seen.end())
        seen.emplace_back(a, values);
      else
        REQUIRE(it->second == values);
    }
  }
}

// A copy of a state that prepared for copies is the state and plays on like it.
void checkPrepareCopies(const State& s, Rng& rng) {
  auto prepared = s.clone();
  prepared->prepareCopies();
  auto copy = prepared->clone();
  auto plain = s.clone();
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  REQUIRE(snapshot(*copy) == snapshot(*plain));
  for (int i = 0; i < 3 && !plain->isTerminal(); ++i) {
    const Action a = randomAction(*plain, rng, legal, outcomes);
    copy->apply(a);
    plain->apply(a);
    REQUIRE(snapshot(*copy) == snapshot(*plain));
  }
}

// The shortcuts the engine and the searches take agree with the long way: a state assigned over
// another position (State::assign through ScratchState) equals a clone and plays on like one;
// gains() equals gain(p); playersCanDropOut() false means nobody is ever out; prepareCopies changes
// no answer; valueAfter, valueAfterEach and valuesAfter (when the game gives them) are exactly a
// copy's value after the action, for every seat; and the values after an action whose outcome does
// not matter are the same after every outcome.
void checkShortcuts(const State& s, const State& elsewhere, Rng& rng) {
  ScratchState scratch;
  scratch.copyOf(elsewhere);
  State& assigned = scratch.copyOf(s);
  REQUIRE(snapshot(assigned) == snapshot(s));
  auto cloned = s.clone();
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (int i = 0; i < 3 && !cloned->isTerminal(); ++i) {
    const Action a = randomAction(*cloned, rng, legal, outcomes);
    cloned->apply(a);
    assigned.apply(a);
    REQUIRE(snapshot(assigned) == snapshot(*cloned));
  }
  const auto n = static_cast<size_t>(s.numPlayers());
  Gains gains{};
  s.gains(std::span(gains.data(), n));
  for (int p = 0; p < s.numPlayers(); ++p) {
    REQUIRE(gains[static_cast<size_t>(p)] == s.gain(p));
    if (!s.playersCanDropOut()) REQUIRE_FALSE(s.isOut(p));
  }
  checkPrepareCopies(s, rng);
  if (s.isEnvironmentNode()) checkOutcomeIndependence(s);
  if (s.actor() < 0) return;
  s.legalActions(legal);
  std::vector<double> each(legal.size());
  for (const Action a : legal) {
    auto after = s.clone();
    after->apply(a);
    // Every player wanted, then each alone: the wanted entries are the copy's, the others
    // untouched.
    for (int alone = -1; alone < s.numPlayers(); ++alone) {
      const unsigned wanted = alone < 0 ? (1u << n) - 1 : 1u << alone;
      Gains values;
      values.fill(-12345.0);
      if (!s.valuesAfter(a, wanted, std::span(values.data(), n))) break;
      for (int p = 0; p < s.numPlayers(); ++p)
        REQUIRE(values[static_cast<size_t>(p)] ==
                ((wanted >> p) & 1u ? after->value(p) : -12345.0));
    }
  }
  for (int p = 0; p < s.numPlayers(); ++p) {
    const bool all = s.valueAfterEach(legal, p, each);
    for (size_t i = 0; i < legal.size(); ++i) {
      auto after = s.clone();
      after->apply(legal[i]);
      if (const std::optional<double> value = s.valueAfter(legal[i], p))
        REQUIRE(*value == after->value(p));
      if (all) REQUIRE(each[i] == after->value(p));
    }
  }
}

struct Playout {
  std::vector<Action> actions;
  std::string finalText;
};

// What each seat may know is well defined: the same for a copy of the state, and for a game
// without hidden information everything (every seat sees the state, every outcome and the
// gains); the end of a game makes the gains public, so the final metrics can be shown.
void checkObservations(const Game& game, const State& s) {
  const auto copy = s.clone();
  for (int p = 0; p < s.numPlayers(); ++p) {
    REQUIRE(s.observationString(p) == copy->observationString(p));
    REQUIRE_FALSE(s.observationString(p).empty());
    if (!game.hasHiddenInformation()) {
      REQUIRE(s.observationString(p) == s.toString());
      if (s.isEnvironmentNode()) REQUIRE(s.outcomeVisibleTo(p));
    }
  }
  if (!game.hasHiddenInformation() && s.isEnvironmentNode()) REQUIRE(s.outcomesPublic());
  if (!game.hasHiddenInformation() || s.isTerminal()) REQUIRE(s.gainsPublic());
}

// One random playout from `seed` with every invariant checked along the way.
Playout randomPlayout(const Game& game, uint64_t seed) {
  auto s = game.newGame(seed);
  const int n = s->numPlayers();
  REQUIRE(n == game.numPlayers());
  REQUIRE(n >= 1);
  REQUIRE(n <= kMaxPlayers);
  REQUIRE(s->roundsCompleted() == 0);
  Rng rng(seed * 7919 + 1);
  Rng cloneRng(seed + 17);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  Playout result;
  const auto elsewhere = game.newGame(seed + 1);  // another position to assign over
  while (!s->isTerminal()) {
    REQUIRE(result.actions.size() < static_cast<size_t>(kMaxActions));
    checkNode(*s, n, legal, outcomes);
    if (result.actions.size() % kCloneCheckEvery == 0) {
      checkCloneIndependence(*s, cloneRng);
      checkObservations(game, *s);
      checkShortcuts(*s, *elsewhere, cloneRng);
    }
    const Action a = randomAction(*s, rng, legal, outcomes);
    REQUIRE_FALSE(s->actionToString(a).empty());
    const int roundsBefore = s->roundsCompleted();
    s->apply(a);
    result.actions.push_back(a);
    const int roundsAfter = s->roundsCompleted();
    REQUIRE(roundsAfter >= roundsBefore);
    REQUIRE(roundsAfter <= roundsBefore + 1);
  }
  checkNode(*s, n, legal, outcomes);
  checkObservations(game, *s);
  REQUIRE(s->roundsCompleted() <= kMaxActions);
  REQUIRE(s->winner() >= -1);
  REQUIRE(s->winner() < n);
  REQUIRE(std::isfinite(s->believability()));
  REQUIRE(s->believability() >= 0.0);
  result.finalText = s->toString();
  return result;
}

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

GameRecord play(const Game& game, uint64_t seed, Json* trace = nullptr) {
  std::vector<std::unique_ptr<Player>> players;
  std::vector<Player*> pointers;
  for (int p = 0; p < game.numPlayers(); ++p) {
    players.push_back(makeDefault<std::unique_ptr<Player>>("random", game));
    pointers.push_back(players.back().get());
  }
  auto environment = makeDefault<std::unique_ptr<EnvironmentPlayer>>("e-random", game);
  return playGame(game, pointers, *environment, seed, trace);
}

// Every metric scored again from a trace alone: the legal counts, the environment rounds, the
// gains and (with `useOut`, where the trace has them) who was out of the game.
MetricValues rescore(const Json& trace, double believability, bool useOut) {
  const int n = static_cast<int>(trace["initial"]["gains"].size());
  MetricsTracker tracker(trace["initial"]["gains"].get<std::vector<double>>());
  for (const Json& round : trace["rounds"]) {
    const int actor = round["actor"].is_null() ? 0 : round["actor"].get<int>();
    for (const Json& count : round["legal"]) tracker.onDecision(actor, count.get<int>(), false);
    if (round.at("env").get<bool>()) tracker.onEnvironmentEvent();
    std::array<bool, kMaxPlayers> out{};
    const bool hasOut = useOut && round.contains("out");
    for (int p = 0; hasOut && p < n; ++p) out[static_cast<size_t>(p)] = round["out"][p].get<bool>();
    tracker.endRound(round["gains"].get<std::vector<double>>(),
                     hasOut ? std::span<const bool>(out.data(), static_cast<size_t>(n))
                            : std::span<const bool>());
  }
  return tracker.values(believability);
}

// The unique leader of a round's statuses (the one seat with a positive status), or -1.
int leaderOf(const std::vector<double>& statuses) {
  int leader = -1;
  for (size_t p = 0; p < statuses.size(); ++p)
    if (statuses[p] > 0) leader = static_cast<int>(p);
  return leader;
}

// The normalized entropy of the softmax of the statuses of the seats still in (metrics.md,
// uncertainty), computed directly: |status| <= scale keeps every exponent within [-2, 2].
double roundUncertainty(const std::vector<double>& statuses, const std::vector<bool>& out,
                        double scale) {
  const size_t n = statuses.size();
  const bool allOut = std::find(out.begin(), out.end(), false) == out.end();
  std::vector<double> weights(n, 0.0);
  double total = 0;
  for (size_t p = 0; p < n; ++p)
    if (allOut || !out[p])
      total += weights[p] =
          std::exp(scale > 0 ? statuses[p] / (kUncertaintyTemperature * scale) : 0.0);
  double entropy = 0;
  for (double w : weights)
    if (w > 0) entropy -= w / total * std::log(w / total);
  return entropy / std::log(static_cast<double>(n));
}

// Drama, decisiveness, uncertainty and comeback worked out the long way from the statuses (and
// "out") a trace records, without the tracker: the definitions of metrics.md read literally.
std::array<double, 4> extendedFromTrace(const Json& trace) {
  std::vector<std::vector<double>> s;
  std::vector<std::vector<bool>> out;
  for (const Json& round : trace["rounds"]) {
    s.push_back(round.at("statuses").get<std::vector<double>>());
    out.push_back(round.contains("out") ? round["out"].get<std::vector<bool>>()
                                        : std::vector<bool>(s.back().size(), false));
  }
  if (s.empty() || s.front().size() < 2) return {0, 0, 0, 0};
  const size_t a = s.size();
  double scale = 0, uncertainty = 0;
  for (size_t i = 0; i < a; ++i) {
    for (double x : s[i]) scale = std::max(scale, std::abs(x));  // the largest |status| so far
    uncertainty += roundUncertainty(s[i], out[i], scale) / static_cast<double>(a);
  }
  const int w = leaderOf(s.back());
  if (w < 0) return {0, 0, uncertainty, 0};
  double deficits = 0, trailed = 0, largest = 0;
  for (const auto& st : s)
    if (st[static_cast<size_t>(w)] < 0) {
      deficits -= st[static_cast<size_t>(w)];
      trailed += 1;
      largest = std::max(largest, -st[static_cast<size_t>(w)]);
    }
  size_t first = a;  // the first round (1-based) of w's final unbroken run in the lead
  while (first > 1 && leaderOf(s[first - 2]) == w) --first;
  return {trailed > 0 ? deficits / trailed : 0.0,
          static_cast<double>(a - first + 1) / static_cast<double>(a), uncertainty,
          largest > kComebackThreshold * scale ? 1.0 : 0.0};
}

void requireSameRecord(const GameRecord& a, const GameRecord& b) {
  CHECK(a.iteration == b.iteration);
  CHECK(a.seed == b.seed);
  CHECK(a.numPlayers == b.numPlayers);
  CHECK(a.winner == b.winner);
  CHECK(a.capped == b.capped);
  for (size_t k = 0; k < kBuiltInMetrics; ++k) CHECK(a.metrics[k] == b.metrics[k]);
  for (int p = 0; p < kMaxPlayers; ++p) {
    CHECK(a.scores[p] == b.scores[p]);
    CHECK(a.counters[p].moves == b.counters[p].moves);
    CHECK(a.counters[p].turns == b.counters[p].turns);
    CHECK(a.counters[p].leadRounds == b.counters[p].leadRounds);
  }
}

double metricOf(const GameRecord& r, Metric m) {
  return r.metrics[static_cast<size_t>(m)];
}

}  // namespace

TEST_CASE("conformance: random playouts of every registered game", "[conformance]") {
  REQUIRE_FALSE(gameRegistry().empty());
  for (const GameInfo& info : gameRegistry()) {
    for (const Config& config : configsOf(info)) {
      INFO(config.label << " params " << config.params.dump());
      const auto game = info.make(config.params);
      REQUIRE(game != nullptr);
      REQUIRE(game->statusScale() > 0.0);
      for (uint64_t seed = 1; seed <= kSeedsPerConfig; ++seed) {
        INFO("seed " << seed);
        const Playout first = randomPlayout(*game, seed);
        // Same seed, same game: replaying gives the same actions and the same end.
        const Playout again = randomPlayout(*game, seed);
        REQUIRE(again.actions == first.actions);
        REQUIRE(again.finalText == first.finalText);
        REQUIRE(game->newGame(seed)->toString() == game->newGame(seed)->toString());
      }
    }
  }
}

TEST_CASE("a trace says who was out, and its metrics are scored again from it alone",
          "[conformance][match]") {
  // HexaLines players die; a trace without "out" would count their stale statuses in the lead.
  const auto& info = findById<GameInfo>(gameRegistry(), "hexalines", "game", "");
  const auto game = info.make(validateParams(info.params, Json::object(), "params"));
  int gamesWithOut = 0, differWithoutOut = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Json trace;
    const GameRecord record = play(*game, seed, &trace);
    bool anyOut = false;
    for (const Json& round : trace["rounds"])
      for (const Json& out : round.at("out")) anyOut = anyOut || out.get<bool>();
    gamesWithOut += anyOut;
    const double believability = metricOf(record, Metric::Believability);
    const auto leadChanges = static_cast<size_t>(Metric::LeadChanges);
    CHECK(rescore(trace, believability, true)[leadChanges] ==
          metricOf(record, Metric::LeadChanges));
    differWithoutOut +=
        rescore(trace, believability, false)[leadChanges] != metricOf(record, Metric::LeadChanges);
  }
  CHECK(gamesWithOut > 0);
  CHECK(differWithoutOut > 0);  // the field matters
}

TEST_CASE("playGame is deterministic and writes a complete trace", "[conformance][match]") {
  for (const GameInfo& info : gameRegistry()) {
    for (const Config& config : configsOf(info)) {
      INFO(config.label);
      const auto game = info.make(config.params);
      const int n = game->numPlayers();
      for (uint64_t seed : {3ull, 0x9E3779B97F4A7C15ull}) {
        INFO("seed " << seed);
        Json trace;
        const GameRecord a = play(*game, seed, &trace);
        const GameRecord b = play(*game, seed);
        requireSameRecord(a, b);
        Json trace2;
        play(*game, seed, &trace2);
        CHECK(trace2 == trace);

        CHECK(a.seed == seed);
        CHECK(a.numPlayers == n);
        CHECK(a.winner >= -1);
        CHECK(a.winner < n);
        const int rounds = static_cast<int>(metricOf(a, Metric::Rounds));
        CHECK(rounds > 0);

        // One entry per round, with gains and statuses of every player.
        REQUIRE(trace.contains("rounds"));
        REQUIRE(trace["rounds"].is_array());
        CHECK(static_cast<int>(trace["rounds"].size()) == rounds);
        long long legalSum = 0, decisions = 0, turns = 0;
        for (const Json& round : trace["rounds"]) {
          REQUIRE(round.at("gains").size() == static_cast<size_t>(n));
          REQUIRE(round.at("statuses").size() == static_cast<size_t>(n));
          // Statuses are those of the gains.
          std::vector<double> gains = round.at("gains").get<std::vector<double>>();
          std::vector<double> statuses(gains.size());
          computeStatuses(gains, statuses);
          CHECK(round.at("statuses").get<std::vector<double>>() == statuses);
          if (round.contains("legal"))
            for (const Json& count : round["legal"]) {
              legalSum += count.get<long long>();
              ++decisions;
            }
          if (round.contains("actor") && !round["actor"].is_null()) ++turns;
        }
        // Every metric but believability (the game's own, over the outcomes dealt) is scored again
        // from the trace alone: the legal counts, the environment rounds, the gains and, where a
        // player can drop out, who was out.
        CHECK(trace["initial"].contains("out") == game->newGame(seed)->playersCanDropOut());
        const MetricValues again = rescore(trace, metricOf(a, Metric::Believability), true);
        for (const auto& metric : allMetrics()) {
          INFO(metric.key);
          CHECK(again[static_cast<size_t>(metric.metric)] ==
                Approx(a.metrics[static_cast<size_t>(metric.metric)]).margin(1e-12));
        }
        // The extended metrics once more, the long way from the trace's statuses alone.
        const std::array<double, 4> extended = extendedFromTrace(trace);
        const std::array<Metric, 4> keys = {Metric::Drama, Metric::Decisiveness,
                                            Metric::Uncertainty, Metric::Comeback};
        for (size_t k = 0; k < keys.size(); ++k) {
          INFO(metricInfo(keys[k]).key);
          CHECK(extended[k] == Approx(metricOf(a, keys[k])).margin(1e-12));
        }
        // The final round's gains are the record's scores.
        const auto lastGains = trace["rounds"].back().at("gains").get<std::vector<double>>();
        for (int p = 0; p < n; ++p) CHECK(lastGains[p] == a.scores[p]);
        // Freedom is the mean of the legal counts the trace lists.
        if (decisions > 0)
          CHECK(metricOf(a, Metric::Freedom) ==
                Approx(static_cast<double>(legalSum) / static_cast<double>(decisions)));
        long long counterTurns = 0;
        for (int p = 0; p < n; ++p) counterTurns += a.counters[p].turns;
        CHECK(counterTurns == turns);

        REQUIRE(trace.contains("result"));
        const Json& result = trace["result"];
        CHECK(result.at("capped") == a.capped);
        if (a.winner >= 0)
          CHECK(result.at("winner") == a.winner);
        else
          CHECK(result.at("winner").is_null());
        CHECK(result.at("scores").size() == static_cast<size_t>(n));
        CHECK(result.at("metrics").at("rounds") == rounds);
      }
      // A different seed plays a different game.
      const GameRecord c = play(*game, 3);
      const GameRecord d = play(*game, 4);
      const bool differs = metricOf(c, Metric::Rounds) != metricOf(d, Metric::Rounds) ||
                           c.scores != d.scores || c.winner != d.winner ||
                           metricOf(c, Metric::Believability) != metricOf(d, Metric::Believability);
      CHECK(differs);
    }
  }
}
