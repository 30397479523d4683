#include "app/gui/views/hexalines_view.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "games/hexalines/hexalines.h"

namespace ddalab::gui {

namespace hl = hexalines;

namespace {

constexpr double kSqrt3 = std::numbers::sqrt3;
const char* kPlayerColourNames[hl::kColours] = {"Red", "Green", "Blue"};
const QColor kBackground(0xf7, 0xf4, 0xec);
const QColor kEmptyFill(0xe4, 0xdf, 0xd2);
const QColor kAddFill(0xfd, 0xea, 0xcc);
const QColor kOutline(0xa8, 0x9f, 0x8a);
const QColor kGreyCell(0xd4, 0xd4, 0xd4);
const QColor kUncoloured(0x55, 0x55, 0x55);
const QColor kDead(0xa6, 0xa6, 0xa6);
const QColor kHighlight(0xff, 0x8c, 0x00);
const QColor kPreview(0x7b, 0x3f, 0xb0);

// `colour` blended towards white: 0 keeps it, 1 is white.
QColor tint(const QColor& colour, double towardsWhite) {
  const auto mix = [&](int c) { return static_cast<int>(c + (255 - c) * towardsWhite); };
  return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

// The unit vector from a field's centre towards side `side` (screen y points down).
QPointF sideDirection(int side) {
  const double angle = side * std::numbers::pi / 3;
  return {std::cos(angle), -std::sin(angle)};
}

QPolygonF hexagon(QPointF centre, double size) {
  QPolygonF corners;
  for (int k = 0; k < hl::kSides; ++k) {
    const double angle = (30 + 60 * k) * std::numbers::pi / 180;
    corners << centre + size * QPointF(std::cos(angle), -std::sin(angle));
  }
  return corners;
}

std::vector<int> sidesOf(const hl::Shape& shape, int segment) {
  std::vector<int> sides;
  for (int s = 0; s < hl::kSides; ++s)
    if (shape.segmentOf[s] == segment) sides.push_back(s);
  return sides;
}

// Where the arms of a segment of three sides or more meet (relative to the field's centre, in
// apothems): towards its sides, moved off the centre when another segment may pass there.
QPointF junctionOf(const hl::Shape& shape, const std::vector<int>& sides) {
  QPointF sum;
  for (int s : sides) sum += sideDirection(s);
  QPointF junction = sum * (0.6 / static_cast<double>(sides.size()));
  if (std::hypot(junction.x(), junction.y()) < 0.05 && shape.segments() > 1)
    junction = sideDirection(sides.front()) * 0.25;
  return junction;
}

// Segment `segment` of `shape` drawn on a field at `centre` with apothem `apothem`: a curve
// between the midpoints of two sides, or arms from each side's midpoint to a junction.
QPainterPath segmentPath(QPointF centre, double apothem, const hl::Shape& shape, int segment) {
  const std::vector<int> sides = sidesOf(shape, segment);
  const auto midpoint = [&](int side) { return centre + sideDirection(side) * apothem; };
  const auto inwards = [&](int side) { return centre + sideDirection(side) * (apothem * 0.45); };
  QPainterPath path;
  if (sides.size() == 2) {
    path.moveTo(midpoint(sides[0]));
    path.cubicTo(inwards(sides[0]), inwards(sides[1]), midpoint(sides[1]));
    return path;
  }
  const QPointF junction = centre + junctionOf(shape, sides) * apothem;
  for (int s : sides) {
    path.moveTo(midpoint(s));
    path.quadTo(inwards(s), junction);
  }
  return path;
}

// The pattern drawn in white along player `player`'s strokes, so that a line's owner shows
// without its colour (red and green look alike to many): red plain, green dashed, blue dotted.
Qt::PenStyle strokeMark(int player) {
  static const Qt::PenStyle kMarks[hl::kColours] = {Qt::NoPen, Qt::DashLine, Qt::DotLine};
  return player >= 0 && player < hl::kColours ? kMarks[player] : Qt::NoPen;
}

// One cell: the hexagon filled with `fill`, each segment a stroke in its colour over a casing
// of the fill (so a crossing segment visibly passes over the other), with its player's
// strokeMark (`marks`, per segment; none: unmarked).
void drawCell(QPainter& painter, QPointF centre, double size, const hl::Shape& shape,
              const std::array<QColor, hl::kMaxSegments>& colours, const QColor& fill,
              const std::array<Qt::PenStyle, hl::kMaxSegments>& marks = {}) {
  painter.setPen(QPen(kOutline, 1));
  painter.setBrush(fill);
  painter.drawPolygon(hexagon(centre, size));
  const double apothem = size * kSqrt3 / 2;
  const double width = size * 0.16;
  painter.setBrush(Qt::NoBrush);
  for (int segment = 0; segment < shape.segments(); ++segment) {
    const QPainterPath path = segmentPath(centre, apothem, shape, segment);
    painter.setPen(QPen(fill, width * 2, Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin));
    painter.drawPath(path);
    painter.setPen(QPen(colours[segment], width, Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin));
    painter.drawPath(path);
    if (marks[segment] != Qt::NoPen) {
      painter.setPen(QPen(Qt::white, width * 0.35, marks[segment], Qt::FlatCap, Qt::RoundJoin));
      painter.drawPath(path);
    }
    const std::vector<int> sides = sidesOf(shape, segment);
    if (sides.size() < 3) continue;
    painter.setPen(Qt::NoPen);
    painter.setBrush(colours[segment]);
    painter.drawEllipse(centre + junctionOf(shape, sides) * apothem, width * 0.8, width * 0.8);
    painter.setBrush(Qt::NoBrush);
  }
}

// `cell` turned by `sixths` sixths, each segment keeping its colour.
hl::Cell turned(const hl::Cell& cell, int sixths) {
  hl::Cell result = cell;
  result.shape = cell.shape.rotated(sixths);
  for (int s = 0; s < hl::kSides; ++s) {
    const uint8_t segment = result.shape.segmentOf[s];
    if (segment != hl::kWall)
      result.colour[segment] = cell.colourAt((s - sixths + hl::kSides) % hl::kSides);
  }
  return result;
}

void outline(QPainter& painter, QPointF centre, double size, const QPen& pen) {
  painter.setPen(pen);
  painter.setBrush(Qt::NoBrush);
  painter.drawPolygon(hexagon(centre, size));
}

QFont sizedFont(const QPainter& painter, double points, bool bold) {
  QFont f = painter.font();
  f.setPointSizeF(points);
  f.setBold(bold);
  return f;
}

}  // namespace

// Where everything is for the widget's size.
struct HexaLinesView::Layout {
  double size = 0;  // a field's circumradius
  QPointF centre;   // the board's centre field
  QRectF scores, pieceLabel, confirm, hint;
  QPointF pieceCentre;
  QPointF fieldCentre(hl::Hex hex) const {
    return centre + QPointF(kSqrt3 * size * (hex.q + hex.r / 2.0), 1.5 * size * hex.r);
  }
  QRectF fieldRect(hl::Hex hex) const {
    const double half = size * 0.5;
    return {fieldCentre(hex) - QPointF(half, half), QSizeF(2 * half, 2 * half)};
  }
  // The hex under `point` (cube rounding of the fractional axial coordinates).
  hl::Hex hexAt(QPointF point) const {
    const QPointF d = (point - centre) / size;
    const double q = kSqrt3 / 3 * d.x() - d.y() / 3, r = 2.0 / 3 * d.y(), s = -q - r;
    double rq = std::round(q), rr = std::round(r);
    const double rs = std::round(s);
    const double dq = std::abs(rq - q), dr = std::abs(rr - r), ds = std::abs(rs - s);
    if (dq > dr && dq > ds)
      rq = -rr - rs;
    else if (dr > ds)
      rr = -rq - rs;
    return {static_cast<int>(rq), static_cast<int>(rr)};
  }
};

HexaLinesView::HexaLinesView(QWidget* parent) : GameView(parent) {
  setFocusPolicy(Qt::ClickFocus);  // Esc cancels a rotation
}

const hl::HexaLinesState* HexaLinesView::hexState() const {
  return dynamic_cast<const hl::HexaLinesState*>(state_.get());
}

QColor HexaLinesView::playerColour(int player) const {
  static const int kSeatOfColour[hl::kColours] = {0, 2, 1};  // seatColour: red, blue, green
  return seatColour(kSeatOfColour[((player % 3) + 3) % 3]);
}

QString HexaLinesView::playerMark(int player) const {
  return QString(kPlayerColourNames[((player % 3) + 3) % 3]).left(1);
}

HexaLinesView::Layout HexaLinesView::layout() const {
  Layout l;
  const hl::HexaLinesState* state = hexState();
  const int radius = state ? state->board().radius() : 3;
  const double margin = 10, scoresHeight = 34, hintHeight = 40;  // two lines of hint
  const double boardRows = 3 * radius + 2, pieceRows = 2.5;      // in circumradii
  l.size = std::min((width() - 2 * margin) / ((2 * radius + 1) * kSqrt3),
                    (height() - 2 * margin - scoresHeight - hintHeight) / (boardRows + pieceRows));
  l.scores = QRectF(margin, margin, width() - 2 * margin, scoresHeight);
  l.centre = QPointF(width() / 2.0, l.scores.bottom() + boardRows / 2 * l.size);
  const double pieceTop = l.scores.bottom() + boardRows * l.size;
  l.pieceCentre = QPointF(l.centre.x(), pieceTop + pieceRows / 2 * l.size);
  const double side = 1.6 * l.size;
  l.pieceLabel = QRectF(margin, l.pieceCentre.y() - 20, l.pieceCentre.x() - side - margin, 40);
  l.confirm = QRectF(l.pieceCentre.x() + side, l.pieceCentre.y() - 19, 120, 38);
  l.hint = QRectF(margin, pieceTop + pieceRows * l.size, width() - 2 * margin, hintHeight);
  return l;
}

QPointF HexaLinesView::fieldCentre(int field) const {
  const hl::HexaLinesState* state = hexState();
  return state ? layout().fieldCentre(state->board().hexOf(field)) : QPointF();
}

std::vector<int> HexaLinesView::rotationsOf(int field) const {
  std::vector<int> sixths;
  const hl::HexaLinesState* state = hexState();
  if (!state || !humanTurn_) return sixths;
  for (Action a : legal_)
    if (const Json does = state->actionJson(a); does["verb"] == "rotate" && does["field"] == field)
      sixths.push_back(does["sixths"].get<int>());
  std::sort(sixths.begin(), sixths.end());
  return sixths;
}

std::optional<Action> HexaLinesView::addOn(int field) const {
  return legalWhere({{"verb", "add"}, {"field", field}});
}

std::optional<Action> HexaLinesView::rotation(int field, int sixths) const {
  return legalWhere({{"verb", "rotate"}, {"field", field}, {"sixths", sixths}});
}

std::vector<HexaLinesView::Target> HexaLinesView::targets() const {
  std::vector<Target> result;
  const hl::HexaLinesState* state = hexState();
  if (!state || !humanTurn_ || state->actor() != state->player()) return result;
  const Layout l = layout();
  const hl::Board& board = state->board();
  if (rotatingField_) {
    const int field = *rotatingField_;
    result.push_back(
        {l.confirm, Target::Kind::Confirm, field,
         QString::fromStdString(state->actionToString(*rotation(field, sixths_)))});
    if (rotationsOf(field).size() > 1)
      result.push_back({l.fieldRect(board.hexOf(field)), Target::Kind::TurnFurther, field,
                        "turn the cell one sixth further"});
  }
  for (int field = 0; field < state->fields(); ++field) {
    const hl::Hex hex = board.hexOf(field);
    if (field != rotatingField_ && !rotationsOf(field).empty())
      result.push_back({l.fieldRect(hex), Target::Kind::StartRotation, field,
                        QString("choose the cell at (%1,%2) to rotate").arg(hex.q).arg(hex.r)});
    else if (const auto add = rotatingField_ ? std::nullopt : addOn(field))
      result.push_back({l.fieldRect(hex), Target::Kind::Add, field,
                        QString::fromStdString(state->actionToString(*add))});
  }
  return result;
}

std::vector<GameView::HitArea> HexaLinesView::hitAreas() const {
  std::vector<HitArea> areas;
  for (const Target& t : targets()) areas.push_back({t.rect, t.label});
  return areas;
}

QString HexaLinesView::whyNot(int field) const {
  const hl::HexaLinesState& state = *hexState();
  if (field == state.board().centre()) return "the centre holds the sources: it can't be rotated";
  const hl::Cell& cell = state.cell(field);
  if (cell.empty()) return "not next to an occupied field: add the cell next to a placed one";
  if (cell.owner != hl::kNobody && cell.owner != state.player())
    return QString("that cell is %1's: you may rotate only your own or grey cells")
        .arg(QString(kPlayerColourNames[cell.owner]).toLower());
  return "that cell looks the same however it is turned: rotating it is no move";
}

void HexaLinesView::click(QPointF point) {
  const hl::HexaLinesState* state = hexState();
  if (!state) return;
  const Layout l = layout();
  if (rotatingField_ && l.confirm.contains(point)) return confirmRotation();
  const std::optional<int> field = state->board().fieldAt(l.hexAt(point));
  if (rotatingField_ && field == rotatingField_) return turnFurther();
  if (field && !rotationsOf(*field).empty()) return startRotation(*field);
  if (rotatingField_) return cancelRotation("rotation cancelled");
  if (const auto add = field ? addOn(*field) : std::nullopt) {
    emit actionChosen(*add);
    return;
  }
  emit refused(field ? whyNot(*field)
                     : "click a highlighted empty field to add the cell, or your own or a grey "
                       "cell to rotate it");
}

void HexaLinesView::startRotation(int field) {
  rotatingField_ = field;
  sixths_ = rotationsOf(field).front();
  setFocus();
  update();
}

void HexaLinesView::turnFurther() {
  const std::vector<int> sixths = rotationsOf(*rotatingField_);
  const auto next = std::upper_bound(sixths.begin(), sixths.end(), sixths_);
  sixths_ = next == sixths.end() ? sixths.front() : *next;
  update();
}

void HexaLinesView::confirmRotation() {
  const Action action = *rotation(*rotatingField_, sixths_);
  resetChoice();
  update();
  emit actionChosen(action);
}

void HexaLinesView::cancelRotation(const QString& why) {
  resetChoice();
  update();
  emit refused(why);
}

void HexaLinesView::resetChoice() {
  rotatingField_.reset();
  sixths_ = 0;
}

void HexaLinesView::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::RightButton && humanTurn_ && rotatingField_) return confirmRotation();
  GameView::mousePressEvent(event);
}

bool HexaLinesView::event(QEvent* event) {
  // While a rotation is previewed, Esc cancels it rather than triggering the window's Stop.
  if (event->type() == QEvent::ShortcutOverride && rotatingField_ &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
    event->accept();
    return true;
  }
  return GameView::event(event);
}

void HexaLinesView::keyPressEvent(QKeyEvent* event) {
  if (!rotatingField_) return GameView::keyPressEvent(event);
  if (event->key() == Qt::Key_Escape) return cancelRotation("rotation cancelled");
  if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) return confirmRotation();
  GameView::keyPressEvent(event);
}

void HexaLinesView::paintBoard(QPainter& painter, const Layout& l) const {
  const hl::HexaLinesState& state = *hexState();
  const hl::Board& board = state.board();
  std::vector<bool> addable(static_cast<size_t>(state.fields()));
  for (const Target& t : targets())
    if (t.kind == Target::Kind::Add) addable[static_cast<size_t>(t.field)] = true;
  for (int field = 0; field < state.fields(); ++field) {
    const QPointF centre = l.fieldCentre(board.hexOf(field));
    hl::Cell cell = state.cell(field);
    if (field == rotatingField_) cell = turned(cell, sixths_);
    if (field == board.centre() || cell.empty()) {
      painter.setPen(QPen(kOutline, 1));
      painter.setBrush(addable[static_cast<size_t>(field)] ? kAddFill : kEmptyFill);
      painter.drawPolygon(hexagon(centre, l.size));
      continue;
    }
    std::array<QColor, hl::kMaxSegments> colours;
    std::array<Qt::PenStyle, hl::kMaxSegments> marks{};
    for (int s = 0; s < hl::kMaxSegments; ++s) {
      colours[s] = cell.colour[s] == hl::kNobody ? kUncoloured : playerColour(cell.colour[s]);
      marks[s] = cell.colour[s] == hl::kNobody ? Qt::NoPen : strokeMark(cell.colour[s]);
    }
    const QColor fill =
        cell.owner == hl::kNobody ? kGreyCell : tint(playerColour(cell.owner), 0.72);
    drawCell(painter, centre, l.size, cell.shape, colours, fill, marks);
  }
  // The sources: a stroke from the centre's hub through each player's side.
  const QPointF hub = l.fieldCentre(board.hexOf(board.centre()));
  const double apothem = l.size * kSqrt3 / 2;
  for (int p = 0; p < hl::kColours; ++p) {
    const QColor colour = state.alive(p) ? playerColour(p) : kDead;
    const QLineF source(hub, hub + sideDirection(hl::HexaLinesState::sourceSide(p)) * apothem);
    painter.setPen(QPen(colour, l.size * 0.16, Qt::SolidLine, Qt::FlatCap));
    painter.drawLine(source);
    if (strokeMark(p) != Qt::NoPen) {
      painter.setPen(QPen(Qt::white, l.size * 0.16 * 0.35, strokeMark(p), Qt::FlatCap));
      painter.drawLine(source);
    }
  }
  painter.setPen(Qt::NoPen);
  painter.setBrush(QColor(0x3a, 0x3a, 0x3a));
  painter.drawEllipse(hub, l.size * 0.2, l.size * 0.2);
}

void HexaLinesView::paintHighlights(QPainter& painter, const Layout& l) const {
  const hl::Board& board = hexState()->board();
  for (const Target& t : targets()) {
    const QPointF centre = l.fieldCentre(board.hexOf(t.field));
    switch (t.kind) {
      case Target::Kind::Add:
        outline(painter, centre, l.size * 0.94, QPen(kHighlight, 3));
        break;
      case Target::Kind::StartRotation:
        outline(painter, centre, l.size * 0.92, QPen(kPreview, 2.5, Qt::DashLine));
        break;
      case Target::Kind::TurnFurther:
      case Target::Kind::Confirm:
        break;
    }
  }
  if (rotatingField_)
    outline(painter, l.fieldCentre(board.hexOf(*rotatingField_)), l.size * 0.94, QPen(kPreview, 4));
}

void HexaLinesView::paintScores(QPainter& painter, const Layout& l) const {
  const hl::HexaLinesState& state = *hexState();
  painter.setFont(sizedFont(painter, 12, true));
  const double slot = l.scores.width() / hl::kColours;
  for (int p = 0; p < hl::kColours; ++p) {
    const QRectF r(l.scores.left() + p * slot, l.scores.top(), slot, l.scores.height());
    const bool alive = state.alive(p);
    QString text = QString("%1 %2").arg(kPlayerColourNames[p]).arg(state.gain(p));
    if (!alive) text += " — out";
    const QColor colour = alive ? playerColour(p).darker(115) : kDead;
    if (!state.isTerminal() && state.player() == p) {  // the player on turn
      painter.setPen(QPen(colour, 2));
      painter.setBrush(tint(colour, 0.85));
      const double w = painter.fontMetrics().horizontalAdvance(text) + 28;
      painter.drawRoundedRect(QRectF(r.center().x() - w / 2, r.top() + 2, w, r.height() - 4), 8, 8);
    }
    painter.setPen(colour);
    painter.drawText(r, Qt::AlignCenter, text);
  }
}

void HexaLinesView::paintCellToPlace(QPainter& painter, const Layout& l) const {
  const hl::HexaLinesState& state = *hexState();
  painter.setFont(sizedFont(painter, 12, true));
  painter.setPen(QColor(0x33, 0x33, 0x33));
  painter.drawText(l.pieceLabel, Qt::AlignRight | Qt::AlignVCenter, "Cell to place");
  const double size = l.size * 1.05;
  if (!state.isTerminal() && state.revealedClass() >= 0) {
    drawCell(painter, l.pieceCentre, size, state.revealedShape(),
             {kUncoloured, kUncoloured, kUncoloured}, kEmptyFill.lighter(104));
  } else {
    painter.setPen(QPen(kOutline, 1, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawPolygon(hexagon(l.pieceCentre, size));
    painter.drawText(QRectF(l.pieceCentre - QPointF(size, size), QSizeF(2 * size, 2 * size)),
                     Qt::AlignCenter, state.isTerminal() ? "–" : "?");
  }
  const bool pending = rotatingField_.has_value();
  painter.setPen(QPen(pending ? kPreview : QColor(0xbb, 0xbb, 0xbb), 1.5));
  painter.setBrush(pending ? kPreview : QColor(0xea, 0xea, 0xea));
  painter.drawRoundedRect(l.confirm, 8, 8);
  painter.setPen(pending ? Qt::white : QColor(0x9a, 0x9a, 0x9a));
  painter.drawText(l.confirm, Qt::AlignCenter, "Rotate");
}

QString HexaLinesView::hint() const {
  const hl::HexaLinesState& state = *hexState();
  if (state.isTerminal())
    return state.winner() >= 0 ? QString("Game over: %1 wins").arg(kPlayerColourNames[state.winner()])
                               : QString("Game over: a draw");
  const QString mover = kPlayerColourNames[state.player()];
  if (rotatingField_)
    return QString(
               "Turned %1 sixth%2: click the cell to turn it further; Rotate or a right click "
               "confirms, Esc or a click elsewhere cancels")
        .arg(sixths_)
        .arg(sixths_ == 1 ? "" : "s");
  if (humanTurn_)
    return QString(
               "Your turn (%1): add the cell on a highlighted field, or click your own or a "
               "grey cell (dashed purple) to rotate it")
        .arg(mover);
  return state.actor() == kEnvironment ? QString("The cell for %1 is revealed").arg(mover)
                                       : QString("%1 to move").arg(mover);
}

void HexaLinesView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), kBackground);
  if (!hexState()) return;
  const Layout l = layout();
  paintScores(painter, l);
  paintBoard(painter, l);
  paintHighlights(painter, l);
  paintCellToPlace(painter, l);
  painter.setFont(sizedFont(painter, 10.5, false));
  painter.setPen(QColor(0x33, 0x33, 0x33));
  painter.drawText(l.hint, Qt::AlignCenter | Qt::TextWordWrap, hint());  // never cut off
}

QPixmap HexaLinesView::outcomeIcon(const State& before, Action outcome, int size) const {
  const auto* state = dynamic_cast<const hl::HexaLinesState*>(&before);
  if (!state || !state->isEnvironmentNode()) return {};
  QPixmap pixmap(size, size);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  drawCell(painter, QPointF(size / 2.0, size / 2.0), size * 0.48, state->dealtShape(outcome),
           {kUncoloured, kUncoloured, kUncoloured}, kEmptyFill.lighter(104));
  return pixmap;
}

}  // namespace ddalab::gui
