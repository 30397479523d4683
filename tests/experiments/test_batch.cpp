// Hostile batch input: whatever a file or a document built in code holds, loading it
// either succeeds or throws an InputError that says where and what was expected, never crashes.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "experiments/batch.h"
#include "tests/support.h"

using namespace ddalab;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = fs::path(__FILE__).parent_path().parent_path().parent_path();

Json ludoExperiment(const std::string& name) {
  return {{"name", name},
          {"comparison", "c"},
          {"game", {{"id", "ludo"}, {"params", {{"players", 2}}}}},
          {"players", {{{"id", "hillclimber"}, {"level", 50}}, {{"id", "hillclimber"}}}},
          {"environment", {{"id", "e-hillclimber"}}},
          {"coefficients", {{"believability", 1000}, {"tension", 10}, {"lead", 3}}},
          {"iterations", 5}};
}

Json batchOf(std::vector<Json> experiments) {
  return {{"format", "ddalab-batch/1"}, {"seed", 7}, {"experiments", std::move(experiments)}};
}

// The same for JSON text, through the path files take.
std::string errorOfText(const std::string& text) {
  try {
    parseBatchText(text, "file.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The same for a file on disk.
std::string errorOfFile(const fs::path& file) {
  try {
    loadBatch(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The error for one experiment changed by `change`.
template <typename Change>
std::string errorWith(Change change) {
  Json experiment = ludoExperiment("a");
  change(experiment);
  return errorOf(batchOf({experiment}));
}

// The error for a batch of experiments with these names (and comparisons).
std::string errorOfNames(const std::vector<std::string>& names,
                         const std::vector<std::string>& comparisons = {}) {
  std::vector<Json> experiments;
  for (size_t i = 0; i < names.size(); ++i) {
    experiments.push_back(ludoExperiment(names[i]));
    if (i < comparisons.size()) experiments.back()["comparison"] = comparisons[i];
  }
  return errorOf(batchOf(experiments));
}

// `{"format":"ddalab-batch/1","seed":` + `depth` brackets + `}`: the hostile tester's file.
std::string deeplyNestedText(size_t depth) {
  return R"({"format":"ddalab-batch/1","seed":)" + std::string(depth, '[') +
         std::string(depth, ']') + "}";
}

// `depth` arrays nested in one another, built without recursion.
Json nestedArrays(size_t depth) {
  Json value = Json::array();
  for (size_t i = 1; i < depth; ++i) {
    Json outer = Json::array();
    outer.push_back(std::move(value));
    value = std::move(outer);
  }
  return value;
}

// The ddalab binary of this build (tests/CMakeLists.txt builds it before the tests).
fs::path ddalabBinary() {
  return DDALAB_CLI;
}

struct CommandResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr
};

CommandResult runCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  while (const size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
    result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

size_t countOf(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("deep nesting in a file is refused at its line and column", "[input]") {
  const std::string message = errorOfText(deeplyNestedText(100'000));
  // Level 65 (the root object is level 1) is the 64th '[' after the 34 characters of the prefix.
  CHECK_THAT(message, Contains("file.json:1:98:") && Contains("at most 64"));
  CHECK(message.size() < 200);
  TempDir dir;
  CHECK_THAT(errorOfFile(dir.write("deep.json", deeplyNestedText(100'000))),
             Contains("deep.json:1:98:") && Contains("nested more than 64"));
  // Up to the limit it is only a wrong type.
  CHECK_THAT(errorOfText(deeplyNestedText(63)),
             Contains("$.seed") && Contains("expected a non-negative integer"));
  // Brackets inside strings do not count.
  CHECK_THAT(errorOfText("{\"format\": \"[[[{{{\\\"[\",\n \"seed\":" + std::string(70, '[')),
             Contains("file.json:2:72:"));
}

TEST_CASE("a document built in code with 10,000 nested arrays is refused", "[input]") {
  Json document = batchOf({ludoExperiment("a")});
  document["experiments"][0]["players"][0]["params"]["sigma"] = nestedArrays(10'000);
  const std::string message = errorOf(document);
  CHECK_THAT(message, Contains("file.json: $.experiments[0].players[0].params.sigma[0][0]") &&
                          Contains("nested more than 64 levels deep"));
  CHECK(message.size() < 600);
  // validateParams on its own checks the depth too (the GUI calls it directly).
  Json params = {{"sigma", nestedArrays(10'000)}};
  CHECK_THROWS_WITH(validateParams(std::vector<ParamSpec>{{"sigma", ParamType::Object,
                                                           Json::object(), 0, 0, "any"}},
                                   params, "p"),
                    Contains("p.sigma[0]") && Contains("nested more than 64"));
  // And an excerpt of it is short and does not recurse.
  const std::string excerpt = jsonExcerpt(nestedArrays(100'000));
  CHECK(excerpt == std::string(kExcerptBytes, '[') + "\u2026");
}

TEST_CASE("a number out of range of a double names the file, line and column", "[input]") {
  CHECK_THAT(errorOfText(R"({"format":"ddalab-batch/1","seed":1e400})"),
             Contains("file.json:1:35:") && Contains("number out of range of a double") &&
                 Contains("1e400"));
  CHECK_THAT(errorOfText("{\"format\": \"ddalab-batch/1\",\n  \"seed\": -2.5E+999}"),
             Contains("file.json:2:11:") && Contains("out of range of a double"));
  TempDir dir;
  CHECK_THAT(errorOfFile(dir.write("big.json", R"({"seed": 1e400})")),
             Contains("big.json:1:10:") && Contains("number out of range of a double"));
}

TEST_CASE("syntax errors give line, column and the expectation, not nlohmann's raw text",
          "[input]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "file.json:1:1:"},
      {"{\"format\": }", "expected '[', '{', or a literal"},
      {"{\n  \"seed\": 1,,\n}", "file.json:2:13:"},
      {"{\"a\": 1} x", "expected end of input"},
      {"{\"a\": \"\xff\"}", "ill-formed UTF-8"},
      {"{\"a\": \"x\ny\"}", "control character"},
      {"{\"a\": tru}", "file.json:1:"},
      {"{\"a\": 01}", "file.json:1:"},
      {"\xef\xbb\xbf{\"a\" 1}", "expected ':'"},
      {"\xef\xbb\xbf{\"a\" 1}", "file.json:1:6:"},
      {"{\"a\": \"\\ud800\"}", "surrogate"},
      {"{\"a\": 1 // comment\n}", "file.json:1:"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    const std::string message = errorOfText(text);
    CHECK_THAT(message, Contains(expected) && Contains("line") && Contains("column"));
    CHECK_THAT(message, !Contains("json.exception"));
  }
  // The token nlohmann quotes is cut to an excerpt: a 1 MB unterminated string gives a short error.
  const std::string message = errorOfText("{\"a\": \"" + std::string(1 << 20, 'x'));
  CHECK_THAT(message, Contains("missing closing quote") && Contains("\u2026"));
  CHECK(message.size() < 300);
}

TEST_CASE("missing, unreadable, oversized files and directories are input errors", "[input]") {
  TempDir dir;
  CHECK_THAT(errorOfFile(dir.path() / "missing.json"), Contains("missing.json") &&
                                                           Contains("cannot open") &&
                                                           Contains("No such file or directory"));
  CHECK_THAT(errorOfFile(dir.path()), Contains(dir.path().string()) && Contains("directory"));
  // Over the limit: refused from its size, before reading (the file is sparse).
  const fs::path huge = dir.write("huge.json", "{}");
  fs::resize_file(huge, kMaxBatchFileBytes + 1);
  CHECK_THAT(errorOfFile(huge),
             Contains("huge.json") && Contains("16777217 bytes") && Contains("at most 16777216"));
  CHECK_THAT(errorOfText(std::string(kMaxBatchFileBytes + 1, ' ')), Contains("at most 16777216"));
  // Unreadable (root reads anything, so only checked for other users).
  const fs::path locked = dir.write("unreadable.json", "{}");
  fs::permissions(locked, fs::perms::none);
  if (::access(locked.c_str(), R_OK) != 0)
    CHECK_THAT(errorOfFile(locked), Contains("unreadable.json") && Contains("Permission denied"));
}

TEST_CASE("ddalab validate checks every file and gives one error per bad file", "[input]") {
  const fs::path ddalab = ddalabBinary();
  REQUIRE(fs::exists(ddalab));
  TempDir dir;
  const fs::path big = dir.write("big.json", R"({"format":"ddalab-batch/1","seed":1e400})");
  const fs::path deep = dir.write("deep.json", deeplyNestedText(100'000));
  const fs::path quick = kSourceDir / "experiments" / "quick.json";
  const CommandResult result =
      runCommand(ddalab.string() + " validate " + big.string() + " " + dir.path().string() + " " +
                 quick.string() + " " + deep.string());
  INFO(result.output);
  CHECK(result.exitCode == 2);
  CHECK(countOf(result.output, "error: ") == 3);
  CHECK_THAT(result.output, Contains("big.json:1:35:") && Contains("deep.json:1:98:") &&
                                Contains("quick.json: ok") && Contains("directory"));
}

TEST_CASE("experiment and comparison names must make distinct, safe file names", "[input]") {
  CHECK(errorOfNames({"ludo/a", "ludo/b", "x y (2)", "é/ü"}).empty());
  // Collisions of file stems, also ignoring letter case.
  CHECK_THAT(errorOfNames({"a/b", "a__b"}), Contains("file.json: $.experiments[1].name") &&
                                                Contains("same files as \"a/b\"") &&
                                                Contains("$.experiments[0].name"));
  CHECK_THAT(errorOfNames({"Ludo/A", "ludo/a"}),
             Contains("$.experiments[1].name") && Contains("letter case"));
  CHECK_THAT(errorOfNames({"a", "a"}), Contains("$.experiments[1].name") && Contains("duplicate"));
  // Control characters (a \u0000 used to truncate the file name) and invalid UTF-8.
  for (const std::string& bad :
       std::vector<std::string>{std::string("a\0b", 3), "a\nb", "\x7f", "a\xc2\x9b", "a\xff"}) {
    INFO(bad);
    CHECK_THAT(errorOfNames({bad}), Contains("$.experiments[0].name") &&
                                        Contains("control character or invalid UTF-8") &&
                                        Contains("expected printable characters"));
  }
  CHECK_THAT(errorOfNames({std::string("a\0b", 3)}), Contains("\"a\\u0000b\""));
  for (const std::string bad : {"a:b", "a\\b", "a*", "a?", "a\"b", "<a>", "a|b"})
    CHECK_THAT(errorOfNames({bad}), Contains("cannot appear in file names"));
  // Hidden and special names.
  for (const std::string bad : {".", "..", ".hidden", "./a"})
    CHECK_THAT(errorOfNames({bad}), Contains("$.experiments[0].name") && Contains("'.'"));
  CHECK(errorOfNames({"/a", "a.", "a/.b"}).empty());
  // Length of the file stem: '/' counts twice.
  CHECK(errorOfNames({std::string(kMaxNameStemBytes, 'a')}).empty());
  CHECK_THAT(errorOfNames({std::string(kMaxNameStemBytes + 1, 'a')}),
             Contains("201 bytes long") && Contains("at most 200 bytes"));
  CHECK_THAT(errorOfNames({std::string(kMaxNameStemBytes - 1, 'a') + "/"}),
             Contains("201 bytes long"));
  // Comparison names follow the same rules; one comparison is shared by several experiments.
  CHECK(errorOfNames({"a", "b"}, {"c/d", "c/d"}).empty());
  CHECK_THAT(errorOfNames({"a", "b"}, {"c/d", "C__d"}),
             Contains("$.experiments[1].comparison") && Contains("same files as \"c/d\""));
  CHECK_THAT(errorOfNames({"a"}, {".."}), Contains("$.experiments[0].comparison"));
  CHECK_THAT(errorOfNames({"a"}, {"x\ty"}),
             Contains("comparison name \"x\\ty\"") && Contains("control character"));
  CHECK_THAT(errorOfNames({"a"}, {std::string(kMaxNameStemBytes + 1, 'c')}),
             Contains("$.experiments[0].comparison") && Contains("at most 200"));
  // A single-experiment file has the same rules.
  Json single = ludoExperiment(".x");
  single["format"] = "ddalab-experiment/1";
  single["seed"] = 1;
  CHECK_THAT(errorOf(single), Contains("$.name") && Contains("'.'"));
}

TEST_CASE("coefficients are finite and bounded", "[input]") {
  const auto withLead = [](Json value) {
    return errorWith([&value](Json& e) { e["coefficients"]["lead"] = value; });
  };
  CHECK_THAT(withLead(1e308), Contains("file.json: $.experiments[0].coefficients.lead") &&
                                  Contains("[-1000000, 1000000]") && Contains("1e+308"));
  CHECK_THAT(withLead(1e6 + 1), Contains("[-1000000, 1000000]"));
  CHECK_THAT(withLead(-1e7), Contains("[-1000000, 1000000]"));
  CHECK_THAT(withLead(std::nan("")), Contains("got NaN"));
  CHECK_THAT(withLead(std::numeric_limits<double>::infinity()), Contains("got Infinity"));
  CHECK_THAT(withLead("x"), Contains("expected a number"));
  CHECK(withLead(1e6).empty());
  CHECK(withLead(-1e6).empty());
  CHECK_THAT(errorOfText(R"({"format": "ddalab-batch/1", "seed": 1, "experiments": [
      {"name": "a", "game": {"id": "ludo"}, "players": [{"id": "random"}, {"id": "random"},
       {"id": "random"}, {"id": "random"}], "coefficients": {"lead": 1e308}, "iterations": 1}]})"),
             Contains("file.json: $.experiments[0].coefficients.lead"));
}

TEST_CASE("parameters refuse non-finite numbers and integers beyond 64 bits", "[input]") {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  const auto withEnvironmentParam = [](Json value) {
    return errorWith([&value](Json& e) { e["environment"]["params"]["random_prob"] = value; });
  };
  CHECK_THAT(withEnvironmentParam(nan),
             Contains("environment.params.random_prob") && Contains("finite") && Contains("NaN"));
  CHECK_THAT(withEnvironmentParam(-inf), Contains("finite") && Contains("-Infinity"));
  const auto withGameParam = [](const char* key, Json value) {
    return errorWith([&](Json& e) { e["game"]["params"][key] = value; });
  };
  CHECK_THAT(withGameParam("max_rounds", nan), Contains("game.params.max_rounds"));
  CHECK_THAT(withGameParam("max_rounds", inf), Contains("game.params.max_rounds"));
  CHECK_THAT(withGameParam("max_rounds", 1e30), Contains("out of range"));
  CHECK_THAT(withGameParam("max_rounds", std::numeric_limits<uint64_t>::max()),
             Contains("out of range"));
  CHECK_THAT(withGameParam("safe_squares", Json::array({0, nan})),
             Contains("game.params.safe_squares[1]"));
  CHECK(withGameParam("max_rounds", 5.0).empty());
  // A schema without a range still keeps integers in 64 bits.
  const std::vector<ParamSpec> open = {{"n", ParamType::Int, 0, -1e300, 1e300, "any"}};
  CHECK_THROWS_WITH(validateParams(open, {{"n", 1e30}}, "p"),
                    Contains("p.n") && Contains("9223372036854775807"));
  CHECK_THROWS_WITH(validateParams(open, {{"n", std::numeric_limits<uint64_t>::max()}}, "p"),
                    Contains("9223372036854775807"));
  CHECK(validateParams(open, {{"n", -9223372036854775807LL - 1}}, "p").at("n") ==
        std::numeric_limits<long long>::min());
}

TEST_CASE("integers beyond their range name the path and the range", "[input]") {
  const auto batchText = [](const std::string& seed) {
    return R"({"format": "ddalab-batch/1", "seed": )" + seed + R"(, "experiments": []})";
  };
  for (const std::string seed : {"1e30", "99999999999999999999", "18446744073709551616", "-1"}) {
    INFO(seed);
    CHECK_THAT(errorOfText(batchText(seed)),
               Contains("file.json: $.seed") && Contains("[0, 18446744073709551615]"));
  }
  CHECK_THAT(errorOfText(batchText("99999999999999999999")),
             Contains("beyond the 64-bit integer range"));
  CHECK_THAT(errorOfText(batchText("18446744073709551615")), Contains("$.experiments"));
  CHECK_THAT(errorWith([](Json& e) { e["iterations"] = 1e30; }),
             Contains("$.experiments[0].iterations") && Contains("[1, 100000000]"));
  CHECK_THAT(errorWith([](Json& e) { e["players"][0]["level"] = 18446744073709551615ULL; }),
             Contains("players[0].level") && Contains("[1, 100]"));
  CHECK_THAT(errorWith([](Json& e) { e["salt"] = -5; }), Contains("$.experiments[0].salt"));
}

TEST_CASE("error messages show bounded, escaped excerpts of the input", "[input]") {
  const std::string huge(1 << 20, 'x');
  CHECK(errorWith([&huge](Json& e) { e["game"]["id"] = huge; }).size() < 300);
  CHECK(errorWith([&huge](Json& e) { e[huge] = 1; }).size() < 400);
  CHECK(errorWith([&huge](Json& e) { e["iterations"] = Json::array({huge, huge}); }).size() < 300);
  CHECK_THAT(errorWith([](Json& e) { e["game"]["id"] = "\x1b[31mred"; }),
             Contains("unknown game '\\u001b[31mred'"));
  CHECK(jsonExcerpt({{"a", 1}, {"b", {true, nullptr, "s"}}}) == R"({"a":1,"b":[true,null,"s"]})");
  CHECK(jsonExcerpt(std::string("q\"\\\n\xc3\xa9\xff")) == R"("q\"\\\né\xff")");
  CHECK(textExcerpt(std::string(100, 'y')) == std::string(kExcerptBytes, 'y') + "\u2026");
  CHECK(textExcerpt("a\xc3") == "a\\xc3");  // a lone lead byte
  // Cut on a character boundary.
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "\xc3\xa9";
  CHECK(textExcerpt(accents) == accents.substr(0, kExcerptBytes) + "\u2026");
  CHECK(findUnprintable("ok \xc3\xa9") == std::string_view::npos);
  CHECK(findUnprintable(std::string("ok\0", 3)) == 2);
  CHECK(findUnprintable("\xed\xa0\x80") == 0);  // a surrogate is not UTF-8
}

TEST_CASE("a player's reason for refusing a game is escaped and bounded (fuzzer finding)",
          "[input]") {
  // dynamic-level quotes its unknown base verbatim; the message must stay short and printable.
  for (const std::string& base : {std::string("x\x1b[2J"), std::string(1 << 20, 'b')}) {
    const std::string message = errorWith([&base](Json& e) {
      e["players"][1] = {{"id", "dynamic-level"}, {"params", {{"base", base}}}};
    });
    CHECK_THAT(message, Contains("$.experiments[0].players[1].id") && Contains("unknown base"));
    CHECK(findUnprintable(message) == std::string_view::npos);
    CHECK(message.size() < 1200);
  }
}

TEST_CASE("the shipped experiments still load, and what toJson writes loads again", "[input]") {
  size_t files = 0;
  const fs::path experiments = kSourceDir / "experiments";
  for (const auto& folder : {experiments, experiments / "thesis", experiments / "sweeps"})
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".json") continue;
      INFO(entry.path());
      const Batch batch = loadBatch(entry.path());
      CHECK(!batch.experiments.empty());
      // The same text, not only equal values: a shard's checksum is of the text (a default
      // -1 written as an integer came back as -1.0, and no thesis comparison could be merged).
      const std::string text = toJson(batch).dump(2);
      CHECK(toJson(parseBatchText(text, "again")).dump(2) == text);
      ++files;
    }
  CHECK(files >= 13);
}

TEST_CASE("a key given twice in an object is refused with its JSON path", "[batch]") {
  const auto errorOfText = [](const std::string& text) {
    try {
      parseBatchText(text, "b.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(
      errorOfText(R"({"format": "ddalab-batch/1", "seed": 1, "seed": 2, "experiments": []})"),
      Catch::Matchers::Contains("b.json: $.seed") && Catch::Matchers::Contains("twice"));
  CHECK_THAT(errorOfText(R"({"format": "ddalab-batch/1", "experiments": [{}, {"name": "a",
             "game": {"id": "ludo", "params": {"players": 2, "players": 4}}}]})"),
             Catch::Matchers::Contains("$.experiments[1].game.params.players"));
  // A key is the user's text: quoted escaped (a fuzzer finding: it printed a raw ESC).
  const std::string escaped =
      errorOfText("{\"format\": \"ddalab-batch/1\", \"x\\u001b\": {\"a\": 1, \"a\": 2}}");
  CHECK_THAT(escaped, Catch::Matchers::Contains("$.x\\u001b.a"));
  CHECK(findUnprintable(escaped) == std::string::npos);
  // The same key in different objects is fine.
  CHECK_THAT(errorOfText(R"({"format": "ddalab-batch/1", "experiments": [{"name": "a"},
             {"name": "b"}]})"),
             !Catch::Matchers::Contains("twice"));
}
