// ddalab-gui, the Ratings tab: the rating ladder, the level curves and the balance curves drawn
// from tables made by hand, checked for what a person sees (the order, the anchor, the intervals,
// the marks, the band, the legend's words, the axes); and the careless paths: a folder with only
// ratings.csv, an empty table, a cell that is not a finite number (said, never a crash), a folder
// without tables (no tab).
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "app/gui/batch/batch_mode.h"
#include "app/gui/batch/ratings_view.h"
#include "app/gui/charts/charts.h"
#include "app/gui/charts/rating_charts.h"
#include "app/gui/headless.h"
#include "app/gui/main_window.h"
#include "experiments/run_service.h"
#include "tests/app/gui/gui_support.h"
#include "tests/app/gui/rating_tables_support.h"

using namespace ddalab;
using namespace ddalab::gui;

namespace {

// The series of `chart` named `name` (legend entries only carry the first of a kind's name).
QList<QAbstractSeries*> named(QChart* chart, const QString& name) {
  QList<QAbstractSeries*> found;
  for (QAbstractSeries* s : chart->series())
    if (s->name() == name) found << s;
  return found;
}

// How many series of `chart` follow `owner` (a kind's bars after its first, a line's bands).
int followers(QChart* chart, QAbstractSeries* owner) {
  int n = 0;
  for (QAbstractSeries* s : chart->series()) n += followed(s) == owner;
  return n;
}

QValueAxis* valueAxisOf(QChart* chart, Qt::Orientation orientation) {
  return qobject_cast<QValueAxis*>(chart->axes(orientation).front());
}

// A chart shown as a person sees it, in a view of 1024 x 700 pixels (its legend laid out).
class Shown {
 public:
  explicit Shown(QChart* chart) : view_(std::make_unique<QChartView>(chart)) {
    view_->resize(1024, 700);
    view_->show();
    QApplication::processEvents();
  }
  QChart* operator->() const { return view_->chart(); }
  operator QChart*() const { return view_->chart(); }

 private:
  std::unique_ptr<QChartView> view_;
};

// The names the legend shows, in order.
QStringList legendNames(QChart* chart) {
  QStringList names;
  for (QLegendMarker* m : chart->legend()->markers())
    if (m->isVisible()) names << m->label();
  return names;
}

// A results folder of two games per row (a run of quick.json) with the tables `files` added.
QString resultsFolder(const QTemporaryDir& dir,
                      const std::vector<std::pair<QString, std::string>>& files) {
  const QString folder = dir.filePath("r");
  RunRequest request;
  request.batch = loadBatch(smallBatch(dir, 2).toStdString());
  request.out = folder.toStdString();
  request.threads = 1;
  RunControl control;
  if (!runToFolder(request, {}, control).complete) qFatal("the small batch did not run");
  for (const auto& [name, text] : files) writeTable(folder, name, text);
  return folder;
}

bool ratingsTabShown(MainWindow& window) {
  QTabWidget& tabs = *window.batch()->tabs();
  return tabs.isTabVisible(tabs.indexOf(window.batch()->ratings()));
}

}  // namespace

class RatingsTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void init() { QSettings().clear(); }

  // The ladder: the entrants from the lowest rating (bottom) to the highest (top), the anchor's
  // name says so and a star marks it, an interval bar of each kind per entrant but the anchor,
  // the x axis holds every interval, the first-seat advantage stated with its interval.
  void ladderSortsEntrantsAndMarksTheAnchor() {
    const RatingTablesRead tables = handMadeTables();
    const Shown chart(ratingLadderChart(tables));
    auto* y = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).front());
    QVERIFY(y);
    QCOMPARE(y->categoriesLabels(),
             (QStringList{"posm-player", "random (anchor)", "hillclimber@50", "hillclimber@100"}));
    QCOMPARE(y->endValue("hillclimber@100"), 3.0);
    QVERIFY(!y->labelsTruncated());  // every name read in full
    auto* anchor = qobject_cast<QScatterSeries*>(named(chart, kAnchorSeries).value(0));
    QVERIFY(anchor);
    QCOMPARE(anchor->count(), 1);
    QCOMPARE(anchor->at(0), QPointF(0, 1));  // the anchor's rating on its row
    auto* points = qobject_cast<QScatterSeries*>(named(chart, kRatingSeries).value(0));
    QCOMPARE(points->count(), 3);
    QAbstractSeries* information = named(chart, kInformationInterval).value(0);
    QAbstractSeries* bootstrap = named(chart, kBootstrapInterval).value(0);
    QVERIFY(information && bootstrap);
    QCOMPARE(followers(chart, information), 2);  // three entrants with an interval
    QCOMPARE(followers(chart, bootstrap), 2);
    auto* bar = static_cast<QLineSeries*>(information);  // the lowest entrant's, on row 0
    QCOMPARE(bar->at(0), QPointF(-170, 0));
    QCOMPARE(bar->at(1), QPointF(-70, 0));
    QValueAxis* x = valueAxisOf(chart, Qt::Horizontal);
    QVERIFY(x->min() <= -120 - 70 && x->max() >= 410 + 60);  // the widest bootstrap bars fit
    QVERIFY(x->max() - x->min() <= 1000);                    // and are not lost in the axis
    QVERIFY2(chart->title().contains("first-seat advantage +35 Elo (+20 to +50)"),
             qPrintable(chart->title()));
    QCOMPARE(legendNames(chart),
             (QStringList{kInformationInterval, kBootstrapInterval, kRatingSeries, kAnchorSeries}));
  }

  // Level curves: a line per curve in the colours of the experiments, a band and bootstrap error
  // bars following each line, the flat step and the fall marked where they are and counted; a
  // curve over 10 to 10000 iterations on a log scale.
  void levelCurvesMarkFlatAndFallingSteps() {
    const RatingTablesRead tables = handMadeTables();
    const Shown chart(levelCurvesChart(tables.curves, {"hillclimber"}));
    auto* line = qobject_cast<QLineSeries*>(named(chart, "hillclimber").value(0));
    QVERIFY(line);
    QCOMPARE(line->count(), 4);
    QCOMPARE(line->at(3), QPointF(100, 120));
    QVERIFY(named(chart, "mcts").isEmpty());  // only the curve asked for
    QCOMPARE(followers(chart, line), 1 + 4);  // its band and four error bars
    auto* flat = qobject_cast<QScatterSeries*>(named(chart, kFlatSeries).value(0));
    auto* falls = qobject_cast<QScatterSeries*>(named(chart, kFallsSeries).value(0));
    QVERIFY(flat && falls);
    QCOMPARE(flat->points(), (QList<QPointF>{{75, 160}}));
    QCOMPARE(falls->points(), (QList<QPointF>{{100, 120}}));
    QVERIFY2(chart->title().contains("flat at 1 point, falls at 1"), qPrintable(chart->title()));
    QValueAxis* x = valueAxisOf(chart, Qt::Horizontal);
    QVERIFY(x && x->min() <= 10 && x->max() >= 100 && x->max() < 200);
    QValueAxis* y = valueAxisOf(chart, Qt::Vertical);
    QVERIFY(y->min() <= -50 && y->max() >= 210);  // the bootstrap bars (±50) fit

    const Shown budget(levelCurvesChart(tables.curves, {"mcts"}));
    auto* log = qobject_cast<QLogValueAxis*>(budget->axes(Qt::Horizontal).front());
    QVERIFY(log);
    QVERIFY(log->min() < 10 && log->max() > 10000);
    QVERIFY(budget->axes(Qt::Horizontal).front()->titleText().contains("log scale"));
    // Neither flat nor falling: no mark in the legend.
    QVERIFY(!legendNames(budget).contains(kFlatSeries));

    const Shown both(levelCurvesChart(tables.curves));
    QCOMPARE(legendNames(both).mid(0, 2), (QStringList{"hillclimber", "mcts"}));
  }

  // Balance curves: a line per condition named with its balanced range and mean distance, its
  // win rates' intervals as error bars, the band shaded from 0.4 to 0.6 across the chart, the
  // even share dashed at 0.5, the win rate from 0 to 1.
  void balanceCurvesShadeTheBandAndStateTheRanges() {
    const RatingTablesRead tables = handMadeTables();
    const Shown chart(balanceChart(tables.balance, tables.balanceSummaries));
    const QString posm = balanceLegendText(tables.balanceSummaries[1]);
    QCOMPARE(posm, QString("POSM: balanced \u2212300 to +300 Elo<br>mean distance 0.057 "
                           "(0.037\u20130.077)"));
    QCOMPARE(balanceLegendText(balanceSummary("e-random", std::nullopt, std::nullopt, 0.3)),
             QString("e-random: no point in the band<br>mean distance 0.300 (0.280\u20130.320)"));
    QVERIFY(balanceLegendText(balanceSummary("<i>", 0, 0, 0)).startsWith("&lt;i&gt;: "));
    auto* line = qobject_cast<QLineSeries*>(named(chart, posm).value(0));
    QVERIFY(line);
    QCOMPARE(line->points(), (QList<QPointF>{{-300, 0.41}, {0, 0.5}, {300, 0.58}}));
    QCOMPARE(followers(chart, line), 3);
    QVERIFY(!named(chart, balanceLegendText(tables.balanceSummaries[0])).isEmpty());
    auto* band = qobject_cast<QAreaSeries*>(named(chart, "band 40 % to 60 %").value(0));
    QVERIFY(band);
    QValueAxis* x = valueAxisOf(chart, Qt::Horizontal);
    QCOMPARE(band->upperSeries()->at(0), QPointF(x->min(), 0.6));
    QCOMPARE(band->lowerSeries()->at(1), QPointF(x->max(), 0.4));
    QVERIFY(x->min() <= -300 && x->max() >= 300);
    auto* even = qobject_cast<QLineSeries*>(named(chart, "even share 50 %").value(0));
    QVERIFY(even);
    QCOMPARE(even->pen().style(), Qt::DashLine);
    QCOMPARE(even->at(0).y(), 0.5);
    QValueAxis* y = valueAxisOf(chart, Qt::Vertical);
    QCOMPARE(y->min(), 0.0);
    QCOMPARE(y->max(), 1.0);
  }

  // The view offers the charts the tables have rows for; the others are greyed out and named as
  // missing; a curve can be drawn alone.
  void viewOffersWhatTheTablesHold() {
    RatingsView view;
    view.resize(1024, 600);
    RatingTablesRead only;
    only.ratings = handMadeTables().ratings;
    view.showTables(only);
    auto* items = qobject_cast<QStandardItemModel*>(view.kindBox()->model());
    QVERIFY(items->item(0)->isEnabled());
    QVERIFY(!items->item(1)->isEnabled() && !items->item(2)->isEnabled());
    QVERIFY(!view.showKind(RatingsView::Kind::Balance));
    QCOMPARE(view.kindBox()->currentIndex(), 0);
    QVERIFY(view.note()->text().contains("level_curves.csv"));
    QVERIFY(view.view()->chart()->title().startsWith("Ratings"));

    view.showTables(handMadeTables());
    QVERIFY(view.note()->text().isEmpty());
    QVERIFY(view.showKind(RatingsView::Kind::LevelCurves));
    QCOMPARE(view.curveBox()->count(), 3);  // all, hillclimber, mcts
    view.curveBox()->setCurrentText("mcts");
    QChart* chart = view.view()->chart();
    QVERIFY(!named(chart, "mcts").isEmpty() && named(chart, "hillclimber").isEmpty());
    QVERIFY(view.showKind(RatingsView::Kind::Balance));
    QVERIFY(view.view()->chart()->title().startsWith("Balance curves"));
  }

  // A folder with only ratings.csv: the tab shows the ladder; a folder without tables has no
  // tab; an empty table and a cell that is not a finite number are said in the tab, naming the
  // file, and the window goes on.
  void ratingsTabFollowsTheFolder() {
    QTemporaryDir dir;
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    BatchMode& batch = *window.batch();
    QVERIFY(!ratingsTabShown(window));
    QVERIFY(batch.openResults(resultsFolder(dir, {{"ratings.csv", kRatingsCsv}}), true));
    QVERIFY(ratingsTabShown(window));
    RatingsView& view = *batch.ratings();
    QCOMPARE(view.tables().ratings.size(), size_t(3));
    QVERIFY(view.tables().firstSeat.has_value());
    QVERIFY(view.view()->chart()->title().contains("first-seat advantage +35 Elo"));

    QTemporaryDir none;
    QVERIFY(batch.openResults(resultsFolder(none, {}), true));
    QVERIFY(!ratingsTabShown(window));

    QTemporaryDir empty;
    const std::string header = kRatingsCsv.substr(0, kRatingsCsv.find('\n') + 1);
    QVERIFY(batch.openResults(resultsFolder(empty, {{"ratings.csv", header}}), true));
    QVERIFY(ratingsTabShown(window));
    QVERIFY(view.tables().ratings.empty());
    // Said, whether the reader returns no rows (nothing to draw) or refuses the table.
    QVERIFY(!view.note()->text().isEmpty());

    for (const char* bad : {"nan", "inf"}) {
      QTemporaryDir hostile;
      std::string text = kRatingsCsv;
      text.replace(text.find("240"), 3, bad);
      QVERIFY(batch.openResults(resultsFolder(hostile, {{"ratings.csv", text}}), true));
      QVERIFY(ratingsTabShown(window));
      QVERIFY(view.tables().ratings.empty());
      QVERIFY2(view.note()->text().contains("ratings.csv"), qPrintable(view.note()->text()));
      QVERIFY(batch.queue()->rowCount() > 0);  // the rest of the folder is shown
    }
  }

  // --export-charts writes the rating charts of a folder that has their tables, and refuses a
  // folder whose table has a cell that is not a number, naming the file; --screenshot shows a
  // chart the folder has rows for and refuses one it has none for, saying what is missing.
  void exportChartsWritesTheRatingCharts() {
    QTemporaryDir dir;
    const QString folder = resultsFolder(dir, {{"ratings.csv", kRatingsCsv}});
    const QStringList written =
        exportCharts(folder, dir.filePath("charts"), QSize(800, 500), false, {});
    QVERIFY(written.contains(dir.filePath("charts/ratings.ladder.png")));
    QVERIFY(!written.contains(dir.filePath("charts/ratings.levels.png")));  // no curve rows
    QCOMPARE(QImage(dir.filePath("charts/ratings.ladder.png")).size(), QSize(800, 500));
    // --screenshot: the ladder of this folder, and a refusal of the chart it has no rows for.
    screenshot(dir.filePath("ladder.png"), "ratings-ladder", folder, QSize(1024, 700), {}, 1, 0);
    QCOMPARE(QImage(dir.filePath("ladder.png")).size(), QSize(1024, 700));
    try {
      screenshot(dir.filePath("balance.png"), "ratings-balance", folder, QSize(1024, 700), {}, 1,
                 0);
      QFAIL("a balance chart without balance rows");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("no rows in level_curves.csv, balance.csv"), e.what());
    }

    QTemporaryDir hostile;
    std::string text = kRatingsCsv;
    text.replace(text.find("240"), 3, "nan");
    const QString bad = resultsFolder(hostile, {{"ratings.csv", text}});
    try {
      exportCharts(bad, hostile.filePath("charts"), QSize(800, 500), false, {});
      QFAIL("a NaN cell was drawn");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains("ratings.csv"), e.what());
    }
  }
};

QTEST_MAIN(RatingsTest)
#include "test_ratings.moc"
