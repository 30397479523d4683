#pragma once
// Piloting a user study without people (docs/user-study.md, "Simulated participants"): an AI plays
// the participant's seat and a documented rule turns each game's metrics, a participant's bias and
// noise into answers; planted effects shift an item under a condition. Repeating the whole study
// tells how often the analysis would find such an effect: its power, before anyone is recruited.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "studies/study_session.h"

namespace ddalab {

// A draw of N(0, 1) (Box-Muller): the simulated participants' biases and noise.
double standardNormal(Rng& rng);

// `item` answered `points` scale points higher under `condition` than the rule says.
struct PlantedEffect {
  std::string item, condition;
  double points = 0;
};
// "ITEM:CONDITION=POINTS[,...]" (e.g. "enjoyment:e-hillclimber=1"), checked against the
// protocol's items and conditions; throws InputError naming `option`.
std::vector<PlantedEffect> parsePlantedEffects(const std::string& spec,
                                               const StudyProtocol& protocol,
                                               const std::string& option);

struct StudySimulation {
  int participants = 12;
  uint64_t seed = 1;  // the participants' biases and noise (and, with repetitions, the games)
  std::vector<PlantedEffect> effects;
  int threads = 0;  // 0: every core
  // Told (one call at a time, from a worker thread) that participant p's games and traces are in
  // its folder; the answers of every participant follow once all games are played.
  std::function<void(int participant)> written;
};

// Plays the protocol for `participants` simulated participants into session folders
// <out>/p01, p02, ... (ordinary sessions: `study analyze` reads them; their numbers follow the
// sessions `out` already holds) and returns them. Refuses (InputError) a thread count, a
// simulated person or an `out` whose p01, p02, ... are taken before it creates anything; each
// participant's session is written as soon as its games are played.
std::vector<StudySession> simulateStudy(const StudyProtocol& protocol,
                                        const std::filesystem::path& out,
                                        const StudySimulation& simulation);

// How often the analysis finds each within-participant difference at 5 % (Holm) over
// `repetitions` whole simulated studies (in memory, other games and answers each time).
struct PowerRow {
  std::string item, first, second;
  double plantedDifference = 0;  // first minus second, in scale points
  size_t detected = 0, repetitions = 0;
  double rate = 0, low = 0, high = 0;  // Wilson 95 % interval
};
std::vector<PowerRow> studyPower(const StudyProtocol& protocol, const StudySimulation& simulation,
                                 int repetitions);

}  // namespace ddalab
