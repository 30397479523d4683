#pragma once
// The uncertainty behind a comparison, shown as the CLI prints it (results/significance.h, no
// second implementation): the paired tests of every row against the no-DDA row (Tests tab) and
// whether a player could detect the environment from the outcomes dealt to them (Detectability
// tab). Both show the comparison of the selected experiment, its own rows in bold.
#include <QStringList>
#include <QWidget>
#include <string>
#include <vector>

#include "results/significance.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

// A caption saying what the table shows and how it was measured, over a read-only table.
class AnalysisTable : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisTable(QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }
  QString caption() const;

 protected:
  // The caption and the table (see fillTable).
  void fill(const QString& caption, const QStringList& headers,
            const std::vector<QStringList>& rows, const QString& bold);

 private:
  QLabel* caption_;
  QTableWidget* table_;
};

class TestsView : public AnalysisTable {
  Q_OBJECT
 public:
  using AnalysisTable::AnalysisTable;
  // The paired tests of `analysis` (none: why the selected row's `comparison` has none);
  // `experiment` is the selected row.
  void show(const ComparisonAnalysis* analysis, const std::string& comparison,
            const std::string& experiment);
};

class DetectabilityView : public AnalysisTable {
  Q_OBJECT
 public:
  using AnalysisTable::AnalysisTable;
  // The detectability of every row and seat of `analysis` (none: why the selected row's
  // `comparison` has none); `experiment` is the selected row.
  void show(const ComparisonAnalysis* analysis, const std::string& comparison,
            const std::string& experiment);
};

// Fills `table` with `rows` under `headers`, numbers right-aligned; rows whose first cell is
// `bold` (when not empty) are set in bold.
void fillTable(QTableWidget* table, const QStringList& headers,
               const std::vector<QStringList>& rows, const QString& bold = {});
// Why a comparison has no analysis, for the tabs that show one.
QString noAnalysisText(const std::string& comparison);

}  // namespace ddalab::gui
