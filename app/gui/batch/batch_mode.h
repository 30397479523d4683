#pragma once
// The batch mode (thesis appendix A.1, figure 21): the queue with live results, the tabs for the
// selected experiment (players, histogram, comparison, scores, log), its toolbar and the progress
// it shows in the window's status bar. Everything it runs, scores and saves goes through the
// libraries (the run service on a worker thread, the results library's tables).
//
// Nothing finished is discarded unasked: the queue's games live in a results folder of the run
// service (the session's, which survives a restart, or a temporary one); Start runs only what is
// missing (FolderMode::Update); an edit that invalidates games asks and can be undone. The queue,
// its session and its undo are the QueueDocument's; this page holds the widgets, the selection
// and the status, and asks the person (its File commands, open, save and the recent files, are
// in batch_mode_files.cpp).
#include <QString>
#include <QWidget>
#include <filesystem>
#include <optional>
#include <vector>

#include "app/gui/batch/queue_document.h"
#include "app/gui/batch/queue_model.h"
#include "experiments/output_folder.h"
#include "experiments/runner.h"
#include "results/significance.h"

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
class QToolBar;
QT_END_NAMESPACE

namespace ddalab::gui {

class CompareView;
class DetectabilityView;
class TestsView;
class HistogramView;
class RunController;
class StartPage;
class RatingsView;
class ScoresView;
class SweepView;

class BatchMode : public QWidget {
  Q_OBJECT
 public:
  explicit BatchMode(QWidget* parent = nullptr);
  ~BatchMode() override;

  // Keeps the queue and its results in the folder `dir` from now on (session.json and a results
  // folder), restoring what an earlier window left there; a run cut off by a crash is continued
  // by Start. The folder is locked while this window keeps it: when another process holds it,
  // a message box says which, and this window works without a session (as a window never given
  // one); false then.
  bool openSession(const QString& dir);
  // Loads a batch file into the queue, keeping the games of experiments that stay the same;
  // false on failure, saying why in a message box unless quiet, and in `error` if given. Unless
  // quiet, asks first when the queue holds unsaved work.
  bool openBatch(const QString& file, bool quiet = false, QString* error = nullptr);
  // Shows a results folder written by `ddalab run` as if it had just run (its files are copied
  // into the session's results). Unless quiet, asks first when the queue holds unsaved work.
  bool openResults(const QString& dir, bool quiet = false, QString* error = nullptr);
  // Empties the queue (asking first when it holds unsaved work).
  void newQueue();
  // Saves the queue as a ddalab-batch/1 file (never over an example shipped with ddalab).
  bool saveBatch(const QString& file);
  // Adds an experiment of `game` with its defaults; returns its row.
  int addExperiment(const QString& game, int iterations);
  // Runs the experiments that are not complete (asking before running complete ones again);
  // resume continues a stopped or cut-off run the same way.
  void start();
  void resume();
  // Goes back to the queue and its games before the last edit (until the next Start).
  void undo();
  bool canUndo() const { return document_->canUndo(); }
  // Whether the queue has changes not saved to a batch file or games not saved with Save all.
  bool hasUnsavedWork() const { return document_->hasUnsavedWork(); }
  void stop();
  // Writes the games the queue shows into `dir` as `ddalab run --out` would; true when saved.
  // Refused (said in a message box) when the results folder does not hold the queue as it is.
  // A folder holding other results is refused unless `overwrite`: quietly when
  // `folderHoldsResults` is given (set then, for the caller to ask), else said too.
  bool saveAll(const QString& dir, bool overwrite, bool* folderHoldsResults = nullptr);
  // Appends a time-stamped line to the Log tab.
  void log(const QString& message);

  // What the page shows, for the window, tests and screenshots.
  QueueDocument* document() const { return document_; }
  QueueModel* queue() const { return model_; }
  QTableView* queueView() const { return table_; }
  QTabWidget* tabs() const { return tabs_; }
  HistogramView* histogram() const { return histogram_; }
  CompareView* compare() const { return compare_; }
  ScoresView* scores() const { return scoresView_; }
  SweepView* sweep() const { return sweep_; }
  RatingsView* ratings() const { return ratings_; }
  TestsView* tests() const { return tests_; }
  DetectabilityView* detectability() const { return detectability_; }
  RunController* runner() const { return runner_; }
  // Lists the catalog's games and metric columns again (a plug-in was loaded), keeping the
  // chosen game.
  void refreshGames();
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
  // The results folder the queue's games are kept in (none before a run or an opened folder).
  std::optional<std::filesystem::path> runFolder() const { return document_->runFolder(); }
  void setThreads(int threads);
  void selectRow(int row);
  // Selects these rows (the first becomes the current one).
  void selectRows(const std::vector<int>& rows);
  // Whether the window may close now; asks the person when a batch is running or the queue
  // holds unsaved work.
  bool confirmClose();
  // Reads and writes the splitter and thread count in QSettings.
  void restoreSettings();
  void saveSettings() const;

 signals:
  // A run ended (complete: every game finished).
  void runFinished(bool complete);
  void titleChanged(const QString& title);
  // The start page's "Play a game".
  void playRequested();

 private:
  void buildActions();
  void buildToolBar();
  // The page: the queue pane above the tabs, and the status bar's widgets.
  void buildPage();
  // The queue pane: the row controls, and the start page or the queue table.
  QWidget* buildQueuePane();
  // The queue's table: rows selected whole, a double-click edits the row.
  void buildQueueTable();
  // The line above the queue: what the metric columns show, threads, seed, the row buttons.
  QHBoxLayout* buildRowControls();
  // The tabs of the selected experiment: players, charts, statistics, log.
  void buildTabs();
  void setTitle(const QString& title);
  void updateActions();
  void selectionChanged();
  void refreshSelection();
  void refreshPlayers(int row);
  void showProgress(const Progress& progress);
  void runEnded(bool complete, const QString& error);
  void editSettings(int row);
  void saveExperiment(int row);
  // Asks where Save all writes, offering a new folder named after the batch and the date
  // beside the last one saved; empty when cancelled.
  QString askResultsFolder();
  // Asks where Save all writes and saves there, asking before results are replaced; true when
  // saved.
  bool saveAllAsked();
  // Asks for a batch file to save the queue to, never a shipped example (said, and asked
  // again); empty when cancelled.
  QString askBatchFile();
  void rememberRecent(const QString& file);
  void rebuildRecentMenu();
  int selectedRow() const;
  std::vector<int> selectedRows() const;
  void startRun(FolderMode mode);
  // Restores the session and says what it found in the status bar and the log.
  void restoreSession();
  // The status bar's progress: the queue's finished games of its planned ones (0 when empty).
  void showProgressOfQueue();
  // The status bar says what the queue holds (not while a run reports).
  void showQueueState();
  // After an edit of the queue (the document keeps it): redrawn.
  void queueEdited();
  void updateUndo();
  // Asks before `what` discards `games` finished games (Ctrl+Z undoes it).
  bool confirmDiscard(const QString& what, size_t games);
  // Asks before the queue is replaced when it holds unsaved work: true to go on.
  bool confirmReplace(const QString& title);
  QString unsavedText() const;
  // Says what is unsaved and asks `question`, offering to save each: Save all… (the games),
  // Save batch… (the queue); after a save, asks again about what is still unsaved. True for
  // `goOn` (shown as a discard when `discards`) or once nothing is unsaved; false for Cancel and
  // for a save cancelled or failed (nothing is discarded but by `goOn`).
  bool askToSave(const QString& title, const QString& question, const QString& goOn, bool discards);
  // Shows the rating tables of `dir` in the Ratings tab, shown only when `dir` holds some (none:
  // hidden, as after New queue or a batch file opened).
  void showRatings(const std::optional<std::filesystem::path>& dir);
  // Says why `title` failed (a message box unless quiet, `error`, the log); returns false.
  bool refuse(const QString& title, const std::exception& e, bool quiet, QString* error);
  // Saves the queue to its batch file (asking for one if it has none); true when saved.
  bool saveQueue();

  QueueDocument* document_;
  QueueModel* model_;  // the document's
  RunController* runner_;
  QTableView* table_;
  StartPage* startPage_;
  QStackedWidget* queueStack_;  // the start page while the queue is empty, else the queue
  QTabWidget* tabs_;
  QTableWidget* players_;
  HistogramView* histogram_;
  CompareView* compare_;
  ScoresView* scoresView_;
  SweepView* sweep_;
  RatingsView* ratings_;
  TestsView* tests_;
  DetectabilityView* detectability_;
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
      *saveOne_, *showHistogram_, *start_, *stop_, *resume_, *saveAll_, *newQueue_, *undoAction_;
  QString title_ = "ddalab — batch experiments";
  QTimer* chartTimer_;
};

// The status line of a run's progress; once every game is played, that the results are being
// analysed (the time left would read 0:00 for as long as the analysis takes).
QString progressText(const Progress& progress);
// "N finished game(s)": how the status line and the dialogs count a queue's games.
QString gamesText(size_t games);

}  // namespace ddalab::gui
