#pragma once
// What ddalab-gui does without a person: figures for a paper from a results folder, screenshots
// of a view, and the measurement of how responsive the window stays during a run.
#include <QSize>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace ddalab::gui {

// Writes, for each comparison of the results folder `results` (an experiment without one counts
// as its own), one histogram per metric with its rows overlaid and, for comparisons of two or
// more rows, the ratio-to-best chart; plus the score charts of tables 8 and 9; for a sweep's
// results, each of `sweepColumns` (sweep.csv's) against each axis and as heat maps; for a folder
// with rating tables, ratings.ladder, ratings.levels and ratings.balance (each when its table has
// rows). PNG files of `size` (and SVG when `svg`). Returns the files written; throws on bad input
// (InputError for a column sweep.csv does not have, a rating table the reader refuses).
QStringList exportCharts(const QString& results, const QString& out, QSize size, bool svg,
                         const QStringList& sweepColumns = {"score9"});

// Saves the window as PNG showing `view`: a batch view (queue, histogram, compare, scores, a
// chart of the Ratings tab, or the settings dialog of the first selected row) on `open` (a batch
// file or results folder) with `rows` selected; a game (ludo, lost-cities, maze, hexalines) of
// `seed` after `rounds` rounds, a person on seat 0; or a replay of the first game of the trace
// `open` at round `rounds`. Throws InputError for an unknown view or input that cannot be opened
// (saying which file and line) or a `file` that is not a regular file (written through
// core/file_io.h, as the CLI writes), WriteError when the image cannot be written.
void screenshot(const QString& file, const QString& view, const QString& open, QSize size,
                const std::vector<int>& rows, uint64_t seed, int rounds);
// The views --screenshot knows.
QStringList screenshotViews();

// Runs `batch` on every core while a timer on the GUI thread measures how late it fires; prints
// the lateness percentiles. Returns the process exit code.
int probeLatency(const QString& batch, double seconds);

}  // namespace ddalab::gui
