#include "studies/study.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

#include "core/metrics.h"
#include "core/rng.h"
#include "experiments/json_input.h"
#include "experiments/sha256.h"
#include "players/registry.h"
#include "results/csv.h"
#include "results/file_io.h"
#include "studies/allocation.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

const InputFileKind kProtocolFileKind{1 << 20, "a study protocol JSON file (ddalab-study/1)"};
const InputFileKind kSessionFileKind{64 << 20, "a session file of ddalab"};

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
  if (scale == "slider100")
    item.scale = StudyItem::Scale::Slider100;
  else if (scale == "likert5")
    item.scale = StudyItem::Scale::Likert5;
  else if (scale != "likert7")
    throw InputError(fields.at("scale"),
                     "expected \"likert5\" (0-4 or 1-5), \"likert7\" (1-7) or "
                     "\"slider100\" (0-100), got \"" +
                         textExcerpt(scale) + "\"");
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

int orderRows(const StudyProtocol& protocol) {
  if (protocol.order != OrderScheme::LatinSquare) return 0;
  const size_t n = protocol.conditions.size();
  return static_cast<int>(n % 2 == 1 ? 2 * n : n);
}

int cyclicRow(const StudyProtocol& protocol, int ordinal) {
  const int rows = orderRows(protocol);
  return rows == 0 ? -1 : ordinal % rows;
}

std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal, int row) {
  const size_t n = protocol.conditions.size();
  std::vector<size_t> order;
  if (protocol.order == OrderScheme::LatinSquare) {
    const auto rows = balancedLatinSquare(n);
    if (row < 0 || static_cast<size_t>(row) >= rows.size())
      throw std::logic_error("planGames: no order row " + std::to_string(row));
    const auto& conditions = rows[static_cast<size_t>(row)];
    for (int round = 0; round < protocol.gamesPerCondition; ++round)
      order.insert(order.end(), conditions.begin(), conditions.end());
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

std::vector<PlannedGame> planGames(const StudyProtocol& protocol, int ordinal) {
  return planGames(protocol, ordinal, cyclicRow(protocol, ordinal));
}

// ---- Session folders

namespace {

// "<prefix>-NN.json" for game `index` (numbered from 1, two digits at least).
std::string numberedName(const char* prefix, int index) {
  char name[64];
  std::snprintf(name, sizeof name, "%s-%02d.json", prefix, index + 1);
  return name;
}

fs::path gameFile(const fs::path& folder, int index) {
  return folder / numberedName("game", index);
}

fs::path answersFile(const fs::path& folder, int index) {
  return folder / numberedName("answers", index);
}

Json readJson(const fs::path& file) {
  return parseJsonText(readInputFile(file, kSessionFileKind), file.string());
}

void checkParticipant(const std::string& id, const std::string& where) {
  if (id.empty() || id.size() > 100)
    throw InputError(
        where, "expected a participant id of 1 to 100 characters, got '" + textExcerpt(id) + "'");
}

// The plan as session.json records it: every game's number, condition and seed.
Json planJson(const StudyProtocol& protocol, const std::vector<PlannedGame>& plan) {
  Json games = Json::array();
  for (const PlannedGame& g : plan)
    games.push_back({{"index", g.index},
                     {"condition", protocol.conditions[g.condition].name},
                     {"seed", g.seed}});
  return games;
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
  const Json document = readJson(file);
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

// game-NN.json of game `planned` (its number, condition, record of the plan's seed and a trace),
// with its answers when they were given.
SessionGame readGame(const fs::path& folder, const StudyProtocol& protocol,
                     const PlannedGame& planned) {
  const fs::path file = gameFile(folder, planned.index);
  const Json document = readJson(file);
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
  const fs::path answers = answersFile(folder, planned.index);
  if (fs::exists(answers)) game.answers = readAnswers(answers, protocol, planned);
  return game;
}

// The game and answers files a session folder holds must be those of the plan's first games, in
// order, each game's answers after the game: one listing of the folder.
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
      throw InputError(answersFile(folder, index).string(),
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

}  // namespace

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

StudySession StudySession::open(const fs::path& folder, const StudyProtocol& protocol,
                                const std::string& participant, IdOrigin origin) {
  checkParticipant(participant, "participant");
  checkTextsFilledIn(protocol);
  const fs::path file = folder / "session.json";
  const fs::path study = folder.parent_path().empty() ? fs::path(".") : folder.parent_path();
  if (fs::exists(file)) {
    StudySession existing = read(folder);
    if (existing.checksum_ != sha256Hex(protocol.document.dump()))
      throw InputError(file.string(), "holds a session of another protocol (" +
                                          existing.protocol().name + "); expected one of " +
                                          protocol.name);
    if (existing.participant_ != participant)
      throw InputError(file.string(), "holds participant '" + existing.participant_ +
                                          "'; expected '" + participant + "'");
    // A crash between dropout.json and the log: the log learns it now.
    if (!existing.dropoutReason_.empty())
      recordDropoutInLog(study, participant, existing.dropoutReason_);
    return existing;
  }
  const Allocation allocation = allocateParticipant(study, protocol, participant);
  return create(folder, std::make_shared<const StudyProtocol>(protocol), participant,
                allocation.ordinal, allocation.row, origin);
}

namespace {

const char* originName(StudySession::IdOrigin origin) {
  return origin == StudySession::IdOrigin::Generated ? "generated" : "given";
}

// The session file's "row": an order row of the protocol's (or -1 for the order "random"); a
// session written before rows were recorded took cyclicRow's.
int readRow(const JsonFields& fields, const StudyProtocol& protocol, int ordinal) {
  if (!fields.has("row")) return cyclicRow(protocol, ordinal);
  const int rows = orderRows(protocol);
  if (rows == 0) return static_cast<int>(fields.integer("row", -1, -1));
  return static_cast<int>(fields.integer("row", 0, rows - 1));
}

}  // namespace

StudySession StudySession::create(const fs::path& folder,
                                  std::shared_ptr<const StudyProtocol> protocol,
                                  const std::string& participant, int ordinal,
                                  std::optional<int> row, IdOrigin origin, bool simulated) {
  checkParticipant(participant, "participant");
  const fs::path file = folder / "session.json";
  if (fs::exists(file))
    throw InputError(file.string(), "holds a session already; expected a folder without one");
  fs::create_directories(folder);
  StudySession s = inMemory(std::move(protocol), participant, ordinal);
  s.folder_ = folder;
  s.idOrigin_ = origin;
  s.simulated_ = simulated;
  if (row) {
    s.row_ = *row;
    s.plan_ = planGames(*s.protocol_, ordinal, *row);
  }
  Json session = {{"format", kSessionFormat},
                  {"participant", participant},
                  {"id_origin", originName(origin)},
                  {"ordinal", ordinal},
                  {"row", s.row_},
                  {"protocol_sha256", s.checksum_},
                  {"protocol", s.protocol_->document},
                  {"plan", planJson(*s.protocol_, s.plan_)}};
  if (simulated) session["simulated"] = true;
  writeFileAtomically(file, session.dump(2) + "\n");
  syncFolder(folder);
  s.writeCsvs();
  return s;
}

StudySession StudySession::read(const fs::path& folder) {
  const fs::path file = folder / "session.json";
  const Json session = readJson(file);
  const std::string source = file.string();
  if (!session.is_object() || session.value("format", Json()) != Json(kSessionFormat))
    throw InputError(source, std::string("not a session folder: expected \"format\": \"") +
                                 kSessionFormat + "\"");
  JsonFields fields(session, source + ": $",
                    {"format", "participant", "id_origin", "ordinal", "row", "protocol_sha256",
                     "protocol", "plan", "simulated"});
  StudySession s;
  s.folder_ = folder;
  s.protocol_ = std::make_shared<const StudyProtocol>(
      parseStudyProtocol(fields.get("protocol"), source + " ($.protocol)"));
  s.checksum_ = fields.string("protocol_sha256");
  if (s.checksum_ != sha256Hex(s.protocol_->document.dump()))
    throw InputError(fields.at("protocol_sha256"),
                     "does not match the protocol the file records: was it edited?");
  s.participant_ = fields.string("participant");
  checkParticipant(s.participant_, fields.at("participant"));
  const std::string origin = fields.string("id_origin", "given");
  if (origin != "given" && origin != "generated")
    throw InputError(fields.at("id_origin"),
                     "expected \"given\" or \"generated\", got \"" + textExcerpt(origin) + "\"");
  s.idOrigin_ = origin == "generated" ? IdOrigin::Generated : IdOrigin::Given;
  if (const Json* simulated = fields.find("simulated")) {
    if (!simulated->is_boolean())
      throw InputError(fields.at("simulated"),
                       "expected true or false, got " + jsonExcerpt(*simulated));
    s.simulated_ = simulated->get<bool>();
  }
  s.ordinal_ = static_cast<int>(fields.integer("ordinal", 0, kMaxSessionOrdinal));
  s.row_ = readRow(fields, *s.protocol_, s.ordinal_);
  s.plan_ = planGames(*s.protocol_, s.ordinal_, s.row_);
  const Json expected = planJson(*s.protocol_, s.plan_);
  const Json& plan = fields.get("plan");
  if (!plan.is_array() || plan.size() != expected.size())
    throw InputError(fields.at("plan"), "expected the protocol's plan of " +
                                            std::to_string(expected.size()) + " games, got " +
                                            jsonExcerpt(plan));
  for (size_t i = 0; i < plan.size(); ++i)
    expectValue(plan[i], expected[i], fields.at("plan") + "[" + std::to_string(i) + "]",
                "the protocol's game " + std::to_string(i + 1) + " for participant number " +
                    std::to_string(s.ordinal_) + ", row " + std::to_string(s.row_ + 1));
  s.load();
  return s;
}

StudySession StudySession::inMemory(std::shared_ptr<const StudyProtocol> protocol,
                                    const std::string& participant, int ordinal) {
  StudySession s;
  s.protocol_ = std::move(protocol);
  s.checksum_ = sha256Hex(s.protocol_->document.dump());
  s.participant_ = participant;
  s.ordinal_ = ordinal;
  s.row_ = cyclicRow(*s.protocol_, ordinal);
  s.plan_ = planGames(*s.protocol_, ordinal, s.row_);
  s.simulated_ = true;
  return s;
}

StudySession StudySession::withDerivedAnswers(
    std::shared_ptr<const StudyProtocol> protocol,
    const std::function<std::vector<double>(const std::vector<double>&)>& derive) const {
  StudySession copy = *this;
  copy.folder_.clear();  // nothing of it is written
  copy.protocol_ = std::move(protocol);
  for (SessionGame& g : copy.games_)
    if (g.answers) {
      const std::vector<double> more = derive(g.answers->values);
      g.answers->values.insert(g.answers->values.end(), more.begin(), more.end());
    }
  return copy;
}

namespace {

// A page record (consent.json, instructions.json, ...) of `folder`, or none when absent; refused
// when it is not a regular file (a link to another session's consent is not this one's).
std::optional<Json> readRecord(const fs::path& folder, const char* name) {
  const fs::path file = folder / name;
  if (!fs::exists(fs::symlink_status(file))) return std::nullopt;
  checkRegularFile(file, "the participant's record");
  return readJson(file);
}

// {"timing": {...}} of a record file read from `file`, allowing `more` keys besides.
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

}  // namespace

void StudySession::load() {
  checkSessionFiles(folder_, plan_.size());
  games_.clear();
  for (const PlannedGame& planned : plan_) {
    if (!fs::exists(gameFile(folder_, planned.index))) break;
    games_.push_back(readGame(folder_, *protocol_, planned));
  }
  const std::string base = folder_.string() + "/";
  if (const auto consent = readRecord(folder_, "consent.json")) {
    JsonFields fields(*consent, base + "consent.json: $", {"agreed", "timing"});
    const Json& agreed = fields.get("agreed");
    if (!agreed.is_boolean())
      throw InputError(fields.at("agreed"), "expected true or false, got " + jsonExcerpt(agreed));
    consent_ = recordTiming(fields);
    declined_ = !agreed.get<bool>();
  }
  if (const auto demographics = readRecord(folder_, "demographics.json"))
    demographics_ = readDemographics(*demographics, base + "demographics.json", protocol_->pages);
  for (const auto& [name, timing] :
       {std::pair{"instructions.json", &instructions_}, std::pair{"debrief.json", &debrief_}})
    if (const auto record = readRecord(folder_, name)) {
      JsonFields fields(*record, base + name + ": $", {"timing"});
      *timing = recordTiming(fields);
    }
  if (const auto dropout = readRecord(folder_, "dropout.json")) {
    JsonFields fields(*dropout, base + "dropout.json: $", {"reason", "at"});
    dropoutReason_ = fields.string("reason");
  }
  if (declined_ && dropoutReason_.empty()) dropoutReason_ = kDeclinedConsent;
}

SessionStep StudySession::step() const {
  if (declined_) return SessionStep::Declined;
  if (!dropoutReason_.empty()) return SessionStep::DroppedOut;
  // A simulated participant reads nothing: its pages are empty.
  const StudyPages pages = simulated_ ? StudyPages{} : protocol_->pages;
  if (!pages.consent.empty() && !consent_) return SessionStep::Consent;
  if (!pages.demographics.empty() && !demographics_) return SessionStep::Demographics;
  if (!pages.instructions.empty() && !instructions_) return SessionStep::Instructions;
  if (next()) return needsAnswersOnly() ? SessionStep::Questionnaire : SessionStep::Game;
  if (!pages.debrief.empty() && !debrief_) return SessionStep::Debrief;
  return SessionStep::Complete;
}

bool StudySession::consented() const {
  return simulated_ || protocol_->pages.consent.empty() || (consent_ && !declined_);
}

std::string StudySession::statusText() const {
  switch (step()) {
    case SessionStep::Complete:
      return "complete";
    case SessionStep::Declined:
      return "consent declined";
    case SessionStep::DroppedOut:
      return "dropped out: " + dropoutReason_;
    default:
      return std::to_string(answered()) + " of " + std::to_string(plan_.size()) + " answered";
  }
}

void StudySession::expectStep(SessionStep expected, const char* what) const {
  if (step() != expected)
    throw std::logic_error(std::string("StudySession::") + what + ": not the session's step now");
}

void StudySession::writeRecord(const char* name, const Json& record) const {
  if (folder_.empty()) return;
  writeFileAtomically(folder_ / name, record.dump(2) + "\n");
  syncFolder(folder_);
}

void StudySession::recordConsent(bool agreed, const ResponseTiming& timing) {
  expectStep(SessionStep::Consent, "recordConsent");
  writeRecord("consent.json", {{"agreed", agreed}, {"timing", timingJson(timing)}});
  consent_ = timing;
  if (!agreed) {
    declined_ = true;
    markDropout(kDeclinedConsent);
  }
}

void StudySession::saveDemographics(const DemographicAnswers& answers) {
  expectStep(SessionStep::Demographics, "saveDemographics");
  const std::vector<DemographicItem>& items = protocol_->pages.demographics;
  if (answers.values.size() != items.size())
    throw InputError("demographics",
                     "expected " + std::to_string(items.size()) + " answers, one per question");
  Json values = Json::object();
  for (size_t i = 0; i < items.size(); ++i) {
    if (std::find(items[i].options.begin(), items[i].options.end(), answers.values[i]) ==
        items[i].options.end())
      throw InputError(
          "demographics." + items[i].key,
          "expected one of the question's options, got '" + textExcerpt(answers.values[i]) + "'");
    values[items[i].key] = answers.values[i];
  }
  writeRecord("demographics.json", {{"answers", values}, {"timing", timingJson(answers.timing)}});
  demographics_ = answers;
}

void StudySession::recordInstructionsRead(const ResponseTiming& timing) {
  expectStep(SessionStep::Instructions, "recordInstructionsRead");
  writeRecord("instructions.json", {{"timing", timingJson(timing)}});
  instructions_ = timing;
}

void StudySession::recordDebriefRead(const ResponseTiming& timing) {
  expectStep(SessionStep::Debrief, "recordDebriefRead");
  writeRecord("debrief.json", {{"timing", timingJson(timing)}});
  debrief_ = timing;
}

void StudySession::recordDropout(const std::string& reason) {
  if (sessionEnded(step())) return;
  markDropout(reason);
}

void StudySession::markDropout(const std::string& reason) {
  if (reason.empty() || reason.size() > 200)
    throw InputError("reason", "expected a reason of 1 to 200 characters");
  writeRecord("dropout.json",
              {{"reason", reason}, {"at", utcTimestamp(std::chrono::system_clock::now())}});
  dropoutReason_ = reason;
  if (!folder_.empty())
    recordDropoutInLog(folder_.parent_path().empty() ? fs::path(".") : folder_.parent_path(),
                       participant_, reason);
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

void StudySession::saveGame(const PlannedGame& game, const GameRecord& record, const Json& trace,
                            std::span<const DecisionTiming> decisions) {
  const PlayedStudyGame played[] = {
      {game, record, trace, std::vector<DecisionTiming>(decisions.begin(), decisions.end())}};
  saveGames(played);
}

void StudySession::saveGames(std::span<const PlayedStudyGame> games) {
  for (size_t k = 0; k < games.size(); ++k)
    if (games[k].plan.index != static_cast<int>(games_.size() + k))
      throw std::logic_error("StudySession::saveGames: games are kept in the plan's order");
  if (!dropoutReason_.empty())
    throw std::logic_error("StudySession::saveGames: the participant has left the study");
  if (!folder_.empty()) {  // on the disk first: a failed write keeps nothing
    for (const PlayedStudyGame& g : games) {
      Json j = {{"index", g.plan.index},
                {"condition", protocol_->conditions[g.plan.condition].name},
                {"record", recordJson(g.record)},
                {"trace", g.trace}};
      if (!g.decisions.empty()) {
        Json& decisions = j["decisions"] = Json::array();
        for (const DecisionTiming& d : g.decisions) decisions.push_back(decisionJson(d));
      }
      writeFileAtomically(gameFile(folder_, g.plan.index), j.dump() + "\n");
    }
    syncFolder(folder_);
  }
  for (const PlayedStudyGame& g : games)
    games_.push_back({g.plan, g.record, std::nullopt, g.decisions});
  if (!folder_.empty()) writeCsvs();
}

namespace {

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

void StudySession::saveAnswers(int index, const StudyAnswers& answers) {
  saveAnswers(index, std::span(&answers, 1));
}

void StudySession::saveAnswers(int first, std::span<const StudyAnswers> answers) {
  if (first < 0 || first + answers.size() > games_.size())
    throw std::logic_error("StudySession::saveAnswers: the game has not been played");
  if (!dropoutReason_.empty())
    throw std::logic_error("StudySession::saveAnswers: the participant has left the study");
  const std::vector<StudyItem>& items = protocol_->items;
  std::vector<Json> files;
  for (size_t k = 0; k < answers.size(); ++k) {
    if (answers[k].values.size() != items.size())
      throw InputError("answers",
                       "expected " + std::to_string(items.size()) + " answers, one per item");
    Json values = Json::object();
    for (size_t i = 0; i < items.size(); ++i) {
      values[items[i].key] = answers[k].values[i];
      checkStudyAnswer(items[i], values[items[i].key], "answers." + items[i].key);
    }
    Json file = {{"index", first + static_cast<int>(k)},
                 {"answers", values},
                 {"comment", answers[k].comment}};
    if (answers[k].timing) addAnswerTiming(file, answers[k], items);
    files.push_back(std::move(file));
  }
  if (!folder_.empty()) {
    for (const Json& j : files)
      writeFileAtomically(answersFile(folder_, j["index"].get<int>()), j.dump(2) + "\n");
    syncFolder(folder_);
  }
  for (size_t k = 0; k < answers.size(); ++k)
    games_[static_cast<size_t>(first) + k].answers = answers[k];
  if (!folder_.empty()) writeCsvs();
}

void StudySession::writeCsvs() const {
  // games.csv: the games-CSV row of every game played, with its position and condition in front.
  const StudyProtocol& protocol = *protocol_;
  const size_t seats = protocol.people().size();
  std::string games = "game,condition," + gamesCsvHeader(seats);
  for (const SessionGame& g : games_) {
    games += std::to_string(g.plan.index + 1) + "," +
             csvField(protocol.conditions[g.plan.condition].name) + ",";
    games += gamesCsvRow(g.record, seats);
  }
  writeFileAtomically(folder_ / "games.csv", games);
  std::string answers;
  for (const char* column : kAnswersCsvLeadColumns)
    (answers += answers.empty() ? "" : ",") += column;
  for (const StudyItem& item : protocol.items) answers += "," + item.key;
  answers += std::string(",") + kAnswersCsvCommentColumn + "\n";
  for (const SessionGame& g : games_) {
    if (!g.answers) continue;
    answers += std::to_string(g.plan.index + 1) + "," +
               csvField(protocol.conditions[g.plan.condition].name);
    for (double v : g.answers->values) (answers += ',') += csvNumber(v);
    ((answers += ',') += csvField(g.answers->comment)) += '\n';
  }
  writeFileAtomically(folder_ / "answers.csv", answers);
}

}  // namespace ddalab
