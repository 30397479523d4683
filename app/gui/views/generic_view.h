#pragma once
// The view of any game without a board of its own (a plug-in's game, say): the state as text
// (as the seat shown may know it), whose turn it is, and the legal actions as buttons labelled
// with the game's actionToString, so that every game can be played by hand and replayed.
#include "app/gui/views/game_view.h"

QT_BEGIN_NAMESPACE
class QPaintEvent;
QT_END_NAMESPACE

namespace ddalab::gui {

class GenericView final : public GameView {
  Q_OBJECT
 public:
  explicit GenericView(QWidget* parent = nullptr) : GameView(parent) {}
  std::vector<HitArea> hitAreas() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void click(QPointF point) override;

 private:
  // The buttons of the legal actions (on a person's turn), flowing in rows below the text.
  std::vector<Target> buttons() const;
  QRectF textRect() const;
};

}  // namespace ddalab::gui
