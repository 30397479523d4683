#pragma once
// Picks a game of a trace file (JSON Lines, one game a line) for the replay: a table of its
// games — iteration, rounds, winner, F's most telling metrics — to choose from, as a person
// looks for the game worth watching instead of typing a line number.
#include <QDialog>
#include <QString>

QT_BEGIN_NAMESPACE
class QTableWidget;
QT_END_NAMESPACE

namespace ddalab::gui {

class TracePicker : public QDialog {
  Q_OBJECT
 public:
  // Lists the games of `file`; throws InputError (file:line) when a line is not a game.
  explicit TracePicker(const QString& file, QWidget* parent = nullptr);
  // The line chosen (0-based), or -1.
  int chosen() const;
  QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_;
};

}  // namespace ddalab::gui
