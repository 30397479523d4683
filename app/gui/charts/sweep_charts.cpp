#include "app/gui/charts/sweep_charts.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QHelpEvent>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "app/gui/charts/charts.h"
#include "app/gui/image_file.h"

namespace ddalab::gui {

namespace {

QString valueLabel(const Json& value) {
  return QString::fromStdString(ddalab::valueText(value));
}

QString shortNumber(double x) {
  return QString::number(x, 'g', 4);
}

// The values `axis` takes among `rows`, in order (numbers by value, the rest as text).
std::vector<Json> axisValues(const std::vector<const SweepRow*>& rows, const std::string& axis) {
  std::vector<Json> values;
  for (const SweepRow* r : rows)
    if (r->point.contains(axis) &&
        std::find(values.begin(), values.end(), r->point.at(axis)) == values.end())
      values.push_back(r->point.at(axis));
  std::sort(values.begin(), values.end(), [](const Json& a, const Json& b) {
    if (a.is_number() && b.is_number()) return a.get<double>() < b.get<double>();
    return valueLabel(a) < valueLabel(b);
  });
  return values;
}

std::vector<const SweepRow*> allRows(const SweepTable& table) {
  std::vector<const SweepRow*> rows;
  for (const SweepRow& r : table.rows) rows.push_back(&r);
  return rows;
}

size_t indexOf(const std::vector<Json>& values, const Json& value) {
  return static_cast<size_t>(std::find(values.begin(), values.end(), value) - values.begin());
}

// Whether the numbers of `values` are better drawn evenly spaced than to scale: they span two
// decades or more (0, 10, 100, 1000 would crowd into one corner).
bool evenlySpaced(const std::vector<Json>& values) {
  double smallest = 0, largest = 0;
  for (const Json& v : values) {
    if (!v.is_number()) return true;
    const double x = std::abs(v.get<double>());
    if (x > 0) smallest = smallest == 0 ? x : std::min(smallest, x);
    largest = std::max(largest, x);
  }
  return smallest > 0 && largest / smallest >= 100;
}

// The label of a line: the series after its comparison, and the other axes' values.
QString lineName(const SweepRow& row, const std::vector<std::string>& others) {
  QString name = QString::fromStdString(row.series);
  name = name.mid(name.lastIndexOf('/') + 1);
  for (const std::string& axis : others)
    if (row.point.contains(axis))
      name += QString(", %1=%2").arg(QString::fromStdString(axis), valueLabel(row.point.at(axis)));
  return name;
}

// A viridis-like scale from 0 (dark blue) to 1 (yellow).
QColor scaleColour(double t) {
  static const std::array<QColor, 5> stops = {QColor(68, 1, 84), QColor(59, 82, 139),
                                              QColor(33, 145, 140), QColor(94, 201, 98),
                                              QColor(253, 231, 37)};
  t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
  const auto i = std::min(static_cast<size_t>(t), stops.size() - 2);
  const double f = t - static_cast<double>(i);
  const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + f * (b - a))); };
  return QColor(mix(stops[i].red(), stops[i + 1].red()),
                mix(stops[i].green(), stops[i + 1].green()),
                mix(stops[i].blue(), stops[i + 1].blue()));
}

// The x axis of a sweep's line chart: the swept axis, its values, and whether they are drawn
// evenly spaced (then at their index) or to scale.
struct SweepXAxis {
  const std::string& axis;
  const std::vector<Json>& values;
  bool even;
  // Where the row's value of the axis is drawn.
  double at(const SweepRow& row) const {
    const Json& v = row.point.at(axis);
    return even ? static_cast<double>(indexOf(values, v)) : v.get<double>();
  }
};

// The lines of a sweep's chart: each line's rows by its name, the names in the order they first
// appear.
struct SweepLines {
  std::map<QString, std::vector<const SweepRow*>> rows;
  std::vector<QString> order;
};

// The rows that have `axis` and a value in `column`, grouped into lines named by lineName.
SweepLines sweepLinesOf(const std::vector<const SweepRow*>& rows, size_t column,
                        const std::string& axis, const std::vector<std::string>& others) {
  SweepLines lines;
  for (const SweepRow* r : rows) {
    if (!r->point.contains(axis) || !r->values[column]) continue;
    const QString name = lineName(*r, others);
    if (!lines.rows.count(name)) lines.order.push_back(name);
    lines.rows[name].push_back(r);
  }
  return lines;
}

// The lowest and highest interval bound drawn so far (none yet: infinite).
struct SweepSpan {
  double low = INFINITY, high = -INFINITY;
};

// A chart's two axes.
struct SweepAxes {
  QAbstractAxis* x;
  QValueAxis* y;
};

// How a line is drawn: its colour, dashed once the palette's colours come round again.
struct SweepLineStyle {
  QColor colour;
  bool dashed;
};

// Adds the line `name` of `points` to `chart`: its means as a line with points, its 95 %
// intervals as a band of the same colour (not in the legend); `span` grows to the intervals.
void addSweepLine(QChart* chart, SweepAxes axes, const SweepXAxis& along, size_t column,
                  const QString& name, std::vector<const SweepRow*> points,
                  const SweepLineStyle& style, SweepSpan& span) {
  auto *mean = new QLineSeries, *upper = new QLineSeries, *lower = new QLineSeries;
  std::sort(points.begin(), points.end(), [&](auto* a, auto* b) {
    return indexOf(along.values, a->point.at(along.axis)) <
           indexOf(along.values, b->point.at(along.axis));
  });
  for (const SweepRow* r : points) {
    const double at = along.at(*r);
    const SweepValue& value = *r->values[column];
    mean->append(at, value.value);
    upper->append(at, value.high);
    lower->append(at, value.low);
    span.low = std::min(span.low, value.low);
    span.high = std::max(span.high, value.high);
  }
  auto* band = new QAreaSeries(upper, lower);
  upper->setParent(band);  // an area series does not own its outlines
  lower->setParent(band);
  QColor fill = style.colour;
  fill.setAlpha(45);
  band->setBrush(fill);
  band->setPen(Qt::NoPen);
  follow(band, mean);
  mean->setName(name);
  QPen pen(style.colour, 2);
  if (style.dashed) pen.setStyle(Qt::DashLine);  // the colours come round again
  mean->setPen(pen);
  mean->setPointsVisible(true);
  for (QAbstractSeries* s :
       {static_cast<QAbstractSeries*>(band), static_cast<QAbstractSeries*>(mean)}) {
    chart->addSeries(s);
    s->attachAxis(axes.x);
    s->attachAxis(axes.y);
  }
  chart->legend()->markers(band).front()->setVisible(false);
}

// Labels an evenly spaced axis with the values, one at each index.
void labelEvenlySpaced(QCategoryAxis* categories, const std::vector<Json>& xs) {
  categories->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  for (size_t i = 0; i < xs.size(); ++i)
    categories->append(valueLabel(xs[i]), static_cast<double>(i));
  categories->setRange(-0.2, static_cast<double>(xs.size()) - 0.8);
}

// Fits the y axis to the intervals drawn and places the legend of `lines` lines where their
// names fit.
void fitSweepChart(QChart* chart, QValueAxis* y, const SweepSpan& span, size_t lines) {
  if (std::isfinite(span.low)) {
    const double pad = span.high > span.low ? 0.05 * (span.high - span.low)
                                            : std::max(1.0, std::abs(span.high) * 0.05);
    y->setRange(span.low - pad, span.high + pad);
    y->applyNiceNumbers();
  }
  // Lines are named by the other axes' values too: at the side, the names fit.
  chart->legend()->setAlignment(lines > 4 ? Qt::AlignRight : Qt::AlignBottom);
  if (lines > 8) {  // a smaller font keeps every name in view
    QFont font = chart->legend()->font();
    font.setPointSizeF(font.pointSizeF() * 0.8);
    chart->legend()->setFont(font);
  }
}

}  // namespace

int betterDirection(const std::string& column) {
  if (column == "score9" || column == "score4" || column == "score_ext") return 1;
  if (column == "win_ratio") return -1;
  std::string key = column;
  if (const size_t at = key.find("_vs_random"); at != std::string::npos) key = key.substr(0, at);
  if (key.ends_with("_per_round")) key = key.substr(0, key.size() - 10);
  const auto metric = metricByKey(key);
  if (!metric) return 0;
  const Better better = metricInfo(*metric).better;
  return better == Better::Higher ? 1 : better == Better::Lower ? -1 : 0;
}

QChart* sweepLineChart(const SweepTable& table, size_t column, const std::string& axis) {
  auto* chart = new QChart;
  styleChart(chart, title(table.columns[column]) + " against " + QString::fromStdString(axis) +
                        "<br><span style=\"font-weight: normal\">95 % intervals as bands; one "
                        "line per experiment and other values</span>");
  const std::vector<const SweepRow*> rows = allRows(table);
  const std::vector<Json> xs = axisValues(rows, axis);
  const SweepXAxis along{axis, xs, evenlySpaced(xs)};
  std::vector<std::string> others;
  for (const std::string& a : table.axes)
    if (a != axis) others.push_back(a);
  SweepLines lines = sweepLinesOf(rows, column, axis, others);
  const std::vector<QColor> colours = experimentColors(lines.order);
  auto* x = along.even ? static_cast<QAbstractAxis*>(new QCategoryAxis) : valueAxis(QString());
  x->setTitleText(QString::fromStdString(axis) + (along.even ? " (evenly spaced)" : ""));
  auto* y = valueAxis(title(table.columns[column]));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  SweepSpan span;
  for (size_t l = 0; l < lines.order.size(); ++l)
    addSweepLine(chart, {x, y}, along, column, lines.order[l], lines.rows[lines.order[l]],
                 {colours[l], l >= seriesPalette().size()}, span);
  if (along.even) labelEvenlySpaced(static_cast<QCategoryAxis*>(x), xs);
  fitSweepChart(chart, y, span, lines.order.size());
  return chart;
}

HeatMap::HeatMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(360, 240);
}

void HeatMap::show(const SweepTable& table, size_t column, const std::string& series,
                   const std::string& x, const std::string& y) {
  std::vector<const SweepRow*> rows;
  for (const SweepRow& r : table.rows)
    if (r.series == series && r.point.contains(x) && r.point.contains(y)) rows.push_back(&r);
  const std::vector<Json> xs = axisValues(rows, x), ys = axisValues(rows, y);
  // The other axes the series varies: a panel per combination of their values, in order.
  std::vector<std::string> others;
  std::vector<std::vector<Json>> otherValues;
  for (const std::string& axis : table.axes)
    if (axis != x && axis != y && !axisValues(rows, axis).empty()) {
      others.push_back(axis);
      otherValues.push_back(axisValues(rows, axis));
    }
  std::map<std::vector<size_t>, std::vector<const SweepRow*>> slices;
  for (const SweepRow* r : rows) {
    std::vector<size_t> key;
    for (size_t a = 0; a < others.size(); ++a)
      key.push_back(r->point.contains(others[a]) ? indexOf(otherValues[a], r->point.at(others[a]))
                                                 : otherValues[a].size());
    slices[key].push_back(r);
  }
  xs_.clear();
  ys_.clear();
  for (const Json& v : xs) xs_.push_back(valueLabel(v));
  for (const Json& v : ys) ys_.push_back(valueLabel(v));
  xName_ = QString::fromStdString(x);
  yName_ = QString::fromStdString(y);
  title_ = title(table.columns[column]) + " of " + QString::fromStdString(series);
  panels_.clear();
  min_ = INFINITY;
  max_ = -INFINITY;
  for (const auto& [key, slice] : slices) {
    Panel panel;
    QStringList parts;
    for (size_t a = 0; a < others.size(); ++a)
      if (key[a] < otherValues[a].size())
        parts << QString("%1=%2").arg(QString::fromStdString(others[a]),
                                      valueLabel(otherValues[a][key[a]]));
    panel.title = parts.join(", ");
    panel.cells.assign(ys.size(), std::vector<Cell>(xs.size()));
    for (const SweepRow* r : slice) {
      Cell& cell = panel.cells[indexOf(ys, r->point.at(y))][indexOf(xs, r->point.at(x))];
      if (cell.value || !r->values[column]) continue;  // the first row of a cell shows
      cell.value = r->values[column];
      min_ = std::min(min_, cell.value->value);
      max_ = std::max(max_, cell.value->value);
    }
    panels_.push_back(std::move(panel));
  }
  // The best cell over every panel drawn, not of the first one.
  best_.reset();
  const int direction = betterDirection(table.columns[column]);
  for (size_t k = 0; k < panels_.size() && direction != 0; ++k)
    for (size_t j = 0; j < panels_[k].cells.size(); ++j)
      for (size_t i = 0; i < panels_[k].cells[j].size(); ++i) {
        const auto& v = panels_[k].cells[j][i].value;
        if (!v) continue;
        const auto& b = best_ ? panels_[best_->panel].cells[best_->y][best_->x].value : std::nullopt;
        if (!b || direction * (v->value - b->value) > 0) best_ = Place{k, i, j};
      }
  ties_ = 0;  // other cells as good: the outline marks the first of them
  for (size_t k = 0; k < panels_.size() && best_; ++k)
    for (const auto& row : panels_[k].cells)
      for (const Cell& cell : row)
        ties_ += cell.value &&
                 cell.value->value == panels_[best_->panel].cells[best_->y][best_->x].value->value;
  if (ties_ > 0) --ties_;  // the best cell itself
  update();
}

std::optional<HeatMap::Best> HeatMap::best() const {
  if (!best_) return std::nullopt;
  return Best{xs_[best_->x], ys_[best_->y], panels_[best_->panel].title};
}

std::vector<QString> HeatMap::panelTitles() const {
  std::vector<QString> titles;
  for (const Panel& panel : panels_) titles.push_back(panel.title);
  return titles;
}

QString HeatMap::bestText() const {
  if (!best_) return {};
  const Best b = *best();
  return QString("the best cell, outlined: %1=%2, %3=%4%5: %6%7")
      .arg(xName_, b.x, yName_, b.y, b.slice.isEmpty() ? QString() : ", " + b.slice,
           shortNumber(panels_[best_->panel].cells[best_->y][best_->x].value->value),
           ties_ ? QString(" (as good: %1 other cell%2)").arg(ties_).arg(ties_ == 1 ? "" : "s")
                 : QString());
}

int HeatMap::columnsOfPanels() const {
  // Near square panels: as many columns as the widget's shape favours.
  const double n = static_cast<double>(std::max<size_t>(1, panels_.size()));
  const double aspect = static_cast<double>(std::max(1, width())) / std::max(1, height());
  const int columns = static_cast<int>(std::ceil(std::sqrt(n * aspect)));
  return std::clamp(columns, 1, static_cast<int>(n));
}

QRect HeatMap::gridArea() const {
  // Room for the title lines above, the y axis's name left, the x axis's name below and the
  // colour scale right.
  return rect().adjusted(30, 54, -120, -26);
}

QRect HeatMap::plotArea(size_t panel) const {
  const QRect grid = gridArea();
  const int columns = columnsOfPanels();
  const int rowsOfPanels = (static_cast<int>(panels_.size()) + columns - 1) / columns;
  constexpr int gap = 12;
  const int w = (grid.width() - gap * (columns - 1)) / columns;
  const int h = (grid.height() - gap * (rowsOfPanels - 1)) / std::max(1, rowsOfPanels);
  const int c = static_cast<int>(panel) % columns, r = static_cast<int>(panel) / columns;
  const QRect box(grid.left() + c * (w + gap), grid.top() + r * (h + gap), w, h);
  int labels = 0;  // room for the widest value label of the y axis
  for (const QString& y : ys_) labels = std::max(labels, fontMetrics().horizontalAdvance(y));
  const bool titled = panels_.size() > 1;
  return box.adjusted(labels + 8, titled ? 20 : 0, 0, -20);
}

void HeatMap::setTitle(const QString& title) {
  title_ = title;
  update();
}

QRect HeatMap::cellRect(size_t panel, size_t column, size_t row) const {
  const QRect area = plotArea(panel);
  const double w = static_cast<double>(area.width()) / static_cast<double>(xs_.size());
  const double h = static_cast<double>(area.height()) / static_cast<double>(ys_.size());
  // Row 0 (the smallest y) at the bottom, as on a chart.
  const auto top = static_cast<int>(area.bottom() + 1 - h * static_cast<double>(row + 1));
  return QRect(static_cast<int>(area.left() + w * static_cast<double>(column)), top,
               static_cast<int>(std::ceil(w)), static_cast<int>(std::ceil(h)));
}

QColor HeatMap::colourOf(double value) const {
  return scaleColour(max_ > min_ ? (value - min_) / (max_ - min_) : 0.5);
}

QString HeatMap::cellText(QPoint pos) const {
  for (size_t k = 0; k < panels_.size(); ++k)
    for (size_t j = 0; j < ys_.size(); ++j)
      for (size_t i = 0; i < xs_.size(); ++i) {
        if (!cellRect(k, i, j).contains(pos)) continue;
        const auto& v = panels_[k].cells[j][i].value;
        QString text = QString("%1=%2, %3=%4").arg(xName_, xs_[i], yName_, ys_[j]);
        if (!panels_[k].title.isEmpty()) text += ", " + panels_[k].title;
        text += ": ";
        text += v ? QString("%1 (95 %: %2 – %3)")
                        .arg(shortNumber(v->value), shortNumber(v->low), shortNumber(v->high))
                  : QString("not available");
        if (best_ && best_->panel == k && best_->x == i && best_->y == j) text += " — the best";
        return text;
      }
  return {};
}

bool HeatMap::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = cellText(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(e);
}

void HeatMap::paintLegend(QPainter& p, const QRect& area) const {
  const QRect bar(area.right() + 24, area.top(), 18, area.height());
  for (int yPixel = 0; yPixel < bar.height(); ++yPixel) {
    const double t = 1.0 - static_cast<double>(yPixel) / std::max(1, bar.height() - 1);
    p.setPen(scaleColour(t));
    p.drawLine(bar.left(), bar.top() + yPixel, bar.right(), bar.top() + yPixel);
  }
  p.setPen(Qt::black);
  p.drawRect(bar);
  const QRect labels(bar.right() + 6, bar.top() - 8, 80, bar.height() + 16);
  p.drawText(labels, Qt::AlignTop | Qt::AlignLeft, shortNumber(max_));
  p.drawText(labels, Qt::AlignVCenter | Qt::AlignLeft, shortNumber((min_ + max_) / 2));
  p.drawText(labels, Qt::AlignBottom | Qt::AlignLeft, shortNumber(min_));
}

void HeatMap::paintPanel(QPainter& p, size_t k) const {
  const QRect area = plotArea(k);
  if (!panels_[k].title.isEmpty())
    p.drawText(QRect(area.left(), area.top() - 20, area.width(), 18), Qt::AlignCenter,
               panels_[k].title);
  for (size_t j = 0; j < ys_.size(); ++j)
    for (size_t i = 0; i < xs_.size(); ++i) {
      const QRect cell = cellRect(k, i, j);
      const auto& v = panels_[k].cells[j][i].value;
      p.fillRect(cell, v ? colourOf(v->value) : QColor(230, 230, 230));
      if (!v || cell.width() < 44 || cell.height() < 18) continue;
      const double shade = max_ > min_ ? (v->value - min_) / (max_ - min_) : 0.5;
      p.setPen(shade > 0.6 ? Qt::black : Qt::white);
      p.drawText(cell, Qt::AlignCenter, shortNumber(v->value));
    }
  p.setPen(Qt::black);
  for (size_t i = 0; i < xs_.size(); ++i) {
    const QRect cell = cellRect(k, i, 0);
    p.drawText(QRect(cell.left(), area.bottom() + 2, cell.width(), 18), Qt::AlignCenter,
               fontMetrics().elidedText(xs_[i], Qt::ElideRight, cell.width()));
  }
  for (size_t j = 0; j < ys_.size(); ++j) {
    const QRect cell = cellRect(k, 0, j);
    p.drawText(QRect(area.left() - 200, cell.top(), 194, cell.height()),
               Qt::AlignRight | Qt::AlignVCenter, ys_[j]);
  }
}

void HeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), Qt::white);
  p.setRenderHint(QPainter::Antialiasing);
  QFont bold = font();
  bold.setBold(true);
  bold.setPointSizeF(bold.pointSizeF() * 1.15);
  p.setFont(bold);
  p.drawText(QRect(0, 6, width(), 22), Qt::AlignCenter, title_);
  p.setFont(font());
  const QString hover = panels_.size() > 1
                            ? QString("a panel per value of the other axes; hover a cell for its "
                                      "value and 95 % interval")
                            : QString("hover a cell for its value and 95 % interval");
  p.drawText(QRect(0, 26, width(), 20), Qt::AlignCenter,
             best_ ? bestText() + (panels_.size() > 1 ? "; a panel per value of the other axes"
                                                      : QString())
                   : hover);
  if (xs_.empty() || ys_.empty() || !std::isfinite(min_)) {
    p.drawText(rect(), Qt::AlignCenter, "No values over these axes");
    return;
  }
  for (size_t k = 0; k < panels_.size(); ++k) paintPanel(p, k);
  if (best_) {
    p.setPen(QPen(Qt::red, 3));
    p.drawRect(cellRect(best_->panel, best_->x, best_->y).adjusted(2, 2, -3, -3));
  }
  p.setPen(Qt::black);
  const QRect grid = gridArea();
  p.drawText(QRect(grid.left(), grid.bottom() + 4, grid.width(), 20), Qt::AlignCenter, xName_);
  p.save();
  p.translate(grid.left() - 16, grid.center().y());
  p.rotate(-90);
  p.drawText(QRect(-grid.height() / 2, -10, grid.height(), 20), Qt::AlignCenter, yName_);
  p.restore();
  paintLegend(p, grid);
}

bool saveWidget(QWidget& widget, const QString& file, QSize size) {
  const QSize shown = widget.size();
  widget.resize(size);
  bool ok = true;
  try {  // through the checked file layer: never onto a FIFO or through a symbolic link
    if (file.endsWith(".svg", Qt::CaseInsensitive)) {
      writeSvgFile(file, size, {}, [&](QPainter& painter) { widget.render(&painter); });
    } else {
      QImage image(size, QImage::Format_ARGB32);
      image.fill(Qt::white);
      widget.render(&image);
      writeImageFile(file, image);
    }
  } catch (const std::exception&) {
    ok = false;
  }
  widget.resize(shown);
  return ok;
}

}  // namespace ddalab::gui
