#include "app/gui/batch/sweep_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/chart_views.h"
#include "app/gui/charts/charts.h"
#include "app/gui/charts/sweep_charts.h"

namespace ddalab::gui {

namespace {

// Keeps the current text of `box` when its items are replaced (when it still exists).
void setItems(QComboBox* box, const QStringList& items) {
  const QString current = box->currentText();
  box->clear();
  box->addItems(items);
  if (const int i = box->findText(current); i >= 0) box->setCurrentIndex(i);
}

QLabel* label(const QString& text, QWidget* parent) {
  return new QLabel(text, parent);
}

}  // namespace

SweepTable queueSweepTable(const QueueModel& model, std::span<const ComparisonAnalysis> analyses) {
  std::vector<ExperimentSummary> summaries;
  std::vector<Json> points;
  for (int row = 0; row < model.rowCount(); ++row) {
    const QueueEntry& e = model.entry(row);
    if (!e.results) continue;
    summaries.push_back(e.results->summary());
    points.push_back(e.experiment.value("point", Json::object()));
  }
  return sweepTable(summaries, points, analyses);
}

SweepView::SweepView(QueueModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      kind_(new QComboBox(this)),
      column_(new QComboBox(this)),
      x_(new QComboBox(this)),
      y_(new QComboBox(this)),
      series_(new QComboBox(this)),
      note_(new QLabel(this)),
      stack_(new QStackedWidget(this)),
      line_(new QChartView(this)),
      heatMap_(new HeatMap(this)) {
  kind_->addItems({"Line chart", "Heat map"});
  kind_->setToolTip("A column against one axis, or over two axes for one experiment");
  column_->setToolTip("A metric's mean, win_ratio, a score, or a difference to e-random");
  series_->setToolTip("The experiment whose grid points the heat map shows");
  line_->setRenderHint(QPainter::Antialiasing);
  stack_->addWidget(line_);
  stack_->addWidget(heatMap_);
  auto* png = new QPushButton("Export PNG…", this);
  auto* svg = new QPushButton("Export SVG…", this);
  connect(png, &QPushButton::clicked, this, [this] { exportShown("png"); });
  connect(svg, &QPushButton::clicked, this, [this] { exportShown("svg"); });
  auto* controls = new QHBoxLayout;
  controls->addWidget(kind_);
  controls->addWidget(label("Show", this));
  controls->addWidget(column_);
  controls->addWidget(label("X", this));
  controls->addWidget(x_);
  controls->addWidget(label("Y", this));
  controls->addWidget(y_);
  controls->addWidget(series_, 1);
  controls->addWidget(png);
  controls->addWidget(svg);
  note_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(note_);
  layout->addWidget(stack_, 1);
  for (QComboBox* box : {kind_, column_, x_, y_, series_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      if (!filling_) draw();
    });
  refresh({});
}

void SweepView::refresh(std::span<const ComparisonAnalysis> analyses) {
  table_ = queueSweepTable(*model_, analyses);
  fillChoices();
  draw();
}

void SweepView::fillChoices() {
  filling_ = true;
  QStringList columns, axes, series;
  for (const std::string& c : table_.columns) columns << QString::fromStdString(c);
  for (const std::string& a : table_.axes) axes << QString::fromStdString(a);
  for (const SweepRow& r : table_.rows)
    if (!series.contains(QString::fromStdString(r.series)))
      series << QString::fromStdString(r.series);
  const bool first = column_->count() == 0;
  setItems(column_, columns);
  if (first && columns.contains("score9")) column_->setCurrentText("score9");
  setItems(x_, axes);
  setItems(y_, axes);
  if (y_->currentIndex() == x_->currentIndex() && axes.size() > 1)
    y_->setCurrentIndex(x_->currentIndex() == 0 ? 1 : 0);
  const bool noSeries = series_->count() == 0;
  setItems(series_, series);
  // The heat map starts on an experiment the sweep steers (not the e-random reference).
  for (int i = 0; noSeries && i < series_->count(); ++i)
    if (!series_->itemText(i).endsWith("/e-random")) {
      series_->setCurrentIndex(i);
      break;
    }
  filling_ = false;
}

void SweepView::draw() {
  const bool heat = kind_->currentIndex() == 1;
  y_->setEnabled(heat);
  series_->setEnabled(heat);
  stack_->setCurrentIndex(heat ? 1 : 0);
  if (table_.rows.empty()) {
    note_->setText(
        "No sweep among the results: a batch or an experiment with \"sweep\" (docs/batches.md, "
        "Sweeps) fills this tab with a line chart and a heat map per grid point.");
    replaceChart(line_, new QChart);
    return;
  }
  const auto column = table_.column(column_->currentText().toStdString());
  if (!column) return;
  note_->setText(QString("%1 grid points × experiments over %2 axes.%3")
                     .arg(table_.rows.size())
                     .arg(table_.axes.size())
                     .arg(table_.axes.size() > 2 && heat
                              ? " The heat map draws a panel per value of the other axes."
                              : ""));
  if (!heat) {
    QChart* chart = sweepLineChart(table_, *column, x_->currentText().toStdString());
    replaceChart(line_, chart);
    makeLegendClickable(chart);
    return;
  }
  if (table_.axes.size() < 2) {
    note_->setText("A heat map needs two axes; this sweep has one: see the line chart.");
    return;
  }
  heatMap_->show(table_, *column, series_->currentText().toStdString(),
                 x_->currentText().toStdString(), y_->currentText().toStdString());
}

void SweepView::exportShown(const QString& suffix) {
  const QString file = askExportFile(this, "sweep", suffix);
  if (file.isEmpty()) return;
  const std::optional<QSize> size = askExportSize(this);
  if (!size) return;
  const bool ok = kind_->currentIndex() == 1 ? saveWidget(*heatMap_, file, *size)
                                             : saveChartView(line_, file, *size);
  if (!ok) QMessageBox::warning(this, "Export", "Could not write " + file);
}

}  // namespace ddalab::gui
