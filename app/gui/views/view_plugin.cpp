#include "app/gui/views/view_plugin.h"
#include "app/gui/views/view_registry.h"

#include <mutex>
#include <set>

#include "core/params.h"
#include "experiments/plugins.h"

namespace ddalab::gui {

namespace {

using EntryPoint = const ViewPluginEntry* (*)();

EntryPoint entryPointOf(const std::filesystem::path& file) {
  return reinterpret_cast<EntryPoint>(pluginSymbol(file, DDALAB_VIEW_PLUGIN_SYMBOL));
}

}  // namespace

std::string loadViewPlugin(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::canonical(file, error);
  if (error) throw InputError(file.string(), "no such plug-in file");
  const EntryPoint entryPoint = entryPointOf(path);
  const ViewPluginEntry* entry = entryPoint ? entryPoint() : nullptr;
  std::string why;
  if (!entry)
    why = std::string("not a view library: no ") + DDALAB_VIEW_PLUGIN_SYMBOL;
  else if (entry->abi != DDALAB_VIEW_PLUGIN_ABI)
    why = "built for view ABI " + std::to_string(entry->abi) + ", ddalab-gui loads ABI " +
          std::to_string(DDALAB_VIEW_PLUGIN_ABI) + "; rebuild it against this ddalab";
  else if (std::string(entry->compiler) != __VERSION__ ||
           std::string(entry->qtVersion) != QT_VERSION_STR)
    why = std::string("built with ") + entry->compiler + " and Qt " + entry->qtVersion +
          ", ddalab-gui with " + __VERSION__ + " and Qt " + QT_VERSION_STR +
          "; rebuild it with the same compiler and Qt";
  else if (!entry->registerViews || !entry->name)
    why = "its entry point has no name or no registration function";
  if (!why.empty()) throw InputError(path.string(), why);
  static std::set<std::filesystem::path> loaded;  // the GUI thread's only
  if (loaded.insert(path).second) entry->registerViews(&registerGameView);
  return entry->name;
}

}  // namespace ddalab::gui
