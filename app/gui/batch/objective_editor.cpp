#include "app/gui/batch/objective_editor.h"
#include "app/gui/text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/gui/batch/param_form.h"

namespace ddalab::gui {

namespace {

// A column of a kind's per-metric table: the file key it fills, and the choices of a column
// chosen from a list (the metric, a direction).
struct Column {
  const char* key;
  const char* title;
  const char* tip;
};

std::vector<Column> columnsOf(ObjectiveKind kind) {
  switch (kind) {
    case ObjectiveKind::Target:
      return {{"metric", "Metric", "the metric aimed at"},
              {"target", "Target", "per round for rounds, lead_changes and leading_time"},
              {"weight", "Weight", "c_k (default 1)"},
              {"scale", "Scale", "s_k (default 1): the distance is divided by it"}};
    case ObjectiveKind::Constrained:
      return {{"metric", "Metric", "the metric bounded"},
              {"min", "Min", "the lowest value allowed (empty: none)"},
              {"max", "Max", "the highest value allowed (empty: none)"}};
    case ObjectiveKind::Lexicographic:
      return {{"metric", "Metric", "earlier rows decide first"},
              {"tolerance", "Tolerance", "outcomes this close to the best stay (default 0)"},
              {"direction", "Better", "max or min (default: the metric's own)"}};
    default:
      return {};
  }
}

QComboBox* choiceBox(const QStringList& choices, const QString& current, QWidget* parent) {
  auto* box = new QComboBox(parent);
  box->addItems(choices);
  box->setCurrentIndex(std::max(0, box->findText(current)));
  return box;
}

QStringList metricKeys() {
  QStringList keys;
  for (const auto& info : allMetrics()) keys << text(info.key);
  return keys;
}

}  // namespace

ObjectiveEditor::ObjectiveEditor(QWidget* parent)
    : QWidget(parent),
      kind_(new QComboBox(this)),
      description_(new QLabel(this)),
      params_(new ParamForm(this)),
      table_(new QTableWidget(this)),
      rowButtons_(new QWidget(this)),
      remove_(new QPushButton("Remove", rowButtons_)) {
  kind_->setObjectName("objective-kind");  // for tests
  table_->setObjectName("objective-table");
  for (const ObjectiveKindInfo& info : objectiveKinds()) {
    kind_->addItem(text(info.key));
    kind_->setItemData(kind_->count() - 1, text(info.description), Qt::ToolTipRole);
  }
  description_->setWordWrap(true);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setMinimumHeight(110);
  auto* add = new QPushButton("Add metric", rowButtons_);
  add->setObjectName("objective-add");
  auto* up = new QPushButton("Up", rowButtons_);
  auto* down = new QPushButton("Down", rowButtons_);
  up->setToolTip("earlier rows of a lexicographic order decide first");
  auto* buttons = new QHBoxLayout(rowButtons_);
  buttons->setContentsMargins(0, 0, 0, 0);
  for (QPushButton* b : {add, remove_, up, down}) buttons->addWidget(b);
  buttons->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(kind_);
  layout->addWidget(description_);
  layout->addWidget(params_);
  layout->addWidget(table_);
  layout->addWidget(rowButtons_);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
    table_->setRowCount(0);
    showKind();
    if (!kind().table.empty()) addRow();  // a row to fill in, rather than an empty table
  });
  connect(add, &QPushButton::clicked, this, [this] { addRow(); });
  connect(remove_, &QPushButton::clicked, this, [this] {
    if (table_->currentRow() >= 0) table_->removeRow(table_->currentRow());
  });
  connect(up, &QPushButton::clicked, this, [this] { moveRow(-1); });
  connect(down, &QPushButton::clicked, this, [this] { moveRow(+1); });
  showKind();
}

const ObjectiveKindInfo& ObjectiveEditor::kind() const {
  return objectiveKinds()[static_cast<size_t>(std::max(0, kind_->currentIndex()))];
}

void ObjectiveEditor::showKind() {
  const ObjectiveKindInfo& info = kind();
  description_->setText(text(info.description));
  params_->setSchema(info.params);
  params_->setVisible(!params_->empty());
  const auto columns = columnsOf(info.kind);
  table_->setColumnCount(static_cast<int>(columns.size()));
  for (size_t c = 0; c < columns.size(); ++c) {
    auto* header = new QTableWidgetItem(columns[c].title);
    header->setToolTip(columns[c].tip);
    table_->setHorizontalHeaderItem(static_cast<int>(c), header);
  }
  table_->setVisible(!columns.empty());
  rowButtons_->setVisible(!columns.empty());
}

void ObjectiveEditor::addRow(const Json& row) {
  const int r = table_->rowCount();
  table_->insertRow(r);
  const auto columns = columnsOf(kind().kind);
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string key = columns[c].key;
    const QString value = row.contains(key)
                              ? (row.at(key).is_string() ? text(row.at(key).get<std::string>())
                                                         : entryText(row.at(key)))
                              : QString();
    if (key == "metric")
      table_->setCellWidget(r, static_cast<int>(c), choiceBox(metricKeys(), value, table_));
    else if (key == "direction")
      table_->setCellWidget(r, static_cast<int>(c), choiceBox({"", "max", "min"}, value, table_));
    else
      table_->setItem(r, static_cast<int>(c), new QTableWidgetItem(value));
  }
  table_->setCurrentCell(r, 0);
}

void ObjectiveEditor::moveRow(int by) {
  const int from = table_->currentRow(), to = from + by;
  if (from < 0 || to < 0 || to >= table_->rowCount()) return;
  Json entries = rowsJson();
  std::swap(entries[static_cast<size_t>(from)], entries[static_cast<size_t>(to)]);
  table_->setRowCount(0);
  for (const Json& entry : entries) addRow(entry);
  table_->setCurrentCell(to, 0);
}

Json ObjectiveEditor::rowsJson() const {
  const auto columns = columnsOf(kind().kind);
  Json rows = Json::array();
  for (int r = 0; r < table_->rowCount(); ++r) {
    Json row = Json::object();
    for (size_t c = 0; c < columns.size(); ++c) {
      const int column = static_cast<int>(c);
      if (auto* box = qobject_cast<QComboBox*>(table_->cellWidget(r, column))) {
        if (!box->currentText().isEmpty()) row[columns[c].key] = box->currentText().toStdString();
      } else if (const QTableWidgetItem* item = table_->item(r, column);
                 item && !item->text().trimmed().isEmpty()) {
        row[columns[c].key] = parseEntry(item->text());
      }
    }
    rows.push_back(row);
  }
  return rows;
}

Json ObjectiveEditor::tableJson() const {
  const Json rows = rowsJson();
  if (kind().kind != ObjectiveKind::Target)
    return {{kind().kind == ObjectiveKind::Lexicographic ? "order" : "bounds", rows}};
  // The target's rows as its three objects by metric ("targets" required; the others optional).
  Json targets = Json::object(), weights = Json::object(), scales = Json::object();
  for (const Json& row : rows) {
    const std::string metric = row.value("metric", "");
    targets[metric] = row.contains("target") ? row.at("target") : Json(nullptr);
    if (row.contains("weight")) weights[metric] = row.at("weight");
    if (row.contains("scale")) scales[metric] = row.at("scale");
  }
  Json j = {{"targets", targets}};
  if (!weights.empty()) j["weights"] = weights;
  if (!scales.empty()) j["scales"] = scales;
  return j;
}

void ObjectiveEditor::showTable(const Json& objective) {
  table_->setRowCount(0);
  if (kind().kind == ObjectiveKind::Target) {
    const Json targets = objective.value("targets", Json::object());
    const Json weights = objective.value("weights", Json::object());
    const Json scales = objective.value("scales", Json::object());
    for (const auto& [metric, target] : targets.items()) {
      Json row = {{"metric", metric}, {"target", target}};
      if (weights.contains(metric)) row["weight"] = weights.at(metric);
      if (scales.contains(metric)) row["scale"] = scales.at(metric);
      addRow(row);
    }
  }
  for (const char* key : {"bounds", "order"})
    if (objective.contains(key) && objective.at(key).is_array() && kind().table == key)
      for (const Json& entry : objective.at(key))
        addRow(entry.is_object() ? entry : Json::object());
}

void ObjectiveEditor::setObjective(const Json& objective) {
  const Json o = objective.is_object() ? objective : Json{{"kind", "weighted-sum"}};
  {
    QSignalBlocker block(kind_);
    kind_->setCurrentIndex(std::max(0, kind_->findText(text(o.value("kind", "weighted-sum")))));
  }
  showKind();
  Json scalars = Json::object();
  for (const ParamSpec& p : kind().params)
    if (o.contains(p.name)) scalars[p.name] = o.at(p.name);
  params_->setValues(scalars);
  showTable(o);
}

Json ObjectiveEditor::objective() const {
  if (kind().kind == ObjectiveKind::WeightedSum) return nullptr;
  Json o = {{"kind", kind().key}};
  o.update(params_->changedValues());
  if (!kind().table.empty()) o.update(tableJson());
  return o;
}

}  // namespace ddalab::gui
