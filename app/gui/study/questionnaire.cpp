#include "app/gui/study/questionnaire.h"

#include <QButtonGroup>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>

#include "app/gui/text.h"

namespace ddalab::gui {

Questionnaire::Questionnaire(const StudyProtocol& protocol, const QString& heading, QWidget* parent)
    : StudyPage("About the game you just played",
                heading + ": please answer every question about the game.", parent),
      protocol_(protocol) {
  // The items scroll (a 14-item instrument is taller than a laptop's screen); the comment and
  // Submit stay in view below them.
  auto* items = new QWidget;
  auto* grid = new QGridLayout(items);
  int row = 0;
  for (size_t i = 0; i < protocol.items.size(); ++i) {
    const StudyItem& item = protocol.items[i];
    auto* question = plainLabel(text(item.text), items);
    question->setWordWrap(true);
    if (i > 0) grid->setRowMinimumHeight(row++, 8);  // a little room between the items
    grid->addWidget(question, row++, 0, 1, 3);
    // The ends' anchors beside the scale, unless every point has its label under it.
    const auto end = [&](const std::string& anchor) {
      return plainLabel(item.anchors.empty() ? text(anchor) : QString(), items);
    };
    grid->addWidget(end(item.low), row, 0, Qt::AlignRight);
    if (item.scale != StudyItem::Scale::Slider100)
      grid->addLayout(addPoints(i, item, items), row, 1);
    else
      grid->addLayout(addSlider(i, item, items), row, 1);
    grid->addWidget(end(item.high), row++, 2);
  }
  moved_.assign(protocol.items.size(), false);
  changedMs_.assign(protocol.items.size(), 0);
  scroll_ = addScrolling(items);
  // Laid out with the scroll bar's room always kept: a bar that appears after the items were laid
  // out narrowed the view under them and cut the anchors on the right ("very difficul").
  scroll_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  if (protocol.comment) {
    body()->addWidget(plainLabel("Anything else about this game? (optional)", this));
    comment_ = new QPlainTextEdit(this);
    comment_->setMaximumHeight(70);
    body()->addWidget(comment_);
  }
  addMissingLine();
  submit_ = addButton("Submit");
  submit_->setDefault(true);
  connect(submit_, &QPushButton::clicked, this, &QDialog::accept);
  refresh();
  fitOnScreen(items);  // a first guess; showEvent measures again
}

void Questionnaire::showEvent(QShowEvent* event) {
  StudyPage::showEvent(event);
  if (fitted_) return;
  fitted_ = true;
  fitOnScreen(scroll_->widget());
}

void Questionnaire::changed(size_t item) {
  changedMs_[item] = shownMs();
  refresh();
}

QLayout* Questionnaire::addPoints(size_t i, const StudyItem& item, QWidget* parent) {
  auto* scale = new QHBoxLayout;
  auto* group = new QButtonGroup(this);
  for (int v = item.min(); v <= item.max(); ++v) {
    auto* point = new QVBoxLayout;
    auto* b = new QRadioButton(QString::number(v), parent);
    b->setObjectName(QString("item%1_%2").arg(i).arg(v));
    group->addButton(b, v);
    point->addWidget(b, 0, Qt::AlignHCenter);
    if (!item.anchors.empty()) {  // the label of every point ("slightly", "moderately", ...)
      auto* anchor =
          plainLabel(text(item.anchors[static_cast<size_t>(v - item.min())]), parent);
      anchor->setAlignment(Qt::AlignHCenter);
      QFont small = anchor->font();
      small.setPointSizeF(small.pointSizeF() * 0.85);
      anchor->setFont(small);
      // Every point as wide as the widest label: the points stay evenly spaced.
      int widest = 0;
      for (const std::string& label : item.anchors)
        widest =
            std::max(widest, QFontMetrics(small).horizontalAdvance(text(label)));
      anchor->setMinimumWidth(widest + 6);
      point->addWidget(anchor);
    }
    scale->addLayout(point);
  }
  connect(group, &QButtonGroup::idToggled, this, [this, i](int, bool on) {
    if (on) changed(i);
  });
  groups_.push_back(group);
  sliders_.push_back(nullptr);
  return scale;
}

QLayout* Questionnaire::addSlider(size_t i, const StudyItem& item, QWidget* parent) {
  auto* scale = new QHBoxLayout;
  auto* s = new QSlider(Qt::Horizontal, parent);
  s->setRange(item.min(), item.max());
  s->setValue(static_cast<int>(item.midpoint()));
  s->setMinimumWidth(260);
  s->setObjectName(QString("item%1").arg(i));
  auto* value = plainLabel("move the slider", parent);
  value->setMinimumWidth(110);
  connect(s, &QSlider::valueChanged, this, [this, i, value](int v) {
    moved_[i] = true;
    value->setText(QString::number(v));
    changed(i);
  });
  scale->addWidget(s);
  scale->addWidget(value);
  groups_.push_back(nullptr);
  sliders_.push_back(s);
  return scale;
}

void Questionnaire::fitOnScreen(QWidget* items) {
  // As tall as the items need, but never taller than the window it opens over (or the screen):
  // the rest scrolls. Measured once the style has sized every button and label (before, the
  // dialog came out 10 pixels narrower than its items and cut "very difficult" to "very
  // difficul"), and never narrower than the items: they scroll only up and down.
  ensurePolished();
  scroll_->setMinimumWidth(std::max(items->sizeHint().width(), items->minimumSizeHint().width()) +
                           scroll_->verticalScrollBar()->sizeHint().width());
  const int chrome = sizeHint().height() - scroll_->sizeHint().height();
  fitWithin({items->sizeHint().width() + 40, chrome + items->sizeHint().height() + 4});
}

void Questionnaire::refresh() {
  int open = 0;
  for (size_t i = 0; i < protocol_.items.size(); ++i)
    open += groups_[i] ? groups_[i]->checkedId() < 0 : !moved_[i];
  stillToAnswer(open, submit_);
}

StudyAnswers Questionnaire::answers() const {
  StudyAnswers a;
  for (size_t i = 0; i < protocol_.items.size(); ++i)
    a.values.push_back(groups_[i] ? groups_[i]->checkedId() : sliders_[i]->value());
  if (comment_) a.comment = comment_->toPlainText().toStdString();
  a.timing = timing();
  a.itemMs = changedMs_;
  return a;
}

QAbstractButton* Questionnaire::button(size_t item, int value) const {
  return groups_.at(item) ? groups_[item]->button(value) : nullptr;
}

QSlider* Questionnaire::slider(size_t item) const {
  return sliders_.at(item);
}

}  // namespace ddalab::gui
