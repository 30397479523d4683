#pragma once
// The optional second library of a plug-in: Qt board views for its games (the first library,
// core/plugin.h, needs no Qt, so headless nodes load it alone). It defines one entry point with
// DDALAB_VIEW_PLUGIN, which ddalab-gui calls after dlopen (File -> Load plug-in... takes either
// library):
//
//   #include "app/gui/views/view_plugin.h"
//   void registerViews(ddalab::gui::ViewRegistrar add) {
//     add("pig", [](QWidget* parent) -> ddalab::gui::GameView* { return new PigView(parent); });
//   }
//   DDALAB_VIEW_PLUGIN("dice-views", registerViews)
//
// Like a plug-in it links nothing of ddalab (Qt it links itself), and it must be built with the
// same compiler and Qt version as ddalab-gui; it is refused otherwise, before it is called.
#include <QtGlobal>
#include <filesystem>
#include <string>

#include "app/gui/views/game_view.h"
#include "core/plugin.h"

// Changes whenever GameView (app/gui/views/game_view.h) changes its layout or meaning.
#define DDALAB_VIEW_PLUGIN_ABI 1

namespace ddalab::gui {

// Registers the view of the game `gameId` (a game of the catalog, or one registered later).
using ViewRegistrar = void (*)(const std::string& gameId, ViewFactory make);

// What a view library says about itself; `abi` stays the first member in every ABI version.
struct ViewPluginEntry {
  int abi;                // DDALAB_VIEW_PLUGIN_ABI of the headers it was built against
  const char* compiler;   // __VERSION__ of the compiler that built it
  const char* qtVersion;  // QT_VERSION_STR of the Qt it was built against
  const char* name;
  void (*registerViews)(ViewRegistrar add);
};

// Loads the view library at `file` (its views registered once) and returns its name; throws
// InputError naming the file and the reason (another ABI, compiler or Qt; no entry point).
std::string loadViewPlugin(const std::filesystem::path& file);

}  // namespace ddalab::gui

// Defines the entry point of a view library called NAME, registering with REGISTER.
#define DDALAB_VIEW_PLUGIN(NAME, REGISTER)                                               \
  extern "C" __attribute__((visibility("default"))) const ddalab::gui::ViewPluginEntry*  \
  ddalab_view_plugin_entry() {                                                           \
    static const ddalab::gui::ViewPluginEntry entry{DDALAB_VIEW_PLUGIN_ABI, __VERSION__, \
                                                    QT_VERSION_STR, NAME, REGISTER};     \
    return &entry;                                                                       \
  }
