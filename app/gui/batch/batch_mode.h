#pragma once
// The batch mode (thesis appendix A.1, figure 21): the queue with live results, the tabs for the
// selected experiment (players, histogram, comparison, scores, log), its toolbar and the progress
// it shows in the window's status bar. Everything it runs, scores and saves goes through the
// libraries (the run service on a worker thread, the results library's tables).
#include <QString>
#include <QWidget>
#include <filesystem>
#include <optional>
#include <vector>

#include "experiments/runner.h"

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
class QToolBar;
QT_END_NAMESPACE

namespace ddalab::gui {

class CompareView;
class HistogramView;
class QueueModel;
class RunController;
class ScoresView;

class BatchMode : public QWidget {
  Q_OBJECT
 public:
  explicit BatchMode(QWidget* parent = nullptr);
  ~BatchMode() override;

  // Loads a batch file into the queue; false (with a message box unless quiet) on failure.
  bool openBatch(const QString& file, bool quiet = false);
  // Shows a results folder written by `ddalab run` as if it had just run.
  bool openResults(const QString& dir, bool quiet = false);
  // Saves the queue as a ddalab-batch/1 file.
  bool saveBatch(const QString& file);
  // Adds an experiment of `game` with its defaults; returns its row.
  int addExperiment(const QString& game, int iterations);
  // Starts the queue from scratch (a new run folder) or resumes the stopped run.
  void start();
  void resume();
  void stop();
  // Writes the results of the last run into `dir` as `ddalab run --out` would.
  bool saveAll(const QString& dir, bool overwrite);
  // Appends a time-stamped line to the Log tab.
  void log(const QString& message);

  // What the page shows, for the window, tests and screenshots.
  QueueModel* queue() const { return model_; }
  QTableView* queueView() const { return table_; }
  QTabWidget* tabs() const { return tabs_; }
  HistogramView* histogram() const { return histogram_; }
  CompareView* compare() const { return compare_; }
  ScoresView* scores() const { return scoresView_; }
  RunController* runner() const { return runner_; }
  QToolBar* toolBar() const { return toolBar_; }
  // The widgets the window's status bar shows while this mode is active.
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  // The actions of the File and Batch menus, in menu order (nullptr: a separator).
  std::vector<QAction*> fileActions() const;
  std::vector<QAction*> batchActions() const;
  // The File menu's "Open recent" list, kept up to date by this mode.
  void setRecentMenu(QMenu* menu);
  // The window title this mode asks for (changes are signalled by titleChanged).
  QString title() const { return title_; }
  // The folder the last run wrote into (none before the first run).
  std::optional<std::filesystem::path> runFolder() const { return runFolder_; }
  void setThreads(int threads);
  void selectRow(int row);
  // Selects these rows (the first becomes the current one).
  void selectRows(const std::vector<int>& rows);
  // Whether the window may close now; asks the person when a batch is running.
  bool confirmClose();
  // Reads and writes the splitter and thread count in QSettings.
  void restoreSettings();
  void saveSettings() const;

 signals:
  // A run ended (complete: every game finished).
  void runFinished(bool complete);
  void titleChanged(const QString& title);

 private:
  void buildActions();
  void buildToolBar();
  void buildPage();
  void setTitle(const QString& title);
  void updateActions();
  void selectionChanged();
  void refreshSelection();
  void refreshPlayers(int row);
  void showProgress(const Progress& progress);
  void runEnded(bool complete, const QString& error);
  void editSettings(int row);
  void saveExperiment(int row);
  void rememberRecent(const QString& file);
  void rebuildRecentMenu();
  int selectedRow() const;
  std::vector<int> selectedRows() const;
  uint64_t seed() const;
  std::filesystem::path newRunFolder() const;
  void startRun(bool resume);

  QueueModel* model_;
  RunController* runner_;
  QTableView* table_;
  QTabWidget* tabs_;
  QTableWidget* players_;
  HistogramView* histogram_;
  CompareView* compare_;
  ScoresView* scoresView_;
  QPlainTextEdit* log_;
  QSplitter* splitter_;
  QToolBar* toolBar_;
  QComboBox* game_;
  QSpinBox* iterations_;
  QSpinBox* threads_;
  QLineEdit* seed_;
  QComboBox* statistic_;
  QProgressBar* progress_;
  QLabel* status_;
  QMenu* recentMenu_ = nullptr;
  QAction *open_, *save_, *saveAs_, *openResults_, *add_, *remove_, *duplicate_, *settings_,
      *saveOne_, *showHistogram_, *start_, *stop_, *resume_, *saveAll_;
  QString title_ = "ddalab — batch experiments";
  QString batchFile_;
  std::optional<std::filesystem::path> runFolder_;
  bool runComplete_ = false;
  bool queueChangedSinceRun_ = false;
  QTimer* chartTimer_;
};

}  // namespace ddalab::gui
