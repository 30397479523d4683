#pragma once
// The Ratings tab: a tournament's or balance run's tables (ratings.csv, level_curves.csv,
// balance.csv, balance_summary.csv; experiments/rating_results.h) as the rating ladder, the level
// curves (all or one curve) and the balance curves; each exports PNG and SVG. The tab shows only
// when the folder opened holds one of those tables; a table the reader refuses is said in the tab
// (the file, line and column), the other tabs are unaffected.
#include <QString>
#include <filesystem>

#include "app/gui/batch/chart_views.h"
#include "experiments/rating_results.h"

namespace ddalab::gui {

// The file names of the rating tables a results folder may hold.
inline constexpr const char* kRatingTableFiles[] = {"ratings.csv", "level_curves.csv",
                                                    "balance.csv", "balance_summary.csv"};
// Whether `dir` holds any of them.
bool holdsRatingTables(const std::filesystem::path& dir);

class RatingsView : public ChartPanel {
  Q_OBJECT
 public:
  // The charts, in the order of the kind box.
  enum class Kind { Ladder, LevelCurves, Balance };

  explicit RatingsView(QWidget* parent = nullptr);
  // Shows `tables` (the charts they have rows for; the others are greyed out in the kind box).
  void showTables(RatingTablesRead tables);
  // Reads and shows the tables of `dir` (readRatingTables); a refusal is shown as its message
  // instead of a chart. Returns whether the folder holds rating tables (the tab's visibility).
  bool showFolder(const std::filesystem::path& dir);
  // Shows `message` instead of a chart (a table refused, nothing to show).
  void showMessage(const QString& message);
  // Draws `kind` if the tables have rows for it; false (nothing changed) otherwise.
  bool showKind(Kind kind);
  // Whether the tables shown have rows for `kind`.
  bool has(Kind kind) const;

  const RatingTablesRead& tables() const { return tables_; }
  QComboBox* kindBox() const { return kind_; }
  QComboBox* curveBox() const { return curve_; }
  // What is said above the chart: which tables are missing, or why they were refused.
  QLabel* note() const { return note_; }

 private:
  void fillChoices();
  void draw();

  RatingTablesRead tables_;
  QComboBox *kind_, *curve_;
  QLabel* note_;
  bool filling_ = false;
};

}  // namespace ddalab::gui
