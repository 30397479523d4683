// ddalab-gui, the window across restarts (the queue and its games must survive a quit and a
// crash): an empty queue is a session like any other (its seed kept, nothing reported damaged);
// a damaged session is kept under a name no later one replaces; a shipped example opens as an
// untitled copy that Save never writes over; the batch toolbar is back after quitting in the
// game mode.
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <filesystem>
#include <fstream>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/start_page.h"
#include "app/gui/main_window.h"
#include "tests/app/gui/file_support.h"
#include "tests/app/gui/gui_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

QAction* actionNamed(MainWindow& window, const QString& text) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == text) return a;
  return nullptr;
}

// The damaged sessions kept in `folder`, by name.
QStringList damagedIn(const QString& folder) {
  return QDir(folder).entryList({"session.json.damaged*"}, QDir::Files, QDir::Name);
}

}  // namespace

class WindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }

  // New queue → Discard → Quit → relaunch: the empty queue comes back with its seed, and nothing
  // is reported damaged (it was, at every launch, and the seed went back to 42).
  void emptyQueueIsARestorableSession() {
    QTemporaryDir dir;
    const QString file = smallBatchWithSeed(dir, 1, 777, "seed777.json");
    const QString session = dir.filePath("session");
    {
      MainWindow window;
      window.batch()->openSession(session);
      QVERIFY(window.batch()->openBatch(file, true));
      window.batch()->newQueue();  // saved as the file says: no question
      QCOMPARE(window.batch()->queue()->rowCount(), 0);
    }
    MainWindow window;
    window.batch()->openSession(session);
    QVERIFY2(!window.batch()->statusLabel()->text().contains("could not be restored"),
             qPrintable(window.batch()->statusLabel()->text()));
    const Json kept = Json::parse(std::ifstream((session + "/session.json").toStdString()));
    QCOMPARE(kept.at("queue").at("seed").get<uint64_t>(), uint64_t{777});  // as the window has it
    QVERIFY(damagedIn(session).isEmpty());
  }

  // A damaged session is kept for the person to look at, and the next damaged one never
  // replaces it (each launch renamed onto session.json.damaged).
  void damagedSessionsAreNeverOverwritten() {
    QTemporaryDir dir;
    const QString session = dir.filePath("session");
    QVERIFY(QDir().mkpath(session));
    const QList<QByteArray> damaged = {"{not json", R"({"format": "something else"})"};
    for (const QByteArray& bytes : damaged) {
      write(session + "/session.json", bytes);
      MainWindow window;
      window.batch()->openSession(session);
      QVERIFY(window.batch()->statusLabel()->text().contains("could not be restored"));
      QCOMPARE(window.batch()->queue()->rowCount(), 0);
    }
    const QStringList kept = damagedIn(session);
    QCOMPARE(kept.size(), 2);
    QStringList contents;
    for (const QString& name : kept) contents << bytesOf(session + "/" + name);
    for (const QByteArray& bytes : damaged)
      QVERIFY2(contents.contains(QString(bytes)), bytes.constData());
  }

  // The quick comparison opened from the start page is an untitled copy: Save batch asks for a
  // name, and neither Save dialog starts in the shipped folder; the shipped file stays as it is.
  void shippedExampleOpensAsAnUntitledCopy() {
    const QString shipped = StartPage::shippedExperiments() + "/quick.json";
    const QByteArray before = bytesOf(shipped);
    QVERIFY(!before.isEmpty());
    MainWindow window;
    window.show();
    QPushButton* quick = nullptr;
    for (QPushButton* b : window.findChild<StartPage*>()->findChildren<QPushButton*>())
      if (b->text().contains("quick comparison")) quick = b;
    QVERIFY(quick);
    QTest::mouseClick(quick, Qt::LeftButton);
    QCOMPARE(window.batch()->queue()->rowCount(), 2);
    QVERIFY2(window.windowTitle().contains("untitled"), qPrintable(window.windowTitle()));
    const QString shippedFolder = QDir(StartPage::shippedExperiments()).canonicalPath();
    QStringList folders;
    const DialogScript::Step cancel = [&](QDialog* dialog) {
      auto* files = qobject_cast<QFileDialog*>(dialog);
      QVERIFY(files);
      folders << files->directory().canonicalPath();
      dialog->reject();
    };
    DialogScript script({cancel, cancel});
    actionNamed(window, "Save batch")->trigger();
    actionNamed(window, "Save batch as…")->trigger();
    QCOMPARE(script.seen.size(), 2);  // Save asked where, as Save as does
    for (const QString& folder : folders)
      QVERIFY2(!folder.startsWith(shippedFolder), qPrintable(folder));
    QCOMPARE(bytesOf(shipped), before);
  }

  // A second window on a session folder says which process holds it and keeps away from it
  // (it once claimed the first's running batch "was cut off" and its Start failed with a
  // command-line message); it works without a session, and the first's session is untouched.
  void secondWindowSaysWhoHoldsTheSession() {
    QTemporaryDir dir;
    const QString session = dir.filePath("session");
    MainWindow first;
    QVERIFY(first.batch()->openSession(session));
    QVERIFY(first.batch()->openBatch(smallBatch(dir, 2), true));
    const QByteArray kept = bytesOf(session + "/session.json");
    MainWindow second;
    second.resize(1024, 700);
    second.show();
    DialogScript script({[&](QDialog* d) {
      shotOfDialog(second, d, "gui-a-session-in-use");
      click(d, "OK");
    }});
    QVERIFY(!second.batch()->openSession(session));
    QCOMPARE(script.seen.size(), 1);
    const QString pid = "pid " + QString::number(QCoreApplication::applicationPid());
    QVERIFY2(script.seen[0].contains(pid) && script.seen[0].contains(session),
             qPrintable(script.seen[0]));
    QVERIFY2(second.batch()->statusLabel()->text().contains(pid),
             qPrintable(second.batch()->statusLabel()->text()));
    QCOMPARE(second.batch()->queue()->rowCount(), 0);  // the first's queue is not shown
    QVERIFY(second.batch()->openBatch(smallBatch(dir, 2), true));
    QSignalSpy finished(second.batch(), &BatchMode::runFinished);
    second.batch()->start();  // works, in a folder of its own
    QVERIFY(finished.wait(60'000));
    QVERIFY(finished.front().at(0).toBool());
    QCOMPARE(bytesOf(session + "/session.json"), kept);
    QVERIFY(!std::filesystem::exists(std::filesystem::path(session.toStdString()) / "results"));
  }

  // Ctrl+S of a shipped example's copy onto the example itself (Qt asks "already exists.
  // Replace?", and Yes once wrote over it) is refused, and Save as asks again; the title then
  // names the file saved, also after a restart (it said "batch experiments").
  void shippedExampleIsNeverSavedOver() {
    const QString shipped = StartPage::shippedExperiments() + "/quick.json";
    const QByteArray before = bytesOf(shipped);
    QVERIFY(!before.isEmpty());
    QTemporaryDir dir;
    const QString session = dir.filePath("session");
    const QString mine = dir.filePath("mine.json");
    const auto typeName = [](const QString& file) {
      return [file](QDialog* d) {
        auto* files = qobject_cast<QFileDialog*>(d);
        QVERIFY(files);
        files->selectFile(file);
        click(d, "Save");
      };
    };
    {
      MainWindow window;
      window.resize(1024, 700);
      QVERIFY(window.batch()->openSession(session));
      window.show();
      window.activateWindow();
      QVERIFY(QTest::qWaitForWindowActive(&window));
      QVERIFY(window.batch()->openBatch(shipped, true));
      DialogScript script({typeName(shipped), press("Yes"),
                           [&](QDialog* d) {
                             shotOfDialog(window, d, "gui-a-shipped-example");
                             click(d, "OK");
                           },
                           typeName(mine)});
      QTest::keyClick(window.batch()->queueView(), Qt::Key_S, Qt::ControlModifier);
      const bool asked = QTest::qWaitFor([&] { return script.seen.size() == 4; });
      const QByteArray after = bytesOf(shipped);
      if (after != before) write(shipped, before);  // the example is given back, and it fails
      QCOMPARE(after, before);
      QVERIFY(asked);
      QVERIFY2(script.seen[2].contains("shipped with ddalab"), qPrintable(script.seen[2]));
      QVERIFY(QFileInfo::exists(mine));
      QVERIFY2(window.windowTitle().contains("mine.json"), qPrintable(window.windowTitle()));
    }
    MainWindow window;
    QVERIFY(window.batch()->openSession(session));
    QVERIFY2(window.windowTitle().contains("mine.json"), qPrintable(window.windowTitle()));
  }

  // A toolbar the person hid (its context menu) stays hidden after a restart and after a visit
  // to the game mode; one hidden by the game mode comes back (see above).
  void hiddenToolBarStaysHidden() {
    {
      MainWindow window;
      window.show();
      QAction* toggle = window.batch()->toolBar()->toggleViewAction();
      QVERIFY(window.createPopupMenu()->actions().contains(toggle));  // what the menu offers
      toggle->trigger();
      QVERIFY(!window.batch()->toolBar()->isVisible());
      window.showGameMode();
      window.showBatchMode();
      QVERIFY(!window.batch()->toolBar()->isVisible());
      QVERIFY(window.close());
    }
    MainWindow window;
    window.show();
    QVERIFY(!window.batch()->toolBar()->isVisible());
    window.batch()->toolBar()->toggleViewAction()->trigger();
    QVERIFY(window.batch()->toolBar()->isVisible());
  }

  // Ctrl+E opens the selected row's settings while the games box (or the seed) has focus: the
  // field once kept the key for its own "end of line".
  void settingsShortcutWorksFromTheGamesBox() {
    MainWindow window;
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.batch()->addExperiment("ludo", 5);
    window.batch()->selectRow(0);
    QSpinBox* games = nullptr;
    for (QSpinBox* box : window.batch()->toolBar()->findChildren<QSpinBox*>())
      if (box->suffix() == " games") games = box;
    QVERIFY(games);
    games->setFocus();
    QVERIFY(games->hasFocus());
    DialogScript script({press("Cancel")});
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::ControlModifier);
    QTRY_COMPARE(script.seen.size(), 1);
    QCOMPARE(games->value(), 1000);  // the box is as it was
  }

  // Quitting in the game mode hid the batch toolbar for good: the next start is in the batch
  // mode, with its toolbar (the start page points at it).
  void batchToolBarIsBackAfterQuittingInGameMode() {
    {
      MainWindow window;
      window.show();
      window.showGameMode();
      QVERIFY(!window.batch()->toolBar()->isVisible());
      QVERIFY(window.close());
    }
    MainWindow window;
    window.show();
    QVERIFY(window.batch()->isVisible());
    QVERIFY(window.batch()->toolBar()->isVisible());
  }
};

QTEST_MAIN(WindowTest)
#include "test_window.moc"
