#include "app/gui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QUrl>
#include <fstream>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/play/play_mode.h"
#include "app/gui/play/replay.h"
#include "app/gui/play/trace_picker.h"
#include "app/gui/study/study_dialogs.h"
#include "app/gui/study/study_run.h"
#include "app/gui/views/view_plugin.h"
#include "app/version/version.h"
#include "experiments/batch.h"
#include "experiments/plugins.h"
#include "games/registry.h"

namespace ddalab::gui {

namespace {

// Adds `actions` to `menu` in order (nullptr: a separator).
void addMenuActions(QMenu* menu, const std::vector<QAction*>& actions) {
  for (QAction* a : actions)
    if (a)
      menu->addAction(a);
    else
      menu->addSeparator();
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      batch_(new BatchMode(this)),
      playMode_(new PlayMode(this)),
      modes_(new QStackedWidget(this)) {
  quit_ = new QAction("Quit", this);
  quit_->setShortcut(QKeySequence::Quit);
  quit_->setToolTip("Close ddalab-gui (" + quit_->shortcut().toString() + ")");
  connect(quit_, &QAction::triggered, this, &QWidget::close);
  buildGameActions();
  addToolBar(batch_->toolBar());
  connect(batch_->toolBar()->toggleViewAction(), &QAction::triggered, this,
          [this](bool shown) { batchToolBarWanted_ = shown; });
  modes_->addWidget(batch_);
  modes_->addWidget(playMode_);
  setCentralWidget(modes_);
  statusBar()->addWidget(batch_->progressBar());
  statusBar()->addWidget(batch_->statusLabel(), 1);
  connect(playMode_, &PlayMode::message, this, [this](const QString& text) {
    statusBar()->showMessage(text, text.isEmpty() ? 1 : 6000);
  });
  connect(batch_, &BatchMode::playRequested, this, &MainWindow::showGameMode);
  connect(playMode_->session(), &GameSession::finished, this, &MainWindow::keepPlayedGame);
  connect(batch_, &BatchMode::titleChanged, this, [this](const QString& title) {
    if (modes_->currentWidget() == batch_) setWindowTitle(title);
  });
  buildMenus();
  setWindowTitle(batch_->title());
  restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  buildFileMenu();
  buildGameMenu();
  addMenuActions(menuBar()->addMenu("&Batch"), batch_->batchActions());
  buildViewMenu();
  buildHelpMenu();
}

void MainWindow::buildFileMenu() {
  auto* file = menuBar()->addMenu("&File");
  const std::vector<QAction*> fileActions = batch_->fileActions();
  file->addAction(fileActions.front());  // Open batch…, then the recent ones
  batch_->setRecentMenu(file->addMenu("Open recent"));
  addMenuActions(file, {fileActions.begin() + 1, fileActions.end()});
  file->addSeparator();
  file->addAction("Run study…", this, [this] { askRunStudy(); });
  file->addAction("Study sessions…", this, [this] { showStudySessions(); });
  file->addSeparator();
  file->addAction("Load plug-in…", this, [this] { askLoadPlugin(); });
  file->addSeparator();
  file->addAction(quit_);
}

void MainWindow::askRunStudy() {
  if (!leaveStudy("Another study session") || !confirmAbandonGame("A study session")) return;
  QSettings s;
  StartStudyDialog dialog(this);
  dialog.setProtocol(s.value("study/protocol").toString());
  dialog.setStudyFolder(s.value("study/folder").toString());
  if (dialog.exec() != QDialog::Accepted || !dialog.session()) return;
  s.setValue("study/protocol", dialog.protocolFile());
  s.setValue("study/folder",
             QString::fromStdString(dialog.session()->folder().parent_path().string()));
  runStudy(*dialog.session());
}

void MainWindow::showStudySessions() {
  QSettings s;
  const QString folder = QFileDialog::getExistingDirectory(
      this, "The study's folder (its sessions)", s.value("study/folder").toString());
  if (folder.isEmpty()) return;
  s.setValue("study/folder", folder);
  SessionsDialog dialog(folder, this);
  connect(&dialog, &SessionsDialog::resume, this, [this](const QString& session) {
    if (!leaveStudy("Resuming a session") || !confirmAbandonGame("Resuming a session")) return;
    try {
      runStudy(StudySession::read(session.toStdString()));
    } catch (const std::exception& e) {
      QMessageBox::warning(this, "Resume", QString::fromStdString(e.what()));
    }
  });
  dialog.exec();
}

void MainWindow::askLoadPlugin() {
  QSettings s;
  const QString file =
      QFileDialog::getOpenFileName(this, "Load plug-in", s.value("folders/plugins").toString(),
                                   "Plug-ins (*.so);;All files (*)");
  if (file.isEmpty()) return;
  s.setValue("folders/plugins", QFileInfo(file).absolutePath());
  QString error;
  if (!loadPlugin(file, &error)) QMessageBox::warning(this, "Load plug-in", error);
}

void MainWindow::buildGameMenu() {
  auto* game = menuBar()->addMenu("&Game");
  game->addAction(newGame_);
  changeGame_ = game->addMenu("Change game");
  refreshGameMenu();
  game->addAction(gameSettings_);
  game->addAction(openTrace_);
  game->addAction(saveGame_);
  game->addSeparator();
  game->addAction(batchMode_);
  game->addAction(gameMode_);
}

void MainWindow::buildViewMenu() {
  auto* view = menuBar()->addMenu("&View");
  QAction* hidden = view->addAction("Show hidden information");
  hidden->setCheckable(true);  // off at every start: a person never sees another seat's secrets
  hidden->setToolTip(
      "For researchers: the game mode shows what the persons' seats may not know (the other "
      "hands, the cards dealt to them, every outcome the environment weighed)");
  connect(hidden, &QAction::toggled, playMode_, &PlayMode::setShowHidden);
}

void MainWindow::buildHelpMenu() {
  auto* help = menuBar()->addMenu("&Help");
  help->addAction("Keyboard shortcuts", QKeySequence::HelpContents, this,
                  [this] { showShortcuts(); });
  help->addAction("The guide (docs/gui.md)", this, [this] { showGuide(); });
  help->addAction("About ddalab", this, [this] { showAbout(); });
}

void MainWindow::showGuide() {
  const QString guide = QString(DDALAB_EXPERIMENTS_DIR) + "/../docs/gui.md";
  if (!QFileInfo::exists(guide) || !QDesktopServices::openUrl(QUrl::fromLocalFile(guide)))
    QMessageBox::information(this, "The guide",
                             "The user guide's page on the GUI, docs/gui.md of the ddalab "
                             "repository, describes every view (docs/formats.md the files, "
                             "docs/cli.md the command line); it is at " +
                                 guide);
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, "About ddalab",
      QString("<b>ddalab %1</b><p>A testbed for research on dynamic difficulty adjustment in "
              "turn-based games: batch experiments over the fun metrics of the master thesis "
              "it comes from, with paired statistics, and games played against the AIs while "
              "an environment player steers chance.</p><p>Qt %2</p>")
          .arg(QString::fromStdString(ddalab::app::buildDescription()), qVersion()));
}

void MainWindow::refreshGameMenu() {
  changeGame_->clear();
  for (const auto& info : gameRegistry()) {
    const std::string id = info.id;
    changeGame_->addAction(QString::fromStdString(id), this, [this, id] { newGame(id); });
  }
}

bool MainWindow::loadPlugin(const QString& file, QString* error) {
  if (batch_->runner()->running()) {
    if (error) *error = "Stop the run first: a plug-in joins the catalog while no game runs.";
    return false;
  }
  try {
    QString loaded;
    if (isViewLibrary(file.toStdString())) {  // a plug-in's second library: its boards
      loaded = QString("loaded the views of %1: new games of theirs show their board")
                   .arg(QString::fromStdString(loadViewPlugin(file.toStdString())));
    } else {
      const LoadedPlugin plugin = ddalab::loadPlugin(file.toStdString());
      refreshGameMenu();
      batch_->refreshGames();
      loaded = QString("loaded plug-in %1 %2: %3 game(s), %4 player(s), %5 metric(s)")
                   .arg(QString::fromStdString(plugin.name), QString::fromStdString(plugin.version))
                   .arg(plugin.games.size())
                   .arg(plugin.players.size())
                   .arg(plugin.metrics.size());
    }
    QSettings s;
    QStringList remembered = s.value("plugins/files").toStringList();
    const QString path = QFileInfo(file).canonicalFilePath();
    if (!remembered.contains(path)) remembered << path;
    s.setValue("plugins/files", remembered);
    statusBar()->showMessage(loaded, 8000);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

void MainWindow::loadRememberedPlugins() {
  QSettings s;
  QStringList kept, failed;
  for (const QString& file : s.value("plugins/files").toStringList()) {
    QString error;
    if (loadPlugin(file, &error))
      kept << file;
    else
      failed << error;
  }
  s.setValue("plugins/files", kept);
  if (!failed.isEmpty())
    QMessageBox::warning(this, "Plug-ins",
                         "These plug-ins could not be loaded and are no longer loaded at start "
                         "(File → Load plug-in… loads one again):\n\n" +
                             failed.join("\n"));
}

void MainWindow::showShortcuts() {
  QString text = "<table>";
  for (QAction* a : findChildren<QAction*>())
    if (!a->shortcut().isEmpty())
      text += "<tr><td><b>" + a->shortcut().toString(QKeySequence::NativeText) +
              "</b>&nbsp;&nbsp;</td><td>" + a->text().remove('&') + "</td></tr>";
  QMessageBox box(QMessageBox::NoIcon, "Keyboard shortcuts", text + "</table>", QMessageBox::Close,
                  this);
  box.exec();
}

void MainWindow::buildGameActions() {
  const auto action = [this](const QString& text, QKeySequence key, const QString& tip, auto slot) {
    auto* a = new QAction(text, this);
    a->setShortcut(key);
    a->setToolTip(tip + " (" + key.toString() + ")");
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  batchMode_ = action("Batch mode", QKeySequence("Ctrl+1"), "Queue and run batch experiments",
                      [this] { showBatchMode(); });
  gameMode_ = action("Game mode", QKeySequence("Ctrl+2"),
                     "Play a game against the AIs while an environment player steers",
                     [this] { showGameMode(); });
  // The mode shown is the checked one (View and Game menus say where the person is).
  auto* modes = new QActionGroup(this);
  for (QAction* mode : {batchMode_, gameMode_}) {
    mode->setCheckable(true);
    modes->addAction(mode);
  }
  batchMode_->setChecked(true);
  newGame_ =
      action("New game", QKeySequence("Ctrl+G"), "Start a new game with the same settings", [this] {
        showGameMode();
        if (!playMode_->session()->started()) {
          newGame(gameRegistry().front().id);
          return;
        }
        if (!leaveStudy("A new game") || !confirmAbandonGame("A new game")) return;
        QString error;
        if (!playMode_->newGame(playMode_->nextSetup(), &error))
          QMessageBox::warning(this, "New game", error);
      });
  gameSettings_ = action("Game settings…", QKeySequence("Ctrl+Shift+G"),
                         "Seats (a person or an AI), environment player and coefficients",
                         [this] { editGameSettings(); });
  openTrace_ =
      action("Open trace…", QKeySequence("Ctrl+T"),
             "Replay a game of a trace written by ddalab run --trace", [this] {
               QSettings s;
               const QString file = QFileDialog::getOpenFileName(
                   this, "Open trace", s.value("folders/traces").toString(),
                   "Traces (*.jsonl);;All files (*)");
               if (file.isEmpty()) return;
               s.setValue("folders/traces", QFileInfo(file).absolutePath());
               try {
                 TracePicker picker(file, this);
                 if (picker.exec() == QDialog::Accepted && picker.chosen() >= 0)
                   openTrace(file, picker.chosen());
               } catch (const std::exception& e) {
                 QMessageBox::warning(this, "Open trace", QString::fromStdString(e.what()));
               }
             });
  saveGame_ = action(
      "Save game…", QKeySequence("Ctrl+Shift+T"),
      "Save the game as a detailed trace (replayable) and its games-CSV row", [this] {
        // A study keeps its games in its session folder, with the condition they were played in.
        if (!playMode_->session()->started() || playMode_->studyGame()) return;
        QSettings s;
        QString file = QFileDialog::getSaveFileName(
            this, "Save game", s.value("folders/traces").toString(), "Traces (*.trace.jsonl)");
        if (file.isEmpty()) return;
        s.setValue("folders/traces", QFileInfo(file).absolutePath());
        if (file.endsWith(".trace.jsonl")) file.chop(12);
        try {
          playMode_->saveGame(file.toStdString());
          statusBar()->showMessage("saved " + file + ".trace.jsonl", 6000);
        } catch (const std::exception& e) {
          QMessageBox::warning(this, "Save game", QString::fromStdString(e.what()));
        }
      });
}

StudyRun* MainWindow::study() const {
  return study_;
}

void MainWindow::runStudy(StudySession session) {
  delete study_;  // one session at a time
  enterGameMode();
  statusBar()->clearMessage();  // the researcher's last message is not the participant's
  study_ = new StudyRun(playMode_, std::move(session), this);
  connect(study_, &StudyRun::message, this,
          [this](const QString& text) { statusBar()->showMessage(text, 6000); });
  connect(study_, &StudyRun::failed, this,
          [this](const QString& why) { QMessageBox::critical(this, "Study session", why); });
  // Over, the window stays the participant's until the researcher ends the session (endKeys).
  connect(study_, &StudyRun::completed, this, [this] {
    statusBar()->showMessage("The study session is complete: every game is kept with its answers");
  });
  connect(study_, &StudyRun::ended, this, [this] {
    statusBar()->showMessage("The study session has ended: " +
                             QString::fromStdString(study_->session().dropoutReason()) +
                             " (recorded)");
  });
  connect(study_, &StudyRun::endRequested, this, [this] {
    if (leaveStudy("Ending the session"))
      statusBar()->showMessage("The study session is ended: the window is the researcher's");
  });
  lockForStudy(true);
  study_->next();
}

void MainWindow::lockForStudy(bool locked) {
  if (locked == lockedForStudy_) return;
  lockedForStudy_ = locked;
  menuBar()->setVisible(!locked);
  // No right-click menu of toolbars either: a participant reaches nothing but the game.
  setContextMenuPolicy(locked ? Qt::NoContextMenu : Qt::DefaultContextMenu);
  if (locked) {
    // A hidden action has no shortcut either, and no code of the window hides one: what was
    // hidden here is exactly what is shown again (enabling stays with its owner's rules).
    for (QAction* a : findChildren<QAction*>())
      if (a->isVisible()) {
        a->setVisible(false);
        hiddenForStudy_.emplace_back(a);
      }
    for (QShortcut* s : findChildren<QShortcut*>())
      if (s->isEnabled()) {
        s->setEnabled(false);
        disabledForStudy_.emplace_back(s);
      }
    return;
  }
  for (const QPointer<QAction>& a : hiddenForStudy_)
    if (a) a->setVisible(true);
  for (const QPointer<QShortcut>& s : disabledForStudy_)
    if (s) s->setEnabled(true);
  hiddenForStudy_.clear();
  disabledForStudy_.clear();
}

void MainWindow::endStudy() {
  delete study_;
  lockForStudy(false);
  playMode_->setStudyLabel({});
}

bool MainWindow::leaveStudy(const QString& what) {
  if (!study_) return true;
  if (!study_->over() &&
      QMessageBox::question(this, "Study session",
                            what + " leaves the study session of participant " +
                                QString::fromStdString(study_->session().participant()) +
                                ". Every page and game answered so far is kept, and the session "
                                "resumes where it stopped when it is opened again. Go on?",
                            QMessageBox::Yes | QMessageBox::Cancel,
                            QMessageBox::Cancel) != QMessageBox::Yes)
    return false;
  endStudy();
  return true;
}

void MainWindow::keepPlayedGame() {
  if (study_ || !playedGames_) return;  // a study keeps its games in its session folder
  const GameSetup& setup = playMode_->session()->setup();
  const QString stem = QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss") + "-" +
                       QString::fromStdString(playMode_->session()->experiment().gameInfo->id) +
                       "-seed" + QString::number(setup.seed);
  try {
    std::filesystem::create_directories(*playedGames_);
    playMode_->saveGame(*playedGames_ / stem.toStdString());
    statusBar()->showMessage(
        "the game is kept in " +
            QString::fromStdString((*playedGames_ / stem.toStdString()).string()) +
            ".trace.jsonl (Game → Open trace… replays it)",
        8000);
  } catch (const std::exception& e) {
    batch_->log(QString("the game could not be kept: %1").arg(e.what()));
  }
}

void MainWindow::showBatchMode() {
  batchMode_->setChecked(true);
  modes_->setCurrentWidget(batch_);
  batch_->toolBar()->setVisible(batchToolBarWanted_);
  batch_->progressBar()->show();
  batch_->statusLabel()->show();
  setWindowTitle(batch_->title());
}

void MainWindow::enterGameMode() {
  gameMode_->setChecked(true);
  modes_->setCurrentWidget(playMode_);
  batch_->toolBar()->hide();
  batch_->progressBar()->hide();  // the batch's progress; the game's news come as messages
  batch_->statusLabel()->hide();
  setWindowTitle("ddalab — game mode");
}

void MainWindow::showGameMode() {
  enterGameMode();
  if (!playMode_->session()->started() && !playMode_->replaying())
    newGame(gameRegistry().front().id);
}

bool MainWindow::confirmAbandonGame(const QString& what) {
  if (!playMode_->session()->inProgress()) return true;
  return QMessageBox::question(
             this, "Game in progress", what + " ends the game in progress. Go on?",
             QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Yes;
}

void MainWindow::newGame(const std::string& gameId) {
  const QString what = "A new game of " + QString::fromStdString(gameId);
  if (!leaveStudy(what) || !confirmAbandonGame(what)) return;
  enterGameMode();
  QString error;
  if (!playMode_->newGame(PlayMode::defaultSetup(gameId, playMode_->seed()), &error))
    QMessageBox::warning(this, "New game", error);
}

void MainWindow::editGameSettings() {
  showGameMode();
  ExperimentDialog dialog(this);
  dialog.setGameMode(true);
  const GameSetup next = playMode_->nextSetup();  // never a study's condition
  dialog.setExperiment(next.experiment);
  if (dialog.exec() != QDialog::Accepted || !leaveStudy("New settings") ||
      !confirmAbandonGame("New settings"))
    return;
  QString error;
  if (!playMode_->newGame({dialog.experiment(), next.seed}, &error))
    QMessageBox::warning(this, "Game settings", error);
}

bool MainWindow::openTrace(const QString& file, int index, bool quiet, QString* error) {
  if (!quiet && (!leaveStudy("Opening a trace") || !confirmAbandonGame("Opening a trace")))
    return false;
  try {
    std::ifstream in(file.toStdString());
    if (!in) throw InputError(file.toStdString(), "cannot open the file");
    std::string text;
    for (int i = 0; i <= index; ++i)
      if (!std::getline(in, text))
        throw InputError(file.toStdString(), "the trace has only " + std::to_string(i) + " games");
    Json line;
    try {
      line = Json::parse(text);
    } catch (const Json::exception& e) {
      throw InputError(file.toStdString() + ":" + std::to_string(index + 1), e.what());
    }
    const std::string where = file.toStdString() + ":" + std::to_string(index + 1);
    // What the line says is checked against its game: an error names the file and the line.
    const auto onLine = [&](auto read) {
      try {
        return read();
      } catch (const std::exception& e) {
        throw InputError(where, e.what());
      }
    };
    std::shared_ptr<const Game> game = onLine([&] { return gameOfTrace(line); });
    Coefficients coefficients = onLine([&] { return coefficientsOfTrace(line); });
    std::string gameId = game ? onLine([&] { return line.at("game").value("id", ""); }) : "";
    if (!game) {  // a plain trace: the batch file says how the game was set up
      if (quiet)
        throw InputError(file.toStdString(), "a plain trace: record it with --trace-detail");
      const QString batchFile =
          QFileDialog::getOpenFileName(this, "The batch file this trace was run from",
                                       QFileInfo(file).absolutePath(), "Batch files (*.json)");
      if (batchFile.isEmpty()) return false;
      const Batch batch = loadBatch(batchFile.toStdString());
      const std::string name = line.value("experiment", "");
      for (const Experiment& e : batch.experiments)
        if (e.name == name) {
          game = e.game;
          coefficients = e.coefficients;
          gameId = e.gameInfo->id;
        }
      if (!game)
        throw InputError(batchFile.toStdString(), "has no experiment named '" + name + "'");
    }
    auto replay = onLine([&] { return std::make_unique<Replay>(line, *game, coefficients); });
    enterGameMode();
    playMode_->openReplay(std::move(replay), gameId);
    return true;
  } catch (const std::exception& e) {
    if (!quiet) QMessageBox::warning(this, "Open trace", QString::fromStdString(e.what()));
    if (error) *error = QString::fromStdString(e.what());
    batch_->log(QString::fromStdString(e.what()));
    return false;
  }
}

void MainWindow::restoreSettings() {
  QSettings s;
  restoreGeometry(s.value("window/geometry").toByteArray());
  restoreState(s.value("window/state").toByteArray());
  // The window starts in the batch mode, whose toolbar the state of a game mode left hidden:
  // shown unless the person hid it.
  batchToolBarWanted_ = s.value("window/batchToolBar", true).toBool();
  batch_->toolBar()->setVisible(batchToolBarWanted_);
  batch_->restoreSettings();
  if (!s.contains("window/geometry"))  // within the screen, with room for the frame
    resize(QSize(1400, 900).boundedTo(screen()->availableGeometry().size() - QSize(40, 60)));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmAbandonGame("Quitting") || !batch_->confirmClose()) {
    event->ignore();
    return;
  }
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
  s.setValue("window/batchToolBar", batchToolBarWanted_);
  batch_->saveSettings();
  event->accept();
}

}  // namespace ddalab::gui
