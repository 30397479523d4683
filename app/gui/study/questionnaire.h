#pragma once
// The questionnaire after each game of a user study: every item must be answered before Submit;
// a Likert item (0-4, 1-5, 1-7) is a row of buttons between its anchors, each point's label under
// it when the instrument names every point, a 0-100 item a slider that counts once it was moved;
// the items scroll when they are taller than the window. There is no Cancel and no Back: the
// answers are what the participant felt now, and the session keeps them the moment they are
// submitted.
#include <vector>

#include "app/gui/study/study_page.h"
#include "studies/study.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QButtonGroup;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QLayout;
class QScrollArea;
class QSlider;
QT_END_NAMESPACE

namespace ddalab::gui {

class Questionnaire : public StudyPage {
  Q_OBJECT
 public:
  // The questionnaire of `protocol` after the game `heading` names ("Game 2 of 6").
  Questionnaire(const StudyProtocol& protocol, const QString& heading, QWidget* parent = nullptr);

  // The answers given (complete once Submit is enabled), timed: shown when the questionnaire was
  // first shown, answered now, and per item the milliseconds from its showing to the item's last
  // change.
  StudyAnswers answers() const;
  // The controls a person clicks (tests click them too): item `item`'s button for `value` (1-7
  // items), its slider (0-100 items), the comment, Submit, the scrolling items.
  QAbstractButton* button(size_t item, int value) const;
  QSlider* slider(size_t item) const;
  QPlainTextEdit* comment() const { return comment_; }
  QPushButton* submit() const { return submit_; }
  QScrollArea* scrollArea() const { return scroll_; }

 protected:
  // Sized to its items when first shown, once the style has sized every button and label.
  void showEvent(QShowEvent* event) override;

 private:
  void refresh();
  // Item `item` was answered or changed now.
  void changed(size_t item);
  // Item i's row of buttons (a Likert item) or slider, registered in groups_ and sliders_.
  QLayout* addPoints(size_t i, const StudyItem& item, QWidget* parent);
  QLayout* addSlider(size_t i, const StudyItem& item, QWidget* parent);
  void fitOnScreen(QWidget* items);
  bool fitted_ = false;  // sized when first shown

  const StudyProtocol& protocol_;
  std::vector<QButtonGroup*> groups_;  // per item; null for a slider item
  std::vector<QSlider*> sliders_;      // per item; null for a 1-7 item
  std::vector<bool> moved_;            // a slider counts as answered once moved
  std::vector<int64_t> changedMs_;     // per item: its last change, ms after the showing
  QPlainTextEdit* comment_ = nullptr;
  QPushButton* submit_ = nullptr;
  QScrollArea* scroll_ = nullptr;
};

}  // namespace ddalab::gui
