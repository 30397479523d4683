#include "app/gui/views/ludo_view.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string>

#include "games/ludo/ludo.h"

namespace ddalab::gui {

namespace {

using ludo::LudoState;
using Cell = std::pair<int, int>;

constexpr int kGrid = 11;

// The 40 shared squares on the 11 x 11 grid, from seat 0's start clockwise around the cross.
constexpr std::array<Cell, ludo::kRing> kRingCells = {{
    {0, 4},  {1, 4}, {2, 4}, {3, 4}, {4, 4}, {4, 3}, {4, 2}, {4, 1}, {4, 0},  {5, 0},
    {6, 0},  {6, 1}, {6, 2}, {6, 3}, {6, 4}, {7, 4}, {8, 4}, {9, 4}, {10, 4}, {10, 5},
    {10, 6}, {9, 6}, {8, 6}, {7, 6}, {6, 6}, {6, 7}, {6, 8}, {6, 9}, {6, 10}, {5, 10},
    {4, 10}, {4, 9}, {4, 8}, {4, 7}, {4, 6}, {3, 6}, {2, 6}, {1, 6}, {0, 6},  {0, 5},
}};
// Per seat, its four home squares (relative squares 40..43) and its house (pieces off board).
constexpr std::array<std::array<Cell, 4>, ludo::kSeats> kHomeCells = {{
    {{{1, 5}, {2, 5}, {3, 5}, {4, 5}}},
    {{{5, 1}, {5, 2}, {5, 3}, {5, 4}}},
    {{{9, 5}, {8, 5}, {7, 5}, {6, 5}}},
    {{{5, 9}, {5, 8}, {5, 7}, {5, 6}}},
}};
constexpr std::array<std::array<Cell, 4>, ludo::kSeats> kHouseCells = {{
    {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
    {{{9, 0}, {10, 0}, {9, 1}, {10, 1}}},
    {{{9, 9}, {10, 9}, {9, 10}, {10, 10}}},
    {{{0, 9}, {1, 9}, {0, 10}, {1, 10}}},
}};
constexpr Cell kCentre = {5, 5};

// Where piece `index` of `seat` stands (its house slot counts the pieces before it at home).
Cell pieceCell(const LudoState& state, int seat, int index) {
  const int r = state.piece(seat, index);
  if (r == ludo::kInHouse) {
    int slot = 0;
    for (int i = 0; i < index; ++i) slot += state.piece(seat, i) == ludo::kInHouse;
    return kHouseCells[seat][slot];
  }
  if (r < ludo::kRing) return kRingCells[(10 * seat + r) % ludo::kRing];
  return kHomeCells[seat][r - ludo::kRing];
}

bool seatPlays(const LudoState& state, int seat) {
  return state.numPlayers() == 4 || seat % 2 == 0;
}

void drawDie(QPainter& painter, const QRectF& rect, int face) {
  painter.setPen(QPen(Qt::black, 1.5));
  painter.setBrush(Qt::white);
  painter.drawRoundedRect(rect, rect.width() * 0.15, rect.width() * 0.15);
  if (face < 1 || face > 6) {
    painter.drawText(rect, Qt::AlignCenter, "?");
    return;
  }
  static const std::array<std::vector<QPointF>, 7> kPips = {{
      {},
      {{0.5, 0.5}},
      {{0.25, 0.25}, {0.75, 0.75}},
      {{0.25, 0.25}, {0.5, 0.5}, {0.75, 0.75}},
      {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}},
      {{0.25, 0.25}, {0.75, 0.25}, {0.5, 0.5}, {0.25, 0.75}, {0.75, 0.75}},
      {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.5}, {0.75, 0.5}, {0.25, 0.75}, {0.75, 0.75}},
  }};
  painter.setBrush(Qt::black);
  painter.setPen(Qt::NoPen);
  const double r = rect.width() * 0.09;
  for (const QPointF& p : kPips[face])
    painter.drawEllipse(
        QPointF(rect.left() + p.x() * rect.width(), rect.top() + p.y() * rect.height()), r, r);
}

}  // namespace

QRectF LudoView::cell(int x, int y) const {
  const double size = std::min(width(), height()) / double(kGrid);
  const QPointF origin((width() - size * kGrid) / 2, (height() - size * kGrid) / 2);
  return QRectF(origin.x() + x * size, origin.y() + y * size, size, size);
}

std::vector<GameView::Target> LudoView::targets() const {
  std::vector<std::pair<QRectF, Action>> result;
  const auto* state = dynamic_cast<const LudoState*>(state_.get());
  if (!state || !humanTurn_ || state->actor() < 0) return result;
  const int seat = state->seatOf(state->actor());
  for (Action a : legal_) {  // the pieces each action moves, as the game describes it
    const Json does = state->actionJson(a);
    const std::string verb = does.value("verb", "");
    if (verb == "pass") {
      result.push_back({cell(kCentre.first, kCentre.second), a});
      continue;
    }
    for (int i = 0; i < ludo::kPieces; ++i) {
      const int r = state->piece(seat, i);
      if (verb == "enter" ? r == ludo::kInHouse : verb == "move" && does["from"] == r) {
        const Cell c = pieceCell(*state, seat, i);
        result.push_back({cell(c.first, c.second), a});
      }
    }
  }
  return result;
}

QColor LudoView::playerColour(int player) const {
  const auto* state = dynamic_cast<const LudoState*>(this->state());
  return seatColour(state ? state->seatOf(player) : player);
}

QString LudoView::playerMark(int player) const {
  const auto* state = dynamic_cast<const LudoState*>(this->state());
  return seatLetter(state ? state->seatOf(player) : player);
}

std::vector<GameView::HitArea> LudoView::hitAreas() const {
  return areasOf(targets());
}

void LudoView::click(QPointF point) {
  clickOn(targets(), point, "click a highlighted piece (it can move with this roll)");
}

void LudoView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), QColor(0xf4, 0xe7, 0xc5));
  const auto* state = dynamic_cast<const LudoState*>(state_.get());
  if (!state) return;
  const auto square = [&](Cell c, const QColor& fill) {
    const QRectF r = cell(c.first, c.second).adjusted(3, 3, -3, -3);
    painter.setPen(QPen(QColor(0x55, 0x45, 0x30), 1.5));
    painter.setBrush(fill);
    painter.drawEllipse(r);
  };
  for (int i = 0; i < ludo::kRing; ++i) {
    const int seat = i % 10 == 0 ? i / 10 : -1;  // a seat's start square
    QColor fill = Qt::white;
    if (seat >= 0)
      fill = seatColour(seat).lighter(170);  // a start square: safe, in its seat's colour
    else if (state->config().isSafe(i))
      fill = QColor(0xb8, 0xb0, 0xa0);  // the other safe squares, darker
    square(kRingCells[i], fill);
  }
  for (int seat = 0; seat < ludo::kSeats; ++seat) {
    const QColor light = seatColour(seat).lighter(seatPlays(*state, seat) ? 160 : 190);
    for (Cell c : kHomeCells[seat]) square(c, light);
    for (Cell c : kHouseCells[seat]) square(c, light);
  }
  // Movable pieces stand on a white square (thesis figure 24), outlined to stand out.
  for (const auto& [rect, action] : targets()) {
    painter.setPen(QPen(QColor(0xff, 0x8c, 0x00), 3));
    painter.setBrush(Qt::white);
    painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), 8, 8);
  }
  // Each piece carries its seat's letter: red and green pieces look alike to many.
  QFont letterFont = painter.font();
  letterFont.setBold(true);
  letterFont.setPixelSize(std::max(8, static_cast<int>(cell(0, 0).width() * 0.3)));
  painter.setFont(letterFont);
  for (int seat = 0; seat < ludo::kSeats; ++seat) {
    if (!seatPlays(*state, seat)) continue;
    for (int i = 0; i < ludo::kPieces; ++i) {
      const Cell c = pieceCell(*state, seat, i);
      const QRectF r = cell(c.first, c.second);
      const double radius = r.width() * 0.3;
      painter.setPen(QPen(seatColour(seat).darker(160), 2));
      painter.setBrush(seatColour(seat));
      painter.drawEllipse(r.center(), radius, radius);
      painter.setPen(seat == 3 ? Qt::black : Qt::white);  // legible on yellow too
      painter.drawText(QRectF(r.center() - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius)),
                       Qt::AlignCenter, seatLetter(seat));
    }
  }
  const QRectF centre = cell(kCentre.first, kCentre.second).adjusted(6, 6, -6, -6);
  drawDie(painter, centre, state->currentRoll());
  if (humanTurn_ && legalWhere({{"verb", "pass"}})) {  // the only move when nothing can move
    painter.setPen(QPen(QColor(0xff, 0x8c, 0x00), 3));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(centre.adjusted(-4, -4, 4, 4), 8, 8);
  }
}

QPixmap LudoView::outcomeIcon(const State& before, Action outcome, int size) const {
  if (!dynamic_cast<const LudoState*>(&before) || !before.isEnvironmentNode()) return {};
  QPixmap pixmap(size, size);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  drawDie(painter, QRectF(1, 1, size - 2, size - 2), outcome);
  return pixmap;
}

}  // namespace ddalab::gui
