// The dice plug-in's second library: Pig's board for ddalab-gui (the plug-in itself needs no Qt).
// Each player's banked points as a bar towards the target (the turn total of the player on
// turn added in a lighter shade), the last die rolled, and Roll / Hold as buttons.
#include <QPainter>

#include "app/gui/views/view_plugin.h"
#include "pig.h"

namespace pig {

using ddalab::gui::GameView;

class PigView final : public GameView {
 public:
  explicit PigView(QWidget* parent) : GameView(parent) {}

  std::vector<HitArea> hitAreas() const override { return areasOf(buttons()); }

 protected:
  void click(QPointF point) override { clickOn(buttons(), point, "click Roll or Hold"); }

  void paintEvent(QPaintEvent*) override {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), QColor(0xf4, 0xee, 0xdc));
    const auto* pig = dynamic_cast<const PigState*>(state_.get());
    if (!pig) return;
    const double barWidth = width() - 200.0;
    for (int p = 0; p < pig->numPlayers(); ++p) {
      const QRectF bar(150, 40 + 50.0 * p, barWidth, 30);
      painter.setPen(Qt::black);
      painter.drawText(QRectF(10, bar.top(), 135, 30), Qt::AlignVCenter,
                       QString("seat %1: %2").arg(p).arg(pig->score(p)));
      painter.setBrush(Qt::white);
      painter.drawRect(bar);
      const double banked = std::min(1.0, double(pig->score(p)) / pig->target());
      painter.fillRect(QRectF(bar.left(), bar.top(), barWidth * banked, 30), playerColour(p));
      if (p == pig->player() && !pig->isTerminal()) {
        const double turn = std::min(1.0 - banked, double(pig->turnTotal()) / pig->target());
        painter.fillRect(QRectF(bar.left() + barWidth * banked, bar.top(), barWidth * turn, 30),
                         playerColour(p).lighter(150));
      }
    }
    const QRectF die(width() / 2.0 - 40, 70 + 50.0 * pig->numPlayers(), 80, 80);
    painter.setBrush(Qt::white);
    painter.setPen(QPen(Qt::black, 2));
    painter.drawRoundedRect(die, 12, 12);
    QFont big = font();
    big.setPointSizeF(font().pointSizeF() * 2.5);
    painter.setFont(big);
    painter.drawText(die, Qt::AlignCenter,
                     pig->lastFace() ? QString::number(pig->lastFace()) : QString("?"));
    painter.setFont(font());
    painter.drawText(QRectF(0, die.bottom() + 5, width(), 24), Qt::AlignCenter,
                     QString("turn total %1, %2 wins").arg(pig->turnTotal()).arg(pig->target()));
    for (const auto& [rect, action] : buttons()) {
      painter.setPen(QPen(QColor(0xff, 0x8c, 0x00), 2));
      painter.setBrush(QColor(0xff, 0xf1, 0xd6));
      painter.drawRoundedRect(rect, 6, 6);
      painter.setPen(Qt::black);
      painter.drawText(rect, Qt::AlignCenter,
                       QString::fromStdString(state_->actionToString(action)));
    }
  }

 private:
  // Roll and Hold, below the die, on a person's turn.
  std::vector<Target> buttons() const {
    std::vector<Target> result;
    if (!state_ || !humanTurn_) return result;
    const double top = 190 + 50.0 * state_->numPlayers();  // below the die and its caption
    for (size_t i = 0; i < legal_.size(); ++i)
      result.push_back({QRectF(width() / 2.0 - 130 + 140.0 * i, top, 120, 40), legal_[i]});
    return result;
  }
};

void registerViews(ddalab::gui::ViewRegistrar add) {
  add(DICE_GAME_ID, [](QWidget* parent) -> GameView* { return new PigView(parent); });
}

}  // namespace pig

DDALAB_VIEW_PLUGIN("dice-views", pig::registerViews)
