#pragma once
// The live panel beside a game (game mode and replays): every player's gain and status, the
// running fun metrics of this game and F, and the environment's last decision — the outcome it
// chose, that outcome's natural probability, the alternatives it had and, when the environment
// player described its decision, each outcome's F broken down by metric (coefficient x value).
#include <QColor>
#include <QPixmap>
#include <QWidget>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/metrics.h"
#include "core/objective.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

// One environment decision as the panel shows it (from a live game or from a detailed trace).
struct DecisionReport {
  struct Row {
    std::string outcome;
    Action action = -1;  // the outcome's id (-1: not known)
    double probability = 0;
    std::optional<double> fun;         // the objective's value (F) of the settled continuation
    std::optional<double> search;      // what the player's search made of it
    std::vector<ObjectiveTerm> terms;  // its terms (F's: coefficient x signed value) and checks
    bool allowed = true;               // false: the objective's filter removed it
    bool chosen = false;
  };
  std::string chosen;
  double probability = 0;
  bool natural = false;  // drawn by its natural probability (random_prob fired, or no DDA)
  std::vector<Row> rows;
  // What the person may not see (State::outcomeVisibleTo, outcomesPublic): the chosen outcome
  // (then `chosen` says only that one was chosen), or the others and the probabilities.
  bool chosenHidden = false;
  bool outcomesHidden = false;
};

// One player's line of the panel.
struct PlayerLine {
  std::string label;  // "seat 0: hillclimber:50" or "seat 1: you"
  double gain = 0, status = 0;
  QColor colour;  // the player's colour on the game's view
  QString mark;   // the letter drawn with that colour on the view (GameView::playerMark)
};

// One moment of a game as the panel shows it.
struct PanelContent {
  QString heading;
  std::vector<PlayerLine> players;
  MetricValues metrics{};  // the game's metrics so far
  Coefficients coefficients{};
  // The gains, statuses, metrics and F are not shown (State::gainsPublic: they weigh what the
  // person may not know, as Lost Cities' heuristic weighs the hands and the deck).
  bool gainsHidden = false;
  const DecisionReport* decision = nullptr;  // the last environment decision (none yet: null)
  std::function<QPixmap(Action)> iconOf;     // may draw an outcome (a HexaLines cell)
  Objective objective = {};                  // what the environment player pursues
  std::optional<double> objectiveValue;      // its value so far, beyond the weighted sum
  bool blank = false;  // no game: the heading alone (no players, metrics, F or decision)
};

class LivePanel : public QWidget {
  Q_OBJECT
 public:
  explicit LivePanel(QWidget* parent = nullptr);

  // Shows `content`: the players, the metrics and F, the last environment decision.
  void show(const PanelContent& content);
  // Whether the panel shows what tells the environment player apart (F and its weights, the fun
  // metrics, the environment's decisions); a user study hides them from its participants.
  void setEnvironmentShown(bool shown);
  QTableWidget* decisionTable() const { return outcomes_; }
  QString headingText() const;

 private:
  void showPlayers(const PanelContent& content);
  void showMetrics(const PanelContent& content);
  void showDecision(const PanelContent& content);
  // The line at the top: F so far, or the objective, its value so far and F (`f`).
  QString objectiveText(const PanelContent& content, const QString& f) const;
  // The decision's chosen outcome when the others are hidden (State::outcomesPublic).
  void showHiddenDecision(const DecisionReport& decision);
  // Row `row` of the outcomes table: `r`, marked when chosen, its F's terms as a tooltip.
  void showOutcome(int row, const DecisionReport::Row& r, const PanelContent& content);

  QLabel* heading_;
  QLabel* objective_;  // F, what the environment player maximizes, at the top
  QTableWidget* players_;
  QTableWidget* metrics_;
  QLabel* decision_;
  QTableWidget* outcomes_;
  QLabel* breakdown_;
  std::vector<QWidget*> environmentParts_;  // what setEnvironmentShown hides
};

}  // namespace ddalab::gui
