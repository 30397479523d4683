#pragma once
// What every page a participant of a user study sees has in common (the consent, demographics,
// instructions, questionnaire and debrief): a dialog over the board with a bold heading, its
// content and its buttons at the bottom right; no Cancel and no Back (Esc and the close box do
// nothing: the session needs the page's answer before it goes on; there is no minimise button,
// and a page minimised anyway comes back at once with its window: minimising a dialog hid the
// whole application from the participant); a clock started when the page is first shown, which
// times the answer; and one answer only (a double click on its button answers once).
#include <QDialog>
#include <optional>

#include "studies/timing.h"

QT_BEGIN_NAMESPACE
class QHBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QTextBrowser;
class QVBoxLayout;
QT_END_NAMESPACE

namespace ddalab::gui {

class StudyPage : public QDialog {
  Q_OBJECT
 public:
  // When the page was first shown and now (the answer being given), and the milliseconds between.
  ResponseTiming timing() const;
  // The milliseconds since the page was first shown (0 before).
  int64_t shownMs() const;
  // The page's buttons, in the order added (tests click them as a person does).
  const std::vector<QPushButton*>& buttons() const { return buttons_; }
  // Answers once: a second accept (a double click) does nothing.
  void accept() override;
  bool answered() const { return answered_; }

 protected:
  StudyPage(const QString& title, const QString& heading, QWidget* parent);
  // Esc and the window's close box do nothing.
  void reject() override {}
  void showEvent(QShowEvent* event) override;
  // A minimised page (and the window under it) is shown again.
  void changeEvent(QEvent* event) override;
  // The content goes here, between the heading and the buttons.
  QVBoxLayout* body() const { return body_; }
  // A text the participant reads, scrolling when long (shown as plain text: a protocol's text is
  // never interpreted as HTML).
  QTextBrowser* addText(const QString& text);
  // A scroll area that takes `content` (taller than the window: it scrolls up and down only).
  QScrollArea* addScrolling(QWidget* content);
  // A button at the bottom right (after those added before).
  QPushButton* addButton(const QString& text);
  // A warning line above the buttons for what is still to answer (see stillToAnswer).
  void addMissingLine();
  // `open` questions are not answered yet: the line says how many and `submit` is enabled only
  // when none is.
  void stillToAnswer(int open, QPushButton* submit);
  // Sized to show `text` (added by addText) whole at a comfortable reading width when the window
  // has room, scrolling when it is longer.
  void fitToText(QTextBrowser* text);
  // Sized to `wanted`, never larger than the window it opens over (or the screen) less a margin.
  void fitWithin(QSize wanted);

 private:
  QVBoxLayout* body_;
  QHBoxLayout* buttonRow_;
  std::vector<QPushButton*> buttons_;
  QLabel* missing_ = nullptr;
  std::optional<ResponseClock> clock_;  // from the first showing
  bool answered_ = false;
};

}  // namespace ddalab::gui
