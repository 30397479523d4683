#include "players/regular/level.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "players/search/score_order.h"

namespace ddalab {

namespace {

// Up to this many actions a level pick sorts them by insertion in space on the stack.
constexpr size_t kFewActions = 32;

// Sorts `order` by `below`, keeping the order of equal elements: what std::stable_sort gives (a
// stable order is unique), without its buffer on the heap for the few actions of most decisions.
template <typename Below>
void stableSort(std::span<size_t> order, Below below) {
  if (order.size() > kFewActions) return std::stable_sort(order.begin(), order.end(), below);
  for (size_t i = 1; i < order.size(); ++i) {
    const size_t x = order[i];
    size_t j = i;
    for (; j > 0 && below(x, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = x;
  }
}

}  // namespace

size_t pickByLevel(std::span<const double> scores, int level, double sigma, Rng& rng) {
  const size_t m = scores.size();
  if (m <= 1) return 0;
  std::array<size_t, kFewActions> few;
  std::vector<size_t> many(m > kFewActions ? m : 0);
  const std::span<size_t> order = m > kFewActions ? std::span(many) : std::span(few).first(m);
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t i = m - 1; i > 0; --i)
    std::swap(order[i], order[rng.below(static_cast<uint32_t>(i + 1))]);
  stableSort(order, [&scores](size_t a, size_t b) { return scoreBelow(scores[a], scores[b]); });
  const double target = std::clamp(level, 0, 100) / 100.0;
  double x = target;
  if (sigma > 0) {
    do x = target + sigma * rng.normal();
    while (x < 0.0 || x > 1.0);
  }
  return order[static_cast<size_t>(std::lround(x * static_cast<double>(m - 1)))];
}

namespace {

constexpr const char* kModelNames[] = {"actions", "groups", "states"};

// One candidate per key: the best-scored index into `legal` with that key (the first on ties).
template <typename Key, typename KeyOf>
std::vector<size_t> bestPerKey(std::span<const double> scores, KeyOf keyOf) {
  std::map<Key, size_t> best;
  for (size_t i = 0; i < scores.size(); ++i) {
    auto [it, fresh] = best.try_emplace(keyOf(i), i);
    if (!fresh && scoreAbove(scores[i], scores[it->second])) it->second = i;
  }
  std::vector<size_t> candidates;
  for (const auto& entry : best) candidates.push_back(entry.second);
  std::sort(candidates.begin(), candidates.end());  // the game's order, whatever the keys
  return candidates;
}

// The indices into `legal` level scaling ranks under `model`.
std::vector<size_t> candidatesOf(const State& state, std::span<const Action> legal,
                                 std::span<const double> scores, LevelModel model) {
  if (model == LevelModel::Groups)
    return bestPerKey<Action>(scores, [&](size_t i) { return state.actionGroup(legal[i]); });
  if (model == LevelModel::States)
    return bestPerKey<std::string>(scores, [&](size_t i) {
      auto next = state.clone();
      next->apply(legal[i]);
      return next->toString();
    });
  std::vector<size_t> all(legal.size());
  std::iota(all.begin(), all.end(), size_t{0});
  return all;
}

// Whether any action is proposed (none: the algorithm proposes every action).
bool anyProposed(std::span<const uint8_t> proposed) {
  return std::any_of(proposed.begin(), proposed.end(), [](uint8_t p) { return p != 0; });
}

// Scores with every action the base does not propose ranked last (NaN ranks below every number,
// so no group is represented by an unproposed member while it has a proposed one); unchanged
// when there are no proposals.
std::vector<double> proposedScores(std::span<const double> scores,
                                   std::span<const uint8_t> proposed) {
  std::vector<double> out(scores.begin(), scores.end());
  if (!anyProposed(proposed)) return out;
  for (size_t i = 0; i < out.size(); ++i)
    if (!proposed[i]) out[i] = std::nan("");
  return out;
}

// Drops the candidates that are not proposed (none when there are no proposals).
void keepProposed(std::vector<size_t>& candidates, std::span<const uint8_t> proposed) {
  if (!anyProposed(proposed)) return;
  std::erase_if(candidates, [&](size_t i) { return !proposed[i]; });
}

// Keeps the k best-scored candidates (k = 0: all); ties at the cut are broken at random.
void keepTop(std::vector<size_t>& candidates, std::span<const double> scores, int k, Rng& rng) {
  if (k <= 0 || candidates.size() <= static_cast<size_t>(k)) return;
  for (size_t i = candidates.size() - 1; i > 0; --i)
    std::swap(candidates[i], candidates[rng.below(static_cast<uint32_t>(i + 1))]);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&scores](size_t a, size_t b) { return scoreAbove(scores[a], scores[b]); });
  candidates.resize(static_cast<size_t>(k));
}

}  // namespace

LevelScaling levelScalingFrom(const Json& params) {
  LevelScaling scaling;
  scaling.sigma = params.at("sigma").get<double>();
  const std::string model = params.at("level_model").get<std::string>();
  for (size_t i = 0; i < std::size(kModelNames); ++i)
    if (model == kModelNames[i]) scaling.model = static_cast<LevelModel>(i);
  scaling.topK = params.at("level_top_k").get<int>();
  scaling.proposedOnly = params.at("level_proposed").get<bool>();
  return scaling;
}

size_t pickByLevelModel(const State& state, std::span<const Action> legal,
                        std::span<const double> scores, std::span<const uint8_t> proposed,
                        int level, const LevelScaling& scaling, Rng& rng) {
  if (scaling.model == LevelModel::Actions && scaling.topK == 0 && !scaling.proposedOnly)
    return pickByLevel(scores, level, scaling.sigma, rng);
  std::vector<size_t> candidates;
  if (scaling.proposedOnly) {
    candidates = candidatesOf(state, legal, proposedScores(scores, proposed), scaling.model);
    keepProposed(candidates, proposed);
  } else {
    candidates = candidatesOf(state, legal, scores, scaling.model);
  }
  keepTop(candidates, scores, scaling.topK, rng);
  std::vector<double> candidateScores(candidates.size());
  for (size_t c = 0; c < candidates.size(); ++c) candidateScores[c] = scores[candidates[c]];
  return candidates[pickByLevel(candidateScores, level, scaling.sigma, rng)];
}

ParamSpec sigmaParam() {
  const char* description =
      "std of the normal draw around level/100 that picks the rank (0 = exact rank)";
  return {"sigma", ParamType::Double, 0.4, 0, 10, description};
}

std::vector<ParamSpec> levelParams() {
  return {sigmaParam(),
          {"level_model",
           ParamType::String,
           "actions",
           0,
           0,
           "what the level ranks: every legal action (actions, the thesis), the best action of "
           "each action group (groups; Lost Cities: a card's play or discard, the draw source "
           "left to the algorithm) or of each distinct resulting state (states)",
           {"actions", "groups", "states"}},
          {"level_top_k", ParamType::Int, 0, 0, 1000,
           "rank only the k best-scored candidates of the level model (0 = all)"},
          {"level_proposed", ParamType::Bool, false, 0, 0,
           "rank only the actions the algorithm itself proposes (minimax-is: those that won a "
           "determinization's vote; hillclimber-is: the best of some determinization; others: "
           "every action)"}};
}

std::vector<ParamSpec> withLevelParams(std::vector<ParamSpec> own) {
  for (auto& spec : levelParams()) own.push_back(std::move(spec));
  return own;
}

}  // namespace ddalab
