#include "players/dda/dda.h"

#include <algorithm>
#include <array>

#include "core/status.h"
#include "players/environment/decision_report.h"
#include "players/registry.h"
#include "players/regular/level.h"
#include "players/regular/ranking.h"

namespace ddalab {

double statusOf(const State& state, int p) {
  std::array<double, kMaxPlayers> statuses{};
  statusesOf(state, statuses);
  return statuses[static_cast<size_t>(p)];
}

namespace {

// The regular role: the base scores the legal actions, the rule's level picks the rank under
// the base's level model (base_params.level_model) with the DDA player's own sigma.
class DdaPlayer final : public Player {
 public:
  DdaPlayer(std::unique_ptr<RankingPlayer> base, std::unique_ptr<LevelRule> rule, double sigma)
      : base_(std::move(base)), rule_(std::move(rule)), scaling_(base_->levelScaling()) {
    scaling_.sigma = sigma;
  }

  Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) override {
    if (legal.size() == 1) return legal[0];
    const int level = rule_->nextLevel(statusOf(state, state.actor()), rng);
    scores_.resize(legal.size());
    base_->scoreActions(state, legal, scores_, rng);
    if (scaling_.proposedOnly) base_->proposals(proposed_);
    return legal[pickByLevelModel(state, legal, scores_, proposed_, level, scaling_, rng)];
  }

 private:
  std::unique_ptr<RankingPlayer> base_;
  std::unique_ptr<LevelRule> rule_;
  LevelScaling scaling_;
  std::vector<double> scores_;
  std::vector<uint8_t> proposed_;
};

// The environment role of a one-player game: an opponent of the single player whose own status
// is minus the player's; outcomes are ranked by the game's opponent view.
class DdaEnvironment final : public EnvironmentPlayer {
 public:
  DdaEnvironment(std::unique_ptr<LevelRule> rule, double sigma, const Coefficients& coefficients)
      : rule_(std::move(rule)), sigma_(sigma), coefficients_(coefficients) {}

  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng& own, Rng&) override {
    Action chosen = outcomes[0].action;
    scores_.clear();
    if (outcomes.size() > 1) {
      const int level = rule_->nextLevel(-statusOf(state, 0), own);
      scores_.resize(outcomes.size());
      state.scoreOutcomesAsOpponent(outcomes, scores_);  // supported: checked by the registry
      chosen = outcomes[pickByLevel(scores_, level, sigma_, own)].action;
    }
    if (decision_)
      describeDecision(state, trace, outcomes, coefficients_, chosen, false, scores_, *decision_);
    return chosen;
  }

 private:
  std::unique_ptr<LevelRule> rule_;
  double sigma_;
  Coefficients coefficients_;  // only to describe decisions
  std::vector<double> scores_;
};

// `info` built from `setup` (at level 100: only its scores are used) as a ranking player; null
// when it does not rank actions or cannot be built.
std::unique_ptr<RankingPlayer> buildBase(const PlayerInfo& info, const PlayerSetup& setup) {
  if (!info.ranksActions || !info.canAct(PlayerKind::Regular)) return nullptr;
  try {
    // ranksActions declares the regular player a RankingPlayer.
    return std::unique_ptr<RankingPlayer>(
        static_cast<RankingPlayer*>(info.makeRegular(setup).release()));
  } catch (const std::exception&) {
    return nullptr;
  }
}

// Ids of the registered players that can serve as a base: they rank every legal action. Builds
// each candidate once with its defaults (a DDA player is never one: it ranks nothing, so nested
// bases are not built), so it is only called for an error message.
std::string validBases(const Game& game) {
  std::string valid;
  for (const auto& info : playerRegistry())
    if (buildBase(info, {game, 100, validateParams(info.params, nullptr, "params"), {}}))
      valid += (valid.empty() ? "" : ", ") + info.id;
  return valid;
}

// The registry entry named by params.base; null when there is none.
const PlayerInfo* findBase(const Json& params) {
  const std::string id = params.at("base").get<std::string>();
  for (const auto& info : playerRegistry())
    if (info.id == id) return &info;
  return nullptr;
}

// Why `params` name no usable base for `game` in the regular role; empty when they do.
std::string baseIncompatibility(const Game& game, const Json& params) {
  const std::string id = params.at("base").get<std::string>();
  const PlayerInfo* info = findBase(params);
  if (info && info->adjustsDifficulty)
    return "base '" + id +
           "' is a DDA player, which does not rank actions; valid: " + validBases(game);
  Json baseParams;
  try {
    if (info) baseParams = validateParams(info->params, params.at("base_params"), "base_params");
  } catch (const InputError& error) {
    return "base '" + id + "': " + error.what();
  }
  if (!info || !buildBase(*info, {game, 100, baseParams, {}}))
    return "unknown base '" + id +
           "' (it must rank every legal action); valid: " + validBases(game);
  if (const std::string why = info->whyNot(game, baseParams, PlayerKind::Regular); !why.empty())
    return "base '" + id + "' cannot play this game: " + why;
  return "";
}

// Why a DDA player cannot take `role` in `game`; empty when it can.
std::string ddaIncompatibility(const Game& game, const Json& params, PlayerKind role) {
  if (role == PlayerKind::Regular)
    return game.numPlayers() == 1
               ? "a one-player game has no opponent to adjust to; use it as the environment"
               : baseIncompatibility(game, params);
  if (game.numPlayers() != 1)
    return "as the environment it plays the opponent of a one-player game only";
  constexpr std::array<Outcome, 0> none{};
  return game.newGame(0)->scoreOutcomesAsOpponent(none, {})
             ? ""
             : "the game cannot rank its environment outcomes from an opponent's side";
}

// The base named by setup.params, polling setup.stop in its decisions; throws InputError when
// the registry would have refused it.
std::unique_ptr<RankingPlayer> makeBase(const PlayerSetup& setup) {
  const std::string why = baseIncompatibility(setup.game, setup.params);
  if (!why.empty()) throw InputError("params.base", why);
  const PlayerInfo& info = *findBase(setup.params);
  return buildBase(
      info,
      {setup.game, 100, validateParams(info.params, setup.params.at("base_params"), "base_params"),
       setup.coefficients, setup.stop});
}

// The parameters every DDA player has: the base (and sigma when it is level scaled).
std::vector<ParamSpec> sharedParams(bool levelScaled) {
  std::vector<ParamSpec> params = {
      {"base", ParamType::String, "hillclimber", 0, 0,
       "id of the player that ranks the actions in the regular role (it must rank every legal "
       "action, e.g. hillclimber, hillclimber-is, minimax-is; hexalines-ai on HexaLines)"},
      {"base_params", ParamType::Object, Json::object(), 0, 0,
       "parameters of the base (its defaults for the rest)"},
  };
  if (levelScaled) params.push_back(sigmaParam());  // the level model is the base's
  return params;
}

}  // namespace

PlayerInfo ddaPlayerInfo(DdaSpec spec) {
  for (auto& param : sharedParams(spec.levelScaled)) spec.params.push_back(std::move(param));
  const auto sigmaOf = [levelScaled = spec.levelScaled](const Json& params) {
    return levelScaled ? params.at("sigma").get<double>() : 0.0;
  };
  return {.id = spec.id,
          .kind = PlayerKind::Regular,
          .description = spec.description,
          .params = spec.params,
          .incompatibility = ddaIncompatibility,
          .makeRegular =
              [makeRule = spec.makeRule, sigmaOf](const PlayerSetup& setup) {
                return std::unique_ptr<Player>(std::make_unique<DdaPlayer>(
                    makeBase(setup), makeRule(setup), sigmaOf(setup.params)));
              },
          .makeEnvironment =
              [makeRule = spec.makeRule, sigmaOf](const PlayerSetup& setup) {
                return std::unique_ptr<EnvironmentPlayer>(std::make_unique<DdaEnvironment>(
                    makeRule(setup), sigmaOf(setup.params), setup.coefficients));
              },
          .adjustsDifficulty = true};
}

}  // namespace ddalab
