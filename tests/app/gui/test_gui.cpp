// ddalab-gui batch mode, driven the way a person drives it (Qt Test: clicks, keys, dialogs):
// the settings dialog round-trips every shipped experiment; a batch run from the window writes
// byte-identical files to `ddalab run`, also after Stop and Resume; histograms count every game;
// the comparison chart shows the library's ratios; --export-charts writes real images; the
// window keeps answering while a batch runs.
#include <sys/stat.h>

#include <QAbstractSeries>
#include <QAction>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDate>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QImage>
#include <QInputDialog>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>
#include <fstream>
#include <functional>
#include <map>
#include <memory>

#include "app/gui/batch/analysis_views.h"
#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/batch/queue_model.h"
#include "app/gui/batch/run_controller.h"
#include "app/gui/batch/start_page.h"
#include "app/gui/batch/chart_views.h"
#include "app/gui/charts/charts.h"
#include "app/gui/charts/sweep_charts.h"
#include "app/gui/status_label.h"
#include "app/gui/batch/sweep_view.h"
#include "app/gui/main_window.h"
#include "experiments/batch.h"
#include "results/csv.h"
#include "tests/app/gui/gui_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

const QString kSource = DDALAB_SOURCE_DIR;
const QString kCli = DDALAB_CLI;
const QString kGui = DDALAB_GUI;

// Every visible file of a folder with its bytes.
std::map<QString, QByteArray> folderFiles(const QString& dir) {
  std::map<QString, QByteArray> files;
  for (const QFileInfo& info : QDir(dir).entryInfoList(QDir::Files)) {
    QFile file(info.absoluteFilePath());
    file.open(QIODevice::ReadOnly);
    files[info.fileName()] = file.readAll();
  }
  return files;
}

// Runs the CLI; returns its exit code.
int runCli(const QStringList& arguments) {
  QProcess process;
  process.start(kCli, arguments);
  process.waitForFinished(120'000);
  return process.exitCode();
}

QAction* actionNamed(MainWindow& window, const QString& text) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == text) return a;
  return nullptr;
}

// Clicks the toolbar button of the action `text`.
void clickToolButton(MainWindow& window, const QString& text) {
  QAction* action = actionNamed(window, text);
  QVERIFY2(action, qPrintable("no action " + text));
  auto* bar = window.findChild<QToolBar*>("batchToolBar");
  QWidget* button = bar->widgetForAction(action);
  QVERIFY(button);
  QTest::mouseClick(button, Qt::LeftButton);
}

// Shows `window` as the active window (keyboard shortcuts reach it).
bool showActive(MainWindow& window) {
  window.show();
  window.activateWindow();
  return QTest::qWaitForWindowActive(&window);
}

// Waits for the window's run to end; returns whether it was complete.
bool waitForRun(MainWindow& window, QSignalSpy& spy) {
  if (spy.isEmpty() && !spy.wait(120'000)) return false;
  return spy.takeFirst().at(0).toBool();
  (void)window;
}

// A 1024 x 700 window showing the results folder `results`, row `row` selected, on `tab`;
// null when the folder cannot be opened.
std::unique_ptr<MainWindow> smallWindowShowing(const QString& results, int row,
                                               QWidget* (*tab)(BatchMode&)) {
  QSettings().remove("window");  // the layout a window saved in another test is not restored
  auto window = std::make_unique<MainWindow>();
  window->resize(1024, 700);
  window->show();
  BatchMode& batch = *window->batch();
  if (!batch.openResults(results, true)) return nullptr;
  batch.selectRow(row);
  batch.tabs()->setCurrentWidget(tab(batch));
  QTest::qWait(50);
  return window;
}

QWidget* compareTab(BatchMode& batch) {
  return batch.compare();
}

QWidget* scoresTab(BatchMode& batch) {
  return batch.scores();
}

// The plot of `chart` is at least `minimum` pixels high and tall enough for its y-axis title.
// No text the chart draws (title, axis titles, category and tick labels, legend) is cut short:
// Qt Charts ends a label that does not fit its room with "...".
void checkNoTextCut(const QChart& chart) {
  QVERIFY(chart.scene());
  int texts = 0;
  for (const QGraphicsItem* item : chart.scene()->items()) {
    const auto* text = qgraphicsitem_cast<const QGraphicsTextItem*>(item);
    if (!text || !text->isVisible()) continue;
    ++texts;
    const QString shown = text->toPlainText();
    QVERIFY2(!shown.contains("...") && !shown.contains(QChar(0x2026)), qPrintable(shown));
  }
  QVERIFY(texts >= 13);  // the thirteen metric names at least
}

void checkPlotHeight(QChart* chart, int minimum) {
  const QList<QAbstractAxis*> vertical = chart->axes(Qt::Vertical);
  QCOMPARE(vertical.size(), 1);
  const QString title = vertical.front()->titleText();
  const int needed = QFontMetrics(vertical.front()->titleFont()).horizontalAdvance(title);
  const int plot = int(chart->plotArea().height());
  QVERIFY2(plot >= needed && plot >= minimum,
           qPrintable(QString("plot %1 px high, axis title \"%2\" needs %3 px")
                          .arg(plot)
                          .arg(title)
                          .arg(needed)));
}

}  // namespace

class GuiTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // The settings dialog round-trips every shipped experiment file exactly.
  void dialogRoundTripsShippedExperiments() {
    QStringList files = {kSource + "/experiments/quick.json"};
    for (const QFileInfo& f : QDir(kSource + "/experiments/thesis").entryInfoList({"*.json"}))
      files << f.absoluteFilePath();
    ExperimentDialog dialog;
    int experiments = 0;
    for (const QString& file : files) {
      const Batch batch = loadBatch(file.toStdString());
      const Json original = toJson(batch);
      Json saved = original;
      for (Json& e : saved.at("experiments")) {
        dialog.setExperiment(e);
        QVERIFY2(dialog.problem().isEmpty(), qPrintable(file + ": " + dialog.problem()));
        e = dialog.experiment();
        ++experiments;
      }
      const Json again = toJson(parseBatch(saved, "dialog"));
      QVERIFY2(again == original, qPrintable(file));
    }
    QVERIFY(experiments > 40);
  }

  // An invalid entry is refused with the message file validation gives.
  void dialogRefusesInvalidEntries() {
    ExperimentDialog dialog;
    Json e = {
        {"name", "x"},
        {"game", {{"id", "ludo"}}},
        {"players",
         Json::array(
             {{{"id", "random"}}, {{"id", "random"}}, {{"id", "random"}}, {{"id", "random"}}})},
        {"coefficients", {{"lead", 1e9}}},
        {"iterations", 5}};
    dialog.setExperiment(e);
    const QString problem = dialog.problem();
    QVERIFY2(problem.contains("coefficients.lead"), qPrintable(problem));
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    e["coefficients"] = {{"lead", 3}};
    dialog.setExperiment(e);
    QVERIFY(dialog.problem().isEmpty());
  }

  // Add creates a valid experiment of the chosen game (default seats) for every game.
  void addCreatesValidExperimentsOfEveryGame() {
    MainWindow window;
    for (const QString game : {"ludo", "lost-cities", "maze"}) {
      const int row = window.batch()->addExperiment(game, 7);
      QVERIFY(row >= 0);
      QCOMPARE(QString::fromStdString(window.batch()->queue()->entry(row).label.game), game);
    }
    QCOMPARE(window.batch()->queue()->rowCount(), 3);
    QVERIFY(window.batch()->queue()->batch(1).experiments.size() == 3);
  }

  // A batch started from the window writes exactly the files `ddalab run` writes.
  void runFromWindowEqualsCli() {
    QTemporaryDir dir;
    const QString batch = smallBatch(dir, 30);
    QCOMPARE(runCli({"run", batch, "--out", dir.filePath("cli"), "--quiet"}), 0);
    MainWindow window;
    QVERIFY(showActive(window));
    QVERIFY(window.batch()->openBatch(batch, true));
    QSignalSpy finished(window.batch(), &BatchMode::runFinished);
    QTest::keyClick(&window, Qt::Key_F5);  // Start
    QVERIFY(waitForRun(window, finished));
    QVERIFY(window.batch()->runFolder());
    QCOMPARE(folderFiles(QString::fromStdString(window.batch()->runFolder()->string())),
             folderFiles(dir.filePath("cli")));
    // Save all (Ctrl+Alt+S) offers a new folder named after the batch and the date beside the
    // last folder saved into; Save with that name writes the same files as the CLI.
    QSettings().setValue("folders/results", dir.filePath("cli"));
    const QString offered =
        dir.filePath("small-results-" + QDate::currentDate().toString(Qt::ISODate));
    QString suggested;
    DialogScript script({[&](QDialog* d) {
      auto* files = qobject_cast<QFileDialog*>(d);
      QVERIFY(files);
      suggested = files->selectedFiles().value(0);
      click(d, "Save");
    }});
    QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier | Qt::AltModifier);
    QCOMPARE(script.unexpected, size_t(0));
    QCOMPARE(suggested, offered);
    QCOMPARE(folderFiles(offered), folderFiles(dir.filePath("cli")));
    // The live table shows every game.
    QCOMPARE(window.batch()->queue()->entry(0).games(), size_t(30));
  }

  // Stop keeps finished games; Resume finishes the batch with the same files.
  void stopThenResumeEqualsUninterruptedRun() {
    QTemporaryDir dir;
    const QString batch = smallBatch(dir, 3000);
    QCOMPARE(runCli({"run", batch, "--out", dir.filePath("cli"), "--quiet"}), 0);
    MainWindow window;
    QVERIFY(showActive(window));
    window.batch()->setThreads(2);
    QVERIFY(window.batch()->openBatch(batch, true));
    QSignalSpy finished(window.batch(), &BatchMode::runFinished);
    clickToolButton(window, "Start");
    QTRY_VERIFY_WITH_TIMEOUT(window.batch()->queue()->entry(0).games() >= 50, 60'000);
    QTest::keyClick(&window, Qt::Key_Escape);  // Stop
    QVERIFY(!waitForRun(window, finished));
    const size_t kept =
        window.batch()->queue()->entry(0).games() + window.batch()->queue()->entry(1).games();
    QVERIFY(kept > 0 && kept < 6000);
    clickToolButton(window, "Resume");
    QVERIFY(waitForRun(window, finished));
    QCOMPARE(folderFiles(QString::fromStdString(window.batch()->runFolder()->string())),
             folderFiles(dir.filePath("cli")));
  }

  // Histogram bins sum to the games; the comparison chart's bars are the library's ratios.
  void chartsShowTheLibrarysNumbers() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 40), "--out", dir.filePath("r"), "--quiet"}), 0);
    MainWindow window;
    QVERIFY(window.batch()->openResults(dir.filePath("r"), true));
    window.batch()->selectRow(0);
    window.batch()->tabs()->setCurrentWidget(window.batch()->histogram());
    const auto rows = window.batch()->histogram()->rowsShown();
    QCOMPARE(rows.size(), size_t(2));  // the comparison's other row is overlaid
    for (int bins : {1, 7, 30}) {
      window.batch()->histogram()->binsBox()->setValue(bins);
      std::vector<Sample> samples;
      for (int r : rows)
        samples.push_back({"", window.batch()->queue()->entry(r).values[size_t(Metric::Tension)]});
      for (const Histogram& h : sharedHistograms(samples, bins)) {
        QCOMPARE(h.counts.size(), size_t(bins));
        QCOMPARE(h.total(), size_t(40));
      }
    }
    window.batch()->tabs()->setCurrentWidget(window.batch()->compare());
    window.batch()->selectRow(1);
    auto* view = window.batch()->compare()->view();
    auto* series = qobject_cast<QBarSeries*>(view->chart()->series().value(0));
    QVERIFY(series);
    const auto scores = scoreAll(summarizeResultsDir(dir.filePath("r").toStdString()));
    QCOMPARE(series->count(), int(scores.front().rows.size()));
    for (int r = 0; r < series->count(); ++r)
      for (size_t k = 0, bar = 0; k < scores.front().columns.size(); ++k)
        if (scores.front().scored[k])
          QCOMPARE(series->barSets()[r]->at(int(bar++)), scores.front().rows[size_t(r)].ratios[k]);
  }

  // The Tests, Detectability and Scores tabs show the analyses the CLI writes (the same library
  // code): every paired test with its Holm p, every seat's chi-square p, every score interval;
  // the Compare table marks the significant ratios; Mean ± 95 % CI shows win_ratio's interval.
  void statisticsTabsShowTheCliAnalyses() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 60), "--out", dir.filePath("r"), "--quiet"}), 0);
    MainWindow window;
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openResults(dir.filePath("r"), true));
    batch.selectRow(1);
    const auto csvRows = [&](const QString& name) {
      std::vector<QStringList> rows;
      QFile file(dir.filePath("r/" + name));
      file.open(QIODevice::ReadOnly);
      file.readLine();  // the header
      while (!file.atEnd()) rows.push_back(QString(file.readLine()).trimmed().split(','));
      return rows;
    };
    batch.tabs()->setCurrentWidget(batch.tests());
    QTableWidget* tests = batch.tests()->table();
    const auto testRows = csvRows("ludo-4hc.tests.csv");
    QVERIFY(!testRows.empty());
    QCOMPARE(tests->rowCount(), int(testRows.size()));
    for (int r = 0; r < tests->rowCount(); ++r) {
      QCOMPARE(tests->item(r, 0)->text(), testRows[size_t(r)][0]);
      QCOMPARE(tests->item(r, 1)->text(), testRows[size_t(r)][2]);
      QCOMPARE(tests->item(r, 8)->text(), pText(testRows[size_t(r)][10].toDouble()));
      QCOMPARE(tests->item(r, 9)->text().startsWith("yes"), testRows[size_t(r)][11] == "1");
    }
    batch.tabs()->setCurrentWidget(batch.detectability());
    QTableWidget* detect = batch.detectability()->table();
    const auto detectRows = csvRows("ludo-4hc.detectability.csv");
    QCOMPARE(detect->rowCount(), int(detectRows.size()));
    for (int r = 0; r < detect->rowCount(); ++r)
      QCOMPARE(detect->item(r, 6)->text(), pText(detectRows[size_t(r)][6].toDouble()));
    batch.tabs()->setCurrentWidget(batch.scores());
    QTableWidget* intervals = batch.scores()->intervals();
    const auto rankRows = csvRows("ludo-4hc.ranks.csv");
    QCOMPARE(intervals->rowCount(), int(rankRows.size()));
    for (int r = 0; r < intervals->rowCount(); ++r)
      QCOMPARE(intervals->item(r, 2)->text(),
               QString::number(rankRows[size_t(r)][2].toDouble(), 'f', 2) + " .. " +
                   QString::number(rankRows[size_t(r)][3].toDouble(), 'f', 2));
    // The score chart carries each score's interval as an error bar (one line series a bar).
    int errorBars = 0;
    for (QAbstractSeries* series : batch.scores()->chart()->view()->chart()->series())
      errorBars += series->type() == QAbstractSeries::SeriesTypeLine;
    QCOMPARE(errorBars, int(rankRows.size()));
    // Compare: a ratio is marked '*' exactly when its test is significant.
    batch.tabs()->setCurrentWidget(batch.compare());
    QTableWidget* ratios = batch.compare()->ratios();
    QCOMPARE(ratios->rowCount(), 2);
    int marks = 0;
    for (int c = 1; c < ratios->columnCount(); ++c)
      marks += ratios->item(1, c)->text().endsWith('*');
    int significant = 0;
    for (const auto& row : testRows)
      significant += row[0] == "ludo-4hc/e-hillclimber" && row[11] == "1" &&
                     !row[2].endsWith("per_round") && row[2] != "rounds" &&
                     row[2] != "decisiveness_threshold";  // reported, not scored: no ratio
    QCOMPARE(marks, significant);
    // The Compare chart carries each ratio's bootstrap interval, within 0..1 (1 = the best).
    int ratioBars = 0;
    for (QAbstractSeries* series : batch.compare()->view()->chart()->series()) {
      if (series->type() != QAbstractSeries::SeriesTypeLine) continue;
      ++ratioBars;
      for (const QPointF& p : static_cast<QLineSeries*>(series)->points())
        QVERIFY(p.y() >= 0 && p.y() <= 1.0 + 1e-12);
    }
    int scoredRatios = 0;
    for (int c = 1; c < ratios->columnCount(); ++c)
      scoredRatios += ratios->item(0, c)->text() != "–";
    QCOMPARE(ratioBars, 2 * (scoredRatios - 3));  // less score9, score4 and score_ext
    // Mean ± 95 % CI: win_ratio with its bootstrap interval, fairness never "± 0.000".
    QueueModel& queue = *batch.queue();
    queue.setStatistic(Statistic::CI);
    const QString winRatio =
        queue.data(queue.index(0, QueueModel::WinRatio), Qt::DisplayRole).toString();
    QVERIFY2(winRatio.contains("(") && winRatio.contains("–"), qPrintable(winRatio));
    const QString fairness =
        queue.data(queue.index(0, metricColumn(Metric::Fairness)), Qt::DisplayRole).toString();
    QVERIFY2(!fairness.endsWith("± 0.000") && !fairness.endsWith("± 0"), qPrintable(fairness));
    QVERIFY(
        !queue.data(queue.index(0, QueueModel::BalanceP), Qt::DisplayRole).toString().isEmpty());
  }

  // Once every game is played the status says the results are being analysed (it once read
  // "left 0:00 · running" for the ≈ 50 s of a large batch's analysis); a long status is
  // shortened in the middle, whole in its tooltip, instead of widening the window past a
  // 1024-pixel screen.
  void statusSaysAnalysingAndWraps() {
    Progress running;
    running.gamesDone = 10;
    running.gamesTotal = 40;
    running.experimentName = "ludo/e-hc";
    QVERIFY(progressText(running).contains("left"));
    QVERIFY(progressText(running).contains("ludo/e-hc"));
    Progress analysing = running;
    analysing.gamesDone = 40;
    QVERIFY2(progressText(analysing).contains("analysing"), qPrintable(progressText(analysing)));
    QVERIFY(!progressText(analysing).contains("left"));
    MainWindow window;
    window.resize(1024, 700);
    QVERIFY(showActive(window));
    auto* status = dynamic_cast<StatusLabel*>(window.batch()->statusLabel());
    QVERIFY(status);
    const QString message = QString("saved into /a/very/long/folder ").repeated(12) + "END";
    status->setText(message);
    QCoreApplication::processEvents();
    QCOMPARE(window.width(), 1024);
    QVERIFY(status->shortened());
    QVERIFY(status->shownText().endsWith("END"));  // shortened in the middle: its end is shown
    QVERIFY(status->fontMetrics().horizontalAdvance(status->shownText()) <= status->width());
    QVERIFY(status->height() < 3 * status->fontMetrics().height());  // one line, not a block
    status->repaint();
    QCOMPARE(status->toolTip(), message);
  }

  // A row of a comparison without results yet is told why its comparison has no analysis, not
  // that it belongs to none (the Tests and Detectability tabs once said so for every row).
  void analysisTabsNameTheRowsComparison() {
    QTemporaryDir dir;
    const QString batchFile = smallBatch(dir, 10);
    const Batch parsed = loadBatch(batchFile.toStdString());
    const std::string comparison = parsed.experiments.at(0).comparison;
    QVERIFY(!comparison.empty());
    MainWindow window;
    BatchMode& batch = *window.batch();
    QVERIFY(batch.openBatch(batchFile, true));
    batch.selectRow(0);
    for (AnalysisTable* tab : std::initializer_list<AnalysisTable*>{batch.tests(),
                                                                     batch.detectability()}) {
      batch.tabs()->setCurrentWidget(tab);
      QVERIFY2(!tab->caption().contains("belongs to no comparison"), qPrintable(tab->caption()));
      QVERIFY2(tab->caption().contains(QString::fromStdString(comparison)),
               qPrintable(tab->caption()));
    }
  }

  // At 1024 x 700 the Compare chart (two rows, error bars, the title's second line) leaves its
  // plot tall enough for the whole y-axis title and bars that can be read (it once read "Rati…"
  // over bars about 45 pixels tall), and every metric's name whole (slanted: upright they were
  // cut to "Lead ch…", "Believab…"; the slant costs the plot about 45 pixels).
  void compareChartFitsA1024x700Window() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 12), "--out", dir.filePath("r"), "--quiet"}), 0);
    const auto window = smallWindowShowing(dir.filePath("r"), 1, compareTab);
    QVERIFY(window);
    QChart* chart = window->batch()->compare()->view()->chart();
    QVERIFY(chart->title().contains("error bars"));  // the analysis is there
    checkPlotHeight(chart, 100);
    checkNoTextCut(*chart);  // the metric names were "Lead ch…", "Believab…", "Decisive…"
  }

  // A legend click hides a row's bars and its error bars (Compare and Scores), a second click
  // shows both; the rows' colours are Okabe and Ito's colour-blind-safe ones, e-random and
  // e-hillclimber blue and orange (they were red and brown).
  void legendHidesErrorBarsToo() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 12), "--out", dir.filePath("r"), "--quiet"}), 0);
    const auto window = smallWindowShowing(dir.filePath("r"), 1, compareTab);
    QVERIFY(window);
    BatchMode& batch = *window->batch();
    const QSet<QString> okabeIto = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                    "#56b4e9", "#d55e00", "#f0e442"};
    for (QWidget* tab :
         {static_cast<QWidget*>(batch.compare()), static_cast<QWidget*>(batch.scores())}) {
      batch.tabs()->setCurrentWidget(tab);
      QChart* chart = tab == batch.compare() ? batch.compare()->view()->chart()
                                             : batch.scores()->chart()->view()->chart();
      auto* bars = qobject_cast<QBarSeries*>(chart->series().value(0));
      QVERIFY(bars && bars->count() == 2);
      QCOMPARE(bars->barSets()[0]->color().name(), QString("#0072b2"));  // e-random
      QCOMPARE(bars->barSets()[1]->color().name(), QString("#e69f00"));  // e-hillclimber
      for (QBarSet* set : bars->barSets()) QVERIFY(okabeIto.contains(set->color().name()));
      const auto errorBars = [&](QBarSet* set, bool visible) {
        int count = 0;
        for (QAbstractSeries* s : chart->series())
          if (followed(s) == set) count += s->isVisible() == visible;
        return count;
      };
      const int each = errorBars(bars->barSets()[0], true);
      QVERIFY(each > 0);
      QLegendMarker* first = chart->legend()->markers(bars).front();
      emit first->clicked();
      QCOMPARE(errorBars(bars->barSets()[0], false), each);
      QVERIFY(errorBars(bars->barSets()[1], true) > 0);
      emit first->clicked();
      QCOMPARE(errorBars(bars->barSets()[0], true), each);
    }
  }

  // Export starts in the person's documents folder (it started in "/") and offers a paper
  // figure's size (it offered the widget's); the image has the size chosen.
  void exportStartsInDocumentsAtAPaperSize() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 12), "--out", dir.filePath("r"), "--quiet"}), 0);
    QSettings().remove("folders/charts");
    QSettings().remove("charts/size");
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QVERIFY(QDir().mkpath(documents));
    const auto window = smallWindowShowing(dir.filePath("r"), 1, compareTab);
    QVERIFY(window);
    BatchMode& batch = *window->batch();
    QString started, offered;
    const QString file = dir.filePath("compare.png");
    DialogScript script({[&](QDialog* d) {
                           auto* files = qobject_cast<QFileDialog*>(d);
                           QVERIFY(files);
                           started = files->directory().absolutePath();
                           files->selectFile(file);
                           click(d, "Save");
                         },
                         [&](QDialog* d) {
                           auto* input = qobject_cast<QInputDialog*>(d);
                           QVERIFY(input);
                           offered = input->textValue();
                           input->accept();
                         }});
    batch.compare()->exportChart("png");
    QCOMPARE(script.unexpected, size_t(0));
    QCOMPARE(started, QDir(documents).absolutePath());
    QCOMPARE(offered, QString("1600x1000"));
    QCOMPARE(QImage(file).size(), QSize(1600, 1000));
  }

  // A sweep of three axes: the heat map over two of them draws a panel per value of the third,
  // every panel answers on hover, and the best cell is chosen over all of them and named with
  // its panel (it was once taken from the first slice, which alone was drawn).
  void heatMapOfThreeAxesShowsEveryPanel() {
    SweepTable table;
    table.axes = {"a", "b", "c"};
    table.columns = {"score9"};
    for (int a : {0, 1})
      for (int b : {0, 1, 2})
        for (int c : {10, 20, 30}) {
          SweepRow row;
          row.series = "s";
          row.point = {{"a", a}, {"b", b}, {"c", c}};
          const double value = a + b + (c == 20 ? 5 : c / 10.0);  // the best: a=1, b=2, c=20
          row.values = {SweepValue{value, value - 0.5, value + 0.5}};
          table.rows.push_back(row);
        }
    HeatMap map;
    map.resize(900, 520);
    map.show(table, 0, "s", "a", "b");
    QCOMPARE(map.panelTitles(), (std::vector<QString>{"c=10", "c=20", "c=30"}));
    QVERIFY(map.best());
    QCOMPARE(map.best()->x, QString("1"));
    QCOMPARE(map.best()->y, QString("2"));
    QCOMPARE(map.best()->slice, QString("c=20"));
    QSet<QString> hovered;
    for (int x = 0; x < map.width(); x += 6)
      for (int y = 0; y < map.height(); y += 6)
        if (const QString text = map.cellText({x, y}); !text.isEmpty())
          hovered.insert(text.section(": ", 0, 0));
    QCOMPARE(hovered.size(), 18);  // 2 x 3 cells in each of 3 panels
    QVERIFY(hovered.contains("a=1, b=2, c=20"));
    // The export draws them all: the best cell's outline and a cell of the last panel.
    QTemporaryDir dir;
    QVERIFY(saveWidget(map, dir.filePath("heat.png"), QSize(900, 520)));
    QVERIFY(!QImage(dir.filePath("heat.png")).isNull());
  }

  // On a 1280 x 800 screen (run under Xvfb) the window and the settings dialog fit: the window
  // opened at 1400 x 900, the dialog at 720 pixels (its buttons off a 700-pixel screen).
  void windowAndDialogFitTheScreen() {
    QSettings().remove("window/geometry");
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QRect screen = window.screen()->availableGeometry();
    QVERIFY2(window.frameGeometry().width() <= screen.width() &&
                 window.frameGeometry().height() <= screen.height(),
             qPrintable(QString("window %1 x %2 on a screen of %3 x %4")
                            .arg(window.frameGeometry().width())
                            .arg(window.frameGeometry().height())
                            .arg(screen.width())
                            .arg(screen.height())));
    ExperimentDialog dialog(&window);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY2(dialog.height() <= 660, qPrintable(QString("dialog %1 px").arg(dialog.height())));
    auto* buttons = dialog.findChild<QDialogButtonBox*>();
    QVERIFY(buttons && buttons->isVisible());
    QVERIFY(buttons->mapTo(&dialog, QPoint(0, buttons->height())).y() <= dialog.height());
  }

  // At 1024 x 700 with two comparisons (the chart's title then carries the "mean" and error-bar
  // notes) the Scores tab's plot stays tall enough for its whole axis title (it was once left
  // about 40 pixels, the title cut to "Sc...").
  void scoresChartFitsA1024x700Window() {
    QTemporaryDir dir;
    Json document = Json::parse(std::ifstream(smallBatch(dir, 12).toStdString()));
    Json& experiments = document.at("experiments");
    for (Json e : Json(experiments)) {  // the same rows again as a second comparison
      const std::string name = e.at("name");
      e["comparison"] = "other";
      e["name"] = "other/" + name.substr(name.find('/') + 1);
      experiments.push_back(e);
    }
    const QString batchFile = dir.filePath("two.json");
    std::ofstream(batchFile.toStdString()) << document.dump(2);
    QCOMPARE(runCli({"run", batchFile, "--out", dir.filePath("r"), "--quiet"}), 0);
    const auto window = smallWindowShowing(dir.filePath("r"), 1, scoresTab);
    QVERIFY(window);
    checkPlotHeight(window->batch()->scores()->chart()->view()->chart(), 0);
  }

  // An empty queue shows the start page: its buttons open the shipped quick comparison and the
  // game mode (marked in the menu); Help has the shortcuts and About with the version.
  void startPageAndHelpTeach() {
    MainWindow window;
    window.show();
    auto* start = window.findChild<StartPage*>();
    QVERIFY(start && start->isVisible());
    const auto button = [&](const QString& prefix) -> QPushButton* {
      for (QPushButton* b : start->findChildren<QPushButton*>())
        if (b->text().contains(prefix)) return b;
      return nullptr;
    };
    QVERIFY(button("quick comparison") && button("thesis study") && button("Play a game"));
    QTest::mouseClick(button("quick comparison"), Qt::LeftButton);
    QCOMPARE(window.batch()->queue()->rowCount(), 2);
    QVERIFY(!start->isVisible());  // the queue replaces it
    QVERIFY(actionNamed(window, "Batch mode")->isChecked());
    window.batch()->newQueue();  // saved as the file says: no question
    QVERIFY(start->isVisible());
    QTest::mouseClick(button("Play a game"), Qt::LeftButton);
    QVERIFY(actionNamed(window, "Game mode")->isChecked());
    QVERIFY(!actionNamed(window, "Batch mode")->isChecked());
    {
      DialogScript script({press("OK")});
      actionNamed(window, "About ddalab")->trigger();
      QCOMPARE(script.seen.size(), 1);
      QVERIFY2(script.seen[0].contains("ddalab " DDALAB_VERSION), qPrintable(script.seen[0]));
    }
    {
      DialogScript script({press("Close")});
      actionNamed(window, "Keyboard shortcuts")->trigger();
      QCOMPARE(script.seen.size(), 1);
      for (const QString key : {"F5", "Ctrl+Z", "Ctrl+E", "Ctrl+G"})
        QVERIFY2(script.seen[0].contains(key), qPrintable(key));
    }
    // No two actions share a shortcut: Qt would run neither. (The platform's standard keys are
    // empty on the offscreen platform; on X11 Save batch as… is Ctrl+Shift+S, which the CSVs'
    // Save… and Save game… both had.)
    std::map<QString, QString> owner;
    for (const QAction* a : window.findChildren<QAction*>())
      for (const QKeySequence& key : a->shortcuts()) {
        const auto [at, fresh] = owner.emplace(key.toString(), a->text());
        QVERIFY2(fresh, qPrintable(key.toString() + ": " + at->second + " and " + a->text()));
      }
  }

  // Bad input to ddalab-gui without a person is refused as the CLI refuses it: exit 2 and
  // "error: FILE[:line]: ..." on stderr (a trace with no players used to crash the replay; an
  // unknown view rendered something and exited 0).
  void headlessRefusesBadInput() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 1), "--out", dir.filePath("r"), "--trace",
                     dir.filePath("t"), "--trace-detail", "--quiet"}),
             0);
    const QString trace = dir.filePath("t/ludo-4hc__e-random.trace.jsonl");
    const Json good = Json::parse(std::ifstream(trace.toStdString()));
    const auto variant = [&](const QString& name, const std::function<void(Json&)>& change) {
      Json line = good;
      change(line);
      const QString file = dir.filePath(name);
      std::ofstream(file.toStdString()) << line.dump() << "\n";
      return file;
    };
    const auto gui = [&](const QStringList& arguments) {
      QProcess process;
      process.start(kGui, arguments);
      process.waitForFinished(60'000);
      return std::pair(process.exitCode(), QString(process.readAllStandardError()));
    };
    const QString png = dir.filePath("shot.png");
    const auto refused = [&](const QStringList& arguments, const QStringList& says) {
      const auto [code, error] = gui(arguments);
      QCOMPARE(code, 2);
      for (const QString& text : says)
        QVERIFY2(error.contains(text), qPrintable(text + " not in: " + error));
      QVERIFY(!QFileInfo::exists(png));
    };
    refused({"--screenshot", png, "--view", "no-such-view"}, {"error: ", "queue", "replay"});
    refused({"--no-such-option"}, {"error: ", "no-such-option"});
    refused({"--screenshot", png, "--view", "settings"}, {"error: --view settings", "--open"});
    QProcess help;  // --view takes plug-in games; --rounds says the game plays on to the person
    help.start(kGui, {"--help"});
    QVERIFY(help.waitForFinished(60'000));
    const QString usage = QString(help.readAllStandardOutput()).simplified();
    for (const QString text : {"plug-in games included", "plays on to the person's turn"})
      QVERIFY2(usage.contains(text), qPrintable(text + " not in: " + usage));
    const QString noPlayers =
        variant("no-players.jsonl", [](Json& line) { line["players"] = Json::array(); });
    refused({"--screenshot", png, "--view", "replay", "--open", noPlayers},
            {"error: " + noPlayers + ":1", "$.players", "expected 4"});
    const QString longGains = variant("long-gains.jsonl", [](Json& line) {
      for (int i = 0; i < 3; ++i) line["rounds"][0]["gains"].push_back(1.0);
    });
    refused({"--screenshot", png, "--view", "replay", "--open", longGains},
            {longGains + ":1", "$.rounds[0].gains"});
    refused({"--screenshot", png, "--open", dir.filePath("missing.json")}, {"missing.json"});
    // A damaged games CSV: the file and the line.
    const QString games = dir.filePath("r/ludo-4hc__e-random.games.csv");
    QFile csv(games);
    QVERIFY(csv.open(QIODevice::Append));
    csv.write("not,a,game\n");
    csv.close();
    const auto [code, error] =
        gui({"--export-charts", dir.filePath("r"), "--out", dir.filePath("c")});
    QCOMPARE(code, 2);
    QVERIFY2(error.contains("error: ") && error.contains("ludo-4hc__e-random.games.csv:"),
             qPrintable(error));
    // The good trace still renders.
    QCOMPARE(gui({"--screenshot", png, "--view", "replay", "--open", trace}).first, 0);
  }

  // --screenshot and --export-charts write as the CLI writes (core/file_io.h): onto a FIFO
  // the screenshot once blocked forever, through a symbolic link it overwrote the link's target;
  // both are refused (exit 2, the file and what it is), the link and its target left as they are.
  void headlessWritesOnlyRegularFiles() {
    QTemporaryDir dir;
    const auto gui = [&](const QStringList& arguments) {
      QProcess process;
      process.start(kGui, arguments);
      if (!process.waitForFinished(60'000)) {  // blocked: the test fails, the process is ended
        process.kill();
        process.waitForFinished();
        return std::pair(-1, QString("blocked"));
      }
      return std::pair(process.exitCode(), QString(process.readAllStandardError()));
    };
    const QString fifo = dir.filePath("shot.png");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0644), 0);
    {
      const auto [code, error] = gui({"--screenshot", fifo, "--view", "queue"});
      QCOMPARE(code, 2);
      QVERIFY2(error.contains(fifo) && error.contains("FIFO"), qPrintable(error));
    }
    const auto fileBytes = [](const QString& file) {
      QFile f(file);
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QString target = dir.filePath("target.txt");
    const auto keep = [&](const QString& file) {
      QFile f(file);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("keep me");
    };
    keep(target);
    const QString link = dir.filePath("link.png");
    QVERIFY(QFile::link(target, link));
    {
      const auto [code, error] = gui({"--screenshot", link, "--view", "queue"});
      QCOMPARE(code, 2);
      QVERIFY2(error.contains(link) && error.contains("symbolic link"), qPrintable(error));
      QVERIFY(QFileInfo(link).isSymLink());
      QCOMPARE(fileBytes(target), QByteArray("keep me"));
    }
    // A chart export onto a link in the charts folder: refused, nothing written through it.
    QCOMPARE(runCli({"run", smallBatch(dir, 2), "--out", dir.filePath("r"), "--quiet"}), 0);
    QProcess list;  // the first chart it writes
    list.start(kGui, {"--export-charts", dir.filePath("r"), "--out", dir.filePath("first")});
    QVERIFY(list.waitForFinished(60'000));
    QCOMPARE(list.exitCode(), 0);
    const QString firstChart =
        QFileInfo(QString(list.readAllStandardOutput()).split('\n').front()).fileName();
    QVERIFY(!firstChart.isEmpty());
    QVERIFY(QDir().mkpath(dir.filePath("charts")));
    QVERIFY(QFile::link(target, dir.filePath("charts/" + firstChart)));
    const auto [code, error] =
        gui({"--export-charts", dir.filePath("r"), "--out", dir.filePath("charts")});
    QCOMPARE(code, 2);
    QVERIFY2(error.contains(firstChart) && error.contains("symbolic link"), qPrintable(error));
    QCOMPARE(fileBytes(target), QByteArray("keep me"));
    QVERIFY(QFileInfo(dir.filePath("charts/" + firstChart)).isSymLink());
  }

  // --seed and --rounds take whole numbers: "abc", "-1" and "3.5" are refused naming the option
  // (they were read as 0 and a screenshot written).
  void numberOptionsRefuseOtherText() {
    QTemporaryDir dir;
    const QString png = dir.filePath("shot.png");
    for (const QString option : {"--seed", "--rounds"})
      for (const QString value : {"abc", "-1", "3.5", ""}) {
        QProcess process;
        process.start(kGui, {"--screenshot", png, "--view", "ludo", option, value});
        QVERIFY(process.waitForFinished(60'000));
        const QString error = process.readAllStandardError();
        QVERIFY2(process.exitCode() == 2, qPrintable(option + " " + value + ": " + error));
        QVERIFY2(error.contains("error: " + option) && error.contains("whole number"),
                 qPrintable(error));
        QVERIFY(!QFileInfo::exists(png));
      }
    for (const QString value : {"abc", "0,x", "-1", "1.5"}) {
      QProcess process;
      process.start(kGui, {"--screenshot", png, "--view", "queue", "--select", value});
      QVERIFY(process.waitForFinished(60'000));
      const QString error = process.readAllStandardError();
      QVERIFY2(process.exitCode() == 2 && error.contains("error: --select"),
               qPrintable(value + ": " + error));
      QVERIFY(!QFileInfo::exists(png));
    }
    for (const QString value : {"abc", "0", "-3", "inf"}) {
      QProcess process;
      process.start(kGui, {"--probe-latency", "x.json", "--seconds", value});
      QVERIFY(process.waitForFinished(60'000));
      const QString error = process.readAllStandardError();
      QVERIFY2(process.exitCode() == 2 && error.contains("error: --seconds"),
               qPrintable(value + ": " + error));
    }
    QProcess good;
    good.start(kGui, {"--screenshot", png, "--view", "ludo", "--seed", "18446744073709551615",
                      "--rounds", "2"});
    QVERIFY(good.waitForFinished(60'000));
    QCOMPARE(good.exitCode(), 0);
    QVERIFY(QFileInfo::exists(png));
  }

  // --export-charts writes every expected chart as a non-blank PNG of the requested size.
  void exportChartsWritesImages() {
    QTemporaryDir dir;
    QCOMPARE(runCli({"run", smallBatch(dir, 20), "--out", dir.filePath("r"), "--quiet"}), 0);
    QProcess gui;
    gui.start(kGui, {"--export-charts", dir.filePath("r"), "--out", dir.filePath("charts"),
                     "--size", "800x500", "--svg"});
    QVERIFY(gui.waitForFinished(120'000));
    QCOMPARE(gui.exitCode(), 0);
    const QString noise = gui.readAllStandardError();
    QVERIFY2(noise.isEmpty(), qPrintable("--export-charts printed: " + noise));
    QStringList expected = {"ludo-4hc.compare", "scores.table8", "scores.table9", "scores.ext"};
    for (const auto& m : allMetrics())
      expected << "ludo-4hc.histogram." + QString::fromStdString(std::string(m.key));
    for (const QString& stem : expected) {
      const QImage image(dir.filePath("charts/" + stem + ".png"));
      QVERIFY2(!image.isNull(), qPrintable(stem));
      QCOMPARE(image.size(), QSize(800, 500));
      QSet<QRgb> colours;
      for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
      QVERIFY2(colours.size() > 5, qPrintable(stem + " looks blank"));
      QVERIFY(QFileInfo(dir.filePath("charts/" + stem + ".svg")).size() > 1000);
    }
  }

  // A swept batch's results in the Sweep tab: the line chart draws a line and a band per
  // experiment and value of the other axis with the table's numbers; the heat map shows each
  // cell's value and interval on hover and outlines the best; the choices are made with the
  // keyboard; --export-charts writes both charts.
  void sweepTabShowsLinesAndHeatMap() {
    QTemporaryDir dir;
    const QString batch = dir.filePath("swept.json");
    Json e1 = {{"name", "c/e-random"},
               {"comparison", "c"},
               {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
               {"players", {{{"id", "hillclimber"}, {"level", 50}}, {{"id", "hillclimber"}}}},
               {"environment", {{"id", "e-random"}}},
               {"coefficients", {{"believability", 1000}, {"tension", 10}}},
               {"iterations", 12}};
    Json e2 = e1;
    e2["name"] = "c/e-hc";
    e2["environment"] = {{"id", "e-hillclimber"}};
    e2["sweep"] = {{{"path", "environment.params.random_prob"}, {"values", {0, 0.5, 1}}},
                   {{"path", "coefficients.tension"}, {"values", {0, 10}}}};
    std::ofstream(batch.toStdString())
        << Json{{"format", "ddalab-batch/1"}, {"seed", 3}, {"experiments", {e1, e2}}}.dump();
    QCOMPARE(runCli({"run", batch, "--out", dir.filePath("r"), "--quiet"}), 0);
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    QVERIFY(window.batch()->openResults(dir.filePath("r"), true));
    SweepView& sweep = *window.batch()->sweep();
    window.batch()->tabs()->setCurrentWidget(&sweep);
    const SweepTable table = queueSweepTable(*window.batch()->queue(), {});
    QCOMPARE(table.rows.size(), size_t(12));  // 6 points x 2 rows
    QCOMPARE(sweep.columnBox()->currentText(), QString("score9"));
    // Line chart against random_prob: per series and tension value a line and its band.
    sweep.xBox()->setFocus();
    sweep.xBox()->setCurrentText("random_prob");
    QChart* chart = sweep.lineView()->chart();
    QList<QLineSeries*> lines;
    for (QAbstractSeries* s : chart->series())
      if (auto* line = qobject_cast<QLineSeries*>(s)) lines << line;
    QCOMPARE(lines.size(), 4);  // e-random and e-hc, tension 0 and 10
    const size_t score9 = *table.column("score9");
    int compared = 0;
    for (QLineSeries* line : lines) {
      QCOMPARE(line->count(), 3);
      for (const SweepRow& r : table.rows)
        if (line->name().startsWith(QString::fromStdString(r.series).section('/', -1) + ",") &&
            line->name().endsWith("=" + QString::fromStdString(r.point.at("tension").dump()))) {
          QVERIFY(std::abs(line->at(int(r.point.at("random_prob").get<double>() * 2)).y() -
                           r.values[score9]->value) < 1e-9);
          ++compared;
        }
    }
    QCOMPARE(compared, 12);  // every grid point of every row found on its line
    // A click on a line's legend entry hides the line and its band, a second shows them again.
    QLegendMarker* marker = chart->legend()->markers(lines.front()).front();
    const auto band = [&] {
      for (QAbstractSeries* s : chart->series())
        if (followed(s) == lines.front()) return s;
      return static_cast<QAbstractSeries*>(nullptr);
    };
    QVERIFY(band() && band()->isVisible());
    emit marker->clicked();
    QVERIFY(!lines.front()->isVisible() && !band()->isVisible());
    QVERIFY(lines.back()->isVisible());
    emit marker->clicked();
    QVERIFY(lines.front()->isVisible() && band()->isVisible());
    // The heat map, chosen by keyboard: the best cell is outlined, a cell tells its numbers.
    sweep.kindBox()->setFocus();
    QTest::keyClick(sweep.kindBox(), Qt::Key_Down);
    QCOMPARE(sweep.kindBox()->currentText(), QString("Heat map"));
    QCOMPARE(sweep.seriesBox()->currentText(), QString("c/e-hc"));  // not the reference row
    HeatMap& map = *sweep.heatMap();
    QVERIFY(map.isVisible());
    QVERIFY(map.best());
    const QString corner = map.cellText(QPoint(map.width() / 2, map.height() / 2));
    QVERIFY2(corner.contains("random_prob=") && corner.contains("95 %:"), qPrintable(corner));
    QVERIFY(map.cellText(QPoint(2, 2)).isEmpty());
    // A metric that is better lower marks its smallest cell.
    sweep.columnBox()->setCurrentText("tension");
    double smallest = INFINITY;
    const size_t tension = *table.column("tension");
    for (const SweepRow& r : table.rows)
      if (r.series == "c/e-hc") smallest = std::min(smallest, r.values[tension]->value);
    bool found = false;
    for (const SweepRow& r : table.rows)
      if (r.series == "c/e-hc" && r.values[tension]->value == smallest)
        found =
            found || (map.best()->x == QString::fromStdString(r.point.at("random_prob").dump()) &&
                      map.best()->y == QString::fromStdString(r.point.at("tension").dump()));
    QVERIFY(found);
    // --export-charts writes the line chart per axis and the heat map per series.
    QProcess gui;
    gui.start(kGui, {"--export-charts", dir.filePath("r"), "--out", dir.filePath("charts"),
                     "--size", "800x500", "--svg"});
    QVERIFY(gui.waitForFinished(120'000));
    QCOMPARE(gui.exitCode(), 0);
    for (const QString stem :
         {"sweep.line.score9.random_prob", "sweep.line.score9.tension",
          "sweep.heatmap.score9.c__e-hc", "sweep.heatmap.score9.c__e-random"}) {
      const QImage image(dir.filePath("charts/" + stem + ".png"));
      QVERIFY2(!image.isNull(), qPrintable(stem));
      QCOMPARE(image.size(), QSize(800, 500));
      QVERIFY(QFileInfo(dir.filePath("charts/" + stem + ".svg")).size() > 1000);
    }
    // Other columns of sweep.csv by name; a column it does not have is refused with the list.
    gui.start(kGui, {"--export-charts", dir.filePath("r"), "--out", dir.filePath("other"),
                     "--sweep-column", "tension", "--sweep-column", "tension_vs_random"});
    QVERIFY(gui.waitForFinished(120'000));
    QCOMPARE(gui.exitCode(), 0);
    for (const QString stem : {"sweep.line.tension.random_prob", "sweep.heatmap.tension.c__e-hc",
                               "sweep.line.tension_vs_random.tension"})
      QVERIFY2(!QImage(dir.filePath("other/" + stem + ".png")).isNull(), qPrintable(stem));
    QVERIFY(!QFileInfo::exists(dir.filePath("other/sweep.line.score9.tension.png")));
    gui.start(kGui, {"--export-charts", dir.filePath("r"), "--out", dir.filePath("other"),
                     "--sweep-column", "tention"});
    QVERIFY(gui.waitForFinished(120'000));
    QCOMPARE(gui.exitCode(), 2);
    const QString refusal = gui.readAllStandardError();
    QVERIFY2(refusal.contains("--sweep-column: no column 'tention' in sweep.csv; valid: rounds,"),
             qPrintable(refusal));
  }

  // The window answers while a batch runs on every core: the event loop keeps turning and a
  // click is handled at once.
  void windowAnswersDuringRun() {
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(window.batch()->openBatch(smallBatch(dir, 100000), true));
    window.batch()->setThreads(0);
    QSignalSpy finished(window.batch(), &BatchMode::runFinished);
    window.batch()->start();
    QElapsedTimer clock;
    clock.start();
    qint64 worst = 0, last = 0;
    while (clock.elapsed() < 1500) {
      QTest::qWait(10);
      worst = std::max(worst, clock.elapsed() - last);
      last = clock.elapsed();
    }
    window.batch()->tabs()->setCurrentIndex(1);  // a person clicks a tab
    QCOMPARE(window.batch()->tabs()->currentIndex(), 1);
    QElapsedTimer stopClock;
    stopClock.start();
    window.batch()->stop();
    QVERIFY(!waitForRun(window, finished));
    qInfo("longest event-loop gap during the run: %lld ms; stop took %lld ms", worst,
          stopClock.elapsed());
    QVERIFY2(worst < 500, "the event loop stalled");
    QVERIFY(stopClock.elapsed() < 5000);
  }

  // The real window (run under Xvfb): add an experiment with the mouse, run it, close.
  void smokeRealWindow() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    clickToolButton(window, "Add");
    QCOMPARE(window.batch()->queue()->rowCount(), 1);
    QSignalSpy finished(window.batch(), &BatchMode::runFinished);
    clickToolButton(window, "Start");
    QVERIFY(waitForRun(window, finished));
    QVERIFY(window.batch()->queue()->entry(0).games() ==
            size_t(window.batch()->queue()->entry(0).label.plannedIterations));
    // The queue was never saved: closing asks, and "Quit" closes.
    DialogScript script({press("Quit")});
    QVERIFY(window.close());
    QCOMPARE(script.seen.size(), 1);
  }
};

QTEST_MAIN(GuiTest)
#include "test_gui.moc"
