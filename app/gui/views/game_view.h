#pragma once
// A game's board in the game mode and in replays: paints a state and turns a person's clicks
// into the game's actions. One file per game in views/; makeGameView (view_registry.h) knows them all.
#include <QPixmap>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/state.h"

QT_BEGIN_NAMESPACE
class QMouseEvent;
QT_END_NAMESPACE

namespace ddalab::gui {

class GameView : public QWidget {
  Q_OBJECT
 public:
  // A place that takes a click now, and what clicking it does.
  struct HitArea {
    QRectF rect;
    QString label;
  };

  explicit GameView(QWidget* parent = nullptr);

  // Shows `state` (a copy is kept) from the side of `perspective` (the seat whose hidden cards
  // are shown). When `humanTurn`, clicks choose the regular actor's action among `legal`.
  void showState(const State& state, std::span<const Action> legal, bool humanTurn,
                 int perspective);
  // The researcher's switch: also paint what `perspective` may not know (the other hands).
  void setShowHidden(bool show);
  // The areas that take a click now; each leads towards a legal action (empty when it is not a
  // person's turn). Tests click them the way a person would.
  virtual std::vector<HitArea> hitAreas() const = 0;
  // The colour that stands for `player` on this view (and in the live panel).
  virtual QColor playerColour(int player) const;
  // The letter drawn with that colour on this view and in the live panel ("R" for red): a seat is
  // never told apart by colour alone (red and green look alike to one person in twelve).
  virtual QString playerMark(int player) const;
  // A picture of environment outcome `outcome` at `before` for the live panel and replays,
  // `size` pixels square (a die's face, a HexaLines cell; null: the text says it all).
  virtual QPixmap outcomeIcon(const State& before, Action outcome, int size) const;
  const State* state() const { return state_.get(); }

 signals:
  // A person completed a legal action.
  void actionChosen(ddalab::Action action);
  // A click that does nothing, and why (for the status bar).
  void refused(const QString& why);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  // Handles a click at `point` on a person's turn (emit actionChosen or refused).
  virtual void click(QPointF point) = 0;
  // A new state arrived: drop a half-made choice.
  virtual void resetChoice() {}
  bool isLegal(Action action) const;
  // The first legal action (in the game's order) whose description (State::actionJson) has
  // every field of `fields`, or nullopt: views pick an action by what it does, as the browser's
  // boards do, and never compute a game's action id.
  std::optional<Action> legalWhere(const Json& fields) const;
  // A place that completes an action with one click.
  using Target = std::pair<QRectF, Action>;
  // hitAreas() of a view of one-click targets: each labelled with its action's text.
  std::vector<HitArea> areasOf(std::span<const Target> targets) const;
  // click() of such a view: emits the action of the target at `point`, else refused(`why`).
  void clickOn(std::span<const Target> targets, QPointF point, const QString& why);

  std::unique_ptr<State> state_;
  std::vector<Action> legal_;
  bool humanTurn_ = false;
  int perspective_ = 0;
  bool showHidden_ = false;
};

// Makes a game's view (its parent owns it).
using ViewFactory = std::function<GameView*(QWidget* parent)>;
// A player's colour on every view and in the live panel (seat order).
QColor seatColour(int seat);
// The letter of seatColour(seat): "R", "B", "G", "Y".
QString seatLetter(int seat);

}  // namespace ddalab::gui
