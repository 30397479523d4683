#pragma once
// The Maze (games/maze.md, thesis appendix A.2.1): the explored part of the maze growing as
// corridors are revealed, the explorer (a yellow ball), the marks (green), doors by kind (orange
// plain, blue, red; open doors lighter) and the steps left at the top. A click on a highlighted
// door opens it, a click on a mark goes there.
#include "app/gui/views/game_view.h"

QT_BEGIN_NAMESPACE
class QPaintEvent;
QT_END_NAMESPACE

namespace ddalab::gui {

class MazeView final : public GameView {
  Q_OBJECT
 public:
  explicit MazeView(QWidget* parent = nullptr) : GameView(parent) {}
  std::vector<HitArea> hitAreas() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  void click(QPointF point) override;

 private:
  // The square of the tile of index `index` (MazeState::index).
  QRectF tileRect(int index) const;
  // The doors and marks a click reaches (on a person's turn).
  std::vector<Target> targets() const;
  double header() const { return 34; }
};

}  // namespace ddalab::gui
