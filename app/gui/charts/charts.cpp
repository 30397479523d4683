#include "app/gui/charts/charts.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFontMetricsF>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSvgGenerator>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>

#include "app/gui/image_file.h"

namespace ddalab::gui {

QString title(std::string_view key) {
  QString text = QString::fromStdString(std::string(key));
  text.replace('_', ' ');
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

// A metric's short label from the catalog ("Decisive lead"); a key it does not know, as title().
QString metricLabel(std::string_view key) {
  if (const auto metric = metricByKey(key))
    return QString::fromStdString(metricInfo(*metric).label);
  return title(key);
}

void styleChart(QChart* chart, const QString& heading) {
  chart->setTitle(heading);
  QFont font = chart->titleFont();
  font.setPointSizeF(font.pointSizeF() * 1.15);
  font.setBold(true);
  chart->setTitleFont(font);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setMargins(QMargins(8, 8, 8, 8));
}

void follow(QAbstractSeries* companion, QObject* owner) {
  companion->setProperty(kFollowsProperty, QVariant::fromValue(owner));
}

QObject* followed(const QAbstractSeries* series) {
  return series->property(kFollowsProperty).value<QObject*>();
}

QValueAxis* valueAxis(const QString& label) {
  auto* axis = new QValueAxis;
  axis->setTitleText(label);
  axis->setLabelFormat("%g");
  return axis;
}

std::span<const QColor> seriesPalette() {
  // Okabe and Ito's colour-blind-safe set, yellow last (faint on white) and black left out (the
  // error bars are black), then two darker tones of it for long lists.
  static const std::array<QColor, 9> palette = {
      QColor("#0072B2"), QColor("#E69F00"), QColor("#009E73"), QColor("#CC79A7"), QColor("#56B4E9"),
      QColor("#D55E00"), QColor("#F0E442"), QColor("#004C77"), QColor("#8A6000")};
  return palette;
}

// One colour per experiment, the same in every chart: the environment players the thesis
// compares keep the first colours in a fixed order (so "ludo/e-hillclimber" has its colour in
// the histogram, the comparison and the score charts); other names take the next free colour in
// the order of `names`.
std::vector<QColor> experimentColors(const std::vector<QString>& names) {
  static const QStringList known = {"e-random", "e-hillclimber", "e-maxmax", "e-maxn",
                                    "e-montecarlo"};
  const std::span<const QColor> palette = seriesPalette();
  std::vector<std::optional<size_t>> slot(names.size());
  std::vector<bool> taken(palette.size(), false);
  const auto place = [&](size_t i, size_t wanted) {
    for (size_t tries = 0; taken[wanted] && tries < palette.size(); ++tries)
      wanted = (wanted + 1) % palette.size();
    taken[wanted] = true;
    slot[i] = wanted;
  };
  // The part after the comparison ("e-hillclimber"): score charts name rows by it alone.
  const auto key = [](const QString& name) { return name.mid(name.lastIndexOf('/') + 1); };
  for (size_t i = 0; i < names.size(); ++i)
    if (const qsizetype fixed = known.indexOf(key(names[i])); fixed >= 0)
      place(i, static_cast<size_t>(fixed));
  for (size_t i = 0; i < names.size(); ++i)
    if (!slot[i]) place(i, 0);
  std::vector<QColor> colors;
  for (const auto& s : slot) colors.push_back(palette[*s]);
  return colors;
}

namespace {

// The names without the prefix they all share up to a '/' (the comparison, said in the title):
// legends stay short enough to read.
std::vector<QString> shortNames(const std::vector<QString>& names) {
  if (names.size() < 2) return names;
  const int slash = names.front().lastIndexOf('/');
  const QString prefix = names.front().left(slash + 1);
  for (const QString& n : names)
    if (slash < 0 || !n.startsWith(prefix)) return names;
  std::vector<QString> shorter;
  for (const QString& n : names) shorter.push_back(n.mid(prefix.size()));
  return shorter;
}

}  // namespace

std::vector<Histogram> sharedHistograms(std::span<const Sample> samples, int bins) {
  std::vector<std::span<const double>> values;
  for (const Sample& s : samples) values.push_back(s.values);
  const auto [low, high] = commonRange(values);
  std::vector<Histogram> histograms;
  for (const Sample& s : samples)
    histograms.push_back(
        makeHistogram(s.values, static_cast<size_t>(std::max(1, bins)), low, high));
  return histograms;
}

QChart* histogramChart(Metric metric, std::span<const Sample> samples, int bins, bool share) {
  auto* chart = new QChart;
  const MetricInfo& info = metricInfo(metric);
  const std::vector<Histogram> histograms = sharedHistograms(samples, bins);
  std::vector<QString> names;
  for (const Sample& sample : samples) names.push_back(sample.name);
  const std::vector<QColor> colors = experimentColors(names);
  const std::vector<QString> labels = shortNames(names);
  // Said once in the title when the same for all: the comparison and the number of games.
  const QString comparison =
      labels.empty() || labels.front() == names.front()
          ? QString()
          : " — " + names.front().left(names.front().size() - labels.front().size() - 1);
  bool sameGames = true;
  for (const Histogram& h : histograms) sameGames = sameGames && h.total() == histograms[0].total();
  const QString games = sameGames && !histograms.empty()
                            ? QString(", %1 games each").arg(histograms.front().total())
                            : QString();
  styleChart(chart, "Histogram of " + title(info.key).toLower() + comparison + " (" +
                        QString::number(std::max(1, bins)) + " bins" +
                        (histograms.size() > 1 ? games : QString()) + ")");
  auto* x = valueAxis(title(info.key) + " per game");
  auto* y = valueAxis(share ? "Share of games" : "Games");
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  double top = 0;
  // Two histograms overlay as translucent areas; more as step outlines, which stay readable.
  const bool outlines = histograms.size() > 2;
  for (size_t i = 0; i < histograms.size(); ++i) {
    const Histogram& h = histograms[i];
    const double scale = share && h.total() ? 1.0 / static_cast<double>(h.total()) : 1.0;
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (size_t b = 0; b < h.counts.size(); ++b) {
      const double height = static_cast<double>(h.counts[b]) * scale;
      upper->append(h.binLow(b), height);
      upper->append(h.binLow(b) + h.width(), height);
      lower->append(h.binLow(b), 0);
      lower->append(h.binLow(b) + h.width(), 0);
      top = std::max(top, height);
    }
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);  // an area series does not own its outlines
    lower->setParent(area);
    area->setName(sameGames && histograms.size() > 1
                      ? labels[i]
                      : QString("%1 (%2 games)").arg(labels[i]).arg(h.total()));
    chart->addSeries(area);
    QColor color = colors[i];
    QPen pen(outlines ? color : color.darker(130));
    pen.setWidthF(outlines ? 2.2 : 1.6);
    area->setPen(pen);
    color.setAlphaF(outlines ? 0.0 : histograms.size() > 1 ? 0.35 : 0.6);
    area->setBrush(color);
    for (QLegendMarker* marker : chart->legend()->markers(area))
      marker->setBrush(colors[i]);  // an outline's legend entry shows its colour filled
    area->attachAxis(x);
    area->attachAxis(y);
  }
  if (!histograms.empty()) x->setRange(histograms.front().low, histograms.front().high);
  y->setRange(0, top > 0 ? top * 1.05 : 1);
  x->applyNiceNumbers();
  y->applyNiceNumbers();
  if (!share) y->setLabelFormat("%.0f");
  return chart;
}

namespace {

// Category labels stay upright while each fits its share of the plot's width and slant as little
// as the window's narrowness needs (Qt Charts would cut "Believability" to "Believab…"); checked
// again whenever the plot area changes size.
void slantLabelsWhenNarrow(QChart* chart, QBarCategoryAxis* categories) {
  QObject::connect(chart, &QChart::plotAreaChanged, categories, [categories](const QRectF& plot) {
    const QStringList labels = categories->categories();
    if (labels.isEmpty()) return;
    const QFontMetricsF metrics(categories->labelsFont());
    qreal widest = 0;
    for (const QString& label : labels) widest = std::max(widest, metrics.horizontalAdvance(label));
    const qreal share =
        plot.width() / static_cast<qreal>(labels.size()) - metrics.averageCharWidth();
    int angle = -90;  // the steepest: a label then needs only its height across
    for (const int a : {0, -60}) {
      const qreal radians = a * M_PI / 180;
      if (widest * std::cos(radians) + metrics.height() * std::abs(std::sin(radians)) <= share) {
        angle = a;
        break;
      }
    }
    if (categories->labelsAngle() != angle) categories->setLabelsAngle(angle);
  });
}

// The bootstrap interval of `row`'s score in comparison `comparison`, if an analysis has it.
std::optional<std::pair<double, double>> scoreInterval(std::span<const ComparisonAnalysis> analyses,
                                                       const std::string& comparison,
                                                       const std::string& row, ScoreTable table) {
  for (const ComparisonAnalysis& a : analyses)
    if (a.comparison == comparison)
      for (const ScoreInterval& s : a.scores)
        if (rowKey(s.experiment) == row) return s.interval(table);
  return std::nullopt;
}

// The bootstrap interval of `row`'s ratio to the best for scored metric `k`, if the analysis
// has it.
std::optional<std::pair<double, double>> ratioInterval(const ComparisonAnalysis& analysis,
                                                       const std::string& row, size_t k) {
  for (const ScoreInterval& s : analysis.scores)
    if (s.experiment == row && k < s.ratioLow.size() && !std::isnan(s.ratioLow[k]))
      return std::pair(s.ratioLow[k], s.ratioHigh[k]);
  return std::nullopt;
}

// Draws each bar's interval as an error bar: vertical lines with caps on a hidden value axis
// laid over the categories (a bar series of n sets fills the middle half of each category).
// `interval(set, category)` gives the bar's interval, or none for no error bar. Each error bar
// follows its bar set (hidden with it from the legend).
template <class IntervalOf>
void addErrorBars(QChart* chart, const QBarSeries& bars, size_t categories, QValueAxis* y,
                  IntervalOf interval) {
  const auto sets = static_cast<size_t>(bars.count());
  auto* x = new QValueAxis;
  x->setRange(-0.5, static_cast<double>(categories) - 0.5);
  x->setVisible(false);
  chart->addAxis(x, Qt::AlignBottom);
  for (size_t r = 0; r < sets; ++r)
    for (size_t c = 0; c < categories; ++c) {
      const std::optional<std::pair<double, double>> bounds = interval(r, c);
      if (!bounds) continue;
      const double centre = static_cast<double>(c) - 0.25 +
                            0.5 * (static_cast<double>(r) + 0.5) / static_cast<double>(sets);
      const double cap = 0.15 / static_cast<double>(sets);
      auto* bar = new QLineSeries;
      bar->append({{centre - cap, bounds->first},
                   {centre + cap, bounds->first},
                   {centre, bounds->first},
                   {centre, bounds->second},
                   {centre - cap, bounds->second},
                   {centre + cap, bounds->second}});
      bar->setPen(QPen(Qt::black, 1.3));
      follow(bar, bars.barSets()[static_cast<qsizetype>(r)]);
      chart->addSeries(bar);
      bar->attachAxis(x);
      bar->attachAxis(y);
      for (QLegendMarker* marker : chart->legend()->markers(bar)) marker->setVisible(false);
    }
}

}  // namespace

QChart* intervalBarChart(const QString& heading, const QString& yLabel,
                         const std::vector<IntervalBar>& bars, double yMin, double yMax) {
  auto* chart = new QChart;
  styleChart(chart, heading);
  auto* series = new QBarSeries;
  auto* set = new QBarSet(yLabel);
  auto* categories = new QBarCategoryAxis;
  for (const IntervalBar& bar : bars) {
    set->append(bar.value);
    categories->append(bar.label);
  }
  set->setColor(seriesPalette().front());
  series->append(set);
  chart->addSeries(series);
  auto* y = valueAxis(yLabel);
  y->setRange(yMin, yMax);
  // Ticks on the scale's own steps: 1..7 one by one, 0..100 by 20.
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(yMin);
  y->setTickInterval(yMax - yMin <= 10 ? 1 : 20);
  chart->addAxis(categories, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(categories);
  series->attachAxis(y);
  chart->legend()->setVisible(false);
  slantLabelsWhenNarrow(chart, categories);
  addErrorBars(chart, *series, bars.size(), y, [&](size_t, size_t c) {
    const IntervalBar& bar = bars[c];
    return bar.low < bar.high ? std::optional(std::pair(bar.low, bar.high)) : std::nullopt;
  });
  return chart;
}

QChart* comparisonChart(const ComparisonScores& scores, const ComparisonAnalysis* analysis) {
  auto* chart = new QChart;
  styleChart(chart, "Comparison " + QString::fromStdString(scores.comparison) +
                        ": ratio to the best per metric (1 = best)" +
                        (analysis ? "<span style=\"font-weight: normal\">; error bars: 95 % "
                                    "bootstrap intervals</span>"
                                  : QString()));
  auto* series = new QBarSeries;
  std::vector<QString> names;
  for (const ScoreRow& row : scores.rows) names.push_back(QString::fromStdString(row.experiment));
  const std::vector<QColor> colors = experimentColors(names);
  const std::vector<QString> labels = shortNames(names);
  for (size_t r = 0; r < scores.rows.size(); ++r) {
    const ScoreRow& row = scores.rows[r];
    auto* set = new QBarSet(labels[r]);
    set->setColor(colors[r]);
    for (size_t k = 0; k < scores.columns.size(); ++k)
      if (scores.scored[k]) set->append(row.ratios[k]);
    series->append(set);
  }
  chart->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  for (size_t k = 0; k < scores.columns.size(); ++k)
    if (scores.scored[k]) categories->append(metricLabel(scores.columns[k].key()));
  // Fifteen metric names side by side: a smaller font keeps more of them upright.
  QFont small = categories->labelsFont();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  categories->setLabelsFont(small);
  slantLabelsWhenNarrow(chart, categories);
  auto* y = valueAxis("Ratio");  // "to the best" is in the heading; a short title fits a low plot
  y->setRange(0, 1.05);
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(0);
  y->setTickInterval(0.2);
  chart->addAxis(categories, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(categories);
  series->attachAxis(y);
  if (analysis) {
    std::vector<size_t> scored;  // the chart's categories: the scored metrics, in order
    for (size_t k = 0; k < scores.columns.size(); ++k)
      if (scores.scored[k]) scored.push_back(k);
    addErrorBars(chart, *series, scored.size(), y, [&](size_t r, size_t c) {
      return ratioInterval(*analysis, scores.rows[r].experiment, scored[c]);
    });
  }
  return chart;
}

namespace {

// What the scores chart of each table sums, for its title (in ScoreTable order; %1: the most).
const char* const kScoresTitles[] = {
    "Scores (at most %1) over the metrics each game can have (thesis table 8)",
    "Scores (at most %1) over lead changes, tension, lead, win ratio (thesis table 9)",
    "Scores (at most %1) over the extended metrics, ddalab's and Ludii's (score-ext)"};

// The highest score of `table` on the thesis's axes: 9 and 4; score-ext: its columns.
int maxScore(ScoreTable table) {
  if (table == ScoreTable::AllMetrics) return 9;
  if (table == ScoreTable::FourMetrics) return 4;
  const auto columns = scoredMetrics();
  return static_cast<int>(
      std::count_if(columns.begin(), columns.end(), [](const auto& c) { return c.extended(); }));
}

}  // namespace

QChart* scoresChart(const CrossScores& grid, ScoreTable table,
                    std::span<const ComparisonAnalysis> analyses) {
  auto* chart = new QChart;
  // "mean" is over the comparisons every row takes part in (CrossScores); the title says so,
  // since a longer category label is cut off at the chart's usual sizes.
  QStringList notes;
  if (grid.comparisons.size() > 1) notes << "mean: over the comparisons every row takes part in";
  if (!analyses.empty()) notes << "error bars: bootstrap 95 % intervals";
  const int most = maxScore(table);
  // The highest score in the title, not on the axis, and the notes on one plain line: the Scores
  // tab of a 1024 x 700 window leaves the plot little height, and the axis title stays whole.
  styleChart(chart, QString(kScoresTitles[static_cast<size_t>(table)]).arg(most) +
                        (notes.empty() ? QString()
                                       : "<br><span style=\"font-weight: normal\">" +
                                             notes.join("; ") + "</span>"));
  auto* series = new QBarSeries;
  std::vector<QString> names;
  for (const std::string& row : grid.rows) names.push_back(QString::fromStdString(row));
  const std::vector<QColor> colors = experimentColors(names);
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    auto* set = new QBarSet(names[r]);
    set->setColor(colors[r]);
    for (const auto& s : grid.scores[r]) set->append(s.value_or(0));
    if (grid.comparisons.size() > 1) set->append(std::isnan(grid.means[r]) ? 0 : grid.means[r]);
    series->append(set);
  }
  chart->addSeries(series);
  auto* categories = new QBarCategoryAxis;
  for (const auto& c : grid.comparisons) categories->append(QString::fromStdString(c));
  if (grid.comparisons.size() > 1) categories->append("mean");
  slantLabelsWhenNarrow(chart, categories);
  auto* y = valueAxis("Score");
  y->setRange(0, most);
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(0);
  y->setTickInterval(table == ScoreTable::AllMetrics ? 3 : 1);
  y->setMinorTickCount(table == ScoreTable::AllMetrics ? 2 : 0);
  chart->addAxis(categories, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(categories);
  series->attachAxis(y);
  if (!analyses.empty()) {
    const size_t categories = grid.comparisons.size() + (grid.comparisons.size() > 1 ? 1 : 0);
    addErrorBars(chart, *series, categories, y, [&](size_t r, size_t c) {
      return c < grid.comparisons.size() && grid.scores[r][c]
                 ? scoreInterval(analyses, grid.comparisons[c], grid.rows[r], table)
                 : std::nullopt;
    });
  }
  return chart;
}

bool saveChartView(QChartView* view, const QString& file) {
  const QSize size = view->size();
  try {  // through the checked file layer: never onto a FIFO or through a symbolic link
    if (file.endsWith(".svg", Qt::CaseInsensitive)) {
      writeSvgFile(file, size, view->chart()->title(),
                   [&](QPainter& painter) { view->render(&painter); });
      return true;
    }
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    view->render(&painter);
    painter.end();
    writeImageFile(file, image);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool saveChartView(QChartView* view, const QString& file, QSize size) {
  if (size == view->size()) return saveChartView(view, file);
  // The chart is lent to a view of `size` off screen and given back (a view owns its chart).
  QChart* chart = view->chart();
  auto placeholder = std::make_unique<QChart>();
  view->setChart(placeholder.get());
  bool saved = false;
  {
    QChartView sized(chart);
    sized.setRenderHint(QPainter::Antialiasing);
    sized.setAttribute(Qt::WA_DontShowOnScreen);
    sized.resize(size);
    sized.show();
    saved = saveChartView(&sized, file);
    sized.setChart(new QChart);  // releases `chart`; the view deletes this one
  }
  view->setChart(chart);  // releases the placeholder, deleted here
  return saved;
}

void replaceChart(QChartView* view, QChart* chart) {
  QChart* previous = view->chart();
  view->setChart(chart);
  delete previous;
}

bool saveChart(QChart* chart, const QString& file, QSize size) {
  QChartView view(chart);  // owns the chart from here on
  view.setRenderHint(QPainter::Antialiasing);
  view.setAttribute(Qt::WA_DontShowOnScreen);
  view.resize(size);
  view.show();  // lays the chart out at `size` without a window on screen
  return saveChartView(&view, file);
}

}  // namespace ddalab::gui
