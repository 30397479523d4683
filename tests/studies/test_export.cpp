// The tidy export of a study: one row per participant, answered game and
// analysed key, every value the session's, and its refusals.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/metrics.h"
#include "results/csv.h"
#include "studies/export.h"
#include "studies/simulate.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;

namespace {

fs::path shippedProtocol(const std::string& name) {
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / "studies/protocols" / name;
}

StudySessions simulated(const fs::path& dir, const std::string& protocol, int participants) {
  StudySimulation s;
  s.participants = participants;
  s.threads = 2;
  simulateStudy(loadStudyProtocol(shippedProtocol(protocol)), dir, s);
  const std::vector<fs::path> folders = {dir};
  return readStudySessions(folders);
}

// The export's rows as maps from column name to field (no field of these studies is quoted).
std::vector<std::map<std::string, std::string>> rowsOf(const std::string& csv,
                                                       std::vector<std::string>* header) {
  std::istringstream in(csv);
  std::string line;
  const auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::istringstream s(l);
    for (std::string x; std::getline(s, x, ',');) f.push_back(x);
    return f;
  };
  std::getline(in, line);
  *header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const auto f = split(line);
    REQUIRE(f.size() == header->size());
    std::map<std::string, std::string> row;
    for (size_t k = 0; k < f.size(); ++k) row[(*header)[k]] = f[k];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("the tidy export has a row per participant, answered game and item, with its values",
          "[export]") {
  const TempDir dir;
  const StudySessions study = simulated(dir.path() / "s", "user-study-ludo.json", 3);
  std::vector<std::string> header;
  const auto rows = rowsOf(tidyExportCsv(study, false), &header);
  std::vector<std::string> expected = {"participant", "order_row",         "status", "period",
                                       "condition",   "condition_number",  "game",   "game_seed",
                                       "decisions",   "decision_ms_median"};
  for (const MetricInfo& info : allMetrics()) expected.emplace_back(info.key);
  expected.insert(expected.end(), {"item", "answer", "item_ms", "questionnaire_shown_at",
                                   "questionnaire_answered_at", "questionnaire_ms"});
  CHECK(header == expected);
  const size_t items = study.protocol.items.size(), conditions = study.protocol.conditions.size();
  size_t games = 0;
  for (const StudySession& s : study.sessions) games += s.answered();
  REQUIRE(rows.size() == games * items);
  size_t r = 0;
  for (const StudySession& s : study.sessions)
    for (const SessionGame& g : s.games())
      for (size_t i = 0; i < items; ++i, ++r) {
        const auto& row = rows[r];
        CHECK(row.at("participant") == s.participant());
        CHECK(row.at("order_row") == std::to_string(s.ordinal() % 6 + 1));  // 6 rows for 3
        CHECK(row.at("order_row") == std::to_string(s.row() + 1));
        CHECK(row.at("status") == "complete");
        // The period: the game's position in its round of one game per condition.
        CHECK(row.at("period") == std::to_string(g.plan.index % conditions + 1));
        CHECK(row.at("condition") == study.protocol.conditions[g.plan.condition].name);
        CHECK(row.at("condition_number") == std::to_string(g.plan.condition + 1));
        CHECK(row.at("game") == std::to_string(g.plan.index + 1));
        CHECK(row.at("game_seed") == std::to_string(g.plan.seed));
        for (const MetricInfo& info : allMetrics())
          CHECK(row.at(std::string(info.key)) ==
                csvNumber(g.record.metrics[static_cast<size_t>(info.metric)]));
        CHECK(row.at("item") == study.protocol.items[i].key);
        CHECK(std::stod(row.at("answer")) == g.answers->values[i]);
      }
}

TEST_CASE("the tidy export adds the instruments' subscales, scored, after the items", "[export]") {
  const TempDir dir;
  const StudySessions study = simulated(dir.path() / "s", "user-study-ludo-igeq.json", 2);
  REQUIRE_FALSE(study.protocol.subscales.empty());
  std::vector<std::string> header;
  const auto rows = rowsOf(tidyExportCsv(study, false), &header);
  const size_t keys = study.protocol.items.size() + study.protocol.subscales.size();
  REQUIRE(rows.size() == 2 * study.sessions.front().plan().size() * keys);
  const StudySubscale& first = study.protocol.subscales.front();
  const SessionGame& game = study.sessions.front().games().front();
  double sum = 0;
  for (size_t i : first.items) sum += study.protocol.items[i].scored(game.answers->values[i]);
  const auto& row = rows[study.protocol.items.size()];  // the first game's first subscale
  CHECK(row.at("item") == first.key);
  CHECK(std::stod(row.at("answer")) ==
        Approx(sum / static_cast<double>(first.items.size())).epsilon(1e-15));
}

TEST_CASE("the tidy export leaves out a game played but not answered", "[export]") {
  const TempDir dir;
  simulated(dir.path() / "s", "user-study-ludo.json", 2);
  const fs::path p1 = dir.path() / "s" / "p01";
  fs::remove(p1 / "answers-06.json");
  const std::vector<fs::path> folders = {dir.path() / "s"};
  const StudySessions study = readStudySessions(folders);
  std::vector<std::string> header;
  const auto rows = rowsOf(tidyExportCsv(study, false), &header);
  CHECK(rows.size() == 11 * study.protocol.items.size());
}

TEST_CASE("participant ids are hashed by protocol and id when asked", "[export]") {
  const TempDir dir;
  const StudySessions study = simulated(dir.path() / "s", "user-study-ludo.json", 2);
  std::vector<std::string> header;
  const auto rows = rowsOf(tidyExportCsv(study, true), &header);
  const std::string id = hashedParticipantId(study.protocol.name, "p01");
  CHECK(rows.front().at("participant") == id);
  CHECK(id.size() == 16);
  CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(id != hashedParticipantId(study.protocol.name, "p02"));
  CHECK(id != hashedParticipantId("another-study", "p01"));
  CHECK(hashedParticipantId("ab", "c") != hashedParticipantId("a", "bc"));
}

TEST_CASE("the export's file is refused when it is a folder, an input or inside one", "[export]") {
  const TempDir dir;
  const fs::path s = dir.path() / "s";
  const StudySessions study = simulated(s, "user-study-ludo.json", 2);
  const std::vector<fs::path> inputs = {s};
  const auto refusal = [&](const fs::path& out) {
    return refusalOf([&] { checkExportTarget(out, inputs, study, "--out"); });
  };
  CHECK(refusal(dir.path() / "tidy.csv") == "accepted");
  CHECK_THAT(refusal(s), Catch::Contains("not a regular file"));
  CHECK_THAT(refusal(dir.path()), Catch::Contains("not a regular file"));
  CHECK_THAT(refusal(s / "p01" / "tidy.csv"), Catch::Contains("a folder the export reads"));
  CHECK_THAT(refusal(s / "tidy.csv"), Catch::Contains("a folder the export reads"));
  fs::create_symlink(dir.path() / "elsewhere.csv", dir.path() / "link.csv");
  CHECK_THAT(refusal(dir.path() / "link.csv"), Catch::Contains("not a regular file"));
  // A session folder read alone: a file beside it is fine, one inside it is not.
  const std::vector<fs::path> one = {s / "p02"};
  CHECK_THAT(refusalOf([&] { checkExportTarget(s / "p02" / "x.csv", one, study, "--out"); }),
             Catch::Contains("p02"));
}
