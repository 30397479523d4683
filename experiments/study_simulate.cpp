#include "experiments/study_simulate.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <thread>

#include "experiments/runner.h"
#include "experiments/study_analysis.h"

namespace ddalab {

namespace fs = std::filesystem;

std::vector<PlantedEffect> parsePlantedEffects(const std::string& spec,
                                               const StudyProtocol& protocol,
                                               const std::string& option) {
  std::vector<PlantedEffect> effects;
  size_t start = 0;
  while (start < spec.size()) {
    const size_t end = std::min(spec.find(',', start), spec.size());
    const std::string part = spec.substr(start, end - start);
    const size_t colon = part.find(':'), equals = part.find('=');
    const std::string expected =
        "expected ITEM:CONDITION=POINTS (e.g. enjoyment:" + protocol.conditions.back().name +
        "=1), got '" + textExcerpt(part) + "'";
    if (colon == std::string::npos || equals == std::string::npos || equals < colon)
      throw InputError(option, expected);
    PlantedEffect e{part.substr(0, colon), part.substr(colon + 1, equals - colon - 1), 0};
    try {
      size_t used = 0;
      e.points = std::stod(part.substr(equals + 1), &used);
      if (used != part.size() - equals - 1 || !std::isfinite(e.points)) throw std::exception();
    } catch (const std::exception&) {
      throw InputError(option, expected);
    }
    std::string items, conditions;
    bool itemKnown = false, conditionKnown = false;
    for (const StudyItem& item : protocol.items) {
      itemKnown = itemKnown || item.key == e.item;
      items += (items.empty() ? "" : ", ") + item.key;
    }
    for (const StudyCondition& c : protocol.conditions) {
      conditionKnown = conditionKnown || c.name == e.condition;
      conditions += (conditions.empty() ? "" : ", ") + c.name;
    }
    if (!itemKnown)
      throw InputError(option, "unknown item '" + textExcerpt(e.item) + "'; valid: " + items);
    if (!conditionKnown)
      throw InputError(
          option, "unknown condition '" + textExcerpt(e.condition) + "'; valid: " + conditions);
    effects.push_back(e);
    start = end + 1;
  }
  return effects;
}

namespace {

// How a simulated participant's answer to a default item follows the game, in scale points per
// standard deviation of a metric over the simulated games (docs/user-study.md).
struct MetricLink {
  const char* item;
  const char* metric;
  double pointsPerSd;
};
constexpr MetricLink kLinks[] = {
    {"enjoyment", "lead_changes", 0.5}, {"enjoyment", "tension", -0.3},
    {"tension", "tension", -0.5},       {"tension", "lead_changes", 0.3},
    {"fairness", "fairness", -0.4},     {"manipulated", "believability", 0.5},
};
constexpr double kBiasSd = 0.10;   // a participant's lean on an item, in scale ranges
constexpr double kNoiseSd = 0.15;  // game to game, in scale ranges
// difficulty: -0.5 points per standard deviation of the participant's final gain.
constexpr double kDifficultyPerSd = -0.5;

double gaussian(Rng& rng) {  // Box-Muller
  const double u = std::max(rng.uniform(), 1e-300), v = rng.uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

struct PlayedGame {
  size_t participant = 0;
  PlannedGame plan;
  GameRecord record;
  Json trace;
};

// Plays every planned game of every participant on `threads` threads (each game from its own
// seed: the same result on any number of threads).
std::vector<PlayedGame> playAll(const StudyProtocol& protocol,
                                const std::vector<std::vector<PlannedGame>>& plans, bool traces,
                                int threads) {
  std::vector<Experiment> experiments;
  for (size_t c = 0; c < protocol.conditions.size(); ++c)
    experiments.push_back(
        parsePlayedExperiment(protocol.simulatedExperiment(c), protocol.seed, "protocol"));
  std::vector<PlayedGame> games;
  for (size_t p = 0; p < plans.size(); ++p)
    for (const PlannedGame& g : plans[p]) games.push_back({p, g, {}, {}});
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next++; i < games.size(); i = next++) {
      PlayedGame& g = games[i];
      const Experiment& e = experiments[g.plan.condition];
      const Lineup lineup = buildLineup(e, {});
      Json trace;
      g.record = playGame(*e.game, lineup.seats(), *lineup.environment, g.plan.seed,
                          traces ? &trace : nullptr, {}, traces ? &e.coefficients : nullptr);
      // An AI played the participant's seat: the trace names it (no "people").
      if (traces)
        g.trace = traceJson(e, static_cast<uint64_t>(g.plan.index), g.plan.seed, trace, true);
    }
  };
  std::vector<std::jthread> workers;
  for (int t = 0; t < workerThreads(threads); ++t) workers.emplace_back(work);
  workers.clear();
  return games;
}

// The answers of every game by the rule: a standardized metric (over all the games) moves an item
// by its link, each participant leans on each item, each game adds noise, a planted effect shifts
// its item under its condition; rounded to the scale and kept inside it.
std::vector<StudyAnswers> answersFor(const StudyProtocol& protocol,
                                     const std::vector<PlayedGame>& games, size_t participants,
                                     const StudySimulation& simulation) {
  const std::vector<bool> people = protocol.people();
  const auto seat =
      static_cast<size_t>(std::find(people.begin(), people.end(), true) - people.begin());
  // Per game the value behind each link, then its z over the games.
  const auto zScores = [&](auto&& valueOf) {
    std::vector<double> v;
    for (const PlayedGame& g : games) v.push_back(valueOf(g.record));
    double mean = 0, squares = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (double x : v) squares += (x - mean) * (x - mean);
    const double sd = std::sqrt(squares / static_cast<double>(v.size()));
    for (double& x : v) x = sd > 0 ? (x - mean) / sd : 0.0;
    return v;
  };
  const size_t n = protocol.items.size();
  std::vector<std::vector<double>> shift(games.size(), std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) {
    const std::string& key = protocol.items[i].key;
    for (const MetricLink& link : kLinks) {
      const auto metric = metricByKey(link.metric);
      if (key != link.item || !metric) continue;
      const auto z =
          zScores([&](const GameRecord& r) { return r.metrics[static_cast<size_t>(*metric)]; });
      for (size_t g = 0; g < games.size(); ++g) shift[g][i] += link.pointsPerSd * z[g];
    }
    if (key == "difficulty") {
      const auto z = zScores([&](const GameRecord& r) { return r.scores[seat]; });
      for (size_t g = 0; g < games.size(); ++g) shift[g][i] += kDifficultyPerSd * z[g];
    }
    for (const PlantedEffect& e : simulation.effects)
      if (e.item == key)
        for (size_t g = 0; g < games.size(); ++g)
          if (protocol.conditions[games[g].plan.condition].name == e.condition)
            shift[g][i] += e.points;
  }
  Rng rng(splitmix64(simulation.seed ^ 0xa2e5ull));
  std::vector<std::vector<double>> bias(participants, std::vector<double>(n));
  for (auto& row : bias)
    for (double& b : row) b = kBiasSd * gaussian(rng);
  std::vector<StudyAnswers> answers(games.size());
  for (size_t g = 0; g < games.size(); ++g) {
    for (size_t i = 0; i < n; ++i) {
      const StudyItem& item = protocol.items[i];
      const double range = item.max() - item.min();
      const double latent = item.midpoint() + shift[g][i] +
                            range * (bias[games[g].participant][i] + kNoiseSd * gaussian(rng));
      answers[g].values.push_back(std::clamp(std::round(latent), static_cast<double>(item.min()),
                                             static_cast<double>(item.max())));
    }
  }
  return answers;
}

std::vector<std::vector<PlannedGame>> plansFor(const StudyProtocol& protocol, int participants) {
  std::vector<std::vector<PlannedGame>> plans;
  for (int p = 0; p < participants; ++p) plans.push_back(planGames(protocol, p));
  return plans;
}

std::string participantName(int p) {
  char name[32];
  std::snprintf(name, sizeof name, "p%02d", p + 1);
  return name;
}

}  // namespace

std::vector<StudySession> simulateStudy(const StudyProtocol& protocol, const fs::path& out,
                                        const StudySimulation& simulation) {
  if (simulation.participants < 1)
    throw InputError("--participants", "expected a positive number of participants");
  fs::create_directories(out);
  std::vector<StudySession> sessions;
  for (int p = 0; p < simulation.participants; ++p) {
    if (fs::exists(out / participantName(p) / "session.json"))
      throw InputError((out / participantName(p)).string(),
                       "holds a session already; expected an empty folder for the simulation");
  }
  for (int p = 0; p < simulation.participants; ++p)
    sessions.push_back(StudySession::open(out / participantName(p), protocol, participantName(p)));
  std::vector<std::vector<PlannedGame>> plans;
  for (const StudySession& s : sessions) plans.push_back(s.plan());
  const std::vector<PlayedGame> games = playAll(protocol, plans, true, simulation.threads);
  const std::vector<StudyAnswers> answers =
      answersFor(protocol, games, static_cast<size_t>(simulation.participants), simulation);
  for (size_t g = 0; g < games.size(); ++g) {
    StudySession& s = sessions[games[g].participant];
    s.saveGame(games[g].plan, games[g].record, games[g].trace);
    s.saveAnswers(games[g].plan.index, answers[g]);
  }
  return sessions;
}

std::vector<PowerRow> studyPower(const StudyProtocol& protocol, const StudySimulation& simulation,
                                 int repetitions) {
  std::map<std::tuple<std::string, std::string, std::string>, PowerRow> rows;
  for (int r = 0; r < repetitions; ++r) {
    StudyProtocol repeated = protocol;  // other games each time
    repeated.seed = splitmix64(protocol.seed ^ splitmix64(static_cast<uint64_t>(r) + 1));
    StudySimulation once = simulation;
    once.seed = splitmix64(simulation.seed + static_cast<uint64_t>(r));
    const auto plans = plansFor(repeated, simulation.participants);
    const std::vector<PlayedGame> games = playAll(repeated, plans, false, simulation.threads);
    const std::vector<StudyAnswers> answers = answersFor(repeated, games, plans.size(), once);
    StudySessions study;
    study.protocol = repeated;
    for (size_t p = 0; p < plans.size(); ++p)
      study.sessions.push_back(StudySession::inMemory(
          repeated, participantName(static_cast<int>(p)), static_cast<int>(p)));
    for (size_t g = 0; g < games.size(); ++g) {
      StudySession& s = study.sessions[games[g].participant];
      s.saveGame(games[g].plan, games[g].record, Json());
      s.saveAnswers(games[g].plan.index, answers[g]);
    }
    const StudyAnalysis analysis = analyzeStudy(study, once.seed, false);
    for (const auto& c : analysis.comparisons) {
      PowerRow& row = rows[{c.item, c.first, c.second}];
      row.item = c.item;
      row.first = c.first;
      row.second = c.second;
      ++row.repetitions;
      row.detected += c.holmP < 0.05;
    }
  }
  std::vector<PowerRow> result;
  for (auto& [key, row] : rows) {
    for (const PlantedEffect& e : simulation.effects)
      if (e.item == row.item)
        row.plantedDifference +=
            (e.condition == row.first ? e.points : 0) - (e.condition == row.second ? e.points : 0);
    row.rate = static_cast<double>(row.detected) / static_cast<double>(row.repetitions);
    std::tie(row.low, row.high) = wilsonInterval(row.detected, row.repetitions);
    result.push_back(row);
  }
  return result;
}

}  // namespace ddalab
