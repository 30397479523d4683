// `ddalab list`, `ddalab validate` and `ddalab score`: commands that read and describe.
#include <iostream>
#include <sstream>

#include "app/cli/options.h"
#include "core/catalog.h"
#include "experiments/batch.h"
#include "experiments/plugins.h"
#include "experiments/rating_results.h"
#include "experiments/sweep_results.h"
#include "games/registry.h"
#include "players/registry.h"
#include "results/folder_analysis.h"
#include "results/report.h"
#include "results/results_reader.h"
#include "results/results_writer.h"
#include "studies/study.h"

namespace ddalab::cli {

namespace {

void printParams(const std::vector<ParamSpec>& params) {
  if (params.empty()) std::cout << "    (no parameters)\n";
  for (const auto& p : params) std::cout << "    " << describe(p) << "\n";
}

// A number as a person writes it: 0 rather than 0.0.
std::string numberText(const Json& value) {
  std::ostringstream text;
  text << value.get<double>();
  return text.str();
}

// What a tournament or balance run expanded into, for `validate`: its entrants (or ladder and
// conditions), design and size; "" for other batches.
std::string describeRatingDesign(const Batch& batch, size_t games) {
  const Json& rating = batch.rating;
  if (rating.is_null()) return "";
  const auto names = [](const Json& list) {
    std::string text;
    for (const Json& item : list)
      text += (text.empty() ? "" : ", ") +
              (item.is_object() ? item.at("name").get<std::string>() : item.get<std::string>());
    return text;
  };
  const std::string size = std::to_string(batch.experiments.size()) + " experiments of " +
                           std::to_string(rating.at("games").get<long long>()) + " games, " +
                           std::to_string(games) + " games";
  if (rating.at("kind") == "balance")
    return "  balance run " + rating.at("name").get<std::string>() + ": " +
           std::to_string(rating.at("ladder").size()) + " rated players x " +
           std::to_string(rating.at("conditions").size()) + " conditions x " +
           std::to_string(batch.experiments.front().players.size()) + " seats = " + size +
           "\n  ladder: " + names(rating.at("ladder")) +
           "\n  conditions: " + names(rating.at("conditions")) +
           "\n  band: " + numberText(rating.at("band")[0]) + " to " +
           numberText(rating.at("band")[1]) + " (ratings from " +
           rating.at("ratings_file").at("name").get<std::string>() + ")\n";
  const Json& model = rating.at("model");
  return "  tournament " + rating.at("name").get<std::string>() + ": " +
         std::to_string(rating.at("entrants").size()) + " entrants, design " +
         rating.at("design").at("kind").get<std::string>() + ", " + size +
         "\n  entrants: " + names(rating.at("entrants")) +
         "\n  anchor: " + model.at("anchor").get<std::string>() + " at " +
         numberText(model.at("anchor_rating")) + "; draws " + model.at("draws").get<std::string>() +
         "; bootstrap " + model.at("bootstrap").dump() + "\n";
}

// " [plug-in NAME (FILE)]" for an entry a plug-in registered, "" for a built-in.
std::string fromPlugin(const std::string& origin) {
  return origin == kBuiltIn ? std::string() : " [" + origin + "]";
}

void listPlugins() {
  const auto plugins = loadedPlugins();
  if (plugins.empty()) return;
  std::cout << "plug-ins:\n";
  for (const LoadedPlugin& p : plugins)
    std::cout << "  " << p.name << " " << p.version << " - " << p.file.string() << " (sha256 "
              << p.sha256.substr(0, 16) << "...)\n";
}

void listGames() {
  std::cout << "games:\n";
  for (const auto& g : gameRegistry()) {
    std::cout << "  " << g.id << " - " << g.description << fromPlugin(catalog().gameOrigin(g.id))
              << "\n";
    printParams(g.params);
  }
}

void listPlayers() {
  for (const auto kind : {PlayerKind::Regular, PlayerKind::Environment}) {
    std::cout << (kind == PlayerKind::Regular
                      ? "regular players (\"players\", with \"level\" 1-100):\n"
                      : "environment players (\"environment\"):\n");
    for (const auto& p : playerRegistry()) {
      if (!p.canAct(kind)) continue;
      std::cout << "  " << p.id << " - " << p.description
                << fromPlugin(catalog().playerOrigin(p.id)) << "\n";
      printParams(p.params);
    }
  }
}

void listMetrics() {
  std::cout << "per-game metrics (coefficient keys):\n";
  for (const auto& m : allMetrics()) {
    const char* better = m.better == Better::Higher  ? "higher is better"
                         : m.better == Better::Lower ? "lower is better"
                                                     : "sign set by its coefficient";
    std::cout << "  " << m.key << " (" << (m.thesisName.empty() ? m.label : m.thesisName) << ") - "
              << m.description << "; " << better << fromPlugin(catalog().metricOrigin(m.key))
              << "\n";
  }
  std::cout << "experiment-level metric:\n  win_ratio (Poměr vítězství) - std over players of "
               "their win rates; lower is better\n";
}

}  // namespace

int listCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("what", po::value<std::string>()->default_value("all"),
                        "games, players, metrics or all");
  po::positional_options_description positional;
  positional.add("what", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab list [games|players|metrics]", options, positional, vm))
    return *code;
  const std::string what = vm["what"].as<std::string>();
  if (what != "all" && what != "games" && what != "players" && what != "metrics") {
    std::cerr << "error: unknown list '" << what << "'; valid: games, players, metrics\n";
    return kBadInput;
  }
  if (what == "all") listPlugins();
  if (what == "all" || what == "games") listGames();
  if (what == "all" || what == "players") listPlayers();
  if (what == "all" || what == "metrics") listMetrics();
  return kOk;
}

int validateCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("files", po::value<std::vector<std::string>>()->required(),
                        "experiment, batch or study protocol files");
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab validate FILE...", options, positional, vm)) return *code;
  int status = kOk;
  // Every file is checked whatever an earlier one threw: one error line per bad file.
  for (const auto& file : vm["files"].as<std::vector<std::string>>()) {
    try {
      if (isStudyProtocolFile(file)) {
        const StudyProtocol p = loadStudyProtocol(file);
        std::cout << file << ": ok (study protocol: " << p.conditions.size() << " conditions x "
                  << p.gamesPerCondition << " games a participant)\n"
                  << describeInstruments(p);
        continue;
      }
      const Batch batch = loadBatch(file);
      size_t games = 0;
      for (const auto& e : batch.experiments) games += static_cast<size_t>(e.iterations);
      std::cout << file << ": ok (" << batch.experiments.size() << " experiments, " << games
                << " games)\n"
                << describeRatingDesign(batch, games);
      continue;
    } catch (const InputError& e) {
      std::cerr << "error: " << e.what() << "\n";
    } catch (const std::exception& e) {  // a bug, but the file is still not usable
      std::cerr << "error: " << file << ": cannot check the file: " << e.what() << "\n";
    } catch (...) {
      std::cerr << "error: " << file << ": cannot check the file: unknown error\n";
    }
    status = kBadInput;
  }
  return status;
}

int scoreCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("dir", po::value<std::string>()->required(), "results folder of a run")(
      "write",
      "rewrite the folder's derived CSVs (summary, scores, tests, ranks, detectability, sweep, "
      "ratings, balance)");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm;
  if (auto code = parseArgs(args, "ddalab score DIR [--write]", options, positional, vm))
    return *code;
  const std::string dir = vm["dir"].as<std::string>();
  const auto summaries = summarizeResultsDir(dir);
  const auto analyses = analyzeResultsDir(dir, summaries);
  printSummaryTables(std::cout, summaries);
  printComparisonScores(std::cout, scoreAll(summaries), analyses);
  std::optional<std::string> warning;
  if (vm.count("write")) {
    writeBatchCsvs(dir, summaries);
    writeAnalysisCsvs(dir, analyses);
    const Batch batch = loadBatch(std::filesystem::path(dir) / "batch.json");
    writeSweepResults(dir, batch, summaries, analyses);
    warning = writeRatingResults(dir, batch, summaries);
  }
  printRatingOutcome(dir, warning);
  return kOk;
}

}  // namespace ddalab::cli
