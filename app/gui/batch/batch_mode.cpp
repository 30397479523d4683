#include "app/gui/batch/batch_mode.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTime>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/charts/chart_views.h"
#include "experiments/run_service.h"
#include "games/registry.h"
#include "results/csv.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxRecent = 8;
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

}  // namespace

BatchMode::BatchMode(QWidget* parent)
    : QWidget(parent),
      model_(new QueueModel(this)),
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
    log(QString("finished %1").arg(QString::fromStdString(model_->entry(experiment).label.name)));
  });
  connect(runner_, &RunController::finished, this, &BatchMode::runEnded);
  connect(model_, &QAbstractItemModel::rowsInserted, this, [this] {
    queueChangedSinceRun_ = true;
    updateActions();
  });
  connect(model_, &QAbstractItemModel::rowsRemoved, this, [this] {
    queueChangedSinceRun_ = true;
    updateActions();
  });
  connect(model_, &QAbstractItemModel::modelReset, this, &BatchMode::updateActions);
  updateActions();
}

BatchMode::~BatchMode() = default;

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
  save_ = action("Save batch", QKeySequence::Save, "Save the queue as a batch file", [this] {
    if (batchFile_.isEmpty())
      saveAs_->trigger();
    else
      saveBatch(batchFile_);
  });
  saveAs_ =
      action("Save batch as…", QKeySequence::SaveAs, "Save the queue as a new batch file", [this] {
        QSettings s;
        const QString file = QFileDialog::getSaveFileName(
            this, "Save batch", s.value("folders/batch").toString() + "/batch.json",
            "Batch files (*.json)");
        if (!file.isEmpty()) saveBatch(file);
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
    if (const int row = selectedRow(); row >= 0) model_->remove(row);
  });
  duplicate_ = action("Duplicate", QKeySequence("Ctrl+D"), "Copy the selected experiment", [this] {
    if (const int row = selectedRow(); row >= 0) {
      model_->duplicate(row);
      selectRow(row + 1);
    }
  });
  settings_ = action("Settings…", QKeySequence("Ctrl+E"), "Edit the selected experiment",
                     [this] { editSettings(selectedRow()); });
  saveOne_ =
      action("Save…", QKeySequence("Ctrl+Shift+S"), "Save the CSVs of the selected experiment",
             [this] { saveExperiment(selectedRow()); });
  showHistogram_ =
      action("Histogram", QKeySequence("Ctrl+H"), "Show the histograms of the selected experiment",
             [this] { tabs_->setCurrentWidget(histogram_); });
  start_ = action("Start", QKeySequence("F5"), "Run the queue from the start", [this] { start(); });
  stop_ = action("Stop", QKeySequence("Esc"),
                 "Stop: running games finish (a second at most), finished games are kept",
                 [this] { stop(); });
  resume_ =
      action("Resume", QKeySequence("Shift+F5"), "Continue the stopped run", [this] { resume(); });
  saveAll_ = action(
      "Save all…", QKeySequence("Ctrl+Alt+S"), "Save every result as ddalab run --out writes it",
      [this] {
        QSettings s;
        const QString dir = QFileDialog::getExistingDirectory(
            this, "Save all results into", s.value("folders/results").toString());
        if (dir.isEmpty()) return;
        if (!saveAll(dir, false) &&
            QMessageBox::question(this, "Save all", "Replace the results that folder holds?") ==
                QMessageBox::Yes)
          saveAll(dir, true);
      });
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
  for (const auto& info : gameRegistry()) {
    game_->addItem(QString::fromStdString(info.id));
    game_->setItemData(game_->count() - 1, QString::fromStdString(info.description),
                       Qt::ToolTipRole);
  }
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
  bar->addSeparator();
  bar->addWidget(new QLabel(" Threads ", this));
  threads_ = new QSpinBox(this);
  threads_->setRange(0, 1024);
  threads_->setSpecialValueText("all cores");
  threads_->setToolTip("Worker threads (results do not depend on it)");
  bar->addWidget(threads_);
  bar->addWidget(new QLabel(" Seed ", this));
  seed_ = new QLineEdit("42", this);
  seed_->setMaximumWidth(170);
  seed_->setToolTip("The batch's master seed (0 .. 2^64 - 1): the same seed gives the same games");
  bar->addWidget(seed_);
}

void BatchMode::buildPage() {
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(false);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &BatchMode::selectionChanged);
  connect(table_, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { editSettings(index.row()); });

  statistic_ = new QComboBox(this);
  statistic_->addItems({"Mean", "Standard deviation", "Minimum", "Maximum", "Mean ± 95 % CI"});
  statistic_->setToolTip("What the metric columns show, over the finished games of each row");
  connect(statistic_, &QComboBox::currentIndexChanged, this,
          [this](int i) { model_->setStatistic(static_cast<Statistic>(i)); });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(new QLabel("Show", this));
  buttons->addWidget(statistic_);
  buttons->addStretch();
  for (QAction* a : {remove_, duplicate_, settings_, saveOne_, showHistogram_}) {
    auto* button = new QPushButton(a->text(), this);
    button->setToolTip(a->toolTip());
    connect(button, &QPushButton::clicked, a, &QAction::trigger);
    connect(a, &QAction::changed, button, [a, button] { button->setEnabled(a->isEnabled()); });
    buttons->addWidget(button);
  }
  auto* queuePane = new QWidget(this);
  auto* queueLayout = new QVBoxLayout(queuePane);
  queueLayout->setContentsMargins(4, 4, 4, 0);
  queueLayout->addLayout(buttons);
  queueLayout->addWidget(table_);

  players_ = new QTableWidget(this);
  players_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  players_->verticalHeader()->setVisible(false);
  histogram_ = new HistogramView(model_, this);
  compare_ = new CompareView(model_, this);
  scoresView_ = new ScoresView(model_, this);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(players_, "Players");
  tabs_->addTab(histogram_, "Histogram");
  tabs_->addTab(compare_, "Compare");
  tabs_->addTab(scoresView_, "Scores");
  tabs_->addTab(log_, "Log");
  connect(tabs_, &QTabWidget::currentChanged, this, &BatchMode::refreshSelection);

  splitter_ = new QSplitter(Qt::Vertical, this);
  splitter_->setObjectName("mainSplitter");
  splitter_->addWidget(queuePane);
  splitter_->addWidget(tabs_);
  splitter_->setStretchFactor(0, 1);
  splitter_->setStretchFactor(1, 1);
  splitter_->setSizes({420, 480});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter_);

  progress_ = new QProgressBar(this);
  progress_->setMinimumWidth(220);
  progress_->setMaximumWidth(260);
  progress_->setFormat("%p%");
  status_ = new QLabel("Add experiments (choose a game, Add) or open a batch file", this);
}

std::vector<QAction*> BatchMode::fileActions() const {
  return {open_, save_, saveAs_, nullptr, openResults_, saveAll_};
}

std::vector<QAction*> BatchMode::batchActions() const {
  return {add_,           remove_, duplicate_, settings_, saveOne_,
          showHistogram_, nullptr, start_,     stop_,     resume_};
}

void BatchMode::setRecentMenu(QMenu* menu) {
  recentMenu_ = menu;
  rebuildRecentMenu();
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
  return !runner_->running() ||
         QMessageBox::question(this, "Quit",
                               "A batch is running. Stop it and quit? (Finished games "
                               "stay in the run folder and can be resumed.)") == QMessageBox::Yes;
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
  const bool running = runner_->running();
  const bool selected = selectedRow() >= 0;
  for (QAction* a : {add_, open_, openResults_}) a->setEnabled(!running);
  for (QAction* a : {remove_, duplicate_, settings_}) a->setEnabled(!running && selected);
  saveOne_->setEnabled(!running && selected && runFolder_ &&
                       model_->entry(selectedRow()).games() > 0);
  showHistogram_->setEnabled(selected);
  start_->setEnabled(!running && model_->rowCount() > 0);
  stop_->setEnabled(running);
  resume_->setEnabled(!running && runFolder_ && !runComplete_ && !queueChangedSinceRun_);
  saveAll_->setEnabled(!running && runFolder_.has_value());
  game_->setEnabled(!running);
  iterations_->setEnabled(!running);
  threads_->setEnabled(!running);
  seed_->setEnabled(!running);
}

void BatchMode::selectionChanged() {
  updateActions();
  refreshSelection();
}

void BatchMode::refreshSelection() {
  const int row = selectedRow();
  refreshPlayers(row);
  if (tabs_->currentWidget() == histogram_) histogram_->showRows(selectedRows());
  if (tabs_->currentWidget() == compare_) compare_->showRow(row);
  if (tabs_->currentWidget() == scoresView_) scoresView_->refresh();
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
  players_->horizontalHeader()->setStretchLastSection(true);
}

uint64_t BatchMode::seed() const {
  bool ok = false;
  const qulonglong value = seed_->text().trimmed().toULongLong(&ok);
  if (!ok)
    throw InputError("seed", "expected a whole number 0 .. 18446744073709551615, got '" +
                                 seed_->text().toStdString() + "'");
  return value;
}

int BatchMode::addExperiment(const QString& game, int iterations) {
  ExperimentDialog defaults;  // the dialog knows each game's default seats
  defaults.setExperiment({{"name", model_->freeName(game.toStdString())},
                          {"game", {{"id", game.toStdString()}}},
                          {"iterations", iterations}});
  try {
    model_->append(defaults.experiment());
  } catch (const InputError& e) {
    QMessageBox::warning(this, "Add", QString::fromStdString(e.what()));
    return -1;
  }
  return model_->rowCount() - 1;
}

void BatchMode::editSettings(int row) {
  if (row < 0 || runner_->running()) return;
  ExperimentDialog dialog(this);
  dialog.setExperiment(model_->entry(row).experiment);
  while (dialog.exec() == QDialog::Accepted) {
    try {
      model_->replace(row, dialog.experiment());
      queueChangedSinceRun_ = true;
      refreshSelection();
      updateActions();
      return;
    } catch (const InputError& e) {
      QMessageBox::warning(this, "Settings", QString::fromStdString(e.what()));
    }
  }
}

bool BatchMode::openBatch(const QString& file, bool quiet) {
  try {
    const Batch batch = loadBatch(file.toStdString());
    model_->load(batch);
    seed_->setText(QString::number(batch.seed));
    batchFile_ = file;
    runFolder_.reset();
    queueChangedSinceRun_ = false;
    rememberRecent(file);
    QSettings().setValue("folders/batch", QFileInfo(file).absolutePath());
    setTitle("ddalab — " + QFileInfo(file).fileName());
    log("opened " + file);
    size_t games = 0;
    for (const auto& e : batch.experiments) games += static_cast<size_t>(e.iterations);
    status_->setText(QString("%1 experiments, %2 games in all: Start (F5) runs them")
                         .arg(model_->rowCount())
                         .arg(games));
    progress_->setValue(0);
    selectRow(0);
    updateActions();
    return true;
  } catch (const std::exception& e) {
    if (!quiet) QMessageBox::warning(this, "Open batch", QString::fromStdString(e.what()));
    log(QString::fromStdString(e.what()));
    return false;
  }
}

bool BatchMode::openResults(const QString& dir, bool quiet) {
  QElapsedTimer clock;
  clock.start();
  try {
    const fs::path folder = dir.toStdString();
    const Batch batch = loadBatch(folder / "batch.json");
    model_->load(batch);
    seed_->setText(QString::number(batch.seed));
    int row = -1;
    std::vector<GameRecord> games;  // handed to the model in chunks: memory stays flat
    const auto flush = [&] {
      if (row >= 0 && !games.empty()) model_->addGames(row, games);
      games.clear();
    };
    readResultsDir(
        folder,
        [&](const ExperimentLabel& label) {
          flush();
          row = -1;
          for (int r = 0; r < model_->rowCount(); ++r)
            if (model_->entry(r).label.name == label.name) row = r;
        },
        [&](const GameRecord& game) {
          games.push_back(game);
          if (games.size() == 4096) flush();
        });
    flush();
    runFolder_ = folder;
    size_t done = 0, planned = 0;
    for (int r = 0; r < model_->rowCount(); ++r) {
      done += model_->entry(r).games();
      planned += static_cast<size_t>(model_->entry(r).label.plannedIterations);
    }
    runComplete_ = done == planned;
    queueChangedSinceRun_ = false;
    batchFile_.clear();
    QSettings().setValue("folders/results", QFileInfo(dir).absolutePath());
    setTitle("ddalab — results " + QFileInfo(dir).fileName());
    status_->setText(QString("%1 of %2 games read from %3 in %4 s")
                         .arg(done)
                         .arg(planned)
                         .arg(dir)
                         .arg(clock.elapsed() / 1000.0, 0, 'f', 2));
    progress_->setValue(planned ? static_cast<int>(100 * done / planned) : 0);
    log("opened results " + dir);
    selectRow(0);
    updateActions();
    return true;
  } catch (const std::exception& e) {
    if (!quiet) QMessageBox::warning(this, "Open results", QString::fromStdString(e.what()));
    log(QString::fromStdString(e.what()));
    return false;
  }
}

bool BatchMode::saveBatch(const QString& file) {
  try {
    const Batch batch = model_->batch(seed());
    writeFileAtomically(file.toStdString(), toJson(batch).dump(2) + "\n");
    batchFile_ = file;
    rememberRecent(file);
    QSettings().setValue("folders/batch", QFileInfo(file).absolutePath());
    log("saved " + file);
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Save batch", QString::fromStdString(e.what()));
    return false;
  }
}

void BatchMode::rememberRecent(const QString& file) {
  QSettings s;
  QStringList recent = s.value("recent/batches").toStringList();
  recent.removeAll(file);
  recent.prepend(QFileInfo(file).absoluteFilePath());
  while (recent.size() > kMaxRecent) recent.removeLast();
  s.setValue("recent/batches", recent);
  rebuildRecentMenu();
}

void BatchMode::rebuildRecentMenu() {
  if (!recentMenu_) return;
  recentMenu_->clear();
  const QStringList recent = QSettings().value("recent/batches").toStringList();
  for (const QString& file : recent)
    recentMenu_->addAction(file, this, [this, file] { openBatch(file); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

fs::path BatchMode::newRunFolder() const {
  const QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  const QString name = QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss-zzz");
  return fs::path(base.toStdString()) / "runs" / name.toStdString();
}

void BatchMode::start() {
  startRun(false);
}

void BatchMode::resume() {
  startRun(true);
}

void BatchMode::startRun(bool resume) {
  if (runner_->running()) return;
  RunRequest request;
  try {
    request.batch = model_->batch(seed());
  } catch (const InputError& e) {
    QMessageBox::warning(this, "Start", QString::fromStdString(e.what()));
    return;
  }
  if (resume && !runFolder_) return;
  request.out = resume ? *runFolder_ : newRunFolder();
  request.mode = resume ? FolderMode::Resume : FolderMode::Fresh;
  request.threads = threads_->value();
  if (!resume) model_->clearResults();
  if (resume) model_->clearResults();  // the run service replays the checkpointed games
  runFolder_ = request.out;
  runComplete_ = false;
  queueChangedSinceRun_ = false;
  log(QString("%1 into %2").arg(resume ? "resuming" : "starting", path(request.out)));
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

void BatchMode::showProgress(const Progress& p) {
  progress_->setValue(p.gamesTotal ? static_cast<int>(100 * p.gamesDone / p.gamesTotal) : 0);
  status_->setText(QString("%1 / %2 games · elapsed %3 · left %4 · running %5")
                       .arg(p.gamesDone)
                       .arg(p.gamesTotal)
                       .arg(duration(p.elapsedSeconds))
                       .arg(duration(p.etaSeconds))
                       .arg(QString::fromStdString(p.experimentName)));
}

void BatchMode::runEnded(bool complete, const QString& error) {
  runComplete_ = complete;
  if (!error.isEmpty()) {
    log("error: " + error);
    status_->setText("the run failed: " + error);
    QMessageBox::warning(this, "Run", error);
  } else {
    status_->setText(complete ? "finished: every game of the batch is done"
                              : "stopped: finished games are kept; Resume continues the run");
    log(complete ? "run complete" : "run stopped");
  }
  if (complete) progress_->setValue(100);
  refreshSelection();
  updateActions();
  emit runFinished(complete);
}

bool BatchMode::saveAll(const QString& dir, bool overwrite) {
  if (!runFolder_) return false;
  try {
    exportResults(*runFolder_, dir.toStdString(),
                  overwrite ? FolderMode::Overwrite : FolderMode::Fresh);
    QSettings().setValue("folders/results", dir);
    log("saved all results into " + dir);
    return true;
  } catch (const InputError& e) {
    log(QString::fromStdString(e.what()));
    if (overwrite) QMessageBox::warning(this, "Save all", QString::fromStdString(e.what()));
    return false;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Save all", QString::fromStdString(e.what()));
    return true;  // not a question of overwriting
  }
}

void BatchMode::saveExperiment(int row) {
  if (row < 0 || !runFolder_) return;
  QSettings s;
  const QString dir = QFileDialog::getExistingDirectory(this, "Save the experiment's CSVs into",
                                                        s.value("folders/results").toString());
  if (dir.isEmpty()) return;
  try {
    exportExperiment(*runFolder_, model_->entry(row).label.name, dir.toStdString());
    log("saved " + QString::fromStdString(model_->entry(row).label.name) + " into " + dir);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Save", QString::fromStdString(e.what()));
  }
}

void BatchMode::log(const QString& message) {
  log_->appendPlainText(QTime::currentTime().toString("hh:mm:ss  ") + message);
}

}  // namespace ddalab::gui
