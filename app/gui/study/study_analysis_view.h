#pragma once
// The analysis of a user study in ddalab-gui: the tables `ddalab study analyze` prints and
// writes, a chart per questionnaire item (each condition's mean with its 95 % interval) and a
// heat map of the fun metrics against the items (Spearman's rho, the interval on hover).
#include <QDialog>

#include "studies/analysis.h"

QT_BEGIN_NAMESPACE
class QTabWidget;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

class HeatMap;

class StudyAnalysisView : public QDialog {
  Q_OBJECT
 public:
  StudyAnalysisView(StudyAnalysis analysis, QWidget* parent = nullptr);
  QTabWidget* tabs() const { return tabs_; }
  HeatMap* heatMap() const { return heatMap_; }
  const StudyAnalysis& analysis() const { return analysis_; }

 private:
  QWidget* answersTab();
  QWidget* comparisonsTab();
  QWidget* correlationsTab();
  QWidget* noticedTab();
  QWidget* coefficientsTab();
  QWidget* reliabilityTab();  // Cronbach's alpha per subscale

  StudyAnalysis analysis_;
  QTabWidget* tabs_;
  HeatMap* heatMap_ = nullptr;
};

}  // namespace ddalab::gui
