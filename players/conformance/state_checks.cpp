#include "players/conformance/state_checks.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <utility>

#include "core/match.h"
#include "core/rng.h"
#include "core/state_copy.h"

namespace ddalab::conformance {

namespace {

constexpr int kCloneCheckEvery = 5;  // copies, observations and shortcuts on every 5th node

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

}  // namespace

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

}  // namespace ddalab::conformance
