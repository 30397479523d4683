#include "experiments/study.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>

#include "core/rng.h"
#include "experiments/json_input.h"
#include "experiments/sha256.h"
#include "players/registry.h"
#include "results/csv.h"
#include "results/file_io.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

const InputFileKind kProtocolFileKind{1 << 20, "a study protocol JSON file (ddalab-study/1)"};
const InputFileKind kSessionFileKind{64 << 20, "a session file of ddalab"};

// Games a participant may be asked to play: a session is hours of people's time, not thousands.
constexpr int kMaxGamesPerCondition = 100;
constexpr size_t kMaxConditions = 12;
constexpr size_t kMaxItems = 30;

StudyItem parseItem(const Json& node, const std::string& path) {
  JsonFields fields(node, path, {"key", "text", "scale", "low", "high"});
  StudyItem item;
  item.key = fields.string("key");
  for (char c : item.key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      throw InputError(fields.at("key"), "expected letters, digits and '_' (a CSV column), got '" +
                                             textExcerpt(item.key) + "'");
  item.text = fields.string("text");
  const std::string scale = fields.string("scale", "likert7");
  if (scale == "slider100")
    item.scale = StudyItem::Scale::Slider100;
  else if (scale != "likert7")
    throw InputError(
        fields.at("scale"),
        "expected \"likert7\" (1-7) or \"slider100\" (0-100), got \"" + textExcerpt(scale) + "\"");
  item.low = fields.string("low", item.scale == StudyItem::Scale::Likert7 ? "not at all" : "none");
  item.high = fields.string("high", item.scale == StudyItem::Scale::Likert7 ? "very much" : "all");
  return item;
}

std::vector<StudyItem> parseQuestionnaire(const JsonFields& fields, const std::string& gameId,
                                          bool& comment) {
  const Json* node = fields.find("questionnaire");
  if (!node) return defaultStudyItems(gameId);
  const std::string path = fields.at("questionnaire");
  JsonFields q(*node, path, {"items", "comment"});
  if (const Json* c = q.find("comment")) {
    if (!c->is_boolean())
      throw InputError(q.at("comment"), "expected true or false, got " + jsonExcerpt(*c));
    comment = c->get<bool>();
  }
  const Json& list = q.get("items");
  if (!list.is_array() || list.empty() || list.size() > kMaxItems)
    throw InputError(q.at("items"), "expected an array of 1 to " + std::to_string(kMaxItems) +
                                        " items, got " + jsonExcerpt(list));
  std::vector<StudyItem> items;
  std::set<std::string> keys;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = q.at("items") + "[" + std::to_string(i) + "]";
    items.push_back(parseItem(list[i], at));
    if (!keys.insert(items.back().key).second)
      throw InputError(at + ".key", "the key '" + items.back().key +
                                        "' is used twice; expected one key per item");
  }
  return items;
}

StudyCondition parseCondition(const Json& node, const std::string& path, const Json& shared) {
  JsonFields fields(node, path, {"name", "environment", "coefficients"});
  StudyCondition c;
  c.name = fields.string("name");
  c.environment = fields.get("environment");
  c.coefficients = fields.find("coefficients") ? *fields.find("coefficients") : shared;
  return c;
}

// Every condition as the experiment a game of it is, validated with the errors pathed from the
// protocol: "$.conditions[1].environment.params.random_prob", "$.seats[1].level".
void validateConditions(const StudyProtocol& p, const std::string& source) {
  for (size_t c = 0; c < p.conditions.size(); ++c) {
    try {
      parsePlayedExperiment(p.experiment(c), p.seed, "");
    } catch (const InputError& e) {
      std::string where = e.path();  // ": $.players[1]...", "$.environment...", "$.coefficients..."
      if (where.starts_with(": ")) where = where.substr(2);
      if (where.starts_with("$.players"))
        where = "$.seats" + where.substr(9);
      else if (where.starts_with("$.game"))
        where = "$.game" + where.substr(6);
      else if (where.starts_with("$.environment") || where.starts_with("$.coefficients"))
        where = "$.conditions[" + std::to_string(c) + "]" + where.substr(1);
      throw InputError(source + ": " + where, e.message());
    }
  }
}

}  // namespace

std::vector<StudyItem> defaultStudyItems(const std::string& gameId) {
  const std::string chance = gameId == "ludo" || gameId == "pig" ? "dice" : "cards";
  using S = StudyItem::Scale;
  return {
      {"enjoyment", "How much did you enjoy this game?", S::Likert7, "not at all", "very much"},
      {"tension", "How tense was the game?", S::Likert7, "not at all", "very"},
      {"fairness", "The game was fair.", S::Likert7, "disagree", "agree"},
      {"manipulated", "The " + chance + " seemed manipulated.", S::Likert7, "disagree", "agree"},
      {"difficulty", "How difficult was the game for you?", S::Likert7, "very easy",
       "very difficult"},
  };
}

std::vector<bool> StudyProtocol::people() const {
  return personSeats(experiment(0));
}

Json StudyProtocol::experiment(size_t c) const {
  Json e = {{"name", conditions[c].name},
            {"game", game},
            {"players", seats},
            {"environment", conditions[c].environment}};
  if (!conditions[c].coefficients.is_null()) e["coefficients"] = conditions[c].coefficients;
  return e;
}

Json StudyProtocol::simulatedExperiment(size_t c) const {
  Json seat = simulatedPerson;
  if (seat.is_null()) {
    const Experiment e = parsePlayedExperiment(experiment(0), seed, "protocol");
    seat = {{"id", defaultAi(*e.game).id}, {"level", 100}};
  }
  Json e = experiment(c);
  for (Json& s : e["players"])
    if (s.value("id", "") == kPersonSeat) s = seat;
  return e;
}

StudyProtocol parseStudyProtocol(const Json& document, const std::string& source) {
  try {
    checkNestingDepth(document, source);
    JsonFields fields(
        document, "$",
        {"format", "name", "description", "seed", "game", "seats", "coefficients", "conditions",
         "games_per_condition", "order", "questionnaire", "simulated_person"});
    if (fields.string("format") != kStudyFormat)
      throw InputError(fields.at("format"), std::string("expected \"") + kStudyFormat + "\", got " +
                                                jsonExcerpt(fields.get("format")));
    StudyProtocol p;
    p.name = fields.string("name");
    p.description = fields.string("description", "");
    p.seed = fields.unsignedInteger("seed");
    p.game = fields.get("game");
    p.seats = fields.get("seats");
    if (!p.seats.is_array() || p.seats.empty())
      throw InputError(fields.at("seats"),
                       "expected an array with one entry per seat, got " + jsonExcerpt(p.seats));
    const Json shared = fields.find("coefficients") ? *fields.find("coefficients") : Json();
    const Json& conditions = fields.get("conditions");
    if (!conditions.is_array() || conditions.size() < 1 || conditions.size() > kMaxConditions)
      throw InputError(fields.at("conditions"), "expected an array of 1 to " +
                                                    std::to_string(kMaxConditions) +
                                                    " conditions, got " + jsonExcerpt(conditions));
    std::set<std::string> names;
    for (size_t i = 0; i < conditions.size(); ++i) {
      const std::string at = fields.at("conditions") + "[" + std::to_string(i) + "]";
      p.conditions.push_back(parseCondition(conditions[i], at, shared));
      if (!names.insert(p.conditions.back().name).second)
        throw InputError(at + ".name", "the name '" + p.conditions.back().name +
                                           "' is used twice; expected one name per condition");
    }
    p.gamesPerCondition =
        static_cast<int>(fields.integer("games_per_condition", 1, kMaxGamesPerCondition, 1));
    if (const Json* order = fields.find("order")) {
      JsonFields o(*order, fields.at("order"), {"scheme"});
      const std::string scheme = o.string("scheme");
      if (scheme == "random")
        p.order = OrderScheme::Random;
      else if (scheme != "latin-square")
        throw InputError(o.at("scheme"),
                         "expected \"latin-square\" (balanced over participants) or \"random\" "
                         "(shuffled per participant, seeded), got \"" +
                             textExcerpt(scheme) + "\"");
    }
    const std::string gameId =
        p.game.is_object() && p.game.value("id", Json()).is_string() ? p.game.value("id", "") : "";
    p.items = parseQuestionnaire(fields, gameId, p.comment);
    if (const Json* person = fields.find("simulated_person")) p.simulatedPerson = *person;
    const std::vector<bool> people = personSeats(p.experiment(0));
    if (std::count(people.begin(), people.end(), true) != 1)
      throw InputError(fields.at("seats"),
                       "expected exactly one seat {\"id\": \"" + std::string(kPersonSeat) +
                           "\"} (the participant), got " + jsonExcerpt(p.seats));
    validateConditions(p, source);
    p.document = document;
    return p;
  } catch (const InputError& e) {
    if (e.path().starts_with(source)) throw;
    throw InputError(source + ": " + e.path(), e.message());
  }
}

StudyProtocol loadStudyProtocol(const fs::path& file) {
  const std::string text = readInputFile(file, kProtocolFileKind);
  return parseStudyProtocol(parseJsonText(text, file.string()), file.string());
}

bool isStudyProtocolFile(const fs::path& file) {
  try {
    const Json document = parseJsonText(readInputFile(file, kProtocolFileKind), file.string());
    return document.is_object() && document.value("format", Json()) == Json(kStudyFormat);
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<std::vector<size_t>> balancedLatinSquare(size_t n) {
  // Williams' design: the first row 0, 1, n-1, 2, n-2, ...; row r adds r (mod n). For an odd n
  // the mirrored rows follow, so that each condition precedes each other equally often.
  std::vector<size_t> first;
  for (size_t i = 0, low = 1, high = n - 1; i < n; ++i)
    first.push_back(i == 0 ? 0 : (i % 2 == 1 ? low++ : high--));
  std::vector<std::vector<size_t>> rows;
  for (size_t r = 0; r < n; ++r) {
    std::vector<size_t> row;
    for (size_t c : first) row.push_back((c + r) % n);
    rows.push_back(row);
  }
  if (n % 2 == 1)
    for (size_t r = 0; r < n; ++r) rows.emplace_back(rows[r].rbegin(), rows[r].rend());
  return rows;
}

std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal) {
  const size_t n = protocol.conditions.size();
  std::vector<size_t> order;
  if (protocol.order == OrderScheme::LatinSquare) {
    const auto rows = balancedLatinSquare(n);
    const auto& row = rows[static_cast<size_t>(ordinal) % rows.size()];
    for (int round = 0; round < protocol.gamesPerCondition; ++round)
      order.insert(order.end(), row.begin(), row.end());
  } else {
    for (int round = 0; round < protocol.gamesPerCondition; ++round)
      for (size_t c = 0; c < n; ++c) order.push_back(c);
    Rng rng(deriveGameSeed(protocol.seed, static_cast<uint64_t>(ordinal), 0x6f72646572ull));
    for (size_t i = order.size(); i > 1; --i)  // Fisher-Yates
      std::swap(order[i - 1], order[rng.below(static_cast<uint32_t>(i))]);
  }
  std::vector<PlannedGame> plan;
  for (size_t i = 0; i < order.size(); ++i) {
    const uint64_t game = static_cast<uint64_t>(ordinal) * 1000 + i;
    plan.push_back({static_cast<int>(i), order[i], deriveGameSeed(protocol.seed, game, 0)});
  }
  return plan;
}

// ---- Session folders

namespace {

// "<prefix>-NN.json" for game `index` (numbered from 1, two digits at least).
fs::path numberedFile(const fs::path& folder, const char* prefix, int index) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%02d.json", prefix, index + 1);
  return folder / name;
}

fs::path gameFile(const fs::path& folder, int index) {
  return numberedFile(folder, "game", index);
}

fs::path answersFile(const fs::path& folder, int index) {
  return numberedFile(folder, "answers", index);
}

Json readJson(const fs::path& file) {
  return parseJsonText(readInputFile(file, kSessionFileKind), file.string());
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

GameRecord recordOf(const Json& j, const std::string& where) {
  try {
    GameRecord r;
    r.seed = j.at("seed").get<uint64_t>();
    r.numPlayers = j.at("players").get<int>();
    if (r.numPlayers < 1 || r.numPlayers > kMaxPlayers) throw std::out_of_range("players");
    r.winner = j.at("winner").is_null() ? -1 : j.at("winner").get<int>();
    r.capped = j.at("capped").get<bool>();
    for (const auto& info : allMetrics())
      r.metrics[static_cast<size_t>(info.metric)] = j.at("metrics").at(info.key).get<double>();
    for (int p = 0; p < r.numPlayers; ++p) {
      const Json& seat = j.at("seats").at(static_cast<size_t>(p));
      r.scores[static_cast<size_t>(p)] = seat.at("score").get<double>();
      r.counters[static_cast<size_t>(p)] = {seat.at("moves").get<int>(),
                                            seat.at("turns").get<int>(),
                                            seat.at("lead_rounds").get<int>()};
      const auto bins = seat.at("chance").get<std::vector<uint32_t>>();
      if (bins.size() != kChanceBins) throw std::out_of_range("chance");
      std::copy(bins.begin(), bins.end(), r.chance[static_cast<size_t>(p)].begin());
    }
    return r;
  } catch (const std::exception& e) {
    throw InputError(where + ": $.record",
                     std::string("not a game record of this ddalab (") + e.what() + ")");
  }
}

}  // namespace

StudySession StudySession::open(const fs::path& folder, const StudyProtocol& protocol,
                                const std::string& participant) {
  if (participant.empty() || participant.size() > 100)
    throw InputError("participant", "expected an id of 1 to 100 characters");
  const fs::path file = folder / "session.json";
  if (fs::exists(file)) {
    StudySession existing = read(folder);
    if (existing.checksum_ != sha256Hex(protocol.document.dump()))
      throw InputError(file.string(), "holds a session of another protocol (" +
                                          existing.protocol_.name + "); expected one of " +
                                          protocol.name);
    if (existing.participant_ != participant)
      throw InputError(file.string(), "holds participant '" + existing.participant_ +
                                          "'; expected '" + participant + "'");
    return existing;
  }
  // The participant's number: how many sessions of this protocol the study folder already holds.
  int ordinal = 0;
  std::error_code error;
  const fs::path parent = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  for (const auto& entry : fs::directory_iterator(parent, error))
    if (entry.is_directory() && entry.path() != folder && fs::exists(entry.path() / "session.json"))
      ++ordinal;
  fs::create_directories(folder);
  StudySession s;
  s.folder_ = folder;
  s.protocol_ = protocol;
  s.checksum_ = sha256Hex(protocol.document.dump());
  s.participant_ = participant;
  s.ordinal_ = ordinal;
  s.plan_ = planGames(protocol, ordinal);
  Json plan = Json::array();
  for (const PlannedGame& g : s.plan_)
    plan.push_back({{"index", g.index},
                    {"condition", protocol.conditions[g.condition].name},
                    {"seed", g.seed}});
  const Json session = {
      {"format", kSessionFormat},       {"participant", participant},    {"ordinal", ordinal},
      {"protocol_sha256", s.checksum_}, {"protocol", protocol.document}, {"plan", plan}};
  writeFileAtomically(file, session.dump(2) + "\n");
  syncFolder(folder);
  s.writeCsvs();
  return s;
}

StudySession StudySession::read(const fs::path& folder) {
  const fs::path file = folder / "session.json";
  const Json session = readJson(file);
  const std::string source = file.string();
  if (!session.is_object() || session.value("format", "") != kSessionFormat)
    throw InputError(source, std::string("not a session folder: expected \"format\": \"") +
                                 kSessionFormat + "\"");
  StudySession s;
  s.folder_ = folder;
  s.protocol_ = parseStudyProtocol(session.at("protocol"), source + " ($.protocol)");
  s.checksum_ = session.value("protocol_sha256", "");
  if (s.checksum_ != sha256Hex(s.protocol_.document.dump()))
    throw InputError(source, "its protocol does not match the checksum it records: was it edited?");
  s.participant_ = session.value("participant", "");
  s.ordinal_ = session.value("ordinal", 0);
  s.plan_ = planGames(s.protocol_, s.ordinal_);
  s.load();
  return s;
}

StudySession StudySession::inMemory(const StudyProtocol& protocol, const std::string& participant,
                                    int ordinal) {
  StudySession s;
  s.protocol_ = protocol;
  s.checksum_ = sha256Hex(protocol.document.dump());
  s.participant_ = participant;
  s.ordinal_ = ordinal;
  s.plan_ = planGames(protocol, ordinal);
  return s;
}

void StudySession::load() {
  games_.clear();
  for (const PlannedGame& planned : plan_) {
    const fs::path file = gameFile(folder_, planned.index);
    if (!fs::exists(file)) break;
    const Json j = readJson(file);
    SessionGame game;
    game.plan = planned;
    game.record = recordOf(j.at("record"), file.string());
    if (game.record.seed != planned.seed)
      throw InputError(file.string(), "records the game of another seed than the plan's");
    game.trace = j.at("trace");
    const fs::path answers = answersFile(folder_, planned.index);
    if (fs::exists(answers)) {
      const Json a = readJson(answers);
      StudyAnswers given;
      for (const StudyItem& item : protocol_.items)
        given.values.push_back(a.at("answers").at(item.key).get<double>());
      given.comment = a.value("comment", "");
      game.answers = given;
    }
    games_.push_back(std::move(game));
  }
}

std::optional<PlannedGame> StudySession::next() const {
  for (const SessionGame& g : games_)
    if (!g.answers) return g.plan;
  if (games_.size() < plan_.size()) return plan_[games_.size()];
  return std::nullopt;
}

bool StudySession::needsAnswersOnly() const {
  return std::any_of(games_.begin(), games_.end(), [](const SessionGame& g) { return !g.answers; });
}

size_t StudySession::answered() const {
  return static_cast<size_t>(std::count_if(
      games_.begin(), games_.end(), [](const SessionGame& g) { return g.answers.has_value(); }));
}

void StudySession::saveGame(const PlannedGame& game, const GameRecord& record, const Json& trace) {
  if (game.index != static_cast<int>(games_.size()))
    throw std::logic_error("StudySession::saveGame: games are kept in the plan's order");
  if (!folder_.empty()) {  // on the disk first: a failed write keeps nothing
    const Json j = {{"index", game.index},
                    {"condition", protocol_.conditions[game.condition].name},
                    {"record", recordJson(record)},
                    {"trace", trace}};
    writeFileAtomically(gameFile(folder_, game.index), j.dump() + "\n");
    syncFolder(folder_);
  }
  games_.push_back({game, record, trace, std::nullopt});
  if (!folder_.empty()) writeCsvs();
}

void StudySession::saveAnswers(int index, const StudyAnswers& answers) {
  if (index < 0 || index >= static_cast<int>(games_.size()))
    throw std::logic_error("StudySession::saveAnswers: the game has not been played");
  if (answers.values.size() != protocol_.items.size())
    throw InputError(
        "answers", "expected " + std::to_string(protocol_.items.size()) + " answers, one per item");
  Json values = Json::object();
  for (size_t i = 0; i < protocol_.items.size(); ++i) {
    const StudyItem& item = protocol_.items[i];
    const double v = answers.values[i];
    if (!(v >= item.min() && v <= item.max()))
      throw InputError("answers." + item.key, "expected a value in [" + std::to_string(item.min()) +
                                                  ", " + std::to_string(item.max()) + "]");
    values[item.key] = v;
  }
  if (!folder_.empty()) {
    const Json j = {{"index", index}, {"answers", values}, {"comment", answers.comment}};
    writeFileAtomically(answersFile(folder_, index), j.dump(2) + "\n");
    syncFolder(folder_);
  }
  games_[static_cast<size_t>(index)].answers = answers;
  if (!folder_.empty()) writeCsvs();
}

void StudySession::writeCsvs() const {
  // games.csv: the games-CSV row of every game played, with its position and condition in front.
  std::string games = "game,condition,";
  const std::string header = gamesCsvHeader(protocol_.people().size());
  games += header;
  for (const SessionGame& g : games_) {
    games += std::to_string(g.plan.index + 1) + "," +
             csvField(protocol_.conditions[g.plan.condition].name) + ",";
    games += gamesCsvRow(g.record, protocol_.people().size());
  }
  writeFileAtomically(folder_ / "games.csv", games);
  std::string answers = "game,condition";
  for (const StudyItem& item : protocol_.items) answers += "," + item.key;
  answers += ",comment\n";
  for (const SessionGame& g : games_) {
    if (!g.answers) continue;
    answers += std::to_string(g.plan.index + 1) + "," +
               csvField(protocol_.conditions[g.plan.condition].name);
    for (double v : g.answers->values) (answers += ',') += csvNumber(v);
    ((answers += ',') += csvField(g.answers->comment)) += '\n';
  }
  writeFileAtomically(folder_ / "answers.csv", answers);
}

}  // namespace ddalab
