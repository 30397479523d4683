#include "experiments/run_service.h"

#include <exception>
#include <fstream>

#include "experiments/journal.h"
#include "experiments/rating_results.h"
#include "experiments/sweep_results.h"
#include "results/folder_analysis.h"
#include "results/results_reader.h"
#include "results/results_writer.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// One experiment of a run: its checkpoint, its summary so far, its games CSV (and trace file)
// written as the games arrive, and the games held back after a gap a stop left (they are written
// to the CSVs but not checkpointed: a resumed run replays them).
class ExperimentRun {
 public:
  ExperimentRun(const RunRequest& request, const OutputFolder& folder, const RunEvents& events,
                size_t index)
      : request_(request),
        experiment_(request.batch.experiments[index]),
        index_(index),
        journalFile_(folder.journal(experiment_)),
        identity_(playIdentity(request.batch, index)),
        range_(iterationsOf(request.batch, experiment_)),
        events_(events),
        summary_(labelOf(experiment_)),
        blocks_(experiment_.objective, range_.end) {}

  // Reads back the checkpoint of an interrupted run; returns how many games it held.
  size_t resume() {
    const JournalScan scan =
        readJournalFrom(journalFile_, identity_, next(), [this](JournalEntry&& entry) {
          add(entry.record);
          writeGame(gamesCsvRow(entry.record, experiment_.players.size()), entry.trace);
        });
    validBytes_ = scan.validBytes;
    return scan.entries;
  }

  // Plays the games not yet finished; returns how many were played.
  size_t play(RunControl& control, const std::function<void()>& tick) {
    const size_t first = next();
    JournalWriter journal(journalFile_, validBytes_, identity_);
    auto lastSync = Clock::now();
    PlayOptions options;
    options.threads = request_.threads;
    options.traces = request_.traces.has_value();
    options.traceDetail = request_.traces && request_.traces->detail;
    options.csvRows = true;
    options.window = request_.window;
    options.blocks = &blocks_;
    size_t played = 0;
    try {
      playIterations(
          request_.batch, experiment_, first, options, control,
          [&](FinishedGame&& game, bool contiguous) {
            add(game.record);
            ++played;
            if (!contiguous) return heldBack_.push_back(std::move(game));
            journal.append(game.record, game.trace);
            writeGame(game.row, game.trace);
          },
          [&] {
            journal.flush();
            if (secondsSince(lastSync) >= 1.0) {
              journal.sync();
              lastSync = Clock::now();
            }
            tick();
          });
    } catch (const WriteError&) {
      throw;
    } catch (...) {  // a game failed (a player threw): the games finished before it are kept
      journal.sync();
      throw;
    }
    journal.sync();
    return played;
  }

  // Completes the experiment's CSVs (and trace) with the games held back and writes its summary.
  ExperimentSummary write() {
    for (const FinishedGame& game : heldBack_) writeGame(game.row, game.trace);
    files().games.commit();
    if (files().trace) files().trace->commit();
    const ExperimentSummary summary = summary_.summary();
    writeSummaryCsv(request_.out, summary);
    return summary;
  }

  size_t games() const { return summary_.games(); }
  bool finished() const { return summary_.games() == range_.size(); }

 private:
  // The iteration of the next game to play (its shard's first at the start).
  size_t next() const { return range_.begin + summary_.games(); }

  void add(const GameRecord& record) {
    summary_.add(record);
    blocks_.add(record.iteration, record.winner);
    if (events_.onGame) events_.onGame(index_, record);
  }

  // The games CSV and trace file being written (under temporary names until write()).
  struct Files {
    Files(const RunRequest& request, const ExperimentLabel& label) : games(request.out, label) {
      if (request.traces)
        trace.emplace(request.traces->dir / (fileStem(label.name) + ".trace.jsonl"));
    }
    GamesCsvWriter games;
    std::optional<OutputFile> trace;
  };
  Files& files() {
    if (!files_) files_.emplace(request_, summary_.label());
    return *files_;
  }
  // Appends the next game's CSV line and trace line.
  void writeGame(std::string_view row, std::string_view trace) {
    Files& out = files();
    out.games.addRow(row);
    if (!out.trace) return;
    out.trace->write(trace);
    out.trace->write("\n");
  }

  const RunRequest& request_;
  const Experiment& experiment_;
  size_t index_;
  fs::path journalFile_;
  uint64_t identity_;     // the experiment's playIdentity, in its checkpoint's header
  IterationRange range_;  // the iterations this run plays
  const RunEvents& events_;
  SummaryBuilder summary_;
  WinRateBlocks blocks_;  // a win-rate objective's estimates (resumed games counted too)
  uintmax_t validBytes_ = 0;
  std::vector<FinishedGame> heldBack_;
  std::optional<Files> files_;
};

// The outcome of a folder that already holds the complete results of the batch.
RunOutcome completeOutcome(const fs::path& dir) {
  RunOutcome outcome;
  outcome.summaries = summarizeResultsDir(dir);
  outcome.scores = scoreAll(outcome.summaries);
  outcome.analyses = analyzeResultsDir(dir, outcome.summaries);
  outcome.complete = true;
  for (const auto& s : outcome.summaries) outcome.gamesResumed += s.games;
  return outcome;
}

// Copies `file` into the folder `to` under the same name (complete or not at all).
void copyFile(const fs::path& file, const fs::path& to) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "cannot read the file");
  OutputFile out(to / file.filename());
  std::string buffer(1 << 16, '\0');
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0)
    out.write(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
  out.commit();
}

// Writes the CSVs of experiment `index` of `batch` into `to` from the games the results folder
// `from` keeps of it (readKeptGames: its checkpoint, else its games CSV), as the run writes
// them; none when it keeps no game.
std::optional<ExperimentSummary> exportKeptGames(const fs::path& from, const Batch& batch,
                                                 size_t index, const fs::path& to) {
  const Experiment& experiment = batch.experiments[index];
  SummaryBuilder summary(labelOf(experiment));
  std::optional<GamesCsvWriter> games;
  readKeptGames(from, experiment, playIdentity(batch, index), [&](const GameRecord& record) {
    if (!games) games.emplace(to, summary.label());
    games->add(record);
    summary.add(record);
    return true;
  });
  if (!games) return std::nullopt;
  games->commit();
  ExperimentSummary written = summary.summary();
  writeSummaryCsv(to, written);
  return written;
}

}  // namespace

std::optional<std::string> exportResults(const fs::path& from, const fs::path& to,
                                         FolderMode mode) {
  const Batch batch = loadBatch(from / "batch.json");
  if (fs::exists(to) && fs::equivalent(from, to)) return std::nullopt;  // already there
  OutputFolder folder(to, batch, mode, std::nullopt, {});
  // The experiments summary.csv lists are copied file for file (it checks them); a run killed
  // (not stopped) wrote no summary.csv, and its games are in the checkpoints only: those
  // experiments are written from what a resumed run continues from, so that every reader of
  // either folder counts the same games.
  std::vector<ExperimentSummary> summaries;
  if (fs::exists(from / "summary.csv")) summaries = summarizeResultsDir(from);
  for (const ExperimentSummary& s : summaries) exportExperiment(from, s.label.name, to);
  for (size_t i = summaries.size(); i < batch.experiments.size(); ++i) {
    std::optional<ExperimentSummary> kept = exportKeptGames(from, batch, i, to);
    if (!kept) break;
    summaries.push_back(std::move(*kept));
  }
  writeBatchCsvs(to, summaries);
  const std::vector<ComparisonAnalysis> analyses = analyzeResultsDir(to, summaries);
  writeAnalysisCsvs(to, analyses);
  writeSweepResults(to, batch, summaries, analyses);
  std::optional<std::string> warning = writeRatingResults(to, batch, summaries);
  size_t games = 0;
  for (const auto& s : summaries) games += s.games;
  if (games == plannedGames(batch)) folder.markComplete();
  return warning;
}

void exportExperiment(const fs::path& from, const std::string& name, const fs::path& to) {
  fs::create_directories(to);
  for (const char* suffix : {".games.csv", ".summary.csv"})
    copyFile(from / (fileStem(name) + suffix), to);
}

fs::path defaultResultsFolder(const std::string& name) {
  return fs::path("ddalab-out") / name;
}

FolderMode folderMode(bool resume, bool overwrite, const std::string& resumeName,
                      const std::string& overwriteName) {
  if (resume && overwrite) throw InputError(resumeName, "cannot be combined with " + overwriteName);
  if (resume) return FolderMode::Resume;
  return overwrite ? FolderMode::Overwrite : FolderMode::Fresh;
}

RunOutcome runToFolder(const RunRequest& request, const RunEvents& events, RunControl& control) {
  workerThreads(request.threads);  // refuses a bad thread count before the folder is touched
  OutputFolder folder(request.out, request.batch, request.mode, request.traces, request.inputs);
  if (folder.complete()) return completeOutcome(request.out);

  RunOutcome outcome;
  ProgressMeter meter(plannedGames(request.batch), 0);
  size_t doneBefore = 0;  // games of the experiments before the running one
  bool complete = true;
  std::exception_ptr failure;  // what made a game fail
  for (size_t index = 0; index < request.batch.experiments.size(); ++index) {
    if (control.stopping()) {
      complete = false;
      break;
    }
    const std::string& name = request.batch.experiments[index].name;
    ExperimentRun run(request, folder, events, index);
    if (folder.resuming()) {
      const size_t resumed = run.resume();
      outcome.gamesResumed += resumed;
      meter.countResumed(resumed);
    }
    auto lastReport = Clock::now();
    const auto report = [&] {
      if (events.onProgress) events.onProgress(meter.at(doneBefore + run.games(), index, name));
      lastReport = Clock::now();
    };
    // A game that fails (a player's exception) ends the run as a stop does, the finished games
    // written and resumable; then the failure is reported.
    try {
      outcome.gamesPlayed += run.play(control, [&] {
        if (secondsSince(lastReport) >= events.progressInterval) report();
      });
    } catch (const WriteError&) {
      throw;
    } catch (...) {
      failure = std::current_exception();
    }
    report();
    complete = complete && run.finished();
    outcome.summaries.push_back(run.write());
    writeBatchCsvs(request.out, outcome.summaries);
    doneBefore += run.games();
    if (events.onExperimentDone) events.onExperimentDone(index, outcome.summaries.back());
    if (!run.finished() || failure) break;
  }
  outcome.complete = complete && outcome.summaries.size() == request.batch.experiments.size();
  outcome.scores = scoreAll(outcome.summaries);
  // A run stopped before its first experiment wrote nothing to analyse (no summary.csv).
  if (!outcome.summaries.empty())
    outcome.analyses = analyzeResultsDir(request.out, outcome.summaries);
  writeAnalysisCsvs(request.out, outcome.analyses);
  writeSweepResults(request.out, request.batch, outcome.summaries, outcome.analyses);
  // (a failed game's run is rethrown, not rated)
  if (!failure)
    outcome.ratingWarning = writeRatingResults(request.out, request.batch, outcome.summaries);
  if (failure) std::rethrow_exception(failure);
  if (outcome.complete) folder.markComplete();
  return outcome;
}

}  // namespace ddalab
