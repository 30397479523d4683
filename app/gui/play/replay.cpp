#include "app/gui/play/replay.h"

#include <cmath>

#include "core/status.h"
#include "games/registry.h"

namespace ddalab::gui {

namespace {

std::vector<double> numbers(const Json& array) {
  std::vector<double> values;
  for (const Json& v : array) values.push_back(v.get<double>());
  return values;
}

// The metric values of a "terms" object (missing keys 0).
// The weighted sum's terms of `metrics` (an appraisal that brings none of its own).
std::vector<ObjectiveTerm> weightedTerms(const MetricValues& metrics,
                                         const Coefficients& coefficients) {
  const MetricValues values = funTerms(metrics, coefficients);
  std::vector<ObjectiveTerm> terms;
  for (const auto& info : allMetrics())
    if (coefficients[static_cast<size_t>(info.metric)] != 0)
      terms.push_back({info.key, values[static_cast<size_t>(info.metric)]});
  return terms;
}

// An outcome's terms and checks as a detailed trace records them.
std::vector<ObjectiveTerm> termsOf(const Json& outcome) {
  std::vector<ObjectiveTerm> terms;
  for (const auto& [key, summed] : {std::pair{"terms", true}, std::pair{"checks", false}}) {
    const Json values = outcome.value(key, Json::object());
    for (const auto& [label, value] : values.items())
      if (value.is_number()) terms.push_back({label, value.get<double>(), summed});
  }
  return terms;
}

// Whether the outcome chosen at `before` is hidden from a seat of `viewers`.
bool chosenHiddenFrom(const State& before, std::span<const int> viewers) {
  for (int seat : viewers)
    if (!before.outcomeVisibleTo(seat)) return true;
  return false;
}

// The decision at `before` as far as every seat of `viewers` may know it, when they may not know
// all of it: the chosen outcome (or only that one was chosen), not the others, their
// probabilities or how they were weighed (they would tell what the hidden hands hold).
std::optional<DecisionReport> hiddenDecision(const State& before, Action chosen, bool natural,
                                             std::span<const int> viewers) {
  DecisionReport report;
  report.chosenHidden = chosenHiddenFrom(before, viewers);
  report.outcomesHidden = report.chosenHidden || (!viewers.empty() && !before.outcomesPublic());
  if (!report.outcomesHidden) return std::nullopt;
  report.chosen =
      report.chosenHidden ? before.hiddenOutcomeString() : before.actionToString(chosen);
  report.probability = std::nan("");
  report.natural = natural;
  return report;
}

}  // namespace

std::shared_ptr<const Game> gameOfTrace(const Json& line) {
  if (!line.contains("game")) return nullptr;
  const Json& game = line.at("game");
  const std::string id = game.value("id", "");
  const GameInfo& info = findById<GameInfo>(gameRegistry(), id, "game", "trace: $.game.id");
  return info.make(
      validateParams(info.params, game.value("params", Json::object()), "trace: $.game.params"));
}

Coefficients coefficientsOfTrace(const Json& line) {
  Coefficients c{};
  const Json coefficients = line.value("coefficients", Json::object());
  for (const auto& info : allMetrics())
    if (coefficients.contains(std::string(info.key)))
      c[static_cast<size_t>(info.metric)] = coefficients.at(std::string(info.key)).get<double>();
  return c;
}

DecisionReport decisionReport(const Json& action, const State& before) {
  DecisionReport report;
  const Action chosen = action.at("id").get<Action>();
  report.chosen = action.value("text", before.actionToString(chosen));
  if (action.contains("decision")) {
    const Json& d = action.at("decision");
    report.natural = d.value("natural", false);
    for (const Json& o : d.at("outcomes")) {
      DecisionReport::Row row;
      row.outcome = o.value("text", "");
      row.action = o.value("id", Action{-1});
      row.probability = o.value("probability", 0.0);
      row.fun = o.value("fun", 0.0);
      if (o.contains("search")) row.search = o.at("search").get<double>();
      row.terms = termsOf(o);
      row.allowed = o.value("allowed", true);
      row.chosen = o.value("id", -1) == chosen;
      if (row.chosen) report.probability = row.probability;
      report.rows.push_back(row);
    }
    return report;
  }
  return decisionReport(before, chosen, nullptr, {});  // a plain trace: probabilities only
}

DecisionReport decisionReport(const State& before, Action chosen,
                              const EnvironmentDecision* decision, const Coefficients& coefficients,
                              std::span<const int> viewers) {
  if (auto hidden = hiddenDecision(before, chosen, decision && decision->natural, viewers))
    return *hidden;
  DecisionReport report;
  report.chosen = before.actionToString(chosen);
  std::vector<Outcome> outcomes;
  before.outcomes(outcomes);
  for (const Outcome& o : outcomes) {
    DecisionReport::Row row;
    row.outcome = before.actionToString(o.action);
    row.action = o.action;
    row.probability = o.probability;
    row.chosen = o.action == chosen;
    if (row.chosen) report.probability = o.probability;
    if (decision)
      for (const OutcomeAppraisal& a : decision->appraisals)
        if (a.outcome == o.action) {
          row.fun = a.fun;
          row.search = a.searchValue;
          row.terms = a.terms.empty() ? weightedTerms(a.metrics, coefficients) : a.terms;
          row.allowed = a.allowed;
        }
    report.rows.push_back(row);
  }
  report.natural = decision && decision->natural;
  return report;
}

namespace {

// Throws unless `values` (at `path`) holds one number per seat.
void checkPerSeat(const Json& values, size_t seats, const std::string& path) {
  if (!values.is_array() || values.size() != seats)
    throw InputError(path, "expected " + std::to_string(seats) + " entries, one per seat, got " +
                               (values.is_array() ? std::to_string(values.size())
                                                  : std::string(values.type_name())));
  for (const Json& v : values)
    if (!v.is_number()) throw InputError(path, "expected numbers, got " + v.dump());
}

// The parts of a trace line the replay indexes by seat, checked against the game's seat count.
void checkSeats(const Json& line, size_t seats) {
  const Json& players = line.at("players");
  if (!players.is_array() || players.size() != seats)
    throw InputError("$.players", "expected " + std::to_string(seats) +
                                      " players (the game's seats), got " +
                                      (players.is_array() ? std::to_string(players.size())
                                                          : std::string(players.type_name())));
  for (const Json& p : players)
    if (!p.is_object()) throw InputError("$.players", "expected objects, got " + p.dump());
  for (const char* key : {"gains", "statuses"}) {
    checkPerSeat(line.at("initial").at(key), seats, std::string("$.initial.") + key);
    const Json& rounds = line.at("rounds");
    for (size_t r = 0; r < rounds.size(); ++r)
      checkPerSeat(rounds[r].at(key), seats,
                   "$.rounds[" + std::to_string(r) + "]." + std::string(key));
  }
}

}  // namespace

Replay::Replay(const Json& line, const Game& game, const Coefficients& coefficients)
    : line_(line), coefficients_(coefficients) {
  const std::string where = "trace of iteration " + std::to_string(line.value("iteration", 0));
  Match match(game, line.at("seed").get<uint64_t>());
  checkSeats(line, static_cast<size_t>(match.state().numPlayers()));
  if (line.contains("objective")) {
    objective_ = parseObjective(line.at("objective"), "$.objective", match.state().numPlayers());
    if (line.contains("win_rate_estimate"))
      objective_.estimate = line.at("win_rate_estimate").get<double>();
  }
  states_.push_back(match.state().clone());
  trackers_.push_back(match.tracker());
  decisions_.emplace_back();
  std::shared_ptr<const Decision> last;
  const Json& rounds = line.at("rounds");
  for (size_t r = 0; r < rounds.size(); ++r) {
    auto& steps = roundSteps_.emplace_back();
    for (const Json& action : rounds[r].at("actions")) {
      const Action id = action.at("id").get<Action>();
      std::unique_ptr<State> before = match.state().clone();
      const bool environment = match.actor() == kEnvironment;
      if (!match.applyIfLegal(id))
        throw InputError(where + ", round " + std::to_string(r + 1),
                         "action " + std::to_string(id) +
                             " is not legal in the rebuilt game "
                             "(another game set-up or version?)");
      if (environment) {
        DecisionReport report = decisionReport(action, *before);
        last = std::make_shared<const Decision>(Decision{std::move(before), id, std::move(report)});
      }
      steps.push_back(environment ? last : nullptr);
    }
    if (match.tracker().rounds() != static_cast<int>(r) + 1)
      throw InputError(where + ", round " + std::to_string(r + 1),
                       "the recorded actions do not end the round in the rebuilt game");
    const Gains gains = gainsOf(match.state());
    const std::vector<double> recorded = numbers(rounds[r].at("gains"));
    for (size_t p = 0; p < recorded.size(); ++p)
      if (gains[p] != recorded[p])
        throw InputError(where + ", round " + std::to_string(r + 1),
                         "player " + std::to_string(p) + "'s gain is " + std::to_string(gains[p]) +
                             ", the trace recorded " + std::to_string(recorded[p]));
    states_.push_back(match.state().clone());
    trackers_.push_back(match.tracker());
    decisions_.push_back(last);
  }
}

std::vector<double> Replay::recordedGains(int position) const {
  return numbers(position == 0
                     ? line_.at("initial").at("gains")
                     : line_.at("rounds").at(static_cast<size_t>(position - 1)).at("gains"));
}

std::vector<double> Replay::recordedStatuses(int position) const {
  return numbers(position == 0
                     ? line_.at("initial").at("statuses")
                     : line_.at("rounds").at(static_cast<size_t>(position - 1)).at("statuses"));
}

std::optional<DecisionReport> Replay::decisionAt(int position, std::span<const int> viewers) const {
  const auto& d = decisions_.at(static_cast<size_t>(position));
  if (!d) return std::nullopt;
  if (auto hidden = hiddenDecision(*d->before, d->chosen, d->report.natural, viewers))
    return hidden;
  return d->report;
}

const State* Replay::decisionStateAt(int position) const {
  const auto& d = decisions_.at(static_cast<size_t>(position));
  return d ? d->before.get() : nullptr;
}

std::string Replay::roundText(int position, std::span<const int> viewers) const {
  if (position <= 0) return "the start";
  const size_t round = static_cast<size_t>(position - 1);
  const Json& actions = line_.at("rounds").at(round).at("actions");
  std::string text;
  for (size_t i = 0; i < actions.size(); ++i) {
    const auto& decision = roundSteps_.at(round).at(i);
    text += text.empty() ? "" : ", ";
    text += decision && chosenHiddenFrom(*decision->before, viewers)
                ? decision->before->hiddenOutcomeString()
                : actions[i].value("text", std::string());
  }
  return text;
}

}  // namespace ddalab::gui
