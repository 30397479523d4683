// Questionnaire instruments as data: the shipped files validated, hostile files
// refused with the file, JSON path and expectation, protocols that name instruments, reverse
// scoring, and Cronbach's alpha pinned against R's formula.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "studies/analysis.h"
#include "studies/analysis_files.h"
#include "studies/instrument.h"
#include "studies/simulate.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

const fs::path kSourceDir = fs::path(__FILE__).parent_path().parent_path().parent_path();

// A valid instrument of three 1-7 items, the third reverse-scored, one subscale of all three.
Json threeItems() {
  return Json::parse(R"({
    "format": "ddalab-instrument/1", "id": "three", "name": "Three items",
    "source": {"authors": "A. Author", "year": 2020, "title": "Three items", "publisher": "P"},
    "licence": {"texts_included": true, "note": "ours"},
    "scale": "likert7", "anchors": ["no", "yes"],
    "items": [{"key": "a", "text": "A?"}, {"key": "b", "text": "B?"}, {"key": "c", "text": "C?"}],
    "reverse_scored": ["c"],
    "subscales": [{"key": "abc", "name": "ABC", "items": ["a", "b", "c"]}]})");
}

// The message parseInstrument gives for `document`.
std::string refusal(const Json& document) {
  try {
    parseInstrument(document, "i.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

Json protocolWith(const Json& instruments) {
  Json p = Json::parse(R"({
    "format": "ddalab-study/1", "name": "t", "seed": 7,
    "game": {"id": "ludo", "params": {"players": 2}},
    "seats": [{"id": "human"}, {"id": "random"}],
    "conditions": [{"name": "plain", "environment": {"id": "e-random"}}],
    "simulated_person": {"id": "random"}})");
  p["instruments"] = instruments;
  return p;
}

std::string protocolRefusal(const Json& document) {
  try {
    parseStudyProtocol(document, "p.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// Participants answering once each (one game, one condition) with `rows`, kept in memory.
StudySessions answeredOnce(const Json& protocolDocument,
                           const std::vector<std::vector<double>>& rows) {
  auto protocol = std::make_shared<const StudyProtocol>(parseStudyProtocol(protocolDocument, "p"));
  StudySessions study{*protocol, {}};
  for (size_t p = 0; p < rows.size(); ++p) {
    const std::string participant = std::to_string(p + 1);  // "p" + ... trips g++ 12's -Wrestrict
    StudySession s = StudySession::inMemory(protocol, participant, static_cast<int>(p));
    GameRecord record;
    record.numPlayers = 2;
    record.metrics[static_cast<size_t>(Metric::LeadChanges)] = static_cast<double>(p);  // varies
    record.seed = s.plan()[0].seed;
    s.saveGame(s.plan()[0], record, Json::object());
    s.saveAnswers(0, StudyAnswers{rows[p], ""});
    study.sessions.push_back(std::move(s));
  }
  return study;
}

// x of R's check (tests/studies/test_instrument.cpp): 8 respondents, 3 items on 0-4.
const std::vector<std::vector<double>> kRows = {{3, 4, 3}, {2, 2, 1}, {4, 4, 4}, {1, 2, 2},
                                                {3, 3, 4}, {0, 1, 1}, {2, 3, 2}, {4, 3, 3}};
// y: 6 respondents, 1-7, the third item reverse-scored.
const std::vector<std::vector<double>> kReversedRows = {{6, 7, 2}, {5, 5, 3}, {2, 3, 6},
                                                        {7, 6, 1}, {4, 4, 4}, {3, 2, 5}};

}  // namespace

TEST_CASE("the shipped instruments are valid and say what they are", "[instruments]") {
  std::set<std::string> files;
  for (const auto& entry : fs::directory_iterator(kSourceDir / "studies/instruments")) {
    INFO(entry.path());
    const StudyInstrument i = loadInstrumentFile(entry.path());
    CHECK(i.id == entry.path().stem().string());
    CHECK(!i.citation.empty());
    CHECK(!i.licence.empty());
    // Built in as the same text: a protocol naming the id gets this file.
    CHECK(builtinInstrument(i.id, "x") == i.document);
    files.insert(i.id);
  }
  const std::vector<std::string> ids = builtinInstrumentIds();
  CHECK(std::set<std::string>(ids.begin(), ids.end()) == files);
  CHECK(files == std::set<std::string>{"ddalab-quick", "geq-core", "igeq", "imi-interest"});

  const auto load = [](const char* id) {
    return loadInstrumentFile(kSourceDir / "studies/instruments" / (std::string(id) + ".json"));
  };
  const auto covered = [](const StudyInstrument& i) {  // every item in exactly one subscale
    std::vector<int> count(i.items.size(), 0);
    for (const StudySubscale& s : i.subscales)
      for (size_t item : s.items) ++count[item];
    return std::all_of(count.begin(), count.end(), [](int c) { return c == 1; });
  };
  for (const char* id : {"igeq", "geq-core"}) {
    INFO(id);
    const StudyInstrument geq = load(id);
    CHECK(geq.items.size() == (std::string(id) == "igeq" ? 14u : 33u));
    CHECK(geq.subscales.size() == 7);
    CHECK(covered(geq));
    CHECK(geq.items[0].min() == 0);
    CHECK(geq.items[0].max() == 4);
    CHECK(geq.items[0].anchors.size() == 5);
    CHECK(!geq.textsIncluded);  // no licence found that lets the texts be shipped
    CHECK(geq.items[0].text.empty());
  }
  const StudyInstrument imi = load("imi-interest");
  REQUIRE(imi.items.size() == 7);
  CHECK(imi.items[0].min() == 1);
  CHECK(imi.items[0].max() == 7);
  std::vector<std::string> reversed;
  for (const StudyItem& item : imi.items)
    if (item.reversed) reversed.push_back(item.key);
  CHECK(reversed == std::vector<std::string>{"imi_03", "imi_04"});
  CHECK(imi.subscales.size() == 1);
  CHECK(covered(imi));
  CHECK(!imi.items[2].text.empty());
  // ddalab-quick is today's five items, word for word (the default questionnaire is read from it).
  const StudyInstrument quick =
      loadInstrumentFile(kSourceDir / "studies/instruments/ddalab-quick.json", "dice");
  const std::vector<StudyItem> defaults = defaultStudyItems("ludo");
  REQUIRE(quick.items.size() == 5);
  CHECK(quick.items[3].text == "The dice seemed manipulated.");
  CHECK(defaultStudyItems("lost-cities")[3].text == "The cards seemed manipulated.");
  CHECK(quick.items[4].low == "very easy");
}

TEST_CASE("hostile instrument files are refused with the file, the JSON path and the expectation",
          "[instruments]") {
  CHECK(refusal(threeItems()) == "accepted");
  const auto refused = [](const std::function<void(Json&)>& edit, const std::string& path,
                          const std::string& expectation) {
    Json bad = threeItems();
    edit(bad);
    const std::string message = refusal(bad);
    INFO(message);
    CHECK_THAT(message, Catch::Contains("i.json: " + path) && Catch::Contains(expectation));
  };
  refused([](Json& j) { j.erase("items"); }, "$.items", "missing required key");
  refused([](Json& j) { j["items"] = Json::array(); }, "$.items", "expected an array of 1 to");
  refused([](Json& j) { j["reverse_scored"] = {"d"}; }, "$.reverse_scored[0]",
          "'d' is not an item of this instrument");
  refused([](Json& j) { j["subscales"][0]["items"][1] = "zz"; }, "$.subscales[0].items[1]",
          "'zz' is not an item of this instrument");
  refused(
      [](Json& j) {
        j["subscales"][0]["items"] = {"a", "a"};
      },
      "$.subscales[0].items[1]", "named twice");
  refused([](Json& j) { j["subscales"][0]["key"] = "a"; }, "$.subscales[0].key",
          "that no item or other subscale has");
  refused([](Json& j) { j["scale"] = "likert6"; }, "$.scale",
          "expected \"likert5\", \"likert7\" or \"slider100\"");
  refused([](Json& j) { j["from"] = 2; }, "$.from", "expected an integer in [0, 1]");
  refused([](Json& j) { j["anchors"] = {"a", "b", "c"}; }, "$.anchors", "one label per point (7)");
  refused([](Json& j) { j["items"][1]["text"] = ""; }, "$.items[1].text",
          "expected a non-empty string");  // texts_included: every text is there
  refused([](Json& j) { j["items"][2]["key"] = "a"; }, "$.items[2].key", "used twice");
  refused([](Json& j) { j["items"][0]["key"] = "a b"; }, "$.items[0].key", "letters, digits");
  refused([](Json& j) { j["licence"].erase("texts_included"); }, "$.licence.texts_included",
          "missing required key");
  refused([](Json& j) { j["source"]["year"] = "2013"; }, "$.source.year", "expected an integer");
  refused([](Json& j) { j["format"] = "ddalab-instrument/2"; }, "$.format",
          "\"ddalab-instrument/1\"");
  refused([](Json& j) { j["colour"] = 1; }, "$.colour", "unknown key");

  // Without texts (a licence that forbids shipping them) an empty text is accepted...
  Json open = threeItems();
  open["licence"]["texts_included"] = false;
  open["items"][1]["text"] = "";
  CHECK(refusal(open) == "accepted");
  // ... and a file names itself.
  TempDir dir;
  std::ofstream(dir.path() / "bad.json") << R"({"format": "ddalab-instrument/1", "id": "x"})";
  CHECK_THROWS_WITH(loadInstrumentFile(dir.path() / "bad.json"),
                    Catch::Contains((dir.path() / "bad.json").string() + ": $.name"));
}

TEST_CASE("a protocol names instruments, its own items or both, each key once", "[instruments]") {
  const StudyProtocol p = parseStudyProtocol(protocolWith({"igeq", "imi-interest"}), "p.json");
  CHECK(p.items.size() == 21);
  CHECK(p.subscales.size() == 8);
  CHECK(p.items[14].key == "imi_01");
  CHECK(p.subscales[7].items.front() == 14);  // indexes into the protocol's items
  CHECK(p.missingTexts().size() == 14);
  // The session records each instrument itself, not its id: what was asked stays with the data.
  CHECK(p.document["instruments"][0].is_object());
  CHECK(parseStudyProtocol(p.document, "session").items.size() == 21);

  CHECK_THAT(protocolRefusal(protocolWith({"igeq", "geq"})),
             Catch::Contains("p.json: $.instruments[1]") &&
                 Catch::Contains("unknown instrument 'geq'; expected one of ddalab-quick, "
                                 "geq-core, igeq, imi-interest"));
  CHECK_THAT(protocolRefusal(protocolWith({"igeq", "igeq"})),
             Catch::Contains("$.instruments") && Catch::Contains("'igeq_01' is used twice"));
  CHECK_THAT(protocolRefusal(protocolWith(Json::array())), Catch::Contains("$.instruments"));
  // A file: beside the protocol when read from one, refused inside a session's record.
  CHECK_THAT(protocolRefusal(protocolWith({"mine.json"})),
             Catch::Contains("$.instruments[0]") && Catch::Contains("a session records it"));
  Json hostile = threeItems();
  hostile["reverse_scored"] = {"q"};
  CHECK_THAT(protocolRefusal(protocolWith(Json::array({hostile}))),
             Catch::Contains("p.json: $.instruments[0]") && Catch::Contains("$.reverse_scored[0]"));

  // Both: the instruments' items, then the protocol's own; a key twice refused.
  Json both = protocolWith({"imi-interest"});
  both["questionnaire"] = {{"items", {{{"key", "manipulated"}, {"text", "Rigged?"}}}}};
  const StudyProtocol mixed = parseStudyProtocol(both, "p.json");
  CHECK(mixed.items.size() == 8);
  CHECK(mixed.items.back().key == "manipulated");
  both["questionnaire"]["items"][0]["key"] = "imi_interest_enjoyment";
  CHECK_THAT(protocolRefusal(both),
             Catch::Contains("'imi_interest_enjoyment' of imi-interest is used twice"));

  // The protocol's own items take the new scales too.
  Json own = protocolWith(Json::array());
  own.erase("instruments");
  own["questionnaire"] = {
      {"items", {{{"key", "x"}, {"text", "X?"}, {"scale", "likert5"}, {"from", 0}}}}};
  const StudyProtocol five = parseStudyProtocol(own, "p.json");
  CHECK(five.items[0].min() == 0);
  CHECK(five.items[0].max() == 4);
  own["questionnaire"]["items"][0]["scale"] = "slider100";
  own["questionnaire"]["items"][0]["from"] = 1;
  CHECK_THAT(protocolRefusal(own),
             Catch::Contains("$.questionnaire.items[0].from") && Catch::Contains("[0, 0]"));
}

TEST_CASE("an instrument without texts cannot start a person's session until they are filled in",
          "[instruments]") {
  TempDir dir;
  std::ofstream(dir.path() / "p.json") << protocolWith({"igeq"}).dump();
  const StudyProtocol empty = loadStudyProtocol(dir.path() / "p.json");
  CHECK_THROWS_WITH(StudySession::open(dir.path() / "s1", empty, "P1"),
                    Catch::Contains("igeq_01, igeq_02") && Catch::Contains("have no text"));
  CHECK(!fs::exists(dir.path() / "s1"));
  // A copy with the texts filled in, named beside the protocol, runs.
  Json filled = builtinInstrument("igeq", "x");
  for (Json& item : filled["items"]) item["text"] = "Text of " + item["key"].get<std::string>();
  std::ofstream(dir.path() / "igeq-filled.json") << filled.dump();
  std::ofstream(dir.path() / "p.json", std::ios::trunc)
      << protocolWith({"igeq-filled.json"}).dump();
  const StudyProtocol full = loadStudyProtocol(dir.path() / "p.json");
  CHECK(full.missingTexts().empty());
  CHECK_NOTHROW(StudySession::open(dir.path() / "s1", full, "P1"));
  std::ofstream(dir.path() / "p.json", std::ios::trunc) << protocolWith({"none.json"}).dump();
  CHECK_THROWS_WITH(loadStudyProtocol(dir.path() / "p.json"),
                    Catch::Contains("$.instruments[0]") && Catch::Contains("none.json"));
}

TEST_CASE("Cronbach's alpha equals R's formula on fixed data", "[instruments]") {
  // R: k/(k-1) * (1 - sum(apply(x, 2, var)) / var(rowSums(x)))
  CHECK(cronbachAlpha(kRows) == Approx(0.925190839694656).epsilon(1e-12));
  std::vector<std::vector<double>> scored = kReversedRows;
  for (auto& row : scored) row[2] = 8 - row[2];
  CHECK(cronbachAlpha(scored) == Approx(0.973244147157191).epsilon(1e-12));
  CHECK(cronbachAlpha(kReversedRows) == Approx(-3.0).epsilon(1e-12));  // R, unreversed
  CHECK(std::isnan(cronbachAlpha({{1, 2}})));                          // one respondent
  CHECK(std::isnan(cronbachAlpha({{1}, {2}, {3}})));                   // one item
  CHECK(std::isnan(cronbachAlpha({{2, 2}, {2, 2}})));                  // no variance
}

TEST_CASE("the analysis reverse-scores, scores subscales as items and reports their alpha",
          "[instruments]") {
  const StudySessions study =
      answeredOnce(protocolWith(Json::array({threeItems()})), kReversedRows);
  REQUIRE(study.protocol.items[2].reversed);
  CHECK(study.protocol.items[2].scored(2) == 6);  // min + max - x
  const StudyAnalysis a = analyzeStudy(study, 11);
  REQUIRE(a.items.size() == 4);
  CHECK(a.items[3].key == "abc");
  // The subscale's mean: every participant's mean of a, b and 8 - c, averaged.
  double sum = 0;
  for (const auto& row : kReversedRows) sum += (row[0] + row[1] + 8 - row[2]) / 3;
  const auto mean =
      std::find_if(a.means.begin(), a.means.end(), [](const auto& m) { return m.item == "abc"; });
  REQUIRE(mean != a.means.end());
  CHECK(mean->mean == Approx(sum / 6).epsilon(1e-12));
  // Item c itself is analysed as answered.
  CHECK(a.means[2].mean == Approx((2 + 3 + 6 + 1 + 4 + 5) / 6.0));
  CHECK(std::count_if(a.correlations.begin(), a.correlations.end(),
                      [](const auto& c) { return c.item == "abc"; }) > 0);
  REQUIRE(a.reliability.size() == 1);
  const auto& r = a.reliability[0];
  CHECK(r.alpha == Approx(0.973244147157191).epsilon(1e-12));
  CHECK(r.questionnaires == 6);
  CHECK(r.low <= r.alpha);
  CHECK(r.high >= r.alpha);
  CHECK(r.low < r.high);
  // Seeded: the same interval again.
  const StudyAnalysis again = analyzeStudy(study, 11);
  CHECK(again.reliability[0].low == r.low);
  TempDir dir;
  writeStudyAnalysis(dir.path(), a, study.protocol);
  std::ifstream csv(dir.path() / "study-reliability.csv");
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  CHECK(header ==
        "subscale,instrument,items,questionnaires,participants,cronbach_alpha,ci95_low,"
        "ci95_high");
  CHECK_THAT(row, Catch::StartsWith("abc,three,3,6,6,0.97324"));
}

TEST_CASE("the shipped iGEQ protocol runs end to end in study simulate",
          "[instruments][simulate]") {
  TempDir dir;
  const StudyProtocol protocol =
      loadStudyProtocol(kSourceDir / "studies/protocols/user-study-ludo-igeq.json");
  StudySimulation simulation;
  simulation.participants = 6;
  simulation.effects = parsePlantedEffects("igeq_positive_affect:e-hillclimber=1.5", protocol, "x");
  simulateStudy(protocol, dir.path() / "sim", simulation);
  const fs::path folders[] = {dir.path() / "sim"};
  const StudyAnalysis a = analyzeStudy(readStudySessions(folders));
  CHECK(a.participants == 6);
  CHECK(a.items.size() == protocol.items.size() + 8);
  REQUIRE(a.reliability.size() == 8);
  for (const auto& r : a.reliability) {
    INFO(r.subscale);
    CHECK(r.alpha > 0.4);  // the simulated items of a subscale share a latent answer
    CHECK(r.questionnaires == 24);
  }
  // The planted effect shows in the subscale, in the direction planted.
  double steered = NAN, plain = NAN;
  for (const auto& m : a.means)
    if (m.item == "igeq_positive_affect") (m.condition == "no-dda" ? plain : steered) = m.mean;
  CHECK(steered - plain > 0.8);
}
