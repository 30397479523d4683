#include "app/gui/study/demographics_page.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/gui/text.h"

namespace ddalab::gui {

DemographicsPage::DemographicsPage(const std::vector<DemographicItem>& items, QWidget* parent)
    : StudyPage("About you", "A few questions about you. Please answer each one.", parent),
      items_(items) {
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  for (size_t i = 0; i < items.size(); ++i) {
    const DemographicItem& item = items[i];
    auto* question = plainLabel(text(item.text), content);
    question->setWordWrap(true);
    if (i > 0) layout->addSpacing(10);
    layout->addWidget(question);
    if (item.options.size() > kMostButtons) {
      auto* list = new QComboBox(content);
      list->setObjectName(QString("item%1").arg(i));
      list->setPlaceholderText("choose…");
      for (const std::string& o : item.options) list->addItem(text(o));
      list->setCurrentIndex(-1);
      connect(list, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
      layout->addWidget(list, 0, Qt::AlignLeft);
      groups_.push_back(nullptr);
      lists_.push_back(list);
      continue;
    }
    auto* row = new QGridLayout;  // three options a line: long ones ("a few times a week") fit
    auto* group = new QButtonGroup(this);
    for (size_t o = 0; o < item.options.size(); ++o) {
      auto* b = new QRadioButton(buttonText(text(item.options[o])), content);
      b->setObjectName(QString("item%1_%2").arg(i).arg(o));
      group->addButton(b, static_cast<int>(o));
      row->addWidget(b, static_cast<int>(o / 3), static_cast<int>(o % 3), Qt::AlignLeft);
    }
    connect(group, &QButtonGroup::idToggled, this, [this] { refresh(); });
    layout->addLayout(row);
    groups_.push_back(group);
    lists_.push_back(nullptr);
  }
  layout->addStretch();
  addScrolling(content);
  addMissingLine();
  submit_ = addButton("Submit");
  connect(submit_, &QPushButton::clicked, this, &QDialog::accept);
  refresh();
  fitWithin({640, content->sizeHint().height() + 140});
}

int DemographicsPage::chosen(size_t i) const {
  return groups_[i] ? groups_[i]->checkedId() : lists_[i]->currentIndex();
}

void DemographicsPage::refresh() {
  int open = 0;
  for (size_t i = 0; i < items_.size(); ++i) open += chosen(i) < 0;
  stillToAnswer(open, submit_);
}

DemographicAnswers DemographicsPage::answers() const {
  DemographicAnswers a;
  for (size_t i = 0; i < items_.size(); ++i)
    if (const int o = chosen(i); o >= 0)
      a.values.push_back(items_[i].options[static_cast<size_t>(o)]);
  a.timing = timing();
  return a;
}

QAbstractButton* DemographicsPage::option(size_t item, size_t option) const {
  return groups_.at(item) ? groups_[item]->button(static_cast<int>(option)) : nullptr;
}

}  // namespace ddalab::gui
