#pragma once
// What an empty queue shows: the ways in for a new user — the thesis study and the quick
// comparison shipped with ddalab, playing a game, the batch files opened recently, and how to
// build a queue by hand.
#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QVBoxLayout;
QT_END_NAMESPACE

namespace ddalab::gui {

class StartPage : public QWidget {
  Q_OBJECT
 public:
  explicit StartPage(QWidget* parent = nullptr);
  // Lists `files` (most recent first) as buttons that open them.
  void setRecent(const QStringList& files);
  // The folder of the shipped batch files (experiments/ of the source tree this was built from).
  static QString shippedExperiments();

 signals:
  void openRequested(const QString& batchFile);
  void playRequested();

 private:
  QVBoxLayout* recent_;
};

}  // namespace ddalab::gui
