// The `_ddalab` extension module; the package ddalab/__init__.py re-exports it with the pure-Python
// parts (docs/python.md).
#include "app/python/bindings.h"
#include "app/version/version.h"
#include "core/params.h"

PYBIND11_MODULE(_ddalab, m) {
  m.doc() = "ddalab's C++ core: the catalog, games stepped by hand, batches and their results.";
  m.attr("__version__") = DDALAB_VERSION;             // the project's version (PEP 440)
  m.attr("build") = ddalab::app::buildDescription();  // with the commit, as `ddalab --version`
  // Bad input (a batch, a parameter, a coefficient): the message names where and what was
  // expected, as the CLI's refusals do; a ValueError, so `except ValueError` catches it.
  pybind11::register_exception<ddalab::InputError>(m, "InputError", PyExc_ValueError);
  ddalab::python::bindCatalog(m);
  ddalab::python::bindState(m);
  ddalab::python::bindPlayers(m);
  ddalab::python::bindRun(m);
  ddalab::python::bindPlugins(m);
}
