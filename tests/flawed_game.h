#pragma once
// A small correct game, and the same game broken in one way per conformance check
// (players/conformance/conformance.h): the test of the checks (tests/players/conformance/test_conformance.cpp) proves
// each one fails on its flaw, and tests/plugins/flawed_game.cpp ships one as a plug-in that
// `ddalab check-game` must fail (tests/app/cli/plugin_test.sh). The contract flaws (contractFlaws()) break
// a promise the match loop relies on, which crashed or hung ddalab before it checked them;
// tests/plugins/hostile.cpp ships each as a plug-in game.
//
// The game: a pile of 12 + seed % 7 stones; on a turn the environment rolls 1..3, and the player
// on turn takes that many stones as points or passes (the pile loses one). It ends when the pile
// is empty; more points wins.
#include <array>
#include <cmath>
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
  // Contract flaws: from the third round on, in a game whose pile starts at 16 or more (so a run
  // finishes other games first); NeverEnds and SeatsBeyondMax in every game.
  ActorNoSeat,          // actor() returns 5 at a decision of the 2-player game
  NoLegalActions,       // a decision without legal actions
  NoOutcomes,           // an environment node without outcomes
  NanProbabilities,     // every outcome's probability is NaN
  ProbabilitiesDouble,  // the outcomes sum to 2
  RoundsJump,           // an action completes two rounds
  WinnerNoSeat,         // winner() is 7 at the end
  NeverEnds,            // the pile never shrinks: the game never ends
  SeatsBeyondMax,       // the dealt state says 6 seats, the game 2
};

// A contract flaw, the id suffix of its game (hostile-<suffix>) and the words of what the match
// loop says about it.
struct ContractFlaw {
  Flaw flaw;
  const char* suffix;
  const char* says;
};

inline constexpr std::array<ContractFlaw, 9> contractFlaws() {
  return {
      {{Flaw::ActorNoSeat, "actor",
        "expected actor() to be a seat 0..1, kEnvironment (-1) or "
        "kTerminal (-2), got 5; the state: pile "},
       {Flaw::NoLegalActions, "no-legal",
        "expected legalActions() to hold an action at a decision (actor() 0), got none"},
       {Flaw::NoOutcomes, "no-outcomes",
        "expected outcomes() to hold an outcome at an environment node, got none"},
       {Flaw::NanProbabilities, "nan",
        "expected every probability of outcomes() to be finite and in (0, 1], outcome 1 has nan"},
       {Flaw::ProbabilitiesDouble, "double",
        "expected the probabilities of outcomes() to sum to 1, they sum to 2.000000"},
       {Flaw::RoundsJump, "rounds",
        "expected roundsCompleted() to grow by at most one an action, it went from 2 to 4"},
       {Flaw::WinnerNoSeat, "winner", "expected winner() to be -1 or a seat 0..1, got 7"},
       {Flaw::NeverEnds, "endless", "expected the game to end within 10000 actions"},
       {Flaw::SeatsBeyondMax, "seats",
        "expected numPlayers() of the dealt state to be the game's (2) and within 1..4, "
        "got 6"}}};
}

class PileState final : public State {
 public:
  PileState(int pile, Flaw flaw)
      : pile_(pile),
        flaw_(flaw),
        strikes_(pile >= 16 || flaw == Flaw::NeverEnds || flaw == Flaw::SeatsBeyondMax),
        scores_(std::make_shared<std::array<int, 2>>()) {}

  std::unique_ptr<State> clone() const override {
    auto copy = std::make_unique<PileState>(*this);
    if (flaw_ != Flaw::SharedScores) copy->scores_ = std::make_shared<std::array<int, 2>>(*scores_);
    return copy;
  }
  int numPlayers() const override { return struck(Flaw::SeatsBeyondMax) ? 6 : 2; }
  int actor() const override {
    if (pile_ <= 0) return kTerminal;
    if (die_ == 0) return kEnvironment;
    return struck(Flaw::ActorNoSeat) && rounds_ >= 2 ? 5 : mover_;
  }
  void legalActions(std::vector<Action>& out) const override {
    out.clear();
    if (actor() >= 0 && !(struck(Flaw::NoLegalActions) && rounds_ >= 2))
      out = {0, 1};  // take, pass
  }
  void outcomes(std::vector<Outcome>& out) const override {
    out.clear();
    const bool late = rounds_ >= 2;
    const double each = flaw_ == Flaw::ProbabilitiesOff             ? 0.3
                        : struck(Flaw::NanProbabilities) && late    ? std::nan("")
                        : struck(Flaw::ProbabilitiesDouble) && late ? 2.0 / 3
                                                                    : 1.0 / 3;
    if (actor() == kEnvironment && !(struck(Flaw::NoOutcomes) && late))
      for (Action face = 1; face <= 3; ++face) out.push_back({face, each});
  }
  void apply(Action action) override {
    if (die_ == 0) {
      die_ = action;
      return;
    }
    if (action == 0) (*scores_)[mover_] += die_;
    if (!struck(Flaw::NeverEnds)) pile_ -= action == 0 ? die_ : 1;
    die_ = 0;
    mover_ = 1 - mover_;
    rounds_ += flaw_ != Flaw::RoundsNeverCount;
    if (struck(Flaw::RoundsJump) && rounds_ == 3) ++rounds_;
  }
  int winner() const override {
    if (pile_ <= 0 && struck(Flaw::WinnerNoSeat)) return 7;
    if (pile_ > 0 || (*scores_)[0] == (*scores_)[1]) return -1;
    return (*scores_)[0] > (*scores_)[1] ? 0 : 1;
  }
  bool capped() const override { return false; }
  double gain(int p) const override { return p < 2 ? (*scores_)[p] : 0.0; }
  void gains(std::span<double> gains) const override {
    for (size_t p = 0; p < gains.size(); ++p)
      gains[p] = gain(static_cast<int>(p)) + (flaw_ == Flaw::GainsDisagree && p == 1);
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
  // Whether this game has `flaw` and is one the flaw strikes.
  bool struck(Flaw flaw) const { return flaw_ == flaw && strikes_; }

  int pile_;
  Flaw flaw_;
  bool strikes_;
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
