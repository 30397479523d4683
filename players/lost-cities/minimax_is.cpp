// `minimax-is` (thesis 5.2.3, after Vasconcelos): alpha-beta with width pruning on
// inference-weighted determinizations of Lost Cities; root moves are scored by their votes.
// Every determinization and every searched node polls the run's stop token, so the largest
// schedules give up within milliseconds when the run stops. A NaN evaluation (no valid game gives
// one) is never a best move: std::max / std::min and `>` pass over it.
#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include "core/registry.h"
#include "games/lost-cities/lost_cities.h"
#include "players/regular/ranking.h"
#include "players/search/score_order.h"
#include "players/search/tie_breaking.h"

namespace ddalab {

namespace {

using lostcities::LostCitiesState;

struct Schedule {
  int iterations;
  int depth;  // in turns; 1 = the root decision only
};

struct MinimaxISConfig {
  std::array<int, 2> deckThresholds;  // deck >= [0]: stage 0; >= [1]: stage 1; else stage 2
  std::array<Schedule, 3> stages;
  int rootWidth;
  int innerWidth;
  bool inference;
  double discardFactor;
};

class MinimaxIS final : public RankingPlayer {
 public:
  MinimaxIS(int level, const LevelScaling& scaling, const MinimaxISConfig& config, StopToken stop)
      : RankingPlayer(level, scaling), config_(config), stop_(stop) {}

  void scoreActions(const State& state, std::span<const Action> legal, std::span<double> scores,
                    Rng& rng) override {
    const auto& real = dynamic_cast<const LostCitiesState&>(state);
    me_ = state.actor();
    const Schedule schedule = scheduleFor(real.deckSize());
    std::vector<int>& votes = votes_;
    votes.assign(legal.size(), 0);
    std::vector<double> statics(legal.size(), 0.0);
    for (int it = 0; it < schedule.iterations; ++it) {
      stop_.check();
      std::array<double, lostcities::kKinds> weights{};
      if (config_.inference)
        weights = lostcities::inferenceWeights(real, me_, config_.discardFactor);
      const auto world = state.determinize(
          me_, rng,
          config_.inference ? std::span<const double>(weights) : std::span<const double>());
      ++votes[bestRootMove(*world, legal, schedule.depth, statics)];
    }
    rankByVotesThenStatics(votes, statics, scores);
  }

  // Its proposals: the moves that won at least one determinization's vote.
  void proposals(std::vector<uint8_t>& out) const override {
    out.resize(votes_.size());
    for (size_t i = 0; i < votes_.size(); ++i) out[i] = votes_[i] > 0;
  }

 private:
  Schedule scheduleFor(int deckSize) const {
    if (deckSize >= config_.deckThresholds[0]) return config_.stages[0];
    if (deckSize >= config_.deckThresholds[1]) return config_.stages[1];
    return config_.stages[2];
  }

  // value(me) - value(opponent): the evaluation of the search, from the root player's side.
  double evaluate(const State& s) const { return s.value(me_) - s.value(1 - me_); }

  // evaluate of the state `action` leads to from the decision node `node`, without a copy.
  double evaluateAfter(const State& node, Action action) const {
    const auto values = static_cast<const LostCitiesState&>(node).valuesAfter(action);
    return values[static_cast<size_t>(me_)] - values[static_cast<size_t>(1 - me_)];
  }

  // Index into `legal` of the best root move in `world`; adds each move's static evaluation to
  // `statics` (the tie-break of the votes).
  size_t bestRootMove(const State& world, std::span<const Action> legal, int depth,
                      std::vector<double>& statics) {
    Level& lv = level(0);
    rank(world, legal, /*maximizing=*/true, depth > 1 ? config_.rootWidth : 0, lv);
    for (size_t i = 0; i < legal.size(); ++i) statics[i] += lv.evaluation[i];
    double alpha = -INFINITY;
    size_t best = lv.order.front();
    for (const size_t i : lv.order) {
      double v = lv.evaluation[i];
      if (depth > 1) {
        State& child = lv.child.copyOf(world);
        child.apply(legal[i]);
        v = search(child, depth - 1, alpha, INFINITY, 1);
      }
      if (v > alpha) {
        alpha = v;
        best = i;
      }
    }
    return best;
  }

  // Reused buffers of one ply of the search (no allocation once warmed up): a node's children
  // are searched one after another, each copied into the ply's scratch state.
  struct Level {
    std::vector<Action> actions;
    std::vector<double> evaluation;  // of each child, from the root player's side
    std::vector<double> priority;    // from the mover's side: what the mover ranks its moves by
    std::vector<size_t> order;       // the children searched, best first
    ScratchState child;
  };

  Level& level(size_t ply) {
    if (levels_.size() <= ply) levels_.resize(ply + 1);
    return levels_[ply];
  }

  // Evaluates every child of `node` into `lv` and orders the `width` the mover ranks highest
  // (0 = all), best first, ties in the actions' order; `maximizing`: the root player moves.
  void rank(const State& node, std::span<const Action> actions, bool maximizing, int width,
            Level& lv) const {
    evaluateEach(node, actions, lv);
    for (size_t i = 0; i < actions.size(); ++i)
      lv.priority[i] = maximizing ? lv.evaluation[i] : -lv.evaluation[i];
    bestFirst(lv.priority, static_cast<size_t>(width), lv.order);
  }

  // evaluateAfter of every action of `node` into lv.evaluation, both seats' values after all
  // the actions at once where the game can (lv.priority holds the other seat's meanwhile).
  void evaluateEach(const State& node, std::span<const Action> actions, Level& lv) const {
    lv.evaluation.resize(actions.size());
    lv.priority.resize(actions.size());
    if (node.valueAfterEach(actions, me_, lv.evaluation) &&
        node.valueAfterEach(actions, 1 - me_, lv.priority)) {
      for (size_t i = 0; i < actions.size(); ++i) lv.evaluation[i] -= lv.priority[i];
      return;
    }
    for (size_t i = 0; i < actions.size(); ++i) lv.evaluation[i] = evaluateAfter(node, actions[i]);
  }

  // Alpha-beta value (root player's side) of `node` searched `turns` more turns deep; `ply`
  // indexes the scratch buffers.
  double search(const State& node, int turns, double alpha, double beta, size_t ply) {
    stop_.check();
    if (node.isTerminal()) return evaluate(node);
    const bool maximizing = node.actor() == me_;
    Level& lv = level(ply);
    node.legalActions(lv.actions);
    if (turns == 1) return bestLeaf(node, lv.actions, maximizing, alpha, beta);
    rank(node, lv.actions, maximizing, config_.innerWidth, lv);
    double best = maximizing ? -INFINITY : INFINITY;
    for (const size_t i : lv.order) {
      State& child = lv.child.copyOf(node);
      child.apply(lv.actions[i]);
      const double v = search(child, turns - 1, alpha, beta, ply + 1);
      best = maximizing ? std::max(best, v) : std::min(best, v);
      if (maximizing)
        alpha = std::max(alpha, v);
      else
        beta = std::min(beta, v);
      if (alpha >= beta) break;
    }
    return best;
  }

  // The last ply is not width-pruned: every move is evaluated, with alpha-beta cut-offs (one at
  // a time: the cut-offs come early enough that all at once, as `rank` does, costs more).
  double bestLeaf(const State& node, std::span<const Action> legal, bool maximizing, double alpha,
                  double beta) const {
    double best = maximizing ? -INFINITY : INFINITY;
    for (Action a : legal) {
      const double v = evaluateAfter(node, a);
      best = maximizing ? std::max(best, v) : std::min(best, v);
      if (maximizing ? best >= beta : best <= alpha) break;
    }
    return best;
  }

  // Scores are ranks: more votes first, then the summed static evaluation; exact ties stay tied
  // (level scaling orders them randomly). A NaN sum ranks as -inf, so the sort order is strict.
  static void rankByVotesThenStatics(const std::vector<int>& votes,
                                     const std::vector<double>& statics, std::span<double> scores) {
    std::vector<size_t> order(votes.size());
    std::iota(order.begin(), order.end(), size_t{0});
    auto key = [&](size_t i) {
      return std::pair(votes[i], std::isnan(statics[i]) ? -INFINITY : statics[i]);
    };
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    double rank = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      if (k > 0 && key(order[k]) != key(order[k - 1])) ++rank;
      scores[order[k]] = rank;
    }
  }

  MinimaxISConfig config_;
  StopToken stop_;
  int me_ = 0;
  std::vector<int> votes_;    // of the last scoreActions
  std::deque<Level> levels_;  // a deque: growing it keeps references to shallower levels
};

MinimaxISConfig minimaxISConfigFrom(const Json& p) {
  const auto iterations = p.at("iterations").get<std::vector<int>>();
  const auto depths = p.at("depths").get<std::vector<int>>();
  const auto thresholds = p.at("deck_thresholds").get<std::vector<int>>();
  const auto widths = p.at("widths").get<std::vector<int>>();
  MinimaxISConfig c;
  c.deckThresholds = {thresholds[0], thresholds[1]};
  for (size_t i = 0; i < 3; ++i) c.stages[i] = {iterations[i], depths[i]};
  c.rootWidth = widths[0];
  c.innerWidth = widths[1];
  c.inference = p.at("inference").get<bool>();
  c.discardFactor = p.at("discard_factor").get<double>();
  return c;
}

}  // namespace

PlayerInfo minimaxISInfo() {
  return {.id = "minimax-is",
          .kind = PlayerKind::Regular,
          .description =
              "Lost Cities: alpha-beta with width pruning on inference-weighted "
              "determinizations, root moves scored by votes",
          .params = withLevelParams({
              {"iterations",
               ParamType::IntList,
               Json::array({20, 13, 6}),
               1,
               10000,
               "determinizations per decision in the three deck stages (early, middle, late)",
               {},
               3},
              {"depths",
               ParamType::IntList,
               Json::array({2, 3, 4}),
               1,
               10,
               "search depth in turns in the three deck stages (1 = the own move only)",
               {},
               3},
              {"deck_thresholds",
               ParamType::IntList,
               Json::array({30, 15}),
               0,
               60,
               "deck sizes from which the early and the middle stage apply",
               {},
               2},
              {"widths",
               ParamType::IntList,
               Json::array({10, 3}),
               0,
               1000,
               "moves kept at the root and deeper (0 = all); the last ply is never pruned",
               {},
               2},
              {"inference", ParamType::Bool, true, 0, 0,
               "weight the opponent's hand by what its actions reveal (players.md)"},
              {"discard_factor", ParamType::Double, 1.0, 0, 100,
               "inference weight factor of a colour the opponent discards unopened (1 = off)"},
          }),
          .incompatibility =
              [](const Game& game, const Json&, PlayerKind) {
                return dynamic_cast<const lostcities::LostCitiesGame*>(&game)
                           ? std::string()
                           : std::string("minimax-is plays Lost Cities only");
              },
          .makeRegular =
              [](const PlayerSetup& setup) {
                return std::make_unique<MinimaxIS>(setup.level, levelScalingFrom(setup.params),
                                                   minimaxISConfigFrom(setup.params), setup.stop);
              },
          .ranksActions = true,
          .defaultAi = true};
}

}  // namespace ddalab
