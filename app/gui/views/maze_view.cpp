#include "app/gui/views/maze_view.h"

#include <QPainter>
#include <nlohmann/json.hpp>

#include "games/maze/maze.h"

namespace ddalab::gui {

using maze::MazeState;

namespace {

QColor doorColour(maze::DoorColour colour, bool open) {
  QColor c = colour == maze::DoorColour::Blue  ? QColor(0x2f, 0x6f, 0xe0)
             : colour == maze::DoorColour::Red ? QColor(0xd6, 0x3a, 0x32)
                                               : QColor(0xf0, 0x8c, 0x1a);
  return open ? c.lighter(150) : c;
}

}  // namespace

QRectF MazeView::tileRect(int index) const {
  const auto* state = dynamic_cast<const MazeState*>(state_.get());
  if (!state) return {};
  const double size =
      std::min(width() / double(state->width()), (height() - header()) / double(state->height()));
  const QPointF origin((width() - size * state->width()) / 2, header());
  return QRectF(origin.x() + state->xOf(index) * size, origin.y() + state->yOf(index) * size, size,
                size);
}

std::vector<GameView::Target> MazeView::targets() const {
  std::vector<Target> targets;
  const auto* state = dynamic_cast<const MazeState*>(state_.get());
  if (!state || !humanTurn_) return targets;
  for (Action a : legal_) {  // the tile each door or mark lies on, as the game describes it
    const Json does = state->actionJson(a);
    targets.push_back({tileRect(state->index(does["x"].get<int>(), does["y"].get<int>())), a});
  }
  return targets;
}

std::vector<GameView::HitArea> MazeView::hitAreas() const {
  return areasOf(targets());
}

void MazeView::click(QPointF point) {
  clickOn(targets(), point, "click a highlighted door or mark you can reach with the steps left");
}

void MazeView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), QColor(0x1e, 0x1e, 0x24));
  const auto* state = dynamic_cast<const MazeState*>(state_.get());
  if (!state) return;
  QFont font = painter.font();
  font.setBold(true);
  font.setPointSizeF(13);
  painter.setFont(font);
  painter.setPen(QColor(0x40, 0xe0, 0xd0));  // the thesis's turquoise number
  painter.drawText(QRectF(0, 0, width(), header()), Qt::AlignCenter,
                   QString("Steps left: %1    marks: %2 to check, %3 defused, %4 vanished")
                       .arg(state->stepsLeft())
                       .arg(state->activeMarks())
                       .arg(state->defusedMarks())
                       .arg(state->vanishedMarks()));
  for (int i = 0; i < state->width() * state->height(); ++i) {
    const maze::Tile tile = state->tile(i);
    const QRectF r = tileRect(i);
    QColor fill;
    switch (tile.kind()) {
      case maze::TileKind::Unknown:
        fill = QColor(0x33, 0x33, 0x3b);
        break;
      case maze::TileKind::Wall:
        fill = QColor(0x12, 0x12, 0x14);
        break;
      case maze::TileKind::Floor:
        fill = QColor(0xe9, 0xe1, 0xcf);
        break;
      case maze::TileKind::Door:
        fill = doorColour(tile.colour(), tile.open());
        break;
    }
    painter.fillRect(r, fill);
    if (tile.hasMark()) {
      painter.setPen(QPen(QColor(0x0b, 0x5d, 0x1e), 1));
      painter.setBrush(QColor(0x3c, 0xd0, 0x5a));
      painter.drawRect(
          r.adjusted(r.width() * 0.18, r.height() * 0.18, -r.width() * 0.18, -r.height() * 0.18));
    }
  }
  const QRectF me = tileRect(state->player());
  painter.setPen(QPen(QColor(0x80, 0x60, 0x00), 1.5));
  painter.setBrush(QColor(0xff, 0xd7, 0x00));
  painter.drawEllipse(me.center(), me.width() * 0.42, me.height() * 0.42);
  if (humanTurn_) {
    painter.setPen(QPen(Qt::white, 2));
    painter.setBrush(Qt::NoBrush);
    for (const auto& [rect, action] : targets()) painter.drawRect(rect.adjusted(-1, -1, 1, 1));
  }
}

}  // namespace ddalab::gui
