#pragma once
// The charts of batch mode, built from the library's results (never their own statistics):
// histograms of a per-game metric with experiments overlaid on shared bins (thesis figure 22),
// the ratio to the best per metric of a comparison (figures 15-18) and the comparison scores of
// tables 8 and 9 (figures 19-20). Each returns a QChart the caller owns (or hands to a view).
#include <QObject>
#include <QSize>
#include <QString>
#include <optional>
#include <span>
#include <vector>

#include "core/metrics.h"
#include "results/histogram.h"
#include "results/scoring.h"
#include "results/significance.h"

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QChart;
class QChartView;
class QColor;
class QValueAxis;
QT_END_NAMESPACE

namespace ddalab::gui {

// Building blocks every chart shares.
// "lead_changes" -> "Lead changes".
QString title(std::string_view key);
// The title (bold, larger), the legend at the bottom, no animation.
void styleChart(QChart* chart, const QString& heading);
// A series drawn for another (an error bar for its bar set, a band for its line) follows it:
// a legend click hides both.
void follow(QAbstractSeries* companion, QObject* owner);
// What `series` follows (null: nothing).
QObject* followed(const QAbstractSeries* series);
inline constexpr const char* kFollowsProperty = "ddalab-follows";
// A value axis titled `label` with plain number labels.
QValueAxis* valueAxis(const QString& label);
// The colours of every chart's series: colour-blind safe (Okabe-Ito), in the order to use them.
std::span<const QColor> seriesPalette();
// One colour per experiment, the same in every chart (by the name after its comparison).
std::vector<QColor> experimentColors(const std::vector<QString>& names);

// One experiment's values of the metric shown.
struct Sample {
  QString name;
  std::span<const double> values;
};

// Histograms of `samples` on `bins` shared bins (one per sample, in order).
std::vector<Histogram> sharedHistograms(std::span<const Sample> samples, int bins);

// The histogram chart: one outlined, translucent step area per sample; y in games, or in the
// share of each sample's games when `share` (for samples of different sizes).
QChart* histogramChart(Metric metric, std::span<const Sample> samples, int bins, bool share);

// Grouped bars: per scored metric, each row's ratio to the best of its comparison (1 = best).
// With `analysis` (of the same comparison), each ratio carries its bootstrap 95 % interval.
QChart* comparisonChart(const ComparisonScores& scores,
                        const ComparisonAnalysis* analysis = nullptr);

// Grouped bars of a score table across comparisons: per comparison (and the mean over the
// comparisons every row takes part in), each row's score.
// With `analyses`, each score carries its bootstrap 95 % interval as an error bar.
QChart* scoresChart(const CrossScores& grid, ScoreTable table,
                    std::span<const ComparisonAnalysis> analyses = {});

// One bar with its 95 % interval.
struct IntervalBar {
  QString label;
  double value = 0, low = 0, high = 0;  // the interval is drawn as an error bar when low < high
};
// A bar per category with its interval (a user study's condition means of one item), y from
// `yMin` to `yMax`.
QChart* intervalBarChart(const QString& heading, const QString& yLabel,
                         const std::vector<IntervalBar>& bars, double yMin, double yMax);

// Shows `chart` in `view`, which takes it, and deletes the chart it showed (a QChartView only
// releases it).
void replaceChart(QChartView* view, QChart* chart);

// Saves what `view` shows as PNG or SVG (by the file's suffix) at the view's size; false on
// failure.
bool saveChartView(QChartView* view, const QString& file);
// The same at `size` pixels, whatever the view's size on screen.
bool saveChartView(QChartView* view, const QString& file, QSize size);
// Saves `chart` (taking ownership) as PNG or SVG at `size` pixels, without a window.
bool saveChart(QChart* chart, const QString& file, QSize size);

}  // namespace ddalab::gui
