// ddalab.run's engine: a batch (a file, or a dict in the batch format) run into a results folder
// by the run service, as `ddalab run` runs it. The GIL is released while the batch runs; the
// progress event (on the calling thread, about every 0.25 s) takes it back to report progress and
// to notice Ctrl-C, which stops the run as the CLI's first SIGINT does (a second one abandons the
// running games; the files are written either way).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <optional>

#include "app/python/bindings.h"
#include "app/python/json_convert.h"
#include "experiments/batch.h"
#include "experiments/run_service.h"
#include "results/csv_schema.h"
#include "core/file_io.h"
#include "results/results_reader.h"

namespace py = pybind11;

namespace ddalab::python {

namespace {

// The name a dict batch is known by: in error messages and as its default results folder.
constexpr const char* kDictBatchName = "batch";

RunRequest makeRequest(const py::handle& batch, const std::optional<std::filesystem::path>& out,
                       int threads, bool resume, bool overwrite) {
  RunRequest request;
  std::string name = kDictBatchName;
  if (py::isinstance<py::dict>(batch)) {
    request.batch = parseBatch(fromPython(batch, "$"), kDictBatchName);
  } else {
    const auto file = batch.cast<std::filesystem::path>();
    request.batch = loadBatch(file);
    request.inputs = {file};
    name = file.stem().string();
  }
  request.out = out ? *out : defaultResultsFolder(name);
  request.threads = threads;
  request.mode = folderMode(resume, overwrite, "resume", "overwrite");
  return request;
}

// What stopped a run from Python: the exception raised in the progress event (KeyboardInterrupt
// from Ctrl-C, or whatever `on_progress` raised), kept to be raised once the files are written.
struct Interruption {
  std::optional<py::error_already_set> error;
  bool keyboard() const { return error && error->matches(PyExc_KeyboardInterrupt); }
};

// Runs on the calling thread with the GIL released; takes it to check the signals and report.
void onProgress(const Progress& p, const py::object& report, Interruption& interruption,
                RunControl& control) {
  py::gil_scoped_acquire gil;
  try {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!interruption.error && !report.is_none())
      report(p.gamesDone, p.gamesTotal, p.elapsedSeconds, p.etaSeconds, p.experimentName);
  } catch (py::error_already_set& e) {
    if (interruption.error) {  // a second interruption: give up the running games at once
      control.abandon.store(true);
      return;
    }
    interruption.error = std::move(e);
    control.stop.store(true);
  }
}

size_t gamesKept(const RunOutcome& outcome) {
  size_t games = 0;
  for (const ExperimentSummary& summary : outcome.summaries) games += summary.games;
  return games;
}

// Runs the batch; a dict of what happened ("out", "complete", "games", "games_played",
// "games_resumed", "interrupted"). Raises what the progress event raised unless it was
// KeyboardInterrupt (then "interrupted" is True and the caller says how to resume).
py::dict run(const py::object& batch, int threads, const std::optional<std::filesystem::path>& out,
             bool resume, bool overwrite, const py::object& report) {
  const RunRequest request = makeRequest(batch, out, threads, resume, overwrite);
  RunControl control;
  Interruption interruption;
  RunEvents events;
  events.onProgress = [&](const Progress& p) { onProgress(p, report, interruption, control); };
  RunOutcome outcome;
  {
    py::gil_scoped_release released;
    outcome = runToFolder(request, events, control);
  }
  if (interruption.error && !interruption.keyboard()) throw std::move(*interruption.error);
  py::dict result;
  result["out"] = request.out;
  result["complete"] = outcome.complete;
  result["games"] = gamesKept(outcome);
  result["games_played"] = outcome.gamesPlayed;
  result["games_resumed"] = outcome.gamesResumed;
  result["interrupted"] = interruption.keyboard();
  return result;
}

// Reads the results folder's summary.csv and every games file as `ddalab score` and the GUI do
// (one game at a time), so that ddalab.load refuses what they refuse, with their message.
void checkResultsFolder(const std::filesystem::path& folder) {
  py::gil_scoped_release released;
  readResultsDir(
      folder, [](const ExperimentLabel&) {}, [](const GameRecord&) {});
}

// csvSchema() as Python data: {table: {"file", "leading", "columns": [(name, type), ...]}}.
py::dict csvSchemaOf() {
  py::dict schema;
  for (const CsvFileSchema& file : csvSchema()) {
    py::list columns;
    for (const CsvColumnSchema& column : file.columns)
      columns.append(py::make_tuple(column.name, std::string(csvColumnTypeName(column.type))));
    py::dict entry;
    entry["file"] = file.file;
    entry["leading"] = file.leading;
    entry["columns"] = columns;
    schema[py::str(file.table)] = entry;
  }
  return schema;
}

}  // namespace

void bindRun(py::module_& m) {
  // A failed write (disk full, a read-only folder): an OSError, the run stopped, no file under a
  // final name truncated.
  py::register_exception<WriteError>(m, "WriteError", PyExc_OSError);
  m.def("_run", &run, py::arg("batch"), py::arg("threads"), py::arg("out"), py::arg("resume"),
        py::arg("overwrite"), py::arg("on_progress"),
        "Runs a batch (a file path or a dict) into a results folder; ddalab.run wraps it.");
  m.def("_check_results_folder", &checkResultsFolder, py::arg("folder"),
        "Raises InputError, as `ddalab score` refuses it, for a results folder whose summary.csv "
        "or games files are damaged (an empty or non-numeric cell, a row out of order, ...).");
  m.def("csv_schema", &csvSchemaOf,
        "The columns of every CSV file of a results folder, as the C++ writers write them: a dict "
        "from each table ddalab.load makes ('summary', 'games', 'stats', 'scores', 'ranks', "
        "'tests', 'detectability', 'sweep') to its 'file' name (<experiment> or <comparison> "
        "standing for a name), its 'columns' in order as (name, type) pairs (a name with a "
        "placeholder such as p<seat>_moves stands for a run of columns; types: name, count, seed, "
        "optional count, flag, number, text, swept value) and 'leading', how many of them every "
        "file of its kind starts with.");
}

}  // namespace ddalab::python
