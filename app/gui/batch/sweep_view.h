#pragma once
// The Sweep tab: the results of a swept batch (every grid point of the queue with results) as a
// line chart of any column against one axis or a heat map over two axes for one experiment
// series; both export PNG and SVG. Built from results/sweep_table.h, the table sweep.csv holds.
#include <QWidget>
#include <span>

#include "results/sweep_table.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QComboBox;
class QLabel;
class QStackedWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

class HeatMap;
class QueueModel;

// The sweep table of the queue's rows with results (their experiments' "point").
SweepTable queueSweepTable(const QueueModel& model, std::span<const ComparisonAnalysis> analyses);

class SweepView : public QWidget {
  Q_OBJECT
 public:
  explicit SweepView(QueueModel* model, QWidget* parent = nullptr);
  // Rebuilds the table from the queue (with the analyses of its comparisons, when known).
  void refresh(std::span<const ComparisonAnalysis> analyses);
  QComboBox* kindBox() const { return kind_; }
  QComboBox* columnBox() const { return column_; }
  QComboBox* xBox() const { return x_; }
  QComboBox* yBox() const { return y_; }
  QComboBox* seriesBox() const { return series_; }
  HeatMap* heatMap() const { return heatMap_; }
  QChartView* lineView() const { return line_; }
  // Asks for a file and saves what is shown; `suffix` is "png" or "svg".
  void exportShown(const QString& suffix);

 private:
  void fillChoices();
  void draw();

  QueueModel* model_;
  SweepTable table_;
  QComboBox *kind_, *column_, *x_, *y_, *series_;
  QLabel* note_;
  QStackedWidget* stack_;
  QChartView* line_;
  HeatMap* heatMap_;
  bool filling_ = false;
};

}  // namespace ddalab::gui
