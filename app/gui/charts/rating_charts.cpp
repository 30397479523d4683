#include "app/gui/charts/rating_charts.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "app/gui/charts/charts.h"

namespace ddalab::gui {

namespace {

// The lowest and highest value drawn along one axis (none yet: infinite); values that are not
// finite are left out (the reader refuses them; a table filled by hand may still hold one).
struct ValueSpan {
  double low = INFINITY, high = -INFINITY;
  void add(double value) {
    if (!std::isfinite(value)) return;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  void add(const RatingInterval& interval) {
    add(interval.low);
    add(interval.high);
  }
  bool empty() const { return !(low <= high); }
};

// Sets `axis` to `span` with a margin, on round numbers.
void fitAxis(QValueAxis* axis, const ValueSpan& span) {
  if (span.empty()) return;
  const double pad =
      span.high > span.low ? 0.06 * (span.high - span.low) : std::max(10.0, std::abs(span.high));
  axis->setRange(span.low - pad, span.high + pad);
  axis->applyNiceNumbers();
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
  chart->addSeries(series);
  series->attachAxis(x);
  series->attachAxis(y);
}

void hideFromLegend(QChart* chart, QAbstractSeries* series) {
  for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

// An interval bar from `from` to `to` with caps of half-length `cap` across it at both ends (no
// caps when `cap` is null): a single path, as the error bars of the bar charts are drawn.
QLineSeries* intervalBar(QPointF from, QPointF to, QPointF cap, const QPen& pen) {
  auto* bar = new QLineSeries;
  if (cap.isNull())
    bar->append({from, to});
  else
    bar->append({from - cap, from + cap, from, to, to - cap, to + cap});
  bar->setPen(pen);
  return bar;
}

// The first of a kind of series carries its name in the legend; the others follow it (hidden
// with it by a legend click) and have no legend entry of their own.
class SeriesKind {
 public:
  explicit SeriesKind(QString name) : name_(std::move(name)) {}
  void add(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    attach(chart, series, x, y);
    if (first_) {
      follow(series, first_);
      hideFromLegend(chart, series);
    } else {
      first_ = series;
      series->setName(name_);
    }
  }
  QAbstractSeries* first() const { return first_; }

 private:
  QString name_;
  QAbstractSeries* first_ = nullptr;
};

QScatterSeries* markers(const QString& name, QScatterSeries::MarkerShape shape, double size,
                        const QColor& fill, const QColor& outline) {
  auto* series = new QScatterSeries;
  series->setName(name);
  series->setMarkerShape(shape);
  series->setMarkerSize(size);
  series->setBrush(fill);
  series->setPen(QPen(outline, 1.5));
  return series;
}

// A curve's line, its points drawn, in `colour`.
QLineSeries* curveLine(const QString& name, const QColor& colour) {
  auto* line = new QLineSeries;
  line->setName(name);
  line->setPen(QPen(colour, 2));
  line->setPointsVisible(true);
  return line;
}

// Adds `companion` (an error bar, a band) drawn for `line`: hidden with it, not in the legend.
void addCompanion(QChart* chart, QAbstractSeries* companion, QLineSeries* line, QAbstractAxis* x,
                  QAbstractAxis* y) {
  follow(companion, line);
  attach(chart, companion, x, y);
  hideFromLegend(chart, companion);
}

QString intervalText(const RatingInterval& interval) {
  return eloText(interval.low) + " to " + eloText(interval.high);
}

bool hasWidth(const RatingInterval& interval) {
  return interval.high > interval.low;
}

QString subtitled(const QString& heading, const QString& note) {
  return heading + "<br><span style=\"font-weight: normal\">" + note + "</span>";
}

// The ladder's order: the entrants by rating, the lowest first (drawn at the bottom).
std::vector<size_t> ladderOrder(std::span<const EntrantRating> ratings) {
  std::vector<size_t> order(ratings.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return ratings[a].rating < ratings[b].rating; });
  return order;
}

QString firstSeatText(const RatingTablesRead& tables) {
  if (!tables.firstSeat) return "no first-seat advantage fitted";
  return "first-seat advantage " + eloText(*tables.firstSeat) + " Elo (" +
         intervalText(tables.firstSeatInterval) + ")";
}

}  // namespace

QString eloText(double rating) {
  if (!std::isfinite(rating)) return "n/a";
  const long rounded = std::lround(rating);
  if (rounded == 0) return "0";
  return (rounded > 0 ? "+" : "\u2212") + QString::number(std::labs(rounded));
}

std::optional<size_t> anchorOf(std::span<const EntrantRating> ratings) {
  for (size_t i = 0; i < ratings.size(); ++i)
    if (ratings[i].se == 0 && !hasWidth(ratings[i].interval)) return i;
  return std::nullopt;
}

QChart* ratingLadderChart(const RatingTablesRead& tables) {
  const std::span<const EntrantRating> ratings = tables.ratings;
  auto* chart = new QChart;
  styleChart(chart, subtitled("Ratings (Elo)", firstSeatText(tables) +
                                                   "; thick bars: information interval, thin "
                                                   "bars below: bootstrap interval"));
  auto* x = valueAxis("rating (Elo)");
  auto* y = new QCategoryAxis;
  y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  y->setTruncateLabels(false);  // a name is what the row is read by: never "..."
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  const std::vector<size_t> order = ladderOrder(ratings);
  const std::optional<size_t> anchor = anchorOf(ratings);
  const bool crowded = order.size() > 30;  // thinner bars and smaller names keep them apart
  const QColor colour = seriesPalette()[0], bootColour = seriesPalette()[1];
  SeriesKind information(kInformationInterval), bootstrap(kBootstrapInterval);
  auto* points = markers(kRatingSeries, QScatterSeries::MarkerShapeCircle, crowded ? 6 : 9,
                         colour.darker(130), colour.darker(160));
  auto* anchorMark = markers(kAnchorSeries, QScatterSeries::MarkerShapeStar, crowded ? 12 : 18,
                             seriesPalette()[5], seriesPalette()[5].darker(150));
  ValueSpan span;
  for (size_t rank = 0; rank < order.size(); ++rank) {
    const EntrantRating& e = ratings[order[rank]];
    const auto at = static_cast<double>(rank);
    const bool isAnchor = anchor == order[rank];
    QString label = QString::fromStdString(e.name);
    if (isAnchor) label += " (anchor)";
    y->append(label, at);
    span.add(e.rating);
    (isAnchor ? anchorMark : points)->append(e.rating, at);
    if (hasWidth(e.interval)) {
      span.add(e.interval);
      information.add(chart,
                      intervalBar({e.interval.low, at}, {e.interval.high, at}, {},
                                  QPen(colour, crowded ? 3 : 6, Qt::SolidLine, Qt::FlatCap)),
                      x, y);
    }
    if (hasWidth(e.bootstrap)) {
      span.add(e.bootstrap);
      const double below = at - 0.28;
      bootstrap.add(chart,
                    intervalBar({e.bootstrap.low, below}, {e.bootstrap.high, below}, {0, 0.1},
                                QPen(bootColour, crowded ? 1 : 2)),
                    x, y);
    }
  }
  attach(chart, points, x, y);
  attach(chart, anchorMark, x, y);
  if (anchorMark->count() == 0) hideFromLegend(chart, anchorMark);
  y->setRange(-0.7, std::max(0.7, static_cast<double>(order.size()) - 0.4));
  y->setGridLinePen(QPen(QColor(232, 232, 232), 1));  // a row's line, fainter than its bars
  y->setGridLineVisible(!crowded);
  if (order.size() > 10) {  // a label that would overlap its neighbour is not drawn at all
    QFont font = y->labelsFont();
    font.setPointSizeF(font.pointSizeF() * (crowded ? 0.65 : 0.8));
    y->setLabelsFont(font);
  }
  fitAxis(x, span);
  return chart;
}

std::vector<std::string> levelCurveNames(std::span<const LevelCurvePoint> points) {
  std::vector<std::string> names;
  for (const LevelCurvePoint& p : points)
    if (std::find(names.begin(), names.end(), p.curve) == names.end()) names.push_back(p.curve);
  return names;
}

namespace {

// Whether the x values of level curves are better drawn on a log scale: all positive and
// spanning two decades or more (MCTS iterations 10 to 10000 would crowd into one corner).
bool logScale(const ValueSpan& xs) {
  return !xs.empty() && xs.low > 0 && xs.high / xs.low >= 100;
}

// What the level curves chart marks: the points whose rise is flat or falls.
struct StepMarks {
  QScatterSeries* flat;
  QScatterSeries* falls;
};

void markStep(const LevelCurvePoint& p, StepMarks& marks) {
  if (!p.step) return;
  if (p.stepInterval.high < 0)
    marks.falls->append(p.x, p.rating);
  else if (p.stepInterval.low <= 0)
    marks.flat->append(p.x, p.rating);
}

// One curve of the level curves chart: its line with points, its band, its bootstrap error bars.
// `cap`: the half-width of the error bars' caps along x (0: none, as on a log scale).
void addLevelCurve(QChart* chart, QAbstractAxis* x, QValueAxis* y,
                   std::vector<LevelCurvePoint> curve, const QColor& colour, double cap,
                   StepMarks& marks, ValueSpan& span) {
  std::stable_sort(curve.begin(), curve.end(), [](auto& a, auto& b) { return a.x < b.x; });
  // A legend's label is rich text: the name is escaped.
  auto* line = curveLine(QString::fromStdString(curve.front().curve).toHtmlEscaped(), colour);
  auto *upper = new QLineSeries, *lower = new QLineSeries;
  for (const LevelCurvePoint& p : curve) {
    line->append(p.x, p.rating);
    upper->append(p.x, p.interval.high);
    lower->append(p.x, p.interval.low);
    span.add(p.rating);
    span.add(p.interval);
    markStep(p, marks);
    if (!hasWidth(p.bootstrap)) continue;
    span.add(p.bootstrap);
    auto* bar = intervalBar({p.x, p.bootstrap.low}, {p.x, p.bootstrap.high}, {cap, 0},
                            QPen(colour.darker(140), 1.2));
    addCompanion(chart, bar, line, x, y);
  }
  auto* band = new QAreaSeries(upper, lower);
  upper->setParent(band);  // an area series does not own its outlines
  lower->setParent(band);
  QColor fill = colour;
  fill.setAlpha(45);
  band->setBrush(fill);
  band->setPen(Qt::NoPen);
  addCompanion(chart, band, line, x, y);
  attach(chart, line, x, y);
}

}  // namespace

QChart* levelCurvesChart(std::span<const LevelCurvePoint> points,
                         const std::vector<std::string>& curves) {
  const std::vector<std::string> shown = curves.empty() ? levelCurveNames(points) : curves;
  ValueSpan xs;
  for (const LevelCurvePoint& p : points)
    if (std::find(shown.begin(), shown.end(), p.curve) != shown.end()) xs.add(p.x);
  auto* chart = new QChart;
  const bool log = logScale(xs);
  QAbstractAxis* x = nullptr;
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10);
    axis->setLabelFormat("%g");
    axis->setRange(xs.low / 1.5, xs.high * 1.5);
    axis->setMinorTickCount(-1);
    x = axis;
  } else {
    auto* axis = valueAxis(QString());
    fitAxis(axis, xs);
    x = axis;
  }
  x->setTitleText(log ? "level or varied value (log scale)" : "level or varied value");
  auto* y = valueAxis("rating (Elo)");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  // Rings around the points, faintly filled so that the legend's swatches tell them apart.
  StepMarks marks{
      markers(kFlatSeries, QScatterSeries::MarkerShapeCircle, 16, QColor(0, 0, 0, 30), Qt::black),
      markers(kFallsSeries, QScatterSeries::MarkerShapeTriangle, 16, QColor(213, 94, 0, 70),
              QColor("#D55E00"))};
  marks.falls->setPen(QPen(QColor("#D55E00"), 2.5));
  const double cap = log ? 0 : 0.008 * (xs.high - xs.low);
  ValueSpan span;
  std::vector<QString> names;
  for (const std::string& c : shown) names.push_back(QString::fromStdString(c));
  const std::vector<QColor> colours = experimentColors(names);
  for (size_t c = 0; c < shown.size(); ++c) {
    std::vector<LevelCurvePoint> curve;
    for (const LevelCurvePoint& p : points)
      if (p.curve == shown[c]) curve.push_back(p);
    if (!curve.empty()) addLevelCurve(chart, x, y, std::move(curve), colours[c], cap, marks, span);
  }
  for (QScatterSeries* m : {marks.flat, marks.falls}) {
    attach(chart, m, x, y);
    if (m->count() == 0) hideFromLegend(chart, m);
  }
  fitAxis(y, span);
  styleChart(chart,
             subtitled("Level curves", QString("bands: information interval, error bars: bootstrap "
                                               "interval; flat at %1 point%2, falls at %3")
                                           .arg(marks.flat->count())
                                           .arg(marks.flat->count() == 1 ? "" : "s")
                                           .arg(marks.falls->count())));
  chart->legend()->setAlignment(shown.size() > 4 ? Qt::AlignRight : Qt::AlignBottom);
  return chart;
}

QString balanceLegendText(const BalanceSummary& summary) {
  // A legend's labels are rich text: the name is escaped, the line break is markup.
  QString text = QString::fromStdString(summary.condition).toHtmlEscaped() + ": ";
  if (summary.balancedFrom && summary.balancedTo)
    text += "balanced " + eloText(*summary.balancedFrom) + " to " + eloText(*summary.balancedTo) +
            " Elo";
  else
    text += "no point in the band";
  return text + QString("<br>mean distance %1 (%2–%3)")
                    .arg(summary.meanDistance, 0, 'f', 3)
                    .arg(summary.meanDistanceInterval.low, 0, 'f', 3)
                    .arg(summary.meanDistanceInterval.high, 0, 'f', 3);
}

namespace {

QString sharePercent(double share) {
  return QString::number(share * 100, 'g', 3) + " %";
}

// A horizontal line or band across the balance chart's ratings.
QLineSeries* across(const ValueSpan& xs, double y) {
  auto* line = new QLineSeries;
  line->append({{xs.low, y}, {xs.high, y}});
  return line;
}

// One condition's curve: its win rates with their intervals as error bars.
void addBalanceCurve(QChart* chart, QValueAxis* x, QValueAxis* y, const QString& name,
                     std::vector<BalancePoint> curve, const QColor& colour, double cap) {
  std::stable_sort(curve.begin(), curve.end(),
                   [](auto& a, auto& b) { return a.rating < b.rating; });
  auto* line = curveLine(name, colour);
  for (const BalancePoint& p : curve) {
    line->append(p.rating, p.winRate);
    if (!hasWidth(p.winRateInterval)) continue;
    auto* bar = intervalBar({p.rating, p.winRateInterval.low}, {p.rating, p.winRateInterval.high},
                            {cap, 0}, QPen(colour.darker(130), 1.3));
    addCompanion(chart, bar, line, x, y);
  }
  attach(chart, line, x, y);
}

}  // namespace

QChart* balanceChart(std::span<const BalancePoint> points,
                     std::span<const BalanceSummary> summaries) {
  std::vector<std::string> conditions;
  ValueSpan xs;
  for (const BalancePoint& p : points) {
    if (std::find(conditions.begin(), conditions.end(), p.condition) == conditions.end())
      conditions.push_back(p.condition);
    xs.add(p.rating);
  }
  auto* chart = new QChart;
  auto* x = valueAxis("rating of the rated player (Elo)");
  auto* y = valueAxis("win rate of the rated player");
  fitAxis(x, xs);
  y->setRange(0, 1);
  y->setTickCount(11);
  y->setLabelFormat("%.1f");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  const ValueSpan wide{x->min(), x->max()};  // the band and the even share span the axis
  QString note = "error bars: interval of each win rate";
  if (!summaries.empty()) {
    const BalanceSummary& s = summaries.front();
    auto* band = new QAreaSeries(across(wide, s.bandHigh), across(wide, s.bandLow));
    band->upperSeries()->setParent(band);
    band->lowerSeries()->setParent(band);
    band->setName("band " + sharePercent(s.bandLow) + " to " + sharePercent(s.bandHigh));
    band->setBrush(QColor(0, 0, 0, 28));
    band->setPen(Qt::NoPen);
    attach(chart, band, x, y);
    note = "shaded: the band; " + note;
  }
  if (!points.empty()) {
    auto* even = across(wide, points.front().evenShare);
    even->setName(QString(kEvenShareSeries) + " " + sharePercent(points.front().evenShare));
    even->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    attach(chart, even, x, y);
  }
  std::vector<QString> names;
  for (const std::string& c : conditions) names.push_back(QString::fromStdString(c));
  const std::vector<QColor> colours = experimentColors(names);
  const double cap = 0.008 * (x->max() - x->min());
  for (size_t c = 0; c < conditions.size(); ++c) {
    std::vector<BalancePoint> curve;
    for (const BalancePoint& p : points)
      if (p.condition == conditions[c]) curve.push_back(p);
    const auto summary = std::find_if(summaries.begin(), summaries.end(),
                                      [&](auto& s) { return s.condition == conditions[c]; });
    addBalanceCurve(chart, x, y,
                    summary == summaries.end() ? names[c] : balanceLegendText(*summary),
                    std::move(curve), colours[c], cap);
  }
  styleChart(chart, subtitled("Balance curves", note));
  // Each condition's entry states its balanced range and mean distance: at the side, in full.
  chart->legend()->setAlignment(Qt::AlignRight);
  return chart;
}

}  // namespace ddalab::gui
