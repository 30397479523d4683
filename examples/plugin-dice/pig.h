#pragma once
// Pig, the dice game, as a ddalab plug-in: a game with chance that an environment player can
// steer. On a turn a player rolls a die as often as they like, adding its face to the turn
// total, and holds to bank it; a 1 loses the turn total and ends the turn. The first to bank
// `target` points wins. A round is one turn. Shared by the plug-in (pig.cpp) and its board view
// (pig_view.cpp).
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/believability.h"
#include "core/metrics.h"
#include "core/state.h"

namespace pig {

using namespace ddalab;

constexpr Action kRoll = 0, kHold = 1;

struct Config {
  int players = 2;
  int target = 50;
  int maxRounds = 500;
  double believabilityThreshold = 1.0;
};

class PigState final : public State {
 public:
  explicit PigState(const Config& config) : config_(config) {}

  std::unique_ptr<State> clone() const override { return std::make_unique<PigState>(*this); }
  int numPlayers() const override { return config_.players; }
  int actor() const override { return over_ ? kTerminal : rolling_ ? kEnvironment : player_; }
  void legalActions(std::vector<Action>& out) const override {
    out.clear();
    if (over_ || rolling_) return;
    out.push_back(kRoll);
    if (turnTotal_ > 0) out.push_back(kHold);  // holding nothing would only pass
  }
  void outcomes(std::vector<Outcome>& out) const override {
    out.clear();
    if (!over_ && rolling_)
      for (Action face = 1; face <= 6; ++face) out.push_back({face, 1.0 / 6});
  }
  void apply(Action action) override {
    if (rolling_) return roll(action);
    if (action == kRoll) {
      rolling_ = true;
      return;
    }
    scores_[player_] += turnTotal_;
    endTurn();
  }
  int winner() const override { return winner_; }
  bool capped() const override { return capped_; }
  // Points banked (and, for the player on turn, the turn total) in percent of the target.
  double gain(int p) const override {
    return 100.0 * (scores_[p] + (p == player_ ? turnTotal_ : 0)) / config_.target;
  }
  // The turn total before a roll is worth what the roll is expected to leave of it: 5/6 of it
  // plus 4 (a 1 loses it all), so a value-greedy player rolls below 20 and holds from 20 on.
  double value(int p) const override {
    if (p != player_ || !rolling_) return gain(p);
    return 100.0 * (scores_[p] + 5.0 / 6.0 * (turnTotal_ + 4)) / config_.target;
  }
  int roundsCompleted() const override { return rounds_; }
  // belPC over each player's faces: dice that favour one face are less believable.
  double believability() const override {
    double sum = 0;
    for (int p = 0; p < config_.players; ++p)
      sum += belPC(faces_[p], config_.believabilityThreshold);
    return sum;
  }
  bool isPass(Action) const override { return false; }
  std::string actionToString(Action action) const override {
    if (rolling_) return "roll " + std::to_string(action);
    return action == kRoll ? "roll" : "hold " + std::to_string(turnTotal_);
  }
  std::string toString() const override {
    std::ostringstream out;
    out << "round " << rounds_ << ": player " << player_ << (rolling_ ? " rolls" : " on turn")
        << ", turn total " << turnTotal_ << "\nbanked (" << config_.target << " wins):";
    for (int p = 0; p < config_.players; ++p) out << " player " << p << " " << scores_[p] << ";";
    return out.str();
  }
  // For a board: {"verb": "roll"} or {"verb": "hold", "points": the turn total banked}.
  Json actionJson(Action action) const override {
    if (over_ || rolling_) return Json::object();
    if (action == kRoll) return {{"verb", "roll"}};
    return {{"verb", "hold"}, {"points", turnTotal_}};
  }
  int chanceRecipient() const override { return rolling_ ? player_ : -1; }
  int turnTotal() const { return turnTotal_; }
  int score(int p) const { return scores_[p]; }
  int target() const { return config_.target; }
  int player() const { return player_; }
  int lastFace() const { return lastFace_; }  // 0 before the first roll

 private:
  void roll(Action face) {
    rolling_ = false;
    lastFace_ = face;
    ++faces_[player_][face - 1];
    if (face == 1) {
      turnTotal_ = 0;
      return endTurn();
    }
    turnTotal_ += face;
    if (scores_[player_] + turnTotal_ >= config_.target) {  // reaching the target wins at once
      scores_[player_] += turnTotal_;
      winner_ = player_;
      over_ = true;
      turnTotal_ = 0;
      ++rounds_;
    }
  }
  void endTurn() {
    turnTotal_ = 0;
    ++rounds_;
    if (rounds_ >= config_.maxRounds) {
      over_ = capped_ = true;
      return;
    }
    player_ = (player_ + 1) % config_.players;
  }

  Config config_;
  std::array<int, kMaxPlayers> scores_{};
  std::array<std::array<int, 6>, kMaxPlayers> faces_{};
  int player_ = 0, turnTotal_ = 0, rounds_ = 0, winner_ = -1, lastFace_ = 0;
  bool rolling_ = false, over_ = false, capped_ = false;
};

class PigGame final : public Game {
 public:
  explicit PigGame(const Config& config) : config_(config) {}
  int numPlayers() const override { return config_.players; }
  std::unique_ptr<State> newGame(uint64_t) const override {
    return std::make_unique<PigState>(config_);
  }
  double statusScale() const override { return 20.0; }  // a good turn: 10 points of a 50 target
  // Roll and hold; a roll's outcomes are the faces 1..6.
  std::optional<ActionBounds> actionBounds() const override { return ActionBounds{2, 7, 6}; }

 private:
  Config config_;
};

// The plug-in's metric (swing.cpp): how far behind the eventual leader was while it trailed.
MetricInfo swingInfo();

}  // namespace pig
