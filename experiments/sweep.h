#pragma once
// Sweeps (a grid of parameter values): a batch (for every experiment) or one experiment may
// carry "sweep", a list of axes, each a JSON path into the experiment with the values it takes:
//
//   "sweep": [{"path": "coefficients.tension", "values": [0, 30]},
//             {"path": "players[0].level", "range": {"from": 10, "to": 100, "steps": 4}},
//             {"path": "coefficients.lead", "values": [1, 3], "combine": "zip"}]
//
// Axes cross into the full grid; an axis with "combine": "zip" moves together with the one
// before it ("sweep": {"combine": "zip", "axes": [...]} zips them all). Every grid point is an
// experiment named with the values ("ludo-4mn/e-hillclimber@random_prob=0.2,believability=100")
// in a comparison named the same way, so each point is scored and tested on its own; the rows
// of a comparison that one experiment's sweep leaves alone are played at every point too (the
// same seeds: common random numbers stay). Points keep the experiment's salt, so every point
// plays the same games.
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/params.h"

namespace ddalab {

// One axis of a sweep: where in an experiment and which values.
struct SweepAxis {
  std::string path;  // "coefficients.tension", "environment.params.random_prob", "players[0].level"
  std::vector<Json> values;
  bool zip = false;  // moves with the axis before it instead of crossing it
};

// The axis of `--vary PATH=v1,v2,...` (each value read as JSON, else taken as a string);
// throws InputError naming the option.
SweepAxis parseVary(const std::string& text);

// Whether a batch or experiment document carries a sweep.
bool hasSweep(const Json& document);

// The batch document `document` (a batch or an experiment file) stands for with every sweep
// expanded into its grid points and `extra` axes (--vary) applied to every experiment; a
// document without sweeps and extra axes is returned as it is. Throws InputError whose path is
// the axis (or its value) in `document` and whose message says what was expected, before
// anything runs: a path the experiment does not have, a value its parameter refuses (the
// validation of the expanded experiment, quoted), a range that is not one.
// Each expanded experiment is validated by `checkExperiment` (the batch format's parser, passed
// in by batch.cpp: sweeps are expanded before a batch exists, so this file knows no Batch).
using ExperimentCheck = std::function<void(const Json& experiment)>;
Json expandSweeps(const Json& document, const ExperimentCheck& checkExperiment,
                  std::span<const SweepAxis> extra = {});

}  // namespace ddalab
