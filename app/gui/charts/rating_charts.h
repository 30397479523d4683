#pragma once
// The charts of a tournament's and a balance run's tables (experiments/rating_results.h, read
// from ratings.csv, level_curves.csv, balance.csv and balance_summary.csv): the rating ladder,
// the level curves and the balance curves. Each draws the numbers the tables hold (no statistics
// of its own) and returns a QChart the caller owns.
#include <QString>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "experiments/rating_results.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ddalab::gui {

// The names of the series a person reads in the legends (and the tests look for).
inline constexpr const char* kInformationInterval = "information interval";
inline constexpr const char* kBootstrapInterval = "bootstrap interval";
inline constexpr const char* kRatingSeries = "rating";
inline constexpr const char* kAnchorSeries = "anchor";
inline constexpr const char* kFlatSeries = "flat: the rise's interval holds 0";
inline constexpr const char* kFallsSeries = "falls: the rise's interval is below 0";
inline constexpr const char* kEvenShareSeries = "even share";

// A rating as read on a chart: "+250", "−300", "0" (Elo, rounded).
QString eloText(double rating);

// The entrant a fit anchored: the one with no standard error and an interval of no width (the
// first such; none when every rating has an error).
std::optional<size_t> anchorOf(std::span<const EntrantRating> ratings);

// The rating ladder: the entrants sorted by rating (the highest on top), each with its
// information-matrix interval (a thick bar) and its bootstrap interval (a thin bar with caps just
// below, when the table has one), the anchor marked and named "(anchor)", the first-seat
// advantage with its interval stated under the title.
QChart* ratingLadderChart(const RatingTablesRead& tables);

// The curves of `points` in the order they first appear.
std::vector<std::string> levelCurveNames(std::span<const LevelCurvePoint> points);

// The level curves: rating (y) against level or varied value (x, on a log scale when the values
// span two decades or more), one line per curve of `curves` (all when empty) with its
// information interval as a band and its bootstrap interval as error bars; the points whose rise
// from the previous one is flat (its interval holds 0) or falls (below 0) marked, and counted
// under the title.
QChart* levelCurvesChart(std::span<const LevelCurvePoint> points,
                         const std::vector<std::string>& curves = {});

// The balance curves: the rated player's win rate (y, 0–1) against its rating (x, Elo), one line
// per condition with the win rate's interval as error bars; the band of the summaries shaded, the
// even share dashed; each condition's legend entry states its balanced range and mean distance
// from the even share (balance_summary.csv's).
QChart* balanceChart(std::span<const BalancePoint> points,
                     std::span<const BalanceSummary> summaries);

// The legend text of one condition (rich text, the name escaped): "POSM: balanced −300 to +250
// Elo<br>mean distance 0.060 (0.040–0.080)"; "no point in the band" when none is.
QString balanceLegendText(const BalanceSummary& summary);

}  // namespace ddalab::gui
