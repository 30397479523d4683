#include "app/gui/study/questionnaire.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSlider>
#include <QVBoxLayout>

namespace ddalab::gui {

Questionnaire::Questionnaire(const StudyProtocol& protocol, const QString& heading, QWidget* parent)
    : QDialog(parent),
      protocol_(protocol),
      submit_(new QPushButton("Submit", this)),
      missing_(new QLabel(this)) {
  setWindowTitle("About the game you just played");
  setWindowFlags(windowFlags() & ~Qt::WindowCloseButtonHint);
  auto* layout = new QVBoxLayout(this);
  auto* title = new QLabel(heading + ": please answer every question about the game.", this);
  QFont bold = title->font();
  bold.setBold(true);
  title->setFont(bold);
  layout->addWidget(title);
  auto* grid = new QGridLayout;
  int row = 0;
  for (size_t i = 0; i < protocol.items.size(); ++i) {
    const StudyItem& item = protocol.items[i];
    auto* text = new QLabel(QString::fromStdString(item.text), this);
    text->setWordWrap(true);
    if (i > 0) grid->setRowMinimumHeight(row++, 8);  // a little room between the items
    grid->addWidget(text, row++, 0, 1, 3);
    grid->addWidget(new QLabel(QString::fromStdString(item.low), this), row, 0, Qt::AlignRight);
    auto* scale = new QHBoxLayout;
    if (item.scale != StudyItem::Scale::Slider100) {
      auto* group = new QButtonGroup(this);
      for (int v = item.min(); v <= item.max(); ++v) {
        auto* b = new QRadioButton(QString::number(v), this);
        b->setObjectName(QString("item%1_%2").arg(i).arg(v));
        group->addButton(b, v);
        scale->addWidget(b);
      }
      connect(group, &QButtonGroup::idClicked, this, [this] { refresh(); });
      groups_.push_back(group);
      sliders_.push_back(nullptr);
    } else {
      auto* s = new QSlider(Qt::Horizontal, this);
      s->setRange(item.min(), item.max());
      s->setValue(static_cast<int>(item.midpoint()));
      s->setMinimumWidth(260);
      s->setObjectName(QString("item%1").arg(i));
      auto* value = new QLabel("move the slider", this);
      value->setMinimumWidth(110);
      connect(s, &QSlider::valueChanged, this, [this, i, value](int v) {
        moved_[i] = true;
        value->setText(QString::number(v));
        refresh();
      });
      scale->addWidget(s);
      scale->addWidget(value);
      groups_.push_back(nullptr);
      sliders_.push_back(s);
    }
    grid->addLayout(scale, row, 1);
    grid->addWidget(new QLabel(QString::fromStdString(item.high), this), row++, 2);
  }
  moved_.assign(protocol.items.size(), false);
  layout->addLayout(grid);
  if (protocol.comment) {
    layout->addWidget(new QLabel("Anything else about this game? (optional)", this));
    comment_ = new QPlainTextEdit(this);
    comment_->setMaximumHeight(70);
    layout->addWidget(comment_);
  }
  missing_->setStyleSheet("color: #8a5a00");
  layout->addWidget(missing_);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  submit_->setDefault(true);
  buttons->addWidget(submit_);
  layout->addLayout(buttons);
  connect(submit_, &QPushButton::clicked, this, &QDialog::accept);
  refresh();
}

void Questionnaire::refresh() {
  int open = 0;
  for (size_t i = 0; i < protocol_.items.size(); ++i)
    open += groups_[i] ? groups_[i]->checkedId() < 0 : !moved_[i];
  submit_->setEnabled(open == 0);
  missing_->setText(
      open == 0 ? QString()
                : QString("%1 question%2 still to answer").arg(open).arg(open == 1 ? "" : "s"));
}

StudyAnswers Questionnaire::answers() const {
  StudyAnswers a;
  for (size_t i = 0; i < protocol_.items.size(); ++i)
    a.values.push_back(groups_[i] ? groups_[i]->checkedId() : sliders_[i]->value());
  if (comment_) a.comment = comment_->toPlainText().toStdString();
  return a;
}

QAbstractButton* Questionnaire::button(size_t item, int value) const {
  return groups_.at(item) ? groups_[item]->button(value) : nullptr;
}

QSlider* Questionnaire::slider(size_t item) const {
  return sliders_.at(item);
}

}  // namespace ddalab::gui
