#pragma once
// The charts of a swept batch (results/sweep_table.h): a line chart of any column against one
// axis, one line per experiment series and value of the other axes, with its 95 % band; and a
// heat map of a column over two axes for one series (a panel per value of the other axes), with
// a colour scale, the value of a cell on hover and the best cell marked and named.
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "results/sweep_table.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ddalab::gui {

// Which way `column` of a sweep table is better: +1 higher, -1 lower, 0 neither (then no cell
// is marked best). Metrics follow their descriptor, scores are higher-better, win_ratio lower;
// a difference to e-random follows its metric.
int betterDirection(const std::string& column);

// The line chart of `column` against `axis` (the caller owns it).
QChart* sweepLineChart(const SweepTable& table, size_t column, const std::string& axis);

// The heat map of one column over two axes for one series; a sweep of more axes gets a panel
// per combination of the other axes' values (small multiples on one colour scale), and the best
// cell is chosen over every panel.
class HeatMap : public QWidget {
  Q_OBJECT
 public:
  explicit HeatMap(QWidget* parent = nullptr);
  // Shows `column` of the rows of `series` over `x` (columns) and `y` (rows of cells), a panel
  // per combination of the values of the series' other axes.
  void show(const SweepTable& table, size_t column, const std::string& series, const std::string& x,
            const std::string& y);
  // The cell under `pos` as "x=…, y=…[, other=…]: value (low – high)", empty outside the cells.
  QString cellText(QPoint pos) const;
  // Replaces the title show() gave ("<column> of <series>").
  void setTitle(const QString& title);
  // The best cell, if the column has a better direction: its x and y values and its panel's
  // values of the other axes ("z=3, w=1"; empty with one panel).
  struct Best {
    QString x, y, slice;
  };
  std::optional<Best> best() const;
  // The panels drawn (one per combination of the other axes' values), by their titles.
  std::vector<QString> panelTitles() const;
  QSize sizeHint() const override { return {640, 420}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  struct Cell {
    std::optional<SweepValue> value;
  };
  struct Panel {
    QString title;                   // the other axes' values; empty for a two-axis sweep
    std::vector<std::vector<Cell>> cells;  // [y][x]
  };
  struct Place {
    size_t panel, x, y;
  };
  int columnsOfPanels() const;
  QRect gridArea() const;
  QRect plotArea(size_t panel) const;
  QRect cellRect(size_t panel, size_t column, size_t row) const;
  QColor colourOf(double value) const;
  void paintLegend(QPainter& p, const QRect& area) const;
  void paintPanel(QPainter& p, size_t panel) const;
  QString bestText() const;

  QString title_, xName_, yName_;
  std::vector<QString> xs_, ys_;  // the axes' values in order
  std::vector<Panel> panels_;
  double min_ = 0, max_ = 0;
  std::optional<Place> best_;
  size_t ties_ = 0;  // other cells with the best value
};

// Saves `widget` as PNG or SVG (by the file's suffix) at `size`; false on failure.
bool saveWidget(QWidget& widget, const QString& file, QSize size);

}  // namespace ddalab::gui
