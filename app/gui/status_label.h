#pragma once
// The window's status line: one line that never widens the window, whatever its message.
#include <QFontMetrics>
#include <QLabel>
#include <QPainter>
#include <QString>

namespace ddalab::gui {

// A one-line status label whose message, when longer than the room the status bar gives it,
// is shortened in the middle ("…") with the whole message as its tooltip: a long path in a
// message once widened the window past a 1024-pixel screen and cut the message's end off-screen.
class StatusLabel : public QLabel {
 public:
  explicit StatusLabel(const QString& text, QWidget* parent = nullptr) : QLabel(text, parent) {
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  }
  // The message as shown in the room the label has now (the whole of text() when it fits).
  QString shownText() const {
    return fontMetrics().elidedText(text(), Qt::ElideMiddle, contentsRect().width());
  }
  // Whether the message is shortened to fit (its whole text is then the tooltip).
  bool shortened() const { return shownText() != text(); }

 protected:
  void paintEvent(QPaintEvent*) override {
    // QLabel::setText is not virtual: the tooltip follows the message where it is drawn.
    setToolTip(shortened() ? text() : QString());
    QPainter painter(this);
    painter.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, shownText());
  }
};

}  // namespace ddalab::gui
