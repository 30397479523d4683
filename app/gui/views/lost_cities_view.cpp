#include "app/gui/views/lost_cities_view.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "games/lost-cities/lost_cities.h"

namespace ddalab::gui {

namespace lc = lostcities;

namespace {

const QColor kCardColours[lc::kColours] = {QColor(0xf2, 0xc9, 0x4c), QColor(0x4a, 0x8b, 0xe8),
                                           QColor(0xe8, 0xe8, 0xe8), QColor(0x3c, 0xb3, 0x6b),
                                           QColor(0xe0, 0x5a, 0x4f)};
const char* kExpeditionNames[lc::kColours] = {"yellow", "blue", "white", "green", "red"};

// The cards of a set in the order they are laid out: per colour, wagers then numbers rising.
std::vector<int> cardsOf(const lc::CardSet& set) {
  std::vector<int> kinds;
  for (int colour = 0; colour < lc::kColours; ++colour)
    for (int rank = 0; rank < lc::kRanks; ++rank)
      for (int k = 0; k < set.count(lc::kindOf(colour, rank)); ++k)
        kinds.push_back(lc::kindOf(colour, rank));
  return kinds;
}

std::vector<int> cardsOfColour(const lc::CardSet& set, int colour) {
  std::vector<int> kinds;
  for (int rank = 0; rank < lc::kRanks; ++rank)
    for (int k = 0; k < set.count(lc::kindOf(colour, rank)); ++k)
      kinds.push_back(lc::kindOf(colour, rank));
  return kinds;
}

QString cardText(int kind) {
  return lc::rankOf(kind) == lc::kWagerRank ? QString("W") : QString::number(lc::valueOf(kind));
}

// Expedition `colour`'s shape, drawn in `pen` within `box` (a square): yellow a circle, blue a
// square, white a diamond, green a triangle, red a cross — the expeditions are never told apart
// by colour alone (green and red look alike to many).
void drawExpeditionShape(QPainter& painter, const QRectF& box, int colour, const QColor& pen) {
  painter.save();
  painter.setPen(QPen(pen, std::max(1.5, box.width() * 0.14)));
  painter.setBrush(Qt::NoBrush);
  const QRectF r = box.adjusted(box.width() * 0.15, box.height() * 0.15, -box.width() * 0.15,
                                -box.height() * 0.15);
  const QPointF c = r.center();
  switch (colour) {
    case 0:
      painter.drawEllipse(r);
      break;
    case 1:
      painter.drawRect(r);
      break;
    case 2:
      painter.drawPolygon(QPolygonF({QPointF(c.x(), r.top()), QPointF(r.right(), c.y()),
                                     QPointF(c.x(), r.bottom()), QPointF(r.left(), c.y())}));
      break;
    case 3:
      painter.drawPolygon(QPolygonF(
          {QPointF(c.x(), r.top()), QPointF(r.right(), r.bottom()), QPointF(r.left(), r.bottom())}));
      break;
    default:
      painter.drawLine(r.topLeft(), r.bottomRight());
      painter.drawLine(r.topRight(), r.bottomLeft());
      break;
  }
  painter.restore();
}

// The shape's square in the bottom right corner of a card or slot `rect`.
QRectF shapeBox(const QRectF& rect) {
  const double side = std::min(rect.width(), rect.height()) * 0.3;
  return QRectF(rect.right() - side - 3, rect.bottom() - side - 3, side, side);
}

void drawCard(QPainter& painter, const QRectF& rect, int kind) {
  painter.setPen(QPen(QColor(0x30, 0x30, 0x30), 1.2));
  painter.setBrush(kCardColours[lc::colourOf(kind)]);
  painter.drawRoundedRect(rect, 5, 5);
  QFont font = painter.font();
  font.setBold(true);
  font.setPointSizeF(std::max(7.0, rect.height() * 0.22));
  painter.setFont(font);
  painter.setPen(Qt::black);
  painter.drawText(rect.adjusted(4, 2, -4, -2), Qt::AlignLeft | Qt::AlignTop, cardText(kind));
  drawExpeditionShape(painter, shapeBox(rect), lc::colourOf(kind), QColor(0x30, 0x30, 0x30));
}

void drawBack(QPainter& painter, const QRectF& rect) {
  painter.setPen(QPen(QColor(0x20, 0x20, 0x20), 1.2));
  painter.setBrush(QColor(0x5a, 0x3e, 0x2b));
  painter.drawRoundedRect(rect, 5, 5);
  painter.setPen(QPen(QColor(0xc8, 0xa8, 0x6a), 1));
  painter.drawRoundedRect(rect.adjusted(4, 4, -4, -4), 3, 3);
}

void highlight(QPainter& painter, const QRectF& rect) {
  painter.setPen(QPen(QColor(0xff, 0x8c, 0x00), 3));
  painter.setBrush(Qt::NoBrush);
  painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), 7, 7);
}

}  // namespace

// Where everything is for the widget's size.
struct LostCitiesView::Layout {
  double cardWidth, cardHeight;
  QRectF opponentHand, ownHand;
  std::array<QRectF, lc::kColours> opponentExpeditions, ownExpeditions, piles;
  QRectF deck;
  // The rect of card `index` of `count` laid out in `area` (a hand: side by side).
  QRectF handCard(const QRectF& area, int index, int count) const {
    const double step =
        std::min(cardWidth * 1.08, (area.width() - cardWidth) / std::max(1, count - 1));
    const double width = cardWidth + step * (count - 1);
    return {area.center().x() - width / 2 + step * index, area.top(), cardWidth, cardHeight};
  }
  // Card `index` of an expedition of `count` cards, stacked downwards so every value shows.
  QRectF stackCard(const QRectF& area, int index, int count) const {
    const double step =
        std::min(cardHeight * 0.3, (area.height() - cardHeight) / std::max(1, count - 1));
    return {area.left(), area.top() + step * index, cardWidth, cardHeight};
  }
};

LostCitiesView::Layout LostCitiesView::layout() const {
  Layout l{};
  const double margin = 10;
  l.cardWidth = std::min((width() - 2 * margin) / 12.0, (height() - 2 * margin) / 9.5 / 1.45);
  l.cardHeight = l.cardWidth * 1.45;
  const double gap = l.cardWidth * 0.35;
  const double expeditionHeight = (height() - 2 * margin - 3 * l.cardHeight - 4 * gap) / 2;
  const double columns = lc::kColours * l.cardWidth + (lc::kColours - 1) * gap;
  const double left = (width() - columns - l.cardWidth * 1.6) / 2;
  double y = margin;
  l.opponentHand = QRectF(margin, y, width() - 2 * margin, l.cardHeight);
  y += l.cardHeight + gap;
  for (int c = 0; c < lc::kColours; ++c)
    l.opponentExpeditions[c] =
        QRectF(left + c * (l.cardWidth + gap), y, l.cardWidth, expeditionHeight);
  y += expeditionHeight + gap;
  for (int c = 0; c < lc::kColours; ++c)
    l.piles[c] = QRectF(left + c * (l.cardWidth + gap), y, l.cardWidth, l.cardHeight);
  l.deck = QRectF(left + columns + l.cardWidth * 0.6, y, l.cardWidth, l.cardHeight);
  y += l.cardHeight + gap;
  for (int c = 0; c < lc::kColours; ++c)
    l.ownExpeditions[c] = QRectF(left + c * (l.cardWidth + gap), y, l.cardWidth, expeditionHeight);
  y += expeditionHeight + gap;
  l.ownHand = QRectF(margin, y, width() - 2 * margin, l.cardHeight);
  return l;
}

void LostCitiesView::resetChoice() {
  card_.reset();
  discard_.reset();
}

std::vector<LostCitiesView::Target> LostCitiesView::targets() const {
  std::vector<Target> result;
  const auto* state = dynamic_cast<const lc::LostCitiesState*>(state_.get());
  if (!state || !humanTurn_ || state->actor() != perspective_) return result;
  const Layout l = layout();
  const std::vector<int> hand = cardsOf(state->hand(perspective_));
  // The legal actions are picked by what they do (the card, play or discard, where to draw).
  for (size_t i = 0; i < hand.size(); ++i)  // a (new) card can always be chosen
    if (legalWhere({{"card", hand[i]}}))
      result.push_back({l.handCard(l.ownHand, static_cast<int>(i), static_cast<int>(hand.size())),
                        Target::Kind::HandCard, hand[i],
                        "choose " + QString::fromStdString(lc::cardName(hand[i]))});
  if (!card_) return result;
  const int colour = lc::colourOf(*card_);
  if (!discard_) {
    if (legalWhere({{"card", *card_}, {"verb", "play"}}))
      result.push_back({l.ownExpeditions[colour], Target::Kind::Play, *card_,
                        QString("play onto the %1 expedition").arg(kExpeditionNames[colour])});
    if (legalWhere({{"card", *card_}, {"verb", "discard"}}))
      result.push_back({l.piles[colour], Target::Kind::Discard, *card_,
                        QString("discard onto the %1 pile").arg(kExpeditionNames[colour])});
    return result;
  }
  const auto drawing = [&](Json where) {  // the chosen card's action drawing from `where`
    where["card"] = *card_;
    where["verb"] = *discard_ ? "discard" : "play";
    return legalWhere(where);
  };
  if (const auto deck = drawing({{"draw", "deck"}}))
    result.push_back({l.deck, Target::Kind::Draw, *deck, QString("draw from the deck")});
  for (int pile = 0; pile < lc::kColours; ++pile)
    if (const auto take = drawing({{"draw", "pile"}, {"pile", pile}}))
      result.push_back({l.piles[pile], Target::Kind::Draw, *take,
                        QString("take the top of the %1 pile").arg(kExpeditionNames[pile])});
  return result;
}

std::vector<GameView::HitArea> LostCitiesView::hitAreas() const {
  std::vector<HitArea> areas;
  for (const Target& t : targets()) areas.push_back({t.rect, t.label});
  return areas;
}

void LostCitiesView::click(QPointF point) {
  // Later targets (draw sources, destinations) lie over nothing else; hand cards may overlap,
  // so the last card drawn under the point wins.
  const std::vector<Target> all = targets();
  for (auto t = all.rbegin(); t != all.rend(); ++t) {
    if (!t->rect.contains(point)) continue;
    switch (t->kind) {
      case Target::Kind::HandCard:
        card_ = t->value;
        discard_.reset();
        break;
      case Target::Kind::Play:
      case Target::Kind::Discard:
        discard_ = t->kind == Target::Kind::Discard;
        break;
      case Target::Kind::Draw: {
        const Action action = t->value;
        resetChoice();
        emit actionChosen(action);
        break;
      }
    }
    update();
    return;
  }
  emit refused(!card_      ? "choose a card of your hand first"
               : !discard_ ? "play the card onto its expedition or discard it onto its pile"
                           : "draw from the deck or take the top of a highlighted pile");
}

void LostCitiesView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), QColor(0x2f, 0x4f, 0x3a));
  const auto* state = dynamic_cast<const lc::LostCitiesState*>(state_.get());
  if (!state) return;
  const Layout l = layout();
  const int own = perspective_, opponent = 1 - perspective_;
  // The opponent's hand face down: its cards are what the person may not know (the researcher's
  // switch turns them up).
  const std::vector<int> theirHand = cardsOf(state->hand(opponent));
  const int opponentCards = static_cast<int>(theirHand.size());
  for (int i = 0; i < opponentCards; ++i) {
    const QRectF r = l.handCard(l.opponentHand, i, opponentCards);
    if (showHidden_)
      drawCard(painter, r, theirHand[static_cast<size_t>(i)]);
    else
      drawBack(painter, r);
  }
  for (int c = 0; c < lc::kColours; ++c) {
    painter.setPen(QPen(kCardColours[c].darker(130), 1, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(l.opponentExpeditions[c], 5, 5);
    painter.drawRoundedRect(l.ownExpeditions[c], 5, 5);
    for (const QRectF& slot : {l.opponentExpeditions[c], l.ownExpeditions[c]})  // under the cards
      drawExpeditionShape(painter, QRectF(slot.center().x() - l.cardWidth * 0.15, slot.top() + 6,
                                          l.cardWidth * 0.3, l.cardWidth * 0.3),
                          c, kCardColours[c].darker(130));
    const auto theirs = cardsOfColour(state->expeditions(opponent), c);
    for (size_t i = 0; i < theirs.size(); ++i)
      drawCard(painter, l.stackCard(l.opponentExpeditions[c], int(i), int(theirs.size())),
               theirs[i]);
    const auto mine = cardsOfColour(state->expeditions(own), c);
    for (size_t i = 0; i < mine.size(); ++i)
      drawCard(painter, l.stackCard(l.ownExpeditions[c], int(i), int(mine.size())), mine[i]);
    // The discard pile: its top card, or an empty slot in its colour; the count below.
    if (state->pileSize(c) > 0) {
      drawCard(painter, l.piles[c], state->pileCard(c, state->pileSize(c) - 1));
    } else {
      painter.setPen(QPen(kCardColours[c], 2));
      painter.setBrush(QColor(0x3a, 0x5d, 0x46));
      painter.drawRoundedRect(l.piles[c], 5, 5);
      drawExpeditionShape(painter, shapeBox(l.piles[c]), c, kCardColours[c]);
    }
  }
  drawBack(painter, l.deck);
  painter.setPen(Qt::white);
  QFont font = painter.font();
  font.setBold(true);
  font.setPointSizeF(std::max(8.0, l.cardHeight * 0.2));
  painter.setFont(font);
  painter.drawText(l.deck, Qt::AlignCenter, QString::number(state->deckSize()));
  font.setPointSizeF(std::max(8.0, l.cardHeight * 0.13));
  font.setBold(false);
  painter.setFont(font);
  const QRectF scores(l.deck.left() - l.cardWidth * 0.3, l.opponentExpeditions[0].top(),
                      width() - l.deck.left(), l.opponentExpeditions[0].height());
  painter.drawText(scores, Qt::AlignLeft | Qt::AlignVCenter,
                   QString("Opponent: %1 points").arg(state->score(opponent)));
  painter.drawText(scores.translated(0, l.ownExpeditions[0].top() - scores.top()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   QString("You: %1 points").arg(state->score(own)));
  const std::vector<int> hand = cardsOf(state->hand(own));
  for (size_t i = 0; i < hand.size(); ++i) {
    QRectF r = l.handCard(l.ownHand, int(i), int(hand.size()));
    if (card_ && *card_ == hand[i]) r.translate(0, -l.cardHeight * 0.18);  // the chosen card
    drawCard(painter, r, hand[i]);
  }
  for (const Target& t : targets())
    if (t.kind != Target::Kind::HandCard || !card_) highlight(painter, t.rect);
}

}  // namespace ddalab::gui
