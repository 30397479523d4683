#include "app/gui/batch/batch_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace ddalab::gui {

namespace {

constexpr int kMaxRecentBatches = 8;

}  // namespace

QString shippedExperimentsFolder() {
  return DDALAB_EXPERIMENTS_DIR;
}

bool isShippedExample(const QString& file) {
  const QString shipped = QDir(shippedExperimentsFolder()).canonicalPath();
  const QString canonical = QFileInfo(file).canonicalFilePath();
  return !shipped.isEmpty() && (canonical == shipped || canonical.startsWith(shipped + "/"));
}

QString shippedExampleText(const QString& file) {
  return QFileInfo(file).fileName() +
         " is an example shipped with ddalab: it is never saved over (the examples stay as "
         "every guide shows them). Save the queue as a file of your own.";
}

QString batchSaveStart(const QString& name) {
  QString folder = QSettings().value("folders/batch").toString();
  if (folder.isEmpty() || isShippedExample(folder))
    folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  return folder + "/" + name;
}

QStringList recentBatches() {
  return QSettings().value("recent/batches").toStringList();
}

void rememberRecentBatch(const QString& file) {
  QSettings s;
  QStringList recent = s.value("recent/batches").toStringList();
  recent.removeAll(file);
  recent.prepend(QFileInfo(file).absoluteFilePath());
  while (recent.size() > kMaxRecentBatches) recent.removeLast();
  s.setValue("recent/batches", recent);
}

}  // namespace ddalab::gui
