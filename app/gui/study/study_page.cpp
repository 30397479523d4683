#include "app/gui/study/study_page.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <memory>

#include "app/gui/text.h"

namespace ddalab::gui {

StudyPage::StudyPage(const QString& title, const QString& heading, QWidget* parent)
    : QDialog(parent), body_(new QVBoxLayout), buttonRow_(new QHBoxLayout) {
  setWindowTitle(title);
  // A title and nothing to press on it: no close, minimise, maximise or help button.
  setWindowFlags(Qt::Dialog | Qt::CustomizeWindowHint | Qt::WindowTitleHint);
  auto* layout = new QVBoxLayout(this);
  auto* head = plainLabel(heading, this);
  head->setWordWrap(true);
  QFont bold = head->font();
  bold.setBold(true);
  head->setFont(bold);
  layout->addWidget(head);
  layout->addLayout(body_, 1);
  buttonRow_->addStretch();
  layout->addLayout(buttonRow_);
}

void StudyPage::showEvent(QShowEvent* event) {
  QDialog::showEvent(event);
  if (!clock_) clock_.emplace();
}

void StudyPage::changeEvent(QEvent* event) {
  QDialog::changeEvent(event);
  if (event->type() != QEvent::WindowStateChange || !isMinimized()) return;
  // After the state change is handled: a window manager that minimised the page's group gets the
  // window shown again too.
  const auto restore = [](QWidget* w) {
    if (w && w->isMinimized()) w->setWindowState(w->windowState() & ~Qt::WindowMinimized);
  };
  QTimer::singleShot(0, this, [this, restore] {
    restore(parentWidget() ? parentWidget()->window() : nullptr);
    restore(this);
  });
}

ResponseTiming StudyPage::timing() const {
  return clock_ ? clock_->stop() : ResponseClock().stop();
}

int64_t StudyPage::shownMs() const {
  return clock_ ? clock_->elapsedMs() : 0;
}

void StudyPage::accept() {
  if (answered_) return;
  answered_ = true;
  QDialog::accept();
}

QTextBrowser* StudyPage::addText(const QString& text) {
  auto* browser = new QTextBrowser(this);
  browser->setPlainText(text);
  browser->setOpenLinks(false);
  browser->setFrameShape(QFrame::NoFrame);
  browser->viewport()->setAutoFillBackground(false);
  body_->addWidget(browser, 1);
  return browser;
}

QScrollArea* StudyPage::addScrolling(QWidget* content) {
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setFrameShape(QFrame::NoFrame);
  body_->addWidget(scroll, 1);
  return scroll;
}

QPushButton* StudyPage::addButton(const QString& text) {
  auto* button = new QPushButton(text, this);
  button->setAutoDefault(false);  // Enter answers nothing by itself
  buttonRow_->addWidget(button);
  buttons_.push_back(button);
  return button;
}

void StudyPage::addMissingLine() {
  missing_ = plainLabel({}, this);
  missing_->setStyleSheet("color: #8a5a00");
  body_->addWidget(missing_);
}

void StudyPage::stillToAnswer(int open, QPushButton* submit) {
  submit->setEnabled(open == 0);
  missing_->setText(
      open == 0 ? QString()
                : QString("%1 question%2 still to answer").arg(open).arg(open == 1 ? "" : "s"));
}

void StudyPage::fitToText(QTextBrowser* text) {
  constexpr int kWidth = 640;  // about 80 characters a line
  constexpr int kShortest = 240;
  ensurePolished();
  const int chrome = sizeHint().height() - text->sizeHint().height();
  // Measured on a copy: the browser lays its own document out at its present (unshown) width.
  const std::unique_ptr<QTextDocument> copy(text->document()->clone());
  copy->setTextWidth(kWidth - 2 * layout()->contentsMargins().left() - 2 * copy->documentMargin());
  const int textHeight = static_cast<int>(copy->size().height()) + 8;
  fitWithin({kWidth, std::max(kShortest, chrome + textHeight)});
}

void StudyPage::fitWithin(QSize wanted) {
  const QSize room =
      parentWidget() ? parentWidget()->window()->size() : screen()->availableGeometry().size();
  resize(std::max(std::min(wanted.width(), room.width() - 40), minimumSizeHint().width()),
         std::min(wanted.height(), room.height() - 40));
}

}  // namespace ddalab::gui
