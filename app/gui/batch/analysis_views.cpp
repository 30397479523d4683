#include "app/gui/batch/analysis_views.h"
#include "app/gui/text.h"

#include <QFont>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/batch/queue_model.h"

namespace ddalab::gui {

namespace {

// A number with `digits` significant digits (differences span many magnitudes).
QString significant(double value, int digits = 4) {
  return std::isnan(value) ? QString("–") : QString::number(value, 'g', digits);
}

}  // namespace

QString noAnalysisText(const std::string& comparison) {
  if (comparison.empty()) return "The selected experiment belongs to no comparison.";
  return "No analysis of " + text(comparison) +
         " yet: it needs two or more rows with results, and is computed when a run ends or a "
         "results folder is opened (it is dropped when the queue changes).";
}

AnalysisTable::AnalysisTable(QWidget* parent)
    : QWidget(parent), caption_(new QLabel(this)), table_(new QTableWidget(this)) {
  caption_->setWordWrap(true);
  caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->setAlternatingRowColors(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(caption_);
  layout->addWidget(table_, 1);
}

QString AnalysisTable::caption() const {
  return caption_->text();
}

void AnalysisTable::fill(const QString& caption, const QStringList& headers,
                         const std::vector<QStringList>& rows, const QString& bold) {
  caption_->setText(caption);
  table_->setSortingEnabled(false);
  fillTable(table_, headers, rows, bold);
  table_->setSortingEnabled(true);
}

void fillTable(QTableWidget* table, const QStringList& headers,
               const std::vector<QStringList>& rows, const QString& bold) {
  table->clear();
  table->setColumnCount(static_cast<int>(headers.size()));
  table->setHorizontalHeaderLabels(headers);
  table->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r)
    for (int c = 0; c < rows[r].size(); ++c) {
      auto* item = new QTableWidgetItem(rows[r][c]);
      // Words read from the left, numbers (and "< 0.0001", "–") line up on the right.
      const bool word = rows[r][c].isEmpty() || rows[r][c].front().isLetter();
      item->setTextAlignment(word ? Qt::AlignLeft | Qt::AlignVCenter
                                  : Qt::AlignRight | Qt::AlignVCenter);
      if (!bold.isEmpty() && rows[r][0] == bold) {
        QFont font = item->font();
        font.setBold(true);
        item->setFont(font);
      }
      table->setItem(r, c, item);
    }
  table->resizeColumnsToContents();
}

void TestsView::show(const ComparisonAnalysis* a, const std::string& comparison,
                     const std::string& experiment) {
  if (!a || a->tests.empty()) {
    fill(noAnalysisText(comparison), {}, {}, {});
    return;
  }
  std::vector<QStringList> rows;
  for (const PairedTest& t : a->tests)
    rows.push_back(
        {text(t.experiment), text(t.metric), QString::number(t.pairs), significant(t.difference),
         significant(t.ci95Low) + " .. " + significant(t.ci95High), text(t.test), pText(t.p),
         pText(t.wilcoxonP), pText(t.holmP), t.significant() ? "yes *" : "no"});
  fill(QString("Comparison %1: each row against %2 over %3 paired games (the rows play the same "
               "seeds, game by game). Difference of the means (row − %2) with its 95 % CI; p of "
               "the paired t-test (bootstrap for win_ratio) and of the Wilcoxon signed-rank test; "
               "Holm-adjusted p over the comparison; * significant at 5 %.")
           .arg(text(a->comparison), text(a->reference))
           .arg(a->pairs),
       {"Experiment", "Metric", "Pairs", "Difference", "95 % CI", "Test", "p", "Wilcoxon p",
        "Holm p", "Significant"},
       rows, text(experiment));
}

void DetectabilityView::show(const ComparisonAnalysis* a, const std::string& comparison,
                             const std::string& experiment) {
  if (!a || a->detectability.empty()) {
    fill(noAnalysisText(comparison), {}, {}, {});
    return;
  }
  std::vector<QStringList> rows;
  for (const Detectability& d : a->detectability)
    rows.push_back({text(d.experiment), QString::number(d.seat),
                    text(d.player.id) + ":" + QString::number(d.player.level),
                    QString::number(d.outcomes), QString::number(d.chi2, 'f', 1),
                    QString::number(d.df), pText(d.p), d.detected() ? "yes" : "no",
                    d.gamesToDetect ? QString::number(*d.gamesToDetect) : QString("–")});
  fill(QString("Comparison %1: could a player tell the environment from natural chance? The "
               "deciles of the environment outcomes each seat received, pooled over the games, "
               "against uniform (chi-square, 5 %). Games to detect: the fewest games whose random "
               "subsets reject in 95 % of draws (– : not even all of them).")
           .arg(text(a->comparison)),
       {"Experiment", "Seat", "Player", "Outcomes", "χ²", "df", "p", "Detected", "Games to detect"},
       rows, text(experiment));
}

}  // namespace ddalab::gui
