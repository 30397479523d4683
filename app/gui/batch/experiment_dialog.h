#pragma once
// The settings of one experiment (thesis appendix A.2: players on the left, environment player
// and coefficients on the right), generated from the registries' parameter schemas. It edits the
// experiment as a batch file holds it, and accepts only what file validation accepts, with the
// same messages.
#include <QDialog>
#include <memory>
#include <vector>

#include "core/registry.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QVBoxLayout;

namespace ddalab::gui {

class ObjectiveEditor;
class ParamForm;

// A player slot: the player, its level (regular seats) and its parameters.
class PlayerEditor : public QWidget {
  Q_OBJECT
 public:
  PlayerEditor(PlayerKind role, const QString& title, QWidget* parent = nullptr);
  // Offers the players that can take this role in `game`, keeping `keep` offered too; with
  // `person`, a regular seat also offers "human" (the game mode: a person plays it).
  void offer(const Game& game, const std::string& keep, bool person = false);
  // Shows `player` ({"id", "level", "params"} as in a batch file).
  void setPlayer(const Json& player);
  // The player as a batch file holds it (parameters only where they differ from the defaults).
  Json player() const;
  QComboBox* idBox() const { return id_; }

 private:
  void showSchema();

  PlayerKind role_;
  QComboBox* id_;
  QSpinBox* level_ = nullptr;
  ParamForm* params_;
};

class ExperimentDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ExperimentDialog(QWidget* parent = nullptr);
  // The game mode's settings: seats may be "human"; no name, comparison, games or salt.
  void setGameMode(bool gameMode);

  // Shows `experiment` (an entry of a batch file's "experiments").
  void setExperiment(const Json& experiment);
  // The experiment as entered, in batch-file form (it may be invalid).
  Json experiment() const;
  // The validation message for what is entered; empty when it is valid.
  QString problem() const;

  void accept() override;  // refuses (showing the message) while the entry is invalid

 private:
  // The name, comparison, iterations and salt fields' ranges and tips; the games offered.
  void setUpIdentityFields();
  // The left half: the identity fields, the game and its parameters, the seats.
  QVBoxLayout* buildExperimentHalf();
  // The right half: the environment player, the fun-score coefficients, the objective.
  QVBoxLayout* buildScoringHalf();
  // The halves side by side in a scroll area, the error line and the buttons below, sized to
  // the screen.
  void layOutDialog(QVBoxLayout* left, QVBoxLayout* right);
  void gameChanged();
  void showCoefficients(const Json& coefficients);
  void rebuildSeats(const Json& players);
  std::shared_ptr<const Game> currentGame() const;

  QLineEdit* name_;
  QLineEdit* comparison_;
  QSpinBox* iterations_;
  QLineEdit* salt_;
  QComboBox* game_;
  ParamForm* gameParams_;
  QVBoxLayout* seatsLayout_;
  std::vector<PlayerEditor*> seats_;
  PlayerEditor* environment_;
  std::vector<std::pair<std::string, QLineEdit*>> coefficients_;
  ObjectiveEditor* objective_;
  QLabel* error_;
  QWidget* identity_;
  bool gameMode_ = false;
};

}  // namespace ddalab::gui
