#include "app/gui/batch/experiment_dialog.h"
#include "app/gui/text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>

#include "app/gui/batch/objective_editor.h"
#include "app/gui/batch/param_form.h"
#include "experiments/batch.h"
#include "experiments/lineup.h"
#include "games/registry.h"
#include "players/registry.h"

namespace ddalab::gui {

namespace {

constexpr const char* kHuman = kPersonSeat;

const PlayerInfo* findPlayer(const std::string& id) {
  for (const auto& info : playerRegistry())
    if (info.id == id) return &info;
  return nullptr;
}

const GameInfo* findGame(const std::string& id) {
  for (const auto& info : gameRegistry())
    if (info.id == id) return &info;
  return nullptr;
}

}  // namespace

PlayerEditor::PlayerEditor(PlayerKind role, const QString& title, QWidget* parent)
    : QWidget(parent), role_(role), id_(new QComboBox(this)), params_(new ParamForm(this)) {
  auto* layout = new QFormLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* head = new QHBoxLayout;
  head->addWidget(id_, 1);
  if (role == PlayerKind::Regular) {
    level_ = new QSpinBox(this);
    level_->setRange(1, 100);
    level_->setValue(100);
    level_->setPrefix("level ");
    level_->setToolTip("1-100: how often the player picks its best action (level scaling)");
    head->addWidget(level_);
  }
  layout->addRow(title, head);
  auto* indented = new QHBoxLayout;
  indented->setContentsMargins(24, 0, 0, 6);  // a seat's parameters sit under its player
  indented->addWidget(params_);
  layout->addRow(indented);
  connect(id_, &QComboBox::currentIndexChanged, this, &PlayerEditor::showSchema);
}

void PlayerEditor::offer(const Game& game, const std::string& keep, bool person) {
  QSignalBlocker block(id_);
  const QString current = id_->currentText();
  id_->clear();
  if (person && role_ == PlayerKind::Regular) {
    id_->addItem(kHuman);
    id_->setItemData(0, "a person plays this seat with the mouse", Qt::ToolTipRole);
  }
  for (const auto& info : playerRegistry())
    if (canPlay(info, game, role_) || info.id == keep) {
      id_->addItem(text(info.id));
      id_->setItemData(id_->count() - 1, text(info.description), Qt::ToolTipRole);
    }
  const int index = id_->findText(keep.empty() ? current : text(keep));
  id_->setCurrentIndex(std::max(0, index));
  showSchema();
}

void PlayerEditor::showSchema() {
  const PlayerInfo* info = findPlayer(id_->currentText().toStdString());
  params_->setSchema(info ? std::span<const ParamSpec>(info->params)
                          : std::span<const ParamSpec>());
  params_->setVisible(!params_->empty());
  id_->setToolTip(info ? text(info->description) : QString());
}

void PlayerEditor::setPlayer(const Json& player) {
  const std::string id = player.value("id", std::string());
  const int index = id_->findText(text(id));
  if (index >= 0) id_->setCurrentIndex(index);
  showSchema();
  if (level_) {
    level_->setValue(player.value("level", 100));
    level_->setEnabled(id != kHuman);
  }
  params_->setValues(player.value("params", Json::object()));
}

Json PlayerEditor::player() const {
  Json player = {{"id", id_->currentText().toStdString()}};
  if (id_->currentText() == kHuman) return player;
  if (level_ && level_->value() != 100) player["level"] = level_->value();
  if (Json params = params_->changedValues(); !params.empty()) player["params"] = params;
  return player;
}

ExperimentDialog::ExperimentDialog(QWidget* parent)
    : QDialog(parent),
      name_(new QLineEdit(this)),
      comparison_(new QLineEdit(this)),
      iterations_(new QSpinBox(this)),
      salt_(new QLineEdit(this)),
      game_(new QComboBox(this)),
      gameParams_(new ParamForm(this)),
      seatsLayout_(new QVBoxLayout),
      environment_(new PlayerEditor(PlayerKind::Environment, "Environment", this)),
      objective_(new ObjectiveEditor(this)),
      error_(new QLabel(this)) {
  setWindowTitle("Experiment settings");
  setUpIdentityFields();
  QVBoxLayout* left = buildExperimentHalf();
  QVBoxLayout* right = buildScoringHalf();
  layOutDialog(left, right);
  connect(game_, &QComboBox::currentIndexChanged, this, [this] {
    const GameInfo* info = findGame(game_->currentText().toStdString());
    gameParams_->setSchema(info->params);
    gameChanged();
    showCoefficients(info->thesisCoefficients);  // another game: its thesis weights
  });
  connect(gameParams_, &ParamForm::changed, this, &ExperimentDialog::gameChanged);
  setExperiment({{"name", "experiment"},
                 {"game", {{"id", gameRegistry().front().id}}},
                 {"iterations", 1000}});
}

void ExperimentDialog::setUpIdentityFields() {
  iterations_->setRange(1, 100'000'000);
  iterations_->setValue(1000);
  salt_->setPlaceholderText("0: the same games as the other rows");
  salt_->setToolTip(
      "0 = the per-iteration seeds every experiment of the batch shares (paired "
      "rows); any other number gives this experiment its own games");
  comparison_->setToolTip("experiments sharing a comparison are scored against each other");
  for (const auto& info : gameRegistry()) {
    game_->addItem(text(info.id));
    game_->setItemData(game_->count() - 1, text(info.description), Qt::ToolTipRole);
  }
}

QVBoxLayout* ExperimentDialog::buildExperimentHalf() {
  identity_ = new QWidget(this);
  auto* identity = new QFormLayout(identity_);
  identity->setContentsMargins(0, 0, 0, 0);
  identity->addRow("Name", name_);
  identity->addRow("Comparison", comparison_);
  identity->addRow("Iterations", iterations_);
  identity->addRow("Salt", salt_);

  auto* gameBox = new QGroupBox("Game", this);
  auto* gameLayout = new QFormLayout(gameBox);
  gameLayout->addRow("Game", game_);
  gameLayout->addRow(gameParams_);
  auto* seatsBox = new QGroupBox("Players", this);
  seatsBox->setLayout(seatsLayout_);
  auto* left = new QVBoxLayout;
  left->addWidget(identity_);
  left->addWidget(gameBox);
  left->addWidget(seatsBox);
  left->addStretch();
  return left;
}

QVBoxLayout* ExperimentDialog::buildScoringHalf() {
  auto* environmentBox = new QGroupBox("Environment player", this);
  (new QVBoxLayout(environmentBox))->addWidget(environment_);
  auto* coefficientsBox = new QGroupBox("Fun-score coefficients (0 = not used)", this);
  auto* coefficientLayout = new QFormLayout(coefficientsBox);
  for (const auto& metric : allMetrics()) {
    auto* edit = new QLineEdit(this);
    edit->setObjectName(text("coefficient-" + std::string(metric.key)));  // for tests
    edit->setPlaceholderText("0");
    const QString tip = text(std::string(metric.description));
    edit->setToolTip(tip);
    auto* label = new QLabel(text(std::string(metric.key)), this);
    label->setToolTip(tip);
    coefficientLayout->addRow(label, edit);
    coefficients_.emplace_back(std::string(metric.key), edit);
  }
  auto* objectiveBox = new QGroupBox("Objective of the environment player", this);
  objectiveBox->setToolTip(
      "what a fun-seeking environment player (e-hillclimber, e-maxmax, e-maxn, e-montecarlo) "
      "pursues; the weighted sum of the coefficients above is the thesis's");
  (new QVBoxLayout(objectiveBox))->addWidget(objective_);
  auto* right = new QVBoxLayout;
  right->addWidget(environmentBox);
  right->addWidget(coefficientsBox);
  right->addWidget(objectiveBox);
  right->addStretch();
  return right;
}

void ExperimentDialog::layOutDialog(QVBoxLayout* left, QVBoxLayout* right) {
  auto* halves = new QHBoxLayout;
  halves->addLayout(left, 1);
  halves->addLayout(right, 1);
  auto* content = new QWidget(this);
  content->setLayout(halves);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);

  error_->setWordWrap(true);
  error_->setStyleSheet("color: #b00020;");
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &ExperimentDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &ExperimentDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(scroll, 1);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  // 980 x 640, or less on a smaller screen: with a title bar it fits a 700-pixel screen; the
  // form scrolls, the buttons stay in sight.
  QSize size(980, 640);
  if (const QScreen* screen = QGuiApplication::primaryScreen())
    size = size.boundedTo(screen->availableGeometry().size() - QSize(40, 60));
  resize(size);
}

std::shared_ptr<const Game> ExperimentDialog::currentGame() const {
  const GameInfo* info = findGame(game_->currentText().toStdString());
  if (!info) return nullptr;
  try {
    return info->make(validateParams(info->params, gameParams_->values(), "params"));
  } catch (const std::exception&) {
    return nullptr;  // an invalid entry: keep the seats as they are until it is fixed
  }
}

void ExperimentDialog::gameChanged() {
  Json players = Json::array();
  for (const PlayerEditor* seat : seats_) players.push_back(seat->player());
  rebuildSeats(players);
  const auto game = currentGame();
  if (game) environment_->offer(*game, environment_->player().value("id", "e-random"));
}

void ExperimentDialog::setGameMode(bool gameMode) {
  gameMode_ = gameMode;
  identity_->setVisible(!gameMode);
  setWindowTitle(gameMode ? "Game settings" : "Experiment settings");
  gameChanged();
}

void ExperimentDialog::showCoefficients(const Json& coefficients) {
  for (auto& [key, edit] : coefficients_)
    edit->setText(coefficients.contains(key) ? entryText(coefficients.at(key)) : QString());
}

void ExperimentDialog::rebuildSeats(const Json& players) {
  const auto game = currentGame();
  if (!game) return;
  const size_t n = static_cast<size_t>(game->numPlayers());
  while (seats_.size() > n) {
    delete seats_.back();
    seats_.pop_back();
  }
  while (seats_.size() < n) {
    seats_.push_back(
        new PlayerEditor(PlayerKind::Regular, QString("Seat %1").arg(seats_.size()), this));
    seatsLayout_->addWidget(seats_.back());
  }
  for (size_t i = 0; i < n; ++i) {
    const Json player = i < players.size() ? players[i] : Json{{"id", defaultAi(*game).id}};
    seats_[i]->offer(*game, player.value("id", "random"), gameMode_);
    seats_[i]->setPlayer(player);
  }
}

void ExperimentDialog::setExperiment(const Json& e) {
  name_->setText(text(e.value("name", std::string())));
  comparison_->setText(text(e.value("comparison", std::string())));
  iterations_->setValue(e.value("iterations", 1000));
  salt_->setText(e.contains("salt") ? entryText(e.at("salt")) : QString());
  const Json game = e.value("game", Json::object());
  {
    QSignalBlocker block(game_);
    game_->setCurrentIndex(std::max(0, game_->findText(text(game.value("id", std::string())))));
  }
  QSignalBlocker block(gameParams_);
  gameParams_->setSchema(findGame(game_->currentText().toStdString())->params);
  gameParams_->setValues(game.value("params", Json::object()));
  rebuildSeats(e.value("players", Json::array()));
  const Json environment = e.value("environment", Json{{"id", "e-random"}});
  if (const auto g = currentGame()) environment_->offer(*g, environment.value("id", "e-random"));
  environment_->setPlayer(environment);
  const GameInfo* info = findGame(game_->currentText().toStdString());
  showCoefficients(e.value("coefficients", info ? info->thesisCoefficients : Json::object()));
  objective_->setObjective(e.value("objective", Json(nullptr)));
  error_->clear();
}

Json ExperimentDialog::experiment() const {
  Json e = {{"name", name_->text().toStdString()}};
  if (!comparison_->text().isEmpty()) e["comparison"] = comparison_->text().toStdString();
  Json game = {{"id", game_->currentText().toStdString()}};
  if (Json params = gameParams_->changedValues(); !params.empty()) game["params"] = params;
  e["game"] = game;
  Json players = Json::array();
  for (const PlayerEditor* seat : seats_) players.push_back(seat->player());
  e["players"] = players;
  e["environment"] = environment_->player();
  Json coefficients = Json::object();
  for (const auto& [key, edit] : coefficients_)
    if (!edit->text().trimmed().isEmpty()) coefficients[key] = parseEntry(edit->text());
  if (!coefficients.empty()) e["coefficients"] = coefficients;
  if (Json objective = objective_->objective(); !objective.is_null()) e["objective"] = objective;
  e["iterations"] = iterations_->value();
  if (!salt_->text().trimmed().isEmpty()) e["salt"] = parseEntry(salt_->text());
  return e;
}

QString ExperimentDialog::problem() const {
  try {
    if (gameMode_)  // a person's seat is validated as the simplest player
      parsePlayedExperiment(experiment(), 0, "settings");
    else
      parseExperiment(experiment(), 0, "settings");
  } catch (const InputError& e) {
    return text(e.what());
  }
  return {};
}

void ExperimentDialog::accept() {
  const QString message = problem();
  error_->setText(message);
  if (message.isEmpty()) QDialog::accept();
}

}  // namespace ddalab::gui
