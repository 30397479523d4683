#include "app/gui/batch/ratings_view.h"

#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

#include "app/gui/charts/rating_charts.h"

namespace ddalab::gui {

namespace {

// A chart that only says `message`, wrapped into lines that fit a narrow window (a title is
// never wrapped by the chart itself) and escaped (a file name is text, not markup).
QChart* messageChart(const QString& message) {
  QStringList lines{QString()};
  for (const QString& word : message.split(' ', Qt::SkipEmptyParts)) {
    if (!lines.back().isEmpty() && lines.back().size() + word.size() > 80) lines << QString();
    lines.back() += (lines.back().isEmpty() ? "" : " ") + word;
  }
  for (QString& line : lines) line = line.toHtmlEscaped();
  auto* chart = new QChart;
  chart->setTitle(lines.join("<br>"));
  return chart;
}

// What the tables lack, said above the chart ("no level_curves.csv rows").
QString missingText(const RatingTablesRead& tables) {
  QStringList missing;
  if (tables.ratings.empty()) missing << "ratings.csv";
  if (tables.curves.empty()) missing << "level_curves.csv";
  if (tables.balance.empty()) missing << "balance.csv";
  if (!tables.balance.empty() && tables.balanceSummaries.empty()) missing << "balance_summary.csv";
  if (missing.isEmpty()) return {};
  return "no rows in " + missing.join(", ");
}

}  // namespace

bool holdsRatingTables(const std::filesystem::path& dir) {
  std::error_code error;
  for (const char* name : kRatingTableFiles)
    if (std::filesystem::exists(dir / name, error)) return true;
  return false;
}

bool RatingsView::showFolder(const std::filesystem::path& dir) {
  if (!holdsRatingTables(dir)) {
    showMessage("No rating tables in " + QString::fromStdString(dir.string()));
    return false;
  }
  try {
    showTables(readRatingTables(dir));
  } catch (const std::exception& e) {
    showMessage("The rating tables cannot be shown: " + QString::fromStdString(e.what()));
  }
  return true;
}

RatingsView::RatingsView(QWidget* parent)
    : ChartPanel(parent),
      kind_(new QComboBox(this)),
      curve_(new QComboBox(this)),
      note_(new QLabel(this)) {
  kind_->addItems({"Rating ladder", "Level curves", "Balance curves"});
  kind_->setToolTip("Which table to draw");
  curve_->setToolTip("The level curve to draw (all on one chart, or one)");
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  controls()->insertWidget(0, new QLabel("Chart:", this));
  controls()->insertWidget(1, kind_);
  controls()->insertWidget(2, curve_);
  controls()->insertWidget(3, note_, 1);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) draw();
  });
  connect(curve_, &QComboBox::currentIndexChanged, this, [this] {
    if (!filling_) draw();
  });
  showMessage("No rating tables: open a tournament's or a balance run's results folder");
}

bool RatingsView::has(Kind kind) const {
  switch (kind) {
    case Kind::Ladder:
      return !tables_.ratings.empty();
    case Kind::LevelCurves:
      return !tables_.curves.empty();
    case Kind::Balance:
      return !tables_.balance.empty();
  }
  return false;
}

void RatingsView::showTables(RatingTablesRead tables) {
  tables_ = std::move(tables);
  fillChoices();
  note_->setText(missingText(tables_));
  draw();
}

void RatingsView::showMessage(const QString& message) {
  tables_ = {};
  fillChoices();
  note_->setText(message);
  curve_->setVisible(false);
  setChart(messageChart(message));
}

bool RatingsView::showKind(Kind kind) {
  if (!has(kind)) return false;
  kind_->setCurrentIndex(static_cast<int>(kind));
  return true;
}

void RatingsView::fillChoices() {
  filling_ = true;
  // A kind the tables have no rows for is greyed out; the first one they have is chosen.
  auto* items = qobject_cast<QStandardItemModel*>(kind_->model());
  int first = -1;
  for (int k = 0; k < kind_->count(); ++k) {
    const bool available = has(static_cast<Kind>(k));
    items->item(k)->setEnabled(available);
    if (available && first < 0) first = k;
  }
  if (first >= 0 && !has(static_cast<Kind>(kind_->currentIndex()))) kind_->setCurrentIndex(first);
  const QString chosen = curve_->currentText();
  curve_->clear();
  curve_->addItem("All curves");
  for (const std::string& c : levelCurveNames(tables_.curves))
    curve_->addItem(QString::fromStdString(c));
  if (const int at = curve_->findText(chosen); at >= 0) curve_->setCurrentIndex(at);
  filling_ = false;
}

void RatingsView::draw() {
  const auto kind = static_cast<Kind>(kind_->currentIndex());
  curve_->setVisible(kind == Kind::LevelCurves && curve_->count() > 2);
  if (!has(kind)) return setChart(messageChart("Nothing to draw: " + missingText(tables_)));
  switch (kind) {
    case Kind::Ladder:
      return setChart(ratingLadderChart(tables_));
    case Kind::LevelCurves: {
      std::vector<std::string> curves;
      if (curve_->currentIndex() > 0) curves.push_back(curve_->currentText().toStdString());
      return setChart(levelCurvesChart(tables_.curves, curves));
    }
    case Kind::Balance:
      return setChart(balanceChart(tables_.balance, tables_.balanceSummaries));
  }
}

}  // namespace ddalab::gui
