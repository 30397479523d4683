#pragma once
// The texts a participant of a user study reads (the protocol's "consent", "instructions" and
// "debrief", docs/user-study.md): each a page over the board with the text, scrolling when long,
// and the button(s) that go on; what the participant answered and when is the session's to keep.
#include "app/gui/study/study_page.h"

namespace ddalab::gui {

// The consent text with the protocol's two buttons: agreeing goes on, declining ends the session.
class ConsentPage : public StudyPage {
  Q_OBJECT
 public:
  ConsentPage(const QString& text, const QString& agree, const QString& decline,
              QWidget* parent = nullptr);
  // Which button answered the page (meaningful once accepted).
  bool agreed() const { return agreed_; }
  QPushButton* agreeButton() const { return buttons()[1]; }
  QPushButton* declineButton() const { return buttons()[0]; }

 private:
  bool agreed_ = false;
};

// A text read once and its one button ("Start the first game", "Finish").
class TextPage : public StudyPage {
  Q_OBJECT
 public:
  TextPage(const QString& title, const QString& heading, const QString& text, const QString& button,
           QWidget* parent = nullptr);
  QPushButton* goOn() const { return buttons()[0]; }
};

}  // namespace ddalab::gui
