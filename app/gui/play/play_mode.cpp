#include "app/gui/play/play_mode.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QShortcut>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <numeric>

#include "app/gui/play/live_panel.h"
#include "app/gui/play/replay.h"
#include "app/gui/views/game_view.h"
#include "app/gui/views/view_registry.h"
#include "core/status.h"
#include "games/registry.h"
#include "players/registry.h"
#include "results/csv.h"
#include "core/file_io.h"

namespace ddalab::gui {

namespace {

// The value of the content's objective for the game so far, where it is not the weighted sum F
// the panel shows anyway.
void showObjective(PanelContent& content, const MetricsTracker& tracker, const State& state) {
  if (content.objective.kind != ObjectiveKind::WeightedSum)
    content.objectiveValue =
        content.objective.value(tracker, state.believability(), content.coefficients);
}

std::string seatLabel(const PlayerEntry& p, bool human, int seat) {
  if (human) return "seat " + std::to_string(seat) + ": you";
  return "seat " + std::to_string(seat) + ": " + p.info->id + ":" + std::to_string(p.level);
}

std::vector<double> statusList(const State& state) {
  Gains statuses{};
  statusesOf(state, statuses);
  return {statuses.begin(), statuses.begin() + state.numPlayers()};
}

// Who won a finished game and, among several seats, the ranking by gain: "seat 1 (you) wins —
// ranking by gain: seat 1 (you) 12, seat 0 8". `people` marks the persons' seats (may be empty).
QString outcomeText(const State& state, const std::vector<bool>& people) {
  const auto name = [&](int seat) {
    const bool person =
        static_cast<size_t>(seat) < people.size() && people[static_cast<size_t>(seat)];
    return QString("seat %1%2").arg(seat).arg(person ? " (you)" : "");
  };
  QString text = state.winner() >= 0 ? name(state.winner()) + " wins" : QString("no winner");
  if (state.numPlayers() < 2) return text;
  std::vector<int> order(static_cast<size_t>(state.numPlayers()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return state.gain(a) > state.gain(b); });
  QStringList ranking;
  for (int seat : order) ranking << name(seat) + " " + QString::number(state.gain(seat), 'g', 4);
  return text + " — ranking by gain: " + ranking.join(", ");
}

// The persons' seats a detailed trace records ("people"; none in a plain trace).
std::vector<bool> replayPeople(const Json& line) {
  std::vector<bool> people;
  const auto found = line.find("people");
  if (found != line.end() && found->is_array())
    for (const Json& p : *found) people.push_back(p.is_boolean() && p.get<bool>());
  return people;
}

}  // namespace

PlayMode::PlayMode(QWidget* parent)
    : QWidget(parent),
      session_(new GameSession(this)),
      panel_(new LivePanel(this)),
      centre_(new QHBoxLayout),
      seed_(new QLineEdit("1", this)),
      pace_(new QSlider(Qt::Horizontal, this)),
      paceLabel_(new QLabel(this)),
      pause_(new QPushButton("Pause", this)),
      step_(new QPushButton("Step", this)),
      playBar_(new QWidget(this)),
      replayBar_(new QWidget(this)),
      roundSlider_(new QSlider(Qt::Horizontal, this)),
      roundLabel_(new QLabel(this)),
      blankBoard_(new QWidget(this)) {
  centre_->addWidget(blankBoard_);
  blankBoard_->hide();
  setUpControls();
  buildPlayBar();
  buildReplayBar();
  auto* left = new QVBoxLayout;
  left->addLayout(centre_, 1);
  left->addWidget(playBar_);
  left->addWidget(replayBar_);
  auto* layout = new QHBoxLayout(this);
  layout->addLayout(left, 3);
  layout->addWidget(panel_, 2);
  connectControls();
}

void PlayMode::setUpControls() {
  seed_->setMaximumWidth(170);
  seed_->setToolTip("The seed deals the game: the same seed and settings replay it exactly");
  pace_->setRange(0, 2000);
  pace_->setValue(600);
  roundLabel_->setObjectName("replayRound");
  // Wrapped: the last round's one-line "game over … ranking by gain …" widened the window past
  // the screen, pushing the live panel off it.
  roundLabel_->setWordWrap(true);
  // Two lines kept however crowded the window is (a wrapped label's height is otherwise squeezed).
  roundLabel_->setMinimumHeight(2 * roundLabel_->fontMetrics().lineSpacing() + 4);
  pace_->setMaximumWidth(220);
  pace_->setToolTip("Milliseconds between the AIs' and the environment's actions");
  pause_->setCheckable(true);
  pause_->setToolTip("Stop the AIs and the environment after their current action");
  step_->setToolTip("While paused: one action of the AI or environment on turn");
}

void PlayMode::buildPlayBar() {
  auto* play = new QHBoxLayout(playBar_);
  play->setContentsMargins(0, 0, 0, 0);
  auto* seedLabel = new QLabel("Seed", this);
  play->addWidget(seedLabel);
  play->addWidget(seed_);
  auto* paceName = new QLabel("AI pace", this);
  notInStudies_ = {seedLabel, seed_, paceName, pace_, paceLabel_, step_};
  play->addSpacing(16);
  play->addWidget(paceName);
  play->addWidget(pace_);
  play->addWidget(paceLabel_);
  play->addWidget(pause_);
  play->addWidget(step_);
  play->addStretch();
}

void PlayMode::buildReplayBar() {
  // The controls on one line, what the round did on its own line below them (wrapped).
  auto* replayRows = new QVBoxLayout(replayBar_);
  replayRows->setContentsMargins(0, 0, 0, 0);
  auto* replay = new QHBoxLayout;
  replayRows->addLayout(replay);
  const auto button = [this, replay](const QString& text, const QString& tip, auto jump) {
    auto* b = new QPushButton(text, this);
    b->setToolTip(tip);
    b->setMaximumWidth(48);
    connect(b, &QPushButton::clicked, this, jump);
    replay->addWidget(b);
  };
  button("|<", "the start", [this] { showRound(0); });
  button("<", "the round before", [this] { showRound(round_ - 1); });
  replay->addWidget(roundSlider_, 1);
  button(">", "the next round (→)", [this] { showRound(round_ + 1); });
  button(">|", "the end", [this] { showRound(replay_ ? replay_->rounds() : 0); });
  play_ = new QPushButton("Play", this);
  play_->setCheckable(true);
  play_->setToolTip("Replay round after round at the AI pace (Space)");
  replay->addWidget(play_);
  playTimer_ = new QTimer(this);
  connect(play_, &QPushButton::toggled, this, [this](bool on) {
    play_->setText(on ? "Pause" : "Play");
    if (on && replay_ && round_ >= replay_->rounds()) showRound(0);  // from the start again
    if (on)
      playTimer_->start(std::max(30, pace_->value()));
    else
      playTimer_->stop();
  });
  connect(playTimer_, &QTimer::timeout, this, [this] {
    if (!replay_ || round_ >= replay_->rounds()) return play_->setChecked(false);
    showRound(round_ + 1);
  });
  addReplayKeys();
  replayRows->addWidget(roundLabel_);
  replayBar_->hide();
}

void PlayMode::addReplayKeys() {
  // The arrow keys step the replay, Space plays it (only while a replay is shown).
  const auto key = [this](QKeySequence sequence, auto slot) {
    auto* shortcut = new QShortcut(sequence, this);
    connect(shortcut, &QShortcut::activated, this, [this, slot] {
      if (replay_) slot();
    });
  };
  key(Qt::Key_Left, [this] { showRound(round_ - 1); });
  key(Qt::Key_Right, [this] { showRound(round_ + 1); });
  key(Qt::Key_Home, [this] { showRound(0); });
  key(Qt::Key_End, [this] { showRound(replay_->rounds()); });
  key(Qt::Key_Space, [this] { play_->toggle(); });
}

void PlayMode::connectControls() {
  connect(pace_, &QSlider::valueChanged, this, [this](int ms) {
    session_->setDelay(ms);
    paceLabel_->setText(QString("%1 ms").arg(ms));
  });
  paceLabel_->setText("600 ms");
  connect(pause_, &QPushButton::toggled, this, [this](bool paused) {
    session_->setPaused(paused);
    pause_->setText(paused ? "Resume" : "Pause");
    step_->setEnabled(paused);
  });
  step_->setEnabled(false);
  connect(step_, &QPushButton::clicked, session_, &GameSession::step);
  connect(roundSlider_, &QSlider::valueChanged, this, [this](int position) {
    if (position != round_) showRound(position);
  });
  connect(session_, &GameSession::changed, this, &PlayMode::refresh);
  connect(session_, &GameSession::thinkingChanged, this, [this](bool thinking) {
    // Not in a study: when the environment thinks (and for how long) would tell the condition.
    if (!replaying() && !studyMode()) emit message(thinking ? "the AI thinks…" : "");
  });
  connect(session_, &GameSession::finished, this, [this] {
    emit message("game over: " + outcomeText(session_->match().state(), session_->people()));
  });
}

PlayMode::~PlayMode() = default;

uint64_t PlayMode::seed() const {
  return seed_->text().trimmed().toULongLong();
}

GameSetup PlayMode::defaultSetup(const std::string& gameId, uint64_t seed) {
  const GameInfo& info = findById<GameInfo>(gameRegistry(), gameId, "game", "game");
  const auto game = info.make(validateParams(info.params, nullptr, "params"));
  const std::string ai = defaultAi(*game).id;
  Json players = Json::array({{{"id", kPersonSeat}}});
  for (int seat = 1; seat < game->numPlayers(); ++seat) players.push_back({{"id", ai}});
  return {{{"name", "game"},
           {"game", {{"id", gameId}}},
           {"players", players},
           {"environment", {{"id", "e-hillclimber"}}},
           {"coefficients", info.thesisCoefficients},
           {"iterations", 1}},
          seed};
}

bool PlayMode::newGame(const GameSetup& setup, QString* error) {
  try {
    session_->start(setup);
  } catch (const InputError& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  replay_.reset();
  replayBar_->hide();
  playBar_->show();
  studyGame_ = studyMode();
  blank_ = false;
  seed_->setText(QString::number(setup.seed));
  setView(session_->experiment().gameInfo->id);
  refresh();
  return true;
}

void PlayMode::setView(const std::string& gameId) {
  if (view_ && viewGame_ == gameId) return;
  delete view_;
  view_ = makeGameView(gameId, this);
  viewGame_ = gameId;
  if (!view_) return;
  view_->setShowHidden(showHidden_);
  centre_->addWidget(view_);
  connect(view_, &GameView::actionChosen, this, [this](Action action) {
    if (!session_->act(action)) emit message("that move is not legal now");
  });
  connect(view_, &GameView::refused, this, &PlayMode::message);
}

std::vector<PlayerLine> PlayMode::playerLines(const State& state) const {
  std::vector<PlayerLine> lines;
  const std::vector<double> statuses = statusList(state);
  for (int p = 0; p < state.numPlayers(); ++p) {
    std::string label = "player " + std::to_string(p);
    if (!replay_) {
      const std::vector<bool>& human = session_->people();
      label = seatLabel(session_->experiment().players[static_cast<size_t>(p)],
                        static_cast<size_t>(p) < human.size() && human[static_cast<size_t>(p)], p);
    } else {
      const Json& players = replay_->line().at("players");
      label = "seat " + std::to_string(p) + ": " + players[static_cast<size_t>(p)].value("id", "") +
              ":" + std::to_string(players[static_cast<size_t>(p)].value("level", 100));
    }
    lines.push_back({label, state.gain(p), statuses[static_cast<size_t>(p)],
                     view_ ? view_->playerColour(p) : seatColour(p),
                     view_ ? view_->playerMark(p) : seatLetter(p)});
  }
  return lines;
}

std::vector<int> PlayMode::viewers() const {
  // What every person at the table may know (a seat's secret is kept from the other persons
  // too); a demo of AIs only, or a researcher's switch, shows everything. A replay is seen from
  // seat 0, the seat its view shows the hand of.
  std::vector<int> seats;
  if (showHidden_) return seats;
  if (replay_) return {0};
  const std::vector<bool>& human = session_->people();
  for (size_t seat = 0; seat < human.size(); ++seat)
    if (human[seat]) seats.push_back(static_cast<int>(seat));
  return seats;
}

void PlayMode::setShowHidden(bool show) {
  showHidden_ = show;
  if (view_) view_->setShowHidden(show);
  if (replay_)
    refreshReplay();
  else
    refresh();
}

void PlayMode::refresh() {
  showBoard();
  if (!replay_ && blank_) {  // a study's page, its end, or a study just left: nothing of a game
    PanelContent content;
    content.heading =
        studyMode() ? studyLabel_ : QString("No game shown: Game → New game (Ctrl+G) starts one");
    content.blank = true;
    panel_->show(content);
    return;
  }
  if (replay_ || !session_->started() || session_->thinking()) return;
  const Match& match = session_->match();
  const State& state = match.state();
  const bool personTurn = session_->personToMove();
  if (view_) view_->showState(state, session_->legal(), personTurn, perspective(personTurn));
  const std::vector<int> seats = viewers();
  std::optional<DecisionReport> report;
  const EnvironmentMove* move = session_->lastEnvironmentMove();
  if (move)
    report =
        decisionReport(*move->before, move->action, move->decision ? &*move->decision : nullptr,
                       session_->experiment().coefficients, seats);
  PanelContent content{heading(state, personTurn),
                       playerLines(state),
                       match.tracker().values(state.believability()),
                       session_->experiment().coefficients,
                       !seats.empty() && !state.gainsPublic(),
                       report ? &*report : nullptr,
                       [this, move](Action outcome) {
                         return view_ && move ? view_->outcomeIcon(*move->before, outcome, 34)
                                              : QPixmap();
                       },
                       session_->experiment().objective,
                       std::nullopt,
                       false};
  showObjective(content, match.tracker(), state);
  panel_->show(content);
}

int PlayMode::perspective(bool personTurn) const {
  // The person on turn must see their hand to play it; between turns the first person's.
  if (personTurn) return session_->match().actor();
  const std::vector<bool>& human = session_->people();
  const auto first = std::find(human.begin(), human.end(), true);
  return first == human.end() ? 0 : static_cast<int>(first - human.begin());
}

void PlayMode::setStudyLabel(const QString& label, bool final) {
  studyFinal_ = final;
  blank_ = label.isEmpty() ? blank_ || studyGame_ : final;
  const bool entering = studyLabel_.isEmpty() && !label.isEmpty();
  const bool leaving = !studyLabel_.isEmpty() && label.isEmpty();
  studyLabel_ = label;
  for (QWidget* w : notInStudies_) w->setVisible(label.isEmpty());
  panel_->setEnvironmentShown(label.isEmpty());
  if (!label.isEmpty()) pause_->setChecked(false);
  // Between a study's games (its pages before the first, its end) the board behind stands still
  // and there is nothing to pause.
  const bool still = !label.isEmpty() && final;
  pause_->setVisible(!still);
  session_->setPaused(still);
  if (entering) {  // the researcher's slider stays as it was
    session_->setDelay(studyPaceMs_);
    session_->setFixedPace(true);
  }
  if (leaving) {
    session_->setDelay(pace_->value());
    session_->setFixedPace(false);
    // The next game is the researcher's: it must not replay a participant's deal.
    seed_->setText(QString::number(QRandomGenerator::global()->generate64()));
  }
  refresh();
}

GameSetup PlayMode::nextSetup() const {
  if (!session_->started() || studyGame_)
    return defaultSetup(
        session_->started() ? session_->experiment().gameInfo->id : gameRegistry().front().id,
        seed());
  return {session_->setup().experiment, seed()};
}

void PlayMode::saveGame(const std::filesystem::path& stem) const {
  writeFileAtomically(stem.string() + ".trace.jsonl", session_->traceLine().dump() + "\n");
  if (!session_->match().over()) return;
  const size_t seats = session_->experiment().players.size();
  writeFileAtomically(stem.string() + ".games.csv",
                      gamesCsvHeader(seats) + gamesCsvRow(session_->match().record(), seats));
}

QString PlayMode::heading(const State& state, bool personTurn) const {
  if (studyMode()) {  // nothing about the condition: not the environment player's name
    if (studyFinal_) return studyLabel_;
    if (state.isTerminal())
      return studyLabel_ + " — game over: " + outcomeText(state, session_->people());
    return studyLabel_ + (personTurn ? " — your turn" : " — please wait");
  }
  const int round = session_->match().tracker().rounds() + 1;
  if (state.isTerminal()) return "Game over: " + outcomeText(state, session_->people());
  if (state.actor() == kEnvironment)
    return QString("Round %1: the environment (%2) decides")
        .arg(round)
        .arg(QString::fromStdString(session_->experiment().environment.info->id));
  return QString("Round %1: seat %2 %3")
      .arg(round)
      .arg(state.actor())
      .arg(personTurn ? "— your turn" : "thinks");
}

void PlayMode::openReplay(std::unique_ptr<Replay> replay, const std::string& gameId) {
  replay_ = std::move(replay);
  blank_ = false;
  setView(gameId);
  playBar_->hide();
  replayBar_->show();
  roundSlider_->setRange(0, replay_->rounds());
  round_ = -1;
  showRound(0);
}

void PlayMode::showRound(int position) {
  if (!replay_) return;
  round_ = std::clamp(position, 0, replay_->rounds());
  {
    QSignalBlocker block(roundSlider_);
    roundSlider_->setValue(round_);
  }
  refreshReplay();
}

void PlayMode::showBoard() {
  const bool shown = view_ && (!blank_ || replay_);
  if (view_) view_->setVisible(shown);
  blankBoard_->setVisible(!shown);
}

void PlayMode::refreshReplay() {
  showBoard();
  const State& state = replay_->stateAt(round_);
  if (view_) view_->showState(state, {}, false, 0);
  const Json& line = replay_->line();
  const std::vector<int> seats = viewers();
  const QString end = state.isTerminal()
                          ? " — game over: " + outcomeText(state, replayPeople(replay_->line()))
                          : QString();
  roundLabel_->setText(QString("round %1 of %2: %3%4")
                           .arg(round_)
                           .arg(replay_->rounds())
                           .arg(QString::fromStdString(replay_->roundText(round_, seats)), end));
  const std::optional<DecisionReport> report = replay_->decisionAt(round_, seats);
  PanelContent content{QString("Replay of %1, game %2 (seed %3)")
                           .arg(QString::fromStdString(line.value("experiment", std::string())))
                           .arg(line.value("iteration", 0))
                           .arg(QString::number(line.value("seed", uint64_t{0}))),
                       playerLines(state),
                       replay_->trackerAt(round_).values(state.believability()),
                       replay_->coefficients(),
                       !seats.empty() && !state.gainsPublic(),
                       report ? &*report : nullptr,
                       [this, before = replay_->decisionStateAt(round_)](Action outcome) {
                         return view_ && before ? view_->outcomeIcon(*before, outcome, 34)
                                                : QPixmap();
                       },
                       replay_->objective(),
                       std::nullopt,
                       false};
  showObjective(content, replay_->trackerAt(round_), state);
  panel_->show(content);
}

}  // namespace ddalab::gui
