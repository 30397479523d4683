#include "app/gui/batch/chart_views.h"

#include <QBarLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/batch/analysis_views.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/charts/charts.h"

namespace ddalab::gui {

namespace {

QChart* emptyChart(const QString& message) {
  auto* chart = new QChart;
  chart->setTitle(message);
  return chart;
}

QTableWidget* readOnlyTable(QWidget* parent) {
  auto* table = new QTableWidget(parent);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->verticalHeader()->setVisible(false);
  return table;
}

}  // namespace

ChartPanel::ChartPanel(QWidget* parent)
    : QWidget(parent), view_(new QChartView(this)), controls_(new QHBoxLayout) {
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setMinimumHeight(180);
  auto* png = new QPushButton("Export PNG…", this);
  auto* svg = new QPushButton("Export SVG…", this);
  png->setToolTip("Save the chart as a PNG image of the size shown");
  svg->setToolTip("Save the chart as an SVG vector image");
  connect(png, &QPushButton::clicked, this, [this] { exportChart("png"); });
  connect(svg, &QPushButton::clicked, this, [this] { exportChart("svg"); });
  controls_->addStretch();
  controls_->addWidget(png);
  controls_->addWidget(svg);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls_);
  layout->addWidget(view_, 1);
}

void ChartPanel::setChart(QChart* chart) {
  replaceChart(view_, chart);
  makeLegendClickable(chart);
}

void makeLegendClickable(QChart* chart) {
  for (QLegendMarker* marker : chart->legend()->markers()) {
    QObject::connect(marker, &QLegendMarker::clicked, marker, [chart, marker] {
      // A bar set is hidden by making it transparent (a bar series has one legend marker per
      // set); any other series is hidden as a whole.
      bool shown = true;
      QObject* owner = marker->series();
      if (auto* bar = qobject_cast<QBarLegendMarker*>(marker)) {
        QBarSet* set = bar->barset();
        owner = set;
        const QVariant kept = set->property("shownColor");
        shown = !kept.isValid();
        set->setProperty("shownColor", shown ? QVariant(set->color()) : QVariant());
        set->setColor(shown ? Qt::transparent : kept.value<QColor>());
        set->setBorderColor(shown ? Qt::transparent : kept.value<QColor>().darker(110));
        shown = !shown;
      } else {
        marker->series()->setVisible(!marker->series()->isVisible());
        marker->setVisible(true);  // the marker stays to show the series again
        shown = marker->series()->isVisible();
      }
      for (QAbstractSeries* companion : chart->series())  // its error bars, its band
        if (followed(companion) == owner) companion->setVisible(shown);
      QFont font = marker->font();
      font.setStrikeOut(!shown);
      marker->setFont(font);
      marker->setLabelBrush(shown ? QBrush(Qt::black) : QBrush(Qt::gray));
    });
  }
}

QString askExportFile(QWidget* parent, const QString& stem, const QString& suffix) {
  QSettings settings;
  QString folder = settings.value("folders/charts").toString();
  if (folder.isEmpty() || !QDir(folder).exists())
    folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (folder.isEmpty()) folder = QDir::homePath();
  const QString file = QFileDialog::getSaveFileName(parent, "Export chart",
                                                    QDir(folder).filePath(stem + "." + suffix),
                                                    suffix.toUpper() + " (*." + suffix + ")");
  if (!file.isEmpty()) settings.setValue("folders/charts", QFileInfo(file).absolutePath());
  return file;
}

std::optional<QSize> askExportSize(QWidget* parent) {
  QSettings settings;
  const QString paper = QString("%1x%2").arg(kExportSize.width()).arg(kExportSize.height());
  bool ok = false;
  const QString size = QInputDialog::getText(
      parent, "Export chart", "Size in pixels (width x height; a paper figure: " + paper + "):",
      QLineEdit::Normal, settings.value("charts/size", paper).toString(), &ok);
  if (!ok) return std::nullopt;
  const QStringList parts = size.toLower().split('x');
  const QSize pixels = parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
  if (pixels.width() < 100 || pixels.height() < 100 || pixels.width() > 10000 ||
      pixels.height() > 10000) {
    QMessageBox::warning(parent, "Export chart",
                         "The size must be WIDTHxHEIGHT, each 100 to 10000 pixels, e.g. " + paper +
                             "; got '" + size + "'");
    return std::nullopt;
  }
  settings.setValue("charts/size", size);
  return pixels;
}

void ChartPanel::exportChart(const QString& suffix) {
  const QString file = askExportFile(this, "chart", suffix);
  if (file.isEmpty()) return;
  const std::optional<QSize> pixels = askExportSize(this);
  if (pixels && !saveChartView(view_, file, *pixels))
    QMessageBox::warning(this, "Export chart", "Cannot write " + file);
}

HistogramView::HistogramView(QueueModel* model, QWidget* parent)
    : ChartPanel(parent),
      model_(model),
      metric_(new QComboBox(this)),
      bins_(new QSpinBox(this)),
      overlay_(new QCheckBox("Overlay its comparison", this)),
      share_(new QCheckBox("Share of games", this)) {
  for (const auto& info : allMetrics()) {
    metric_->addItem(QString::fromStdString(std::string(info.key)));
    metric_->setItemData(metric_->count() - 1,
                         QString::fromStdString(std::string(info.description)), Qt::ToolTipRole);
  }
  metric_->setCurrentIndex(static_cast<int>(Metric::Tension));
  bins_->setRange(2, 500);
  bins_->setValue(30);
  bins_->setPrefix("bins ");
  overlay_->setChecked(true);
  overlay_->setToolTip(
      "With one experiment selected, draw the other experiments of its "
      "comparison on the same bins; select rows with Ctrl+click to choose them "
      "(e.g. e-random against e-hillclimber: what the DDA does). Comparisons of more than "
      "4 rows are overlaid only when you tick it.");
  share_->setToolTip("Heights as the share of each experiment's games instead of game counts");
  controls()->insertWidget(0, new QLabel("Metric", this));
  controls()->insertWidget(1, metric_);
  controls()->insertWidget(2, bins_);
  controls()->insertWidget(3, overlay_);
  controls()->insertWidget(4, share_);
  connect(metric_, &QComboBox::currentIndexChanged, this, &HistogramView::refresh);
  connect(bins_, &QSpinBox::valueChanged, this, &HistogramView::refresh);
  connect(overlay_, &QCheckBox::clicked, this, [this] {
    overlayChosen_ = true;  // the person's choice holds from now on
    refresh();
  });
  connect(share_, &QCheckBox::toggled, this, &HistogramView::refresh);
  refresh();
}

void HistogramView::showRows(std::vector<int> rows) {
  selected_ = std::move(rows);
  refresh();
}

std::vector<int> HistogramView::rowsShown() {
  std::vector<int> rows;
  for (int r : selected_)
    if (r >= 0 && r < model_->rowCount()) rows.push_back(r);
  if (rows.size() != 1) return rows;
  const int row = rows.front();
  const std::string& comparison = model_->entry(row).label.comparison;
  std::vector<int> others;
  for (int r = 0; r < model_->rowCount(); ++r)
    if (r != row && !comparison.empty() && model_->entry(r).label.comparison == comparison &&
        model_->entry(r).games())
      others.push_back(r);
  // Overlaying more than 4 rows is opt-in: until the person ticks the box it follows the size.
  if (!overlayChosen_) {
    const QSignalBlocker quiet(overlay_);
    overlay_->setChecked(others.size() + 1 <= kAutoOverlayRows);
  }
  if (overlay_->isChecked()) rows.insert(rows.end(), others.begin(), others.end());
  return rows;
}

void HistogramView::refresh() {
  const auto metric = static_cast<Metric>(metric_->currentIndex());
  const std::vector<int> rows = rowsShown();
  std::vector<Sample> samples;  // the chart shortens names that share their comparison
  for (int r : rows) {
    const QueueEntry& e = model_->entry(r);
    samples.push_back(
        {QString::fromStdString(e.label.name), e.values[static_cast<size_t>(metric)]});
  }
  if (samples.empty() || samples.front().values.empty()) {
    setChart(emptyChart(rows.empty() ? "Select an experiment to see its histograms (Ctrl+click "
                                       "more rows to overlay them)"
                                     : "No finished games yet: start the batch (F5)"));
    return;
  }
  setChart(histogramChart(metric, samples, bins_->value(), share_->isChecked()));
}

CompareView::CompareView(QueueModel* model, QWidget* parent)
    : ChartPanel(parent), model_(model), ratios_(readOnlyTable(this)), note_(new QLabel(this)) {
  ratios_->setMinimumHeight(84);  // the header and two rows
  note_->setWordWrap(true);
  // The chart over the table, the split movable: a small window can favour either.
  auto* table = new QWidget(this);
  auto* tableLayout = new QVBoxLayout(table);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->addWidget(ratios_, 1);
  tableLayout->addWidget(note_);
  auto* split = new QSplitter(Qt::Vertical, this);
  layout()->removeWidget(view());
  split->addWidget(view());
  split->addWidget(table);
  split->setStretchFactor(0, 4);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  static_cast<QVBoxLayout*>(layout())->addWidget(split, 1);
  refresh();
}

void CompareView::showRow(int row, const ComparisonAnalysis* analysis) {
  row_ = row;
  analysis_ = analysis;
  refresh();
}

void CompareView::refresh() {
  fillTable(ratios_, {}, {});
  note_->clear();
  if (row_ < 0 || row_ >= model_->rowCount()) {
    setChart(emptyChart("Select an experiment to compare the rows of its comparison"));
    return;
  }
  const std::string comparison = model_->entry(row_).label.comparison;
  std::vector<ExperimentSummary> rows;
  for (const ExperimentSummary& s : model_->summaries())
    if (!comparison.empty() && s.label.comparison == comparison) rows.push_back(s);
  if (rows.size() < 2) {
    setChart(emptyChart(comparison.empty() ? "This experiment belongs to no comparison"
                                           : "The comparison needs results of two or more rows"));
    return;
  }
  const auto scores = scoreAll(rows);
  setChart(comparisonChart(scores.front(), analysis_));
  // The CLI's ratio-to-best table, with the same significance marks.
  const ComparisonScores& table = scores.front();
  QStringList headers = {"Experiment"};
  for (const ScoredMetric& column : table.columns)
    headers << QString::fromStdString(std::string(column.key()));
  for (ScoreTable t : kScoreTables) headers << QString::fromStdString(std::string(scoreKey(t)));
  std::vector<QStringList> cells;
  for (const ScoreRow& r : table.rows) {
    QStringList line = {QString::fromStdString(r.experiment)};
    for (size_t k = 0; k < table.columns.size(); ++k)
      line << (std::isnan(r.ratios[k]) ? QString("–")
                                       : QString::number(r.ratios[k], 'f', 3) +
                                             QString::fromStdString(significanceMark(
                                                 analysis_, r.experiment, table.columns[k])));
    for (ScoreTable t : kScoreTables) line << QString::number(r.score(t), 'f', 3);
    cells.push_back(line);
  }
  fillTable(ratios_, headers, cells);
  // One line at 1024 pixels (the chart above needs the height); the details in its tooltip.
  note_->setText(analysis_ ? QString("* differs from %1 (paired test, Holm, 5 %); the Tests tab "
                                     "has every difference with its interval")
                                 .arg(QString::fromStdString(analysis_->reference))
                           : noAnalysisText(comparison) + " Without it no difference is marked.");
  note_->setToolTip(analysis_ ? QString("* the row's mean differs from %1's: paired test over %2 "
                                        "paired games, Holm-corrected over the comparison's "
                                        "thesis or extended metrics, 5 %")
                                    .arg(QString::fromStdString(analysis_->reference))
                                    .arg(analysis_->pairs)
                              : QString());
}

ScoresView::ScoresView(QueueModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      table_(new QComboBox(this)),
      grid_(new QTableWidget(this)),
      intervals_(readOnlyTable(this)),
      intervalsNote_(new QLabel(this)),
      chart_(new ChartPanel(this)) {
  // In kScoreTables order: the current index is the table.
  table_->addItems({"Table 8: all nine metrics (score9)",
                    "Table 9: lead changes, tension, lead, win ratio (score4)",
                    "score-ext: the extended metrics, ddalab's and Ludii's (score_ext)"});
  chart_->controls()->insertWidget(0, table_);
  grid_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  grid_->verticalHeader()->setVisible(true);
  grid_->setToolTip("Per comparison, each row's score: the sum of its ratios to the best");
  intervalsNote_->setWordWrap(true);
  // The scores and their chart over the intervals, the split movable; the chart keeps room for
  // its axis titles in a 1024 x 700 window (laid out in one column, it was left 40 pixels).
  auto* scores = new QWidget(this);
  auto* top = new QHBoxLayout(scores);
  top->setContentsMargins(0, 0, 0, 0);
  top->addWidget(grid_);
  top->addWidget(chart_, 1);
  chart_->setMinimumHeight(230);
  auto* intervals = new QWidget(this);
  auto* bottom = new QVBoxLayout(intervals);
  bottom->setContentsMargins(0, 0, 0, 0);
  bottom->addWidget(intervalsNote_);
  bottom->addWidget(intervals_, 1);
  intervals_->setMinimumHeight(84);  // the header and two rows
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(scores);
  split->addWidget(intervals);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  connect(table_, &QComboBox::currentIndexChanged, this, [this] { refresh(analyses_); });
  refresh();
}

void ScoresView::refresh(std::span<const ComparisonAnalysis> analyses,
                         const ComparisonAnalysis* selected) {
  analyses_ = analyses;
  showAnalysis(selected);
  const ScoreTable table = kScoreTables[std::max(0, table_->currentIndex())];
  const CrossScores grid = crossScores(scoreAll(model_->summaries()), table);
  grid_->clear();
  grid_->setRowCount(static_cast<int>(grid.rows.size()));
  grid_->setColumnCount(static_cast<int>(grid.comparisons.size()) + 1);
  QStringList columns;
  for (const auto& c : grid.comparisons) columns << QString::fromStdString(c);
  columns << "mean";  // over the comparisons every row takes part in
  grid_->setHorizontalHeaderLabels(columns);
  QStringList rows;
  for (size_t r = 0; r < grid.rows.size(); ++r) {
    rows << QString::fromStdString(grid.rows[r]);
    for (size_t c = 0; c <= grid.comparisons.size(); ++c) {
      // A score, the mean over the comparisons with every row, or nothing ("–").
      const double value =
          c < grid.comparisons.size() ? grid.scores[r][c].value_or(std::nan("")) : grid.means[r];
      auto* item =
          new QTableWidgetItem(std::isnan(value) ? QString("–") : QString::number(value, 'f', 2));
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      grid_->setItem(static_cast<int>(r), static_cast<int>(c), item);
    }
  }
  grid_->setVerticalHeaderLabels(rows);
  grid_->resizeColumnsToContents();
  int width = grid_->verticalHeader()->sizeHint().width() + 4 + grid_->frameWidth() * 2;
  for (int c = 0; c < grid_->columnCount(); ++c) width += grid_->columnWidth(c);
  grid_->setFixedWidth(std::min(width + 18, 520));
  if (grid.rows.empty()) {
    chart_->setChart(emptyChart("Scores appear once a comparison has results of two or more rows"));
    return;
  }
  chart_->setChart(scoresChart(grid, table, analyses));
}

void ScoresView::showAnalysis(const ComparisonAnalysis* a) {
  if (!a || a->scores.empty()) {
    intervalsNote_->setText("Score intervals: " + (a ? noAnalysisText(a->comparison)
                                                     : QString("select a row of a comparison.")));
    fillTable(intervals_, {}, {});
    return;
  }
  const auto range = [](double low, double high) {
    return QString::number(low, 'f', 2) + " .. " + QString::number(high, 'f', 2);
  };
  const auto percent = [](double share) { return QString::number(100 * share, 'f', 0) + " %"; };
  QStringList headers = {"Experiment",    "score9",
                         "95 % interval", "score4",
                         "95 % interval", "score_ext",
                         "95 % interval", "P(> " + QString::fromStdString(a->reference) + ")"};
  for (size_t rank = 1; rank <= a->scores.size(); ++rank)
    headers << QString("P(rank %1)").arg(rank);
  std::vector<QStringList> rows;
  for (const ScoreInterval& s : a->scores) {
    QStringList line = {QString::fromStdString(s.experiment),
                        QString::number(s.score9, 'f', 2),
                        range(s.score9Low, s.score9High),
                        QString::number(s.score4, 'f', 2),
                        range(s.score4Low, s.score4High),
                        QString::number(s.scoreExt, 'f', 2),
                        range(s.scoreExtLow, s.scoreExtHigh),
                        s.experiment == a->reference ? QString("–") : percent(s.above9)};
    for (double p : s.rank9) line << percent(p);
    rows.push_back(line);
  }
  intervalsNote_->setText(
      QString("Comparison %1: bootstrap 95 % intervals of the scores (%2 replicates of the %3 "
              "paired games); P(> %4): the share of replicates in which score9 is above %4's; "
              "P(rank): by score9, rank 1 the highest.")
          .arg(QString::fromStdString(a->comparison))
          .arg(a->replicates)
          .arg(a->pairs)
          .arg(QString::fromStdString(a->reference)));
  fillTable(intervals_, headers, rows);
}

}  // namespace ddalab::gui
