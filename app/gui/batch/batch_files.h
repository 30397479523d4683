#pragma once
// The batch mode's files apart from the queue itself: the examples shipped with ddalab (opened
// as untitled copies, never saved over), the batch files opened recently and where a Save
// dialog starts. Kept in QSettings ("recent/batches", "folders/batch"); no widget.
#include <QString>
#include <QStringList>

namespace ddalab::gui {

// The folder of the shipped batch files (experiments/ of the source tree this was built from).
QString shippedExperimentsFolder();
// Whether `file` is one of the examples shipped with ddalab (opened as an untitled copy: saving
// asks for a name in the person's folder, never writes over the example).
bool isShippedExample(const QString& file);
// Why `file` (a shipped example) is not saved over.
QString shippedExampleText(const QString& file);
// Where a Save dialog for a batch starts: the folder last saved to or opened from, never the
// shipped examples' (nor `/` when there is none yet), with `name` proposed.
QString batchSaveStart(const QString& name);
// The batch files opened or saved recently, the most recent first.
QStringList recentBatches();
// Puts `file` first in the recent batch files (at most eight are kept).
void rememberRecentBatch(const QString& file);

}  // namespace ddalab::gui
