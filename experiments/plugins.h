#pragma once
// Loading plug-ins (core/plugin.h) into the catalog: from --plugin FILE, from DDALAB_PLUGIN_PATH
// and from the GUI. A plug-in is checked (ABI, compiler) before it registers anything; its
// games, players and metrics then take part in batches, statistics and the GUI like the
// built-ins.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/params.h"

namespace ddalab {

struct LoadedPlugin {
  std::filesystem::path file;  // absolute
  std::string name, version, ddalabVersion, compiler;
  std::string sha256;  // of the file's bytes: results name the exact plug-in
  std::vector<std::string> games, players, metrics;  // the ids (metrics: keys) it registered
};

// The largest plug-in file ddalab reads (its bytes are read whole, for the checksum).
inline constexpr uint64_t kMaxPluginBytes = uint64_t{1} << 30;

// The bytes of the plug-in file at `file`; throws InputError naming it unless it is a regular
// file of at most kMaxPluginBytes (a FIFO, a device or a folder is refused before any read).
// Every way of loading a plug-in or a view library reads it through here.
std::string readPluginFile(const std::filesystem::path& file);

// The symbol `name` of the shared library at `file` (opened once, never closed), or null when
// it has none; throws InputError naming the file when it cannot be loaded: not a 64-bit
// little-endian ELF shared library of this machine, header tables, segments or sections past
// the end of the file (a truncated copy, which dlopen would map past its end and crash on), or
// dlerror's words. Every library ddalab loads (plug-ins, view libraries) is opened here.
void* pluginSymbol(const std::filesystem::path& file, const char* name);

// Loads the plug-in at `file` (once: loading the same file again returns the first load).
// Throws InputError naming the file and the reason: missing, not a loadable shared library
// (pluginSymbol's checks) or unresolved symbols (dlerror's words), no entry point, another ABI or compiler, an id already taken.
LoadedPlugin loadPlugin(const std::filesystem::path& file);

// The plug-ins loaded so far, in load order.
std::vector<LoadedPlugin> loadedPlugins();

// The plug-in files `path` names (DDALAB_PLUGIN_PATH's form: entries separated by ':', each a
// file or a folder whose *.so files are taken in name order); empty entries are skipped.
std::vector<std::filesystem::path> pluginFilesOnPath(const std::string& path);

// Whether the library at `file` is a plug-in's view library (DDALAB_VIEW_PLUGIN_SYMBOL), which
// only ddalab-gui loads; false for anything else, a file that cannot be loaded included.
bool isViewLibrary(const std::filesystem::path& file);

// Loads every plug-in of DDALAB_PLUGIN_PATH (if set; view libraries passed by), then `files`.
void loadPlugins(std::span<const std::string> files);

// The loaded plug-ins that registered one of `ids` (games or players) or any metric (a metric
// is a column of every results file), as batch.json records them: [{"name", "version",
// "sha256", "file"}] in load order.
Json pluginsUsed(std::span<const std::string> ids);

}  // namespace ddalab
