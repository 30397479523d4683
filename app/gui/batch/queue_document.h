#pragma once
// The batch queue's document, without a widget: the experiments with their games (QueueModel),
// the master seed, the batch file the queue came from, whether the queue and its games are
// saved, the undo stack, the results folder the games are kept in and the session that keeps
// all of this across restarts (session.json beside that folder). The batch mode shows it and
// asks the person; everything it changes goes through here, so it is testable without a window.
//
// Nothing finished is discarded unasked: an edit that invalidates games can be undone (until the
// next run), and every change is written to the session at once.
#include <QObject>
#include <QString>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/batch/queue_model.h"
#include "experiments/batch.h"
#include "results/significance.h"

QT_BEGIN_NAMESPACE
class QTemporaryDir;
QT_END_NAMESPACE

namespace ddalab {
class FolderLock;
}

namespace ddalab::gui {

// The format of session.json.
inline constexpr const char* kSessionFormat = "ddalab-gui-session/1";

// What restoring a session found.
struct SessionRestore {
  bool restored = false;              // the queue is the session's; else the window starts empty
  std::string error;                  // why it could not be restored
  std::filesystem::path keptSession;  // where the damaged session.json was moved
  std::optional<std::filesystem::path> keptGames;  // and its results folder, when moved
};

class QueueDocument : public QObject {
  Q_OBJECT
 public:
  explicit QueueDocument(QObject* parent = nullptr);
  ~QueueDocument() override;

  // The experiments and their games (owned by the document).
  QueueModel* model() const { return model_; }

  // The master seed as typed (it may not be a number while it is being typed).
  const QString& seedText() const { return seedText_; }
  // The person typed the seed: the queue is not saved any more; kept in the session.
  void setSeedText(const QString& text);
  // The seed field shows `text` however it came there: the document reads it from now on,
  // without marking the queue edited.
  void syncSeedText(const QString& text) { seedText_ = text; }
  // The master seed; throws InputError while the text is not a number 0 .. 2^64 - 1.
  uint64_t seed() const;
  // The queue as a batch with its seed; throws InputError when invalid.
  Batch batch() const { return model_->batch(seed()); }

  // The batch file the queue was opened from or saved to (empty: untitled).
  const QString& batchFile() const { return batchFile_; }
  // Whether the queue equals its batch file (or is empty).
  bool queueSaved() const { return queueSaved_; }
  // Whether the queue's finished games are not saved with Save all.
  bool unsavedGames() const;
  // Whether the queue has changes not saved to a batch file or games not saved with Save all.
  bool hasUnsavedWork() const;
  // Whether the results folder holds a run that did not finish (Resume continues it).
  bool interrupted() const { return interrupted_; }

  // The name Add gives `experiment`: <comparison>/<environment>.
  static std::string addedName(const Json& experiment);
  // `after` renamed to follow its new environment when `before` had the name Add gave it.
  Json followEnvironment(const Json& before, Json after) const;

  // Edits, each undoable and kept in the session. Appends `experiment` (InputError when it is
  // refused; nothing changes then).
  void append(const Json& experiment);
  // Removes the row `row` and its games.
  void remove(int row);
  // Copies the row `row` under a new name, right below.
  void duplicate(int row);
  // Gives the row `row` the settings `changed` (canonical), renamed to follow its environment;
  // the games that still count stay (read again from the results folder when the row has fewer
  // games than it finished).
  void changeSettings(int row, const Json& changed);
  // Empties the queue: untitled, nothing unsaved, no undo.
  void clear();

  // Whether Undo has an edit to go back from, and what that edit was ("remove ludo/e-random").
  bool canUndo() const { return !undo_.empty(); }
  QString undoText() const { return undo_.empty() ? QString() : undo_.back().what; }
  // Goes back to the queue and its games before the last edit.
  void undo();

  // Loads a batch file into the queue (undoable), keeping the games of experiments that stay
  // the same; a shipped example opens untitled. Throws what loading it throws; returns it.
  Batch openBatch(const QString& file);
  // Replaces the queue and its games by a results folder written by `ddalab run` (its files are
  // copied into the results folder; the folder opened is never written). Throws what reading it
  // throws, before anything is replaced; returns its batch.
  Batch openResults(const std::filesystem::path& dir);
  // Writes the queue as a ddalab-batch/1 file and makes it the queue's batch file. Throws
  // InputError for an invalid queue, and what writing throws.
  void saveBatch(const QString& file);
  // Writes the results folder's games into `dir` as `ddalab run --out` would (over results
  // there only when `overwrite`): the games are saved then. Throws what exporting throws.
  void saveAll(const std::filesystem::path& dir, bool overwrite);

  // The results folder the queue's games are kept in (none before a run or an opened folder).
  std::optional<std::filesystem::path> runFolder() const;
  // The folder a run writes into: the session's results folder, else a temporary one made on
  // first use. Throws InputError when no temporary folder can be made.
  std::filesystem::path workFolder();
  // Whether the results folder holds the queue as it is (its batch.json is the queue's
  // experiments and seed). Throws what reading batch.json or the seed throws.
  bool folderHoldsQueue() const;
  // A run into workFolder() starts: the rows' games are cleared (the run hands back the games it
  // keeps), no undo past it, its games not saved, interrupted until it ends.
  void runStarted();
  // The run ended with these analyses; a run cut short shows again what the folder holds.
  void runEnded(bool complete, std::vector<ComparisonAnalysis> analyses);
  // The analyses of the results folder when it holds exactly the queue (else none: stale).
  const std::vector<ComparisonAnalysis>& analyses() const { return analyses_; }
  // The analysis of `row`'s comparison (null: none).
  const ComparisonAnalysis* analysisOf(int row) const;

  // Takes the session folder `folder` (created when missing) for this document: it is locked
  // while the document keeps it. Throws FolderInUse when another process holds it, InputError or
  // WriteError when it cannot be locked (the document keeps no session then).
  void lockSession(const std::filesystem::path& folder);
  // Whether the locked session folder holds a session.json to restore.
  bool hasSessionFile() const;
  // Replaces the queue by the session's. A session that cannot be restored is moved aside with
  // its results folder (under names no earlier one has) and the queue is emptied.
  SessionRestore restoreSession();
  // The session folder (none without a session).
  std::optional<std::filesystem::path> sessionFolder() const;
  // Writes the queue, its batch file and what is saved into session.json (nothing without a
  // session; a seed being typed waits until it is a number again).
  void persist();

 signals:
  // A line for the log (a file that could not be read, an undone edit).
  void message(const QString& text);
  // The seed was set by the document (a batch or session opened), not typed.
  void seedLoaded(const QString& text);
  // The undo stack changed.
  void undoChanged();

 private:
  void pushUndo(const QString& what);
  void clearUndo();
  // After an edit: the analyses are stale, the queue is not saved, the session keeps it.
  void edited();
  // Sets the seed from a file opened.
  void loadSeed(uint64_t seed);
  // Hands the games `folder` holds to the rows that play the same games (`onlyRow` >= 0: that
  // row only), at most each row's planned number.
  void loadGames(const std::filesystem::path& folder, int onlyRow = -1);
  void refreshAnalyses();

  QueueModel* model_;
  QString seedText_ = "42";
  QString batchFile_;
  std::optional<std::filesystem::path> session_;  // session.json, when the document keeps one
  std::optional<std::filesystem::path> work_;     // where the queue's games are kept
  std::unique_ptr<QTemporaryDir> temporary_;      // the work folder without a session
  std::unique_ptr<FolderLock> sessionLock_;       // held while the document keeps the session
  bool queueSaved_ = true;
  bool resultsSaved_ = true;  // the games are saved with Save all (or came from a folder)
  bool interrupted_ = false;
  std::vector<ComparisonAnalysis> analyses_;  // of the last run or the folder opened
  struct Undo {
    QString what;
    std::vector<QueueEntry> entries;
  };
  std::vector<Undo> undo_;
};

}  // namespace ddalab::gui
