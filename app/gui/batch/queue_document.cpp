#include "app/gui/batch/queue_document.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTemporaryDir>
#include <fstream>

#include "app/gui/batch/batch_files.h"
#include "experiments/folder_lock.h"
#include "core/json_input.h"
#include "experiments/output_folder.h"
#include "experiments/run_service.h"
#include "core/file_io.h"
#include "results/folder_analysis.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

namespace {

QString documentPathText(const fs::path& p) {
  return QString::fromStdString(p.string());
}

// The seed of a session's queue with no experiment (a batch file needs one; a session may be
// empty and keeps its seed); none when the queue has experiments. Throws InputError.
std::optional<uint64_t> emptyQueueSeed(const Json& queue, const std::string& where) {
  if (!queue.is_object() || !queue.contains("experiments") ||
      queue.at("experiments") != Json::array())
    return std::nullopt;
  return JsonFields(queue, where, {"format", "seed", "experiments"}).unsignedInteger("seed");
}

// A name beside `file` that no earlier file holds: <file>.damaged-<time>[-N]. A damaged session
// kept for the person is never replaced by the next one.
fs::path unusedDamagedName(const fs::path& file) {
  const std::string stem = file.string() + ".damaged-" +
                           QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss").toStdString();
  fs::path name = stem;
  for (int n = 2; fs::exists(fs::symlink_status(name)); ++n) name = stem + "-" + std::to_string(n);
  return name;
}

}  // namespace

QueueDocument::QueueDocument(QObject* parent) : QObject(parent), model_(new QueueModel(this)) {}

QueueDocument::~QueueDocument() = default;

void QueueDocument::setSeedText(const QString& text) {
  seedText_ = text;
  queueSaved_ = false;
  persist();
}

uint64_t QueueDocument::seed() const {
  bool ok = false;
  const qulonglong value = seedText_.trimmed().toULongLong(&ok);
  if (!ok)
    throw InputError("seed", "expected a whole number 0 .. 18446744073709551615, got '" +
                                 seedText_.toStdString() + "'");
  return value;
}

void QueueDocument::loadSeed(uint64_t seed) {
  seedText_ = QString::number(seed);
  emit seedLoaded(seedText_);
}

bool QueueDocument::unsavedGames() const {
  return !resultsSaved_ && model_->games() > 0;
}

bool QueueDocument::hasUnsavedWork() const {
  return model_->rowCount() > 0 && (!queueSaved_ || unsavedGames());
}

std::string QueueDocument::addedName(const Json& experiment) {
  return experiment.value("comparison", "") + "/" +
         experiment.at("environment").value("id", "e-random");
}

Json QueueDocument::followEnvironment(const Json& before, Json after) const {
  // A name Add made ("ludo/e-random", "ludo/e-random-2") follows a new environment, unless the
  // person named the row in the same edit.
  const std::string old = before.value("name", "");
  const std::string made = addedName(before);
  const bool added = old == made || old.rfind(made + "-", 0) == 0;
  if (added && after.value("name", "") == old && addedName(after) != made)
    after["name"] = model_->freeName(addedName(after));
  return after;
}

void QueueDocument::append(const Json& experiment) {
  try {
    pushUndo("add");
    model_->append(experiment);
  } catch (const InputError&) {
    undo_.pop_back();
    emit undoChanged();
    throw;
  }
  edited();
}

void QueueDocument::remove(int row) {
  pushUndo("remove " + QString::fromStdString(model_->entry(row).label.name));
  model_->remove(row);
  edited();
}

void QueueDocument::duplicate(int row) {
  pushUndo("duplicate");
  model_->duplicate(row);
  edited();
}

void QueueDocument::changeSettings(int row, const Json& changed) {
  const QueueEntry& entry = model_->entry(row);
  const size_t kept = model_->gamesKept(row, changed);
  const QString name = QString::fromStdString(entry.label.name);
  const Json renamed = followEnvironment(entry.experiment, changed);
  pushUndo("settings of " + name);
  model_->replace(row, renamed);
  if (kept > 0 && model_->entry(row).games() == 0 && work_)
    loadGames(*work_, row);  // fewer games than were finished: the first ones stay
  edited();
}

void QueueDocument::clear() {
  clearUndo();
  model_->clear();
  batchFile_.clear();
  queueSaved_ = resultsSaved_ = true;
  persist();
}

void QueueDocument::pushUndo(const QString& what) {
  constexpr size_t kMaxUndo = 20;
  undo_.push_back({what, model_->snapshot()});
  if (undo_.size() > kMaxUndo) undo_.erase(undo_.begin());
  emit undoChanged();
}

void QueueDocument::clearUndo() {
  undo_.clear();
  emit undoChanged();
}

void QueueDocument::undo() {
  if (undo_.empty()) return;
  model_->restore(std::move(undo_.back().entries));
  emit message("undid " + undo_.back().what);
  undo_.pop_back();
  emit undoChanged();
  edited();
}

void QueueDocument::edited() {
  analyses_.clear();  // they no longer describe the queue
  queueSaved_ = false;
  persist();
}

Batch QueueDocument::openBatch(const QString& file) {
  const Batch batch = loadBatch(file.toStdString());
  pushUndo("open " + QFileInfo(file).fileName());
  model_->load(batch);
  loadSeed(batch.seed);
  if (work_) loadGames(*work_);  // experiments already run keep their games
  refreshAnalyses();
  batchFile_ = isShippedExample(file) ? QString() : file;  // an untitled copy: Save asks where
  queueSaved_ = true;
  if (model_->games() == 0) resultsSaved_ = true;
  persist();
  return batch;
}

Batch QueueDocument::openResults(const fs::path& dir) {
  const Batch batch = loadBatch(dir / "batch.json");  // checked before anything is replaced
  const fs::path work = workFolder();
  exportResults(dir, work, FolderMode::Overwrite);  // the folder opened is never written
  clearUndo();
  model_->load(batch);
  loadSeed(batch.seed);
  loadGames(work);
  refreshAnalyses();
  batchFile_.clear();
  queueSaved_ = resultsSaved_ = true;       // both are in the folder opened
  interrupted_ = holdsUnfinishedRun(work);  // a run stopped or killed: Resume continues it
  persist();
  return batch;
}

void QueueDocument::saveBatch(const QString& file) {
  writeFileAtomically(file.toStdString(), toJson(batch()).dump(2) + "\n");
  batchFile_ = file;
  queueSaved_ = true;
  persist();
}

void QueueDocument::saveAll(const fs::path& dir, bool overwrite) {
  exportResults(*runFolder(), dir, overwrite ? FolderMode::Overwrite : FolderMode::Fresh);
  resultsSaved_ = true;
  persist();
}

std::optional<fs::path> QueueDocument::runFolder() const {
  if (work_ && fs::exists(*work_ / "batch.json")) return work_;
  return std::nullopt;
}

fs::path QueueDocument::workFolder() {
  if (!work_) {
    temporary_ = std::make_unique<QTemporaryDir>();
    if (!temporary_->isValid())
      throw InputError(temporary_->path().toStdString(), "cannot create a temporary folder");
    work_ = fs::path(temporary_->path().toStdString()) / "results";
  }
  return *work_;
}

bool QueueDocument::folderHoldsQueue() const {
  const std::optional<fs::path> folder = runFolder();
  if (!folder || model_->rowCount() == 0) return false;
  // The experiments and the seed: what the queue shows of a batch (a shard's or a sweep's
  // other fields are the folder's own).
  const Json held = toJson(loadBatch(*folder / "batch.json"));
  const Json shown = toJson(batch());
  return held.at("experiments") == shown.at("experiments") && held.at("seed") == shown.at("seed");
}

void QueueDocument::runStarted() {
  model_->clearResults();  // the run service hands back the games it keeps first
  analyses_.clear();
  clearUndo();  // the run folder now holds this queue: no going back past it
  resultsSaved_ = false;
  interrupted_ = true;  // until the run says it finished
  persist();
}

void QueueDocument::runEnded(bool complete, std::vector<ComparisonAnalysis> analyses) {
  interrupted_ = !complete;
  analyses_ = std::move(analyses);
  // A run that stopped early may not have handed back every game it kept (a stop before an
  // experiment's turn, a failure): the rows show what the folder holds.
  if (!complete && work_) {
    model_->clearResults();
    loadGames(*work_);
  }
}

const ComparisonAnalysis* QueueDocument::analysisOf(int row) const {
  if (row < 0) return nullptr;
  const std::string& comparison = model_->entry(row).label.comparison;
  for (const ComparisonAnalysis& a : analyses_)
    if (!comparison.empty() && a.comparison == comparison) return &a;
  return nullptr;
}

void QueueDocument::refreshAnalyses() {
  analyses_.clear();
  try {
    if (folderHoldsQueue()) analyses_ = analyzeResultsDir(*runFolder());
  } catch (const std::exception& e) {
    emit message("no analysis: " + QString::fromStdString(e.what()));
  }
}

void QueueDocument::lockSession(const fs::path& folder) {
  sessionLock_.reset();
  std::error_code error;
  fs::create_directories(folder, error);
  // Locked as a run locks its folder: two windows on one session would overwrite each other's
  // queue, and the second's Start would find the first's run folder taken.
  sessionLock_ = std::make_unique<FolderLock>(folder, ".ddalab-gui.lock");
  session_ = folder / "session.json";
  work_ = folder / "results";
  temporary_.reset();
}

bool QueueDocument::hasSessionFile() const {
  return session_ && fs::exists(*session_);
}

std::optional<fs::path> QueueDocument::sessionFolder() const {
  if (!session_) return std::nullopt;
  return session_->parent_path();
}

SessionRestore QueueDocument::restoreSession() {
  SessionRestore result;
  try {
    Json state;
    try {
      std::ifstream in(*session_);
      state = Json::parse(in);
    } catch (const Json::exception& e) {
      throw InputError(session_->string(), e.what());
    }
    if (!state.is_object() || state.value("format", "") != kSessionFormat)
      throw InputError(session_->string() + ": format",
                       std::string("expected \"") + kSessionFormat + "\"");
    const std::string queue = session_->string() + ": $.queue";
    if (const std::optional<uint64_t> seed = emptyQueueSeed(state.at("queue"), queue)) {
      model_->clear();
      loadSeed(*seed);
    } else {
      const Batch batch = parseBatch(state.at("queue"), session_->string() + ": queue");
      model_->load(batch);
      loadSeed(batch.seed);
    }
    batchFile_ = QString::fromStdString(state.value("batch_file", ""));
    if (isShippedExample(batchFile_)) batchFile_.clear();  // never saved over
    queueSaved_ = state.value("queue_saved", true);
    resultsSaved_ = state.value("results_saved", true);
    loadGames(*work_);
    interrupted_ = holdsUnfinishedRun(*work_);
    refreshAnalyses();
    result.restored = true;
  } catch (const std::exception& e) {
    // The damaged file is kept beside for the person to look at; the document starts empty.
    // So are the games of its results folder, which no queue shows now: Save all never saves
    // them as the empty queue's, and the next Start never replaces them.
    result.error = e.what();
    result.keptSession = unusedDamagedName(*session_);
    std::error_code error;
    fs::rename(*session_, result.keptSession, error);
    if (fs::exists(fs::symlink_status(*work_))) {
      const fs::path keptGames = unusedDamagedName(*work_);
      fs::rename(*work_, keptGames, error);
      if (!error) result.keptGames = keptGames;
    }
    model_->clear();
  }
  return result;
}

void QueueDocument::persist() {
  if (!session_) return;
  try {
    const Json state = {{"format", kSessionFormat},
                        {"queue", model_->document(seed())},
                        {"batch_file", batchFile_.toStdString()},
                        {"queue_saved", queueSaved_},
                        {"results_saved", resultsSaved_}};
    writeFileAtomically(*session_, state.dump(2) + "\n");
  } catch (const InputError&) {  // a seed being typed: kept once it is a number again
  } catch (const std::exception& e) {
    emit message("the session could not be saved: " + QString::fromStdString(e.what()));
  }
}

void QueueDocument::loadGames(const fs::path& folder, int onlyRow) {
  if (!fs::exists(folder / "batch.json")) return;
  try {
    const Batch held = loadBatch(folder / "batch.json");
    const std::vector<std::optional<size_t>> match = matchExperiments(held, batch());
    for (size_t row = 0; row < match.size(); ++row) {
      if (!match[row] || (onlyRow >= 0 && static_cast<int>(row) != onlyRow)) continue;
      // What a run would continue from: the checkpoint of an experiment cut off (killed,
      // stopped before its turn), else its games file; at most the row's planned games.
      const auto planned =
          static_cast<uint64_t>(model_->entry(static_cast<int>(row)).label.plannedIterations);
      std::vector<GameRecord> games;  // handed to the model in chunks: memory stays flat
      const auto flush = [&] {
        if (!games.empty()) model_->addGames(static_cast<int>(row), games);
        games.clear();
      };
      readKeptGames(folder, held.experiments[*match[row]], playIdentity(held, *match[row]),
                    [&](const GameRecord& game) {
                      if (game.iteration >= planned) return false;
                      games.push_back(game);
                      if (games.size() == 4096) flush();
                      return true;
                    });
      flush();
    }
  } catch (const std::exception& e) {
    emit message("the games of " + documentPathText(folder) +
                 " could not be read: " + QString::fromStdString(e.what()));
  }
}

}  // namespace ddalab::gui
