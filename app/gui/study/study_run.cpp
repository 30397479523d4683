#include "app/gui/study/study_run.h"

#include "app/gui/play/play_mode.h"
#include "app/gui/study/questionnaire.h"

namespace ddalab::gui {

StudyRun::StudyRun(PlayMode* mode, StudySession session, QWidget* window)
    : QObject(mode), mode_(mode), session_(std::move(session)), window_(window) {
  connect(mode_->session(), &GameSession::finished, this, [this] { gameOver(); });
}

StudyRun::~StudyRun() {
  if (questionnaire_) questionnaire_->deleteLater();
}

Questionnaire* StudyRun::questionnaire() const {
  return questionnaire_;
}

QString StudyRun::label(int index) const {
  return QString("Game %1 of %2").arg(index + 1).arg(session_.plan().size());
}

void StudyRun::next() {
  const std::optional<PlannedGame> game = session_.next();
  if (!game) {
    mode_->setStudyLabel("The session is complete — thank you", true);
    emit completed();
    return;
  }
  if (session_.needsAnswersOnly()) return ask(game->index);
  playing_ = game->index;
  const StudyProtocol& protocol = session_.protocol();
  GameSetup setup{protocol.experiment(game->condition), game->seed};
  QString error;
  mode_->setStudyLabel(label(game->index));
  if (!mode_->newGame(setup, &error)) emit failed(error);
}

void StudyRun::gameOver() {
  if (playing_ < 0) return;
  const int index = playing_;
  playing_ = -1;
  try {
    session_.saveGame(session_.plan()[static_cast<size_t>(index)],
                      mode_->session()->match().record(), mode_->session()->traceLine());
  } catch (const std::exception& e) {
    emit failed(QString("The game could not be kept: %1").arg(e.what()));
    return;
  }
  emit message(label(index) + " is over and kept");
  ask(index);
}

void StudyRun::ask(int index) {
  auto* questionnaire = new Questionnaire(session_.protocol(), label(index), window_);
  questionnaire_ = questionnaire;
  connect(questionnaire, &QDialog::accepted, this, [this, questionnaire, index] {
    const StudyAnswers answers = questionnaire->answers();
    questionnaire_ = nullptr;  // answered: no questionnaire is open from here on
    questionnaire->deleteLater();
    try {
      session_.saveAnswers(index, answers);
    } catch (const std::exception& e) {
      emit failed(QString("The answers could not be kept: %1").arg(e.what()));
      return;
    }
    next();
  });
  questionnaire->open();
}

}  // namespace ddalab::gui
