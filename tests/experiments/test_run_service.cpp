// The run service and how results reach the disk: complete files only, checkpoints, resume
// byte-identical to an uninterrupted run, folder locks and refusals, streaming summaries.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "experiments/journal.h"
#include "experiments/merge.h"
#include "experiments/run_service.h"
#include "results/csv.h"
#include "core/file_io.h"
#include "tests/support.h"

using namespace ddalab;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

Batch twoExperiments(int iterations, uint64_t seed = 7) {
  const Json document = {{"format", "ddalab-batch/1"},
                         {"seed", seed},
                         {"experiments",
                          {ludoExperiment("x/e-hc", "e-hillclimber", iterations),
                           ludoExperiment("x/e-random", "e-random", iterations)}}};
  return parseBatch(document, "test");
}

RunRequest requestFor(const Batch& batch, const fs::path& out, int threads = 2) {
  RunRequest request;
  request.batch = batch;
  request.out = out;
  request.threads = threads;
  return request;
}

RunOutcome run(const RunRequest& request, const RunEvents& events = {}) {
  RunControl control;
  return runToFolder(request, events, control);
}

// Every visible file of a results folder with its bytes.
std::map<std::string, std::string> folderFiles(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
      files[entry.path().filename().string()] = readText(entry.path());
  return files;
}

void requireSameFolders(const fs::path& a, const fs::path& b) {
  const auto filesA = folderFiles(a), filesB = folderFiles(b);
  REQUIRE(filesA.size() == filesB.size());
  for (const auto& [name, bytes] : filesA) {
    CAPTURE(name);
    REQUIRE(filesB.count(name));
    CHECK(bytes == filesB.at(name));
  }
}

// How far games may run ahead of the stop below: a stop lands within 2 windows of the game that
// set it however the threads are scheduled (the workers cannot finish an experiment behind the
// event's back), and more than the 2 threads may be in flight, so a stop can leave gaps.
constexpr size_t kStopWindow = 4;

// Runs `request`, stopping it (control.stop, or control.abandon when `abandon`) once
// `stopAfter` games were added; returns the outcome. A stop in an experiment before the last
// always leaves the run unfinished (no later experiment starts); one in the last leaves at least
// the games after stopAfter + 2 * kStopWindow unplayed.
RunOutcome runAndStop(RunRequest request, size_t stopAfter, bool abandon) {
  RunControl control;
  size_t games = 0;
  RunEvents events;
  events.onGame = [&](size_t, const GameRecord&) {
    if (++games == stopAfter) (abandon ? control.abandon : control.stop).store(true);
  };
  request.window = kStopWindow;
  return runToFolder(request, events, control);
}

}  // namespace

TEST_CASE("OutputFile: a file appears under its final name only when committed", "[files]") {
  TempDir dir;
  const fs::path file = dir.path() / "data.csv";
  writeFileAtomically(file, "old\n");
  {
    OutputFile out(file);
    out.write("new, half written");
    CHECK(readText(file) == "old\n");  // the old file is untouched while the new one is written
  }                                    // dropped without commit
  CHECK(readText(file) == "old\n");
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  OutputFile out(file);
  out.write(std::string(200'000, 'x'));  // more than the buffer
  out.commit();
  CHECK(readText(file) == std::string(200'000, 'x'));
  CHECK(isTemporaryFileName(".data.csv.ddalab-tmp-1234"));
  CHECK_FALSE(isTemporaryFileName("data.csv"));
  CHECK_FALSE(isTemporaryFileName(".data.csv.ddalab-tmp-"));
}

TEST_CASE("OutputFile: a file that cannot be created names the file and the reason", "[files]") {
  TempDir dir;
  writeFileAtomically(dir.path() / "plain", "x");
  REQUIRE_THROWS_AS(OutputFile(dir.path() / "plain" / "inside.csv"), WriteError);
  REQUIRE_THROWS_WITH(OutputFile(dir.path() / "plain" / "inside.csv"),
                      Contains("inside.csv") && Contains("Not a directory"));
}

TEST_CASE("journal: records and traces round-trip, a torn tail is dropped", "[files]") {
  TempDir dir;
  const fs::path file = dir.path() / "x.journal";
  std::vector<GameRecord> records(5);
  for (size_t i = 0; i < records.size(); ++i) {
    records[i].iteration = i;
    records[i].seed = 1000 + i;
    records[i].numPlayers = 2;
    records[i].winner = static_cast<int>(i % 3) - 1;
    records[i].capped = i == 2;
    records[i].metrics[3] = 0.1 * static_cast<double>(i);
    records[i].scores[1] = -1.5;
    records[i].counters[0] = {static_cast<int>(i), 7, 3};
  }
  {
    JournalWriter journal(file, 0, 42);
    for (const auto& r : records) journal.append(r, "{\"i\":" + std::to_string(r.iteration) + "}");
    journal.sync();
  }
  std::vector<JournalEntry> read;
  auto collect = [&](JournalEntry&& e) {
    read.push_back(std::move(e));
    return true;
  };
  const JournalScan full = readJournal(file, 42, collect);
  REQUIRE(full.entries == 5);
  CHECK(full.validBytes == fs::file_size(file));
  for (size_t i = 0; i < 5; ++i) {
    CHECK(fingerprint(read[i].record) == fingerprint(records[i]));
    CHECK(read[i].trace == "{\"i\":" + std::to_string(i) + "}");
  }

  // A kill in the middle of a write: the last record is cut short.
  fs::resize_file(file, full.validBytes - 3);
  read.clear();
  const JournalScan torn = readJournal(file, 42, collect);
  CHECK(torn.entries == 4);
  // Appending continues after the valid prefix.
  {
    JournalWriter journal(file, torn.validBytes, 42);
    journal.append(records[4], "again");
    journal.sync();
  }
  read.clear();
  CHECK(readJournal(file, 42, collect).entries == 5);
  CHECK(read.back().trace == "again");
  // A flipped byte inside a record ends the valid prefix there.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(torn.validBytes) - 10);
    f.put('\x7f');
  }
  read.clear();
  CHECK(readJournal(file, 42, collect).entries == 3);
  CHECK(readJournal(dir.path() / "missing.journal", 42, collect).entries == 0);
}

TEST_CASE("playIterations delivers every game in order with a tiny window", "[runner]") {
  const Batch batch = twoExperiments(40);
  for (int threads : {1, 2}) {
    PlayOptions options;
    options.threads = threads;
    options.window = 3;
    RunControl control;
    std::vector<uint64_t> iterations;
    const size_t contiguous = playIterations(
        batch, batch.experiments[0], 5, options, control,
        [&](FinishedGame&& game, bool inOrder) {
          CHECK(inOrder);
          iterations.push_back(game.record.iteration);
        },
        [] {});
    CHECK(contiguous == 35);
    REQUIRE(iterations.size() == 35);
    for (size_t i = 0; i < iterations.size(); ++i) CHECK(iterations[i] == i + 5);
  }
}

TEST_CASE("runToFolder writes the same files as the in-memory runner", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(12);
  const RunOutcome outcome = run(requestFor(batch, dir.path() / "service"));
  CHECK(outcome.complete);
  CHECK(outcome.gamesPlayed == 24);
  REQUIRE(outcome.summaries.size() == 2);
  REQUIRE(outcome.scores.size() == 1);

  RunOptions options;
  const auto results = runBatch(batch, options);
  std::vector<ExperimentSummary> summaries;
  for (const auto& r : results) {
    summaries.push_back(summarize(r));
    writeExperimentCsvs(dir.path() / "memory", r, summaries.back());
  }
  writeBatchCsvs(dir.path() / "memory", summaries);
  writeAnalysisCsvs(dir.path() / "memory", analyzeAll(results));
  writeFileAtomically(dir.path() / "memory" / "batch.json", toJson(batch).dump(2) + "\n");
  requireSameFolders(dir.path() / "service", dir.path() / "memory");
  // The checkpoints are dropped once the batch is complete.
  for (const auto& entry : fs::directory_iterator(dir.path() / "service" / ".ddalab"))
    CHECK(entry.path().extension() != ".journal");
}

TEST_CASE("a stopped run resumes to files byte-identical to an uninterrupted run", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(30);
  run(requestFor(batch, dir.path() / "whole", 1));
  for (int threads : {1, 2}) {
    for (size_t stopAfter : {1, 17, 30, 45}) {
      for (bool abandon : {false, true}) {
        CAPTURE(threads, stopAfter, abandon);
        const fs::path out = dir.path() / ("stopped-" + std::to_string(threads) + "-" +
                                           std::to_string(stopAfter) + (abandon ? "a" : "s"));
        const RunOutcome stopped = runAndStop(requestFor(batch, out, threads), stopAfter, abandon);
        CHECK_FALSE(stopped.complete);  // 45 + 2 * kStopWindow < 60: games were left
        // What a stopped run leaves is a complete results folder that `score` reads.
        const auto read = summarizeResultsDir(out);
        REQUIRE(read.size() == stopped.summaries.size());
        RunRequest again = requestFor(batch, out, 3 - threads);
        again.mode = FolderMode::Resume;
        const RunOutcome resumed = run(again);
        CHECK(resumed.complete);
        CHECK(resumed.gamesResumed >= stopAfter);
        CHECK(resumed.gamesResumed + resumed.gamesPlayed == 60);
        requireSameFolders(out, dir.path() / "whole");
      }
    }
  }
}

// A folder's batch.json lists every parameter with its value; a parameter added to a player since
// the run started (at a default that plays as before) must not keep the run from resuming, while a
// value the file states still has to match.
TEST_CASE("a run started before a parameter existed resumes, a changed value is refused",
          "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(30);
  run(requestFor(batch, dir.path() / "whole", 1));
  const fs::path out = dir.path() / "older";
  runAndStop(requestFor(batch, out, 1), 17, false);
  const Json original = Json::parse(readText(out / "batch.json"));
  Json held = original;
  Json& params = held.at("experiments").at(0).at("environment").at("params");
  REQUIRE_FALSE(params.empty());
  params.erase(params.items().begin().key());  // as a version without that parameter wrote it
  const std::string olderText = held.dump(2) + "\n";
  writeFileAtomically(out / "batch.json", olderText);

  Json changed = original;  // the file states another value: another batch
  Json& first = changed.at("experiments").at(0).at("environment").at("params").begin().value();
  first = first.is_number() ? Json(first.get<double>() / 2) : Json(!first.get<bool>());
  const fs::path other = dir.path() / "changed";
  fs::copy(out, other, fs::copy_options::recursive);
  writeFileAtomically(other / "batch.json", changed.dump(2) + "\n");
  RunRequest refused = requestFor(batch, other);
  refused.mode = FolderMode::Resume;
  REQUIRE_THROWS_WITH(run(refused), Contains("holds a run of a different batch"));

  RunRequest again = requestFor(batch, out);
  again.mode = FolderMode::Resume;
  const RunOutcome resumed = run(again);
  CHECK(resumed.complete);
  CHECK(resumed.gamesResumed >= 17);
  CHECK(readText(out / "batch.json") == olderText);  // the folder keeps what it was started with
  writeFileAtomically(out / "batch.json", toJson(batch).dump(2) + "\n");
  requireSameFolders(out, dir.path() / "whole");
}

TEST_CASE("resuming a complete folder computes nothing", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(5);
  run(requestFor(batch, dir.path()));
  RunRequest again = requestFor(batch, dir.path());
  again.mode = FolderMode::Resume;
  const RunOutcome outcome = run(again);
  CHECK(outcome.complete);
  CHECK(outcome.gamesPlayed == 0);
  CHECK(outcome.gamesResumed == 10);
  CHECK(outcome.summaries.size() == 2);
}

TEST_CASE("summary.csv is up to date after every experiment", "[service]") {
  TempDir dir;
  RunEvents events;
  std::vector<size_t> rows;
  events.onExperimentDone = [&](size_t, const ExperimentSummary&) {
    rows.push_back(summarizeResultsDir(dir.path()).size());
  };
  run(requestFor(twoExperiments(4), dir.path()), events);
  CHECK(rows == std::vector<size_t>{1, 2});
}

TEST_CASE("traces are written in iteration order with one line per game", "[service]") {
  TempDir dir;
  RunRequest request = requestFor(twoExperiments(6), dir.path() / "out");
  request.traces = TraceOutput{dir.path() / "trace"};
  std::vector<GameRecord> games;
  RunEvents events;
  events.onGame = [&](size_t experiment, const GameRecord& r) {
    if (experiment == 0) games.push_back(r);
  };
  run(request, events);
  std::ifstream in(dir.path() / "trace" / "x__e-hc.trace.jsonl");
  std::string line;
  size_t count = 0;
  while (std::getline(in, line)) {
    const Json game = Json::parse(line);
    CHECK(game.at("iteration") == count);
    CHECK(game.at("experiment") == "x/e-hc");
    CHECK(game.at("seed") == games[count].seed);
    CHECK(game.at("rounds").size() == games[count].metrics[0]);
    CHECK(game.at("players").size() == 2);
    ++count;
  }
  CHECK(count == 6);
}

TEST_CASE("a resumed run with traces writes the same traces", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(20);
  RunRequest whole = requestFor(batch, dir.path() / "whole");
  whole.traces = TraceOutput{dir.path() / "whole-trace"};
  run(whole);
  RunRequest stopped = requestFor(batch, dir.path() / "stopped");
  stopped.traces = TraceOutput{dir.path() / "stopped-trace"};
  runAndStop(stopped, 7, false);
  stopped.mode = FolderMode::Resume;
  run(stopped);
  requireSameFolders(dir.path() / "stopped-trace", dir.path() / "whole-trace");
  // Resuming without the traces the run was started with is refused.
  RunRequest other = requestFor(batch, dir.path() / "other");
  other.traces = TraceOutput{dir.path() / "other-trace"};
  runAndStop(other, 3, false);
  other.mode = FolderMode::Resume;
  other.traces.reset();
  REQUIRE_THROWS_WITH(run(other), Contains("--trace"));
}

TEST_CASE("a folder in use by another run is refused", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(3);
  OutputFolder held(dir.path(), batch, FolderMode::Fresh, std::nullopt, {});
  REQUIRE_THROWS_AS(run(requestFor(batch, dir.path())), InputError);
  REQUIRE_THROWS_WITH(run(requestFor(batch, dir.path())),
                      Contains("in use by another run") && Contains("pid"));
}

TEST_CASE("a folder with other results is refused unless overwritten or resumed", "[service]") {
  TempDir dir;
  run(requestFor(twoExperiments(3, 1), dir.path()));
  const Batch other = twoExperiments(3, 2);
  REQUIRE_THROWS_WITH(run(requestFor(other, dir.path())),
                      Contains("different batch") && Contains("--overwrite"));
  RunRequest resume = requestFor(other, dir.path());
  resume.mode = FolderMode::Resume;
  REQUIRE_THROWS_WITH(run(resume), Contains("different batch"));
  RunRequest overwrite = requestFor(other, dir.path());
  overwrite.mode = FolderMode::Overwrite;
  CHECK(run(overwrite).complete);
  CHECK(Json::parse(readText(dir.path() / "batch.json")) == toJson(other));
  // The same batch, finished, may simply be run again.
  CHECK(run(requestFor(other, dir.path())).complete);
  // An unfinished run of the same batch must be resumed or overwritten.
  runAndStop(requestFor(twoExperiments(30), dir.path() / "half"), 5, false);
  REQUIRE_THROWS_WITH(run(requestFor(twoExperiments(30), dir.path() / "half")),
                      Contains("unfinished") && Contains("--resume"));
}

TEST_CASE("a run never writes onto its input file", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(3);
  run(requestFor(batch, dir.path()));
  const std::string input = readText(dir.path() / "batch.json");
  RunRequest changed = requestFor(twoExperiments(2), dir.path());
  changed.inputs = {dir.path() / "batch.json"};
  for (FolderMode mode : {FolderMode::Fresh, FolderMode::Overwrite}) {
    changed.mode = mode;
    REQUIRE_THROWS_WITH(run(changed), Contains("batch.json"));
  }
  CHECK(readText(dir.path() / "batch.json") == input);
  // The same batch from the folder's own batch.json runs (and resumes) without touching it.
  RunRequest same = requestFor(batch, dir.path());
  same.inputs = {dir.path() / "batch.json"};
  CHECK(run(same).complete);
  CHECK(readText(dir.path() / "batch.json") == input);
}

TEST_CASE("an unusable output folder is refused before anything is computed", "[service]") {
  TempDir dir;
  writeFileAtomically(dir.path() / "file", "x");
  size_t games = 0;
  RunEvents events;
  events.onGame = [&](size_t, const GameRecord&) { ++games; };
  REQUIRE_THROWS_AS(run(requestFor(twoExperiments(3), dir.path() / "file" / "out"), events),
                    InputError);
  REQUIRE_THROWS_WITH(run(requestFor(twoExperiments(3), dir.path() / "file" / "out")),
                      Contains("--out") && Contains("file/out"));
  RunRequest badTrace = requestFor(twoExperiments(3), dir.path() / "out");
  badTrace.traces = TraceOutput{dir.path() / "file" / "trace"};
  REQUIRE_THROWS_WITH(run(badTrace), Contains("--trace"));
  RunRequest badThreads = requestFor(twoExperiments(3), dir.path() / "out2");
  badThreads.threads = 100000;
  REQUIRE_THROWS_WITH(run(badThreads), Contains("--threads") && Contains("1024"));
  CHECK(games == 0);
  CHECK_FALSE(fs::exists(dir.path() / "out2"));
}

TEST_CASE("temporary files a killed run left behind are cleaned up", "[service]") {
  TempDir dir;
  writeFileAtomically(dir.path() / ".summary.csv.ddalab-tmp-99999", "half");
  run(requestFor(twoExperiments(2), dir.path()));
  CHECK_FALSE(fs::exists(dir.path() / ".summary.csv.ddalab-tmp-99999"));
}

TEST_CASE("an export of a killed run's folder holds the games its checkpoints keep", "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(400);
  const fs::path from = dir.path() / "killed";
  runAndStop(requestFor(batch, from), 5, true);
  // What a kill leaves: the checkpoints, no CSV under its final name.
  fs::remove(from / "summary.csv");
  size_t kept = 0;
  for (size_t i = 0; i < batch.experiments.size(); ++i) {
    for (const char* suffix : {".games.csv", ".summary.csv"})
      fs::remove(from / (fileStem(batch.experiments[i].name) + suffix));
    readKeptGames(from, batch.experiments[i], playIdentity(batch, i),
                  [&](const GameRecord&) { return ++kept, true; });
  }
  REQUIRE(kept > 0);
  REQUIRE(kept < 800);
  exportResults(from, dir.path() / "copy", FolderMode::Fresh);
  size_t copied = 0;
  for (const ExperimentSummary& s : summarizeResultsDir(dir.path() / "copy")) copied += s.games;
  CHECK(copied == kept);
  CHECK(holdsUnfinishedRun(dir.path() / "copy"));  // a resumed run continues from them
}

TEST_CASE("streamed summaries equal in-memory ones, and score reads a folder in one pass",
          "[service]") {
  TempDir dir;
  const Batch batch = twoExperiments(9);
  const RunOutcome outcome = run(requestFor(batch, dir.path()));
  const auto read = readResultsDir(dir.path());
  const auto streamed = summarizeResultsDir(dir.path());
  REQUIRE(read.size() == 2);
  for (size_t e = 0; e < 2; ++e) {
    const ExperimentSummary inMemory = summarize(read[e]);
    for (size_t k = 0; k < kBuiltInMetrics; ++k) {
      CHECK(inMemory.metrics[k].mean == outcome.summaries[e].metrics[k].mean);
      CHECK(inMemory.metrics[k].std == outcome.summaries[e].metrics[k].std);
      CHECK(streamed[e].metrics[k].ci95High == outcome.summaries[e].metrics[k].ci95High);
    }
    CHECK(streamed[e].winRatio == outcome.summaries[e].winRatio);
  }
}

namespace {

Batch batchOf(const std::vector<Json>& experiments, uint64_t seed = 7) {
  return parseBatch({{"format", "ddalab-batch/1"}, {"seed", seed}, {"experiments", experiments}},
                    "test");
}

}  // namespace

TEST_CASE("matchExperiments pairs the experiments that play the same games", "[service]") {
  Json changed = ludoExperiment("x/e-hc", "e-hillclimber", 20);
  changed["coefficients"]["tension"] = 11;
  const Batch held = batchOf({ludoExperiment("x/e-hc", "e-hillclimber", 20),
                              ludoExperiment("x/e-random", "e-random", 20)});
  // Renamed, regrouped and with more games: the same games; other coefficients: not.
  Json renamed = ludoExperiment("y/random", "e-random", 50);
  renamed["comparison"] = "y";
  const auto match = matchExperiments(held, batchOf({changed, renamed}));
  CHECK_FALSE(match[0]);
  CHECK(match[1] == std::optional<size_t>(1));
  // Another master seed plays other games; a held experiment answers one wanted one only.
  CHECK_FALSE(matchExperiments(held, batchOf({renamed}, 8))[0]);
  const auto twice =
      matchExperiments(held, batchOf({renamed, ludoExperiment("x/e-random", "e-random", 20)}));
  CHECK_FALSE(twice[0]);  // x/e-random keeps its own games first
  CHECK(twice[1] == std::optional<size_t>(1));
  // A salt changes every game.
  Json salted = ludoExperiment("x/e-random", "e-random", 20);
  salted["salt"] = 3;
  CHECK_FALSE(matchExperiments(held, batchOf({salted}))[0]);
}

TEST_CASE("FolderMode::Update keeps the games of unchanged experiments, byte-identically",
          "[service]") {
  TempDir dir;
  const Batch first = batchOf({ludoExperiment("x/e-hc", "e-hillclimber", 12),
                               ludoExperiment("x/e-random", "e-random", 12)});
  Json changed = ludoExperiment("x/e-hc", "e-hillclimber", 12);
  changed["coefficients"]["lead"] = 4;
  const Batch second = batchOf(
      {ludoExperiment("x/more", "e-random", 20), changed, ludoExperiment("x/new", "e-maxn", 3)});
  run(requestFor(second, dir.path() / "fresh"));

  SECTION("after a complete run (the games come back from the CSVs)") {
    run(requestFor(first, dir.path() / "u"));
  }
  SECTION("after a stopped run (the games come back from the checkpoints)") {
    runAndStop(requestFor(first, dir.path() / "u"), 16, false);
  }
  RunRequest update = requestFor(second, dir.path() / "u");
  update.mode = FolderMode::Update;
  const RunOutcome outcome = run(update);
  CHECK(outcome.complete);
  // x/e-random's games, renamed x/more, are kept (at least the 12 of a complete first run)
  // and only its 8 more are played; x/e-hc changed and x/new is new: they run in full.
  CHECK(outcome.gamesResumed >= 4);
  CHECK(outcome.gamesResumed + outcome.gamesPlayed == 35);
  requireSameFolders(dir.path() / "u", dir.path() / "fresh");
  CHECK(Json::parse(readText(dir.path() / "u" / "batch.json")) == toJson(second));

  // Fewer games: the first ones are kept, none is played; the files equal a fresh run's.
  const Batch fewer = batchOf({ludoExperiment("x/more", "e-random", 5)});
  update.batch = fewer;
  const RunOutcome again = run(update);
  CHECK(again.gamesResumed == 5);
  CHECK(again.gamesPlayed == 0);
  run(requestFor(fewer, dir.path() / "fresh-fewer"));
  requireSameFolders(dir.path() / "u", dir.path() / "fresh-fewer");
  // An empty folder is simply run into; a folder of something else is refused.
  update.out = dir.path() / "empty";
  CHECK(run(update).complete);
  fs::create_directories(dir.path() / "other");
  writeFileAtomically(dir.path() / "other" / "summary.csv", "x\n");
  update.out = dir.path() / "other";
  REQUIRE_THROWS_WITH(run(update), Contains("different batch"));
}

TEST_CASE("a resumed run checks the checkpoints and the completion it is told of", "[service]") {
  TempDir dir;
  const Batch batch = batchOf({ludoExperiment("x/e-hc", "e-hillclimber", 60),
                               ludoExperiment("x/e-random", "e-random", 400)});
  RunRequest request = requestFor(batch, dir.path() / "r");
  runAndStop(request, 70, false);  // the first experiment finished, the second started, unfinished
  const fs::path state = dir.path() / "r" / ".ddalab";
  REQUIRE(fs::exists(state / "x__e-hc.journal"));
  request.mode = FolderMode::Resume;

  SECTION("checkpoints swapped between experiments are refused, nothing is written") {
    REQUIRE(fs::exists(state / "x__e-random.journal"));
    fs::rename(state / "x__e-hc.journal", state / "swap");
    fs::rename(state / "x__e-random.journal", state / "x__e-hc.journal");
    fs::rename(state / "swap", state / "x__e-random.journal");
    REQUIRE_THROWS_WITH(run(request),
                        Contains("x__e-hc.journal") && Contains("another experiment"));
  }
  SECTION("a state.json claiming completion does not drop an unfinished experiment") {
    writeFileAtomically(state / "state.json",
                        R"({"format":"ddalab-run/1","complete":true,"traces":"none"})"
                        "\n");
    const RunOutcome outcome = run(request);
    CHECK(outcome.complete);
    CHECK(outcome.gamesPlayed > 0);
    run(requestFor(batch, dir.path() / "whole"));
    requireSameFolders(dir.path() / "r", dir.path() / "whole");
  }
}

// ---- shards ----------------------------------------------------------------------

namespace {

Batch shardOf(Batch batch, int index, int count) {
  batch.shard = Shard{index, count};
  return batch;
}

std::string mergeError(std::vector<fs::path> shards, const fs::path& out) {
  try {
    mergeShards(shards, out, FolderMode::Fresh);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("shards split every experiment's iterations into contiguous parts", "[shard]") {
  Batch batch = twoExperiments(10);
  std::vector<size_t> begins;
  for (int k = 0; k < 4; ++k) {
    const IterationRange r = iterationsOf(shardOf(batch, k, 4), batch.experiments[0]);
    begins.push_back(r.begin);
    CHECK(r.end ==
          (k == 3 ? 10u : iterationsOf(shardOf(batch, k + 1, 4), batch.experiments[0]).begin));
  }
  CHECK(begins == std::vector<size_t>{0, 2, 5, 7});
  CHECK(plannedGames(shardOf(batch, 1, 4)) == 2 * 3);
  CHECK(parseShard("2/5", "--shard").index == 2);
  CHECK_THROWS_WITH(parseShard("5/5", "--shard"),
                    Contains("--shard: expected K/N with 0 <= K < N"));
  CHECK_THROWS_WITH(parseShard("x", "--shard"), Contains("got 'x'"));
}

TEST_CASE("merged shards are byte-identical to one run, for 1..5 shards and any threads",
          "[shard]") {
  TempDir dir;
  const Batch batch = twoExperiments(7);
  run(requestFor(batch, dir.path() / "whole", 2));
  // Appended piece by piece: "s" + std::string trips a false -Wrestrict in g++ 12.
  const auto folder = [&](const char* kind, int count, int k) {
    std::string name = kind;
    name += std::to_string(count);
    name += '-';
    name += std::to_string(k);
    return dir.path() / name;
  };
  for (int count = 1; count <= 5; ++count) {
    CAPTURE(count);
    std::vector<fs::path> shards;
    for (int k = count - 1; k >= 0; --k) {  // any order
      shards.push_back(folder("s", count, k));
      run(requestFor(shardOf(batch, k, count), shards.back(), 1 + k % 2));
    }
    const fs::path merged = folder("m", count, 0);
    mergeShards(shards, merged, FolderMode::Fresh);
    requireSameFolders(dir.path() / "whole", merged);
  }
}

TEST_CASE("merge refuses what is not one finished set of shards, naming the folder", "[shard]") {
  TempDir dir;
  const Batch batch = twoExperiments(6);
  const fs::path a = dir.path() / "a", b = dir.path() / "b", whole = dir.path() / "whole";
  run(requestFor(shardOf(batch, 0, 2), a));
  run(requestFor(shardOf(batch, 1, 2), b));
  run(requestFor(batch, whole));
  const fs::path out = dir.path() / "out";
  CHECK_THAT(mergeError({a}, out), Contains("shard 1/2 is missing (1 of 2 folders given)"));
  CHECK_THAT(mergeError({a, a, b}, out), Contains(a.string() + ": holds shard 0/2 like"));
  CHECK_THAT(mergeError({a, whole}, out),
             Contains(whole.string() + ": holds the results of a whole batch"));
  CHECK_THAT(mergeError({a, dir.path() / "none"}, out), Contains("none: no batch.json"));
  // Another batch (another seed), another shard count.
  const fs::path other = dir.path() / "other";
  run(requestFor(shardOf(twoExperiments(6, 8), 1, 2), other));
  CHECK_THAT(mergeError({a, other}, out),
             Contains(other.string() + ": holds a shard of another batch"));
  // An unfinished shard: stopped after 2 of its 6 games.
  const fs::path stopped = dir.path() / "stopped";
  runAndStop(requestFor(shardOf(batch, 1, 2), stopped, 1), 2, false);
  CHECK_THAT(mergeError({a, stopped}, out),
             Contains(stopped.string() + ": shard 1/2 is unfinished; finish it first") &&
                 Contains("--resume"));
  // Resumed, it merges like the others.
  RunRequest resume = requestFor(shardOf(batch, 1, 2), stopped);
  resume.mode = FolderMode::Resume;
  run(resume);
  CHECK(mergeError({a, stopped}, out).empty());
  requireSameFolders(whole, out);
  // Another ddalab version.
  Json doc = Json::parse(readText(b / "batch.json"));
  doc["shard"]["ddalab"] = "0.0.1";
  std::ofstream(b / "batch.json") << doc.dump(2) << "\n";
  CHECK_THAT(mergeError({a, b}, dir.path() / "out2"),
             Contains(b.string() + ": was written by ddalab 0.0.1"));
}

// ---- merge hardened --------------------------------------------------------------

namespace {

// Two finished shards of twoExperiments(6) in `dir` (a, b) and the whole run (whole).
struct ShardSet {
  explicit ShardSet(const fs::path& dir) : a(dir / "a"), b(dir / "b"), whole(dir / "whole") {
    const Batch batch = twoExperiments(6);
    run(requestFor(shardOf(batch, 0, 2), a));
    run(requestFor(shardOf(batch, 1, 2), b));
    run(requestFor(batch, whole));
  }
  fs::path a, b, whole;
};

// Rewrites the JSON file `file` with `edit` applied.
void editJson(const fs::path& file, const std::function<void(Json&)>& edit) {
  Json doc = Json::parse(readText(file));
  edit(doc);
  std::ofstream(file, std::ios::trunc) << doc.dump(2) << "\n";
}

// The text of `file` with its line `line` (1-based) replaced by `text`.
void replaceLine(const fs::path& file, size_t line, const std::string& text) {
  std::istringstream in(readText(file));
  std::string out, current;
  for (size_t n = 1; std::getline(in, current); ++n) out += (n == line ? text : current) + "\n";
  std::ofstream(file, std::ios::trunc) << out;
}

}  // namespace

TEST_CASE("merge refuses a hostile shard record, naming the file and the JSON path", "[shard]") {
  TempDir dir;
  const ShardSet set(dir.path());
  const fs::path file = set.b / "batch.json";
  const std::string original = readText(file);
  const fs::path out = dir.path() / "out";
  const Json huge = Json::parse("1e300");
  const std::vector<std::pair<std::function<void(Json&)>, std::string>> cases = {
      {[](Json& d) { d["shard"]["index"] = -1; }, "$.shard.index: expected an integer in [0, 1]"},
      {[](Json& d) { d["shard"]["count"] = 0; }, "$.shard.count: expected an integer in [1, 100000]"},
      {[](Json& d) { d["shard"]["index"] = 5; }, "$.shard.index: expected an integer in [0, 1]"},
      {[](Json& d) { d["shard"]["count"] = 2000000000; }, "$.shard.count: expected an integer"},
      {[](Json& d) { d["shard"]["ddalab"] = 5; }, "$.shard.ddalab: expected a non-empty string"},
      {[](Json& d) { d["shard"].erase("index"); }, "$.shard.index: missing required key"},
      {[](Json& d) { d["shard"]["index"] = "1"; }, "$.shard.index: expected an integer"},
      {[](Json& d) { d["shard"]["index"] = 0.5; }, "$.shard.index: expected an integer"},
      {[&](Json& d) { d["shard"]["count"] = huge; }, "$.shard.count: expected an integer"},
      {[](Json& d) { d["shard"]["count"] = 18446744073709551615ull; },
       "$.shard.count: expected an integer"},
      {[](Json& d) { d["shard"] = Json::array({1, 2}); }, "$.shard: expected an object"},
      {[](Json& d) { d["shard"] = nullptr; }, "$.shard: expected an object"},
      {[](Json& d) { d["shard"]["batch_sha256"] = "abc"; },
       "$.shard.batch_sha256: expected 64 lowercase hex digits"},
      {[](Json& d) { d["shard"]["batch_sha256"] = std::string(64, 'a'); },
       "$.shard.batch_sha256: does not match the batch the file holds"},
      {[](Json& d) { d["shard"]["extra"] = 1; }, "$.shard.extra: unknown key"},
      {[](Json& d) { d = Json::array(); }, "$: expected a JSON object"},
  };
  for (const auto& [edit, expected] : cases) {
    CAPTURE(expected);
    std::ofstream(file, std::ios::trunc) << original;
    editJson(file, edit);
    CHECK_THAT(mergeError({set.a, set.b}, out), Contains(file.string() + ": " + expected));
    CHECK_FALSE(fs::exists(out));
  }
  std::ofstream(file, std::ios::trunc) << original;
  CHECK(mergeError({set.a, set.b}, out).empty());
  requireSameFolders(set.whole, out);
}

TEST_CASE("merge never writes onto its input, by any name of it", "[shard]") {
  TempDir dir;
  const ShardSet set(dir.path());
  const auto before = folderFiles(set.a);
  const auto overwriteError = [&](const fs::path& out) {
    try {
      mergeShards(std::vector<fs::path>{set.a, set.b}, out, FolderMode::Overwrite);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(overwriteError(set.a), Contains("is the shard folder " + set.a.string()));
  CHECK_THAT(overwriteError(set.a / "sub"), Contains("or inside it"));
  CHECK_THAT(overwriteError(set.b / ".." / "a" / ""), Contains("is the shard folder"));
  fs::create_directory_symlink(set.a, dir.path() / "link");
  CHECK_THAT(overwriteError(dir.path() / "link"), Contains("is the shard folder"));
  CHECK_THAT(overwriteError(dir.path()), Contains("holds the shard folder " + set.a.string()));
  CHECK(folderFiles(set.a) == before);
  CHECK(fs::exists(journalFile(set.a, twoExperiments(6).experiments[0])));
}

TEST_CASE("merge checks each shard's games CSV against the shard's checkpoint", "[shard]") {
  TempDir dir;
  const ShardSet set(dir.path());
  const fs::path out = dir.path() / "out";
  const fs::path hc = set.b / "x__e-hc.games.csv", random = set.b / "x__e-random.games.csv";
  REQUIRE(fs::exists(hc));
  const std::string hcText = readText(hc), randomText = readText(random);
  SECTION("an edited row is named by file and line") {
    std::istringstream lines(hcText);
    std::string line;
    for (int n = 0; n < 3; ++n) std::getline(lines, line);
    std::string edited = line;
    edited.back() = edited.back() == '1' ? '2' : '1';  // the last field of the second game
    replaceLine(hc, 3, edited);
    CHECK_THAT(mergeError({set.a, set.b}, out),
               Contains(hc.string() + ": line 3: game 4 differs from the game the shard's "
                                      "checkpoint records"));
  }
  SECTION("two experiments' CSVs swapped are refused") {
    std::ofstream(hc, std::ios::trunc) << randomText;
    std::ofstream(random, std::ios::trunc) << hcText;
    CHECK_THAT(mergeError({set.a, set.b}, out), Contains(hc.string() + ": line 2"));
  }
  SECTION("swapped checkpoints are refused") {
    const Batch batch = twoExperiments(6);
    const fs::path j0 = journalFile(set.b, batch.experiments[0]);
    const fs::path j1 = journalFile(set.b, batch.experiments[1]);
    fs::rename(j0, dir.path() / "j");
    fs::rename(j1, j0);
    fs::rename(dir.path() / "j", j1);
    CHECK_THAT(mergeError({set.a, set.b}, out),
               Contains(j0.string() + ": is not the checkpoint of 'x/e-hc'"));
  }
  SECTION("a missing checkpoint is refused") {
    fs::remove(journalFile(set.b, twoExperiments(6).experiments[1]));
    CHECK_THAT(mergeError({set.a, set.b}, out), Contains("x__e-random.journal: missing"));
  }
  // Refused late (after shard a's games were written): nothing is left, and the next merge runs.
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(dir.path() / ".out.ddalab-merge"));
}

TEST_CASE("a refused or killed merge leaves no --out and the next merge succeeds", "[shard]") {
  TempDir dir;
  const ShardSet set(dir.path());
  const fs::path out = dir.path() / "out";
  const fs::path csv = set.b / "x__e-random.games.csv";  // the last file read
  const std::string text = readText(csv);
  replaceLine(csv, 4, "");
  CHECK_THAT(mergeError({set.a, set.b}, out), Contains(csv.string()));
  CHECK_FALSE(fs::exists(out));
  std::ofstream(csv, std::ios::trunc) << text;
  // What a merge killed midway leaves: its work folder with partial results, a temporary file
  // and the lock file of a process that is gone.
  const fs::path work = dir.path() / ".out.ddalab-merge";
  fs::create_directories(work / ".ddalab");
  std::ofstream(work / "batch.json") << readText(set.whole / "batch.json");
  std::ofstream(work / "x__e-hc.summary.csv") << "partial\n";
  std::ofstream(work / ".x__e-hc.games.csv.ddalab-tmp-99999") << "partial\n";
  std::ofstream(work / ".ddalab.lock") << "pid 99999";
  CHECK(mergeError({set.a, set.b}, out).empty());
  requireSameFolders(set.whole, out);
  CHECK_FALSE(fs::exists(work));
  CHECK_FALSE(fs::exists(out / ".ddalab.lock"));
  // A fresh merge into the complete results of the same batch redoes them; other results are
  // refused without --overwrite and replaced with it; a folder of other files is never replaced.
  CHECK(mergeError({set.a, set.b}, out).empty());
  CHECK_THAT(mergeError({set.a, set.b}, set.whole.parent_path() / "a" / ".."), Contains("holds"));
  std::ofstream(out / "notes.txt") << "mine\n";
  CHECK_THAT(mergeError({set.a, set.b}, out), Contains("holds 'notes.txt', which ddalab did not"));
  fs::remove(out / "notes.txt");
  editJson(out / "batch.json", [](Json& d) { d["seed"] = 8; });
  CHECK_THAT(mergeError({set.a, set.b}, out), Contains("results of a different batch"));
  mergeShards(std::vector<fs::path>{set.a, set.b}, out, FolderMode::Overwrite);
  requireSameFolders(set.whole, out);
  // A symbolic link to a folder means that folder: the link stays, the folder gets the results.
  fs::create_directory(dir.path() / "real");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "linked");
  CHECK(mergeError({set.a, set.b}, dir.path() / "linked").empty());
  CHECK(fs::is_symlink(dir.path() / "linked"));
  requireSameFolders(set.whole, dir.path() / "real");
  fs::create_directory_symlink(dir.path() / "nowhere", dir.path() / "dangling");
  CHECK_THAT(mergeError({set.a, set.b}, dir.path() / "dangling"),
             Contains("is a symbolic link to no folder"));
}

TEST_CASE("OutputFile refuses a path that is not a regular file and leaves it as it was",
          "[files]") {
  TempDir dir;
  const fs::path target = dir.write("target.txt", "keep\n");
  const fs::path link = dir.path() / "link.txt", fifo = dir.path() / "fifo";
  fs::create_symlink(target, link);
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  for (const fs::path& path : {link, fifo, dir.path()}) {
    CAPTURE(path);
    CHECK_THROWS_WITH(writeFileAtomically(path, "new\n"),
                      Contains(path.string() + ": is ") && Contains("not a regular file"));
    CHECK_THROWS_AS(AppendFile(path, 0), InputError);
  }
  CHECK(fs::is_symlink(link));
  CHECK(fs::is_fifo(fifo));
  CHECK(readText(target) == "keep\n");
  // Replaced while being written: the rename is refused too.
  {
    OutputFile out(dir.path() / "late.csv");
    out.write("x");
    fs::create_symlink(target, dir.path() / "late.csv");
    CHECK_THROWS_AS(out.commit(), InputError);
  }
  CHECK(fs::is_symlink(dir.path() / "late.csv"));
  // A device: only checked, never written (a regression must not replace /dev/null); one of our
  // own is written to when the tests run as root and may create it.
  struct stat before {}, after{};
  REQUIRE(::stat("/dev/null", &before) == 0);
  CHECK_THROWS_WITH(checkReplaceable("/dev/null"), Contains("/dev/null: is a device"));
  REQUIRE(::stat("/dev/null", &after) == 0);
  CHECK((S_ISCHR(after.st_mode) && after.st_ino == before.st_ino));
  const fs::path device = dir.path() / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    CHECK_THROWS_WITH(writeFileAtomically(device, "x"), Contains("is a device"));
    CHECK(fs::is_character_file(device));
  }
}
