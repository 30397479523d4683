#include "app/gui/headless.h"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLabel>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>

#include "app/gui/batch/analysis_views.h"
#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/chart_views.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/ratings_view.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/batch/sweep_view.h"
#include "app/gui/charts/charts.h"
#include "app/gui/charts/rating_charts.h"
#include "app/gui/charts/sweep_charts.h"
#include "app/gui/image_file.h"
#include "app/gui/main_window.h"
#include "app/gui/play/play_mode.h"
#include "core/file_io.h"
#include "experiments/batch.h"
#include "games/registry.h"
#include "results/folder_analysis.h"
#include "results/results_reader.h"

namespace ddalab::gui {

namespace fs = std::filesystem;

namespace {

// Every game's metric values of one experiment of a results folder.
struct ExperimentValues {
  ExperimentLabel label;
  std::array<std::vector<double>, kMaxMetrics> values;
};

std::vector<ExperimentValues> readValues(const fs::path& dir) {
  std::vector<ExperimentValues> experiments;
  readResultsDir(
      dir,
      [&](const ExperimentLabel& label) {
        experiments.push_back({label, {}});
      },
      [&](const GameRecord& game) {
        for (size_t k = 0; k < allMetrics().size(); ++k)
          experiments.back().values[k].push_back(game.metrics[k]);
      });
  return experiments;
}

QString fileName(const std::string& stem) {
  return QString::fromStdString(fileStem(stem));
}

// Writes a chart's image with `save` (through the checked file layer); a path that is not a
// regular file is refused with what it is (InputError), a failed write throws.
void saveChecked(const QString& file, const std::function<bool()>& save) {
  checkReplaceable(file.toStdString());
  if (!save()) throw std::runtime_error("cannot write " + file.toStdString());
}

// Where exported charts go: the folder, their size, and whether an SVG joins each PNG.
struct ChartFiles {
  const QString& out;
  QSize size;
  bool svg;
};

// Writes the chart `make` builds as <out>/<stem>.png (and .svg), adding the files to `written`.
void writeChart(const std::function<QChart*()>& make, const ChartFiles& files, const QString& stem,
                QStringList& written) {
  for (const QString& suffix : files.svg ? QStringList{"png", "svg"} : QStringList{"png"}) {
    const QString file = QDir(files.out).filePath(stem + "." + suffix);
    saveChecked(file, [&] { return saveChart(make(), file, files.size); });
    written << file;
  }
}

// A swept batch's charts of each of `columns` (of sweep.csv): the column against each axis, and
// for each experiment series that varies two or more axes its heat map over the first two.
QStringList exportSweepCharts(const fs::path& dir, std::span<const ExperimentSummary> summaries,
                              std::span<const ComparisonAnalysis> analyses, const QString& out,
                              QSize size, bool svg, const QStringList& columns) {
  const Batch batch = loadBatch(dir / "batch.json");
  std::vector<Json> points;
  for (size_t i = 0; i < summaries.size() && i < batch.experiments.size(); ++i)
    points.push_back(batch.experiments[i].point);
  const SweepTable table = sweepTable(summaries.first(points.size()), points, analyses);
  QStringList written;
  if (table.rows.empty()) return written;
  const QStringList suffixes = svg ? QStringList{"png", "svg"} : QStringList{"png"};
  const auto path = [&](const QString& stem, const QString& suffix) {
    return QDir(out).filePath(stem + "." + suffix);
  };
  std::vector<std::string> series;
  for (const SweepRow& r : table.rows)
    if (std::find(series.begin(), series.end(), r.series) == series.end())
      series.push_back(r.series);
  for (const QString& key : columns) {
    const auto column = table.column(key.toStdString());
    if (!column) {
      std::string valid;
      for (const std::string& c : table.columns) valid += (valid.empty() ? "" : ", ") + c;
      throw InputError("--sweep-column", "no column '" + textExcerpt(key.toStdString()) +
                                             "' in sweep.csv; valid: " + valid);
    }
    for (const std::string& axis : table.axes)
      for (const QString& suffix : suffixes) {
        const QString file = path("sweep.line." + key + "." + fileName(axis), suffix);
        saveChecked(file,
                    [&] { return saveChart(sweepLineChart(table, *column, axis), file, size); });
        written << file;
      }
    for (const std::string& s : series) {
      const std::vector<std::string> axes = table.variedAxes(s);
      if (axes.size() < 2) continue;
      for (const QString& suffix : suffixes) {
        HeatMap map;
        map.show(table, *column, s, axes[0], axes[1]);
        const QString file = path("sweep.heatmap." + key + "." + fileName(s), suffix);
        saveChecked(file, [&] { return saveWidget(map, file, size); });
        written << file;
      }
    }
  }
  return written;
}

// The charts of the rating tables `dir` holds (none: nothing written): ratings.ladder,
// ratings.levels (all curves on one chart) and ratings.balance, each when its table has rows.
// A table the reader refuses throws its InputError.
QStringList exportRatingCharts(const fs::path& dir, const QString& out, QSize size, bool svg) {
  QStringList written;
  if (!holdsRatingTables(dir)) return written;
  const RatingTablesRead tables = readRatingTables(dir);
  const ChartFiles files{out, size, svg};
  if (!tables.ratings.empty())
    writeChart([&] { return ratingLadderChart(tables); }, files, "ratings.ladder", written);
  if (!tables.curves.empty())
    writeChart([&] { return levelCurvesChart(tables.curves); }, files, "ratings.levels", written);
  if (!tables.balance.empty())
    writeChart([&] { return balanceChart(tables.balance, tables.balanceSummaries); }, files,
               "ratings.balance", written);
  return written;
}

// The file names of the scores charts, in ScoreTable order.
constexpr const char* kScoresChartNames[] = {"scores.table8", "scores.table9", "scores.ext"};

}  // namespace

QStringList exportCharts(const QString& results, const QString& out, QSize size, bool svg,
                         const QStringList& sweepColumns) {
  const fs::path dir = results.toStdString();
  const std::vector<ExperimentValues> experiments = readValues(dir);
  const std::vector<ExperimentSummary> summaries = summarizeResultsDir(dir);
  if (!QDir().mkpath(out))
    throw InputError("--out " + out.toStdString(),
                     "cannot create the folder (is it a file?); expected a folder for the charts");
  QStringList written;
  std::vector<std::pair<std::string, std::vector<size_t>>> groups;
  for (size_t i = 0; i < experiments.size(); ++i) {
    const std::string& c = experiments[i].label.comparison;
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& g) { return !c.empty() && g.first == c; });
    if (found == groups.end())
      groups.push_back({c.empty() ? experiments[i].label.name : c, {i}});
    else
      found->second.push_back(i);
  }
  const auto write = [&](const std::function<QChart*()>& make, const QString& stem) {
    writeChart(make, {out, size, svg}, stem, written);
  };
  for (const auto& [name, members] : groups) {
    for (const auto& info : allMetrics()) {
      std::vector<Sample> samples;
      for (size_t i : members)
        samples.push_back({QString::fromStdString(experiments[i].label.name),
                           experiments[i].values[static_cast<size_t>(info.metric)]});
      write([&] { return histogramChart(info.metric, samples, 30, false); },
            fileName(name) + ".histogram." + QString::fromStdString(std::string(info.key)));
    }
  }
  const std::vector<ComparisonScores> scores = scoreAll(summaries);
  const std::vector<ComparisonAnalysis> analyses = analyzeResultsDir(results.toStdString());
  for (const ComparisonScores& s : scores) {
    if (s.rows.size() < 2) continue;
    const auto analysis = std::find_if(analyses.begin(), analyses.end(),
                                       [&](const auto& a) { return a.comparison == s.comparison; });
    write([&] { return comparisonChart(s, analysis == analyses.end() ? nullptr : &*analysis); },
          fileName(s.comparison) + ".compare");
  }
  for (const ScoreTable table : kScoreTables) {
    const CrossScores grid = crossScores(scores, table);
    if (!grid.rows.empty())
      write([&] { return scoresChart(grid, table, analyses); },
            kScoresChartNames[static_cast<size_t>(table)]);
  }
  written << exportSweepCharts(dir, summaries, analyses, out, size, svg, sweepColumns);
  written << exportRatingCharts(dir, out, size, svg);
  return written;
}

// Waits for `ms` milliseconds with the event loop turning.
void settle(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

namespace {

const QStringList kViews = {"queue",     "histogram",      "compare",        "scores",
                            "tests",     "detectability",  "sweep-line",     "sweep-heatmap",
                            "ratings",   "ratings-ladder", "ratings-levels", "ratings-balance",
                            "settings",  "ludo",           "lost-cities",    "maze",
                            "hexalines", "game-settings",  "replay"};

// Shows the Ratings tab: as the folder left it ("ratings": its first chart, or why a table was
// refused), or the chart `view` names ("ratings-ladder", "-levels", "-balance"). Refused when
// the folder opened has no rating tables, or no rows for the chart.
void showRatingsView(BatchMode& batch, const QString& view) {
  using Kind = RatingsView::Kind;
  RatingsView& ratings = *batch.ratings();
  const QString why = ratings.note()->text();
  const auto refuse = [&](const std::string& expected) {
    throw InputError("--view " + view.toStdString(),
                     "needs --open with a results folder " + expected +
                         (why.isEmpty() ? std::string() : " (" + why.toStdString() + ")"));
  };
  if (!batch.tabs()->isTabVisible(batch.tabs()->indexOf(&ratings)))
    refuse("that holds rating tables (ratings.csv, level_curves.csv, balance.csv)");
  const Kind kind = view == "ratings-ladder"   ? Kind::Ladder
                    : view == "ratings-levels" ? Kind::LevelCurves
                                               : Kind::Balance;
  if (view != "ratings" && !ratings.showKind(kind))
    refuse("whose rating tables have rows for this chart");
  batch.tabs()->setCurrentWidget(&ratings);
}

// Saves `widget` as the PNG `file` through the checked file layer; throws InputError for a path
// that is not a regular file (a FIFO once blocked forever, a symbolic link had its target
// overwritten), WriteError when it cannot be written.
void save(QWidget& widget, const QString& file) {
  writeImageFile(file, widget.grab().toImage());
}

}  // namespace

QStringList screenshotViews() {
  return kViews;
}

void screenshot(const QString& file, const QString& view, const QString& open, QSize size,
                const std::vector<int>& rows, uint64_t seed, int rounds) {
  checkReplaceable(file.toStdString());  // before a window is built: refused at once
  const bool game = std::any_of(gameRegistry().begin(), gameRegistry().end(),
                                [&](const GameInfo& g) { return g.id == view.toStdString(); });
  if (!kViews.contains(view) && !game)
    throw InputError(
        "--view " + view.toStdString(),
        "expected one of " + kViews.join(", ").toStdString() + " or a game of a plug-in");
  MainWindow window;
  window.resize(size);
  if (game) {  // a game in progress
    window.show();
    window.playMode()->session()->setPaused(true);
    QString error;
    if (!window.playMode()->newGame(PlayMode::defaultSetup(view.toStdString(), seed), &error))
      throw InputError("--view " + view.toStdString(), error.toStdString());
    window.showGameMode();
    window.playMode()->session()->fastForward(rounds);
    settle(300);
    return save(window, file);
  }
  if (view == "game-settings") {  // the game mode's settings of a default Ludo game
    ExperimentDialog dialog(&window);
    dialog.setGameMode(true);
    dialog.setExperiment(PlayMode::defaultSetup("ludo", seed).experiment);
    dialog.resize(size);
    dialog.show();
    settle(300);
    return save(dialog, file);
  }
  if (view == "replay") {  // a game of a trace (--open TRACE.jsonl), at round `rounds`
    window.show();
    QString error;
    if (!window.openTrace(open, 0, true, &error)) throw InputError("", error.toStdString());
    window.playMode()->showRound(rounds);
    settle(300);
    return save(window, file);
  }
  BatchMode& batch = *window.batch();
  if (!open.isEmpty()) {
    QString error;
    const bool ok = QFileInfo(open).isDir() ? batch.openResults(open, true, &error)
                                            : batch.openBatch(open, true, &error);
    if (!ok) throw InputError("", error.toStdString());
  }
  window.show();
  if (view == "histogram") batch.tabs()->setCurrentWidget(batch.histogram());
  if (view == "compare") batch.tabs()->setCurrentWidget(batch.compare());
  if (view == "scores") batch.tabs()->setCurrentWidget(batch.scores());
  if (view == "tests") batch.tabs()->setCurrentWidget(batch.tests());
  if (view == "detectability") batch.tabs()->setCurrentWidget(batch.detectability());
  if (view.startsWith("sweep-")) {
    batch.tabs()->setCurrentWidget(batch.sweep());
    batch.sweep()->kindBox()->setCurrentIndex(view == "sweep-heatmap" ? 1 : 0);
  }
  if (view.startsWith("ratings")) showRatingsView(batch, view);
  batch.selectRows(rows.empty() ? std::vector<int>{0} : rows);
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  if (view == "settings") {  // the settings dialog of the first experiment
    if (batch.queue()->rowCount() == 0)
      throw InputError("--view settings",
                       "shows the settings of the first selected experiment: give --open with a "
                       "batch file or results folder that has one");
    ExperimentDialog dialog(&window);
    dialog.setExperiment(batch.queue()->entry(0).experiment);
    dialog.resize(size);
    dialog.show();
    QEventLoop loop;
    QTimer::singleShot(300, &loop, &QEventLoop::quit);
    loop.exec();
    return save(dialog, file);
  }
  settle(300);
  return save(window, file);
}

int probeLatency(const QString& batchFile, double seconds) {
  MainWindow window;
  window.show();
  BatchMode& batch = *window.batch();
  if (!batch.openBatch(batchFile, true)) {
    std::fprintf(stderr, "error: cannot open %s\n", batchFile.toStdString().c_str());
    return 2;
  }
  batch.setThreads(0);
  batch.selectRows({0, 1});
  batch.tabs()->setCurrentWidget(batch.histogram());  // the heaviest live view
  std::vector<double> lateness;                       // ms past the timer's due time
  QElapsedTimer clock;
  clock.start();
  constexpr int kIntervalMs = 10;
  double due = kIntervalMs;
  QTimer timer;
  timer.setTimerType(Qt::PreciseTimer);
  QObject::connect(&timer, &QTimer::timeout, [&] {
    const double now = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    lateness.push_back(std::max(0.0, now - due));
    due = now + kIntervalMs;
  });
  QEventLoop loop;
  QObject::connect(&batch, &BatchMode::runFinished, &loop, &QEventLoop::quit);
  QTimer::singleShot(static_cast<int>(seconds * 1000), &loop, [&] { batch.stop(); });
  timer.start(kIntervalMs);
  batch.start();
  loop.exec();
  timer.stop();
  if (lateness.empty()) return 1;
  std::sort(lateness.begin(), lateness.end());
  const auto percentile = [&](double q) {
    return lateness[static_cast<size_t>(q * static_cast<double>(lateness.size() - 1))];
  };
  size_t games = 0;
  for (int r = 0; r < batch.queue()->rowCount(); ++r) games += batch.queue()->entry(r).games();
  std::printf(
      "GUI-thread timer lateness over %zu ticks of %d ms while %zu games ran on every "
      "core, histograms live: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
      lateness.size(), kIntervalMs, games, percentile(0.5), percentile(0.99), lateness.back());
  return 0;
}

}  // namespace ddalab::gui
