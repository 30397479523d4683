#include "players/conformance/trace_oracle.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace ddalab {

namespace conformance {

namespace {

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

}  // namespace

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

}  // namespace conformance

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
