#include "studies/simulate.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "experiments/runner.h"
#include "studies/analysis.h"

namespace ddalab {

namespace fs = std::filesystem;

double standardNormal(Rng& rng) {  // Box-Muller
  const double u = std::max(rng.uniform(), 1e-300), v = rng.uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
}

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
    for (const StudySubscale& subscale : protocol.subscales) {  // planted on each of its items
      itemKnown = itemKnown || subscale.key == e.item;
      items += ", " + subscale.key;
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
// An item of a subscale shares this part of its lean and noise with the subscale's other items
// (their correlation is its square, 0.64: a two-item subscale's alpha about 0.78).
constexpr double kSubscaleLoading = 0.8;

// The subscale of each item (the first that holds it; none: protocol.subscales.size()).
std::vector<size_t> subscaleOfItems(const StudyProtocol& protocol) {
  std::vector<size_t> of(protocol.items.size(), protocol.subscales.size());
  for (size_t s = protocol.subscales.size(); s-- > 0;)
    for (size_t i : protocol.subscales[s].items) of[i] = s;
  return of;
}

// A draw of N(0, 1) with a share kSubscaleLoading from `shared` when the item is in a subscale.
double loaded(double own, const double* shared) {
  return shared
             ? kSubscaleLoading * *shared + std::sqrt(1 - kSubscaleLoading * kSubscaleLoading) * own
             : own;
}

double gaussian(Rng& rng) {
  return standardNormal(rng);
}

// A game played for a simulated participant: what the answers rule needs (the trace went to the
// participant's folder).
struct PlayedGame {
  size_t participant = 0;
  PlannedGame plan;
  GameRecord record;
};

// The experiment of each condition with the simulated person in the participant's seat.
std::vector<Experiment> simulatedExperiments(const StudyProtocol& protocol) {
  std::vector<Experiment> experiments;
  for (size_t c = 0; c < protocol.conditions.size(); ++c)
    experiments.push_back(
        parsePlayedExperiment(protocol.simulatedExperiment(c), protocol.seed, "protocol"));
  return experiments;
}

// Plays one planned game; its detailed trace into `trace` when given (an AI played the
// participant's seat: the trace names it, no "people").
GameRecord playPlanned(const Experiment& e, const PlannedGame& plan, Json* trace) {
  const Lineup lineup = buildLineup(e, {});
  Json detail;
  const GameRecord record =
      playGame(*e.game, lineup.seats(), *lineup.environment, plan.seed, trace ? &detail : nullptr,
               {}, trace ? &e.coefficients : nullptr);
  if (trace) *trace = traceJson(e, static_cast<uint64_t>(plan.index), plan.seed, detail, true);
  return record;
}

// Runs work(0) ... work(count - 1) on `threads` threads; the first exception stops the others
// from starting more and is rethrown once every thread has finished.
template <typename Work>
void forEachParallel(size_t count, int threads, const Work& work) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failureMutex;
  const auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard lock(failureMutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
    }
  };
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t) workers.emplace_back(worker);
  }
  if (failure) std::rethrow_exception(failure);
}

// The games of `plans`, participant after participant in plan order (the answers rule's order).
std::vector<PlayedGame> gamesOf(const std::vector<std::vector<PlannedGame>>& plans) {
  std::vector<PlayedGame> games;
  for (size_t p = 0; p < plans.size(); ++p)
    for (const PlannedGame& g : plans[p]) games.push_back({p, g, {}});
  return games;
}

// Plays every planned game of every participant on `threads` threads, without traces (each game
// from its own seed: the same result on any number of threads).
std::vector<PlayedGame> playAll(const StudyProtocol& protocol,
                                const std::vector<std::vector<PlannedGame>>& plans, int threads) {
  const std::vector<Experiment> experiments = simulatedExperiments(protocol);
  std::vector<PlayedGame> games = gamesOf(plans);
  forEachParallel(games.size(), workerThreads(threads), [&](size_t i) {
    games[i].record = playPlanned(experiments[games[i].plan.condition], games[i].plan, nullptr);
  });
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
  const std::vector<size_t> subscales = subscaleOfItems(protocol);
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
    const size_t subscale = subscales[i];
    for (const PlantedEffect& e : simulation.effects)
      if (e.item == key ||
          (subscale < protocol.subscales.size() && e.item == protocol.subscales[subscale].key))
        for (size_t g = 0; g < games.size(); ++g)
          if (protocol.conditions[games[g].plan.condition].name == e.condition)
            shift[g][i] += e.points;
  }
  Rng rng(splitmix64(simulation.seed ^ 0xa2e5ull));
  std::vector<std::vector<double>> bias(participants, std::vector<double>(n));
  for (auto& row : bias)
    for (double& b : row) b = gaussian(rng);
  // The subscales' shared parts (their own stream: a protocol without subscales draws as before).
  Rng sharedRng(splitmix64(simulation.seed ^ 0x5ab5ull));
  const auto draws = [&](size_t rows) {
    std::vector<std::vector<double>> d(rows, std::vector<double>(protocol.subscales.size()));
    for (auto& row : d)
      for (double& x : row) x = gaussian(sharedRng);
    return d;
  };
  const auto sharedBias = draws(participants), sharedNoise = draws(games.size());
  std::vector<StudyAnswers> answers(games.size());
  for (size_t g = 0; g < games.size(); ++g) {
    const size_t p = games[g].participant;
    for (size_t i = 0; i < n; ++i) {
      const StudyItem& item = protocol.items[i];
      const bool inSubscale = subscales[i] < protocol.subscales.size();
      const double range = item.max() - item.min();
      const double own = gaussian(rng);
      const double lean =
          kBiasSd * loaded(bias[p][i], inSubscale ? &sharedBias[p][subscales[i]] : nullptr);
      const double noise =
          kNoiseSd * loaded(own, inSubscale ? &sharedNoise[g][subscales[i]] : nullptr);
      // In the direction the subscale scores: a reversed item is answered the other way round.
      const double latent = item.scored(item.midpoint() + shift[g][i] + range * (lean + noise));
      answers[g].values.push_back(std::clamp(std::round(latent), static_cast<double>(item.min()),
                                             static_cast<double>(item.max())));
    }
  }
  return answers;
}

// The plans of `participants` participants numbered from `first`.
std::vector<std::vector<PlannedGame>> plansFor(const StudyProtocol& protocol, int first,
                                               int participants) {
  std::vector<std::vector<PlannedGame>> plans;
  for (int p = 0; p < participants; ++p) plans.push_back(planGames(protocol, first + p));
  return plans;
}

std::string participantName(int p) {
  char name[32];
  std::snprintf(name, sizeof name, "p%02d", p + 1);
  return name;
}

// How many sessions `out` already holds: the simulated participants' numbers and folder names
// follow them, as a person's would (p03 after p01 and p02). Refuses an `out` that is no folder or
// whose next folders are taken: one listing, before anything is created.
int sessionsBefore(const fs::path& out, int participants) {
  if (!fs::exists(out)) return 0;
  if (!fs::is_directory(out))
    throw InputError(out.string(), "is not a folder; expected the folder for the sessions");
  int sessions = 0;
  for (const auto& entry : fs::directory_iterator(out))
    sessions += entry.is_directory() && fs::exists(entry.path() / "session.json");
  for (int p = sessions; p < sessions + participants; ++p) {
    const fs::path folder = out / participantName(p);
    if (fs::exists(folder) && !(fs::is_directory(folder) && fs::is_empty(folder)))
      throw InputError(folder.string(),
                       "is there already; expected no folder, or an empty one, "
                       "for the simulated participant");
  }
  return sessions;
}

}  // namespace

std::vector<StudySession> simulateStudy(const StudyProtocol& protocol, const fs::path& out,
                                        const StudySimulation& simulation) {
  // Everything is checked before the first folder exists: a refused simulation leaves `out` as
  // it was, and the same command with its mistake mended runs.
  if (simulation.participants < 1)
    throw InputError("--participants", "expected a positive number of participants");
  const int threads = workerThreads(simulation.threads);
  const std::vector<Experiment> experiments = simulatedExperiments(protocol);
  const int first = sessionsBefore(out, simulation.participants);
  const auto shared = std::make_shared<const StudyProtocol>(protocol);
  const auto participants = static_cast<size_t>(simulation.participants);
  const auto plans = plansFor(protocol, first, simulation.participants);
  std::vector<PlayedGame> games = gamesOf(plans);
  std::vector<size_t> start(participants, 0);  // each participant's first game in `games`
  for (size_t p = 1; p < participants; ++p) start[p] = start[p - 1] + plans[p - 1].size();
  // Each participant's games are played and written as their session, one participant a thread:
  // only the traces of the participants being played are in memory, not every participant's.
  fs::create_directories(out);
  std::vector<std::optional<StudySession>> sessions(participants);
  std::mutex told;
  forEachParallel(participants, threads, [&](size_t p) {
    const std::string name = participantName(first + static_cast<int>(p));
    StudySession session =
        StudySession::create(out / name, shared, name, first + static_cast<int>(p), std::nullopt,
                             StudySession::IdOrigin::Generated, true);
    std::vector<PlayedStudyGame> played;
    for (size_t i = 0; i < plans[p].size(); ++i) {
      const PlannedGame& plan = plans[p][i];
      Json trace;
      games[start[p] + i].record = playPlanned(experiments[plan.condition], plan, &trace);
      played.push_back({plan, games[start[p] + i].record, std::move(trace), {}});
    }
    session.saveGames(played);
    sessions[p] = std::move(session);
    if (simulation.written) {
      const std::lock_guard lock(told);
      simulation.written(static_cast<int>(p));
    }
  });
  // The answers rule standardizes the metrics over every game: the answers follow them all.
  const std::vector<StudyAnswers> answers = answersFor(protocol, games, participants, simulation);
  forEachParallel(participants, threads, [&](size_t p) {
    sessions[p]->saveAnswers(0, std::span(answers).subspan(start[p], plans[p].size()));
  });
  std::vector<StudySession> result;
  for (auto& s : sessions) result.push_back(std::move(*s));
  return result;
}

std::vector<PowerRow> studyPower(const StudyProtocol& protocol, const StudySimulation& simulation,
                                 int repetitions) {
  std::map<std::tuple<std::string, std::string, std::string>, PowerRow> rows;
  for (int r = 0; r < repetitions; ++r) {
    StudyProtocol repeated = protocol;  // other games each time
    repeated.seed = splitmix64(protocol.seed ^ splitmix64(static_cast<uint64_t>(r) + 1));
    StudySimulation once = simulation;
    once.seed = splitmix64(simulation.seed + static_cast<uint64_t>(r));
    const auto plans = plansFor(repeated, 0, simulation.participants);
    const std::vector<PlayedGame> games = playAll(repeated, plans, simulation.threads);
    const std::vector<StudyAnswers> answers = answersFor(repeated, games, plans.size(), once);
    StudySessions study;
    study.protocol = repeated;
    const auto shared = std::make_shared<const StudyProtocol>(repeated);
    for (size_t p = 0; p < plans.size(); ++p)
      study.sessions.push_back(StudySession::inMemory(shared, participantName(static_cast<int>(p)),
                                                      static_cast<int>(p)));
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
