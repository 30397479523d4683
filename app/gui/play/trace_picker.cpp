#include "app/gui/play/trace_picker.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <fstream>

#include "core/params.h"

namespace ddalab::gui {

namespace {

// One row of the table from a trace line (missing fields read "–").
QStringList rowOf(const Json& line) {
  const Json result = line.value("result", Json::object());
  const Json metrics = result.value("metrics", Json::object());
  const auto metric = [&](const char* key) {
    return metrics.contains(key) && metrics.at(key).is_number()
               ? QString::number(metrics.at(key).get<double>(), 'g', 4)
               : QString("–");
  };
  const Json winner = result.value("winner", Json());
  return {QString::number(line.value("iteration", 0)),
          QString::number(line.value("rounds", Json::array()).size()),
          winner.is_number() ? "seat " + QString::number(winner.get<int>()) : QString("none"),
          metric("lead_changes"),
          metric("tension"),
          metric("believability")};
}

}  // namespace

TracePicker::TracePicker(const QString& file, QWidget* parent)
    : QDialog(parent), table_(new QTableWidget(this)) {
  setWindowTitle("Open trace: choose a game");
  const QStringList headers = {"Iteration",    "Rounds",  "Winner",
                               "Lead changes", "Tension", "Believability"};
  table_->setColumnCount(static_cast<int>(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  std::ifstream in(file.toStdString());
  if (!in) throw InputError(file.toStdString(), "cannot open the file");
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty()) continue;
    QStringList cells;
    try {
      cells = rowOf(Json::parse(text));
    } catch (const Json::exception& e) {
      throw InputError(file.toStdString() + ":" + std::to_string(line), e.what());
    }
    const int row = table_->rowCount();
    table_->insertRow(row);
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setData(Qt::UserRole, line - 1);
      table_->setItem(row, c, item);
    }
  }
  if (table_->rowCount() == 0) throw InputError(file.toStdString(), "holds no game");
  table_->resizeColumnsToContents();
  table_->selectRow(0);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(table_, &QTableWidget::cellDoubleClicked, this, &QDialog::accept);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(
      QString("%1 games in %2; a double-click replays one").arg(table_->rowCount()).arg(file),
      this));
  layout->addWidget(table_, 1);
  layout->addWidget(buttons);
  resize(640, 480);
}

int TracePicker::chosen() const {
  const auto rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : table_->item(rows.front().row(), 0)->data(Qt::UserRole).toInt();
}

}  // namespace ddalab::gui
