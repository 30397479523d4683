#pragma once
// A form generated from a parameter schema (core/params.h): one editor per parameter, chosen by
// its type, with the description as tooltip. A new game or player needs no GUI code.
#include <QWidget>
#include <span>
#include <vector>

#include "core/params.h"

class QFormLayout;

namespace ddalab::gui {

class ParamForm : public QWidget {
  Q_OBJECT
 public:
  explicit ParamForm(QWidget* parent = nullptr);

  // Rebuilds the editors for `schema`, showing its defaults.
  void setSchema(std::span<const ParamSpec> schema);
  // Shows `values` (an object; missing keys keep their defaults).
  void setValues(const Json& values);
  // The values as entered: numbers where the text is one, else the text itself, so that
  // validateParams reports a bad entry with the same message a file would get.
  Json values() const;
  // Only the values that differ from the defaults (what a batch file would hold).
  Json changedValues() const;
  bool empty() const { return editors_.empty(); }

 signals:
  void changed();

 private:
  struct Editor {
    ParamSpec spec;
    QWidget* widget;
  };
  QWidget* makeEditor(const ParamSpec& spec);
  static void show(const Editor& editor, const Json& value);
  static Json read(const Editor& editor);

  QFormLayout* layout_;
  std::vector<Editor> editors_;
};

// `text` as JSON: a number or literal when it parses as one, else the text as a string.
Json parseEntry(const QString& text);
// The shortest text that reads back to `value` (numbers) or its JSON form.
QString entryText(const Json& value);

}  // namespace ddalab::gui
