#include "app/gui/views/generic_view.h"

#include <QFontDatabase>
#include <QPainter>

namespace ddalab::gui {

namespace {

constexpr double kMargin = 14, kGap = 8, kButtonHeight = 34, kHeading = 30;

QString heading(const State& state, bool humanTurn) {
  if (state.isTerminal())
    return state.winner() >= 0 ? QString("Game over: seat %1 wins").arg(state.winner())
                               : QString("Game over without a winner");
  if (state.isEnvironmentNode()) return "The environment decides";
  return QString("Seat %1 %2").arg(state.actor()).arg(humanTurn ? "— your turn" : "to move");
}

}  // namespace

QRectF GenericView::textRect() const {
  // The upper part holds the state; the buttons take the rest (at least a third).
  return {kMargin, kMargin + kHeading, width() - 2 * kMargin,
          std::max(60.0, height() * 0.6 - kHeading - kMargin)};
}

std::vector<GameView::Target> GenericView::buttons() const {
  std::vector<Target> result;
  if (!state_ || !humanTurn_) return result;
  const QFontMetricsF metrics(font());
  double x = kMargin, y = textRect().bottom() + 2 * kGap;
  for (Action action : legal_) {
    const double w = std::min(
        width() - 2 * kMargin,
        metrics.horizontalAdvance(QString::fromStdString(state_->actionToString(action))) + 24);
    if (x + w > width() - kMargin && x > kMargin) {
      x = kMargin;
      y += kButtonHeight + kGap;
    }
    result.push_back({QRectF(x, y, w, kButtonHeight), action});
    x += w + kGap;
  }
  return result;
}

std::vector<GameView::HitArea> GenericView::hitAreas() const {
  return areasOf(buttons());
}

void GenericView::click(QPointF point) {
  clickOn(buttons(), point, "click one of the buttons: they are the legal actions");
}

void GenericView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), QColor(0xf7, 0xf4, 0xea));
  if (!state_) return;
  QFont bold = font();
  bold.setBold(true);
  bold.setPointSizeF(font().pointSizeF() * 1.2);
  painter.setFont(bold);
  painter.setPen(state_->actor() >= 0 ? playerColour(state_->actor()).darker(130) : Qt::black);
  painter.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, kHeading),
                   Qt::AlignLeft | Qt::AlignVCenter, heading(*state_, humanTurn_));
  const QRectF text = textRect();
  painter.setPen(QColor(0xcc, 0xc4, 0xaa));
  painter.setBrush(Qt::white);
  painter.drawRoundedRect(text, 6, 6);
  painter.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  painter.setPen(Qt::black);
  const std::string shown =
      showHidden_ ? state_->toString() : state_->observationString(perspective_);
  painter.drawText(text.adjusted(10, 8, -10, -8), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   QString::fromStdString(shown));
  painter.setFont(font());
  for (const auto& [rect, action] : buttons()) {
    painter.setPen(QPen(QColor(0xff, 0x8c, 0x00), 2));
    painter.setBrush(QColor(0xff, 0xf1, 0xd6));
    painter.drawRoundedRect(rect, 6, 6);
    painter.setPen(Qt::black);
    painter.drawText(rect, Qt::AlignCenter, QString::fromStdString(state_->actionToString(action)));
  }
}

}  // namespace ddalab::gui
