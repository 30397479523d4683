#include "app/gui/batch/batch_mode.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "app/gui/batch/analysis_views.h"
#include "app/gui/batch/batch_files.h"
#include "app/gui/batch/chart_views.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/ratings_view.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/batch/start_page.h"
#include "app/gui/batch/sweep_view.h"
#include "app/gui/status_label.h"
#include "experiments/folder_lock.h"
#include "experiments/run_service.h"
#include "games/registry.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

namespace {

constexpr const char* kEmptyQueueText = "Add experiments (choose a game, Add) or open a batch file";
QString duration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  return total >= 3600 ? QString("%1:%2:%3")
                             .arg(total / 3600)
                             .arg(total / 60 % 60, 2, 10, QChar('0'))
                             .arg(total % 60, 2, 10, QChar('0'))
                       : QString("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QChar('0'));
}

QString path(const fs::path& p) {
  return QString::fromStdString(p.string());
}

// Who holds a lock (FolderInUse::holder), with its Unix time shown as a person reads a time.
QString holderText(const std::string& holder) {
  QString text = QString::fromStdString(holder);
  const QRegularExpression since("since (\\d+) \\(Unix time\\)");
  const QRegularExpressionMatch match = since.match(text);
  if (match.hasMatch())
    text.replace(match.capturedStart(), match.capturedLength(),
                 "since " + QDateTime::fromSecsSinceEpoch(match.captured(1).toLongLong())
                                .toString("yyyy-MM-dd hh:mm:ss"));
  return text;
}

// Lets the window's shortcuts through the toolbar's number fields: a focused line edit claims
// the Ctrl+letters its platform binds to cursor moves (Ctrl+E, end of line, on X11), which left
// Settings… (Ctrl+E) dead while the games box had focus. Text editing's own keys (plain keys,
// undo, copy, paste, select all) stay with the field.
class ShortcutsPassFields : public QObject {
 public:
  ShortcutsPassFields(std::vector<QAction*> actions, QObject* parent)
      : QObject(parent), actions_(std::move(actions)) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::ShortcutOverride) return QObject::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    if (!(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) return false;
    for (const auto editing : {QKeySequence::Undo, QKeySequence::Redo, QKeySequence::Copy,
                               QKeySequence::Cut, QKeySequence::Paste, QKeySequence::SelectAll})
      if (key->matches(editing)) return false;
    const QKeySequence pressed(key->keyCombination());
    for (QAction* a : actions_)
      if (a->isEnabled() && a->shortcut() == pressed) return true;  // not overridden: it fires
    return false;
  }

 private:
  std::vector<QAction*> actions_;
};

}  // namespace

BatchMode::BatchMode(QWidget* parent)
    : QWidget(parent),
      document_(new QueueDocument(this)),
      model_(document_->model()),
      runner_(new RunController(this)),
      chartTimer_(new QTimer(this)) {
  buildActions();
  buildToolBar();
  buildPage();
  chartTimer_->setSingleShot(true);
  chartTimer_->setInterval(400);  // charts follow live results at most ~2.5 times a second
  connect(chartTimer_, &QTimer::timeout, this, &BatchMode::refreshSelection);
  connect(runner_, &RunController::progressed, this, &BatchMode::showProgress);
  connect(runner_, &RunController::gamesFinished, this,
          [this](int experiment, const std::vector<GameRecord>& games) {
            model_->addGames(experiment, games);
            if (!chartTimer_->isActive()) chartTimer_->start();
          });
  connect(runner_, &RunController::experimentDone, this, [this](int experiment) {
    // The run service reports a stopped experiment as done too: the log says which it was.
    const QueueEntry& entry = model_->entry(experiment);
    const QString name = QString::fromStdString(entry.label.name);
    const auto planned = static_cast<size_t>(entry.label.plannedIterations);
    log(entry.games() == planned
            ? "finished " + name
            : QString("stopped %1 at %2 / %3 games").arg(name).arg(entry.games()).arg(planned));
  });
  connect(runner_, &RunController::finished, this, &BatchMode::runEnded);
  connect(model_, &QAbstractItemModel::rowsInserted, this, &BatchMode::updateActions);
  connect(model_, &QAbstractItemModel::rowsRemoved, this, &BatchMode::updateActions);
  connect(model_, &QAbstractItemModel::modelReset, this, &BatchMode::updateActions);
  rebuildRecentMenu();  // the start page lists them too
  connect(document_, &QueueDocument::message, this, &BatchMode::log);
  connect(document_, &QueueDocument::undoChanged, this, &BatchMode::updateUndo);
  connect(document_, &QueueDocument::seedLoaded, seed_, &QLineEdit::setText);
  connect(seed_, &QLineEdit::textChanged, document_, &QueueDocument::syncSeedText);
  connect(seed_, &QLineEdit::textEdited, document_, &QueueDocument::setSeedText);
  updateActions();
}

BatchMode::~BatchMode() = default;

QString gamesText(size_t games) {
  return QString("%1 finished game%2").arg(games).arg(games == 1 ? "" : "s");
}

void BatchMode::buildActions() {
  const auto action = [this](const QString& text, QKeySequence key, const QString& tip, auto slot) {
    auto* a = new QAction(text, this);
    a->setShortcut(key);
    a->setToolTip(tip + (key.isEmpty() ? "" : " (" + key.toString() + ")"));
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  open_ = action(
      "Open batch…", QKeySequence::Open, "Load a batch or experiment file into the queue", [this] {
        QSettings s;
        const QString file =
            QFileDialog::getOpenFileName(this, "Open batch", s.value("folders/batch").toString(),
                                         "Batch files (*.json);;All files (*)");
        if (!file.isEmpty()) openBatch(file);
      });
  save_ = action("Save batch", QKeySequence::Save, "Save the queue as a batch file",
                 [this] { saveQueue(); });
  saveAs_ =
      action("Save batch as…", QKeySequence::SaveAs, "Save the queue as a new batch file", [this] {
        if (const QString file = askBatchFile(); !file.isEmpty()) saveBatch(file);
      });
  openResults_ = action("Open results…", QKeySequence("Ctrl+Shift+O"),
                        "Show a results folder written by ddalab run", [this] {
                          QSettings s;
                          const QString dir = QFileDialog::getExistingDirectory(
                              this, "Open results folder", s.value("folders/results").toString());
                          if (!dir.isEmpty()) openResults(dir);
                        });
  add_ = action("Add", QKeySequence("Ctrl+N"), "Add an experiment of the chosen game",
                [this] { selectRow(addExperiment(game_->currentText(), iterations_->value())); });
  remove_ = action("Remove", QKeySequence::Delete, "Remove the selected experiment", [this] {
    const int row = selectedRow();
    if (row < 0) return;
    const QString name = QString::fromStdString(model_->entry(row).label.name);
    if (!confirmDiscard("Removing " + name, model_->entry(row).games())) return;
    document_->remove(row);
    queueEdited();
  });
  duplicate_ = action("Duplicate", QKeySequence("Ctrl+D"), "Copy the selected experiment", [this] {
    if (const int row = selectedRow(); row >= 0) {
      document_->duplicate(row);
      queueEdited();
      selectRow(row + 1);
    }
  });
  newQueue_ = action("New queue", QKeySequence("Ctrl+Shift+N"), "Start an empty queue",
                     [this] { newQueue(); });
  undoAction_ =
      action("Undo", QKeySequence::Undo, "Go back to the queue and its games before the last edit",
             [this] { undo(); });
  settings_ = action("Settings…", QKeySequence("Ctrl+E"), "Edit the selected experiment",
                     [this] { editSettings(selectedRow()); });
  saveOne_ =
      action("Save…", QKeySequence("Ctrl+Shift+E"), "Save the CSVs of the selected experiment",
             [this] { saveExperiment(selectedRow()); });
  showHistogram_ =
      action("Histogram", QKeySequence("Ctrl+H"), "Show the histograms of the selected experiment",
             [this] { tabs_->setCurrentWidget(histogram_); });
  start_ = action("Start", QKeySequence("F5"),
                  "Run the experiments that are not complete (finished games are kept)",
                  [this] { start(); });
  stop_ = action("Stop", QKeySequence("Esc"),
                 "Stop: running games finish (a second at most), finished games are kept",
                 [this] { stop(); });
  resume_ =
      action("Resume", QKeySequence("Shift+F5"), "Continue the stopped run", [this] { resume(); });
  saveAll_ = action("Save all…", QKeySequence("Ctrl+Alt+S"),
                    "Save every result as ddalab run --out writes it", [this] { saveAllAsked(); });
}

void BatchMode::refreshGames() {
  const QString chosen = game_->currentText();
  game_->clear();
  for (const auto& info : gameRegistry()) {
    game_->addItem(QString::fromStdString(info.id));
    game_->setItemData(game_->count() - 1, QString::fromStdString(info.description),
                       Qt::ToolTipRole);
  }
  if (const int index = game_->findText(chosen); index >= 0) game_->setCurrentIndex(index);
  model_->catalogChanged();
}

void BatchMode::buildToolBar() {
  auto* bar = new QToolBar("Batch", this);
  toolBar_ = bar;
  bar->setObjectName("batchToolBar");
  bar->setMovable(false);
  bar->addAction(open_);
  bar->addAction(save_);
  bar->addAction(openResults_);
  bar->addSeparator();
  game_ = new QComboBox(this);
  refreshGames();
  game_->setToolTip("The game of the experiment Add creates");
  iterations_ = new QSpinBox(this);
  iterations_->setRange(1, 100'000'000);
  iterations_->setValue(1000);
  iterations_->setToolTip("Games of the experiment Add creates");
  iterations_->setSuffix(" games");
  bar->addWidget(game_);
  bar->addWidget(iterations_);
  bar->addAction(add_);
  bar->addSeparator();
  bar->addAction(start_);
  bar->addAction(stop_);
  bar->addAction(resume_);
  bar->addAction(saveAll_);
  // Threads and the seed sit in the row above the queue, where a 20-digit seed fits at
  // 1024 pixels (the toolbar is full).
  threads_ = new QSpinBox(this);
  threads_->setRange(0, 1024);
  threads_->setSpecialValueText("all cores");
  threads_->setToolTip("Worker threads (results do not depend on it)");
  seed_ = new QLineEdit("42", this);
  seed_->setMinimumWidth(seed_->fontMetrics().horizontalAdvance("18446744073709551615") + 12);
  seed_->setMaximumWidth(seed_->minimumWidth() + 20);
  seed_->setToolTip("The batch's master seed (0 .. 2^64 - 1): the same seed gives the same games");
  std::vector<QAction*> actions;
  for (QAction* a : {open_, save_, saveAs_, openResults_, add_, duplicate_, settings_, saveOne_,
                     showHistogram_, start_, resume_, saveAll_, newQueue_})
    actions.push_back(a);
  auto* pass = new ShortcutsPassFields(std::move(actions), this);
  for (QWidget* field : {static_cast<QWidget*>(iterations_), static_cast<QWidget*>(threads_),
                         static_cast<QWidget*>(seed_)}) {
    field->installEventFilter(pass);
    for (QWidget* inner : field->findChildren<QWidget*>()) inner->installEventFilter(pass);
  }
}

void BatchMode::buildPage() {
  QWidget* queuePane = buildQueuePane();
  buildTabs();
  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->setObjectName("mainSplitter");
  splitter_->addWidget(queuePane);
  splitter_->addWidget(tabs_);
  // The tabs hold charts and tables: they get most of the height, and of any height added
  // (at 1024 x 700 the queue once took as much as the Compare chart, its bars 45 pixels tall).
  splitter_->setStretchFactor(0, 1);
  splitter_->setStretchFactor(1, 3);
  splitter_->setSizes({200, 600});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter_);

  progress_ = new QProgressBar(this);
  progress_->setMinimumWidth(220);
  progress_->setMaximumWidth(260);
  progress_->setFormat("%p%");
  status_ = new StatusLabel(kEmptyQueueText, this);
}

void BatchMode::buildQueueTable() {
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->setVisible(false);
  table_->setWordWrap(false);  // "ludo/e-random-2" on one line
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(false);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &BatchMode::selectionChanged);
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { editSettings(index.row()); });
}

QHBoxLayout* BatchMode::buildRowControls() {
  statistic_ = new QComboBox(this);
  statistic_->addItems({"Mean", "Standard deviation", "Minimum", "Maximum", "Mean ± 95 % CI"});
  statistic_->setToolTip("What the metric columns show, over the finished games of each row");
  connect(statistic_, &QComboBox::currentIndexChanged, this,
          [this](int i) { model_->setStatistic(static_cast<Statistic>(i)); });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(new QLabel("Show", this));
  buttons->addWidget(statistic_);
  buttons->addSpacing(12);
  buttons->addWidget(new QLabel("Threads", this));
  buttons->addWidget(threads_);
  buttons->addWidget(new QLabel("Seed", this));
  buttons->addWidget(seed_);
  buttons->addStretch();
  for (QAction* a : {remove_, duplicate_, settings_, saveOne_, showHistogram_}) {
    auto* button = new QPushButton(a->text(), this);
    button->setToolTip(a->toolTip());
    connect(button, &QPushButton::clicked, a, &QAction::trigger);
    connect(a, &QAction::changed, button, [a, button] { button->setEnabled(a->isEnabled()); });
    buttons->addWidget(button);
  }
  return buttons;
}

QWidget* BatchMode::buildQueuePane() {
  buildQueueTable();
  QHBoxLayout* buttons = buildRowControls();
  auto* queuePane = new QWidget(this);
  auto* queueLayout = new QVBoxLayout(queuePane);
  queueLayout->setContentsMargins(4, 4, 4, 0);
  queueLayout->addLayout(buttons);
  startPage_ = new StartPage(this);
  connect(startPage_, &StartPage::openRequested, this,
          [this](const QString& file) { openBatch(file); });
  connect(startPage_, &StartPage::playRequested, this, &BatchMode::playRequested);
  queueStack_ = new QStackedWidget(this);
  queueStack_->addWidget(startPage_);
  queueStack_->addWidget(table_);
  // The queue may shrink to a few rows: the start page (hidden then) must not hold it at its
  // own height.
  queueStack_->setMinimumHeight(90);
  queueLayout->addWidget(queueStack_);
  return queuePane;
}

void BatchMode::buildTabs() {
  players_ = new QTableWidget(this);
  players_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  players_->verticalHeader()->setVisible(false);
  histogram_ = new HistogramView(model_, this);
  compare_ = new CompareView(model_, this);
  scoresView_ = new ScoresView(model_, this);
  sweep_ = new SweepView(model_, this);
  ratings_ = new RatingsView(this);
  tests_ = new TestsView(this);
  detectability_ = new DetectabilityView(this);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(players_, "Players");
  tabs_->addTab(histogram_, "Histogram");
  tabs_->addTab(compare_, "Compare");
  tabs_->addTab(scoresView_, "Scores");
  tabs_->addTab(sweep_, "Sweep");
  tabs_->addTab(ratings_, "Ratings");
  tabs_->setTabVisible(tabs_->indexOf(ratings_), false);  // until a folder has rating tables
  tabs_->addTab(tests_, "Tests");
  tabs_->addTab(detectability_, "Detectability");
  tabs_->addTab(log_, "Log");
  connect(tabs_, &QTabWidget::currentChanged, this, &BatchMode::refreshSelection);
}

std::vector<QAction*> BatchMode::fileActions() const {
  return {open_, newQueue_, save_, saveAs_, nullptr, openResults_, saveAll_};
}

std::vector<QAction*> BatchMode::batchActions() const {
  return {undoAction_, nullptr,        add_,    remove_, duplicate_, settings_,
          saveOne_,    showHistogram_, nullptr, start_,  stop_,      resume_};
}

void BatchMode::setTitle(const QString& title) {
  title_ = title;
  emit titleChanged(title);
}

void BatchMode::restoreSettings() {
  QSettings s;
  splitter_->restoreState(s.value("window/splitter").toByteArray());
  threads_->setValue(s.value("run/threads", 0).toInt());
}

void BatchMode::saveSettings() const {
  QSettings s;
  s.setValue("window/splitter", splitter_->saveState());
  s.setValue("run/threads", threads_->value());
}

bool BatchMode::confirmClose() {
  if (runner_->running())
    return QMessageBox::question(this, "Quit",
                                 "A batch is running. Stop it and quit? (Finished games are "
                                 "kept; Start continues the run.)") == QMessageBox::Yes;
  if (!hasUnsavedWork()) return true;
  return askToSave("Quit",
                   document_->sessionFolder()
                       ? "The session keeps them: they are here again at the next start."
                       : "Quitting discards them.",
                   "Quit", !document_->sessionFolder());
}

QString BatchMode::unsavedText() const {
  QStringList lines;
  const QString& batchFile = document_->batchFile();
  if (!document_->queueSaved())
    lines << (batchFile.isEmpty()
                  ? QString("The queue (%1 experiments) is not saved as a batch file.")
                        .arg(model_->rowCount())
                  : "The queue has changes not saved to " + QFileInfo(batchFile).fileName() + ".");
  if (document_->unsavedGames())
    lines << "Its " + gamesText(model_->games()) + " are not saved with Save all.";
  return lines.join("\n");
}

bool BatchMode::confirmReplace(const QString& title) {
  return !hasUnsavedWork() ||
         askToSave(title, "Replace the queue and discard them?", "Discard", true);
}

bool BatchMode::askToSave(const QString& title, const QString& question, const QString& goOn,
                          bool discards) {
  while (hasUnsavedWork()) {
    QMessageBox box(QMessageBox::Question, title, unsavedText() + "\n\n" + question,
                    QMessageBox::Cancel, this);
    // The games first: they cost a run, the queue is a file's worth of settings.
    QAbstractButton* saveGames = nullptr;
    QAbstractButton* saveSettings = nullptr;
    if (document_->unsavedGames()) {
      saveGames = box.addButton(QMessageBox::Save);
      saveGames->setText("Save all…");
    }
    if (!document_->queueSaved()) {
      saveSettings = saveGames ? box.addButton("Save batch…", QMessageBox::ActionRole)
                               : box.addButton(QMessageBox::Save);
      saveSettings->setText("Save batch…");
    }
    // Going on is a "discard" only when something is lost (the session keeps a quit queue).
    QAbstractButton* go = discards
                              ? static_cast<QAbstractButton*>(box.addButton(QMessageBox::Discard))
                              : box.addButton(goOn, QMessageBox::AcceptRole);
    go->setText(goOn);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    const QAbstractButton* clicked = box.clickedButton();
    if (clicked == go) return true;
    const bool saved = clicked == saveGames      ? saveAllAsked()
                       : clicked == saveSettings ? saveQueue()
                                                 : false;
    if (!saved) return false;  // cancelled, or a save cancelled or failed: nothing is lost
  }
  return true;
}

bool BatchMode::confirmDiscard(const QString& what, size_t games) {
  if (games == 0) return true;
  return QMessageBox::question(
             this, "Discard finished games",
             what + " discards " + gamesText(games) + ". Undo (Ctrl+Z) brings them back.\n\nGo on?",
             QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Yes;
}

void BatchMode::updateUndo() {
  undoAction_->setEnabled(document_->canUndo() && !runner_->running());
  undoAction_->setText(document_->canUndo() ? "Undo " + document_->undoText() : "Undo");
}

void BatchMode::undo() {
  if (!document_->canUndo() || runner_->running()) return;
  document_->undo();
  const int row = selectedRow();
  queueEdited();
  selectRow(std::clamp(row, 0, model_->rowCount() - 1));
}

void BatchMode::queueEdited() {
  showQueueState();
  refreshSelection();
  updateActions();
}

void BatchMode::showProgressOfQueue() {
  const size_t planned = model_->plannedGames();
  progress_->setValue(planned ? static_cast<int>(100 * model_->games() / planned) : 0);
}

void BatchMode::showQueueState() {
  if (runner_->running()) return;
  showProgressOfQueue();
  const int rows = model_->rowCount();
  if (rows == 0)
    status_->setText(kEmptyQueueText);
  else if (model_->complete())
    status_->setText(QString("%1 experiment%2, every one of their %3 games finished")
                         .arg(rows)
                         .arg(rows == 1 ? "" : "s")
                         .arg(model_->plannedGames()));
  else
    status_->setText(QString("%1 experiment%2, %3 of %4 games finished: Start (F5) runs the rest")
                         .arg(rows)
                         .arg(rows == 1 ? "" : "s")
                         .arg(model_->games())
                         .arg(model_->plannedGames()));
}

void BatchMode::newQueue() {
  if (runner_->running() || !confirmReplace("New queue")) return;
  document_->clear();
  showRatings(std::nullopt);
  setTitle("ddalab — batch experiments");
  showQueueState();
  refreshSelection();
}

bool BatchMode::openSession(const QString& dir) {
  try {
    document_->lockSession(dir.toStdString());
  } catch (const std::exception& e) {
    const auto* inUse = dynamic_cast<const FolderInUse*>(&e);
    const QString holder = inUse ? holderText(inUse->holder()) : QString();
    const QString why =
        inUse ? "The session folder " + dir + " is in use by another ddalab-gui window (" + holder +
                    ")."
              : "The session folder cannot be used: " + QString::fromStdString(e.what());
    status_->setText(inUse ? "the session is in use by " + holder +
                                 ": this window keeps nothing across restarts"
                           : "no session: " + QString::fromStdString(e.what()));
    log(why);
    QMessageBox::warning(this, "Session in use",
                         why +
                             "\n\nThis window neither shows nor changes that session: it works "
                             "without one, its queue and games kept only until it is closed "
                             "(Save batch and Save all keep them). Close the other window and "
                             "start ddalab-gui again to work on the session.");
    return false;
  }
  if (document_->hasSessionFile()) restoreSession();
  document_->persist();
  return true;
}

void BatchMode::restoreSession() {
  const SessionRestore restore = document_->restoreSession();
  const QString& batchFile = document_->batchFile();
  if (!batchFile.isEmpty()) setTitle("ddalab — " + QFileInfo(batchFile).fileName());
  if (restore.restored) {
    showProgressOfQueue();
    status_->setText(QString("the last session: %1 experiments, %2%3")
                         .arg(model_->rowCount())
                         .arg(gamesText(model_->games()))
                         .arg(document_->interrupted()
                                  ? " — its run was cut off: Start (F5) continues it"
                                  : ""));
    log("restored the session " + path(*document_->sessionFolder()));
    selectRow(0);
  } else {
    const QString games =
        restore.keptGames
            ? "; its results folder as " + path(*restore.keptGames) + ", Open results… shows it"
            : QString();
    status_->setText("the last session could not be restored (kept as " +
                     path(restore.keptSession) + games + ")");
    log(QString::fromStdString(restore.error));
  }
  updateActions();
}

void BatchMode::setThreads(int threads) {
  threads_->setValue(threads);
}

int BatchMode::selectedRow() const {
  const QModelIndex current = table_->selectionModel()->currentIndex();
  if (current.isValid() && table_->selectionModel()->isRowSelected(current.row(), {}))
    return current.row();
  const std::vector<int> rows = selectedRows();
  return rows.empty() ? -1 : rows.front();
}

std::vector<int> BatchMode::selectedRows() const {
  std::vector<int> rows;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows())
    rows.push_back(index.row());
  std::sort(rows.begin(), rows.end());
  const int current = table_->selectionModel()->currentIndex().row();
  const auto found = std::find(rows.begin(), rows.end(), current);
  if (found != rows.end()) std::rotate(rows.begin(), found, found + 1);  // current first
  return rows;
}

void BatchMode::selectRow(int row) {
  selectRows({row});
}

void BatchMode::selectRows(const std::vector<int>& rows) {
  QItemSelection selection;
  for (int row : rows)
    if (row >= 0 && row < model_->rowCount())
      selection.select(model_->index(row, 0), model_->index(row, model_->columnCount() - 1));
  if (selection.isEmpty()) return;
  table_->selectionModel()->setCurrentIndex(model_->index(rows.front(), 0),
                                            QItemSelectionModel::NoUpdate);
  table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void BatchMode::updateActions() {
  queueStack_->setCurrentWidget(model_->rowCount() > 0 ? static_cast<QWidget*>(table_)
                                                       : startPage_);
  tabs_->setVisible(model_->rowCount() > 0);  // an empty queue: the start page fills the page
  const bool running = runner_->running();
  const bool selected = selectedRow() >= 0;
  for (QAction* a : {add_, open_, openResults_, newQueue_}) a->setEnabled(!running);
  for (QAction* a : {remove_, duplicate_, settings_}) a->setEnabled(!running && selected);
  saveOne_->setEnabled(!running && selected && runFolder() &&
                       model_->entry(selectedRow()).games() > 0);
  showHistogram_->setEnabled(selected);
  start_->setEnabled(!running && model_->rowCount() > 0);
  stop_->setEnabled(running);
  resume_->setEnabled(!running && document_->interrupted() && model_->rowCount() > 0);
  saveAll_->setEnabled(!running && runFolder().has_value() && model_->rowCount() > 0);
  game_->setEnabled(!running);
  iterations_->setEnabled(!running);
  threads_->setEnabled(!running);
  seed_->setEnabled(!running);
  updateUndo();
}

void BatchMode::selectionChanged() {
  updateActions();
  refreshSelection();
}

void BatchMode::refreshSelection() {
  const int row = selectedRow();
  refreshPlayers(row);
  if (tabs_->currentWidget() == histogram_) histogram_->showRows(selectedRows());
  const ComparisonAnalysis* analysis = document_->analysisOf(row);
  const std::string name = row >= 0 ? model_->entry(row).label.name : "";
  const std::string comparison = row >= 0 ? model_->entry(row).label.comparison : "";
  if (tabs_->currentWidget() == compare_) compare_->showRow(row, analysis);
  if (tabs_->currentWidget() == scoresView_) scoresView_->refresh(document_->analyses(), analysis);
  if (tabs_->currentWidget() == sweep_) sweep_->refresh(document_->analyses());
  if (tabs_->currentWidget() == tests_) tests_->show(analysis, comparison, name);
  if (tabs_->currentWidget() == detectability_) detectability_->show(analysis, comparison, name);
}

void BatchMode::refreshPlayers(int row) {
  players_->clear();
  const QStringList headers = {"Seat",      "Player",    "Level", "Win rate",   "Moves mean",
                               "Moves min", "Moves max", "Turns", "Lead rounds"};
  players_->setColumnCount(headers.size());
  players_->setHorizontalHeaderLabels(headers);
  players_->setRowCount(0);
  if (row < 0) return;
  const QueueEntry& entry = model_->entry(row);
  const auto summary = model_->summary(row);
  players_->setRowCount(static_cast<int>(entry.label.players.size()));
  for (size_t seat = 0; seat < entry.label.players.size(); ++seat) {
    const SeatLabel& label = entry.label.players[seat];
    QStringList cells = {QString::number(seat), QString::fromStdString(label.id),
                         QString::number(label.level)};
    if (summary && seat < summary->players.size()) {
      const PlayerSummary& p = summary->players[seat];
      cells << QString::number(p.winRate, 'f', 3) << QString::number(p.movesMean, 'f', 1)
            << QString::number(p.movesMin) << QString::number(p.movesMax)
            << QString::number(p.turnsMean, 'f', 1) << QString::number(p.leadRoundsMean, 'f', 1);
    }
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setTextAlignment(c <= 1 ? Qt::AlignLeft | Qt::AlignVCenter
                                    : Qt::AlignRight | Qt::AlignVCenter);
      players_->setItem(static_cast<int>(seat), c, item);
    }
  }
  players_->resizeColumnsToContents();
  players_->horizontalHeader()->setStretchLastSection(false);
}

int BatchMode::addExperiment(const QString& game, int iterations) {
  const std::string id = game.toStdString();
  ExperimentDialog defaults;  // the dialog knows each game's default seats
  defaults.setExperiment({{"name", id}, {"game", {{"id", id}}}, {"iterations", iterations}});
  Json experiment = defaults.experiment();
  // The game's default comparison, so that rows added one after another compare at once.
  experiment["comparison"] = id;
  experiment["name"] = model_->freeName(QueueDocument::addedName(experiment));
  try {
    document_->append(experiment);
  } catch (const InputError& e) {
    QMessageBox::warning(this, "Add", QString::fromStdString(e.what()));
    return -1;
  }
  queueEdited();
  return model_->rowCount() - 1;
}

void BatchMode::editSettings(int row) {
  if (row < 0 || runner_->running()) return;
  ExperimentDialog dialog(this);
  dialog.setExperiment(model_->entry(row).experiment);
  while (dialog.exec() == QDialog::Accepted) {
    try {
      const Json changed = QueueModel::canonical(dialog.experiment());
      const QueueEntry& entry = model_->entry(row);
      if (changed == entry.experiment) return;  // nothing changed: every game stays
      const size_t games = entry.games(), kept = model_->gamesKept(row, changed);
      const QString name = QString::fromStdString(entry.label.name);
      if (!confirmDiscard("The change of " + name, games - kept)) continue;  // back to the dialog
      document_->changeSettings(row, changed);
      queueEdited();
      return;
    } catch (const InputError& e) {
      QMessageBox::warning(this, "Settings", QString::fromStdString(e.what()));
    }
  }
}

void BatchMode::start() {
  if (runner_->running() || model_->rowCount() == 0) return;
  bool holdsQueue = false;
  try {
    holdsQueue = document_->folderHoldsQueue();
  } catch (const std::exception&) {  // a seed being typed: startRun says so
  }
  // Every row complete but the results folder not holding the queue as it is (a row removed,
  // fewer games): Update brings it up to date without running a game again.
  if (!model_->complete() || !holdsQueue) return startRun(FolderMode::Update);
  const QString question =
      QString(
          "Every experiment of the queue is complete (%1). Run them all again from the "
          "start? Their games are discarded (the same seed plays the same games again).")
          .arg(gamesText(model_->games()));
  if (QMessageBox::question(this, "Start", question, QMessageBox::Yes | QMessageBox::Cancel,
                            QMessageBox::Cancel) == QMessageBox::Yes)
    startRun(FolderMode::Overwrite);
}

void BatchMode::resume() {
  if (!runner_->running() && model_->rowCount() > 0) startRun(FolderMode::Update);
}

void BatchMode::startRun(FolderMode mode) {
  RunRequest request;
  try {
    request.batch = document_->batch();
    request.out = document_->workFolder();
  } catch (const InputError& e) {
    QMessageBox::warning(this, "Start", QString::fromStdString(e.what()));
    return;
  }
  request.mode = mode;
  request.threads = threads_->value();
  document_->runStarted();
  log(QString("%1 into %2")
          .arg(mode == FolderMode::Overwrite ? "running everything again" : "running",
               path(request.out)));
  runner_->start(std::move(request));
  progress_->setValue(0);
  updateActions();
}

void BatchMode::stop() {
  if (!runner_->running()) return;
  runner_->stop();
  status_->setText("stopping: running games finish, finished games are kept…");
  log("stop requested");
}

QString progressText(const Progress& p) {
  const QString games = QString("%1 / %2 games · elapsed %3")
                            .arg(p.gamesDone)
                            .arg(p.gamesTotal)
                            .arg(duration(p.elapsedSeconds));
  // Every game is played: what remains is the run's analysis (tests, intervals), which can take
  // a while for a large batch and has no time left to show.
  if (p.gamesTotal > 0 && p.gamesDone >= p.gamesTotal) return games + " · analysing the results…";
  return games + QString(" · left %1 · running %2")
                     .arg(duration(p.etaSeconds))
                     .arg(QString::fromStdString(p.experimentName));
}

void BatchMode::showProgress(const Progress& p) {
  progress_->setValue(p.gamesTotal ? static_cast<int>(100 * p.gamesDone / p.gamesTotal) : 0);
  status_->setText(progressText(p));
}

void BatchMode::runEnded(bool complete, const QString& error) {
  document_->runEnded(complete, runner_->analyses());
  const QString kept = QString("%1 of %2 games finished and kept, %3 played by this run")
                           .arg(model_->games())
                           .arg(model_->plannedGames())
                           .arg(runner_->gamesPlayed());
  if (!error.isEmpty()) {
    log("error: " + error + " (" + kept + ")");
    status_->setText("the run failed: " + error);
    QMessageBox::warning(this, "Run", error);
  } else {
    status_->setText(complete ? "finished: every game of the batch is done"
                              : "stopped: " + kept + "; Start or Resume continues");
    log((complete ? "run complete: " : "run stopped: ") + kept);
  }
  showProgressOfQueue();
  showRatings(runFolder());  // a tournament's tables are written after each run
  document_->persist();
  refreshSelection();
  updateActions();
  emit runFinished(complete);
}

void BatchMode::log(const QString& message) {
  log_->appendPlainText(QTime::currentTime().toString("hh:mm:ss  ") + message);
}

}  // namespace ddalab::gui
