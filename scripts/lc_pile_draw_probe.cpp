// Why greedy hillclimber-is (level 100, sigma 0, both seats, natural deck) draws from piles: for
// each pile draw it plays, whether it beats the same card played with a deck draw, whether the
// pile colour is one of its started expeditions, and whether the deck holds one card only.
// Build: g++ -std=c++20 -O2 -I. scripts/lc_pile_draw_probe.cpp build/players/libddalab_players.a
//        build/games/libddalab_games.a build/core/libddalab_core.a -o build/lc_pile_draw_probe
#include <cstdio>
#include <map>

#include "core/params.h"
#include "games/lost-cities/lost_cities.h"
#include "players/registry.h"
#include "players/regular/ranking.h"
using namespace ddalab;
using namespace ddalab::lostcities;
int main() {
  const GameInfo gi = gameInfo();
  auto game = gi.make(validateParams(gi.params, Json{{"heuristic", "thesis"}}, "g"));
  const auto& info = findById<PlayerInfo>(playerRegistry(), "hillclimber-is", "player", "");
  auto player =
      info.makeRegular({*game, 100, validateParams(info.params, Json{{"sigma", 0}}, "p"), {}});
  auto* hc = dynamic_cast<RankingPlayer*>(player.get());
  std::map<std::string, int> counts;
  Rng rng(7), nature(8);
  long turns = 0;
  for (int g = 0; g < 100; ++g) {
    auto s = game->newGame(1000 + g);
    std::vector<Action> legal;
    std::vector<Outcome> outs;
    while (!s->isTerminal()) {
      if (s->isEnvironmentNode()) {
        s->outcomes(outs);
        s->apply(sampleOutcome(outs, nature));
        continue;
      }
      s->legalActions(legal);
      std::vector<double> sc(legal.size());
      hc->scoreActions(*s, legal, sc, rng);
      size_t best = 0;
      for (size_t i = 1; i < legal.size(); ++i)
        if (sc[i] > sc[best]) best = i;
      const auto parts = decodeAction(legal[best]);
      ++turns;
      if (parts.source != kDeckSource) {
        const auto& st = dynamic_cast<const LostCitiesState&>(*s);
        const int colour = parts.source - 1;
        const int me = s->actor();
        const bool started =
            st.expeditions(me).numbers[colour] || st.expeditions(me).wagers[colour];
        double deckScore = 0;
        for (size_t i = 0; i < legal.size(); ++i)
          if (legal[i] == makeAction(parts.kind, parts.discard, kDeckSource)) deckScore = sc[i];
        std::string why = sc[best] == deckScore ? "tie with deck" : "beats deck";
        why += started ? ", own started colour" : ", unstarted colour";
        why += st.deckSize() == 1 ? ", last deck card" : ", deck > 1";
        ++counts[why];
        ++counts["pile draws"];
        if (st.deckSize() == 1) ++counts["pile draws at deck 1"];
      }
      s->apply(legal[best]);
    }
  }
  std::printf("turns %ld\n", turns);
  for (auto& [k, v] : counts)
    std::printf("%s: %d (%.1f %% of turns)\n", k.c_str(), v, 100.0 * v / turns);
}
