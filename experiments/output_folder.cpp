#include "experiments/output_folder.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "experiments/folder_lock.h"
#include "experiments/journal.h"
#include "experiments/runner.h"
#include "results/experiment_result.h"
#include "core/file_io.h"
#include "results/results_reader.h"

namespace ddalab {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".ddalab.lock";
constexpr const char* kStateDir = ".ddalab";
constexpr const char* kStateName = "state.json";
constexpr const char* kStateFormat = "ddalab-run/1";
constexpr const char* kBatchName = "batch.json";
constexpr const char* kNextDir = ".ddalab-next";  // the kept checkpoints while a folder updates

// The suffixes of every file a run writes into its folder (besides batch.json and summary.csv).
constexpr std::array<std::string_view, 7> kResultSuffixes = {
    ".games.csv", ".summary.csv",       ".scores.csv", ".trace.jsonl",
    ".tests.csv", ".detectability.csv", ".ranks.csv"};

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string readSmallFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The JSON in `file`, if it holds valid JSON.
std::optional<Json> readJson(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return std::nullopt;
  try {
    return Json::parse(readSmallFile(file));
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

// What a folder's state.json says of its run: complete (true), unfinished (false), or nothing
// readable (a state written by hand may hold anything).
std::optional<bool> completeFlag(const std::optional<Json>& state) {
  if (!state || !state->is_object() || !state->contains("complete") ||
      !state->at("complete").is_boolean())
    return std::nullopt;
  return state->at("complete").get<bool>();
}

// The longest name the file system of `dir` allows.
size_t nameLimit(const fs::path& dir) {
  const long limit = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return limit > 0 ? static_cast<size_t>(limit) : 255;
}

// Throws when `name` + the temporary suffix does not fit the file names of `dir`.
void checkNameFits(const fs::path& dir, const std::string& name, const std::string& where) {
  const size_t limit = nameLimit(dir);
  if (name.size() + kTemporaryNameOverhead > limit)
    throw InputError(where, "the file name '" + name + "' is too long for " + dir.string() + " (" +
                                std::to_string(name.size()) + " bytes; at most " +
                                std::to_string(limit - kTemporaryNameOverhead) +
                                " fit there); choose a shorter name");
}

// Creates `dir` if needed and proves a file can be created there (in well under a second).
void checkWritable(const fs::path& dir, const std::string& option) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw InputError(option + " " + dir.string(), "cannot create it: " + error.message());
  if (!fs::is_directory(dir)) throw InputError(option + " " + dir.string(), "is not a folder");
  const fs::path probe = dir / ".ddalab-probe";
  try {
    OutputFile file(probe);  // removed again when dropped
  } catch (const WriteError& e) {
    throw InputError(option + " " + dir.string(),
                     std::string("cannot write there (") + e.what() + ")");
  }
}

// Removes temporary files left behind by a killed process.
void removeTemporaryFiles(const fs::path& dir) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (isTemporaryFileName(entry.path().filename().string())) fs::remove(entry.path(), error);
}

bool isResultFile(const fs::path& file) {
  const std::string name = file.filename().string();
  if (name == kBatchName || name == "summary.csv" || name == "sweep.csv") return true;
  for (std::string_view suffix : kResultSuffixes)
    if (endsWith(name, suffix)) return true;
  return false;
}

bool holdsResults(const fs::path& dir) {
  std::error_code error;
  if (fs::exists(dir / kStateDir, error)) return true;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (isResultFile(entry.path())) return true;
  return false;
}

// The files of `batch` a run writes into `dir`, with the JSON path of the name behind each.
std::vector<std::pair<std::string, std::string>> resultFileNames(const Batch& batch) {
  std::vector<std::pair<std::string, std::string>> names = {{kBatchName, "$"},
                                                            {"summary.csv", "$"}};
  for (size_t i = 0; i < batch.experiments.size(); ++i) {
    const Experiment& e = batch.experiments[i];
    const std::string at = "$.experiments[" + std::to_string(i) + "]";
    const std::string stem = fileStem(e.name);
    for (const char* suffix : {".games.csv", ".summary.csv", ".trace.jsonl", ".journal"})
      names.push_back({stem + suffix, at + ".name"});
    if (!e.comparison.empty())
      names.push_back({fileStem(e.comparison) + ".scores.csv", at + ".comparison"});
  }
  return names;
}

// How a run with trace kind `kind` was started, for messages.
std::string traceText(const std::string& kind) {
  if (kind == "detail") return "with --trace and --trace-detail";
  if (kind == "plain") return "with --trace";
  return "without --trace";
}

}  // namespace

bool holdsUnfinishedRun(const fs::path& dir) {
  const std::optional<Json> state = readJson(dir / kStateDir / kStateName);
  return state && state->is_object() && fs::exists(dir / kBatchName) &&
         !completeFlag(state).value_or(true);
}

namespace {

// Whether `name` in a results folder is something a run writes (results, state, lock, temporaries).
bool isRunEntry(const fs::path& entry) {
  const std::string name = entry.filename().string();
  return isResultFile(entry) || name == kStateDir || name == kLockName || name == kNextDir ||
         isTemporaryFileName(name);
}

bool sameBatchAs(const Json& held, const Json& wanted, const std::string& where);

}  // namespace

void checkReplaceableFolder(const fs::path& dir, const Batch& batch, FolderMode mode,
                            const std::string& option) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(dir, error);
  if (!fs::exists(status)) return;
  const std::string where = option + " " + dir.string();
  if (!fs::is_directory(status))
    throw InputError(where, std::string(fs::is_symlink(status) ? "is a symbolic link"
                                                               : "exists and is not a folder") +
                                "; give the path of a folder (a new one, or one of results to "
                                "replace)");
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (!isRunEntry(entry.path()))
      throw InputError(where, "holds '" + entry.path().filename().string() +
                                  "', which ddalab did not write; the folder is replaced as a "
                                  "whole: choose a new or empty folder");
  if (error) throw InputError(where, "cannot list the folder: " + error.message());
  if (lockHeld(dir / kLockName))
    throw InputError(where, "the folder is in use by another run; wait for it to end or choose "
                            "another folder");
  if (mode == FolderMode::Overwrite || !holdsResults(dir)) return;
  const std::optional<Json> held = readJson(dir / kBatchName);
  const bool sameBatch = held && sameBatchAs(*held, toJson(batch), (dir / kBatchName).string());
  if (sameBatch && completeFlag(readJson(dir / kStateDir / kStateName)).value_or(false))
    return;  // the complete results of this batch: redone, as a run redoes them
  throw InputError(where, std::string(sameBatch ? "the folder holds unfinished results of this batch"
                                                : "the folder holds results of a different batch") +
                              "; choose another folder, or replace them with --overwrite");
}

bool OutputFolder::wouldReplace(const fs::path& input, bool sameBatch,
                                const std::optional<fs::path>& traceDir) const {
  std::error_code error;
  const fs::path folder = fs::absolute(input, error).parent_path();
  const bool inFolder =
      fs::equivalent(folder, dir_, error) || (traceDir && fs::equivalent(folder, *traceDir, error));
  // batch.json of the same batch is left as it is (it already says what runs).
  return inFolder && isResultFile(input) && !(sameBatch && input.filename() == kBatchName);
}

OutputFolder::OutputFolder(fs::path dir, const Batch& batch, FolderMode mode,
                           const std::optional<TraceOutput>& traces,
                           std::span<const fs::path> inputs)
    : dir_(std::move(dir)),
      stateDir_(dir_ / kStateDir),
      traceKind_(!traces          ? "none"
                 : traces->detail ? "detail"
                                  : "plain"),
      keepJournals_(batch.shard.has_value()) {
  const std::optional<fs::path> traceDir =
      traces ? std::optional<fs::path>(traces->dir) : std::nullopt;
  checkWritable(dir_, "--out");
  if (traceDir) checkWritable(*traceDir, "--trace");
  lock();
  try {
    for (const auto& [name, where] : resultFileNames(batch)) {
      checkNameFits(dir_, name, where);
      if (traceDir) checkNameFits(*traceDir, name, where);
    }
    removeTemporaryFiles(dir_);
    if (traceDir) removeTemporaryFiles(*traceDir);
    classify(batch, mode, traceDir, inputs);
  } catch (...) {
    lock_.reset();
    throw;
  }
}

OutputFolder::~OutputFolder() = default;

void OutputFolder::lock() {
  try {
    lock_ = std::make_unique<FolderLock>(dir_, kLockName);
  } catch (const FolderInUse& e) {
    throw InputError("--out " + dir_.string(), "the folder is in use by another run (" +
                                                   e.holder() +
                                                   "); wait for it to end or choose another --out");
  } catch (const InputError& e) {
    throw InputError("--out " + dir_.string(), e.message());
  }
}

namespace {

// `batch` without where its plug-ins were loaded from: the same plug-in file (same sha256)
// moved to another folder or machine runs the same batch.
Json withoutPluginFiles(Json batch) {
  if (batch.contains("plugins") && batch.at("plugins").is_array())
    for (Json& plugin : batch.at("plugins"))
      if (plugin.is_object()) plugin.erase("file");
  return batch;
}

// Whether a folder's batch.json (`held`) says the batch `wanted` runs: the same text, or the same
// once read as today's batch files are (a parameter added since the run started takes its default,
// which by rule plays as before; a value the file states is kept, so a changed one still differs).
bool sameBatchAs(const Json& held, const Json& wanted, const std::string& where) {
  if (withoutPluginFiles(held) == withoutPluginFiles(wanted)) return true;
  try {
    return withoutPluginFiles(toJson(parseBatch(held, where))) == withoutPluginFiles(wanted);
  } catch (const InputError&) {  // not a batch of this version: another batch
    return false;
  }
}

// Why the plug-ins a run used (`held`, its batch.json) differ from those it would use now
// (`wanted`); "" when they are the same files.
std::string changedPlugin(const Json& held, const Json& wanted) {
  const Json none = Json::array();
  const Json& now = wanted.contains("plugins") ? wanted.at("plugins") : none;
  for (const Json& then : held.value("plugins", none)) {
    const std::string name = then.value("name", "");
    const auto same = std::find_if(now.begin(), now.end(),
                                   [&](const Json& p) { return p.value("name", "") == name; });
    if (same == now.end()) continue;  // not used now: the batch differs, said below
    if (same->value("sha256", "") != then.value("sha256", ""))
      return "plug-in '" + name + "' changed since the run started (sha256 " +
             then.value("sha256", "").substr(0, 16) + "... then, " +
             same->value("sha256", "").substr(0, 16) + "... now, from " + same->value("file", "") +
             "); resume with the plug-in it was started with";
  }
  return "";
}

}  // namespace

void OutputFolder::classify(const Batch& batch, FolderMode mode,
                            const std::optional<fs::path>& traceDir,
                            std::span<const fs::path> inputs) {
  const Json wanted = toJson(batch);
  const std::optional<Json> held = readJson(dir_ / kBatchName);
  const std::optional<Json> state = readJson(stateDir_ / kStateName);
  const bool sameBatch = held && sameBatchAs(*held, wanted, (dir_ / kBatchName).string());
  const bool wasComplete = completeFlag(state).value_or(false);
  const std::string where = "--out " + dir_.string();
  if (mode == FolderMode::Resume && held)
    if (const std::string why = changedPlugin(*held, wanted); !why.empty())
      throw InputError(where, why);
  for (const fs::path& input : inputs)
    if (wouldReplace(input, sameBatch, traceDir))
      throw InputError(input.string(),
                       "the run would write onto its own input file; choose another --out");
  if (mode == FolderMode::Resume) {
    if (!held)
      throw InputError(where,
                       "there is no run to resume here (no batch.json); start one without "
                       "--resume");
    if (!sameBatch)
      throw InputError(where,
                       "the folder holds a run of a different batch; --resume needs the "
                       "batch it was started with (e.g. ddalab run " +
                           (dir_ / kBatchName).string() + " --out " + dir_.string() + " --resume)");
    const std::string started = state ? state->value("traces", "none") : traceKind_;
    if (!wasComplete && started != traceKind_)
      throw InputError(where,
                       "the run was started " + traceText(started) + "; resume it the same way");
    resuming_ = true;
    // state.json's word is checked against the files: an experiment short of games resumes.
    complete_ = wasComplete && holdsEveryGame(batch);
    if (!complete_) writeState(false);
    return;
  }
  if (mode == FolderMode::Update && held) {
    update(batch, *held);
    return;
  }
  if ((mode == FolderMode::Fresh || mode == FolderMode::Update) && holdsResults(dir_) &&
      !(sameBatch && wasComplete)) {
    if (sameBatch)
      throw InputError(where,
                       "the folder holds an unfinished run of this batch; continue it with "
                       "--resume or start again with --overwrite");
    throw InputError(where, "the folder holds results of a different batch" +
                                std::string(held ? " (see its batch.json)" : "") +
                                "; choose another --out, or replace them with --overwrite");
  }
  clearResults();
  fs::create_directories(stateDir_);
  if (!sameBatch) writeFileAtomically(dir_ / kBatchName, wanted.dump(2) + "\n");
  writeState(false);
}

bool OutputFolder::holdsEveryGame(const Batch& batch) const {
  try {
    const std::vector<ExperimentSummary> summaries = summarizeResultsDir(dir_);
    if (summaries.size() != batch.experiments.size()) return false;
    for (size_t i = 0; i < summaries.size(); ++i)
      if (summaries[i].label.name != batch.experiments[i].name ||
          summaries[i].games != iterationsOf(batch, batch.experiments[i]).size())
        return false;
    return true;
  } catch (const std::exception&) {  // missing or damaged files: not complete
    return false;
  }
}

void OutputFolder::clearResults() {
  std::error_code error;
  fs::remove_all(stateDir_, error);
  for (const auto& entry : fs::directory_iterator(dir_, error))
    if (isResultFile(entry.path()) && entry.path().filename() != kBatchName)
      fs::remove(entry.path(), error);
}

void OutputFolder::writeState(bool complete) const {
  fs::create_directories(stateDir_);
  const Json state = {{"format", kStateFormat}, {"complete", complete}, {"traces", traceKind_}};
  writeFileAtomically(stateDir_ / kStateName, state.dump() + "\n");
}

fs::path journalFile(const fs::path& dir, const Experiment& experiment) {
  return dir / kStateDir / (fileStem(experiment.name) + ".journal");
}

fs::path OutputFolder::journal(const Experiment& experiment) const {
  return journalFile(dir_, experiment);
}

void OutputFolder::markComplete() {
  writeState(true);
  complete_ = true;
  if (keepJournals_) return;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(stateDir_, error))
    if (entry.path().extension() == ".journal") fs::remove(entry.path(), error);
}

void OutputFolder::update(const Batch& batch, const Json& held) {
  std::optional<Batch> heldBatch;
  try {
    heldBatch = parseBatch(held, (dir_ / kBatchName).string());
  } catch (const InputError&) {  // a batch.json of another version: nothing is kept
  }
  const std::vector<std::optional<size_t>> match =
      heldBatch && traceKind_ == "none"
          ? matchExperiments(*heldBatch, batch)
          : std::vector<std::optional<size_t>>(batch.experiments.size());
  // Crash-safe order: the kept games are copied aside, the old results removed, the new batch
  // written, and only then the kept checkpoints put in place (a stop in between loses games,
  // never pairs them with the wrong experiment).
  const fs::path next = dir_ / kNextDir;
  fs::remove_all(next);
  fs::create_directories(next);
  for (size_t i = 0; i < batch.experiments.size(); ++i)
    if (match[i])
      keepGames(heldBatch->experiments[*match[i]], playIdentity(batch, i),
                batch.experiments[i].iterations, next / journal(batch.experiments[i]).filename());
  clearResults();
  writeFileAtomically(dir_ / kBatchName, toJson(batch).dump(2) + "\n");
  writeState(false);
  for (const auto& entry : fs::directory_iterator(next))
    fs::rename(entry.path(), stateDir_ / entry.path().filename());
  fs::remove_all(next);
  resuming_ = true;
}

void OutputFolder::keepGames(const Experiment& held, uint64_t identity, int iterations,
                             const fs::path& to) const {
  // Matched experiments play the same games: the held one's identity is `identity` too.
  JournalWriter out(to, 0, identity);
  uint64_t count = 0;
  try {
    readKeptGames(dir_, held, identity, [&](const GameRecord& record) {
      if (record.iteration != count || count >= static_cast<uint64_t>(iterations)) return false;
      out.append(record, "");
      ++count;
      return true;
    });
  } catch (const InputError&) {  // a checkpoint of something else or a damaged games file:
  }                               // the experiment starts over
  out.sync();
}

void readKeptGames(const fs::path& dir, const Experiment& experiment, uint64_t identity,
                   const std::function<bool(const GameRecord&)>& onGame) {
  const fs::path journal = journalFile(dir, experiment);
  if (fs::exists(journal)) {
    readJournal(journal, identity, [&](JournalEntry&& entry) { return onGame(entry.record); });
  } else if (fs::exists(dir / (fileStem(experiment.name) + ".games.csv"))) {
    for (const GameRecord& record : readExperimentGames(dir, labelOf(experiment)).records)
      if (!onGame(record)) break;
  }
}

}  // namespace ddalab
