#pragma once
// What the Qt Tests of ddalab-gui share: a person's answers to the modal dialogs a window opens
// (message boxes that ask, settings dialogs), given in order before the action that opens them;
// small batches of the shipped experiments.
#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QPointer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <fstream>
#include <functional>
#include <random>
#include <vector>

#include "app/gui/play/session.h"
#include "app/gui/views/game_view.h"
#include "experiments/batch.h"

namespace ddalab::gui {

// How long a test waits for a condition: Qt's QTRY_VERIFY and QTRY_COMPARE give up after 5 s,
// which a loaded machine can exceed while an AI thinks or a batch runs. Every wait ends as soon
// as its condition holds; the bound only ends a test that fails.
inline constexpr int kWaitMs = 60'000;
#undef QTRY_VERIFY
#define QTRY_VERIFY(expr) QTRY_VERIFY_WITH_TIMEOUT(expr, ::ddalab::gui::kWaitMs)
#undef QTRY_COMPARE
#define QTRY_COMPARE(expr, expected) \
  QTRY_COMPARE_WITH_TIMEOUT(expr, expected, ::ddalab::gui::kWaitMs)

// Plays a person's part in the dialogs the window opens, one step per dialog shown, in order.
// A dialog beyond the script is cancelled (and counted), so that a test never hangs on it.
class DialogScript : public QObject {
 public:
  using Step = std::function<void(QDialog*)>;
  explicit DialogScript(std::vector<Step> steps) : steps_(std::move(steps)) {
    qApp->installEventFilter(this);
  }
  ~DialogScript() override { qApp->removeEventFilter(this); }
  // Each dialog shown: a message box's text, else the dialog's title.
  QStringList seen;
  size_t unexpected = 0;

 protected:
  bool eventFilter(QObject* object, QEvent* event) override {
    auto* dialog = qobject_cast<QDialog*>(object);
    if (dialog && event->type() == QEvent::Show) {
      QPointer<QDialog> shown(dialog);
      QTimer::singleShot(0, this, [this, shown] {
        if (!shown || !shown->isVisible()) return;
        auto* box = qobject_cast<QMessageBox*>(shown.data());
        seen << (box ? box->text() : shown->windowTitle());
        if (next_ < steps_.size()) {
          steps_[next_++](shown);
        } else {
          ++unexpected;
          shown->reject();
        }
      });
    }
    return false;
  }

 private:
  std::vector<Step> steps_;
  size_t next_ = 0;
};

// Clicks the button of `dialog` whose text is `text` (mnemonics ignored).
inline void click(QDialog* dialog, const QString& text) {
  for (QAbstractButton* b : dialog->findChildren<QAbstractButton*>())
    if (b->text().remove('&') == text) {
      QTest::mouseClick(b, Qt::LeftButton);
      return;
    }
  QFAIL(qPrintable("no button " + text + " in " + dialog->windowTitle()));
}

inline DialogScript::Step press(const QString& text) {
  return [text](QDialog* d) { click(d, text); };
}

// With DDALAB_SHOTS set to a folder: saves `window` with `dialog` drawn over its middle, as a
// person sees them, as <DDALAB_SHOTS>/<name>.png (for looking at a dialog; no test reads it).
inline void shotOfDialog(QWidget& window, QDialog* dialog, const QString& name) {
  const QString folder = qEnvironmentVariable("DDALAB_SHOTS");
  if (folder.isEmpty()) return;
  QPixmap canvas = window.grab();
  const QPixmap box = dialog->grab();
  QPainter painter(&canvas);
  painter.drawPixmap((canvas.width() - box.width()) / 2, (canvas.height() - box.height()) / 2, box);
  painter.end();
  canvas.save(folder + "/" + name + ".png");
}

// quick.json (two Ludo rows) with `iterations` games each, written into `dir`; returns its path.
inline QString smallBatch(const QTemporaryDir& dir, int iterations) {
  Json document = Json::parse(std::ifstream(DDALAB_SOURCE_DIR "/experiments/quick.json"));
  for (Json& e : document.at("experiments")) e["iterations"] = iterations;
  const QString file = dir.filePath("small.json");
  std::ofstream(file.toStdString()) << document.dump(2);
  return file;
}

// smallBatch with the master seed `seed`, written as `name` into `dir`; returns its path.
inline QString smallBatchWithSeed(const QTemporaryDir& dir, int iterations, uint64_t seed,
                                  const QString& name) {
  Json document = Json::parse(std::ifstream(smallBatch(dir, iterations).toStdString()));
  document["seed"] = seed;
  const QString file = dir.filePath(name);
  std::ofstream(file.toStdString()) << document.dump(2);
  return file;
}

// Waits until a person is to move or the game is over; false on a timeout.
inline bool waitForPerson(GameSession& session) {
  QElapsedTimer clock;
  clock.start();
  while (!session.personToMove() &&
         !(session.started() && !session.thinking() && session.match().over())) {
    if (clock.elapsed() > 60'000) return false;
    QTest::qWait(1);
  }
  return true;
}

// Clicks hit areas of `view` (chosen by `random`) until the person's action is applied.
// Destinations come before new choices, so a half-made choice (a card) is completed.
inline void clickAMove(GameView& view, GameSession& session, std::mt19937& random) {
  const Match& match = session.match();
  const int rounds = match.tracker().rounds();
  const int actor = match.actor();
  for (int click = 0; click < 20 && session.personToMove() && match.tracker().rounds() == rounds &&
                      match.actor() == actor;
       ++click) {
    auto areas = view.hitAreas();
    QVERIFY(!areas.empty());
    std::vector<GameView::HitArea> next;
    for (const auto& a : areas)
      if (!a.label.startsWith("choose")) next.push_back(a);
    if (next.empty() || click == 0) next = areas;
    const auto& area = next[random() % next.size()];
    QTest::mouseClick(&view, Qt::LeftButton, {}, area.rect.center().toPoint());
  }
}

}  // namespace ddalab::gui
