#pragma once
// A participant's session of a user study played in the game mode, step by step as the session
// says (StudySession::step): the consent, the demographics and the instructions the protocol has,
// the games in the protocol's order with the condition hidden ("Game 2 of 6"), each kept in the
// session folder the moment it ends with the person's decisions and their times, the
// questionnaire after each, the debrief; declining consent ends it. After a crash or a closed
// window the session resumes at the page or game where it stopped (a game played but not
// answered gets its questionnaire first). From the first page until the researcher ends it, the
// session is the participant's: the window's close box does nothing and only the researcher's
// keys (endKeys()) end it — after the last page too, so the next participant finds the window as
// the researcher left it, never with its menus open.
#include <QKeySequence>
#include <QObject>
#include <QPointer>
#include <functional>

#include "app/gui/study/study_page.h"
#include "studies/study.h"

namespace ddalab::gui {

class PlayMode;
class Questionnaire;

class StudyRun : public QObject {
  Q_OBJECT
 public:
  // Runs `session` on `mode` (the pages are dialogs over `window`). Whoever ends the run
  // returns `mode` to the ordinary game mode (PlayMode::setStudyLabel).
  StudyRun(PlayMode* mode, StudySession session, QWidget* window);
  ~StudyRun() override;

  // Goes on with what the session shows next: a page, a game, a game's questionnaire, or the end
  // (`completed`, or `ended` for a session declined or left).
  void next();
  const StudySession& session() const { return session_; }
  // Whether nothing is left to show: complete, consent declined, or dropped out.
  bool over() const;
  // The page shown now (null while a game is played).
  StudyPage* page() const { return page_; }
  // The questionnaire shown now (null when none is).
  Questionnaire* questionnaire() const;
  // The index of the planned game being played (-1: none, e.g. while a questionnaire is open).
  int playing() const { return playing_; }
  // "Game 2 of 6" for game `index`.
  QString label(int index) const;
  // The researcher's keys that end the session (endRequested): Ctrl+Alt+Shift+E, a chord no
  // participant presses by chance, shown on no participant's page (docs/lab-studies.md and the Run
  // study dialog name it).
  static QKeySequence endKeys();

 signals:
  // Every game of the session is played and answered, and the debrief read.
  void completed();
  // The session ended before that: consent declined, or the participant was marked as dropped
  // out (StudySession::dropoutReason says which).
  void ended();
  // Something to tell in the status bar.
  void message(const QString& text);
  // A file could not be written (the disk, the folder); the session stops there.
  void failed(const QString& why);
  // The researcher pressed endKeys(): the window ends the session (asking first while it is not
  // over). Emitted queued: the run may be deleted by whoever answers it.
  void endRequested();

 protected:
  // The researcher's keys anywhere in the application, and the window's close box (ignored).
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void play(const PlannedGame& game);
  void gameOver();
  void ask(int index);
  void askConsent();
  void askDemographics();
  void showInstructions();
  void showDebrief();
  // Shows `page` over the board (`label` on it, no game in play) and, once it is answered, lets
  // `keep` write its answer into the session and goes on.
  void show(StudyPage* page, const QString& label, std::function<void()> keep);
  // The session is over: the board says `label`.
  void finish(const QString& label, bool complete);

  PlayMode* mode_;
  StudySession session_;
  QWidget* window_;
  QPointer<StudyPage> page_;
  int playing_ = -1;  // the game being played (-1: none)
};

}  // namespace ddalab::gui
