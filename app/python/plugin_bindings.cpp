// ddalab.load_plugin: a plug-in's games, players and metrics added to the process's catalog,
// checked as `ddalab run --plugin` checks them (experiments/plugins.h).
#include <dlfcn.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <stdexcept>
#include <string>

#include "app/python/bindings.h"
#include "experiments/plugins.h"

namespace py = pybind11;

namespace ddalab::python {

namespace {

// A plug-in links nothing of ddalab: it resolves ddalab's symbols from the program that loads it.
// Python loads extension modules with RTLD_LOCAL, which hides this module's symbols from later
// libraries, so the module's own file is opened again with RTLD_GLOBAL (RTLD_NOLOAD: the loaded
// copy, never a second one; the handle is never closed, as Python never unloads the module).
void shareModuleSymbols() {
  static const bool shared = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&shareModuleSymbols), &info) == 0 || !info.dli_fname)
      throw std::runtime_error("ddalab.load_plugin: cannot find the file of the ddalab module");
    if (!dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL))
      throw std::runtime_error(
          std::string("ddalab.load_plugin: cannot share the module's symbols: ") + dlerror());
    return true;
  }();
  (void)shared;
}

py::dict loadPluginFile(const std::filesystem::path& file) {
  shareModuleSymbols();
  const LoadedPlugin plugin = loadPlugin(file);
  py::dict result;
  result["file"] = plugin.file;
  result["name"] = plugin.name;
  result["version"] = plugin.version;
  result["ddalab_version"] = plugin.ddalabVersion;
  result["compiler"] = plugin.compiler;
  result["sha256"] = plugin.sha256;
  result["games"] = plugin.games;
  result["players"] = plugin.players;
  result["metrics"] = plugin.metrics;
  return result;
}

}  // namespace

void bindPlugins(py::module_& m) {
  m.def("load_plugin", &loadPluginFile, py::arg("path"),
        "Loads the plug-in at `path` into the catalog (once; loading it again returns the first "
        "load) and returns what it registered: a dict of file, name, version, ddalab_version, "
        "compiler, sha256, games, players, metrics. Raises InputError naming the file when it is "
        "missing, not a plug-in, built for another ddalab or compiler, or its ids are taken.");
}

}  // namespace ddalab::python
