#include "studies/instrument.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/json_input.h"

namespace ddalab {

// The shipped instruments' files as text, by id (generated from studies/instruments/*.json).
extern const std::pair<const char*, const char*> kBuiltinInstrumentFiles[];
extern const size_t kBuiltinInstrumentCount;

namespace {

// Every scale with its name in the files: the one place that spells them.
constexpr std::pair<StudyItem::Scale, const char*> kScaleNames[] = {
    {StudyItem::Scale::Likert5, "likert5"},
    {StudyItem::Scale::Likert7, "likert7"},
    {StudyItem::Scale::Slider100, "slider100"}};

const InputFileKind kInstrumentFileKind{1 << 20, "an instrument JSON file (ddalab-instrument/1)"};
constexpr size_t kMaxInstrumentItems = 60;

bool isKey(const std::string& key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

const Json& array(const JsonFields& fields, const char* key, size_t min, size_t max,
                  const std::string& what) {
  const Json& list = fields.get(key);
  if (!list.is_array() || list.size() < min || list.size() > max)
    throw InputError(fields.at(key), "expected an array of " + std::to_string(min) + " to " +
                                         std::to_string(max) + " " + what + ", got " +
                                         jsonExcerpt(list));
  return list;
}

std::string stringOf(const Json& v, const std::string& where, bool mayBeEmpty) {
  if (!v.is_string() || (!mayBeEmpty && v.get<std::string>().empty()))
    throw InputError(where, std::string("expected a ") + (mayBeEmpty ? "" : "non-empty ") +
                                "string, got " + jsonExcerpt(v));
  return v.get<std::string>();
}

// "IJsselsteijn, W. A., ... (2013). The Game Experience Questionnaire. TU Eindhoven."
std::string citationOf(const JsonFields& instrument) {
  JsonFields s(instrument.get("source"), instrument.at("source"),
               {"authors", "year", "title", "publisher", "see_also"});
  std::string citation = s.string("authors") + " (" +
                         std::to_string(s.integer("year", 1900, 2100)) + "). " + s.string("title") +
                         ". " + s.string("publisher") + ".";
  if (s.has("see_also")) citation += " See also: " + s.string("see_also");
  return citation;
}

}  // namespace

std::optional<StudyItem::Scale> studyScaleByName(const std::string& name) {
  for (const auto& [scale, spelled] : kScaleNames)
    if (name == spelled) return scale;
  return std::nullopt;
}

const char* studyScaleName(StudyItem::Scale scale) {
  for (const auto& [known, spelled] : kScaleNames)
    if (known == scale) return spelled;
  return "likert7";  // not reached: every scale is in the table
}

namespace {

// The scale every item of the instrument shares: its type, first point and anchors.
StudyItem scaleOf(const JsonFields& fields) {
  StudyItem scale;
  const std::string type = fields.string("scale");
  const std::optional<StudyItem::Scale> named = studyScaleByName(type);
  if (!named)
    throw InputError(
        fields.at("scale"),
        "expected \"likert5\", \"likert7\" or \"slider100\", got \"" + textExcerpt(type) + "\"");
  scale.scale = *named;
  const bool slider = scale.scale == StudyItem::Scale::Slider100;
  scale.from = static_cast<int>(fields.integer("from", 0, slider ? 0 : 1, slider ? 0 : 1));
  const Json& anchors = fields.get("anchors");
  const auto points = static_cast<size_t>(scale.max() - scale.min() + 1);
  if (!anchors.is_array() || (anchors.size() != 2 && (slider || anchors.size() != points)))
    throw InputError(
        fields.at("anchors"),
        "expected an array of the scale's two end labels" +
            (slider ? std::string() : " or one label per point (" + std::to_string(points) + ")") +
            ", got " + jsonExcerpt(anchors));
  for (size_t i = 0; i < anchors.size(); ++i) {
    const bool end = i == 0 || i + 1 == anchors.size();
    scale.anchors.push_back(
        stringOf(anchors[i], fields.at("anchors") + "[" + std::to_string(i) + "]", !end));
  }
  scale.low = scale.anchors.front();
  scale.high = scale.anchors.back();
  if (scale.anchors.size() != points) scale.anchors.clear();
  return scale;
}

std::vector<StudyItem> itemsOf(const JsonFields& fields, const StudyItem& scale,
                               const std::string& id, bool textsIncluded,
                               const std::string& chance) {
  const Json& list = array(fields, "items", 1, kMaxInstrumentItems, "items");
  std::vector<StudyItem> items;
  std::set<std::string> keys;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = fields.at("items") + "[" + std::to_string(i) + "]";
    JsonFields f(list[i], at, {"key", "text", "low", "high"});
    StudyItem item = scale;
    item.instrument = id;
    item.key = f.string("key");
    if (!isKey(item.key))
      throw InputError(f.at("key"), "expected letters, digits and '_' (a CSV column), got '" +
                                        textExcerpt(item.key) + "'");
    if (!keys.insert(item.key).second)
      throw InputError(f.at("key"), "the key '" + item.key +
                                        "' is used twice; expected one key "
                                        "per item");
    item.text = stringOf(f.get("text"), f.at("text"), !textsIncluded);
    if (const size_t c = item.text.find("{chance}"); c != std::string::npos)
      item.text.replace(c, 8, chance);
    if (f.has("low") || f.has("high")) item.anchors.clear();  // the item's own ends
    item.low = f.string("low", item.low);
    item.high = f.string("high", item.high);
    items.push_back(item);
  }
  return items;
}

// The index of item `key` among `items`; InputError at `where` when the instrument has none.
size_t itemIndex(const std::vector<StudyItem>& items, const Json& key, const std::string& where,
                 const std::string& role) {
  const std::string name = stringOf(key, where, false);
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].key == name) return i;
  throw InputError(where, role + " '" + textExcerpt(name) +
                              "' is not an item of this instrument; expected one of its keys");
}

void markReversed(const JsonFields& fields, std::vector<StudyItem>& items) {
  const Json& list = array(fields, "reverse_scored", 0, items.size(), "item keys");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = fields.at("reverse_scored") + "[" + std::to_string(i) + "]";
    StudyItem& item = items[itemIndex(items, list[i], at, "the reverse-scored item")];
    if (item.reversed) throw InputError(at, "the item '" + item.key + "' is named twice");
    item.reversed = true;
  }
}

std::vector<StudySubscale> subscalesOf(const JsonFields& fields,
                                       const std::vector<StudyItem>& items, const std::string& id) {
  const Json& list = array(fields, "subscales", 0, items.size(), "subscales");
  std::vector<StudySubscale> subscales;
  std::set<std::string> keys;
  for (const StudyItem& item : items) keys.insert(item.key);
  for (size_t s = 0; s < list.size(); ++s) {
    const std::string at = fields.at("subscales") + "[" + std::to_string(s) + "]";
    JsonFields f(list[s], at, {"key", "name", "items"});
    StudySubscale subscale{f.string("key"), f.string("name"), id, {}};
    if (!isKey(subscale.key) || !keys.insert(subscale.key).second)
      throw InputError(f.at("key"),
                       "expected a key of letters, digits and '_' that no item or "
                       "other subscale has, got '" +
                           textExcerpt(subscale.key) + "'");
    const Json& members = array(f, "items", 1, items.size(), "item keys");
    for (size_t k = 0; k < members.size(); ++k) {
      const std::string where = f.at("items") + "[" + std::to_string(k) + "]";
      const size_t index = itemIndex(items, members[k], where, "the subscale's item");
      if (std::count(subscale.items.begin(), subscale.items.end(), index))
        throw InputError(where, "the item '" + items[index].key + "' is named twice");
      subscale.items.push_back(index);
    }
    subscales.push_back(subscale);
  }
  return subscales;
}

}  // namespace

StudyInstrument parseInstrument(const Json& document, const std::string& source,
                                const std::string& chance) {
  try {
    checkNestingDepth(document, source);
    JsonFields fields(document, "$",
                      {"format", "id", "name", "description", "source", "licence", "scale", "from",
                       "anchors", "items", "reverse_scored", "subscales"});
    if (fields.string("format") != kInstrumentFormat)
      throw InputError(fields.at("format"), std::string("expected \"") + kInstrumentFormat +
                                                "\", got " + jsonExcerpt(fields.get("format")));
    StudyInstrument instrument;
    instrument.id = fields.string("id");
    instrument.name = fields.string("name");
    fields.string("description", "");
    instrument.citation = citationOf(fields);
    JsonFields licence(fields.get("licence"), fields.at("licence"), {"texts_included", "note"});
    const Json& included = licence.get("texts_included");
    if (!included.is_boolean())
      throw InputError(licence.at("texts_included"),
                       "expected true (the licence lets the item texts be shipped) or false, got " +
                           jsonExcerpt(included));
    instrument.textsIncluded = included.get<bool>();
    instrument.licence = licence.string("note");
    instrument.items =
        itemsOf(fields, scaleOf(fields), instrument.id, instrument.textsIncluded, chance);
    markReversed(fields, instrument.items);
    instrument.subscales = subscalesOf(fields, instrument.items, instrument.id);
    instrument.document = document;
    return instrument;
  } catch (const InputError& e) {
    if (e.path().starts_with(source)) throw;
    throw InputError(source + ": " + e.path(), e.message());
  }
}

StudyInstrument loadInstrumentFile(const std::filesystem::path& file, const std::string& chance) {
  const std::string text = readInputFile(file, kInstrumentFileKind);
  return parseInstrument(parseJsonText(text, file.string()), file.string(), chance);
}

std::vector<std::string> builtinInstrumentIds() {
  std::vector<std::string> ids;
  for (size_t i = 0; i < kBuiltinInstrumentCount; ++i)
    ids.emplace_back(kBuiltinInstrumentFiles[i].first);
  return ids;
}

Json builtinInstrument(const std::string& id, const std::string& where) {
  std::string valid;
  for (size_t i = 0; i < kBuiltinInstrumentCount; ++i) {
    if (id == kBuiltinInstrumentFiles[i].first)
      return parseJsonText(kBuiltinInstrumentFiles[i].second,
                           "studies/instruments/" + id + ".json");
    valid += (valid.empty() ? "" : ", ") + std::string(kBuiltinInstrumentFiles[i].first);
  }
  throw InputError(where, "unknown instrument '" + textExcerpt(id) + "'; expected one of " + valid +
                              " or an instrument file (NAME.json, beside the protocol)");
}

}  // namespace ddalab
