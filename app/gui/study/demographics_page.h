#pragma once
// The protocol's demographics questions (an age band, how often one plays, ...): each one choice
// among its options — a row of radio buttons, or a list to pick from when it has many — all
// required before Submit. No free text: nothing the participant enters could name them.
#include <vector>

#include "app/gui/study/study_page.h"
#include "studies/study.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QButtonGroup;
class QComboBox;
QT_END_NAMESPACE

namespace ddalab::gui {

class DemographicsPage : public StudyPage {
  Q_OBJECT
 public:
  explicit DemographicsPage(const std::vector<DemographicItem>& items, QWidget* parent = nullptr);
  // The options chosen, timed (complete once Submit is enabled).
  DemographicAnswers answers() const;
  // What a person clicks (tests click them too): item `item`'s radio button for option `option`
  // (null when the item is a list), its list (null when it is buttons), Submit.
  QAbstractButton* option(size_t item, size_t option) const;
  QComboBox* list(size_t item) const { return lists_.at(item); }
  QPushButton* submit() const { return submit_; }

  // Items with more options than this are a list.
  static constexpr size_t kMostButtons = 6;

 private:
  // The index of item i's option chosen, -1 for none yet.
  int chosen(size_t i) const;
  void refresh();

  const std::vector<DemographicItem>& items_;
  std::vector<QButtonGroup*> groups_;  // per item; null for a list
  std::vector<QComboBox*> lists_;      // per item; null for buttons
  QPushButton* submit_;
};

}  // namespace ddalab::gui
