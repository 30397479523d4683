#pragma once
// The ddalab-gui window: a shell of the two modes of thesis appendix A — batch experiments
// (`BatchMode`) and games played or replayed (`PlayMode`) — with the menus, the toolbar and the
// status bar of the mode shown. The modes do the work; the window switches between them.
#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "studies/study.h"

QT_BEGIN_NAMESPACE
class QAction;
class QCloseEvent;
class QMenu;
class QShortcut;
class QStackedWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

class BatchMode;
class PlayMode;
class StudyRun;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // The two modes of the window (thesis appendix A): batch experiments, and games played.
  void showBatchMode();
  void showGameMode();
  // Game mode: a new game of `gameId` with its default seats (a person, AIs, e-hillclimber).
  void newGame(const std::string& gameId);
  // Loads the plug-in at `file` into the catalog (not while a run goes on), lists its games and
  // remembers it for the next start; false with the reason in `*error` when it is refused.
  bool loadPlugin(const QString& file, QString* error = nullptr);
  // Loads the plug-ins remembered from earlier sessions; one that fails is said and forgotten.
  void loadRememberedPlugins();
  // Game mode: replays game `index` of the trace file (asking for the batch file when the trace
  // does not say how the game was set up, unless `quiet`); false on failure, saying why in a
  // message box unless quiet, and in `error` if given.
  bool openTrace(const QString& file, int index, bool quiet = false, QString* error = nullptr);
  // Runs a user study's session in the game mode (the participant plays the games of its plan
  // with the conditions hidden and answers the questionnaire after each).
  void runStudy(StudySession session);
  // The study session running now (null: none).
  StudyRun* study() const;
  // Whether the window shows a participant only the board, the questionnaire and the pause: the
  // menu bar is hidden and every action and shortcut of the window is hidden or disabled.
  bool lockedForStudy() const { return lockedForStudy_; }
  // Where finished games of the game mode are kept (none: not kept automatically).
  void setPlayedGamesFolder(const std::filesystem::path& folder) { playedGames_ = folder; }

  BatchMode* batch() const { return batch_; }
  PlayMode* playMode() const { return playMode_; }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildGameActions();
  void buildMenus();
  // The File menu: the batch mode's file actions and recent files, studies, plug-ins, Quit.
  void buildFileMenu();
  // The Game menu: a new game, the games to change to, settings, traces, the two modes.
  void buildGameMenu();
  // The View menu: whether the game mode shows hidden information.
  void buildViewMenu();
  // The Help menu: the keyboard shortcuts, the guide, About.
  void buildHelpMenu();
  // Asks for a study's protocol and folder and runs its session (File → Run study…).
  void askRunStudy();
  // Lists a study folder's sessions, offering to resume one (File → Study sessions…).
  void showStudySessions();
  // Asks for a plug-in file and loads it, saying why when it cannot (File → Load plug-in…).
  void askLoadPlugin();
  // Opens the README, or says where it is.
  void showGuide();
  // Says which ddalab this is, what it is for and its Qt.
  void showAbout();
  void refreshGameMenu();
  void restoreSettings();
  void enterGameMode();  // shows the game mode's page as it is
  void showShortcuts();
  void editGameSettings();
  // Asks before `what` ends a game in progress; true to go on.
  bool confirmAbandonGame(const QString& what);
  // Asks before `what` leaves the study session running (it resumes where it stopped when
  // reopened) and ends it; true to go on (always when no study runs).
  bool leaveStudy(const QString& what);
  // Keeps a finished game of the game mode in the played-games folder.
  void keepPlayedGame();
  // Hides the menu bar and every action, and disables every shortcut, of the window while a
  // participant plays (`locked`); gives back exactly what was taken when unlocked.
  void lockForStudy(bool locked);
  // The study session is over (complete or left): the window is the researcher's again.
  void endStudy();

  BatchMode* batch_;
  PlayMode* playMode_;
  QStackedWidget* modes_;
  QAction *quit_, *batchMode_, *gameMode_, *newGame_, *gameSettings_, *openTrace_, *saveGame_;
  QMenu* changeGame_ = nullptr;
  QPointer<StudyRun> study_;
  std::optional<std::filesystem::path> playedGames_;
  bool lockedForStudy_ = false;
  // Whether the person wants the batch toolbar (hidden with its context menu): kept across
  // restarts, and the batch mode shows it only then (the game mode hides it regardless).
  bool batchToolBarWanted_ = true;
  std::vector<QPointer<QAction>> hiddenForStudy_;
  std::vector<QPointer<QShortcut>> disabledForStudy_;
};

}  // namespace ddalab::gui
