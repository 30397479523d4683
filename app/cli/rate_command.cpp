// `ddalab rate`: a tournament's or balance run's batch run through the run service with its
// rating tables printed (FILE), or the tables of a results folder, refitted with overrides (DIR).
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include "app/cli/options.h"
#include "experiments/batch.h"
#include "experiments/rating_report.h"
#include "experiments/rating_results.h"
#include "results/results_reader.h"

namespace ddalab::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kRateUsage =
    "ddalab rate FILE [--out DIR] [--threads N] [--resume|--overwrite] [--quiet]\n"
    "       ddalab rate DIR [--prior-sd X] [--bootstrap N] [--confidence C] [--write]";

// `x` as a person writes it: 1000000, 0.5.
std::string boundText(double x) {
  std::ostringstream text;
  text << std::setprecision(15) << x;
  return text.str();
}

// The number option `name` in [low, high] (or (low, high) where `open`); InputError otherwise.
double numberOption(const po::variables_map& vm, const char* name, double low, double high,
                    bool open) {
  const std::string text = vm[name].as<std::string>();
  size_t used = 0;
  double value = NAN;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const bool inside = open ? value > low && value < high : value >= low && value <= high;
  if (used != text.size() || text.empty() || !std::isfinite(value) || !inside)
    throw InputError(std::string("--") + name, "expected a number in " +
                                                   std::string(open ? "(" : "[") + boundText(low) +
                                                   ", " + boundText(high) + (open ? ")" : "]") +
                                                   ", got '" + textExcerpt(text) + "'");
  return value;
}

// The model fields --prior-sd, --bootstrap and --confidence override (the bounds of a file's).
Json modelOverrides(const po::variables_map& vm) {
  Json overrides = Json::object();
  if (vm.count("prior-sd")) overrides["prior_sd"] = numberOption(vm, "prior-sd", 0, 1e6, false);
  if (vm.count("bootstrap"))
    overrides["bootstrap"] =
        parseCount(vm["bootstrap"].as<std::string>(), "--bootstrap", 0, 100000);
  if (vm.count("confidence")) overrides["confidence"] = numberOption(vm, "confidence", 0.5, 0.999999, false);
  return overrides;
}

// Refuses the options of the other form of the command (`form`: what the argument is).
void refuseOptions(const po::variables_map& vm, std::initializer_list<const char*> names,
                   const std::string& form) {
  for (const char* name : names)
    if (vm.count(name) && !vm[name].defaulted())
      throw InputError(std::string("--") + name,
                       "applies to a " + form + "; see ddalab rate --help");
}

// The folder's batch, which must be a tournament or balance run; InputError naming `file`.
Batch ratedBatch(const fs::path& file) {
  Batch batch = loadBatch(file);
  if (batch.rating.is_null())
    throw InputError(file.string(),
                     "not a tournament or balance run (it has \"experiments\"); "
                     "expected a batch with \"tournament\" or \"balance\" "
                     "(docs/ratings.md); run other batches with ddalab run");
  return batch;
}

// A fresh folder next to `dir` holding links to (or copies of) its batch.json and games files:
// where a refit that must not change `dir` writes its tables.
class ScratchCopy {
 public:
  explicit ScratchCopy(const fs::path& dir) {
    std::random_device random;
    path_ = fs::temp_directory_path() / ("ddalab-rate-" + std::to_string(random()));
    fs::create_directories(path_);
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || name.starts_with(".")) continue;
      std::error_code linked;
      fs::create_hard_link(entry.path(), path_ / name, linked);
      if (linked) fs::copy_file(entry.path(), path_ / name);
    }
  }
  ~ScratchCopy() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchCopy(const ScratchCopy&) = delete;
  ScratchCopy& operator=(const ScratchCopy&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

int rateFolder(const fs::path& dir, const po::variables_map& vm) {
  refuseOptions(vm, {"out", "threads", "resume", "overwrite", "quiet"}, "batch file");
  Batch batch = ratedBatch(dir / "batch.json");
  const Json overrides = modelOverrides(vm);
  if (overrides.empty() && !vm.count("write")) {
    printRatingTables(std::cout, readRatingTables(dir));
    return kOk;
  }
  if (!overrides.empty() && batch.rating.at("kind") != "tournament")
    throw InputError(std::string("--") + (vm.count("prior-sd")    ? "prior-sd"
                                          : vm.count("bootstrap") ? "bootstrap"
                                                                  : "confidence"),
                     "applies to a tournament's folder; " + dir.string() +
                         " holds a balance run (no model to refit)");
  for (const auto& [key, value] : overrides.items()) batch.rating["model"][key] = value;
  const auto summaries = summarizeResultsDir(dir);
  if (vm.count("write")) {
    printRatingOutcome(dir, writeRatingResults(dir, batch, summaries));
    return kOk;
  }
  const ScratchCopy scratch(dir);
  printRatingOutcome(scratch.path(), writeRatingResults(scratch.path(), batch, summaries));
  return kOk;
}

int rateBatch(const po::variables_map& vm) {
  refuseOptions(vm, {"prior-sd", "bootstrap", "confidence", "write"}, "results folder");
  ratedBatch(vm["batch"].as<std::string>());
  return runBatch(vm, "rate", [](const RunOutcome& outcome, const RunRequest& request) {
    printRatingOutcome(request.out, outcome.ratingWarning);
    std::cout << "\nresults: " << request.out.string() << "\n";
  });
}

}  // namespace

int rateCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("batch", po::value<std::string>()->required(),
                        "tournament or balance batch file, or a results folder of one")(
      "threads,t", po::value<int>()->default_value(0),
      "FILE: worker threads 1..1024 (0 = every core)")(
      "out,o", po::value<std::string>(), "FILE: results folder (default ddalab-out/<file stem>)")(
      "resume", "FILE: continue the interrupted run in --out (same batch)")(
      "overwrite", "FILE: replace the results --out holds")("quiet,q", "FILE: no progress output")(
      "prior-sd", po::value<std::string>(), "DIR: refit with this prior standard deviation (Elo)")(
      "bootstrap", po::value<std::string>(), "DIR: refit with this many bootstrap replicates")(
      "confidence", po::value<std::string>(), "DIR: refit with intervals of this level in [0.5, 0.999999]")(
      "write", "DIR: rewrite the folder's rating CSVs and ratings.json (with the overrides)");
  po::positional_options_description positional;
  positional.add("batch", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, kRateUsage, options, positional, vm)) return *code;
  const fs::path target = vm["batch"].as<std::string>();
  return fs::is_directory(target) ? rateFolder(target, vm) : rateBatch(vm);
}

}  // namespace ddalab::cli
