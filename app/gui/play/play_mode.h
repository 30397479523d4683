#pragma once
// The game mode (thesis appendix A.2): a game's view in the centre, the live panel on the right,
// the pace of the AIs and the replay controls below. A person plays any seat with the mouse
// against AIs while an environment player steers chance; or a recorded game is replayed round by
// round from a trace.
#include <QWidget>
#include <filesystem>
#include <memory>

#include "app/gui/play/session.h"
#include "studies/study.h"

QT_BEGIN_NAMESPACE
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;
QT_END_NAMESPACE

namespace ddalab::gui {

class GameView;
class LivePanel;
struct PlayerLine;
class Replay;

class PlayMode : public QWidget {
  Q_OBJECT
 public:
  explicit PlayMode(QWidget* parent = nullptr);
  ~PlayMode() override;

  // Starts a game of `setup`; false (with the reason in `error`) when it is not valid.
  bool newGame(const GameSetup& setup, QString* error = nullptr);
  // The default game of `gameId`: seat 0 a person, the others the first searching AI,
  // e-hillclimber steering with the thesis's coefficients.
  static GameSetup defaultSetup(const std::string& gameId, uint64_t seed);
  // Replays a recorded game on the view of `gameId`.
  void openReplay(std::unique_ptr<Replay> replay, const std::string& gameId);
  // Shows round `position` of the replay (0 = the start).
  void showRound(int position);
  bool replaying() const { return replay_ != nullptr; }
  int round() const { return round_; }

  GameSession* session() const { return session_; }
  // A user study's game: the condition stays hidden — the heading says `label` ("Game 1 of 6"),
  // the panel shows only the players, the AIs and the environment move at the fixed study pace
  // however long they think (GameSession::setFixedPace; no "thinks" message), and of the play
  // bar only the pause is offered (no seed, no pace, no step). An empty label returns to the
  // ordinary game mode with the researcher's pace and a fresh seed. `final`: no game of the study
  // is played now (its pages before the first, its end): the heading says `label` alone (not the
  // game's state), the game behind stands still, and there is no pause. The board and the panel
  // are blank from a `final` label (and after a study's game when the study is left) until the
  // next game or replay starts: a participant never sees the game, gains or metrics of the one
  // before, and the researcher's window never shows a study game's F or environment.
  void setStudyLabel(const QString& label, bool final = false);
  // Whether the board and the panel are blank (see setStudyLabel).
  bool blank() const { return blank_; }
  bool studyMode() const { return !studyLabel_.isEmpty(); }
  // Whether the game shown was started as a study's game (its settings are a hidden condition).
  bool studyGame() const { return studyGame_; }
  // What New game and Game settings start from: the game shown with the seed field's seed, or
  // after a study's game the default game of its game (a study's condition is never reused).
  GameSetup nextSetup() const;
  // The milliseconds between the AIs' actions in the study's games from now on (the protocol's
  // pace_ms): every participant sees the same pace.
  void setStudyPace(int ms) { studyPaceMs_ = ms; }
  static constexpr int kStudyPaceMs = kDefaultStudyPaceMs;
  // Writes the game being played (or just over) as `<stem>.trace.jsonl` (its detailed trace line)
  // and, once it is over, `<stem>.games.csv` (its row of the games file); throws WriteError.
  void saveGame(const std::filesystem::path& stem) const;
  // The researcher's switch: show what the persons' seats may not know (off: hidden).
  void setShowHidden(bool show);
  bool showHidden() const { return showHidden_; }
  // The seats whose knowledge bounds what the panel and the view show: the persons' (a replay:
  // seat 0's); none when all is shown.
  std::vector<int> viewers() const;
  GameView* view() const { return view_; }
  LivePanel* panel() const { return panel_; }
  uint64_t seed() const;

 signals:
  // Something to tell in the status bar (an illegal click and why, the end of a game).
  void message(const QString& text);

 private:
  // The seed, pace, pause and step controls' ranges and tips; the replay's round line.
  void setUpControls();
  // The line below the board while a game is played: seed, pace, pause, step.
  void buildPlayBar();
  // The line below the board while a replay is shown: its buttons, round slider and Play, the
  // round's text below them.
  void buildReplayBar();
  // The replay's keys: the arrows, Home and End step it, Space plays it.
  void addReplayKeys();
  // The controls and the session's signals to what they change.
  void connectControls();
  void setView(const std::string& gameId);
  void refresh();
  void refreshReplay();
  // The board, or the blank that stands for it (blank(); no game's view yet).
  void showBoard();
  std::vector<PlayerLine> playerLines(const State& state) const;
  // The seat whose hand the view shows: the person on turn, else the first person's seat.
  int perspective(bool personTurn) const;
  // The live panel's heading for `state` of the game being played.
  QString heading(const State& state, bool personTurn) const;

  GameSession* session_;
  GameView* view_ = nullptr;
  std::string viewGame_;
  LivePanel* panel_;
  QHBoxLayout* centre_;
  QLineEdit* seed_;
  QSlider* pace_;
  QLabel* paceLabel_;
  QPushButton* pause_;
  QPushButton* step_;
  QWidget* playBar_;
  QWidget* replayBar_;
  QSlider* roundSlider_;
  QLabel* roundLabel_;
  QPushButton* play_ = nullptr;  // replays round after round
  QTimer* playTimer_ = nullptr;
  std::unique_ptr<Replay> replay_;
  int round_ = 0;
  bool showHidden_ = false;
  QString studyLabel_;
  int studyPaceMs_ = kStudyPaceMs;
  bool studyGame_ = false;
  bool studyFinal_ = false;
  bool blank_ = false;
  QWidget* blankBoard_;  // stands where the board was while blank
  std::vector<QWidget*> notInStudies_;  // the parts of the play bar a study does not offer
};

}  // namespace ddalab::gui
