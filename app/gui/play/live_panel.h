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
#include <string>
#include <vector>

#include "core/metrics.h"

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
    std::optional<double> fun;     // F of the settled continuation
    std::optional<double> search;  // what the player's search made of it
    MetricValues terms{};          // F's terms, coefficient x signed value, per metric
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
};

class LivePanel : public QWidget {
  Q_OBJECT
 public:
  explicit LivePanel(QWidget* parent = nullptr);

  // Shows the players, the game's metrics so far (and F under `coefficients`) and the last
  // environment decision (none yet: null).
  // `iconOf` may draw an outcome (a HexaLines cell) beside its text.
  void show(const std::vector<PlayerLine>& players, const MetricValues& metrics,
            const Coefficients& coefficients, const DecisionReport* decision,
            const QString& heading, const std::function<QPixmap(Action)>& iconOf = {});
  QTableWidget* decisionTable() const { return outcomes_; }

 private:
  QLabel* heading_;
  QLabel* objective_;  // F, what the environment player maximizes, at the top
  QTableWidget* players_;
  QTableWidget* metrics_;
  QLabel* decision_;
  QTableWidget* outcomes_;
  QLabel* breakdown_;
};

}  // namespace ddalab::gui
