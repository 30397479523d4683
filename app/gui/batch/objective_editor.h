#pragma once
// The objective of an experiment's environment player (docs/objectives.md), generated from the
// kinds the library declares (core/objective.h: each kind's scalar parameters as a schema, and
// its per-metric table): the weighted sum, targets, bounds, a lexicographic order or a seat's
// win rate. It edits the file form; the experiment dialog validates it as a file would be.
#include <QWidget>

#include "core/objective.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace ddalab::gui {

class ParamForm;

class ObjectiveEditor : public QWidget {
  Q_OBJECT
 public:
  explicit ObjectiveEditor(QWidget* parent = nullptr);

  // Shows `objective` (its file form; null or absent: the weighted sum).
  void setObjective(const Json& objective);
  // The objective as entered, in file form (it may be invalid); null for the weighted sum, which
  // a file leaves out.
  Json objective() const;

 private:
  void showKind();
  void addRow(const Json& row = Json::object());
  void moveRow(int by);
  const ObjectiveKindInfo& kind() const;
  // The table's rows, each an object of its filled cells by column key ("metric", "target", ...).
  Json rowsJson() const;
  // The table's rows as the kind's file keys ("targets"/"weights"/"scales", "bounds", "order").
  Json tableJson() const;
  void showTable(const Json& objective);

  QComboBox* kind_;
  QLabel* description_;
  ParamForm* params_;
  QTableWidget* table_;
  QWidget* rowButtons_;
  QPushButton* remove_;
};

}  // namespace ddalab::gui
