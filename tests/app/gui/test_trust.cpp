// ddalab-gui never discards finished games unasked: driven as a person drives it —
// double-click, Settings… and OK, keys, the answers a person gives in the dialogs that ask —
// including the careless paths (OK without changes, Start on a finished queue, Quit with unsaved
// work) and a restart of the window (its session folder), also after a run was cut off.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <fstream>
#include <functional>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/play/play_mode.h"
#include "experiments/batch.h"
#include "experiments/journal.h"
#include "experiments/output_folder.h"
#include "results/experiment_result.h"
#include "tests/app/gui/gui_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

const QString kSource = DDALAB_SOURCE_DIR;
const QString kCli = DDALAB_CLI;

// In the settings dialog: types `value` into the coefficient `metric`, then OK.
DialogScript::Step setCoefficient(const QString& metric, const QString& value) {
  return [metric, value](QDialog* d) {
    auto* edit = d->findChild<QLineEdit*>("coefficient-" + metric);
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, value);
    click(d, "OK");
  };
}

// In the settings dialog: the games box set to `games`, then OK.
DialogScript::Step setGames(int games) {
  return [games](QDialog* d) {
    for (QSpinBox* box : d->findChildren<QSpinBox*>())
      if (box->maximum() >= 100'000'000 && box->value() > 1) box->setValue(games);
    click(d, "OK");
  };
}

bool showActive(QWidget& window) {
  window.show();
  window.activateWindow();
  return QTest::qWaitForWindowActive(&window);
}

// Starts the queue with F5 and waits for the run's end; true when it completed.
bool runWithF5(MainWindow& window) {
  if (!showActive(window)) return false;  // as after a dialog: the person is back in the window
  QSignalSpy finished(window.batch(), &BatchMode::runFinished);
  QTest::keyClick(window.batch()->queueView(), Qt::Key_F5);
  if (finished.isEmpty() && !finished.wait(120'000)) return false;
  return finished.takeFirst().at(0).toBool();
}

// Opens the batch `file` in the active window and runs it with F5; true when it completed.
bool openAndRun(MainWindow& window, const QString& file) {
  return showActive(window) && window.batch()->openBatch(file, true) && runWithF5(window);
}

// Presses `key` in the queue of the active window (a closed dialog gives the window back).
void pressKey(MainWindow& window, int key, Qt::KeyboardModifiers modifiers = {}) {
  QVERIFY(showActive(window));
  QTest::keyClick(window.batch()->queueView(), Qt::Key(key), modifiers);
}

void doubleClickRow(MainWindow& window, int row) {
  QTableView* table = window.batch()->queueView();
  const QRect cell = table->visualRect(window.batch()->queue()->index(row, 0));
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
  QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
}

double coefficient(const QueueModel& queue, int row, const char* metric) {
  return queue.entry(row).experiment.at("coefficients").value(metric, 0.0);
}

// What the Log tab says.
QString logText(BatchMode& batch) {
  for (int i = 0; i < batch.tabs()->count(); ++i)
    if (batch.tabs()->tabText(i) == "Log")
      return static_cast<QPlainTextEdit*>(batch.tabs()->widget(i))->toPlainText();
  return {};
}

QByteArray fileBytes(const QString& file) {
  QFile f(file);
  f.open(QIODevice::ReadOnly);
  return f.readAll();
}

// In a file dialog: chooses `file` (typed as a person types it) and presses `button`.
DialogScript::Step chooseFile(const QString& file, const QString& button) {
  return [file, button](QDialog* d) {
    auto* files = qobject_cast<QFileDialog*>(d);
    QVERIFY(files);
    files->selectFile(file);
    click(d, button);
  };
}

// Runs the batch `file` with the CLI into `out` and kills it (SIGKILL: no file but the
// checkpoint is brought up to date) once the checkpoint of its first experiment holds 20 games;
// returns the games that checkpoint keeps (0 when it never got there).
size_t killRunInItsFirstExperiment(const QString& file, const QString& out) {
  const Batch batch = loadBatch(file.toStdString());
  const std::filesystem::path journal = std::filesystem::path(out.toStdString()) / ".ddalab" /
                                        (fileStem(batch.experiments[0].name) + ".journal");
  const auto checkpointed = [&] {
    size_t games = 0;
    readJournal(journal, playIdentity(batch, 0), [&](JournalEntry&&) { return ++games, true; });
    return games;
  };
  QProcess cli;
  cli.start(kCli, {"run", file, "--out", out, "--quiet", "--threads", "2"});
  const bool reached = QTest::qWaitFor(
      [&] { return std::filesystem::exists(journal) && checkpointed() >= 20; }, 60'000);
  cli.kill();
  cli.waitForFinished(10'000);
  return reached ? checkpointed() : 0;
}

// The games rows of the games CSV of `experiment` in the results folder `dir` (none: no file).
int gamesInCsv(const QString& dir, const QString& experiment) {
  const QByteArray bytes = fileBytes(
      dir + "/" + QString::fromStdString(fileStem(experiment.toStdString())) + ".games.csv");
  return bytes.isEmpty() ? -1 : static_cast<int>(bytes.count('\n')) - 1;
}

}  // namespace

class TrustTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // Looking at a row (double-click opens Settings…) and pressing OK keeps every game.
  void settingsOkWithoutChangeKeepsGames() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(showActive(window));
    QVERIFY(window.batch()->openBatch(smallBatch(dir, 20), true));
    QVERIFY(runWithF5(window));
    QCOMPARE(window.batch()->queue()->entry(0).games(), size_t(20));
    DialogScript script({press("OK")});
    doubleClickRow(window, 0);
    QTRY_COMPARE(script.seen.size(), 1);
    QCOMPARE(window.batch()->queue()->entry(0).games(), size_t(20));
    QCOMPARE(window.batch()->queue()->entry(1).games(), size_t(20));
    QVERIFY(!window.batch()->canUndo());  // nothing happened
    QCOMPARE(script.unexpected, size_t(0));
  }

  // A change that invalidates games asks with their number; Cancel goes back to the dialog
  // and keeps them; Yes discards them; Ctrl+Z brings the row back with its games. A change that
  // keeps the games (fewer of them, a new name) asks only when it drops some.
  void changeAsksAndUndoRestores() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(showActive(window));
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openBatch(smallBatch(dir, 20), true));
    QVERIFY(runWithF5(window));
    const double tension = coefficient(*batch.queue(), 0, "tension");
    {
      DialogScript script({setCoefficient("tension", "77"), press("Cancel"), press("Cancel")});
      batch.selectRow(0);
      pressKey(window, Qt::Key_E, Qt::ControlModifier);  // Settings…
      QTRY_COMPARE(script.seen.size(), 3);
      QVERIFY2(script.seen[1].contains("20 finished games"), qPrintable(script.seen[1]));
      QCOMPARE(batch.queue()->entry(0).games(), size_t(20));
      QCOMPARE(coefficient(*batch.queue(), 0, "tension"), tension);
    }
    {
      DialogScript script({setCoefficient("tension", "77"), press("Yes")});
      pressKey(window, Qt::Key_E, Qt::ControlModifier);
      QTRY_COMPARE(script.seen.size(), 2);
      QCOMPARE(batch.queue()->entry(0).games(), size_t(0));
      QCOMPARE(coefficient(*batch.queue(), 0, "tension"), 77.0);
    }
    pressKey(window, Qt::Key_Z, Qt::ControlModifier);  // Undo
    QCOMPARE(batch.queue()->entry(0).games(), size_t(20));
    QCOMPARE(coefficient(*batch.queue(), 0, "tension"), tension);
    {
      // 12 games instead of 20: asks for the 8 it drops; the first 12 stay.
      DialogScript script({setGames(12), press("Yes")});
      pressKey(window, Qt::Key_E, Qt::ControlModifier);
      QTRY_COMPARE(script.seen.size(), 2);
      QVERIFY2(script.seen[1].contains("8 finished games"), qPrintable(script.seen[1]));
      QCOMPARE(batch.queue()->entry(0).games(), size_t(12));
    }
    // Remove asks too, and Undo brings the row back.
    {
      DialogScript script({press("Yes")});
      pressKey(window, Qt::Key_Delete);
      QTRY_COMPARE(script.seen.size(), 1);
      QCOMPARE(batch.queue()->rowCount(), 1);
    }
    pressKey(window, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(batch.queue()->rowCount(), 2);
    QCOMPARE(batch.queue()->entry(0).games(), size_t(12));
  }

  // Add puts rows in the game's comparison, named <comparison>/<environment> without spaces;
  // a name Add gave follows a new environment chosen in Settings…
  void addNamesRowsInTheGamesComparison() {
    MainWindow window;
    QVERIFY(showActive(window));
    BatchMode& batch = *window.batch();
    batch.addExperiment("ludo", 5);
    batch.addExperiment("ludo", 5);
    QCOMPARE(QString::fromStdString(batch.queue()->entry(1).label.name),
             QString("ludo/e-random-2"));
    QCOMPARE(QString::fromStdString(batch.queue()->entry(1).label.comparison), QString("ludo"));
    DialogScript script({[](QDialog* d) {
      for (QComboBox* box : d->findChildren<QComboBox*>())
        if (box->currentText() == "e-random") box->setCurrentText("e-hillclimber");
      click(d, "OK");
    }});
    batch.selectRow(1);
    pressKey(window, Qt::Key_E, Qt::ControlModifier);
    QTRY_COMPARE(script.seen.size(), 1);
    QCOMPARE(QString::fromStdString(batch.queue()->entry(1).label.name),
             QString("ludo/e-hillclimber"));
    QCOMPARE(QString::fromStdString(batch.queue()->entry(1).label.environment),
             QString("e-hillclimber"));
  }

  // Start runs only what is missing; on a complete queue it asks before running it again.
  void startRunsOnlyWhatIsMissing() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 20);
    MainWindow window;
    QVERIFY(showActive(window));
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openBatch(file, true));
    QVERIFY(runWithF5(window));
    const QString games0 =
        QString::fromStdString((*batch.runFolder() / "ludo-4hc__e-random.games.csv").string());
    const QByteArray before = fileBytes(games0);
    const int row = batch.addExperiment("ludo", 5);
    QCOMPARE(QString::fromStdString(batch.queue()->entry(row).label.name),
             QString("ludo/e-random"));
    QVERIFY(runWithF5(window));
    QCOMPARE(batch.runner()->gamesPlayed(), size_t(5));
    QCOMPARE(batch.runner()->gamesKept(), size_t(40));
    QCOMPARE(fileBytes(games0), before);
    QCOMPARE(batch.queue()->games(), size_t(45));
    {
      // Complete: F5 asks; Cancel runs nothing.
      DialogScript script({press("Cancel")});
      QSignalSpy finished(&batch, &BatchMode::runFinished);
      pressKey(window, Qt::Key_F5);
      QTRY_COMPARE(script.seen.size(), 1);
      QVERIFY2(script.seen[0].contains("complete"), qPrintable(script.seen[0]));
      QVERIFY(!batch.runner()->running());
      QCOMPARE(finished.size(), 0);
    }
    {
      DialogScript script({press("Yes")});
      QVERIFY(runWithF5(window));
      QCOMPARE(batch.runner()->gamesPlayed(), size_t(45));
      QCOMPARE(fileBytes(games0), before);  // the same seed plays the same games
    }
  }

  // Replacing or leaving a queue with unsaved work asks first; Cancel keeps it.
  void unsavedWorkAsks() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 5);
    MainWindow window;
    QVERIFY(showActive(window));
    BatchMode& batch = *window.batch();
    batch.addExperiment("ludo", 3);
    QVERIFY(batch.hasUnsavedWork());
    {
      DialogScript script({press("Cancel")});
      QVERIFY(!batch.openBatch(file));
      QCOMPARE(script.seen.size(), 1);
      QCOMPARE(batch.queue()->rowCount(), 1);
    }
    {
      DialogScript script({press("Cancel")});
      QVERIFY(!batch.openResults(dir.path()));
      QCOMPARE(batch.queue()->rowCount(), 1);
    }
    {
      DialogScript script({press("Cancel")});
      pressKey(window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);  // New
      QTRY_COMPARE(script.seen.size(), 1);
      QCOMPARE(batch.queue()->rowCount(), 1);
    }
    {
      DialogScript script({press("Cancel")});
      QVERIFY(!window.close());  // Quit
      QCOMPARE(script.seen.size(), 1);
      QVERIFY2(script.seen[0].contains("not saved"), qPrintable(script.seen[0]));
      QVERIFY(window.isVisible());
    }
    {
      DialogScript script({press("Discard")});
      QVERIFY(batch.openBatch(file));
      QCOMPARE(batch.queue()->rowCount(), 2);
      QVERIFY(!batch.hasUnsavedWork());  // as the file says
    }
    // A game in progress: changing the game asks; Cancel keeps it.
    window.newGame("ludo");
    GameSession* game = window.playMode()->session();
    game->setDelay(0);
    QTRY_VERIFY_WITH_TIMEOUT(game->personToMove(), 60'000);
    QVERIFY(game->act(game->legal().front()));
    QVERIFY(game->inProgress());
    const Json setup = game->setup().experiment;
    {
      DialogScript script({press("Cancel")});
      window.newGame("maze");
      QCOMPARE(script.seen.size(), 1);
      QVERIFY(game->setup().experiment == setup);
    }
    {
      DialogScript script({press("Yes")});
      window.newGame("maze");
      QCOMPARE(script.seen.size(), 1);
      QCOMPARE(game->setup().experiment.at("game").value("id", ""), std::string("maze"));
    }
    QVERIFY(window.close());  // nothing unsaved any more: no question
  }

  // Ctrl+O with finished games unsaved asks, offering Save all… for the games (it once offered
  // Save batch…, which saved the settings and then discarded the games): a save cancelled keeps
  // everything; a save done keeps the games in the folder chosen, and then the other batch
  // opens. Quit offers the same.
  void unsavedGamesDialogSavesTheGames() {
    QTemporaryDir dir;
    MainWindow window;
    window.resize(1024, 700);
    QVERIFY(openAndRun(window, smallBatch(dir, 3)));
    BatchMode& batch = *window.batch();
    QCOMPARE(batch.queue()->games(), size_t(6));
    const QString otherFile = smallBatchWithSeed(dir, 3, 7, "other.json");
    const QString saved = dir.filePath("saved");
    QStringList buttons;
    const DialogScript::Step lookThenSaveAll = [&](QDialog* d) {
      for (QAbstractButton* b : d->findChildren<QAbstractButton*>()) buttons << b->text();
      shotOfDialog(window, d, "gui-a-unsaved-games");
      click(d, "Save all…");
    };
    {
      DialogScript script(
          {chooseFile(otherFile, "Open"), lookThenSaveAll, [](QDialog* d) { d->reject(); }});
      pressKey(window, Qt::Key_O, Qt::ControlModifier);
      QTRY_COMPARE(script.seen.size(), 3);
      QVERIFY2(script.seen[1].contains("6 finished games are not saved"),
               qPrintable(script.seen[1]));
      QVERIFY2(!buttons.contains("Save batch…"), qPrintable(buttons.join(", ")));
      // The folder dialog cancelled: nothing is discarded, nothing opened.
      QCOMPARE(batch.queue()->games(), size_t(6));
      QVERIFY2(window.windowTitle().contains("small.json"), qPrintable(window.windowTitle()));
      QCOMPARE(script.unexpected, size_t(0));
    }
    {
      DialogScript script(
          {chooseFile(otherFile, "Open"), press("Save all…"), chooseFile(saved, "Save")});
      pressKey(window, Qt::Key_O, Qt::ControlModifier);
      QTRY_COMPARE(script.seen.size(), 3);
      QCOMPARE(script.unexpected, size_t(0));
    }
    for (int row = 0; row < 2; ++row)  // the games are in the folder chosen
      QCOMPARE(gamesInCsv(saved, QString::fromStdString(
                                     loadBatch(otherFile.toStdString()).experiments[row].name)),
               3);
    // Then the other batch opened (another seed: none of the games is its).
    QVERIFY2(window.windowTitle().contains("other.json"), qPrintable(window.windowTitle()));
    QCOMPARE(batch.queue()->games(), size_t(0));
    // Quit with unsaved games offers Save all… too; Cancel stays.
    QVERIFY(runWithF5(window));
    {
      DialogScript script({[&](QDialog* d) {
        shotOfDialog(window, d, "gui-a-unsaved-games-quit");
        QVERIFY(d->findChildren<QAbstractButton*>().size() >= 3);
        bool offersSaveAll = false;
        for (QAbstractButton* b : d->findChildren<QAbstractButton*>())
          offersSaveAll = offersSaveAll || b->text() == "Save all…";
        QVERIFY(offersSaveAll);
        click(d, "Cancel");
      }});
      QVERIFY(!window.close());
      QCOMPARE(script.seen.size(), 1);
      QVERIFY(window.isVisible());
      QCOMPARE(batch.queue()->games(), size_t(6));
    }
  }

  // Save all saves what the queue shows: after a damaged session.json was set aside, the empty
  // queue has nothing to save (it once wrote the last session's games and said "saved 0"), and
  // those games are kept aside too; a queue changed since its run is brought up to date by
  // Start (nothing runs again) before Save all writes it.
  void saveAllSavesWhatTheQueueShows() {
    QTemporaryDir dir;
    const QString session = dir.filePath("session");
    const QString first =
        QString::fromStdString(loadBatch(smallBatch(dir, 3).toStdString()).experiments[0].name);
    {
      MainWindow window;
      window.batch()->openSession(session);
      QVERIFY(openAndRun(window, smallBatch(dir, 3)));
    }
    {
      QFile damaged(session + "/session.json");
      QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
      damaged.write("{not json");
    }
    const QString target = dir.filePath("saved-empty");
    {
      MainWindow window;
      window.batch()->openSession(session);
      QCOMPARE(window.batch()->queue()->rowCount(), 0);
      QVERIFY(showActive(window));
      DialogScript script({chooseFile(target, "Save"), press("OK")});
      QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier | Qt::AltModifier);
      QApplication::processEvents();
      QVERIFY(!QFileInfo::exists(target));
      const QStringList kept =
          QDir(session).entryList({"results.damaged-*"}, QDir::Dirs | QDir::NoDotAndDotDot);
      QCOMPARE(kept.size(), 1);  // the last session's games, untouched
      QCOMPARE(gamesInCsv(session + "/" + kept.front(), first), 3);
    }
    // A row removed after the run: Save all refuses to save the folder's two rows…
    MainWindow window;
    window.resize(1024, 700);
    QVERIFY(openAndRun(window, smallBatch(dir, 3)));
    BatchMode& batch = *window.batch();
    {
      DialogScript script({press("Yes")});
      batch.selectRow(1);
      pressKey(window, Qt::Key_Delete);
      QTRY_COMPARE(script.seen.size(), 1);
    }
    const QString saved = dir.filePath("saved-one");
    {
      DialogScript script({chooseFile(saved, "Save"), [&](QDialog* d) {
                             shotOfDialog(window, d, "gui-a-save-all-stale");
                             click(d, "OK");
                           }});
      pressKey(window, Qt::Key_S, Qt::ControlModifier | Qt::AltModifier);
      QTRY_COMPARE(script.seen.size(), 2);
      QVERIFY2(script.seen[1].contains("Start (F5)"), qPrintable(script.seen[1]));
      QVERIFY(!QFileInfo::exists(saved + "/summary.csv"));
    }
    // … Start brings the folder up to the queue without a question or a game played again.
    {
      DialogScript script({});
      QVERIFY(runWithF5(window));
      QCOMPARE(script.seen.size(), 0);
      QCOMPARE(batch.runner()->gamesPlayed(), size_t(0));
    }
    {
      DialogScript script({chooseFile(saved, "Save")});
      pressKey(window, Qt::Key_S, Qt::ControlModifier | Qt::AltModifier);
      QTRY_COMPARE(script.seen.size(), 1);
    }
    QTRY_VERIFY(QFileInfo::exists(saved + "/summary.csv"));
    const Batch written = loadBatch((saved + "/batch.json").toStdString());
    QCOMPARE(written.experiments.size(), size_t(1));
    QCOMPARE(gamesInCsv(saved, QString::fromStdString(written.experiments[0].name)), 3);
  }

  // Open results of a folder whose run was killed shows the games its checkpoint holds, as the
  // same folder restored as the session does (it once showed 0 / 3000), and Resume continues.
  void openedKilledRunCountsItsCheckpoint() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 3000);
    const QString killed = dir.filePath("killed");
    const size_t games = killRunInItsFirstExperiment(file, killed);
    QVERIFY(games > 0 && games < 3000);
    MainWindow window;
    QString error;
    QVERIFY2(window.batch()->openResults(killed, true, &error), qPrintable(error));
    QCOMPARE(window.batch()->queue()->entry(0).games(), games);
    QCOMPARE(window.batch()
                 ->queue()
                 ->data(window.batch()->queue()->index(0, QueueModel::Iterations), Qt::DisplayRole)
                 .toString(),
             QString("%1 / 3000").arg(games));
    // The same folder as a session's results: the same count.
    const QString session = dir.filePath("session");
    QVERIFY(QDir().mkpath(session));
    QVERIFY(QProcess::execute("cp", {"-a", killed, session + "/results"}) == 0);
    {
      MainWindow restored;
      restored.batch()->openSession(session);
      QVERIFY(restored.batch()->openBatch(file, true));
      QCOMPARE(restored.batch()->queue()->entry(0).games(), games);
    }
    QVERIFY(window.batch()->runFolder());
    QVERIFY(holdsUnfinishedRun(*window.batch()->runFolder()));  // Resume continues it
  }

  // The queue and its games survive a restart of the window; a run cut off (the window gone
  // mid-run) is continued by Start, with the files of a run never interrupted.
  void sessionSurvivesRestart() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 400);
    QProcess cli;
    cli.start(kCli, {"run", file, "--out", dir.filePath("cli"), "--quiet"});
    QVERIFY(cli.waitForFinished(120'000));
    QCOMPARE(cli.exitCode(), 0);
    const QString session = dir.filePath("session");
    {
      auto window = std::make_unique<MainWindow>();
      window->batch()->openSession(session);
      window->batch()->setThreads(2);
      QVERIFY(window->batch()->openBatch(file, true));
      window->batch()->start();
      QTRY_VERIFY_WITH_TIMEOUT(window->batch()->queue()->games() >= 30, 60'000);
      window.reset();  // gone without Stop or Quit, as in a crash
    }
    {
      MainWindow window;
      window.batch()->openSession(session);
      BatchMode& batch = *window.batch();
      QCOMPARE(batch.queue()->rowCount(), 2);
      QVERIFY(batch.statusLabel()->text().contains("cut off"));
      QVERIFY(runWithF5(window));
      QVERIFY(batch.runner()->gamesKept() > 0);
      const auto files = [](const QString& folder) {
        std::map<QString, QByteArray> bytes;
        for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Files))
          bytes[f.fileName()] = fileBytes(f.absoluteFilePath());
        return bytes;
      };
      QCOMPARE(files(QString::fromStdString(batch.runFolder()->string())),
               files(dir.filePath("cli")));
    }  // quit: the session is the next window's
    // A restart after a complete run: every game is there at once, Undo history is not.
    MainWindow again;
    again.batch()->openSession(session);
    QCOMPARE(again.batch()->queue()->games(), size_t(800));
    QVERIFY(again.batch()->queue()->complete());
  }

  // Raising a complete row's games (6 -> 9) keeps its finished games and their numbers: every
  // metric column shows what it showed (it once read "n/a" in every one).
  void raisedGamesKeepTheirMetrics() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndRun(window, smallBatch(dir, 6)));
    BatchMode& batch = *window.batch();
    QueueModel& queue = *batch.queue();
    const auto cells = [&] {
      QStringList texts;
      for (int c = QueueModel::WinRatio; c < queue.columnCount(); ++c)
        texts << queue.data(queue.index(0, c), Qt::DisplayRole).toString();
      return texts;
    };
    const QStringList before = cells();
    QVERIFY(!before.contains("n/a"));
    DialogScript script({setGames(9)});
    batch.selectRow(0);
    pressKey(window, Qt::Key_E, Qt::ControlModifier);
    QTRY_COMPARE(script.seen.size(), 1);
    QCOMPARE(queue.entry(0).label.plannedIterations, 9);
    QCOMPARE(queue.entry(0).games(), size_t(6));
    QCOMPARE(cells(), before);
  }

  // A run killed (SIGKILL) in its first experiment: the restarted window's row shows the games
  // its checkpoint holds, the games Start continues from (it once showed 0 until Start).
  void killedRunShowsItsCheckpointedGames() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 3000);
    const QString session = dir.filePath("session");
    {
      MainWindow window;
      window.batch()->openSession(session);
      QVERIFY(window.batch()->openBatch(file, true));
    }
    const size_t games = killRunInItsFirstExperiment(file, dir.filePath("session/results"));
    QVERIFY(games > 0 && games < 3000);
    MainWindow window;
    window.batch()->openSession(session);
    QCOMPARE(window.batch()->queue()->entry(0).games(), games);
    QCOMPARE(window.batch()->queue()->data(window.batch()->queue()->index(0, QueueModel::Iterations),
                                           Qt::DisplayRole)
                 .toString(),
             QString("%1 / 3000").arg(games));
  }

  // The first of five shards (20 of 100 games a row) opened, Start and at once Stop: the rows
  // still show the 20 games the folder keeps, and the log says so (it once said "0 finished
  // games kept" and the rows 0 / 100).
  void stopAtOnceKeepsTheOpenedGames() {
    QTemporaryDir dir;
    const QString file = smallBatch(dir, 100);
    QProcess cli;
    cli.start(kCli, {"run", file, "--out", dir.filePath("shard"), "--shard", "0/5", "--quiet"});
    QVERIFY(cli.waitForFinished(120'000));
    QCOMPARE(cli.exitCode(), 0);
    MainWindow window;
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openResults(dir.filePath("shard"), true));
    QCOMPARE(batch.queue()->entry(0).games(), size_t(20));
    QCOMPARE(batch.queue()->entry(1).games(), size_t(20));
    QSignalSpy finished(&batch, &BatchMode::runFinished);
    batch.start();
    batch.stop();
    QVERIFY(finished.wait(60'000));
    QVERIFY(!finished.front().at(0).toBool());
    QVERIFY(batch.queue()->entry(0).games() >= 20);
    QVERIFY(batch.queue()->entry(1).games() >= 20);
    const QString log = logText(batch);
    const QString said =
        QString("run stopped: %1 of 200 games finished and kept").arg(batch.queue()->games());
    QVERIFY2(log.contains(said), qPrintable(log));
  }

  // A row stopped part way is logged as stopped at its count, never as finished.
  void stoppedRowIsNotLoggedFinished() {
    QTemporaryDir dir;
    MainWindow window;
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openBatch(smallBatch(dir, 3000), true));
    batch.setThreads(2);
    QSignalSpy finished(&batch, &BatchMode::runFinished);
    batch.start();
    QTRY_VERIFY_WITH_TIMEOUT(batch.queue()->entry(0).games() >= 20, 60'000);
    batch.stop();
    QVERIFY(finished.wait(60'000));
    const QueueEntry& row = batch.queue()->entry(0);
    QVERIFY(row.games() < 3000);
    const QString log = logText(batch);
    const QString name = QString::fromStdString(row.label.name);
    QVERIFY2(!log.contains("finished " + name), qPrintable(log));
    QVERIFY2(log.contains(QString("stopped %1 at %2 / 3000 games").arg(name).arg(row.games())),
             qPrintable(log));
  }

  // The status bar and the progress bar follow the queue: a complete run says so, a row added
  // afterwards or an emptied queue does not keep "finished" or 100 %.
  void statusFollowsTheQueue() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openAndRun(window, smallBatch(dir, 4)));
    BatchMode& batch = *window.batch();
    QCOMPARE(batch.progressBar()->value(), 100);
    QVERIFY(batch.statusLabel()->text().contains("finished"));
    batch.addExperiment("ludo", 4);
    QCOMPARE(batch.progressBar()->value(), 66);  // 8 of 12 games
    QVERIFY2(batch.statusLabel()->text().contains("8 of 12 games finished"),
             qPrintable(batch.statusLabel()->text()));
    DialogScript script({press("Discard")});
    batch.newQueue();
    QCOMPARE(script.seen.size(), 1);
    QCOMPARE(batch.queue()->rowCount(), 0);
    QCOMPARE(batch.progressBar()->value(), 0);
    QVERIFY2(!batch.statusLabel()->text().contains("finished"),
             qPrintable(batch.statusLabel()->text()));
  }
};

QTEST_MAIN(TrustTest)
#include "test_trust.moc"
