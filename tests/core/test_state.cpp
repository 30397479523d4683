// Shortcuts decide exactly as the long way: every searching player, run on a game whose shortcuts
// (State::valueAfter, State::valueAfterEach, State::valuesAfter) are hidden, plays the same games
// with the same described decisions; e-montecarlo chooses the same whether it keeps lines at its
// tree's nodes or replays every descent from the root.
#include <catch2/catch.hpp>

#include "core/match.h"
#include "games/registry.h"
#include "players/registry.h"

using namespace ddalab;

namespace {

// A game's state with its shortcuts hidden: valueAfter, valueAfterEach and valuesAfter answer
// "cannot", so the searches copy and apply where the game would tell them a value, and
// prepareCopies does nothing; everything else is the game's.
class LongWayState final : public State {
 public:
  explicit LongWayState(std::unique_ptr<State> inner) : inner_(std::move(inner)) {}
  std::unique_ptr<State> clone() const override {
    return std::make_unique<LongWayState>(inner_->clone());
  }
  bool assign(const State& other) override {
    const auto* same = dynamic_cast<const LongWayState*>(&other);
    if (same == nullptr) return false;
    if (!inner_->assign(*same->inner_)) inner_ = same->inner_->clone();
    return true;
  }
  int numPlayers() const override { return inner_->numPlayers(); }
  int actor() const override { return inner_->actor(); }
  void legalActions(std::vector<Action>& out) const override { inner_->legalActions(out); }
  void outcomes(std::vector<Outcome>& out) const override { inner_->outcomes(out); }
  void apply(Action action) override { inner_->apply(action); }
  int winner() const override { return inner_->winner(); }
  bool capped() const override { return inner_->capped(); }
  double gain(int p) const override { return inner_->gain(p); }
  void gains(std::span<double> gains) const override { inner_->gains(gains); }
  double value(int p) const override { return inner_->value(p); }
  bool outcomeMatters(Action action) const override { return inner_->outcomeMatters(action); }
  int roundsCompleted() const override { return inner_->roundsCompleted(); }
  double believability() const override { return inner_->believability(); }
  bool isPass(Action action) const override { return inner_->isPass(action); }
  Action actionGroup(Action action) const override { return inner_->actionGroup(action); }
  std::string actionToString(Action action) const override {
    return inner_->actionToString(action);
  }
  std::string toString() const override { return inner_->toString(); }
  std::string observationString(int player) const override {
    return inner_->observationString(player);
  }
  bool outcomeVisibleTo(int player) const override { return inner_->outcomeVisibleTo(player); }
  bool outcomesPublic() const override { return inner_->outcomesPublic(); }
  std::string hiddenOutcomeString() const override { return inner_->hiddenOutcomeString(); }
  bool gainsPublic() const override { return inner_->gainsPublic(); }
  std::unique_ptr<State> determinize(int player, Rng& rng,
                                     std::span<const double> kindWeights) const override {
    return std::make_unique<LongWayState>(inner_->determinize(player, rng, kindWeights));
  }
  bool scoreOutcomesAsOpponent(std::span<const Outcome> outcomes,
                               std::span<double> scores) const override {
    return inner_->scoreOutcomesAsOpponent(outcomes, scores);
  }
  bool isOut(int p) const override { return inner_->isOut(p); }
  bool playersCanDropOut() const override { return inner_->playersCanDropOut(); }
  int chanceRecipient() const override { return inner_->chanceRecipient(); }

 private:
  std::unique_ptr<State> inner_;
};

// The games of `game` dealt as LongWayStates.
class LongWayGame final : public Game {
 public:
  explicit LongWayGame(std::shared_ptr<const Game> game) : game_(std::move(game)) {}
  int numPlayers() const override { return game_->numPlayers(); }
  std::unique_ptr<State> newGame(uint64_t setupSeed) const override {
    return std::make_unique<LongWayState>(game_->newGame(setupSeed));
  }
  double statusScale() const override { return game_->statusScale(); }
  bool hasHiddenInformation() const override { return game_->hasHiddenInformation(); }

 private:
  std::shared_ptr<const Game> game_;
};

// The trace of the game of `game` dealt from `seed`, every environment decision described: each
// seat played by `regular`, the environment by `environment` with `params`.
std::string describedGame(const Game& game, const std::string& regular,
                          const std::string& environment, const Json& params, uint64_t seed) {
  Coefficients coefficients{};
  for (auto [metric, c] : {std::pair{Metric::Believability, 100.0},
                           {Metric::Tension, 10.0},
                           {Metric::LeadingTime, 10.0},
                           {Metric::Lead, 3.0},
                           {Metric::Freedom, 1.0}})
    coefficients[static_cast<size_t>(metric)] = c;
  const auto& rInfo = findById<PlayerInfo>(playerRegistry(), regular, "player", "");
  std::vector<std::unique_ptr<Player>> owned;
  std::vector<Player*> seats;
  for (int p = 0; p < game.numPlayers(); ++p) {
    owned.push_back(rInfo.makeRegular({game, 100, validateParams(rInfo.params, nullptr, "r"), {}}));
    seats.push_back(owned.back().get());
  }
  const auto& eInfo = findById<PlayerInfo>(playerRegistry(), environment, "player", "");
  const auto env =
      eInfo.makeEnvironment({game, 100, validateParams(eInfo.params, params, "e"), coefficients});
  Json trace;
  playGame(game, seats, *env, seed, &trace, {}, &coefficients);
  return trace.dump();
}

}  // namespace

TEST_CASE("the searches decide on the games' shortcuts exactly as the long way", "[shortcuts]") {
  struct Case {
    std::string game;
    Json params;  // short games
    std::string regular;
  };
  const Case cases[] = {
      {"ludo", {{"players", 2}, {"max_rounds", 60}}, "hillclimber"},
      {"ludo", {{"players", 4}, {"max_rounds", 40}}, "maxn"},
      {"lost-cities", {{"max_rounds", 40}}, "hillclimber"},
      {"maze", {{"width", 15}, {"height", 15}, {"bombs", 2}, {"max_steps", 60}}, "hillclimber"}};
  const std::pair<std::string, Json> environments[] = {
      {"e-hillclimber", Json::object()},
      {"e-maxmax", {{"depth", 2}}},
      {"e-maxn", Json::object()},
      {"e-maxn", {{"width", 0}, {"chance_width", 3}}},
      {"e-montecarlo", {{"iterations", 30}, {"horizon", 3}}}};
  for (const Case& c : cases) {
    const auto& info = findById<GameInfo>(gameRegistry(), c.game, "game", "");
    const std::shared_ptr<const Game> game = info.make(validateParams(info.params, c.params, "g"));
    const LongWayGame longWay(game);
    for (const auto& [environment, eParams] : environments) {
      const auto& eInfo = findById<PlayerInfo>(playerRegistry(), environment, "player", "");
      if (!eInfo.whyNot(*game, validateParams(eInfo.params, eParams, "e"), PlayerKind::Environment)
               .empty())
        continue;  // the Maze has no E-Max^n: one player
      INFO(c.game << " " << c.params.dump() << " " << c.regular << " " << environment << " "
                  << eParams.dump());
      for (uint64_t seed : {1, 2}) {
        const std::string shortcuts = describedGame(*game, c.regular, environment, eParams, seed);
        CHECK(shortcuts == describedGame(longWay, c.regular, environment, eParams, seed));
      }
    }
  }
}

TEST_CASE("e-montecarlo chooses the same with its tree's lines kept or replayed", "[shortcuts]") {
  const std::pair<std::string, Json> games[] = {
      {"ludo", {{"players", 2}, {"max_rounds", 60}}},
      {"lost-cities", {{"max_rounds", 40}}},
      {"maze", {{"width", 15}, {"height", 15}, {"bombs", 2}, {"max_steps", 60}}}};
  for (const auto& [id, params] : games) {
    const auto& info = findById<GameInfo>(gameRegistry(), id, "game", "");
    const auto game = info.make(validateParams(info.params, params, "g"));
    for (uint64_t seed : {1, 2}) {
      INFO(id << " seed " << seed);
      const auto withKept = [](int lines) {
        return Json{{"iterations", 60}, {"horizon", 4}, {"kept_lines", lines}};
      };
      const std::string replayed =
          describedGame(*game, "hillclimber", "e-montecarlo", withKept(0), seed);
      CHECK(describedGame(*game, "hillclimber", "e-montecarlo", withKept(1024), seed) == replayed);
      // A budget smaller than the tree keeps the first nodes' lines only.
      CHECK(describedGame(*game, "hillclimber", "e-montecarlo", withKept(5), seed) == replayed);
    }
  }
}
