#include "app/gui/play/live_panel.h"

#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QPainter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ddalab::gui {

namespace {

QTableWidget* table(QWidget* parent, const QStringList& headers) {
  auto* t = new QTableWidget(parent);
  t->setColumnCount(headers.size());
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionMode(QAbstractItemView::NoSelection);
  t->horizontalHeader()->setStretchLastSection(true);
  return t;
}

void setCell(QTableWidget* t, int row, int column, const QString& text, bool right = true) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
  t->setItem(row, column, item);
}

// What the panel shows instead of a number that would tell hidden information.
const QString kHidden = "hidden";
const char* const kRevealHint = "View → Show hidden information shows it (for researchers).";

// A disc in the player's colour with their letter, as the board draws the player: the row is
// found by the letter too, not only by its colour.
QIcon markIcon(const QColor& colour, const QString& mark) {
  QPixmap pixmap(18, 18);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(colour.darker(160), 1));
  painter.setBrush(colour);
  painter.drawEllipse(QRectF(1, 1, 16, 16));
  QFont font = painter.font();
  font.setBold(true);
  font.setPixelSize(11);
  painter.setFont(font);
  painter.setPen(colour.lightness() > 150 ? Qt::black : Qt::white);
  painter.drawText(QRectF(0, 0, 18, 18), Qt::AlignCenter, mark);
  return QIcon(pixmap);
}

QString fixedText(double v, int decimals = 3) {
  return QString::number(v, 'f', decimals);
}

QString percent(double p) {
  return QString::number(100 * p, 'f', 1) + " %";
}

// The objective's summed terms, one line each. The weighted sum's are per metric that counts:
// "tension: 10 × -0.380 = -3.80" (the value is signed: minus for metrics where lower is
// better); the target's "tension: -0.42" (minus the weighted distance to its target).
QStringList termLines(std::span<const ObjectiveTerm> terms, const PanelContent& content) {
  QStringList lines;
  const bool weighted = content.objective.kind != ObjectiveKind::Target;
  for (const ObjectiveTerm& term : terms) {
    if (!term.summed) continue;
    const auto metric = metricByKey(term.label);
    const double c = metric ? content.coefficients[static_cast<size_t>(*metric)] : 0;
    if (weighted && c != 0)
      lines << QString("%1: %2 × %3 = %4")
                   .arg(QString::fromStdString(term.label), fixedText(c, 0), fixedText(term.value / c, 3),
                        fixedText(term.value, 2));
    else
      lines << QString("%1: %2").arg(QString::fromStdString(term.label), fixedText(term.value, 2));
  }
  return lines;
}

// The checks that decide before the value (a bound's excess, a lexicographic step's metric).
QStringList checkLines(std::span<const ObjectiveTerm> terms, ObjectiveKind kind) {
  QStringList lines;
  for (const ObjectiveTerm& term : terms)
    if (!term.summed)
      lines << QString("%1: %2%3")
                   .arg(QString::fromStdString(term.label), fixedText(term.value, 3),
                        kind == ObjectiveKind::Constrained
                            ? (term.value > 0 ? QString(" over the bound") : QString(" (within)"))
                            : QString());
  return lines;
}

// What an outcome's value is called in the panel: F, or the objective's own value.
QString valueName(const PanelContent& content) {
  switch (content.objective.kind) {
    case ObjectiveKind::Target:
      return "the target objective";
    case ObjectiveKind::WinRate:
      return "F + steering";
    default:
      return "F";
  }
}

}  // namespace

LivePanel::LivePanel(QWidget* parent)
    : QWidget(parent),
      heading_(new QLabel(this)),
      objective_(new QLabel(this)),
      players_(table(this, {"Player", "Gain", "Status"})),
      metrics_(table(this, {"Metric", "Value", "Weight"})),
      decision_(new QLabel(this)),
      outcomes_(table(this, {"Outcome", "Probability", "F", "Search"})),
      breakdown_(new QLabel(this)) {
  heading_->setWordWrap(true);
  QFont bold = heading_->font();
  bold.setBold(true);
  heading_->setFont(bold);
  // Two lines kept however crowded the panel is: a replay's heading was cut to half a line.
  heading_->setMinimumHeight(2 * heading_->fontMetrics().lineSpacing() + 4);
  decision_->setWordWrap(true);
  objective_->setWordWrap(true);
  objective_->setToolTip(
      "F = the sum over the metrics of coefficient x value (lower-is-better metrics counted "
      "negatively): what a fun-seeking environment player steers towards");
  players_->horizontalHeaderItem(1)->setToolTip(
      "The game's gain of the player (higher is better): score, progress, cards' worth");
  players_->horizontalHeaderItem(2)->setToolTip(
      "Status (docs/metrics.md): the leader's is its lead over the second; every other "
      "player's is its gap to the leader (negative); 0 for players tied for the lead");
  outcomes_->setToolTip(
      "Every outcome the environment could choose, with its natural probability and, when its "
      "player weighed them, F after it (the rest of the round played greedily) and its own "
      "search's value; the chosen one is marked. Hover a row for F's terms.");
  outcomes_->setWordWrap(true);
  outcomes_->horizontalHeader()->setStretchLastSection(false);
  outcomes_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  breakdown_->setWordWrap(true);
  breakdown_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(heading_);
  layout->addWidget(objective_);
  layout->addWidget(new QLabel("Players (status: the leader's lead, the others' gap to it)", this));
  layout->addWidget(players_);
  auto* metricsLabel = new QLabel("Fun metrics of this game so far", this);
  layout->addWidget(metricsLabel);
  layout->addWidget(metrics_, 2);
  auto* decisionLabel = new QLabel("The environment's last decision", this);
  layout->addWidget(decisionLabel);
  layout->addWidget(decision_);
  layout->addWidget(outcomes_, 3);
  layout->addWidget(breakdown_);
  environmentParts_ = {objective_, metricsLabel, metrics_,  decisionLabel,
                       decision_,  outcomes_,    breakdown_};
  layout->addStretch(0);  // takes the room of the parts a study hides
  players_->setMaximumHeight(150);
  setMinimumWidth(380);
}

QString LivePanel::headingText() const {
  return heading_->text();
}

void LivePanel::setEnvironmentShown(bool shown) {
  for (QWidget* part : environmentParts_) part->setVisible(shown);
  auto* column = static_cast<QVBoxLayout*>(layout());
  column->setStretch(column->count() - 1, shown ? 0 : 1);
}

void LivePanel::show(const PanelContent& content) {
  heading_->setText(content.heading);
  if (content.blank) {
    players_->setRowCount(0);
    metrics_->setRowCount(0);
    outcomes_->setRowCount(0);
    objective_->clear();
    decision_->clear();
    breakdown_->clear();
    return;
  }
  showPlayers(content);
  showMetrics(content);
  showDecision(content);
}

void LivePanel::showPlayers(const PanelContent& content) {
  const auto& players = content.players;
  players_->setRowCount(static_cast<int>(players.size()));
  for (size_t p = 0; p < players.size(); ++p) {
    const int row = static_cast<int>(p);
    setCell(players_, row, 0, QString::fromStdString(players[p].label), false);
    players_->item(row, 0)->setForeground(players[p].colour.darker(130));
    players_->item(row, 0)->setIcon(markIcon(players[p].colour, players[p].mark));
    setCell(players_, row, 1, content.gainsHidden ? kHidden : fixedText(players[p].gain, 2));
    setCell(players_, row, 2, content.gainsHidden ? kHidden : fixedText(players[p].status, 2));
  }
  players_->resizeColumnsToContents();
}

void LivePanel::showMetrics(const PanelContent& content) {
  const int fRow = static_cast<int>(allMetrics().size());
  metrics_->setRowCount(fRow + 1);
  for (const auto& info : allMetrics()) {
    const int row = static_cast<int>(info.metric);
    setCell(metrics_, row, 0, QString::fromStdString(std::string(info.key)), false);
    metrics_->item(row, 0)->setToolTip(QString::fromStdString(std::string(info.description)));
    setCell(metrics_, row, 1,
            content.gainsHidden ? kHidden : fixedText(content.metrics[static_cast<size_t>(row)]));
    const double c = content.coefficients[static_cast<size_t>(row)];
    setCell(metrics_, row, 2, c == 0 ? QString("–") : fixedText(c, 0));
  }
  const QString f = fixedText(funScore(content.metrics, content.coefficients), 2);
  setCell(metrics_, fRow, 0, "F (fun score)", false);
  setCell(metrics_, fRow, 1, content.gainsHidden ? kHidden : f);
  objective_->setText(objectiveText(content, f));
  metrics_->resizeColumnsToContents();
}

QString LivePanel::objectiveText(const PanelContent& content, const QString& f) const {
  if (content.gainsHidden)
    return QString(
               "F (the fun score the environment steers towards): shown when the game is "
               "over — the gains, statuses and metrics weigh cards hidden from you. %1")
        .arg(kRevealHint);
  if (content.objective.kind == ObjectiveKind::WeightedSum)
    return QString("F (the fun score the environment steers towards) so far: <b>%1</b>").arg(f);
  const QString described =
      QString::fromStdString(describeObjective(content.objective)).toHtmlEscaped();
  const QString value =
      content.objectiveValue
          ? QString(" — its value so far: <b>%1</b>").arg(fixedText(*content.objectiveValue, 2))
          : QString();
  return QString("Objective: <b>%1</b>%2; F (the weighted sum) so far: %3")
      .arg(described, value, f);
}

void LivePanel::showDecision(const PanelContent& content) {
  const DecisionReport* decision = content.decision;
  outcomes_->setRowCount(0);
  breakdown_->clear();
  if (!decision) return decision_->setText("none yet");
  if (decision->outcomesHidden) return showHiddenDecision(*decision);
  decision_->setText(
      QString("chose <b>%1</b> (natural probability %2)%3")
          .arg(QString::fromStdString(decision->chosen).toHtmlEscaped(),
               percent(decision->probability),
               decision->natural ? " — drawn naturally (random_prob or no DDA)" : " — steered"));
  outcomes_->setRowCount(static_cast<int>(decision->rows.size()));
  for (size_t i = 0; i < decision->rows.size(); ++i)
    showOutcome(static_cast<int>(i), decision->rows[i], content);
  outcomes_->resizeColumnToContents(1);
  outcomes_->resizeColumnToContents(2);
  outcomes_->resizeColumnToContents(3);
  outcomes_->resizeRowsToContents();
}

void LivePanel::showHiddenDecision(const DecisionReport& decision) {
  decision_->setText(
      QString("<b>%1</b>%2<br><i>%3 %4</i>")
          .arg(QString::fromStdString(decision.chosen).toHtmlEscaped(),
               decision.chosenHidden ? QString() : QString(" (dealt to you)"),
               decision.chosenHidden
                   ? "Hidden from you, and so are the other outcomes and how they were weighed."
                   : "The other outcomes and their probabilities are hidden: they would tell "
                     "what the hidden hands hold.",
               kRevealHint));
}

void LivePanel::showOutcome(int row, const DecisionReport::Row& r, const PanelContent& content) {
  setCell(outcomes_, row, 0, QString::fromStdString(r.outcome) + (r.chosen ? "  ◀" : ""), false);
  if (content.iconOf && r.action >= 0)
    if (const QPixmap icon = content.iconOf(r.action); !icon.isNull()) {
      outcomes_->item(row, 0)->setIcon(QIcon(icon));
      outcomes_->setIconSize(icon.size());
    }
  setCell(outcomes_, row, 1, percent(r.probability));
  setCell(outcomes_, row, 2, r.fun ? fixedText(*r.fun, 2) : QString("–"));
  setCell(outcomes_, row, 3,
          !r.allowed ? QString("removed")
          : r.search ? fixedText(*r.search, 2)
                     : QString("–"));
  const QStringList checks = checkLines(r.terms, content.objective.kind);
  const QString checked = checks.isEmpty()
                              ? QString()
                              : QString(r.allowed ? "\nKept by the objective's filter:\n"
                                                  : "\nRemoved by the objective's filter:\n") +
                                    checks.join("\n");
  const QString terms = r.fun ? valueName(content) + " = " + fixedText(*r.fun, 2) + ":\n" +
                                    termLines(r.terms, content).join("\n") + checked
                              : QString();
  for (int c = 0; c < 4; ++c) {
    outcomes_->item(row, c)->setToolTip(terms);
    if (r.chosen) outcomes_->item(row, c)->setBackground(QColor(0xff, 0xe9, 0xa8));
  }
  if (!r.chosen) return;
  outcomes_->scrollToItem(outcomes_->item(row, 0));  // in sight among many
  breakdown_->setText(r.fun ? QString("Why: %1 of %2 = %3 = the sum of\n%4%5")
                                  .arg(valueName(content), QString::fromStdString(r.outcome),
                                       fixedText(*r.fun, 2), termLines(r.terms, content).join("\n"),
                                       checked)
                            : QString());
}

}  // namespace ddalab::gui
