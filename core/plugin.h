#pragma once
// The plug-in interface: a shared library that brings games, players and metrics to ddalab without
// forking it. It defines one entry point with DDALAB_PLUGIN, which ddalab calls after dlopen:
//
//   #include "core/plugin.h"
//   void registerPig(ddalab::Catalog& catalog, const std::string& origin) {
//     catalog.add(pig::gameInfo(), origin);
//   }
//   DDALAB_PLUGIN("pig", "1.0.0", registerPig)
//
// The library links nothing of ddalab: it uses the symbols of the program that loads it (built
// with ENABLE_EXPORTS), so every plug-in shares that program's catalog. It must be built with
// the same compiler (the C++ ABI of std::function, std::string, ...) against the headers of a
// ddalab with the same DDALAB_PLUGIN_ABI; ddalab refuses it otherwise, before calling it.
// An entry missing a field (a game without make, a player without its factory) is refused at
// load; `ddalab check-game GAME --plugin LIB` runs the conformance checks every game must pass.
#include <string>

#include "core/catalog.h"

// Changes whenever a type a plug-in sees (core/*.h) changes its layout or meaning.
// 2: metrics are catalog descriptors (MetricInfo, Catalog::add), Coefficients holds kMaxMetrics.
// 3: State::gains, playersCanDropOut, assign, valueAfter, outcomeMatters; EnvironmentPlayer::choose
// is given the outcomes.
// 4: objectives (PlayerSetup::objective, OutcomeAppraisal::terms and ::allowed);
// MetricInfo::extended; four more built-in metrics (plug-in metrics start at index 13).
// 5: State::valueAfterEach, valuesAfter and prepareCopies (the vtable grew); FunWeights, which
// MetricsTracker::fun takes, and the tracker's members (metrics.h); Objective's signatures.
// 6: State::observationJson (the vtable grew).
// 7: Match checks what the game returns and bounds a match (its members grew); GameRecord::cutOff.
// 8: State's virtuals in labelled blocks, required first (the vtable's order changed), and
// State::actionJson; Game::actionBounds (both vtables grew); assignSameClass and ScratchState
// in core/state_copy.h.
#define DDALAB_PLUGIN_ABI 8

#ifndef DDALAB_SDK_VERSION
#error "DDALAB_SDK_VERSION is set by the ddalab::sdk CMake target (find_package(ddalab))"
#endif

namespace ddalab {

// What a plug-in says about itself. `abi` stays the first member in every ABI version, so that
// an incompatible plug-in is recognised before anything else of it is read.
struct PluginEntry {
  int abi;                    // DDALAB_PLUGIN_ABI of the headers it was built against
  const char* compiler;       // __VERSION__ of the compiler that built it
  const char* ddalabVersion;  // the ddalab version of those headers
  const char* name;
  const char* version;
  // Adds the plug-in's games, players and metrics to `catalog`, each with `origin` (its file).
  void (*registerInto)(Catalog& catalog, const std::string& origin);
};

}  // namespace ddalab

// The C symbol ddalab looks up in a plug-in.
#define DDALAB_PLUGIN_SYMBOL "ddalab_plugin_entry"
// The C symbol of a plug-in's optional second library, its Qt views, which only ddalab-gui
// loads (app/gui/views/view_plugin.h); the other programs pass such a library by.
#define DDALAB_VIEW_PLUGIN_SYMBOL "ddalab_view_plugin_entry"

// Defines the entry point of a plug-in called NAME (a string), version VERSION, registering with
// REGISTER (a function taking the catalog and the origin).
#define DDALAB_PLUGIN(NAME, VERSION, REGISTER)                                        \
  extern "C" __attribute__((visibility("default"))) const ddalab::PluginEntry*        \
  ddalab_plugin_entry() {                                                             \
    static const ddalab::PluginEntry entry{                                           \
        DDALAB_PLUGIN_ABI, __VERSION__, DDALAB_SDK_VERSION, NAME, VERSION, REGISTER}; \
    return &entry;                                                                    \
  }
