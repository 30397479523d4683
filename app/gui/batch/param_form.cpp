#include "app/gui/batch/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <charconv>

namespace ddalab::gui {

namespace {

bool fitsSpinBox(const ParamSpec& spec) {
  return spec.type == ParamType::Int && spec.min >= -1e9 && spec.max <= 1e9;
}

QString tooltip(const ParamSpec& spec) {
  return QString::fromStdString(describe(spec));
}

QString label(const ParamSpec& spec) {
  QString text = QString::fromStdString(spec.name);
  text.replace('_', ' ');
  return text;
}

}  // namespace

Json parseEntry(const QString& text) {
  const std::string raw = text.trimmed().toStdString();
  if (raw.empty()) return Json(raw);
  try {
    Json parsed = Json::parse(raw);
    if (parsed.is_number() || parsed.is_boolean() || parsed.is_array() || parsed.is_object())
      return parsed;
  } catch (const Json::exception&) {
  }
  return Json(text.toStdString());
}

QString entryText(const Json& value) {
  if (value.is_number_float()) {
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value.get<double>());
    return error == std::errc() ? QString::fromLatin1(buffer, static_cast<int>(end - buffer))
                                : QString();
  }
  if (value.is_string()) return QString::fromStdString(value.get<std::string>());
  if (value.is_array()) {
    QStringList items;
    for (const auto& item : value) items << entryText(item);
    return "[" + items.join(", ") + "]";
  }
  return QString::fromStdString(value.dump());
}

ParamForm::ParamForm(QWidget* parent) : QWidget(parent), layout_(new QFormLayout(this)) {
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
}

void ParamForm::setSchema(std::span<const ParamSpec> schema) {
  while (layout_->rowCount() > 0) layout_->removeRow(0);
  editors_.clear();
  for (const ParamSpec& spec : schema) {
    QWidget* widget = makeEditor(spec);
    widget->setToolTip(tooltip(spec));
    auto* name = new QLabel(label(spec), this);
    name->setToolTip(tooltip(spec));
    layout_->addRow(name, widget);
    editors_.push_back({spec, widget});
    show(editors_.back(), spec.defaultValue);
  }
}

QWidget* ParamForm::makeEditor(const ParamSpec& spec) {
  if (!spec.choices.empty()) {
    auto* box = new QComboBox(this);
    for (const Json& choice : spec.choices) box->addItem(entryText(choice));
    connect(box, &QComboBox::currentIndexChanged, this, &ParamForm::changed);
    return box;
  }
  if (spec.type == ParamType::Bool) {
    auto* box = new QCheckBox(this);
    connect(box, &QCheckBox::toggled, this, &ParamForm::changed);
    return box;
  }
  if (fitsSpinBox(spec)) {
    auto* box = new QSpinBox(this);
    box->setRange(static_cast<int>(spec.min), static_cast<int>(spec.max));
    connect(box, &QSpinBox::valueChanged, this, &ParamForm::changed);
    return box;
  }
  auto* edit = new QLineEdit(this);
  connect(edit, &QLineEdit::textChanged, this, &ParamForm::changed);
  return edit;
}

void ParamForm::show(const Editor& editor, const Json& value) {
  QWidget* w = editor.widget;
  QSignalBlocker block(w);
  if (auto* box = qobject_cast<QComboBox*>(w)) {
    for (size_t i = 0; i < editor.spec.choices.size(); ++i)
      if (editor.spec.choices[i] == value) box->setCurrentIndex(static_cast<int>(i));
  } else if (auto* check = qobject_cast<QCheckBox*>(w)) {
    check->setChecked(value.is_boolean() && value.get<bool>());
  } else if (auto* spin = qobject_cast<QSpinBox*>(w)) {
    if (value.is_number()) spin->setValue(static_cast<int>(value.get<double>()));
  } else if (auto* edit = qobject_cast<QLineEdit*>(w)) {
    edit->setText(entryText(value));
  }
}

Json ParamForm::read(const Editor& editor) {
  QWidget* w = editor.widget;
  if (auto* box = qobject_cast<QComboBox*>(w))
    return editor.spec.choices.at(static_cast<size_t>(std::max(0, box->currentIndex())));
  if (auto* check = qobject_cast<QCheckBox*>(w)) return check->isChecked();
  if (auto* spin = qobject_cast<QSpinBox*>(w)) return spin->value();
  const QString text = qobject_cast<QLineEdit*>(w)->text();
  if (editor.spec.type == ParamType::String) return text.toStdString();
  return parseEntry(text);
}

void ParamForm::setValues(const Json& values) {
  for (const Editor& editor : editors_)
    show(editor, values.is_object() && values.contains(editor.spec.name)
                     ? values.at(editor.spec.name)
                     : editor.spec.defaultValue);
}

Json ParamForm::values() const {
  Json result = Json::object();
  for (const Editor& editor : editors_) result[editor.spec.name] = read(editor);
  return result;
}

Json ParamForm::changedValues() const {
  Json result = Json::object();
  for (const Editor& editor : editors_) {
    Json value = read(editor);
    if (value != editor.spec.defaultValue) result[editor.spec.name] = std::move(value);
  }
  return result;
}

}  // namespace ddalab::gui
