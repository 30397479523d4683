#include "experiments/conformance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>

#include "core/params.h"
#include "core/player.h"
#include "core/rng.h"
#include "core/state_copy.h"
#include "core/status.h"
#include "players/registry.h"

namespace ddalab {

namespace {

constexpr int kMaxActions = 10000;   // a playout and a match must end within this many actions
constexpr int kCloneCheckEvery = 5;  // copies, observations and shortcuts on every 5th node
constexpr uint64_t kFarSeed = 0x9E3779B97F4A7C15ull;  // a seed with every bit pattern in play

enum Check : size_t { Builds, Nodes, Replay, Copies, Observations, Shortcuts, Matches, kChecks };

constexpr std::array<std::array<const char*, 2>, kChecks> kCheckText = {{
    {"builds", "every configuration builds a game with 1..kMaxPlayers seats, statusScale > 0"},
    {"nodes",
     "actors, legal actions, outcomes (probabilities > 0 summing to 1), finite gains, "
     "rounds, action strings, the end within 10000 actions"},
    {"replay", "the same seed deals the same game and plays the same moves to the same end"},
    {"copies",
     "a clone is the state and independent of it, destroying it leaves the original, "
     "determinize keeps what the actor sees"},
    {"observations", "what each seat sees; without hidden information, everything"},
    {"shortcuts",
     "assign, gains(), playersCanDropOut, prepareCopies, valueAfter, "
     "valueAfterEach, valuesAfter and outcomeMatters agree with the long way"},
    {"match",
     "playGame accepts what the game returns, ends within 10000 actions, is deterministic, its "
     "trace is complete and every metric is scored again from it; other seeds play other games"},
}};

// A failed expectation: what was expected, in words.
struct Failed {
  std::string what;
};

[[noreturn]] void fail(std::string what) {
  throw Failed{std::move(what)};
}

void expect(bool condition, const char* what) {
  if (!condition) fail(what);
}

// Catch2's Approx, which the checks used before they moved here: within `margin`, or within
// 100 float epsilons of the expected value.
bool approx(double actual, double expected, double margin = 0.0) {
  const double difference = std::abs(actual - expected);
  return difference <= margin ||
         difference <= std::numeric_limits<float>::epsilon() * 100 *
                           (std::isinf(expected) ? 0.0 : std::abs(expected));
}

// The checks' tallies, and where the playouts are (for the first failure's words).
class Recorder {
 public:
  explicit Recorder(ConformanceReport& report) : report_(report) {}

  // Runs `body` as one run of `check`; records a failure (or anything thrown) with `where`.
  // Returns whether it passed.
  bool run(Check check, const std::function<std::string()>& where,
           const std::function<void()>& body) {
    ConformanceCheck& tally = report_.checks[check];
    ++tally.runs;
    std::string why;
    try {
      body();
      return true;
    } catch (const Failed& failed) {
      why = "expected " + failed.what;
    } catch (const GameContractError& e) {  // the match loop's checks: "expected ..." already
      why = e.what();
    } catch (const std::exception& e) {
      why = std::string("threw: ") + e.what();
    } catch (...) {
      why = "threw something that is no std::exception";
    }
    if (tally.failures++ == 0) tally.firstFailure = where() + ": " + textExcerpt(why, 400);
    return false;
  }

 private:
  ConformanceReport& report_;
};

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
    expect(!outcomes.empty(), "outcomes at an environment node");
    return sampleOutcome(outcomes, rng);
  }
  s.legalActions(legal);
  expect(!legal.empty(), "legal actions at a decision");
  return legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

// Checks every invariant at the current node of `s`.
// The checks the match loop makes too (core/match.h) are its: one wording for both.
void checkNode(const State& s, int n, std::vector<Action>& legal, std::vector<Outcome>& outcomes) {
  const int actor = s.actor();
  checkActor(s, actor, n);
  expect(s.isTerminal() == (actor == kTerminal), "isTerminal() == (actor() == kTerminal)");
  expect(s.isEnvironmentNode() == (actor == kEnvironment),
         "isEnvironmentNode() == (actor() == kEnvironment)");
  s.legalActions(legal);
  s.outcomes(outcomes);
  for (int p = 0; p < n; ++p) expect(std::isfinite(s.gain(p)), "finite gains");
  if (actor == kTerminal) {
    expect(legal.empty(), "no legal actions at the end");
    expect(outcomes.empty(), "no outcomes at the end");
    return;
  }
  if (actor == kEnvironment) {
    expect(legal.empty(), "no legal actions at an environment node");
    checkOutcomes(s, outcomes);
    std::set<Action> distinct;
    for (const auto& o : outcomes) distinct.insert(o.action);
    expect(distinct.size() == outcomes.size(), "distinct outcome actions");
    return;
  }
  checkLegalActions(s, legal);
  expect(outcomes.empty(), "no outcomes at a decision");
  expect(std::set<Action>(legal.begin(), legal.end()).size() == legal.size(),
         "distinct legal actions");
}

// Applying actions to a clone never changes the original; a clone starts equal to it.
// For the actor of a decision, a determinization keeps what it can see: actor, rounds and its
// legal actions.
void checkCloneIndependence(const State& s, Rng& rng) {
  const Snapshot before = snapshot(s);
  auto copy = s.clone();
  expect(snapshot(*copy) == before, "a clone equal to the state (text, actor, rounds, gains)");
  std::vector<Action> legal, legal2;
  std::vector<Outcome> outcomes;
  for (int i = 0; i < 3 && !copy->isTerminal(); ++i)
    copy->apply(randomAction(*copy, rng, legal, outcomes));
  expect(snapshot(s) == before, "the original unchanged by moves on its clone");
  copy.reset();
  expect(snapshot(s) == before, "the original unchanged when its clone is destroyed");

  if (s.actor() >= 0) {
    Rng detRng(rng.next());
    auto det = s.determinize(s.actor(), detRng, {});
    expect(snapshot(s) == before, "the original unchanged by determinize");
    expect(det->actor() == s.actor(), "a determinization with the same actor");
    expect(det->numPlayers() == s.numPlayers(), "a determinization with the same seats");
    expect(det->roundsCompleted() == s.roundsCompleted(), "a determinization with the same rounds");
    s.legalActions(legal);
    det->legalActions(legal2);
    expect(legal2 == legal, "a determinization with the actor's legal actions");
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
        expect(it->second == values,
               "the same values after an action whose outcome does not matter (outcomeMatters "
               "false), whatever the outcome");
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
  expect(snapshot(*copy) == snapshot(*plain), "a copy after prepareCopies equal to a plain one");
  for (int i = 0; i < 3 && !plain->isTerminal(); ++i) {
    const Action a = randomAction(*plain, rng, legal, outcomes);
    copy->apply(a);
    plain->apply(a);
    expect(snapshot(*copy) == snapshot(*plain),
           "a copy after prepareCopies to play on like a plain one");
  }
}

// valuesAfter, every player wanted and then each alone: the wanted entries are a copy's values
// after the action, the others untouched.
void checkValuesAfter(const State& s, Action a) {
  const auto n = static_cast<size_t>(s.numPlayers());
  auto after = s.clone();
  after->apply(a);
  for (int alone = -1; alone < s.numPlayers(); ++alone) {
    const unsigned wanted = alone < 0 ? (1u << n) - 1 : 1u << alone;
    Gains values;
    values.fill(-12345.0);
    if (!s.valuesAfter(a, wanted, std::span(values.data(), n))) break;
    for (int p = 0; p < s.numPlayers(); ++p)
      expect(values[static_cast<size_t>(p)] == ((wanted >> p) & 1u ? after->value(p) : -12345.0),
             "valuesAfter to give a copy's value(p) after the action for the wanted seats, "
             "nothing for the others");
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
  expect(snapshot(assigned) == snapshot(s), "a state assigned over another position equal to it");
  auto cloned = s.clone();
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  for (int i = 0; i < 3 && !cloned->isTerminal(); ++i) {
    const Action a = randomAction(*cloned, rng, legal, outcomes);
    cloned->apply(a);
    assigned.apply(a);
    expect(snapshot(assigned) == snapshot(*cloned), "an assigned state to play on like a clone");
  }
  const auto n = static_cast<size_t>(s.numPlayers());
  Gains gains{};
  s.gains(std::span(gains.data(), n));
  for (int p = 0; p < s.numPlayers(); ++p) {
    expect(gains[static_cast<size_t>(p)] == s.gain(p), "gains() to equal gain(p) for every seat");
    if (!s.playersCanDropOut()) expect(!s.isOut(p), "nobody out when playersCanDropOut() is false");
  }
  checkPrepareCopies(s, rng);
  if (s.isEnvironmentNode()) checkOutcomeIndependence(s);
  if (s.actor() < 0) return;
  s.legalActions(legal);
  for (const Action a : legal) checkValuesAfter(s, a);
  std::vector<double> each(legal.size());
  for (int p = 0; p < s.numPlayers(); ++p) {
    const bool all = s.valueAfterEach(legal, p, each);
    for (size_t i = 0; i < legal.size(); ++i) {
      auto after = s.clone();
      after->apply(legal[i]);
      if (const std::optional<double> value = s.valueAfter(legal[i], p))
        expect(*value == after->value(p), "valueAfter to give a copy's value(p) after the action");
      if (all)
        expect(each[i] == after->value(p),
               "valueAfterEach to give a copy's value(p) after each action");
    }
  }
}

// What each seat may know is well defined: the same for a copy of the state, and for a game
// without hidden information everything (every seat sees the state, every outcome and the
// gains); the end of a game makes the gains public, so the final metrics can be shown.
void checkObservations(const Game& game, const State& s) {
  const auto copy = s.clone();
  for (int p = 0; p < s.numPlayers(); ++p) {
    expect(s.observationString(p) == copy->observationString(p),
           "a copy's observationString(p) to be the state's");
    expect(!s.observationString(p).empty(), "a non-empty observationString(p)");
    if (!game.hasHiddenInformation()) {
      expect(s.observationString(p) == s.toString(),
             "observationString(p) == toString() in a game without hidden information");
      if (s.isEnvironmentNode())
        expect(s.outcomeVisibleTo(p), "every outcome visible without hidden information");
    }
  }
  if (!game.hasHiddenInformation() && s.isEnvironmentNode())
    expect(s.outcomesPublic(), "outcomesPublic() without hidden information");
  if (!game.hasHiddenInformation() || s.isTerminal())
    expect(s.gainsPublic(), "gainsPublic() without hidden information and at the end");
}

struct Playout {
  std::vector<Action> actions;
  std::string finalText;
};

// One random playout of `game` from `seed` with every invariant checked along the way;
// nothing when a check failed (the playout stops there).
std::optional<Playout> randomPlayout(const Game& game, uint64_t seed, Recorder& recorder,
                                     const std::string& where) {
  Playout result;
  const auto at = [&] {
    return where + " seed " + std::to_string(seed) + " move " +
           std::to_string(result.actions.size());
  };
  std::unique_ptr<State> s, elsewhere;
  int n = 0;
  if (!recorder.run(Nodes, at, [&] {
        s = game.newGame(seed);
        n = s->numPlayers();
        expect(n == game.numPlayers(), "a state with the game's numPlayers()");
        expect(n >= 1 && n <= kMaxPlayers, "1..kMaxPlayers seats");
        expect(s->roundsCompleted() == 0, "no rounds completed at the start");
        elsewhere = game.newGame(seed + 1);  // another position to assign over
      }))
    return std::nullopt;
  Rng rng(seed * 7919 + 1);
  Rng cloneRng(seed + 17);
  std::vector<Action> legal;
  std::vector<Outcome> outcomes;
  while (!s->isTerminal()) {
    if (!recorder.run(Nodes, at, [&] {
          expect(result.actions.size() < static_cast<size_t>(kMaxActions),
                 "the game to end within 10000 actions");
          checkNode(*s, n, legal, outcomes);
        }))
      return std::nullopt;
    if (result.actions.size() % kCloneCheckEvery == 0 &&
        !(recorder.run(Copies, at, [&] { checkCloneIndependence(*s, cloneRng); }) &&
          recorder.run(Observations, at, [&] { checkObservations(game, *s); }) &&
          recorder.run(Shortcuts, at, [&] { checkShortcuts(*s, *elsewhere, cloneRng); })))
      return std::nullopt;
    if (!recorder.run(Nodes, at, [&] {
          const Action a = randomAction(*s, rng, legal, outcomes);
          expect(!s->actionToString(a).empty(), "a non-empty actionToString");
          const int roundsBefore = s->roundsCompleted();
          s->apply(a);
          result.actions.push_back(a);
          const int roundsAfter = s->roundsCompleted();
          expect(roundsAfter == roundsBefore || roundsAfter == roundsBefore + 1,
                 "a move to complete at most one round, and to undo none");
        }))
      return std::nullopt;
  }
  if (!recorder.run(Nodes, at,
                    [&] {
                      checkNode(*s, n, legal, outcomes);
                      expect(s->roundsCompleted() <= kMaxActions, "at most one round per action");
                      expect(s->winner() >= -1 && s->winner() < n, "winner() -1 or a seat");
                      expect(std::isfinite(s->believability()) && s->believability() >= 0.0,
                             "a finite believability() >= 0");
                    }) ||
      !recorder.run(Observations, at, [&] { checkObservations(game, *s); }))
    return std::nullopt;
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

// drama_trailing, decisiveness_final_lead, uncertainty and comeback worked out the long way from
// the statuses (and "out") a trace records, without the tracker: the definitions of metrics.md read
// literally.
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

// Ludii's drama average, decisiveness threshold and decisiveness moves worked out the long way:
// every state before a round (the initial one, then after each round but the last) compared with
// the winners, the seats topping the last round (a tie: the contenders at status 0).
std::array<double, 3> ludiiFromTrace(const Json& trace) {
  std::vector<std::vector<double>> states;
  states.push_back(trace["initial"].at("statuses").get<std::vector<double>>());
  for (const Json& round : trace["rounds"])
    states.push_back(round.at("statuses").get<std::vector<double>>());
  const std::vector<double> last = states.back();
  states.pop_back();
  const size_t n = last.size(), t = states.size();
  if (n < 2 || t == 0) return {0, 0, 0};
  std::vector<bool> out(n, false);
  if (trace["rounds"].back().contains("out"))
    out = trace["rounds"].back()["out"].get<std::vector<bool>>();
  const bool allOut = std::find(out.begin(), out.end(), false) == out.end();
  std::vector<bool> winner(n, false);
  for (size_t p = 0; p < n; ++p)
    winner[p] = leaderOf(last) >= 0 ? leaderOf(last) == static_cast<int>(p)
                                    : (allOut || !out[p]) && last[p] == 0;
  const auto winners = static_cast<double>(std::count(winner.begin(), winner.end(), true));
  double drama = 0, threshold = -INFINITY;
  for (const auto& s : states) {
    double deficit = 0;
    for (size_t w = 0; w < n; ++w)
      if (winner[w]) deficit += (*std::max_element(s.begin(), s.end()) - s[w]) / winners;
    drama += deficit / static_cast<double>(t);
    for (size_t p = 0; p < n; ++p)
      if (!winner[p]) threshold = std::max(threshold, s[p]);
  }
  if (threshold == -INFINITY) return {drama, 0, 0};
  size_t first = 0;
  auto passes = [&](const std::vector<double>& s) {
    for (size_t w = 0; w < n; ++w)
      if (winner[w] && s[w] > threshold) return true;
    return false;
  };
  while (first < t && !passes(states[first])) ++first;
  return {drama, threshold, static_cast<double>(first) / static_cast<double>(t)};
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

bool ConformanceReport::passed() const {
  return std::all_of(checks.begin(), checks.end(),
                     [](const ConformanceCheck& c) { return c.passed(); });
}

std::vector<ConformanceCheck> conformanceChecks() {
  std::vector<ConformanceCheck> checks;
  for (const auto& [name, summary] : kCheckText) {
    ConformanceCheck& check = checks.emplace_back();
    check.name = name;
    check.summary = summary;
  }
  return checks;
}

ConformanceReport checkGame(const GameInfo& info, const ConformanceOptions& options) {
  ConformanceReport report{{}, conformanceChecks()};
  Recorder recorder(report);
  std::vector<Config> configs;
  if (!recorder.run(
          Builds, [&] { return info.id; }, [&] { configs = configsOf(info); }))
    return report;
  for (const Config& config : configs) {
    report.configurations.push_back(config.label);
    checkConfig(info, config, options, recorder);
  }
  return report;
}

GameRecord playRandomGame(const Game& game, uint64_t seed, Json* trace, uint64_t maxActions) {
  std::vector<std::unique_ptr<Player>> players;
  std::vector<Player*> pointers;
  for (int p = 0; p < game.numPlayers(); ++p) {
    players.push_back(makeDefault<std::unique_ptr<Player>>("random", game));
    pointers.push_back(players.back().get());
  }
  auto environment = makeDefault<std::unique_ptr<EnvironmentPlayer>>("e-random", game);
  return playGame(game, pointers, *environment, seed, trace, {}, nullptr, maxActions);
}

MetricValues metricsFromTrace(const Json& trace, double believability, bool useOut) {
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

}  // namespace ddalab
