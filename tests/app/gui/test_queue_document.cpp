// The batch queue's document without a window (a QCoreApplication, no widget): edits and their
// undo, the unsaved flags, the session written and restored, and a session file that cannot be
// trusted refused — moved aside with its results folder, the queue empty — as the window does.
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

#include "app/gui/batch/batch_files.h"
#include "app/gui/batch/queue_document.h"
#include "experiments/batch.h"
#include "experiments/folder_lock.h"
#include "tests/app/gui/file_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

namespace fs = std::filesystem;

QString shippedQuick() {
  return shippedExperimentsFolder() + "/quick.json";
}

// The experiments of the shipped quick comparison (two Ludo rows).
std::vector<Json> quickExperiments() {
  const Json batch = toJson(loadBatch(shippedQuick().toStdString()));
  return {batch.at("experiments").begin(), batch.at("experiments").end()};
}

// The experiments of the queue as a batch file holds them.
Json experimentsOf(const QueueDocument& document) {
  return toJson(document.batch()).at("experiments");
}

}  // namespace

class QueueDocumentTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }

  // Add, duplicate, change and remove, each undone in turn back to the empty queue; the queue
  // is unsaved after each edit, saved by Save batch, and a refused row changes nothing.
  void editsAreUndoneInTurn() {
    QueueDocument document;
    QSignalSpy undoChanged(&document, &QueueDocument::undoChanged);
    const std::vector<Json> quick = quickExperiments();
    QVERIFY(!document.canUndo());
    QVERIFY(!document.hasUnsavedWork());
    document.append(quick[0]);
    QCOMPARE(document.model()->rowCount(), 1);
    QCOMPARE(document.undoText(), QString("add"));
    QVERIFY(!document.queueSaved());
    QVERIFY(document.hasUnsavedWork());
    QVERIFY(!undoChanged.isEmpty());
    document.duplicate(0);
    QCOMPARE(document.model()->rowCount(), 2);
    QCOMPARE(document.undoText(), QString("duplicate"));
    const Json beforeChange = experimentsOf(document);
    const QString copy = QString::fromStdString(document.model()->entry(1).label.name);
    Json changed = document.model()->entry(1).experiment;
    changed["iterations"] = 7;
    document.changeSettings(1, QueueModel::canonical(changed));
    QCOMPARE(document.model()->entry(1).label.plannedIterations, 7);
    const QString removed = QString::fromStdString(document.model()->entry(0).label.name);
    document.remove(0);
    QCOMPARE(document.undoText(), "remove " + removed);
    QCOMPARE(document.model()->rowCount(), 1);

    // Refused: unknown game. No row, no undo step.
    Json unknown = quick[0];
    unknown["game"]["id"] = "no-such-game";
    unknown["name"] = "refused";
    QVERIFY_THROWS_EXCEPTION(InputError, document.append(unknown));
    QCOMPARE(document.model()->rowCount(), 1);
    QCOMPARE(document.undoText(), "remove " + removed);

    document.undo();  // the row removed is back
    QCOMPARE(document.model()->rowCount(), 2);
    QCOMPARE(document.undoText(), "settings of " + copy);
    document.undo();  // its games' number back
    QVERIFY(experimentsOf(document) == beforeChange);
    document.undo();
    QCOMPARE(document.model()->rowCount(), 1);
    document.undo();
    QCOMPARE(document.model()->rowCount(), 0);
    QVERIFY(!document.canUndo());
    document.undo();  // nothing to undo: nothing changes
    QCOMPARE(document.model()->rowCount(), 0);

    document.append(quick[0]);
    QTemporaryDir dir;
    const QString file = dir.filePath("mine.json");
    document.saveBatch(file);
    QVERIFY(document.queueSaved());
    QVERIFY(!document.hasUnsavedWork());
    QCOMPARE(document.batchFile(), file);
    QVERIFY(toJson(loadBatch(file.toStdString())).at("experiments") == experimentsOf(document));
    document.setSeedText("7");  // typing the seed is an edit too
    QVERIFY(!document.queueSaved());
    QCOMPARE(document.seed(), uint64_t{7});
    document.setSeedText("7x");
    QVERIFY_THROWS_EXCEPTION(InputError, document.seed());
  }

  // A shipped example opens untitled (never saved over); its rows are undone as one edit; a
  // new queue is empty, untitled and has nothing to undo.
  void openedBatchIsOneEdit() {
    QueueDocument document;
    QSignalSpy seedLoaded(&document, &QueueDocument::seedLoaded);
    const Batch batch = document.openBatch(shippedQuick());
    QCOMPARE(batch.experiments.size(), size_t{2});
    QCOMPARE(document.model()->rowCount(), 2);
    QVERIFY(document.batchFile().isEmpty());
    QVERIFY(document.queueSaved());
    QCOMPARE(seedLoaded.size(), 1);
    QCOMPARE(seedLoaded.front().front().toString(), QString("42"));
    QCOMPARE(document.undoText(), QString("open quick.json"));
    document.undo();
    QCOMPARE(document.model()->rowCount(), 0);
    document.openBatch(shippedQuick());
    document.clear();
    QCOMPARE(document.model()->rowCount(), 0);
    QVERIFY(!document.canUndo());
    QVERIFY(document.batchFile().isEmpty());
    QVERIFY(!document.runFolder());
  }

  // What a session keeps comes back in a new document: the rows, the seed, the batch file and
  // whether the queue is saved; an empty queue keeps its seed.
  void sessionRoundTrips() {
    QTemporaryDir dir;
    const fs::path session = dir.filePath("session").toStdString();
    const QString file = dir.filePath("mine.json");
    Json experiments;
    {
      QueueDocument first;
      first.lockSession(session);
      QVERIFY(!first.hasSessionFile());
      first.persist();
      QVERIFY(first.hasSessionFile());
      QCOMPARE(first.sessionFolder(), std::optional<fs::path>(session));
      for (const Json& experiment : quickExperiments()) first.append(experiment);
      first.saveBatch(file);
      first.setSeedText("1234");  // after the save: the queue is not saved
      experiments = experimentsOf(first);
    }
    {
      QueueDocument second;
      QSignalSpy seedLoaded(&second, &QueueDocument::seedLoaded);
      second.lockSession(session);
      QVERIFY(second.hasSessionFile());
      const SessionRestore restore = second.restoreSession();
      QVERIFY2(restore.restored, restore.error.c_str());
      QVERIFY(experimentsOf(second) == experiments);
      QCOMPARE(second.seedText(), QString("1234"));
      QCOMPARE(seedLoaded.size(), 1);
      QCOMPARE(second.batchFile(), file);
      QVERIFY(!second.queueSaved());
      QVERIFY(!second.canUndo());  // the undo is the window's until it closes
      QVERIFY(!second.interrupted());
      second.clear();
      second.setSeedText("99");
    }
    QueueDocument third;
    third.lockSession(session);
    QVERIFY(third.restoreSession().restored);
    QCOMPARE(third.model()->rowCount(), 0);
    QCOMPARE(third.seedText(), QString("99"));
    QVERIFY(QDir(QString::fromStdString(session.string()))
                .entryList({"session.json.damaged*"}, QDir::Files)
                .isEmpty());
  }

  // A seed being typed is not written: the session keeps the last one that was a number.
  void seedBeingTypedIsNotWritten() {
    QTemporaryDir dir;
    const fs::path session = dir.filePath("session").toStdString();
    const QString file = QString::fromStdString((session / "session.json").string());
    QueueDocument document;
    document.lockSession(session);
    document.setSeedText("5");
    const QByteArray kept = bytesOf(file);
    QVERIFY(kept.contains("\"seed\": 5"));
    document.setSeedText("5a");
    QCOMPARE(bytesOf(file), kept);
  }

  // A second document on a locked session is refused and keeps no session.
  void lockedSessionIsRefused() {
    QTemporaryDir dir;
    const fs::path session = dir.filePath("session").toStdString();
    QueueDocument first;
    first.lockSession(session);
    QueueDocument second;
    QVERIFY_THROWS_EXCEPTION(FolderInUse, second.lockSession(session));
    QVERIFY(!second.sessionFolder());
    QVERIFY(!second.hasSessionFile());
  }

  // A session file that is not a session, or whose queue validation refuses, is never used: it
  // is kept as it was under a name of its own, its results folder moved aside beside it, and
  // the queue is empty; the next session written is a new one. A shipped example named as the
  // batch file is restored untitled (never saved over).
  void hostileSessionIsRefused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("not json") << QByteArray("{not json");
    QTest::newRow("another format") << QByteArray(R"({"format": "something else"})");
    QTest::newRow("an array") << QByteArray(R"(["ddalab-gui-session/1"])");
    QTest::newRow("no queue") << QByteArray(R"({"format": "ddalab-gui-session/1"})");
    QTest::newRow("a negative seed") << QByteArray(R"({"format": "ddalab-gui-session/1",
                          "queue": {"format": "ddalab-batch/1", "seed": -1, "experiments": []}})");
    QTest::newRow("an unknown field of an empty queue")
        << QByteArray(R"({"format": "ddalab-gui-session/1",
                          "queue": {"seed": 1, "experiments": [], "run": "rm -rf /"}})");
    QTest::newRow("an unknown game") << QByteArray(R"({"format": "ddalab-gui-session/1",
                          "queue": {"format": "ddalab-batch/1", "seed": 1, "experiments": [
                            {"name": "x", "game": {"id": "../../etc/passwd"}, "iterations": 1}]}})");
    QTest::newRow("games a row cannot hold") << QByteArray(R"({"format": "ddalab-gui-session/1",
                          "queue": {"format": "ddalab-batch/1", "seed": 1, "experiments": [
                            {"name": "x", "game": {"id": "ludo"}, "iterations": -5}]}})");
  }

  void hostileSessionIsRefused() {
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    const QString folder = dir.filePath("session");
    QVERIFY(QDir().mkpath(folder + "/results"));
    write(folder + "/session.json", bytes);
    write(folder + "/results/kept.csv", "games of another queue\n");
    QueueDocument document;
    document.lockSession(folder.toStdString());
    const SessionRestore restore = document.restoreSession();
    QVERIFY(!restore.restored);
    QVERIFY(!restore.error.empty());
    QCOMPARE(document.model()->rowCount(), 0);
    QCOMPARE(bytesOf(QString::fromStdString(restore.keptSession.string())), bytes);
    QVERIFY(restore.keptSession.filename().string().starts_with("session.json.damaged-"));
    QVERIFY(restore.keptGames);
    QCOMPARE(bytesOf(QString::fromStdString((*restore.keptGames / "kept.csv").string())),
             QByteArray("games of another queue\n"));
    QVERIFY(!QFileInfo::exists(folder + "/results"));
    QVERIFY(!document.hasSessionFile());
    document.persist();
    QVERIFY(bytesOf(folder + "/session.json").contains("ddalab-gui-session/1"));
  }

  void shippedBatchFileIsRestoredUntitled() {
    QTemporaryDir dir;
    const QString folder = dir.filePath("session");
    QVERIFY(QDir().mkpath(folder));
    const Json state = {
        {"format", kSessionFormat},
        {"queue", {{"format", "ddalab-batch/1"}, {"seed", 3}, {"experiments", Json::array()}}},
        {"batch_file", shippedQuick().toStdString()},
        {"queue_saved", true},
        {"results_saved", true}};
    write(folder + "/session.json", QByteArray::fromStdString(state.dump()));
    QueueDocument document;
    document.lockSession(folder.toStdString());
    QVERIFY(document.restoreSession().restored);
    QVERIFY(document.batchFile().isEmpty());
    QCOMPARE(document.seedText(), QString("3"));
  }
};

QTEST_GUILESS_MAIN(QueueDocumentTest)
#include "test_queue_document.moc"
