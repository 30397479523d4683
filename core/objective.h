#pragma once
// What a fun-seeking environment player pursues (its objective): the thesis's weighted sum of
// the metrics F, or one of the objectives beyond it (docs/objectives.md). An objective is a
// small value chosen per experiment beside the coefficients; its file form is
// `"objective": {"kind": ..., ...}`.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics.h"
#include "core/params.h"

namespace ddalab {

enum class ObjectiveKind { WeightedSum, Target, Constrained, Lexicographic, WinRate };

// A metric the `target` objective aims at: the term -weight * |m - target| / scale.
struct MetricTarget {
  Metric metric = Metric::Rounds;
  double target = 0;
  double weight = 1;
  double scale = 1;
};

// A bound the `constrained` objective keeps: min <= m <= max (either may be absent).
struct MetricBound {
  Metric metric = Metric::Rounds;
  std::optional<double> min, max;

  // How far `value` lies outside the bound (0 inside it).
  double violation(double value) const;
};

// One step of the `lexicographic` objective: outcomes within `tolerance` of the best value of
// `metric` (the highest when `higher`, else the lowest) stay for the next step.
struct LexicographicStep {
  Metric metric = Metric::Rounds;
  double tolerance = 0;
  bool higher = true;
};

// One named part of an objective's value for one continuation (the live panel, --trace-detail).
struct ObjectiveTerm {
  std::string label;  // a metric's key, or what the term is ("believability <= 5", ...)
  double value = 0;
  // Whether it is a summand of the value; else a check that decides before the value (how far
  // the metric lies outside a bound, 0 within it; a lexicographic step's metric value).
  bool summed = true;
};

struct Objective {
  ObjectiveKind kind = ObjectiveKind::WeightedSum;
  // target
  std::vector<MetricTarget> targets;
  bool perRound = true;  // metrics that grow with game length are compared per round
  // constrained
  std::vector<MetricBound> bounds;
  // lexicographic
  std::vector<LexicographicStep> order;
  // win-rate
  int seat = 0;
  double winRate = 0.5;  // the seat's target win probability
  int block = 50;        // games per block; a block steers by the estimate of the blocks before
  // Weight of the steering term: F units per mean lead of the seat's status (docs/objectives.md).
  double strength = 100;
  // The seat's win rate in the experiment's games before this game's block (set per game by
  // the runner; none in the first block, which the weighted sum alone decides).
  std::optional<double> estimate;

  // The value the searches maximize for a continuation followed by `tracker` (its last round
  // closed) whose believability is `believability`: target and win-rate their own value, the
  // others the weighted sum F (constrained and lexicographic filter the root's outcomes first).
  double value(const MetricsTracker& tracker, double believability,
               const FunWeights& weights) const;
  // The parts of value() (and the bounds or steps that decide before it), for the panels.
  std::vector<ObjectiveTerm> terms(const MetricsTracker& tracker, double believability,
                                   const Coefficients& coefficients) const;
  // Whether the root's outcomes are filtered by their settled continuations (allowedOutcomes).
  bool filtersOutcomes() const {
    return kind == ObjectiveKind::Constrained || kind == ObjectiveKind::Lexicographic;
  }
  // Which outcomes (by the metrics of their settled continuations) the search may choose:
  // constrained keeps those within every bound (or the least violating when none is), the
  // lexicographic order those that survive its steps; the others keep every outcome.
  std::vector<bool> allowedOutcomes(std::span<const MetricValues> settled) const;
  // Sum of how far `values` lie outside the bounds (constrained; 0 for the other kinds).
  double violation(const MetricValues& values) const;
  // Whether the objective, or F with `coefficients`, weighs any of the extended metrics (a search
  // that weighs none need not track them: MetricsTracker::dropExtended).
  bool weighsExtended(const Coefficients& coefficients) const;
};

// What the parser and the GUI's settings dialog know of a kind.
struct ObjectiveKindInfo {
  ObjectiveKind kind;
  std::string key;  // in files ("weighted-sum", "target", ...)
  std::string description;
  std::vector<ParamSpec> params;  // its scalar keys
  std::string table;              // its per-metric key ("targets", "bounds", "order"; "" none)
};
// Every kind, in the order of ObjectiveKind.
std::span<const ObjectiveKindInfo> objectiveKinds();
const ObjectiveKindInfo& objectiveKindInfo(ObjectiveKind kind);

// The default objective (the weighted sum), for callers that name none.
const Objective& weightedSum();

// The key of a kind in files ("weighted-sum", "target", ...).
std::string_view objectiveKindKey(ObjectiveKind kind);
// Whether the target objective compares `metric` per round (it grows with game length).
bool growsWithLength(Metric metric);

// Reads an objective from its file form at JSON path `path` for a game of `players` seats;
// throws InputError naming the key and what was expected.
Objective parseObjective(const Json& node, const std::string& path, int players);
// The file form of `objective` (its keys in the order the docs list them).
Json objectiveJson(const Objective& objective);
// One line describing it ("target: lead_changes 0.3/round, tension 2"), for panels and tables.
std::string describeObjective(const Objective& objective);

}  // namespace ddalab
