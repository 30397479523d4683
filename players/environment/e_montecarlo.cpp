// `e-montecarlo`: UCT over the environment's decisions only; regular players play the opponent
// model's replies (value-greedy by default) in between, rollouts let nature draw, and a line is
// rewarded by its fun score F (bounded by Line::fun, so sums over any number of descents stay
// finite). Every descent and every rollout outcome polls the run's stop token, so 10^7 descents
// give up within milliseconds when the run stops. The tree stops growing at kMaxTreeNodes (far
// beyond the default budget): later descents that reach an unexpanded node roll out from it, so the
// largest budgets cannot exhaust memory. With a random opponent model the tree is open loop: the
// same outcomes can lead to different states, so a descent whose stored outcome is not legal where
// it arrives rolls out from there.
#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>

#include "core/registry.h"
#include "players/environment/opponent_model.h"
#include "players/environment/settling.h"
#include "players/environment/simulating_environment.h"
#include "players/search/greedy.h"

namespace ddalab {

namespace {

// Nodes the tree may hold: 2^24 nodes of 24 bytes, 400 MB (10^7 descents on Lost Cities, with up
// to 44 outcomes per expansion, would otherwise ask for about 10 GB).
constexpr size_t kMaxTreeNodes = size_t{1} << 24;

// Only the first nodes of a tree created may keep a line (Budget::keptLines), so the index of the
// kept lines stays small for any budget.
constexpr size_t kMaxKeptNodes = size_t{1} << 16;

// One environment decision of the tree, children stored contiguously in the flat node vector.
struct Node {
  Action outcome = 0;   // the outcome that led here
  int firstChild = -1;  // -1: not expanded yet (or no environment decision before the horizon)
  int children = 0;     // one per outcome of the environment decision
  int visits = 0;
  double funSum = 0;  // raw F; normalized when compared (min-max is linear, so means commute)
};

struct Budget {
  int iterations;
  int horizon;
  double c;
  bool mostVisited;  // the final choice: most visited root child (else the best mean F)
  // Lines a decision keeps at the first nodes it reaches (a deterministic model): descents start
  // there instead of replaying their path from the root. The same choices for any number.
  size_t keptLines;
};

class EMonteCarlo final : public SimulatingEnvironment {
 public:
  EMonteCarlo(const PlayerSetup& setup, const Budget& budget)
      : SimulatingEnvironment(setup), budget_(budget) {}

 protected:
  Action searchOutcomes(const State& state, const MetricsTracker& trace,
                        std::span<const Outcome> outcomes, Rng& own) override {
    nodes_.assign(1, Node{});
    keptOf_.assign(1, -1);
    keptCount_ = 0;
    expand(0, outcomes);
    minFun_ = INFINITY;
    maxFun_ = -INFINITY;
    const int roundLimit = trace.rounds() + budget_.horizon;
    for (int i = 0; i < budget_.iterations; ++i) {
      checkStop();
      iterate(state, trace, roundLimit, own);
    }
    rootMeans_.clear();  // the mean F of the descents through each outcome, for descriptions
    for (int c = nodes_[0].firstChild; c < nodes_[0].firstChild + nodes_[0].children; ++c)
      rootMeans_.push_back(nodes_[c].visits ? nodes_[c].funSum / nodes_[c].visits : 0.0);
    const int root = budget_.mostVisited ? mostVisitedChild(nodes_[0]) : bestValuedChild(nodes_[0]);
    return nodes_[root].outcome;
  }

  std::span<const double> searchValues() const override { return rootMeans_; }

 private:
  // One descent: select by UCT down the expanded tree, expand the node reached (if the tree has
  // room for its children), roll out from it.
  void iterate(const State& state, const MetricsTracker& trace, int roundLimit, Rng& own) {
    Line& line = model().random() ? descendOpenLoop(state, trace, roundLimit)
                                  : descend(state, trace, roundLimit);
    playRounds(line, roundLimit, nullptr, [&](const Line& at) {
      checkStop();
      at.state->outcomes(outcomes_);
      return sampleOutcome(outcomes_, own);
    });
    backPropagate(line.fun(weights(), objective()));
  }

  // The descent of a deterministic opponent model: the path alone fixes the line, so it starts
  // from the line kept at the deepest node of the path already reached (or the root) and plays
  // only the rest of the path, keeping the lines of the nodes it reaches.
  Line& descend(const State& state, const MetricsTracker& trace, int roundLimit) {
    path_.assign(1, 0);
    for (int node = 0; nodes_[node].firstChild >= 0;)
      path_.push_back(node = selectChild(nodes_[node]));
    size_t from = path_.size() - 1;
    while (from > 0 && keptAt(path_[from]) < 0) --from;
    bool atEnvironment = true;
    if (from == 0) {
      rootLine(state, trace);
    } else {
      const Kept& kept = kept_[static_cast<size_t>(keptAt(path_[from]))];
      *line_ = kept.line;
      atEnvironment = kept.atEnvironment;
    }
    for (size_t i = from + 1; i < path_.size(); ++i) {
      atEnvironment = reach(*line_, path_[i], roundLimit, i == 1);
      keep(path_[i], *line_, atEnvironment);
    }
    if (atEnvironment) expandNew(path_.back(), *line_);
    return *line_;
  }

  // The descent of a random opponent model (open loop): the line is played along the path, and
  // a stored outcome that is not legal where the line arrives ends the descent there.
  Line& descendOpenLoop(const State& state, const MetricsTracker& trace, int roundLimit) {
    Line& line = rootLine(state, trace);
    path_.assign(1, 0);
    int node = 0;
    while (nodes_[node].firstChild >= 0) {
      const int child = selectChild(nodes_[node]);
      if (node > 0 && !reachable(line, roundLimit, nodes_[child].outcome)) break;
      node = child;
      path_.push_back(node);
      if (reach(line, node, roundLimit, path_.size() == 2) && nodes_[node].firstChild < 0) {
        expandNew(node, line);
        break;
      }
    }
    return line;
  }

  // The descent's line reset to the root.
  Line& rootLine(const State& state, const MetricsTracker& trace) {
    if (line_)
      line_->reset(state, trace);
    else
      line_.emplace(state, trace, &model());
    return *line_;
  }

  // Plays `node`'s outcome and the replies after it on `line`; true when the line then stands at
  // an environment node within the horizon.
  bool reach(Line& line, int node, int roundLimit, bool rootChild) {
    line.apply(nodes_[node].outcome, 0);
    // After a root outcome the replies' values are shared with the other root outcomes'.
    return playRepliesToEnvironment(line, roundLimit, rootChild ? &rootMemo() : nullptr);
  }

  // Expands `node`, where `line` stands at an environment node, if it is not yet expanded and the
  // tree has room for its children.
  void expandNew(int node, const Line& line) {
    if (nodes_[node].firstChild >= 0) return;
    line.state->outcomes(outcomes_);
    if (nodes_.size() + outcomes_.size() <= kMaxTreeNodes) expand(node, outcomes_);
  }

  // The index in kept_ of the line kept at `node`, or -1.
  int keptAt(int node) const {
    return static_cast<size_t>(node) < keptOf_.size() ? keptOf_[static_cast<size_t>(node)] : -1;
  }

  // Keeps `line` as the line at `node` while this decision has kept fewer than the budget's.
  void keep(int node, const Line& line, bool atEnvironment) {
    if (keptCount_ >= budget_.keptLines || static_cast<size_t>(node) >= keptOf_.size()) return;
    if (keptCount_ < kept_.size())
      kept_[keptCount_].line = line;  // into the memory of an earlier decision's line
    else
      kept_.push_back({line, atEnvironment});
    kept_[keptCount_].atEnvironment = atEnvironment;
    keptOf_[static_cast<size_t>(node)] = static_cast<int>(keptCount_++);
  }

  // Whether a descent can apply `outcome` to `line`: the line is still within the horizon at an
  // environment node that has this outcome (a random model may end the line elsewhere).
  bool reachable(const Line& line, int roundLimit, Action outcome) {
    if (line.done(roundLimit) || !line.state->isEnvironmentNode()) return false;
    line.state->outcomes(outcomes_);
    return std::any_of(outcomes_.begin(), outcomes_.end(),
                       [outcome](const Outcome& o) { return o.action == outcome; });
  }

  // Appends one child per outcome of `node`; a node is expanded when first reached.
  void expand(int node, std::span<const Outcome> outcomes) {
    nodes_[node].firstChild = static_cast<int>(nodes_.size());
    nodes_[node].children = static_cast<int>(outcomes.size());
    for (const Outcome& o : outcomes) nodes_.push_back(Node{.outcome = o.action});
    keptOf_.resize(std::min(nodes_.size(), kMaxKeptNodes), -1);
  }

  // Unvisited children first (in order), then the best UCT score (ties to the first).
  int selectChild(const Node& parent) const {
    int best = parent.firstChild;
    double bestScore = -INFINITY;
    const double logVisits = std::log(static_cast<double>(std::max(1, parent.visits)));
    for (int i = parent.firstChild; i < parent.firstChild + parent.children; ++i) {
      const Node& child = nodes_[i];
      if (child.visits == 0) return i;
      const double score =
          normalized(child.funSum / child.visits) + budget_.c * std::sqrt(logVisits / child.visits);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return best;
  }

  // F scaled to [0, 1] by the extremes seen in this search (0.5 while they coincide).
  double normalized(double fun) const {
    return maxFun_ > minFun_ ? (fun - minFun_) / (maxFun_ - minFun_) : 0.5;
  }

  void backPropagate(double fun) {
    minFun_ = std::min(minFun_, fun);
    maxFun_ = std::max(maxFun_, fun);
    for (int node : path_) {
      ++nodes_[node].visits;
      nodes_[node].funSum += fun;
    }
  }

  // The root's most visited child; ties to the higher mean F, then to the first.
  int mostVisitedChild(const Node& root) const {
    int best = root.firstChild;
    for (int i = root.firstChild + 1; i < root.firstChild + root.children; ++i) {
      const Node& a = nodes_[i];
      const Node& b = nodes_[best];
      if (a.visits > b.visits ||
          (a.visits == b.visits && a.visits > 0 && a.funSum / a.visits > b.funSum / b.visits))
        best = i;
    }
    return best;
  }

  // The root's child of the best mean F (the thesis's final choice); ties to the more visited,
  // then to the first; an unvisited child (fewer descents than outcomes) never wins.
  int bestValuedChild(const Node& root) const {
    int best = root.firstChild;
    for (int i = root.firstChild + 1; i < root.firstChild + root.children; ++i) {
      const Node& a = nodes_[i];
      const Node& b = nodes_[best];
      if (a.visits == 0) continue;
      const double meanA = a.funSum / a.visits;
      if (b.visits == 0 || meanA > b.funSum / b.visits ||
          (meanA == b.funSum / b.visits && a.visits > b.visits))
        best = i;
    }
    return best;
  }

  Budget budget_;
  std::vector<Node> nodes_;
  std::vector<double> rootMeans_;
  std::vector<int> path_;
  std::vector<Outcome> outcomes_;
  std::optional<Line> line_;  // the line of a descent (reused)
  // The lines kept at the tree's nodes (deterministic models): keptOf_[node] indexes kept_ (-1:
  // none); kept_ keeps its lines' memory from one decision to the next.
  struct Kept {
    Line line;
    bool atEnvironment;  // the line stands at an environment node within the horizon
  };
  std::vector<int> keptOf_;
  std::deque<Kept> kept_;
  size_t keptCount_ = 0;
  double minFun_ = 0;
  double maxFun_ = 0;
};

}  // namespace

PlayerInfo eMonteCarloInfo() {
  auto params = funSeekingParams();
  params.push_back({"iterations", ParamType::Int, 200, 1, 10000000, "descents per decision"});
  params.push_back({"horizon", ParamType::Int, 6, 1, 1000,
                    "rounds simulated from the decision's round on, then F rewards the line"});
  params.push_back({"c", ParamType::Double, 0.7, 0, 100,
                    "UCT exploration constant on F min-max normalized to [0, 1]"});
  // best-value (the thesis's rule) scored at least as well as most-visited in 8 of 9 paired
  // comparisons (score8, docs/study-opponent-model.md).
  params.push_back({"choose",
                    ParamType::String,
                    "best-value",
                    0,
                    0,
                    "the final choice among the root outcomes: best-value (the highest mean fun "
                    "score, ties to the more visited; the thesis's rule) or most-visited (ties to "
                    "the higher mean fun score)",
                    {"best-value", "most-visited"}});
  params.push_back({"kept_lines", ParamType::Int, 1024, 0, 1000000,
                    "lines (a copy of the game and its trace each) kept at the first tree nodes "
                    "reached, so descents need not replay their path from the root; the choices "
                    "are the same for any number (0: replay every descent)"});
  params.push_back(opponentModelParam());
  return {.id = "e-montecarlo",
          .kind = PlayerKind::Environment,
          .description =
              "Monte Carlo tree search over the environment's outcomes, rewarded by "
              "the fun score",
          .params = std::move(params),
          .makeEnvironment =
              [](const PlayerSetup& setup) {
                const Json& p = setup.params;
                const Budget budget{p.at("iterations").get<int>(), p.at("horizon").get<int>(),
                                    p.at("c").get<double>(),
                                    p.at("choose").get<std::string>() == "most-visited",
                                    p.at("kept_lines").get<size_t>()};
                return std::make_unique<EMonteCarlo>(setup, budget);
              },
          .pursuesObjective = true};
}

}  // namespace ddalab
