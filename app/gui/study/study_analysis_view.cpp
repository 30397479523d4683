#include "app/gui/study/study_analysis_view.h"

#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <map>

#include "app/gui/charts/charts.h"
#include "app/gui/charts/sweep_charts.h"
#include "app/gui/text.h"

namespace ddalab::gui {

namespace {

QString fixed(double v, int digits) {
  return std::isnan(v) ? QString("–") : QString::number(v, 'f', digits);
}

QTableWidget* table(QWidget* parent, const QStringList& headers,
                    const std::vector<QStringList>& rows) {
  auto* t = new QTableWidget(static_cast<int>(rows.size()), headers.size(), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int c = 0; c < rows[r].size(); ++c)
      t->setItem(static_cast<int>(r), c, new QTableWidgetItem(rows[r][c]));
  t->resizeColumnsToContents();
  t->horizontalHeader()->setStretchLastSection(true);
  return t;
}

// An explanation above the contents, each with its share of the height.
QWidget* page(QWidget* parent, const QString& explanation,
              std::initializer_list<std::pair<QWidget*, int>> contents) {
  auto* w = new QWidget(parent);
  auto* layout = new QVBoxLayout(w);
  auto* text = new QLabel(explanation, w);
  text->setWordWrap(true);
  layout->addWidget(text);
  for (auto [content, stretch] : contents) layout->addWidget(content, stretch);
  return w;
}

}  // namespace

StudyAnalysisView::StudyAnalysisView(StudyAnalysis analysis, QWidget* parent)
    : QDialog(parent), analysis_(std::move(analysis)), tabs_(new QTabWidget(this)) {
  setWindowTitle(QString("Study %1: %2 participants, %3 answered games")
                     .arg(QString::fromStdString(analysis_.protocol))
                     .arg(analysis_.participants)
                     .arg(analysis_.games));
  tabs_->addTab(answersTab(), "Answers");
  tabs_->addTab(comparisonsTab(), "Within participants");
  tabs_->addTab(correlationsTab(), "Metrics × answers");
  tabs_->addTab(noticedTab(), "Noticed?");
  tabs_->addTab(coefficientsTab(), "Fitted coefficients");
  if (!analysis_.reliability.empty()) tabs_->addTab(reliabilityTab(), "Reliability");
  auto* layout = new QVBoxLayout(this);
  // Wrapped: a note is a sentence or two, and an unwrapped one widened the dialog past the screen.
  const auto addLine = [&](const QString& line) {
    auto* label = plainLabel(line, this);  // it may quote the protocol's names
    label->setWordWrap(true);
    layout->addWidget(label);
  };
  if (!analysis_.flow.empty()) addLine("Participants: " + QString::fromStdString(analysis_.flow));
  for (const std::string& note : analysis_.notes) addLine("Note: " + QString::fromStdString(note));
  layout->addWidget(tabs_);
  resize(1000, 680);
}

QWidget* StudyAnalysisView::answersTab() {
  // One chart per item: each condition's mean with its interval, on the item's whole scale.
  std::map<std::string, std::vector<IntervalBar>> byItem;
  std::vector<std::string> items;
  std::vector<QStringList> rows;
  for (const auto& m : analysis_.means) {
    if (!byItem.count(m.item)) items.push_back(m.item);
    byItem[m.item].push_back({QString::fromStdString(m.condition), m.mean,
                              std::isnan(m.low) ? m.mean : m.low,
                              std::isnan(m.high) ? m.mean : m.high});
    rows.push_back({QString::fromStdString(m.condition), QString::fromStdString(m.item),
                    fixed(m.mean, 2), fixed(m.low, 2), fixed(m.high, 2), QString::number(m.games),
                    QString::number(m.participants)});
  }
  auto* charts = new QWidget;
  auto* grid = new QGridLayout(charts);
  for (size_t i = 0; i < items.size(); ++i) {
    const StudyItem& item = analysis_.items[i];  // the means come in the questionnaire's order
    auto* view =
        new QChartView(intervalBarChart(text(item.text).toHtmlEscaped(),  // a chart's title is HTML
                                        "mean answer (95 % CI)",
                                        byItem[items[i]], item.min(), item.max()),
                       charts);
    view->setObjectName(QString::fromStdString("chart_" + items[i]));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(260);
    grid->addWidget(view, static_cast<int>(i / 2), static_cast<int>(i % 2));
  }
  auto* scroll = new QScrollArea;
  scroll->setWidget(charts);
  scroll->setWidgetResizable(true);
  return page(
      this,
      "Each condition's mean answer per item over its games; the error bars are 95 % t "
      "intervals over the participants' means.",
      {{scroll, 3},
       {table(this, {"Condition", "Item", "Mean", "CI low", "CI high", "Games", "Participants"},
              rows),
        2}});
}

QWidget* StudyAnalysisView::comparisonsTab() {
  const double alpha = analysis_.plan.alpha;
  const auto role = [](bool primary) { return QString(primary ? "primary" : "exploratory"); };
  std::vector<QStringList> mixed;
  for (const auto& c : analysis_.mixedComparisons) {
    const MixedContrast& m = c.contrast;
    mixed.push_back({QString::fromStdString(c.item), QString::fromStdString(c.first),
                     QString::fromStdString(c.second), fixed(m.estimate, 2), fixed(m.low, 2),
                     fixed(m.high, 2), fixed(m.se, 3), fixed(m.df, 1), fixed(m.p, 4),
                     c.primary ? QString("–") : fixed(c.holmP, 4), role(c.primary),
                     c.holmP < alpha ? "*" : ""});
  }
  std::vector<QStringList> rows;
  for (const auto& c : analysis_.comparisons)
    rows.push_back({QString::fromStdString(c.item), QString::fromStdString(c.first),
                    QString::fromStdString(c.second), fixed(c.meanDifference, 2),
                    QString::number(c.test.n), fixed(c.test.plus, 1), fixed(c.test.minus, 1),
                    fixed(c.test.p, 4) + (c.test.exact ? " (exact)" : ""), fixed(c.holmP, 4),
                    fixed(c.test.effect, 2), role(c.primary), c.holmP < alpha ? "*" : ""});
  auto* model = table(this,
                      {"Item", "First", "Second", "Estimate", "CI low", "CI high", "SE", "df", "p",
                       "Holm p", "Role", ""},
                      mixed);
  model->setObjectName("mixedTable");
  return page(this,
              QString("Conditions compared by the mixed model answer ~ condition + period + "
                      "(1 | participant) (REML; first minus second, 95 % CI with Satterthwaite's "
                      "df). Below, the nonparametric check: the Wilcoxon signed-rank test of the "
                      "participants' mean answers (r: the matched-pairs rank-biserial "
                      "correlation). A pre-registered primary test is unadjusted; every other "
                      "test is exploratory, Holm-corrected. * : significant at %1.")
                  .arg(alpha),
              {{model, 1},
               {table(this,
                      {"Item", "First", "Second", "Mean difference", "n", "W+", "W-", "p", "Holm p",
                       "r", "Role", ""},
                      rows),
                1}});
}

QWidget* StudyAnalysisView::correlationsTab() {
  SweepTable grid;  // the heat map's table: metrics (rows of cells) against items (columns)
  grid.axes = {"item", "metric"};
  grid.columns = {"spearman"};
  std::vector<QStringList> rows;
  for (const auto& c : analysis_.correlations) {
    SweepRow row;
    row.series = "spearman";
    row.point = {{"item", c.item}, {"metric", c.metric}};
    row.games = c.games;
    row.values = {SweepValue{c.rho, c.low, c.high}};
    grid.rows.push_back(row);
    rows.push_back({QString::fromStdString(c.metric), QString::fromStdString(c.item),
                    fixed(c.rho, 2), fixed(c.low, 2), fixed(c.high, 2),
                    c.low > 0 || c.high < 0 ? "*" : ""});
  }
  heatMap_ = new HeatMap(this);
  if (!grid.rows.empty()) {
    heatMap_->show(grid, 0, "spearman", "item", "metric");
    heatMap_->setTitle("Spearman's rho of each metric with each item, over the games");
  }
  return page(
      this,
      "Spearman's rho of each fun metric with each item over the games (colour), with its "
      "bootstrap 95 % interval on hover and in the table; * : the interval excludes 0.",
      {{heatMap_, 3}, {table(this, {"Metric", "Item", "rho", "CI low", "CI high", ""}, rows), 2}});
}

QWidget* StudyAnalysisView::noticedTab() {
  std::vector<QStringList> rows;
  for (const auto& n : analysis_.noticed)
    rows.push_back({QString::fromStdString(n.condition), QString::number(n.games),
                    fixed(100 * n.rateAbove, 0) + " %",
                    "[" + fixed(100 * n.rateLow, 0) + ", " + fixed(100 * n.rateHigh, 0) + "] %",
                    fixed(n.believability, 2), fixed(n.decilesP, 4),
                    n.decilesP < 0.05 ? "detected" : "not detected"});
  return page(this,
              QString("How often participants answered '%1' above the scale's midpoint, beside "
                      "the believability metric of those games and the chi-square test of where "
                      "the outcomes dealt to them fell in their natural distributions.")
                  .arg(QString::fromStdString(analysis_.manipulationItem)),
              {{table(this,
                      {"Condition", "Games", "Above midpoint", "95 % CI", "Believability",
                       "Deciles p", "Decile test"},
                      rows),
                1}});
}

QWidget* StudyAnalysisView::coefficientsTab() {
  auto* w = new QWidget(this);
  auto* layout = new QVBoxLayout(w);
  auto* text = new QLabel(
      QString("A ridge regression of '%1' on the per-game metrics (penalty %2 chosen by "
              "cross-validation that leaves whole participants out): %3. As the coefficients of "
              "F (answer points per unit of each metric, not rescaled)%4:")
          .arg(QString::fromStdString(analysis_.fittedItem))
          .arg(analysis_.ridge.fit.lambda)
          .arg(QString::fromStdString(analysis_.fitVerdict),
               analysis_.fitReliable
                   ? ", an experiment can use them to make the E-players aim at what "
                     "participants said they enjoyed"
                   : ", UNRELIABLE, not for use"),
      w);
  text->setWordWrap(true);
  layout->addWidget(text);
  auto* json = new QPlainTextEdit(
      QString::fromStdString("\"coefficients\": " + analysis_.coefficients.dump(2)), w);
  json->setReadOnly(true);
  layout->addWidget(json, 1);
  auto* copy = new QPushButton("Copy", w);
  connect(copy, &QPushButton::clicked, json,
          [json] { QApplication::clipboard()->setText(json->toPlainText()); });
  layout->addWidget(copy, 0, Qt::AlignRight);
  return w;
}

QWidget* StudyAnalysisView::reliabilityTab() {
  std::vector<QStringList> rows;
  for (const auto& r : analysis_.reliability)
    rows.push_back({QString::fromStdString(r.subscale), QString::fromStdString(r.instrument),
                    QString::number(r.items), fixed(r.alpha, 2), fixed(r.low, 2), fixed(r.high, 2),
                    QString::number(r.questionnaires)});
  auto* t = table(this,
                  {"Subscale", "Instrument", "Items", "Cronbach's alpha", "CI low", "CI high",
                   "Questionnaires"},
                  rows);
  t->setObjectName("reliability");
  return page(this,
              "Internal consistency of each subscale over every answered questionnaire (items "
              "reverse-scored where the instrument says so); 95 % interval from a bootstrap of "
              "participants. The subscales' scores are analysed like items in the other tabs.",
              {{t, 1}});
}

}  // namespace ddalab::gui
