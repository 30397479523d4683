#pragma once
// Strings of the libraries (UTF-8 std::string) as Qt shows them.
#include <QString>
#include <string>

namespace ddalab::gui {

// `s` (UTF-8) as a QString.
inline QString text(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace ddalab::gui
