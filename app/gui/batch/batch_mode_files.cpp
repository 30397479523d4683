// The batch mode's File commands: opening a batch file or a results folder, saving the queue as
// a batch file and its games with Save all, the recent files; the dialogs that ask where. The
// document does each; this part asks the person and says what happened.
#include <QDate>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>

#include "app/gui/batch/batch_files.h"
#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/ratings_view.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/batch/start_page.h"
#include "experiments/run_service.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

void BatchMode::setRecentMenu(QMenu* menu) {
  recentMenu_ = menu;
  rebuildRecentMenu();
}

bool BatchMode::saveQueue() {
  const QString batchFile = document_->batchFile();
  if (batchFile.isEmpty() || isShippedExample(batchFile)) {
    const QString file = askBatchFile();
    return !file.isEmpty() && saveBatch(file);
  }
  return saveBatch(batchFile);
}

QString BatchMode::askBatchFile() {
  QString start = batchSaveStart("batch.json");
  while (true) {
    const QString file =
        QFileDialog::getSaveFileName(this, "Save batch", start, "Batch files (*.json)");
    if (file.isEmpty() || !isShippedExample(file)) return file;
    QMessageBox::warning(this, "Save batch", shippedExampleText(file));
    start = batchSaveStart(QFileInfo(file).fileName());
  }
}

bool BatchMode::openBatch(const QString& file, bool quiet, QString* error) {
  if (runner_->running() || (!quiet && !confirmReplace("Open batch"))) return false;
  try {
    const Batch batch = document_->openBatch(file);
    showRatings(std::nullopt);
    const bool shipped = isShippedExample(file);  // an untitled copy: Save asks where
    if (!shipped) {
      rememberRecent(file);
      QSettings().setValue("folders/batch", QFileInfo(file).absolutePath());
    }
    setTitle("ddalab — " + QFileInfo(file).fileName() + (shipped ? " (untitled copy)" : ""));
    log("opened " + file);
    const size_t games = plannedGames(batch);
    status_->setText(QString("%1 experiments, %2 games in all%3: Start (F5) runs them")
                         .arg(model_->rowCount())
                         .arg(games)
                         .arg(model_->games() ? ", " + gamesText(model_->games()) : QString()));
    showProgressOfQueue();
    selectRow(0);
    updateActions();
    return true;
  } catch (const std::exception& e) {
    return refuse("Open batch", e, quiet, error);
  }
}

bool BatchMode::openResults(const QString& dir, bool quiet, QString* error) {
  if (runner_->running() || (!quiet && !confirmReplace("Open results"))) return false;
  QElapsedTimer clock;
  clock.start();
  try {
    const Batch batch = document_->openResults(dir.toStdString());
    showRatings(dir.toStdString());  // the folder's own tables (its copy may lack them)
    const size_t planned = plannedGames(batch);
    QSettings().setValue("folders/results", QFileInfo(dir).absolutePath());
    setTitle("ddalab — results " + QFileInfo(dir).fileName());
    status_->setText(QString("%1 of %2 games read from %3 in %4 s")
                         .arg(model_->games())
                         .arg(planned)
                         .arg(dir)
                         .arg(clock.elapsed() / 1000.0, 0, 'f', 2));
    showProgressOfQueue();
    log("opened results " + dir);
    selectRow(0);
    updateActions();
    return true;
  } catch (const std::exception& e) {
    return refuse("Open results", e, quiet, error);
  }
}

void BatchMode::showRatings(const std::optional<fs::path>& dir) {
  const bool shown = dir && ratings_->showFolder(*dir);
  if (!dir) ratings_->showMessage("No rating tables: no results folder opened");
  tabs_->setTabVisible(tabs_->indexOf(ratings_), shown);
  if (shown) log("rating tables shown from " + QString::fromStdString(dir->string()));
}

bool BatchMode::refuse(const QString& title, const std::exception& e, bool quiet, QString* error) {
  const QString why = QString::fromStdString(e.what());
  if (!quiet) QMessageBox::warning(this, title, why);
  if (error) *error = why;
  log(why);
  return false;
}

bool BatchMode::saveBatch(const QString& file) {
  if (isShippedExample(file)) {
    QMessageBox::warning(this, "Save batch", shippedExampleText(file));
    return false;
  }
  try {
    document_->saveBatch(file);
    setTitle("ddalab — " + QFileInfo(file).fileName());
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
  rememberRecentBatch(file);
  rebuildRecentMenu();
}

void BatchMode::rebuildRecentMenu() {
  const QStringList recent = recentBatches();
  startPage_->setRecent(recent);
  if (!recentMenu_) return;
  recentMenu_->clear();
  for (const QString& file : recent)
    recentMenu_->addAction(file, this, [this, file] { openBatch(file); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

QString BatchMode::askResultsFolder() {
  const QString last = QSettings().value("folders/results").toString();
  const QDir parent = last.isEmpty() ? QDir::home() : QFileInfo(last).absoluteDir();
  const QString& batchFile = document_->batchFile();
  const QString base = (batchFile.isEmpty() ? QString("batch") : QFileInfo(batchFile).baseName()) +
                       "-results-" + QDate::currentDate().toString(Qt::ISODate);
  QString name = base;
  for (int n = 2; parent.exists(name); ++n) name = base + "-" + QString::number(n);
  // A save dialog, so that the new folder's name is offered and can be typed. An existing
  // folder's name opens that folder instead (Qt's rule): Save all never writes over results.
  QFileDialog dialog(this, "Save all results as a new folder", parent.filePath(name));
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setFileMode(QFileDialog::AnyFile);
  dialog.setLabelText(QFileDialog::FileName, "Folder name");
  dialog.setLabelText(QFileDialog::Accept, "Save");
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
  return dialog.selectedFiles().front();
}

bool BatchMode::saveAll(const QString& dir, bool overwrite, bool* folderHoldsResults) {
  if (folderHoldsResults) *folderHoldsResults = false;
  bool holdsQueue = false;
  try {
    holdsQueue = document_->folderHoldsQueue();
  } catch (const std::exception& e) {
    log(QString::fromStdString(e.what()));
  }
  if (!holdsQueue) {
    // What the queue shows is saved, never another queue's games the folder still holds.
    QMessageBox::warning(
        this, "Save all",
        model_->rowCount() == 0
            ? QString("The queue is empty: there are no games to save.")
            : QString("The queue was changed since its games were run, and Save all saves the "
                      "games the queue shows: Start (F5) brings its results up to date first "
                      "(finished games are kept, only what is missing runs)."));
    return false;
  }
  try {
    document_->saveAll(dir.toStdString(), overwrite);
    QSettings().setValue("folders/results", dir);
    log("saved all results into " + dir);
    status_->setText("saved " + gamesText(model_->games()) + " into " + dir);
    return true;
  } catch (const InputError& e) {
    log(QString::fromStdString(e.what()));
    if (!overwrite && folderHoldsResults && QDir(dir).exists() && !QDir(dir).isEmpty())
      *folderHoldsResults = true;  // the caller asks before replacing them
    else
      QMessageBox::warning(this, "Save all", QString::fromStdString(e.what()));
    return false;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Save all", QString::fromStdString(e.what()));
    return false;
  }
}

bool BatchMode::saveAllAsked() {
  const QString dir = askResultsFolder();
  if (dir.isEmpty()) return false;
  bool holdsResults = false;
  if (saveAll(dir, false, &holdsResults)) return true;
  return holdsResults &&
         QMessageBox::question(this, "Save all", "Replace the results that folder holds?") ==
             QMessageBox::Yes &&
         saveAll(dir, true);
}

void BatchMode::saveExperiment(int row) {
  const std::optional<fs::path> folder = runFolder();
  if (row < 0 || !folder) return;
  QSettings s;
  const QString dir = QFileDialog::getExistingDirectory(this, "Save the experiment's CSVs into",
                                                        s.value("folders/results").toString());
  if (dir.isEmpty()) return;
  try {
    exportExperiment(*folder, model_->entry(row).label.name, dir.toStdString());
    log("saved " + QString::fromStdString(model_->entry(row).label.name) + " into " + dir);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, "Save", QString::fromStdString(e.what()));
  }
}

}  // namespace ddalab::gui
