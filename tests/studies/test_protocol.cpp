// What a study protocol may say: keys that would duplicate a column of the CSVs, texts
// with control characters a terminal would obey, page texts bounded in characters, at most 30
// questionnaire items, and nothing on a person's seat but its id.
#include <catch2/catch.hpp>
#include <string>

#include "studies/study.h"
#include "tests/support.h"

using namespace ddalab;

namespace {

Json protocol() {
  return Json::parse(R"({
    "format": "ddalab-study/1", "name": "texts", "seed": 3,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "a", "environment": {"id": "e-random"}},
                   {"name": "b", "environment": {"id": "e-random"}}],
    "questionnaire": {"items": [{"key": "fun", "text": "How much fun was it?"}]},
    "consent": {"text": "You play two games."},
    "demographics": [{"key": "age_band", "text": "Your age", "options": ["18-34", "35+"]}]})");
}

std::string refusal(const Json& document) {
  return refusalOf([&] { parseStudyProtocol(document, "p.json"); });
}

// The protocol with `value` at JSON pointer `pointer`.
Json with(const char* pointer, const Json& value) {
  Json document = protocol();
  document[Json::json_pointer(pointer)] = value;
  return document;
}

// `count` copies of `text`.
std::string repeated(const std::string& text, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += text;
  return out;
}

}  // namespace

TEST_CASE("a protocol key that is a column the CSVs write themselves is refused, naming it",
          "[study][protocol]") {
  REQUIRE(refusal(protocol()) == "accepted");
  // answers.csv: game,condition,<items>,comment.
  for (const std::string key : {"game", "condition", "comment"})
    CHECK_THAT(refusal(with("/questionnaire/items/0/key", key)),
               Catch::Contains("p.json: $.questionnaire.items[0].key: the key '" + key +
                               "' of a questionnaire item is a column answers.csv writes "
                               "itself; expected a key other than game, condition, comment"));
  // An instrument's item, given inline.
  Json instrument = Json::parse(R"({
    "format": "ddalab-instrument/1", "id": "mine", "name": "Mine",
    "source": {"authors": "A.", "year": 2020, "title": "T", "publisher": "P"},
    "licence": {"texts_included": true, "note": "ours"},
    "scale": "likert7", "anchors": ["no", "yes"],
    "items": [{"key": "condition", "text": "Which?"}], "reverse_scored": [], "subscales": []})");
  Json withInstrument = protocol();
  withInstrument["instruments"] = Json::array({instrument});
  CHECK_THAT(refusal(withInstrument),
             Catch::Contains("p.json: $.instruments[0]: the key 'condition' of an item of mine is "
                             "a column answers.csv writes itself"));
  // The export: demographics keys are columns beside its own, the metrics' included.
  for (const std::string key : {"status", "participant", "period", "tension", "item", "answer"})
    CHECK_THAT(refusal(with("/demographics/0/key", key)),
               Catch::Contains("p.json: $.demographics[0].key: the key '" + key +
                               "' of a demographics question is a column the export writes "
                               "itself; expected a key other than participant, order_row, "
                               "status, period,"));
  // The lists are the writers' own: every one is refused, none other.
  for (const std::string& column : answersCsvOwnColumns())
    CHECK_THAT(refusal(with("/questionnaire/items/0/key", column)),
               Catch::Contains("answers.csv writes itself"));
  for (const std::string& column : exportOwnColumns())
    CHECK_THAT(refusal(with("/demographics/0/key", column)),
               Catch::Contains("the export writes itself"));
  CHECK(refusal(with("/questionnaire/items/0/key", "tension")) == "accepted");  // a row's value
}

TEST_CASE("protocol texts shown on a terminal may hold no control characters",
          "[study][protocol]") {
  CHECK_THAT(refusal(with("/name", "x\x1b]0;owned\x07\x1b[2J")),
             Catch::Contains("p.json: $.name: expected a text without control characters (a "
                             "terminal would obey them)") &&
                 Catch::Contains("\\u001b"));
  CHECK_THAT(refusal(with("/conditions/1/name", "b\x1b[31m")),
             Catch::Contains("p.json: $.conditions[1].name: expected a text without control"));
  CHECK_THAT(refusal(with("/questionnaire/items/0/text", "Fun?\n")),
             Catch::Contains("$.questionnaire.items[0].text: expected a text without control"));
  CHECK_THAT(refusal(with("/demographics/0/options/1", "35+\r")),
             Catch::Contains("$.demographics[0].options[1]: expected a text without control"));
  CHECK_THAT(refusal(with("/questionnaire/items/0/high",
                          "\xc2\x9b"
                          "2J")),  // C1 CSI
             Catch::Contains("$.questionnaire.items[0].high: expected a text without control"));
  CHECK_THAT(refusal(with("/name", "\xff")), Catch::Contains("$.name: expected a text without"));
  CHECK_THAT(refusal(with("/seats/1/params", {{"x\x1b", 1}})),
             Catch::Contains("expected a key without control characters"));
  // The pages' long texts are paragraphs: line breaks and tabs, nothing else.
  CHECK(refusal(with("/consent/text", "Welcome.\n\n\tYou play two games.")) == "accepted");
  CHECK(refusal(with("/instructions", "Roll.\nMove.")) == "accepted");
  CHECK(refusal(with("/description", "A study.\nOf two games.")) == "accepted");
  CHECK_THAT(refusal(with("/debrief", "Thanks.\x1b[2J")),
             Catch::Contains("p.json: $.debrief: expected a text without control characters "
                             "other than line breaks and tabs"));
  // A session's recorded protocol is read by the same rules.
  CHECK_THAT(refusalOf([] {
               parseStudyProtocol(with("/name", "n\x1b"), "ann/session.json ($.protocol)");
             }),
             Catch::Contains("ann/session.json ($.protocol): $.name: expected a text without"));
}

TEST_CASE("page texts and labels are bounded in characters, not bytes", "[study][protocol]") {
  const std::string e = "\xc3\xa9";  // é: 2 bytes
  CHECK(refusal(with("/consent/text", repeated(e, 20'000))) == "accepted");
  CHECK(refusal(with("/instructions", repeated("\xe2\x82\xac", 20'000))) == "accepted");  // €
  CHECK_THAT(refusal(with("/consent/text", repeated(e, 20'001))),
             Catch::Contains("$.consent.text: expected a text of 1 to 20000 characters"));
  CHECK(refusal(with("/demographics/0/options/0", repeated(e, 200))) == "accepted");
  CHECK_THAT(refusal(with("/demographics/0/options/0", repeated(e, 201))),
             Catch::Contains("a one-line label of 1 to 200 characters"));
}

TEST_CASE("a questionnaire has at most 30 items of its own", "[study][protocol]") {
  Json items = Json::array();
  for (int i = 0; i < 31; ++i)
    items.push_back({{"key", "q" + std::to_string(i)}, {"text", "Question?"}});
  CHECK_THAT(refusal(with("/questionnaire/items", items)),
             Catch::Contains("p.json: $.questionnaire.items: expected an array of 1 to 30 items"));
  items.erase(items.size() - 1);
  CHECK(refusal(with("/questionnaire/items", items)) == "accepted");
}

TEST_CASE("a person's seat takes no level or params: refused, not ignored", "[study][protocol]") {
  CHECK_THAT(refusal(with("/seats/0/level", 50)),
             Catch::Contains("p.json: $.seats[0].level: a person's seat takes no 'level' (it "
                             "would be ignored); expected {\"id\": \"human\"}"));
  CHECK_THAT(refusal(with("/seats/0/params", {{"depth", 2}})),
             Catch::Contains("p.json: $.seats[0].params: a person's seat takes no 'params'"));
  CHECK(refusal(with("/seats/1/level", 50)) == "accepted");  // an AI's
}
