#pragma once
// The ddalab-gui window, batch mode (thesis appendix A.1, figure 21): the queue with live results,
// the tabs for the selected experiment (players, histogram, comparison, scores, log) and the
// status bar with progress. Everything it runs, scores and saves goes through the libraries.
#include <QMainWindow>
#include <QString>
#include <filesystem>
#include <optional>

#include "experiments/runner.h"

QT_BEGIN_NAMESPACE
class QAction;
class QCloseEvent;
class QMenu;
class QStackedWidget;
class QTimer;
class QToolBar;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

class CompareView;
class PlayMode;
class HistogramView;
class QueueModel;
class RunController;
class ScoresView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

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

  // The two modes of the window (thesis appendix A): batch experiments, and games played.
  void showBatchMode();
  void showGameMode();
  // Game mode: a new game of `gameId` with its default seats (a person, AIs, e-hillclimber).
  void newGame(const std::string& gameId);
  // Game mode: replays game `index` of the trace file (asking for the batch file when the trace
  // does not say how the game was set up, unless `quiet`); false on failure.
  bool openTrace(const QString& file, int index, bool quiet = false);
  PlayMode* playMode() const { return playMode_; }

  // What the window shows, for tests and screenshots.
  QueueModel* queue() const { return model_; }
  QTableView* queueView() const { return table_; }
  QTabWidget* tabs() const { return tabs_; }
  HistogramView* histogram() const { return histogram_; }
  CompareView* compare() const { return compare_; }
  ScoresView* scores() const { return scoresView_; }
  RunController* runner() const { return runner_; }
  // The folder the last run wrote into (none before the first run).
  std::optional<std::filesystem::path> runFolder() const { return runFolder_; }
  void setThreads(int threads);
  void selectRow(int row);
  // Selects these rows (the first becomes the current one).
  void selectRows(const std::vector<int>& rows);

 signals:
  // A run ended (complete: every game finished).
  void runFinished(bool complete);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void buildToolBar();
  void buildCentre();
  void buildMenus();
  void restoreSettings();
  void updateActions();
  void selectionChanged();
  void refreshSelection();
  void showProgress(const Progress& progress);
  void runEnded(bool complete, const QString& error);
  void log(const QString& message);
  void editSettings(int row);
  void saveExperiment(int row);
  void rememberRecent(const QString& file);
  void rebuildRecentMenu();
  int selectedRow() const;
  std::vector<int> selectedRows() const;
  uint64_t seed() const;
  std::filesystem::path newRunFolder() const;
  void startRun(bool resume);
  void buildGameActions();
  void enterGameMode();  // shows the game mode's page as it is
  void editGameSettings();

  QueueModel* model_;
  RunController* runner_;
  QTableView* table_;
  QTabWidget* tabs_;
  QTableWidget* players_;
  HistogramView* histogram_;
  CompareView* compare_;
  ScoresView* scoresView_;
  QPlainTextEdit* log_;
  QComboBox* game_;
  QSpinBox* iterations_;
  QSpinBox* threads_;
  QLineEdit* seed_;
  QComboBox* statistic_;
  QProgressBar* progress_;
  QLabel* status_;
  QMenu* recentMenu_ = nullptr;
  QAction *open_, *save_, *saveAs_, *openResults_, *add_, *remove_, *duplicate_, *settings_,
      *saveOne_, *showHistogram_, *start_, *stop_, *resume_, *saveAll_, *quit_;
  QAction *batchMode_, *gameMode_, *newGame_, *gameSettings_, *openTrace_;
  QMenu* changeGame_ = nullptr;
  QStackedWidget* modes_;
  QToolBar* batchBar_;
  PlayMode* playMode_;
  QString batchFile_;
  std::optional<std::filesystem::path> runFolder_;
  bool runComplete_ = false;
  bool queueChangedSinceRun_ = false;
  QTimer* chartTimer_;
};

}  // namespace ddalab::gui
