#pragma once
// Ludo (games/ludo.md, thesis appendix A.2.2): the cross-shaped board of 40 squares, houses
// and homes, safe squares darker, the die in the centre; the pieces the player on turn can move
// are highlighted and a click moves one (a click on the die passes when nothing can move).
#include <utility>

#include "app/gui/views/game_view.h"

QT_BEGIN_NAMESPACE
class QPaintEvent;
QT_END_NAMESPACE

namespace ddalab::gui {

class LudoView final : public GameView {
  Q_OBJECT
 public:
  explicit LudoView(QWidget* parent = nullptr) : GameView(parent) {}
  std::vector<HitArea> hitAreas() const override;
  // The colour of the board seat player `player` sits on (two players sit opposite: 0 and 2).
  QColor playerColour(int player) const override;
  QString playerMark(int player) const override;
  // The die showing the rolled face.
  QPixmap outcomeIcon(const State& before, Action outcome, int size) const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void click(QPointF point) override;

 private:
  // Each clickable place with the action it stands for.
  std::vector<Target> targets() const;
  QRectF cell(int x, int y) const;
};

}  // namespace ddalab::gui
