#include "app/gui/study/study_run.h"

#include <QApplication>
#include <QCloseEvent>
#include <QKeyEvent>

#include "app/gui/text.h"

#include "app/gui/play/play_mode.h"
#include "app/gui/study/demographics_page.h"
#include "app/gui/study/questionnaire.h"
#include "app/gui/study/study_pages.h"

namespace ddalab::gui {

namespace {

// What the board says while a page before the games is shown, and after the games.
const QString kBeforeGames = "Welcome";
const QString kAfterGames = "All games played — thank you";

}  // namespace

StudyRun::StudyRun(PlayMode* mode, StudySession session, QWidget* window)
    : QObject(mode), mode_(mode), session_(std::move(session)), window_(window) {
  connect(mode_->session(), &GameSession::finished, this, [this] { gameOver(); });
  mode_->setStudyPace(session_.protocol().paceMs);
  qApp->installEventFilter(this);
}

StudyRun::~StudyRun() {
  qApp->removeEventFilter(this);
  if (page_) page_->deleteLater();
}

QKeySequence StudyRun::endKeys() {
  return QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_E);
}

bool StudyRun::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::KeyPress &&
      QKeySequence(static_cast<QKeyEvent*>(event)->keyCombination()) == endKeys()) {
    QMetaObject::invokeMethod(this, &StudyRun::endRequested, Qt::QueuedConnection);
    return true;
  }
  if (watched == window_ && event->type() == QEvent::Close) {
    event->ignore();  // ending a session is the researcher's (endKeys), not a participant's click
    return true;
  }
  return QObject::eventFilter(watched, event);
}

Questionnaire* StudyRun::questionnaire() const {
  return qobject_cast<Questionnaire*>(page_.data());
}

QString StudyRun::label(int index) const {
  return QString::fromStdString(gameLabel(index, session_.plan().size()));
}

bool StudyRun::over() const {
  return sessionEnded(session_.step());
}

void StudyRun::next() {
  switch (session_.step()) {
    case SessionStep::Consent:
      return askConsent();
    case SessionStep::Demographics:
      return askDemographics();
    case SessionStep::Instructions:
      return showInstructions();
    case SessionStep::Game:
      return play(*session_.next());
    case SessionStep::Questionnaire:
      return ask(session_.next()->index);
    case SessionStep::Debrief:
      return showDebrief();
    case SessionStep::Complete:
      return finish("The session is complete — thank you", true);
    case SessionStep::Declined:
      return finish("Thank you, the session has ended", false);
    case SessionStep::DroppedOut:
      return finish("The session has ended — thank you", false);
  }
}

void StudyRun::finish(const QString& label, bool complete) {
  mode_->setStudyLabel(label, true);
  if (complete)
    emit completed();
  else
    emit ended();
}

void StudyRun::play(const PlannedGame& game) {
  playing_ = game.index;
  GameSetup setup{session_.protocol().experiment(game.condition), game.seed};
  QString error;
  mode_->setStudyLabel(label(game.index));
  if (!mode_->newGame(setup, &error)) emit failed(error);
}

void StudyRun::gameOver() {
  if (playing_ < 0) return;
  const int index = playing_;
  playing_ = -1;
  const GameSession& game = *mode_->session();
  try {
    session_.saveGame(session_.plan()[static_cast<size_t>(index)], game.match().record(),
                      game.traceLine(), game.personDecisions());
  } catch (const std::exception& e) {
    emit failed(QString("The game could not be kept: %1").arg(e.what()));
    return;
  }
  emit message(label(index) + " is over and kept");
  ask(index);
}

void StudyRun::show(StudyPage* page, const QString& label, std::function<void()> keep) {
  if (!label.isEmpty()) mode_->setStudyLabel(label, true);
  page_ = page;
  connect(page, &QDialog::accepted, this, [this, page, keep = std::move(keep)] {
    page_ = nullptr;  // answered: no page is open from here on
    page->deleteLater();
    try {
      keep();
    } catch (const std::exception& e) {
      emit failed(QString("The answer could not be kept: %1").arg(e.what()));
      return;
    }
    next();
  });
  page->open();
}

void StudyRun::ask(int index) {
  auto* q = new Questionnaire(session_.protocol(), label(index), window_);
  show(q, {}, [this, q, index] { session_.saveAnswers(index, q->answers()); });
}

void StudyRun::askConsent() {
  const StudyPages& pages = session_.protocol().pages;
  auto* page =
      new ConsentPage(text(pages.consent), text(pages.agree), text(pages.decline), window_);
  show(page, kBeforeGames,
       [this, page] { session_.recordConsent(page->agreed(), page->timing()); });
}

void StudyRun::askDemographics() {
  auto* page = new DemographicsPage(session_.protocol().pages.demographics, window_);
  show(page, kBeforeGames, [this, page] { session_.saveDemographics(page->answers()); });
}

void StudyRun::showInstructions() {
  auto* page =
      new TextPage("Instructions", "How the study goes",
                   text(session_.protocol().pages.instructions), "Start the first game", window_);
  show(page, kBeforeGames, [this, page] { session_.recordInstructionsRead(page->timing()); });
}

void StudyRun::showDebrief() {
  auto* page = new TextPage("About this study", "Thank you for taking part",
                            text(session_.protocol().pages.debrief), "Finish", window_);
  show(page, kAfterGames, [this, page] { session_.recordDebriefRead(page->timing()); });
}

}  // namespace ddalab::gui
