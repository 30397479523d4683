#pragma once
// Strings of the libraries (UTF-8 std::string) as Qt shows them.
#include <QLabel>
#include <QString>
#include <string>

namespace ddalab::gui {

// `s` (UTF-8) as a QString.
inline QString text(const std::string& s) {
  return QString::fromStdString(s);
}

// A label showing `s` literally: a protocol's texts (and whatever else a user wrote) are never
// interpreted as rich text, so "<img src=...>" or "<a href=...>" in them is shown, not followed.
inline QLabel* plainLabel(const QString& s, QWidget* parent) {
  auto* label = new QLabel(s, parent);
  label->setTextFormat(Qt::PlainText);
  return label;
}

// `s` as a button's text shown literally: an '&' in it is a character, not a mnemonic.
inline QString buttonText(const QString& s) {
  QString literal = s;
  return literal.replace('&', "&&");
}

}  // namespace ddalab::gui
