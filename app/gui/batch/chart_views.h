#pragma once
// The tabs under the queue: the histogram of a metric of the selected experiment (with the other
// rows of its comparison overlaid), the ratio-to-best chart of its comparison and the score tables
// 8/9 with their chart. Each chart exports PNG and SVG.
#include <QSize>
#include <QWidget>
#include <optional>
#include <span>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab {
struct ComparisonAnalysis;
}

namespace ddalab::gui {

class QueueModel;

// A chart view with "Export PNG" / "Export SVG" buttons under the controls of its owner.
class ChartPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ChartPanel(QWidget* parent = nullptr);
  // Shows `chart` (taking ownership; the previous chart is deleted).
  void setChart(QChart* chart);
  QChartView* view() const { return view_; }
  // A row for the owner's controls, left of the export buttons.
  QHBoxLayout* controls() const { return controls_; }
  // Asks for a file and saves the chart; `suffix` is "png" or "svg".
  void exportChart(const QString& suffix);

 private:
  QChartView* view_;
  QHBoxLayout* controls_;
};

// The size an export offers first (a paper figure), until the person chooses another.
inline constexpr QSize kExportSize(1600, 1000);
// Asks where to export a chart, starting in the folder of the last export (else the person's
// documents) with `stem`.`suffix`; empty when cancelled.
QString askExportFile(QWidget* parent, const QString& stem, const QString& suffix);
// Asks the size in pixels of an export (the last one chosen, else kExportSize); none when
// cancelled or refused (saying why).
std::optional<QSize> askExportSize(QWidget* parent);

// Legend entries of `chart` hide and show their series (or bar set) when clicked.
void makeLegendClickable(QChart* chart);

class HistogramView : public ChartPanel {
  Q_OBJECT
 public:
  explicit HistogramView(QueueModel* model, QWidget* parent = nullptr);
  // Shows the selected rows: two or more are overlaid; one is overlaid with the other rows of its
  // comparison when "Overlay its comparison" is on.
  void showRows(std::vector<int> rows);
  void refresh();
  // The rows drawn (the first selected one first); sets the overlay box to what it does.
  std::vector<int> rowsShown();
  QComboBox* metricBox() const { return metric_; }
  QSpinBox* binsBox() const { return bins_; }

 private:
  QueueModel* model_;
  std::vector<int> selected_;
  QComboBox* metric_;
  QSpinBox* bins_;
  QCheckBox* overlay_;
  bool overlayChosen_ = false;  // the person ticked or cleared "Overlay its comparison"
  static constexpr size_t kAutoOverlayRows = 4;
  QCheckBox* share_;
};

class CompareView : public ChartPanel {
  Q_OBJECT
 public:
  explicit CompareView(QueueModel* model, QWidget* parent = nullptr);
  // Shows the comparison of `row` with `analysis` (its paired tests; may be null).
  void showRow(int row, const ComparisonAnalysis* analysis = nullptr);
  void refresh();
  // The ratio-to-best table under the chart, '*' marking significant differences.
  QTableWidget* ratios() const { return ratios_; }

 private:
  QueueModel* model_;
  int row_ = -1;
  const ComparisonAnalysis* analysis_ = nullptr;
  QTableWidget* ratios_;
  QLabel* note_;
};

class ScoresView : public QWidget {
  Q_OBJECT
 public:
  explicit ScoresView(QueueModel* model, QWidget* parent = nullptr);
  // Redraws the score tables; with `analyses`, the chart's error bars, and the intervals and
  // rank probabilities of `selected` (the selected row's comparison; null: none).
  void refresh(std::span<const ComparisonAnalysis> analyses = {},
               const ComparisonAnalysis* selected = nullptr);
  ChartPanel* chart() const { return chart_; }
  QTableWidget* intervals() const { return intervals_; }

 private:
  QueueModel* model_;
  QComboBox* table_;
  QTableWidget* grid_;
  QTableWidget* intervals_;
  QLabel* intervalsNote_;
  std::span<const ComparisonAnalysis> analyses_;  // owned by the caller of refresh
  void showAnalysis(const ComparisonAnalysis* analysis);
  ChartPanel* chart_;
};

}  // namespace ddalab::gui
