#include "app/gui/views/game_view.h"

#include <QMouseEvent>
#include <map>
#include <nlohmann/json.hpp>


namespace ddalab::gui {

GameView::GameView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(420, 420);
  setMouseTracking(false);
}

void GameView::showState(const State& state, std::span<const Action> legal, bool humanTurn,
                         int perspective) {
  state_ = state.clone();
  legal_.assign(legal.begin(), legal.end());
  humanTurn_ = humanTurn && !legal_.empty();
  perspective_ = perspective;
  resetChoice();
  update();
}

void GameView::setShowHidden(bool show) {
  showHidden_ = show;
  update();
}

QColor GameView::playerColour(int player) const {
  return seatColour(player);
}

bool GameView::isLegal(Action action) const {
  return std::find(legal_.begin(), legal_.end(), action) != legal_.end();
}

std::optional<Action> GameView::legalWhere(const Json& fields) const {
  const auto matches = [&](const Json& does) {
    for (auto field = fields.begin(); field != fields.end(); ++field)
      if (!does.contains(field.key()) || does[field.key()] != *field) return false;
    return true;
  };
  for (Action action : legal_)
    if (matches(state_->actionJson(action))) return action;
  return std::nullopt;
}

std::vector<GameView::HitArea> GameView::areasOf(std::span<const Target> targets) const {
  std::vector<HitArea> areas;
  for (const auto& [rect, action] : targets)
    areas.push_back({rect, QString::fromStdString(state_->actionToString(action))});
  return areas;
}

void GameView::clickOn(std::span<const Target> targets, QPointF point, const QString& why) {
  for (const auto& [rect, action] : targets)
    if (rect.contains(point)) {
      emit actionChosen(action);
      return;
    }
  emit refused(why);
}

void GameView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !state_) return;
  if (!humanTurn_) {
    emit refused(state_->isTerminal() ? "the game is over: New game (Ctrl+G) starts another"
                                      : "not your turn: wait for the other players");
    return;
  }
  click(event->position());
}

QColor seatColour(int seat) {
  static const QColor kColours[] = {QColor(0xd6, 0x3a, 0x32), QColor(0x2f, 0x6f, 0xc9),
                                    QColor(0x2e, 0x9b, 0x4a), QColor(0xe0, 0xb1, 0x1c)};
  return kColours[((seat % 4) + 4) % 4];
}

QString seatLetter(int seat) {
  static const char* const kLetters[] = {"R", "B", "G", "Y"};  // seatColour's, in order
  return kLetters[((seat % 4) + 4) % 4];
}

QString GameView::playerMark(int player) const {
  return seatLetter(player);
}

QPixmap GameView::outcomeIcon(const State& before, Action outcome, int size) const {
  (void)before;
  (void)outcome;
  (void)size;
  return {};
}

}  // namespace ddalab::gui
