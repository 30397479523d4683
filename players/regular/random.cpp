// `random`: uniform over the legal actions.
#include "core/registry.h"

namespace ddalab {

namespace {

class RandomPlayer final : public Player {
 public:
  Action chooseAction(const State&, std::span<const Action> legal, Rng& rng) override {
    return legal[rng.below(static_cast<uint32_t>(legal.size()))];
  }
};

}  // namespace

PlayerInfo randomPlayerInfo() {
  return {.id = "random",
          .kind = PlayerKind::Regular,
          .description = "uniformly random legal actions (level is ignored)",
          .params = {},
          .makeRegular = [](const PlayerSetup&) { return std::make_unique<RandomPlayer>(); }};
}

}  // namespace ddalab
