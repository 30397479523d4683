#pragma once
// The parts of the `_ddalab` extension module, one function per file, each adding its classes and
// functions to the module (module.cpp calls them in dependency order).
#include <pybind11/pybind11.h>

namespace ddalab::python {

// games(), players(), metrics(): the catalog as `ddalab list` shows it.
void bindCatalog(pybind11::module_& m);
// Game, State, Bot: stepping a game action by action (OpenSpiel's vocabulary).
void bindState(pybind11::module_& m);
// register_player, register_environment, Rng, sample_outcome, PlayerError: players in Python.
void bindPlayers(pybind11::module_& m);
// _run (ddalab.run's engine) and WriteError: a batch run into a results folder; csv_schema():
// the columns of its CSV files.
void bindRun(pybind11::module_& m);
// load_plugin(): a plug-in's entries added to the catalog.
void bindPlugins(pybind11::module_& m);

}  // namespace ddalab::python
