#include "studies/protocol.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "core/metrics.h"
#include "core/json_input.h"
#include "players/registry.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

const InputFileKind kProtocolFileKind{1 << 20, "a study protocol JSON file (ddalab-study/1)"};

// Games a participant may be asked to play: a session is hours of people's time, not thousands.
constexpr int kMaxGamesPerCondition = 100;
constexpr size_t kMaxConditions = 12;
constexpr size_t kMaxItems = 60;               // in all: the GEQ core module has 33
constexpr size_t kMaxQuestionnaireItems = 30;  // the protocol's own
constexpr size_t kMaxDemographics = 20;
constexpr size_t kMaxPageText = 20'000;  // a consent form of several pages

// Throws unless `key` can be a CSV column: letters, digits and '_'.
void checkColumnKey(const std::string& key, const std::string& where) {
  for (char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      throw InputError(
          where, "expected letters, digits and '_' (a CSV column), got '" + textExcerpt(key) + "'");
}

// Throws at `where` when `key` (of `what`) is one of the `columns` that `writer` writes itself:
// its header would hold that column twice, which pandas and R read wrongly.
void checkNotOwnColumn(const std::string& key, const std::vector<std::string>& columns,
                       const std::string& where, const std::string& what,
                       const std::string& writer) {
  if (std::find(columns.begin(), columns.end(), key) == columns.end()) return;
  std::string names;
  for (const std::string& column : columns) names += (names.empty() ? "" : ", ") + column;
  throw InputError(where, "the key '" + key + "' of " + what + " is a column " + writer +
                              " writes itself; expected a key other than " + names);
}

// An item's key is a column of answers.csv.
void checkItemKeyNotOwnColumn(const std::string& key, const std::string& where,
                              const std::string& what) {
  checkNotOwnColumn(key, answersCsvOwnColumns(), where, what, "answers.csv");
}

// The characters of UTF-8 `text` (checkShownTexts has refused invalid UTF-8).
size_t characterCount(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
  }));
}

// The byte offset of `text`'s first control character or invalid UTF-8 (line breaks and tabs
// allowed in a `multiLine` text); npos when there is none.
size_t findUnshowable(std::string_view text, bool multiLine) {
  for (size_t from = 0;;) {
    const size_t at = findUnprintable(text.substr(from));
    if (at == std::string_view::npos) return at;
    if (!multiLine || (text[from + at] != '\n' && text[from + at] != '\t')) return from + at;
    from += at + 1;
  }
}

// Every text of a protocol is shown: `validate`, `analyze` and `serve` print its name, conditions,
// items and instruments on a terminal, which would obey an escape sequence; the GUI and the web
// page show the rest. No string or key at `path` in `node` may hold a control character or
// invalid UTF-8; the long texts a page shows as paragraphs (the description, consent, instructions
// and debrief) may hold line breaks and tabs. The completion and online settings are left to their
// own checks, which allow printable ASCII only and say so.
void checkShownTexts(const Json& node, const std::string& path) {
  static const std::set<std::string> kMultiLine = {"$.description", "$.consent.text",
                                                   "$.instructions", "$.debrief"};
  if (path == "$.completion" || path == "$.online") return;
  if (node.is_string()) {
    const bool multiLine = kMultiLine.count(path) > 0;
    if (findUnshowable(node.get_ref<const std::string&>(), multiLine) != std::string::npos)
      throw InputError(path, std::string("expected a text without control characters") +
                                 (multiLine ? " other than line breaks and tabs" : "") +
                                 " (a terminal would obey them) and in UTF-8, got " +
                                 jsonExcerpt(node));
  } else if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (findUnshowable(key, false) != std::string::npos)
        throw InputError(path + "." + textExcerpt(key),
                         "expected a key without control characters and in UTF-8");
      checkShownTexts(value, path + "." + key);
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i)
      checkShownTexts(node[i], path + "[" + std::to_string(i) + "]");
  }
}

StudyItem parseItem(const Json& node, const std::string& path) {
  JsonFields fields(node, path, {"key", "text", "scale", "from", "low", "high"});
  StudyItem item;
  item.key = fields.string("key");
  checkColumnKey(item.key, fields.at("key"));
  checkItemKeyNotOwnColumn(item.key, fields.at("key"), "a questionnaire item");
  item.text = fields.string("text");
  const std::string scale = fields.string("scale", "likert7");
  const std::optional<StudyItem::Scale> named = studyScaleByName(scale);
  if (!named)
    throw InputError(fields.at("scale"),
                     "expected \"likert5\" (0-4 or 1-5), \"likert7\" (1-7) or "
                     "\"slider100\" (0-100), got \"" +
                         textExcerpt(scale) + "\"");
  item.scale = *named;
  const bool slider = item.scale == StudyItem::Scale::Slider100;
  item.from = static_cast<int>(fields.integer("from", 0, slider ? 0 : 1, slider ? 0 : 1));
  item.low = fields.string("low", slider ? "none" : "not at all");
  item.high = fields.string("high", slider ? "all" : "very much");
  return item;
}

// The protocol's own items ("questionnaire"), or none when it names instruments and has none.
std::vector<StudyItem> parseQuestionnaire(const JsonFields& fields, bool& comment) {
  const Json* node = fields.find("questionnaire");
  if (!node) return {};
  const std::string path = fields.at("questionnaire");
  JsonFields q(*node, path, {"items", "comment"});
  if (const Json* c = q.find("comment")) {
    if (!c->is_boolean())
      throw InputError(q.at("comment"), "expected true or false, got " + jsonExcerpt(*c));
    comment = c->get<bool>();
  }
  const Json& list = q.get("items");
  if (!list.is_array() || list.empty() || list.size() > kMaxQuestionnaireItems)
    throw InputError(q.at("items"), "expected an array of 1 to " +
                                        std::to_string(kMaxQuestionnaireItems) + " items, got " +
                                        jsonExcerpt(list));
  std::vector<StudyItem> items;
  for (size_t i = 0; i < list.size(); ++i)
    items.push_back(parseItem(list[i], q.at("items") + "[" + std::to_string(i) + "]"));
  return items;
}

// "dice" in dice games, "cards" otherwise: what the manipulation item asks about.
std::string chanceDevice(const std::string& gameId) {
  return gameId == "ludo" || gameId == "pig" ? "dice" : "cards";
}

// One entry of "instruments": a built-in id, a file NAME.json beside the protocol (`base`; none
// when the protocol is read from a session, which records every instrument inline), or an
// instrument object.
StudyInstrument resolveInstrument(const Json& entry, const std::string& at,
                                  const std::optional<fs::path>& base, const std::string& chance) {
  if (entry.is_object()) return parseInstrument(entry, at, chance);
  if (!entry.is_string() || entry.get<std::string>().empty())
    throw InputError(at,
                     "expected an instrument id, a file NAME.json or an instrument object, got " +
                         jsonExcerpt(entry));
  const std::string name = entry.get<std::string>();
  if (!name.ends_with(".json")) return parseInstrument(builtinInstrument(name, at), at, chance);
  if (!base)
    throw InputError(at, "expected the instrument itself (a session records it), got the file '" +
                             textExcerpt(name) + "'");
  const fs::path file = fs::path(name).is_absolute() ? fs::path(name) : *base / name;
  try {
    return loadInstrumentFile(file, chance);
  } catch (const InputError& e) {
    throw InputError(at + " (" + e.path() + ")", e.message());
  }
}

// The protocol's instruments, their items and subscales appended to `p`; each instrument is
// written into `document` as the object it is, so a session records what was asked.
void addInstruments(const JsonFields& fields, StudyProtocol& p, Json& document,
                    const std::optional<fs::path>& base, const std::string& chance) {
  const Json* list = fields.find("instruments");
  if (!list) return;
  if (!list->is_array() || list->empty() || list->size() > kMaxConditions)
    throw InputError(fields.at("instruments"),
                     "expected an array of 1 to " + std::to_string(kMaxConditions) +
                         " instruments (ids, files or objects), got " + jsonExcerpt(*list));
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string at = fields.at("instruments") + "[" + std::to_string(i) + "]";
    const StudyInstrument instrument = resolveInstrument((*list)[i], at, base, chance);
    if (!(*list)[i].is_object()) checkShownTexts(instrument.document, at);  // a file's, a built-in
    for (const StudyItem& item : instrument.items)
      checkItemKeyNotOwnColumn(item.key, at, "an item of " + instrument.id);
    const size_t first = p.items.size();
    p.items.insert(p.items.end(), instrument.items.begin(), instrument.items.end());
    for (StudySubscale s : instrument.subscales) {
      for (size_t& item : s.items) item += first;
      p.subscales.push_back(s);
    }
    p.instruments.push_back(instrument.name + ": " + instrument.citation);
    document["instruments"][i] = instrument.document;
  }
}

// Every item and subscale key names one column: refused at `where` when two share one.
void checkKeysUnique(const StudyProtocol& p, const std::string& where) {
  if (p.items.empty() || p.items.size() > kMaxItems)
    throw InputError(where, "expected 1 to " + std::to_string(kMaxItems) +
                                " items in all (instruments and questionnaire), got " +
                                std::to_string(p.items.size()));
  std::set<std::string> keys;
  for (const StudyItem& item : p.items)
    if (!keys.insert(item.key).second)
      throw InputError(where, "the key '" + item.key + "' is used twice (" +
                                  (item.instrument.empty() ? "questionnaire" : item.instrument) +
                                  "); expected one key per item and subscale");
  for (const StudySubscale& s : p.subscales)
    if (!keys.insert(s.key).second)
      throw InputError(where, "the subscale key '" + s.key + "' of " + s.instrument +
                                  " is used twice; expected one key per item and subscale");
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

// The seat `study simulate` puts in the participant's place, validated as the experiments it
// plays (an AI: a person cannot be simulated), so that a mistake is refused before any folder
// exists, with its path in the protocol: "$.simulated_person.level".
void validateSimulatedPerson(const StudyProtocol& p, const std::string& source) {
  if (p.simulatedPerson.is_null()) return;
  const std::string at = source + ": $.simulated_person";
  if (p.simulatedPerson.is_object() && p.simulatedPerson.value("id", Json()) == Json(kPersonSeat))
    throw InputError(at + ".id", "expected an AI's id (a person cannot be simulated), got \"" +
                                     std::string(kPersonSeat) + "\"");
  const std::vector<bool> people = p.people();
  const std::string seat =
      "$.players[" +
      std::to_string(std::find(people.begin(), people.end(), true) - people.begin()) + "]";
  for (size_t c = 0; c < p.conditions.size(); ++c) {
    try {
      parsePlayedExperiment(p.simulatedExperiment(c), p.seed, "");
    } catch (const InputError& e) {
      std::string where = e.path();
      if (where.starts_with(": ")) where = where.substr(2);
      throw InputError(where.starts_with(seat) ? at + where.substr(seat.size()) : at, e.message());
    }
  }
}

}  // namespace

std::vector<std::string> answersCsvOwnColumns() {
  std::vector<std::string> columns(kAnswersCsvLeadColumns.begin(), kAnswersCsvLeadColumns.end());
  columns.push_back(kAnswersCsvCommentColumn);
  return columns;
}

std::vector<std::string> exportOwnColumns() {
  std::vector<std::string> columns(kExportParticipantColumns.begin(),
                                   kExportParticipantColumns.end());
  columns.insert(columns.end(), kExportGameColumns.begin(), kExportGameColumns.end());
  for (const MetricInfo& info : allMetrics()) columns.push_back(info.key);
  columns.insert(columns.end(), kExportAnswerColumns.begin(), kExportAnswerColumns.end());
  return columns;
}

std::vector<StudyItem> defaultStudyItems(const std::string& gameId) {
  return parseInstrument(builtinInstrument("ddalab-quick", "ddalab-quick"), "ddalab-quick",
                         chanceDevice(gameId))
      .items;
}

std::vector<std::string> StudyProtocol::missingTexts() const {
  std::vector<std::string> keys;
  for (const StudyItem& item : items)
    if (item.text.empty()) keys.push_back(item.key);
  return keys;
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

namespace {

// The protocol's "analysis" at `path`, its item and conditions those of `p`.
StudyAnalysisPlan parseAnalysisPlan(const Json& node, const std::string& path,
                                    const StudyProtocol& p) {
  JsonFields fields(node, path, {"primary", "alpha"});
  StudyAnalysisPlan plan;
  if (const Json* alpha = fields.find("alpha")) {
    if (!alpha->is_number() || !(alpha->get<double>() > 0 && alpha->get<double>() < 0.5))
      throw InputError(fields.at("alpha"),
                       "expected a number between 0 and 0.5, got " + jsonExcerpt(*alpha));
    plan.alpha = alpha->get<double>();
  }
  const Json* primary = fields.find("primary");
  if (!primary) return plan;
  JsonFields f(*primary, fields.at("primary"), {"item", "contrast"});
  plan.primaryItem = f.string("item");
  std::string keys;
  bool known = false;
  std::vector<std::string> analysed;  // items and the instruments' subscales alike
  for (const StudyItem& item : p.items) analysed.push_back(item.key);
  for (const StudySubscale& subscale : p.subscales) analysed.push_back(subscale.key);
  for (const std::string& key : analysed) {
    known = known || key == plan.primaryItem;
    keys += (keys.empty() ? "" : ", ") + key;
  }
  if (!known)
    throw InputError(f.at("item"), "unknown item '" + textExcerpt(plan.primaryItem) +
                                       "'; expected one of the questionnaire's items or "
                                       "subscales: " +
                                       keys);
  const Json& contrast = f.get("contrast");
  if (!contrast.is_array() || contrast.size() != 2 || !contrast[0].is_string() ||
      !contrast[1].is_string() || contrast[0] == contrast[1])
    throw InputError(f.at("contrast"),
                     "expected two different condition names [first, second] "
                     "(first minus second), got " +
                         jsonExcerpt(contrast));
  for (size_t k = 0; k < 2; ++k) {
    const std::string name = contrast[k].get<std::string>();
    std::string names;
    bool found = false;
    for (const StudyCondition& c : p.conditions) {
      found = found || c.name == name;
      names += (names.empty() ? "" : ", ") + c.name;
    }
    if (!found)
      throw InputError(f.at("contrast") + "[" + std::to_string(k) + "]",
                       "unknown condition '" + textExcerpt(name) + "'; expected one of " + names);
  }
  plan.primaryFirst = contrast[0].get<std::string>();
  plan.primarySecond = contrast[1].get<std::string>();
  return plan;
}

// A text a participant reads (consent, instructions, debrief) at `where`: non-empty, bounded in
// characters (a form in French or Greek is as long as one in English).
std::string pageText(const Json& node, const std::string& where) {
  if (!node.is_string() || node.get<std::string>().empty() ||
      characterCount(node.get<std::string>()) > kMaxPageText)
    throw InputError(where, "expected a text of 1 to " + std::to_string(kMaxPageText) +
                                " characters, got " + jsonExcerpt(node));
  return node.get<std::string>();
}

// A button's or an option's label at `where`: non-empty, one line, bounded.
std::string labelText(const Json& node, const std::string& where) {
  if (!node.is_string() || node.get<std::string>().empty() ||
      characterCount(node.get<std::string>()) > 200)  // one line: checkShownTexts
    throw InputError(where,
                     "expected a one-line label of 1 to 200 characters, got " + jsonExcerpt(node));
  return node.get<std::string>();
}

DemographicItem parseDemographic(const Json& node, const std::string& path) {
  JsonFields fields(node, path, {"key", "text", "options"});
  DemographicItem item;
  item.key = fields.string("key");
  checkColumnKey(item.key, fields.at("key"));
  item.text = labelText(fields.get("text"), fields.at("text"));
  const Json& options = fields.get("options");
  if (!options.is_array() || options.size() < 2 || options.size() > 20)
    throw InputError(fields.at("options"),
                     "expected an array of 2 to 20 options, got " + jsonExcerpt(options));
  std::set<std::string> seen;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string at = fields.at("options") + "[" + std::to_string(i) + "]";
    item.options.push_back(labelText(options[i], at));
    if (!seen.insert(item.options.back()).second)
      throw InputError(at, "the option '" + item.options.back() + "' is listed twice");
  }
  return item;
}

// The protocol's "consent", "demographics", "instructions" and "debrief" (each optional).
StudyPages parsePages(const JsonFields& fields, const StudyProtocol& p) {
  StudyPages pages;
  if (const Json* consent = fields.find("consent")) {
    JsonFields c(*consent, fields.at("consent"), {"text", "agree", "decline"});
    pages.consent = pageText(c.get("text"), c.at("text"));
    if (c.has("agree")) pages.agree = labelText(c.get("agree"), c.at("agree"));
    if (c.has("decline")) pages.decline = labelText(c.get("decline"), c.at("decline"));
    if (pages.agree == pages.decline)
      throw InputError(c.at("decline"), "expected a label other than the agree button's");
  }
  if (const Json* items = fields.find("demographics")) {
    if (!items->is_array() || items->size() > kMaxDemographics)
      throw InputError(fields.at("demographics"), "expected an array of up to " +
                                                      std::to_string(kMaxDemographics) +
                                                      " items, got " + jsonExcerpt(*items));
    std::set<std::string> keys;
    for (const StudyItem& item : p.items) keys.insert(item.key);
    for (size_t i = 0; i < items->size(); ++i) {
      const std::string at = fields.at("demographics") + "[" + std::to_string(i) + "]";
      pages.demographics.push_back(parseDemographic((*items)[i], at));
      checkNotOwnColumn(pages.demographics.back().key, exportOwnColumns(), at + ".key",
                        "a demographics question", "the export");
      if (!keys.insert(pages.demographics.back().key).second)
        throw InputError(at + ".key", "the key '" + pages.demographics.back().key +
                                          "' is used twice (by an item or another question); "
                                          "expected one column per key");
    }
  }
  if (fields.has("instructions"))
    pages.instructions = pageText(fields.get("instructions"), fields.at("instructions"));
  if (fields.has("debrief")) pages.debrief = pageText(fields.get("debrief"), fields.at("debrief"));
  return pages;
}

// A string at `where` of 1 to `maxSize` characters, each one `allowed`.
template <typename Allowed>
std::string wordAt(const Json& node, const std::string& where, size_t maxSize, Allowed allowed,
                   const std::string& expected) {
  const std::string word = node.is_string() ? node.get<std::string>() : "";
  if (!node.is_string() || word.empty() || word.size() > maxSize ||
      !std::all_of(word.begin(), word.end(), allowed))
    throw InputError(where, "expected " + expected + ", got " + jsonExcerpt(node));
  return word;
}

// The protocol's "completion" ({"code", "redirect"}) and "online" ({"id_param",
// "timeout_minutes"}), each optional, with their defaults.
StudyOnline parseOnline(const JsonFields& fields) {
  StudyOnline online;
  const auto printable = [](char c) { return c > ' ' && c < 127; };  // no space, no control
  if (const Json* completion = fields.find("completion")) {
    JsonFields c(*completion, fields.at("completion"), {"code", "redirect"});
    if (c.has("code"))
      online.completionCode = wordAt(c.get("code"), c.at("code"), 64, printable,
                                     "a code of 1 to 64 printable ASCII characters without spaces");
    if (c.has("redirect")) {
      const std::string expected =
          "an https:// URL of at most 2000 printable ASCII characters without spaces";
      online.completionRedirect =
          wordAt(c.get("redirect"), c.at("redirect"), 2000, printable, expected);
      if (!online.completionRedirect.starts_with("https://") ||
          online.completionRedirect.size() == std::string("https://").size())
        throw InputError(c.at("redirect"),
                         "expected " + expected + ", got " + jsonExcerpt(c.get("redirect")));
    }
  }
  if (const Json* settings = fields.find("online")) {
    JsonFields o(*settings, fields.at("online"), {"id_param", "timeout_minutes"});
    const auto word = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    if (o.has("id_param"))
      online.idParam = wordAt(o.get("id_param"), o.at("id_param"), 40, word,
                              "a query parameter name of 1 to 40 letters, digits or '_'");
    if (o.has("timeout_minutes")) {
      const Json& minutes = o.get("timeout_minutes");
      if (!minutes.is_number() || !(minutes.get<double>() > 0 && minutes.get<double>() <= 1440))
        throw InputError(o.at("timeout_minutes"),
                         "expected a number of minutes, more than 0 and at most 1440 (a day), "
                         "got " +
                             jsonExcerpt(minutes));
      online.timeoutMinutes = minutes.get<double>();
    }
  }
  return online;
}

}  // namespace

StudyProtocol parseStudyProtocol(const Json& document, const std::string& source,
                                 const std::optional<fs::path>& base) {
  try {
    checkNestingDepth(document, source);
    checkShownTexts(document, "$");  // before any message quotes one
    JsonFields fields(document, "$",
                      {"format",
                       "name",
                       "description",
                       "seed",
                       "game",
                       "seats",
                       "coefficients",
                       "conditions",
                       "games_per_condition",
                       "pace_ms",
                       "order",
                       "instruments",
                       "questionnaire",
                       "simulated_person",
                       "analysis",
                       "consent",
                       "demographics",
                       "instructions",
                       "debrief",
                       "completion",
                       "online"});
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
    p.paceMs = static_cast<int>(fields.integer("pace_ms", 0, 10000, kDefaultStudyPaceMs));
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
    Json recorded = document;
    addInstruments(fields, p, recorded, base, chanceDevice(gameId));
    const std::vector<StudyItem> own = parseQuestionnaire(fields, p.comment);
    p.items.insert(p.items.end(), own.begin(), own.end());
    if (p.items.empty()) p.items = defaultStudyItems(gameId);
    checkKeysUnique(
        p, fields.has("instruments") ? fields.at("instruments") : fields.at("questionnaire"));
    p.pages = parsePages(fields, p);
    p.online = parseOnline(fields);
    if (const Json* person = fields.find("simulated_person")) p.simulatedPerson = *person;
    if (const Json* plan = fields.find("analysis"))
      p.analysis = parseAnalysisPlan(*plan, fields.at("analysis"), p);
    const std::vector<bool> people = personSeats(p.experiment(0));
    if (std::count(people.begin(), people.end(), true) != 1)
      throw InputError(fields.at("seats"),
                       "expected exactly one seat {\"id\": \"" + std::string(kPersonSeat) +
                           "\"} (the participant), got " + jsonExcerpt(p.seats));
    validateConditions(p, source);
    validateSimulatedPerson(p, source);
    p.document = recorded;
    return p;
  } catch (const InputError& e) {
    if (e.path().starts_with(source)) throw;
    throw InputError(source + ": " + e.path(), e.message());
  }
}

StudyProtocol loadStudyProtocol(const fs::path& file) {
  const std::string text = readInputFile(file, kProtocolFileKind);
  return parseStudyProtocol(parseJsonText(text, file.string()), file.string(), file.parent_path());
}

bool isStudyProtocolFile(const fs::path& file) {
  try {
    const Json document = parseJsonText(readInputFile(file, kProtocolFileKind), file.string());
    return document.is_object() && document.value("format", Json()) == Json(kStudyFormat);
  } catch (const std::exception&) {
    return false;
  }
}

std::string describeInstruments(const StudyProtocol& p) {
  std::string text;
  for (const std::string& instrument : p.instruments) text += "  instrument " + instrument + "\n";
  if (!p.subscales.empty())
    text += "  " + std::to_string(p.subscales.size()) +
            " subscales, scored and analysed like items, with Cronbach's alpha\n";
  const std::vector<std::string> missing = p.missingTexts();
  if (!missing.empty())
    text += "  WARNING: " + std::to_string(missing.size()) + " items have no text (" +
            missing.front() + (missing.size() > 1 ? " ... " + missing.back() : std::string()) +
            "): an instrument shipped without its item texts (licence). `study simulate` runs; a "
            "participant's session cannot start until a copy of the instrument file with the "
            "texts filled in is named in \"instruments\"\n";
  return text;
}

void checkTextsFilledIn(const StudyProtocol& protocol) {
  const std::vector<std::string> missing = protocol.missingTexts();
  if (missing.empty()) return;
  std::string keys;
  for (const std::string& key : missing) keys += (keys.empty() ? "" : ", ") + key;
  throw InputError("protocol " + protocol.name,
                   "the items " + keys +
                       " have no text (an instrument shipped without its item texts, as its "
                       "licence asks); expected them filled in: copy the instrument's file, enter "
                       "the texts from its source and name the copy in \"instruments\"");
}

void checkStudyAnswer(const StudyItem& item, const Json& value, const std::string& where) {
  const bool whole = value.is_number() && std::isfinite(value.get<double>()) &&
                     value.get<double>() == std::round(value.get<double>());
  if (!whole || value.get<double>() < item.min() || value.get<double>() > item.max())
    throw InputError(where, "expected a whole number in [" + std::to_string(item.min()) + ", " +
                                std::to_string(item.max()) + "] (the item's scale), got " +
                                jsonExcerpt(value));
}

}  // namespace ddalab
