#pragma once
// A participant's session of a user study played in the game mode: the games in the protocol's
// order with the condition hidden ("Game 2 of 6"), each kept in the session folder the moment it
// ends, the questionnaire after each, and — after a crash or a closed window — the session
// resumed where it stopped (a game played but not answered gets its questionnaire first).
#include <QObject>
#include <QPointer>

#include "studies/study.h"

namespace ddalab::gui {

class PlayMode;
class Questionnaire;

class StudyRun : public QObject {
  Q_OBJECT
 public:
  // Runs `session` on `mode` (the questionnaire is a dialog over `window`). Whoever ends the run
  // returns `mode` to the ordinary game mode (PlayMode::setStudyLabel).
  StudyRun(PlayMode* mode, StudySession session, QWidget* window);
  ~StudyRun() override;

  // Goes on: the questionnaire still owed, else the next game, else `completed`.
  void next();
  const StudySession& session() const { return session_; }
  // The questionnaire shown now (null between questionnaires).
  Questionnaire* questionnaire() const;
  // The index of the planned game being played (-1: none, e.g. while a questionnaire is open).
  int playing() const { return playing_; }
  // "Game 2 of 6" for game `index`.
  QString label(int index) const;

 signals:
  // Every game of the session is played and answered.
  void completed();
  // Something to tell in the status bar.
  void message(const QString& text);
  // A file could not be written (the disk, the folder); the session stops there.
  void failed(const QString& why);

 private:
  void gameOver();
  void ask(int index);

  PlayMode* mode_;
  StudySession session_;
  QWidget* window_;
  QPointer<Questionnaire> questionnaire_;
  int playing_ = -1;  // the game being played (-1: none)
};

}  // namespace ddalab::gui
