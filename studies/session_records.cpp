#include "studies/session_records.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <set>

#include "core/metrics.h"
#include "results/csv.h"
#include "core/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

const InputFileKind kSessionFileKind{64 << 20, "a session file of ddalab"};

// "<prefix>-NN.json" for game `index` (numbered from 1, two digits at least).
std::string numberedName(const char* prefix, int index) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%02d.json", prefix, index + 1);
  return name;
}

// `value` must be `expected` (what the protocol says: `what`).
void expectValue(const Json& value, const Json& expected, const std::string& where,
                 const std::string& what) {
  if (value != expected)
    throw InputError(
        where, "expected " + jsonExcerpt(expected) + " (" + what + "), got " + jsonExcerpt(value));
}

double finiteNumber(const Json& v, const std::string& where) {
  if (!v.is_number() || !std::isfinite(v.get<double>()))
    throw InputError(where, "expected a finite number, got " + jsonExcerpt(v));
  return v.get<double>();
}

int countField(const JsonFields& fields, const char* key) {
  return static_cast<int>(fields.integer(key, 0, INT_MAX));
}

Json recordJson(const GameRecord& r) {
  Json metrics = Json::object();
  for (const auto& info : allMetrics())
    metrics[std::string(info.key)] = r.metrics[static_cast<size_t>(info.metric)];
  Json seats = Json::array();
  for (int p = 0; p < r.numPlayers; ++p) {
    const auto& bins = r.chance[static_cast<size_t>(p)];
    seats.push_back({{"score", r.scores[static_cast<size_t>(p)]},
                     {"moves", r.counters[static_cast<size_t>(p)].moves},
                     {"turns", r.counters[static_cast<size_t>(p)].turns},
                     {"lead_rounds", r.counters[static_cast<size_t>(p)].leadRounds},
                     {"chance", std::vector<uint32_t>(bins.begin(), bins.end())}});
  }
  return {{"seed", r.seed},
          {"players", r.numPlayers},
          {"winner", r.winner >= 0 ? Json(r.winner) : Json(nullptr)},
          {"capped", r.capped},
          {"metrics", metrics},
          {"seats", seats}};
}

// Every metric of ddalab, each a finite number, and nothing else.
MetricValues metricsOf(const Json& node, const std::string& path) {
  if (!node.is_object())
    throw InputError(path, "expected an object of every metric, got " + jsonExcerpt(node));
  for (const auto& [key, value] : node.items())
    if (!metricByKey(key))
      throw InputError(path + "." + textExcerpt(key), "unknown metric '" + textExcerpt(key) + "'");
  MetricValues metrics{};
  for (const auto& info : allMetrics()) {
    const std::string at = path + "." + std::string(info.key);
    if (!node.contains(info.key)) throw InputError(at, "missing required key");
    metrics[static_cast<size_t>(info.metric)] = finiteNumber(node.at(info.key), at);
  }
  return metrics;
}

// One seat's score, counters and where the outcomes dealt to it fell.
void readSeat(const Json& node, const std::string& path, GameRecord& r, size_t seat) {
  JsonFields fields(node, path, {"score", "moves", "turns", "lead_rounds", "chance"});
  r.scores[seat] = finiteNumber(fields.get("score"), fields.at("score"));
  r.counters[seat] = {countField(fields, "moves"), countField(fields, "turns"),
                      countField(fields, "lead_rounds")};
  const Json& bins = fields.get("chance");
  if (!bins.is_array() || bins.size() != kChanceBins)
    throw InputError(fields.at("chance"), "expected an array of " + std::to_string(kChanceBins) +
                                              " counts (one per decile), got " + jsonExcerpt(bins));
  for (size_t b = 0; b < kChanceBins; ++b) {
    if (!isIntegerIn(bins[b], 0, UINT32_MAX))
      throw InputError(fields.at("chance") + "[" + std::to_string(b) + "]",
                       "expected a count in [0, " + std::to_string(UINT32_MAX) + "], got " +
                           integerGot(bins[b]));
    r.chance[seat][b] = bins[b].get<uint32_t>();
  }
}

// The record of a game of `players` seats, as recordJson writes it.
GameRecord recordOf(const Json& node, const std::string& path, int players) {
  JsonFields fields(node, path, {"seed", "players", "winner", "capped", "metrics", "seats"});
  GameRecord r;
  r.seed = fields.unsignedInteger("seed");
  r.numPlayers = static_cast<int>(fields.integer("players", players, players));
  const Json& winner = fields.get("winner");
  if (!winner.is_null() && !isIntegerIn(winner, 0, players - 1))
    throw InputError(fields.at("winner"), "expected null (a draw) or a seat in [0, " +
                                              std::to_string(players - 1) + "], got " +
                                              jsonExcerpt(winner));
  r.winner = winner.is_null() ? -1 : winner.get<int>();
  const Json& capped = fields.get("capped");
  if (!capped.is_boolean())
    throw InputError(fields.at("capped"), "expected true or false, got " + jsonExcerpt(capped));
  r.capped = capped.get<bool>();
  r.metrics = metricsOf(fields.get("metrics"), fields.at("metrics"));
  const Json& seats = fields.get("seats");
  if (!seats.is_array() || seats.size() != static_cast<size_t>(players))
    throw InputError(fields.at("seats"), "expected an array of " + std::to_string(players) +
                                             " seats, got " + jsonExcerpt(seats));
  for (size_t seat = 0; seat < seats.size(); ++seat)
    readSeat(seats[seat], fields.at("seats") + "[" + std::to_string(seat) + "]", r, seat);
  return r;
}

// answers-NN.json of game `planned`: every item's answer on its scale, a comment.
// An answers file's "item_ms": per item the milliseconds from the questionnaire's showing to the
// item's last change, none beyond the questionnaire's own response time.
std::vector<int64_t> readItemMs(const JsonFields& fields, const StudyProtocol& protocol,
                                int64_t responseMs) {
  const Json& node = fields.get("item_ms");
  if (!node.is_object() || node.size() != protocol.items.size())
    throw InputError(fields.at("item_ms"),
                     "expected an object of one time per item, got " + jsonExcerpt(node));
  std::vector<int64_t> ms;
  for (const StudyItem& item : protocol.items) {
    const std::string at = fields.at("item_ms") + "." + item.key;
    const Json* value = node.contains(item.key) ? &node.at(item.key) : nullptr;
    if (!value || !value->is_number_integer() || value->get<int64_t>() < 0 ||
        value->get<int64_t>() > responseMs)
      throw InputError(at, "expected a whole number of milliseconds in [0, " +
                               std::to_string(responseMs) + "] (the questionnaire's time), got " +
                               (value ? jsonExcerpt(*value) : std::string("nothing")));
    ms.push_back(value->get<int64_t>());
  }
  return ms;
}

StudyAnswers readAnswers(const fs::path& file, const StudyProtocol& protocol,
                         const PlannedGame& planned) {
  const Json document = readSessionJson(file);
  JsonFields fields(document, file.string() + ": $",
                    {"index", "answers", "comment", "timing", "item_ms"});
  expectValue(fields.get("index"), planned.index, fields.at("index"), "the game of this file");
  const Json& values = fields.get("answers");
  const std::string path = fields.at("answers");
  if (!values.is_object())
    throw InputError(path, "expected an object of one answer per item, got " + jsonExcerpt(values));
  // A named loop variable, not a structured binding: clang 14 (the fuzzer's) cannot capture one.
  for (const auto& entry : values.items()) {
    const std::string& key = entry.key();
    if (std::none_of(protocol.items.begin(), protocol.items.end(),
                     [&](const StudyItem& item) { return item.key == key; }))
      throw InputError(path + "." + textExcerpt(key),
                       "unknown item '" + textExcerpt(key) + "' (not in the protocol)");
  }
  StudyAnswers answers;
  for (const StudyItem& item : protocol.items) {
    const std::string at = path + "." + item.key;
    if (!values.contains(item.key)) throw InputError(at, "missing required key");
    checkStudyAnswer(item, values.at(item.key), at);
    answers.values.push_back(values.at(item.key).get<double>());
  }
  const Json& comment = fields.get("comment");
  if (!comment.is_string())
    throw InputError(fields.at("comment"), "expected a string, got " + jsonExcerpt(comment));
  answers.comment = comment.get<std::string>();
  if (const Json* timing = fields.find("timing")) {
    answers.timing = parseTiming(*timing, fields.at("timing"));
    answers.itemMs = readItemMs(fields, protocol, answers.timing->responseMs);
  }
  return answers;
}

// The person's decisions at `where` against the game's trace: each at a seat a person plays
// (`people`), in a round the trace records, with an action a player made in that round (the trace
// holds what the game applied, legal moves only); InputError naming the field otherwise.
void checkDecisionsPlayed(const std::vector<DecisionTiming>& decisions, const Json& trace,
                          const std::vector<bool>& people, const std::string& where) {
  const auto rounds = trace.find("rounds");
  const size_t played = rounds != trace.end() && rounds->is_array() ? rounds->size() : 0;
  for (size_t i = 0; i < decisions.size(); ++i) {
    const DecisionTiming& d = decisions[i];
    const std::string at = where + "[" + std::to_string(i) + "]";
    const auto seat = static_cast<size_t>(d.seat);  // parseDecision: in [0, kMaxPlayers)
    if (seat >= people.size() || !people[seat])
      throw InputError(
          at + ".seat",
          "expected the participant's seat " +
              std::to_string(std::find(people.begin(), people.end(), true) - people.begin()) +
              ", got " + std::to_string(d.seat) + " (an AI's)");
    if (static_cast<size_t>(d.round) >= played)
      throw InputError(at + ".round", "expected a round the game's trace records (0 to " +
                                          std::to_string(static_cast<long long>(played) - 1) +
                                          "), got " + std::to_string(d.round));
    const Json& round = (*rounds)[static_cast<size_t>(d.round)];
    bool made = false;
    if (round.is_object() && round.contains("actions") && round["actions"].is_array())
      for (const Json& action : round["actions"])
        made = made || (action.is_object() && action.value("by", Json()) == Json("player") &&
                        action.value("id", Json()) == Json(d.action));
    if (!made)
      throw InputError(at + ".action",
                       "expected a move played in round " + std::to_string(d.round) +
                           " (one of the trace's, legal), got " + std::to_string(d.action));
  }
}

// An answers file's "timing" and "item_ms" (each item's time checked against the questionnaire's).
void addAnswerTiming(Json& file, const StudyAnswers& answers, const std::vector<StudyItem>& items) {
  file["timing"] = timingJson(*answers.timing);
  if (answers.itemMs.size() != items.size())
    throw InputError("answers.item_ms", "expected one time per item");
  Json& ms = file["item_ms"] = Json::object();
  for (size_t i = 0; i < items.size(); ++i) {
    if (answers.itemMs[i] < 0 || answers.itemMs[i] > answers.timing->responseMs)
      throw InputError("answers.item_ms." + items[i].key,
                       "expected a time within the questionnaire's " +
                           std::to_string(answers.timing->responseMs) + " ms, got " +
                           std::to_string(answers.itemMs[i]));
    ms[items[i].key] = answers.itemMs[i];
  }
}

}  // namespace

fs::path sessionGameFile(const fs::path& folder, int index) {
  return folder / numberedName("game", index);
}

fs::path sessionAnswersFile(const fs::path& folder, int index) {
  return folder / numberedName("answers", index);
}

Json readSessionJson(const fs::path& file) {
  return parseJsonText(readInputFile(file, kSessionFileKind), file.string());
}

void checkParticipantId(const std::string& id, const std::string& where) {
  if (id.empty() || id.size() > 100)
    throw InputError(
        where, "expected a participant id of 1 to 100 characters, got '" + textExcerpt(id) + "'");
}

Json sessionPlanJson(const StudyProtocol& protocol, const std::vector<PlannedGame>& plan) {
  Json games = Json::array();
  for (const PlannedGame& g : plan)
    games.push_back({{"index", g.index},
                     {"condition", protocol.conditions[g.condition].name},
                     {"seed", g.seed}});
  return games;
}

void checkRecordedPlan(const Json& recorded, const std::string& where,
                       const StudyProtocol& protocol, const std::vector<PlannedGame>& plan,
                       int ordinal, int row) {
  const Json expected = sessionPlanJson(protocol, plan);
  if (!recorded.is_array() || recorded.size() != expected.size())
    throw InputError(where, "expected the protocol's plan of " + std::to_string(expected.size()) +
                                " games, got " + jsonExcerpt(recorded));
  for (size_t i = 0; i < recorded.size(); ++i)
    expectValue(recorded[i], expected[i], where + "[" + std::to_string(i) + "]",
                "the protocol's game " + std::to_string(i + 1) + " for participant number " +
                    std::to_string(ordinal) + ", row " + std::to_string(row + 1));
}

int readRecordedRow(const JsonFields& fields, const StudyProtocol& protocol, int ordinal) {
  if (!fields.has("row")) return cyclicRow(protocol, ordinal);
  const int rows = orderRows(protocol);
  if (rows == 0) return static_cast<int>(fields.integer("row", -1, -1));
  return static_cast<int>(fields.integer("row", 0, rows - 1));
}

void checkSessionFiles(const fs::path& folder, size_t planned) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if ((name.starts_with("game-") || name.starts_with("answers-")) && name.ends_with(".json"))
      names.insert(name);
  }
  size_t played = 0;
  while (played < planned && names.count(numberedName("game", static_cast<int>(played)))) ++played;
  for (size_t i = 0; i < planned; ++i) {
    const int index = static_cast<int>(i);
    if (i < played) names.erase(numberedName("game", index));
    if (names.erase(numberedName("answers", index)) && i >= played)
      throw InputError(sessionAnswersFile(folder, index).string(),
                       "answers a game that is not there (" + numberedName("game", index) +
                           "); expected the answers of a game played");
  }
  if (!names.empty())
    throw InputError(
        (folder / *names.begin()).string(),
        "is not one of the plan's games " +
            (played < planned
                 ? "in order (" + numberedName("game", static_cast<int>(played)) + " is missing)"
                 : std::string("(") + std::to_string(planned) + " games)") +
            "; expected game-01.json, game-02.json, ... up to the game played last");
}

SessionGame readSessionGame(const fs::path& folder, const StudyProtocol& protocol,
                            const PlannedGame& planned) {
  const fs::path file = sessionGameFile(folder, planned.index);
  const Json document = readSessionJson(file);
  JsonFields fields(document, file.string() + ": $",
                    {"index", "condition", "record", "trace", "decisions"});
  expectValue(fields.get("index"), planned.index, fields.at("index"), "the game of this file");
  expectValue(fields.get("condition"), protocol.conditions[planned.condition].name,
              fields.at("condition"), "the plan's condition of this game");
  SessionGame game{planned,
                   recordOf(fields.get("record"), fields.at("record"),
                            static_cast<int>(protocol.people().size())),
                   std::nullopt,
                   {}};
  expectValue(game.record.seed, planned.seed, fields.at("record") + ".seed",
              "the plan's seed of this game");
  if (!fields.get("trace").is_object())
    throw InputError(fields.at("trace"), "expected the game's trace (an object), got " +
                                             jsonExcerpt(fields.get("trace")));
  if (const Json* decisions = fields.find("decisions")) {
    if (!decisions->is_array())
      throw InputError(fields.at("decisions"), "expected an array of the person's decisions, got " +
                                                   jsonExcerpt(*decisions));
    for (size_t i = 0; i < decisions->size(); ++i)
      game.decisions.push_back(
          parseDecision((*decisions)[i], fields.at("decisions") + "[" + std::to_string(i) + "]"));
    checkDecisionsPlayed(game.decisions, fields.get("trace"), protocol.people(),
                         fields.at("decisions"));
  }
  const fs::path answers = sessionAnswersFile(folder, planned.index);
  if (fs::exists(answers)) game.answers = readAnswers(answers, protocol, planned);
  return game;
}

void writeGameFiles(const fs::path& folder, const StudyProtocol& protocol,
                    std::span<const PlayedStudyGame> games) {
  for (const PlayedStudyGame& g : games) {
    Json j = {{"index", g.plan.index},
              {"condition", protocol.conditions[g.plan.condition].name},
              {"record", recordJson(g.record)},
              {"trace", g.trace}};
    if (!g.decisions.empty()) {
      Json& decisions = j["decisions"] = Json::array();
      for (const DecisionTiming& d : g.decisions) decisions.push_back(decisionJson(d));
    }
    writeFileAtomically(sessionGameFile(folder, g.plan.index), j.dump() + "\n");
  }
  syncFolder(folder);
}

Json answersFileJson(int index, const StudyAnswers& answers, const std::vector<StudyItem>& items) {
  if (answers.values.size() != items.size())
    throw InputError("answers",
                     "expected " + std::to_string(items.size()) + " answers, one per item");
  Json values = Json::object();
  for (size_t i = 0; i < items.size(); ++i) {
    values[items[i].key] = answers.values[i];
    checkStudyAnswer(items[i], values[items[i].key], "answers." + items[i].key);
  }
  Json file = {{"index", index}, {"answers", values}, {"comment", answers.comment}};
  if (answers.timing) addAnswerTiming(file, answers, items);
  return file;
}

std::optional<Json> readPageRecord(const fs::path& folder, const char* name) {
  const fs::path file = folder / name;
  if (!fs::exists(fs::symlink_status(file))) return std::nullopt;
  checkRegularFile(file, "the participant's record");
  return readSessionJson(file);
}

ResponseTiming recordTiming(const JsonFields& fields) {
  return parseTiming(fields.get("timing"), fields.at("timing"));
}

DemographicAnswers readDemographics(const Json& document, const std::string& file,
                                    const StudyPages& pages) {
  JsonFields fields(document, file + ": $", {"answers", "timing"});
  DemographicAnswers answers;
  answers.timing = recordTiming(fields);
  const Json& values = fields.get("answers");
  if (!values.is_object() || values.size() != pages.demographics.size())
    throw InputError(fields.at("answers"), "expected one answer per demographics question (" +
                                               std::to_string(pages.demographics.size()) +
                                               "), got " + jsonExcerpt(values));
  for (const DemographicItem& item : pages.demographics) {
    const std::string at = fields.at("answers") + "." + item.key;
    const Json* value = values.contains(item.key) ? &values.at(item.key) : nullptr;
    if (!value || !value->is_string() ||
        std::find(item.options.begin(), item.options.end(), value->get<std::string>()) ==
            item.options.end())
      throw InputError(at, "expected one of the question's options, got " +
                               (value ? jsonExcerpt(*value) : std::string("nothing")));
    answers.values.push_back(value->get<std::string>());
  }
  return answers;
}

void writeSessionCsvs(const fs::path& folder, const StudyProtocol& protocol,
                      std::span<const SessionGame> played) {
  const size_t seats = protocol.people().size();
  std::string games = "game,condition," + gamesCsvHeader(seats);
  for (const SessionGame& g : played) {
    games += std::to_string(g.plan.index + 1) + "," +
             csvField(protocol.conditions[g.plan.condition].name) + ",";
    games += gamesCsvRow(g.record, seats);
  }
  writeFileAtomically(folder / "games.csv", games);
  std::string answers;
  for (const char* column : kAnswersCsvLeadColumns)
    (answers += answers.empty() ? "" : ",") += column;
  for (const StudyItem& item : protocol.items) answers += "," + item.key;
  answers += std::string(",") + kAnswersCsvCommentColumn + "\n";
  for (const SessionGame& g : played) {
    if (!g.answers) continue;
    answers += std::to_string(g.plan.index + 1) + "," +
               csvField(protocol.conditions[g.plan.condition].name);
    for (double v : g.answers->values) (answers += ',') += csvNumber(v);
    ((answers += ',') += csvField(g.answers->comment)) += '\n';
  }
  writeFileAtomically(folder / "answers.csv", answers);
}

}  // namespace ddalab
