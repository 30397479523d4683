// ddalab study validate|analyze|simulate: user studies (docs/user-study.md).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "core/file_io.h"
#include "studies/analysis.h"
#include "studies/analysis_files.h"
#include "studies/analysis_report.h"
#include "studies/export.h"
#include "studies/mixed_model.h"
#include "studies/participant_ratings.h"
#include "studies/power.h"
#include "studies/simulate.h"

namespace ddalab::cli {

namespace {

constexpr const char* kStudyUsage =
    "ddalab study validate PROTOCOL... [--participants N]\n"
    "       ddalab study analyze SESSION_DIR... [--out DIR [--write-unreliable-fit]]\n"
    "                            [--ratings RATINGS.json [--rating-prior-sd SD]\n"
    "                             [--rating-prior-mean ELO] [--rating-conditions no-dda|all]\n"
    "                             [--covariate skill]]\n"
    "       ddalab study simulate PROTOCOL --participants N --out DIR [--effect SPEC] [--seed S]\n"
    "                            [--threads N]\n"
    "       ddalab study simulate PROTOCOL --participants N --power R [--effect SPEC] [--seed S]\n"
    "                            [--participant-sd SD] [--residual-sd SD] [--period-effect P]\n"
    "                            [--power-games] [--threads N]\n"
    "       ddalab study mixed-model TABLE.csv [--item KEY] [--covariate COLUMN]\n"
    "       ddalab study export SESSION_DIR... --out TIDY.csv [--hash-ids]";

// The one-line warning of a design whose tests cannot be significant at its size, or (without a
// size) how many participants its tests need.
void printDesignWarning(const StudyProtocol& protocol, std::optional<int> participants) {
  if (!nothingToCompare(protocol).empty()) {  // no design to size: the note says so, once
    std::cout << mixedModelDesignNote(protocol, 0) << "\n";
    return;
  }
  if (!participants) {
    for (size_t n : {12, 24, 48}) std::cout << mixedModelDesignNote(protocol, n) << "\n";
    std::cout << "  the Wilcoxon check needs at least " << participantsForWilcoxon(protocol)
              << " participants to reach alpha " << protocol.analysis.alpha << "\n";
    return;
  }
  std::cout << mixedModelDesignNote(protocol, static_cast<size_t>(*participants)) << "\n";
  const std::string warning = designWarning(protocol, static_cast<size_t>(*participants));
  if (!warning.empty()) std::cout << warning << "\n";
}

// What `ddalab serve` takes from the protocol (its "online" and "completion").
std::string describeOnline(const StudyOnline& online) {
  std::ostringstream out;
  out << "online: the participant's id in ?" << online.idParam << "=, idle "
      << online.timeoutMinutes << " minutes is a dropout; at the end "
      << (online.completionCode.empty() ? "no code" : "the code " + online.completionCode)
      << (online.completionRedirect.empty() ? ", no redirect"
                                            : " and a link to " + online.completionRedirect)
      << "\n";
  return out.str();
}

int validate(const std::vector<std::string>& files, const po::variables_map& vm) {
  std::optional<int> participants;
  if (vm.count("participants")) participants = vm["participants"].as<int>();
  if (participants && *participants < 1) throw InputError("--participants", "expected >= 1");
  for (const std::string& file : files) {
    const StudyProtocol p = loadStudyProtocol(file);
    std::cout << file << ": ok (" << p.conditions.size() << " conditions x " << p.gamesPerCondition
              << " games a participant, " << p.items.size() << " questionnaire items, "
              << (p.order == OrderScheme::LatinSquare ? "balanced Latin square" : "random order")
              << ")\n";
    std::cout << describeInstruments(p) << describeOnline(p.online);
    printDesignWarning(p, participants);
  }
  return kOk;
}

// An option's number, `otherwise` when it is not given; refuses a given NaN or infinity (NaN
// would silently mean the default).
double optionalNumber(const po::variables_map& vm, const char* option, double otherwise,
                      const char* unit = "scale points") {
  if (!vm.count(option)) return otherwise;
  const double x = vm[option].as<double>();
  if (!std::isfinite(x))
    throw InputError(std::string("--") + option, std::string("expected a finite number of ") + unit);
  return x;
}

// The options of --ratings, refused without it (they would silently mean nothing) or out of range.
void checkRatingOptions(const po::variables_map& vm) {
  const bool ratings = vm.count("ratings") > 0;
  for (const char* option : {"rating-prior-sd", "rating-prior-mean", "rating-conditions"})
    if (vm.count(option) && !ratings)
      throw InputError(std::string("--") + option, "expected --ratings RATINGS.json with it");
  if (!vm.count("covariate")) return;
  const std::string covariate = vm["covariate"].as<std::string>();
  if (covariate != "skill")
    throw InputError("--covariate", "expected skill (the participants' ratings), got '" +
                                        textExcerpt(covariate) + "'");
  if (!ratings)
    throw InputError("--covariate",
                     "skill needs --ratings RATINGS.json: the participants are rated against "
                     "the study's AI from the rating file of `ddalab rate`");
}

// The participants' ratings from --ratings (none without it).
std::optional<ParticipantRatings> participantRatings(const StudySessions& study,
                                                     const po::variables_map& vm) {
  if (!vm.count("ratings")) return std::nullopt;
  ParticipantRatingOptions options;
  options.priorSd = optionalNumber(vm, "rating-prior-sd", kDefaultParticipantPriorSd, "Elo");
  if (!(options.priorSd > 0)) throw InputError("--rating-prior-sd", "expected an SD > 0 (Elo)");
  if (vm.count("rating-prior-mean"))
    options.priorMean = optionalNumber(vm, "rating-prior-mean", 0, "Elo");
  if (vm.count("rating-conditions"))
    options.conditions =
        parseRatedConditions(vm["rating-conditions"].as<std::string>(), "--rating-conditions");
  const std::string file = vm["ratings"].as<std::string>();
  return rateParticipants(study, readRatingFile(file), file, options);
}

int analyze(const std::vector<std::string>& folders, const po::variables_map& vm) {
  std::vector<std::filesystem::path> paths(folders.begin(), folders.end());
  const bool unreliable = vm.count("write-unreliable-fit") > 0;
  if (unreliable && !vm.count("out"))
    throw InputError("--write-unreliable-fit",
                     "expected --out DIR: it says where to write the fit");
  checkRatingOptions(vm);
  const StudySessions study = readStudySessions(paths);
  if (vm.count("out")) checkAnalysisTarget(vm["out"].as<std::string>(), paths, study, "--out");
  const std::optional<ParticipantRatings> ratings = participantRatings(study, vm);
  std::optional<StudyCovariate> skill;
  if (vm.count("covariate")) skill = StudyCovariate{"skill", skillCovariate(*ratings)};
  const StudyAnalysis analysis = analyzeStudy(study, 0x5713ull, true, skill ? &*skill : nullptr);
  printStudyAnalysis(std::cout, analysis);
  if (ratings) printParticipantRatings(std::cout, *ratings);
  printDesignWarning(study.protocol, static_cast<int>(study.sessions.size()));
  if (!vm.count("out")) return kOk;
  const std::string out = vm["out"].as<std::string>();
  const bool batch = writeStudyAnalysis(out, analysis, study.protocol, unreliable,
                                        ratings ? &*ratings : nullptr);
  std::cout << "\nwrote " << out << (batch ? "" : " (no fitted-batch.json: see the fit's verdict)")
            << "\n";
  // Refused after the analysis is written: nothing computed is lost.
  if (unreliable && analysis.coefficients.empty())
    throw InputError("--write-unreliable-fit", "there is no fit to write (" + analysis.fitVerdict +
                                                   "); the other analysis files are in " + out);
  return kOk;
}

// The tidy CSV of the sessions (studies/export.h), read and refused as `analyze` reads them.
int exportTidy(const std::vector<std::string>& folders, const po::variables_map& vm) {
  if (!vm.count("out")) throw InputError("--out", "expected the CSV file to write");
  std::vector<std::filesystem::path> paths(folders.begin(), folders.end());
  const StudySessions study = readStudySessions(paths);
  const std::string out = vm["out"].as<std::string>();
  checkExportTarget(out, paths, study, "--out");
  writeFileAtomically(out, tidyExportCsv(study, vm.count("hash-ids") > 0));
  std::cout << "wrote " << out << " (" << study.sessions.size() << " participants"
            << (vm.count("hash-ids") ? ", ids hashed" : "") << ")\n";
  return kOk;
}

// The mixed model of one long table, as CSV on stdout (what tests/studies/lme4_reference.R compares).
int mixedModel(const std::string& file, const po::variables_map& vm) {
  const MixedData data = readMixedCsv(file, vm.count("item") ? vm["item"].as<std::string>() : "",
                                      vm.count("covariate") ? vm["covariate"].as<std::string>() : "");
  std::string why;
  const std::optional<MixedFit> fit = fitMixedModel(data, &why);
  if (!fit) throw InputError(file, "the mixed model cannot be fitted: " + why);
  std::cout << mixedFitTable(*fit);
  return kOk;
}

// The old power: every study played game by game, the Wilcoxon check counted (--power-games).
int gamePower(const StudyProtocol& protocol, const StudySimulation& simulation, int repetitions) {
  std::cout << "Power of " << protocol.name << " with " << simulation.participants
            << " simulated participants over " << repetitions
            << " played studies (Wilcoxon on participants' means, Holm, 5 %)\n";
  for (const PowerRow& row : studyPower(protocol, simulation, repetitions))
    std::cout << "  " << std::left << std::setw(14) << row.item << row.first << " - " << row.second
              << std::right << ": planted " << std::showpos << std::fixed << std::setprecision(2)
              << row.plantedDifference << std::noshowpos << ", detected " << std::setprecision(1)
              << 100 * row.rate << " % [" << 100 * row.low << ", " << 100 * row.high << "] ("
              << row.detected << " of " << row.repetitions << ")\n";
  return kOk;
}


// The power from the mixed model (studies/power.h) and the minimum detectable effect.
int modelPowerReport(const StudyProtocol& protocol, const StudySimulation& simulation,
                     const po::variables_map& vm, int repetitions) {
  PowerModel model;
  model.participants = simulation.participants;
  model.seed = simulation.seed;
  model.effects = simulation.effects;
  model.participantSd = optionalNumber(vm, "participant-sd", NAN);
  model.residualSd = optionalNumber(vm, "residual-sd", NAN);
  model.periodStep = optionalNumber(vm, "period-effect", 0);
  const ModelPower power = modelPower(protocol, model, repetitions);
  std::cout << std::fixed << std::setprecision(2) << "Power of " << protocol.name << " with "
            << model.participants << " participants over " << repetitions
            << " studies drawn from the mixed model (item " << power.item << ", participant SD "
            << power.participantSd << ", residual SD " << power.residualSd << ", period effect "
            << model.periodStep << "; answer ~ condition + period + (1 | participant), "
            << (power.preregistered ? "the pre-registered contrast" : "Holm over the contrasts")
            << ", alpha " << power.alpha << ")\n";
  for (const ModelPowerRow& row : power.rows)
    std::cout << "  " << row.first << " - " << row.second << ": planted " << std::showpos
              << row.planted << std::noshowpos << ", rejected " << std::setprecision(1)
              << 100 * row.rate << " % [" << 100 * row.low << ", " << 100 * row.high << "] ("
              << row.rejected << " of " << row.repetitions << ")\n"
              << std::setprecision(2);
  const DetectableEffect mde = minimumDetectableEffect(protocol, model, repetitions);
  const ModelPowerRow& first = power.rows.front();
  std::cout << "  minimum detectable effect (" << first.first << " - " << first.second
            << ", 80 % power): ";
  if (std::isnan(mde.effect))
    std::cout << "none within the scale's range\n";
  else
    std::cout << mde.effect << " points (bisection to " << mde.precision << ", power there "
              << std::setprecision(1) << 100 * mde.atEffect.rate << " %)\n";
  printDesignWarning(protocol, model.participants);
  return kOk;
}

int simulate(const std::string& file, const po::variables_map& vm) {
  const StudyProtocol protocol = loadStudyProtocol(file);
  StudySimulation simulation;
  if (!vm.count("participants"))
    throw InputError("--participants", "expected the number of simulated participants");
  simulation.participants = vm["participants"].as<int>();
  if (simulation.participants < 1 || simulation.participants > 10000)
    throw InputError("--participants", "expected 1..10000");
  simulation.seed = vm["seed"].as<uint64_t>();
  simulation.threads = vm["threads"].as<int>();
  if (vm.count("effect"))
    simulation.effects = parsePlantedEffects(vm["effect"].as<std::string>(), protocol, "--effect");
  // The model's options mean nothing to the game-playing simulations: refused, not ignored.
  for (const char* option : {"participant-sd", "residual-sd", "period-effect", "power-games"}) {
    const bool model = std::string(option) != "power-games";
    if (vm.count(option) && (!vm.count("power") || (model && vm.count("power-games"))))
      throw InputError(std::string("--") + option,
                       model ? "applies to --power without --power-games" : "expected --power R");
  }
  if (vm.count("power")) {
    const int repetitions = vm["power"].as<int>();
    if (repetitions < 1 || repetitions > 100000)
      throw InputError("--power", "expected 1..100000 repetitions");
    checkSomethingToCompare(protocol);
    if (vm.count("power-games")) return gamePower(protocol, simulation, repetitions);
    return modelPowerReport(protocol, simulation, vm, repetitions);
  }
  if (!vm.count("out")) throw InputError("--out", "expected the folder for the sessions");
  const auto sessions = simulateStudy(protocol, vm["out"].as<std::string>(), simulation);
  std::cout << "simulated " << sessions.size() << " participants of " << protocol.name << " into "
            << vm["out"].as<std::string>() << " (" << sessions.front().plan().size()
            << " games each)\n";
  return kOk;
}

}  // namespace

int studyCommand(const Args& args) {
  po::options_description options("options");
  options.add_options()("action", po::value<std::string>()->required(),
                        "validate, analyze, simulate, mixed-model or export")(
      "files", po::value<std::vector<std::string>>()->required(), "protocol or session folders")(
      "out,o", po::value<std::string>(),
      "analyze: the folder for the CSVs; simulate: the sessions; export: the CSV file")(
      "write-unreliable-fit",
      "analyze: write fitted-batch.json even when the fit does not beat the constant model "
      "(marked \"unreliable_fit\"; ddalab run refuses it)")(
      "participants,n", po::value<int>(),
      "simulate: simulated participants; validate: the planned number")(
      "effect", po::value<std::string>(),
      "simulate: planted effects ITEM:CONDITION=POINTS[,...] (scale points)")(
      "seed", po::value<uint64_t>()->default_value(1), "simulate: the participants' random seed")(
      "power", po::value<int>(),
      "simulate: draw R studies from the mixed model and report its power and the minimum "
      "detectable effect")("power-games",
                           "simulate --power: play every study's games instead (the Wilcoxon "
                           "check on the answers rule; slow)")(
      "participant-sd", po::value<double>(),
      "simulate --power: participant intercept SD in scale points (default 0.15 x range)")(
      "residual-sd", po::value<double>(),
      "simulate --power: answer noise SD in scale points (default 0.15 x range)")(
      "period-effect", po::value<double>(),
      "simulate --power: points added per period (default 0)")(
      "threads", po::value<int>()->default_value(0), "simulate: worker threads (0: every core)")(
      "item", po::value<std::string>(), "mixed-model: the item of a table with several")(
      "covariate", po::value<std::string>(),
      "analyze: skill, the participants' ratings (centred, per 100 Elo) as a fixed effect of the "
      "mixed model (needs --ratings); mixed-model: a numeric column as a fixed effect")(
      "ratings", po::value<std::string>(),
      "analyze: a ratings.json of `ddalab rate` that rates the study's AI: each participant is "
      "rated against it (participants_ratings.csv)")(
      "rating-prior-sd", po::value<double>(),
      "analyze --ratings: the SD of the participants' normal prior in Elo (default 400)")(
      "rating-prior-mean", po::value<double>(),
      "analyze --ratings: the prior's mean in Elo (default: the mean rating of the rated AI seats)")(
      "rating-conditions", po::value<std::string>(),
      "analyze --ratings: no-dda (default: the conditions with environment e-random) or all (the "
      "DDA conditions too: the rating then includes what the DDA did)")(
      "hash-ids", "export: participant ids as SHA-256 pseudonyms (docs/user-study.md)");
  po::positional_options_description positional;
  positional.add("action", 1).add("files", -1);
  po::variables_map vm;
  if (auto code = parseArgs(args, kStudyUsage, options, positional, vm)) return *code;
  const std::string action = vm["action"].as<std::string>();
  const auto files = vm["files"].as<std::vector<std::string>>();
  if (action == "validate") return validate(files, vm);
  if (action == "analyze") return analyze(files, vm);
  if (action == "export") return exportTidy(files, vm);
  if (action == "mixed-model") {
    if (files.size() != 1) throw InputError("ddalab study mixed-model", "expected one CSV file");
    return mixedModel(files.front(), vm);
  }
  if (action == "simulate") {
    if (files.size() != 1) throw InputError("ddalab study simulate", "expected one protocol file");
    return simulate(files.front(), vm);
  }
  throw InputError("ddalab study",
                   "unknown action '" + action +
                       "'; expected validate, analyze, simulate, mixed-model or export");
}

}  // namespace ddalab::cli
