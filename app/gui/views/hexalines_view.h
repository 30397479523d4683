#pragma once
// HexaLines (games/hexalines.md): the hex board with every cell's path segments in the colour
// flowing through them, each cell's fill tinted by its owner, the three sources in the centre,
// the scores per colour (dead players greyed, "out") and the cell to place below the board.
// A click on a highlighted empty field adds the cell there; a click on an own or grey cell starts
// a rotation: each further click turns its preview one sixth on (through the legal rotations),
// "Rotate" or a right click confirms, Esc or a click elsewhere cancels.
#include <optional>

#include "app/gui/views/game_view.h"

QT_BEGIN_NAMESPACE
class QKeyEvent;
class QPaintEvent;
QT_END_NAMESPACE

namespace ddalab::hexalines {
class HexaLinesState;
}

namespace ddalab::gui {

class HexaLinesView final : public GameView {
  Q_OBJECT
 public:
  explicit HexaLinesView(QWidget* parent = nullptr);
  std::vector<HitArea> hitAreas() const override;
  // Red, green, blue: the colours of the game's players (not the other games' seat colours).
  QColor playerColour(int player) const override;
  QString playerMark(int player) const override;
  // Where the centre of `field` is drawn (tests click cells that take no click).
  QPointF fieldCentre(int field) const;

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void click(QPointF point) override;
  void resetChoice() override;

 private:
  // What a click on a target does.
  struct Target {
    QRectF rect;
    enum class Kind { Add, StartRotation, TurnFurther, Confirm } kind;
    int field;
    QString label;
  };
  struct Layout;
  Layout layout() const;
  const hexalines::HexaLinesState* hexState() const;
  std::vector<Target> targets() const;
  // The sixths of the legal rotations of the cell on `field`, ascending.
  std::vector<int> rotationsOf(int field) const;
  // The legal action adding the revealed cell on `field`, or nullopt.
  std::optional<Action> addOn(int field) const;
  // The legal action turning the cell on `field` by `sixths`, or nullopt.
  std::optional<Action> rotation(int field, int sixths) const;
  // Why a click on `field` (not a target) does nothing.
  QString whyNot(int field) const;
  void startRotation(int field);
  void turnFurther();
  void confirmRotation();
  void cancelRotation(const QString& why);
  void paintBoard(QPainter& painter, const Layout& l) const;
  void paintHighlights(QPainter& painter, const Layout& l) const;
  void paintScores(QPainter& painter, const Layout& l) const;
  void paintCellToPlace(QPainter& painter, const Layout& l) const;

 public:
  // The cell a deal outcome gives, drawn as on the board.
  QPixmap outcomeIcon(const State& before, Action outcome, int size) const override;
  QString hint() const;

  std::optional<int> rotatingField_;  // the cell whose rotation is being previewed
  int sixths_ = 0;                    // the preview's turn (a legal rotation of that cell)
};

}  // namespace ddalab::gui
