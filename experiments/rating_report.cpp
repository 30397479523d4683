#include "experiments/rating_report.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "results/csv_format.h"
#include "results/text_table.h"

namespace ddalab {

namespace {

// A rating or difference in Elo with its sign ("+35", "-120").
std::string elo(double value) {
  const std::string text = fixedText(std::round(value) == 0 ? 0.0 : value, 0);
  if (value <= 0 || text == "0") return text;
  std::string sign = "+";
  sign += text;
  return sign;
}

std::string interval(RatingInterval i) {
  // Appended piece by piece: "[" + std::string trips a false -Wrestrict in g++ 12.
  std::string text = "[";
  text += elo(i.low);
  text += ", ";
  text += elo(i.high);
  text += ']';
  return text;
}

std::string percent(double share) {
  return fixedText(100 * share, 0);
}

// Above this many entrants the terminal shows each entrant against the next in rating order only
// (pairwise.csv keeps every comparison).
constexpr size_t kAllPairsShown = 8;

// The entrants in rating order, highest first.
std::vector<size_t> ratingOrder(const RatingTablesRead& t) {
  std::vector<size_t> order(t.ratings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return t.ratings[a].rating > t.ratings[b].rating; });
  return order;
}

void printRatings(std::ostream& out, const RatingTablesRead& t) {
  const std::vector<size_t> order = ratingOrder(t);
  out << "\nRatings (Elo; intervals from the information matrix and the bootstrap over games)\n";
  TextTable table({"entrant", "rating", "interval", "bootstrap", "games", "score"});
  for (size_t i : order) {
    const EntrantRating& r = t.ratings[i];
    const std::string score =
        r.pairings ? fixedText(100 * r.score / static_cast<double>(r.pairings), 1) + " %" : "-";
    const bool anchor = r.se == 0, noBootstrap = r.bootstrapSe == 0;
    table.addRow({r.name, elo(r.rating), anchor ? "(anchor)" : interval(r.interval),
                  anchor        ? "(anchor)"
                  : noBootstrap ? "-"
                                : interval(r.bootstrap),
                  std::to_string(r.games), score});
  }
  table.print(out);
  if (t.firstSeat)
    out << "  first-seat advantage: " << elo(*t.firstSeat) << " Elo "
        << interval(t.firstSeatInterval) << "\n";
  if (t.drawParameter)
    out << "  draw parameter (Davidson): " << fixedText(*t.drawParameter, 3) << " ["
        << fixedText(t.drawParameterInterval.low, 3) << ", "
        << fixedText(t.drawParameterInterval.high, 3) << "]\n";
}

void printPairwise(std::ostream& out, const RatingTablesRead& t) {
  if (t.pairwise.empty()) return;
  const bool neighbours = t.ratings.size() > kAllPairsShown;
  out << "\nPairwise (a - b; E: a's expected score on neutral seats; LR test of equal ratings"
      << (neighbours ? "; neighbours in rating order, pairwise.csv has more" : "") << ")\n";
  const std::vector<size_t> order = ratingOrder(t);
  std::vector<size_t> rank(order.size());
  for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = k;
  TextTable table({"a", "b", "difference", "interval", "bootstrap", "E", "LR chi2", "p"}, 2);
  for (const RatingComparison& c : t.pairwise)
    if (!neighbours || rank[c.b] == rank[c.a] + 1)
      table.addRow({t.ratings[c.a].name, t.ratings[c.b].name, elo(c.difference),
                    interval(c.interval), interval(c.bootstrap), fixedText(c.expectedScore, 3),
                    fixedText(c.lrChi2, 2), fixedText(c.p, 4)});
  table.print(out);
}

// "flat" where the step's interval holds 0, "falls" where the curve goes down.
std::string stepMark(const LevelCurvePoint& p) {
  if (!p.step) return "";
  std::string mark;
  if (p.stepInterval.low <= 0 && p.stepInterval.high >= 0) mark = "flat";
  if (*p.step < 0) mark += mark.empty() ? "falls" : ", falls";
  return mark;
}

void printCurves(std::ostream& out, const RatingTablesRead& t) {
  for (size_t first = 0; first < t.curves.size();) {
    const std::string& curve = t.curves[first].curve;
    out << "\nLevel curve " << curve << " (step: the rise from the previous point)\n";
    TextTable table({"x", "entrant", "rating", "interval", "step", "step interval", ""}, 0);
    size_t flat = 0, falls = 0, k = first;
    for (; k < t.curves.size() && t.curves[k].curve == curve; ++k) {
      const LevelCurvePoint& p = t.curves[k];
      const std::string mark = stepMark(p);
      flat += mark.find("flat") != std::string::npos;
      falls += p.step && *p.step < 0;
      table.addRow({csvNumber(p.x), p.entrant, elo(p.rating), interval(p.interval),
                    p.step ? elo(*p.step) : "", p.step ? interval(p.stepInterval) : "", mark});
    }
    table.print(out);
    out << "  " << (falls ? "not monotone" : "monotone") << "; " << flat << " of "
        << (k - first - 1) << " steps flat (interval holds 0)\n";
    first = k;
  }
}

// "balanced from -300 to +250 (7 of 10 points in 40-60 %), mean distance 0.08 [0.06, 0.10]".
std::string balanceLine(const BalanceSummary& s) {
  const std::string range =
      s.balancedFrom ? "balanced from " + elo(*s.balancedFrom) + " to " + elo(*s.balancedTo)
                     : "balanced nowhere";
  return range + " (" + std::to_string(s.pointsInside) + " of " + std::to_string(s.points) +
         " points in " + percent(s.bandLow) + "-" + percent(s.bandHigh) + " %), mean distance " +
         fixedText(s.meanDistance, 2) + " [" + fixedText(s.meanDistanceInterval.low, 2) + ", " +
         fixedText(s.meanDistanceInterval.high, 2) + "]";
}

void printBalance(std::ostream& out, const RatingTablesRead& t) {
  for (const BalanceSummary& s : t.balanceSummaries) {
    out << "\nBalance of " << s.condition << ": " << balanceLine(s) << "\n";
    TextTable table({"entrant", "rating", "games", "win rate", "interval (Wilson)", "even"});
    for (const BalancePoint& p : t.balance) {
      if (p.condition != s.condition) continue;
      table.addRow({p.entrant, elo(p.rating), std::to_string(p.games), percent(p.winRate) + " %",
                    percent(p.winRateInterval.low) + "-" + percent(p.winRateInterval.high) + " %",
                    percent(p.evenShare) + " %"});
    }
    table.print(out);
  }
}

}  // namespace

void printRatingTables(std::ostream& out, const RatingTablesRead& tables) {
  if (!tables.ratings.empty()) printRatings(out, tables);
  printPairwise(out, tables);
  printCurves(out, tables);
  printBalance(out, tables);
}

}  // namespace ddalab
