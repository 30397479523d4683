#pragma once
// Lost Cities (games/lost-cities.md, thesis appendix A.2.3): the opponent's hand face down (face
// up with View -> Show hidden information), both players' expeditions, the five discard piles
// and the deck (face down) with its count, the own hand. A turn is three clicks: a card in hand;
// its expedition (play) or its colour's pile (discard); the draw source (the deck or a pile's
// top). The areas that take the next click are highlighted.
#include <optional>
#include <utility>

#include "app/gui/views/game_view.h"

QT_BEGIN_NAMESPACE
class QPaintEvent;
QT_END_NAMESPACE

namespace ddalab::gui {

class LostCitiesView final : public GameView {
  Q_OBJECT
 public:
  explicit LostCitiesView(QWidget* parent = nullptr) : GameView(parent) {}
  std::vector<HitArea> hitAreas() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void click(QPointF point) override;
  void resetChoice() override;

 private:
  // What a click on a target does.
  struct Target {
    QRectF rect;
    enum class Kind { HandCard, Play, Discard, Draw } kind;
    int value;  // the card kind, or (a draw) the legal action that draws from there
    QString label;
  };
  std::vector<Target> targets() const;
  struct Layout;
  Layout layout() const;

  std::optional<int> card_;      // the chosen card kind
  std::optional<bool> discard_;  // the chosen destination: discard (true) or play (false)
};

}  // namespace ddalab::gui
