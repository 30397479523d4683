#pragma once
// A small correct game, and the same game broken in one way per conformance check
// (experiments/conformance.h): the test of the checks (tests/test_conformance.cpp) proves each
// one fails on its flaw, and tests/plugins/flawed_game.cpp ships one as a plug-in that
// `ddalab check-game` must fail (tests/plugin_test.sh).
//
// The game: a pile of 12 + seed % 7 stones; on a turn the environment rolls 1..3, and the player
// on turn takes that many stones as points or passes (the pile loses one). It ends when the pile
// is empty; more points wins.
#include <array>
#include <memory>
#include <string>

#include "core/registry.h"
#include "core/state.h"

namespace ddalab::flawed {

enum class Flaw {
  None,
  StatusScaleZero,     // builds
  ProbabilitiesOff,    // nodes: the outcomes sum to 0.9
  DealByCounter,       // replay: each deal differs from the last
  SharedScores,        // copies: a clone's moves change the original's scores
  ObservationDiffers,  // observations: a seat sees less than toString in a perfect-information game
  GainsDisagree,       // shortcuts: gains() is not gain(p)
  RoundsNeverCount,    // match: the trace has no rounds
};

class PileState final : public State {
 public:
  PileState(int pile, Flaw flaw)
      : pile_(pile), flaw_(flaw), scores_(std::make_shared<std::array<int, 2>>()) {}

  std::unique_ptr<State> clone() const override {
    auto copy = std::make_unique<PileState>(*this);
    if (flaw_ != Flaw::SharedScores) copy->scores_ = std::make_shared<std::array<int, 2>>(*scores_);
    return copy;
  }
  int numPlayers() const override { return 2; }
  int actor() const override { return pile_ <= 0 ? kTerminal : die_ == 0 ? kEnvironment : mover_; }
  void legalActions(std::vector<Action>& out) const override {
    out.clear();
    if (actor() >= 0) out = {0, 1};  // take, pass
  }
  void outcomes(std::vector<Outcome>& out) const override {
    out.clear();
    const double each = flaw_ == Flaw::ProbabilitiesOff ? 0.3 : 1.0 / 3;
    if (actor() == kEnvironment)
      for (Action face = 1; face <= 3; ++face) out.push_back({face, each});
  }
  void apply(Action action) override {
    if (die_ == 0) {
      die_ = action;
      return;
    }
    if (action == 0) (*scores_)[mover_] += die_;
    pile_ -= action == 0 ? die_ : 1;
    die_ = 0;
    mover_ = 1 - mover_;
    rounds_ += flaw_ != Flaw::RoundsNeverCount;
  }
  int winner() const override {
    if (pile_ > 0 || (*scores_)[0] == (*scores_)[1]) return -1;
    return (*scores_)[0] > (*scores_)[1] ? 0 : 1;
  }
  bool capped() const override { return false; }
  double gain(int p) const override { return (*scores_)[p]; }
  void gains(std::span<double> gains) const override {
    for (int p = 0; p < 2; ++p) gains[p] = gain(p) + (flaw_ == Flaw::GainsDisagree && p == 1);
  }
  bool playersCanDropOut() const override { return false; }
  int roundsCompleted() const override { return rounds_; }
  double believability() const override { return 1.0; }
  bool isPass(Action action) const override { return die_ != 0 && action == 1; }
  std::string actionToString(Action action) const override {
    if (die_ == 0) return "roll " + std::to_string(action);
    return action == 0 ? "take " + std::to_string(die_) : "pass";
  }
  std::string toString() const override {
    return "pile " + std::to_string(pile_) + ", scores " + std::to_string((*scores_)[0]) + ":" +
           std::to_string((*scores_)[1]) + ", die " + std::to_string(die_) + ", mover " +
           std::to_string(mover_);
  }
  std::string observationString(int player) const override {
    return flaw_ == Flaw::ObservationDiffers ? "seat " + std::to_string(player) : toString();
  }

 private:
  int pile_;
  Flaw flaw_;
  std::shared_ptr<std::array<int, 2>> scores_;
  int die_ = 0;
  int mover_ = 0;
  int rounds_ = 0;
};

class PileGame final : public Game {
 public:
  explicit PileGame(Flaw flaw) : flaw_(flaw) {}
  int numPlayers() const override { return 2; }
  std::unique_ptr<State> newGame(uint64_t seed) const override {
    const uint64_t deal = flaw_ == Flaw::DealByCounter ? ++deals_ : seed;
    return std::make_unique<PileState>(12 + static_cast<int>(deal % 7), flaw_);
  }
  double statusScale() const override { return flaw_ == Flaw::StatusScaleZero ? 0.0 : 3.0; }

 private:
  Flaw flaw_;
  mutable uint64_t deals_ = 0;  // DealByCounter only: the flaw is that the deal is not the seed's
};

inline GameInfo pileInfo(const std::string& id, Flaw flaw) {
  GameInfo info;
  info.id = id;
  info.description = "Pile: take the die's stones as points or pass (a test game)";
  info.make = [flaw](const Json&) { return std::make_shared<const PileGame>(flaw); };
  return info;
}

}  // namespace ddalab::flawed
