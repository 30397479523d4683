// Players and environment players written in Python: ddalab.register_player / register_environment
// add a catalog entry (origin "python") whose factory calls the Python factory once per game and
// wraps the object it returns; its choose() is called for every decision, with a copy of the game
// so far (a ddalab.State) and the C++ random streams themselves (ddalab.Rng), so a Python player
// draws exactly what a C++ player would. docs/python.md, "Players and environment players in
// Python".
//
// The GIL rule: the batch's worker threads call Python players as they call any other; each call
// into Python holds the GIL (Gil: py::gil_scoped_acquire) and nothing else, so Python players of
// different games take turns while the C++ parts of the games run in parallel. The caller of a
// run must release the GIL for the run's length (ddalab.run does: run_bindings.cpp).
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>

#include "app/python/bindings.h"
#include "app/python/json_convert.h"
#include "app/python/py_state.h"
#include "core/catalog.h"
#include "players/environment/decision_report.h"
#include "players/registry.h"

namespace py = pybind11;

namespace ddalab::python {

PyState::PyState(std::shared_ptr<const Game> g, std::string id, const State& s,
                 const MetricsTracker& trace)
    : game(std::move(g)), gameId(std::move(id)), state(s.clone()), tracker(trace) {}

namespace {

// Keeps a Python thread state for the calling thread's life: without one, every
// gil_scoped_acquire on a thread Python did not start (a run's worker) creates and destroys a
// thread state with its frame stack (mmap'd: ~20 µs a call, measured in docs/python.md).
class ThreadStateKeeper {
 public:
  // Only on threads Python knows nothing of: a thread Python started (its main thread, a
  // threading.Thread) has a thread state Python owns and deletes itself.
  ThreadStateKeeper() : kept_(PyGILState_GetThisThreadState() == nullptr) {
    if (!kept_) return;
    py::gil_scoped_acquire gil;
    gil.inc_ref();  // one reference more than the GIL holders: never deleted on release
  }
  ThreadStateKeeper(const ThreadStateKeeper&) = delete;
  ThreadStateKeeper& operator=(const ThreadStateKeeper&) = delete;
  ~ThreadStateKeeper() {  // at the thread's exit: give the reference back (deletes the state)
    if (!kept_ || !Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    gil.dec_ref();
  }

 private:
  bool kept_;
};

// The GIL, held for one call into Python from any thread (the GIL rule above).
class Gil {
 public:
  Gil() = default;
  Gil(const Gil&) = delete;
  Gil& operator=(const Gil&) = delete;

 private:
  static bool keepThreadState() {
    static thread_local ThreadStateKeeper keeper;
    return true;
  }
  bool kept_ = keepThreadState();  // before the GIL is taken
  py::gil_scoped_acquire gil_;
};

// A Python player failed: its exception (with the traceback), an answer that is not an action,
// or an action it may not take. Python sees ddalab.PlayerError, a RuntimeError. A C++ exception
// holding only text, so it crosses the run's worker threads without touching Python objects.
class PlayerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The text Python prints for the exception being handled: the traceback, then "Type: message".
std::string tracebackText(py::error_already_set& error) {
  try {
    py::list lines = py::module_::import("traceback")
                         .attr("format_exception")(error.type(), error.value(), error.trace());
    std::string text;
    for (py::handle line : lines) text += line.cast<std::string>();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  } catch (const std::exception&) {
    return error.what();
  }
}

// The player `id`'s `what` (its factory or its choose()) raised: a PlayerError with its traceback.
[[noreturn]] void raisedIn(const std::string& id, const std::string& what,
                           py::error_already_set& error) {
  throw PlayerError("Python player '" + id + "': " + what + " raised:\n" + tracebackText(error));
}

// A random stream for Python (ddalab.Rng): a stream of its own (ddalab.Rng(seed)), or, during one
// choose() call, the C++ stream of the player or of the game's natural chance itself.
class StreamRef {
 public:
  explicit StreamRef(uint64_t seed) : own_(seed), owned_(true) {}
  explicit StreamRef(Rng& borrowed) : borrowed_(&borrowed), owned_(false) {}
  StreamRef(const StreamRef&) = delete;
  StreamRef& operator=(const StreamRef&) = delete;

  // The stream; raises when it was lent to a choose() call that has returned.
  Rng& get() {
    if (owned_) return own_;
    if (!borrowed_)
      throw py::value_error("this ddalab.Rng was lent to one choose() call, which has returned");
    return *borrowed_;
  }
  void expire() { borrowed_ = nullptr; }

 private:
  Rng own_;
  Rng* borrowed_ = nullptr;
  bool owned_;
};

// `rng` as a ddalab.Rng for one call: expired when the call returns (a Python player that keeps
// it gets an error, never a dangling stream). Lives while the GIL is held.
class LentStream {
 public:
  explicit LentStream(Rng& rng) : object_(py::cast(std::make_unique<StreamRef>(rng))) {}
  LentStream(const LentStream&) = delete;
  LentStream& operator=(const LentStream&) = delete;
  ~LentStream() { object_.cast<StreamRef&>().expire(); }
  const py::object& object() const { return object_; }

 private:
  py::object object_;
};

std::vector<Outcome> outcomesFrom(const std::vector<std::pair<Action, double>>& list) {
  if (list.empty()) throw py::value_error("sample_outcome(): expected at least one outcome");
  std::vector<Outcome> outcomes;
  for (const auto& [action, probability] : list) outcomes.push_back({action, probability});
  return outcomes;
}

py::list outcomeList(std::span<const Outcome> outcomes) {
  py::list list;
  for (const Outcome& o : outcomes) list.append(py::make_tuple(o.action, o.probability));
  return list;
}

// What one registration holds for the process's life (catalog entries are never removed): the
// factory is kept with a reference of its own that is never given back, so that no reference
// count changes without the GIL (copies of the catalog entry) or after the interpreter ends.
struct Registration {
  std::string id;
  PlayerKind kind;
  py::handle factory;
};

// The non-zero fun-score weights by metric key.
py::dict coefficientDict(const Coefficients& coefficients) {
  py::dict dict;
  for (const MetricInfo& info : allMetrics())
    if (const double weight = coefficients[static_cast<size_t>(info.metric)]; weight != 0)
      dict[py::str(info.key)] = weight;
  return dict;
}

// What the factory is given: {"id", "game", "game_params", "level", "params", "coefficients",
// "players"}; "game" and "game_params" are None where the caller knows only the bare game.
py::dict setupDict(const Registration& r, const PlayerSetup& setup) {
  py::dict dict;
  dict["id"] = r.id;
  dict["game"] = setup.gameInfo ? py::object(py::str(setup.gameInfo->id)) : py::none();
  dict["game_params"] = setup.gameParams ? toPython(*setup.gameParams) : py::none();
  dict["level"] = setup.level;
  dict["params"] = toPython(setup.params);
  dict["coefficients"] = coefficientDict(setup.coefficients);
  dict["players"] = setup.game.numPlayers();
  return dict;
}

// The Python object one game's player is: the factory's answer and its bound choose().
class PythonChooser {
 public:
  PythonChooser(const Registration& r, const PlayerSetup& setup)
      : id_(r.id),
        // A view of the runner's game (never owned: the State copies a choose() call gets do
        // not depend on the Game's lifetime).
        game_(std::shared_ptr<const Game>(), &setup.game),
        gameId_(setup.gameInfo ? setup.gameInfo->id : "") {
    const Gil gil;
    py::object object, choose;  // released before the GIL if the factory fails
    try {
      object = r.factory(setupDict(r, setup));
      choose = py::getattr(object, "choose", py::none());
    } catch (py::error_already_set& error) {
      raisedIn(id_, "its factory", error);
    }
    if (!PyCallable_Check(choose.ptr()))
      throw PlayerError("Python player '" + id_ + "': its factory returned " +
                        std::string(py::repr(object)) + ", which has no callable choose()");
    object_ = std::move(object);
    choose_ = std::move(choose);
  }
  PythonChooser(const PythonChooser&) = delete;
  PythonChooser& operator=(const PythonChooser&) = delete;
  ~PythonChooser() {
    if (!Py_IsInitialized()) {  // the interpreter is gone: nothing left to give back
      choose_.release();
      object_.release();
      return;
    }
    const Gil gil;
    choose_ = py::object();
    object_ = py::object();
  }

  // What `call(choose)` answers, checked to be one of `allowed`; holds the GIL.
  template <typename Call>
  Action choose(Call&& call, std::span<const Action> allowed) {
    py::object answer;
    try {
      answer = call(choose_);
    } catch (py::error_already_set& error) {
      raisedIn(id_, "choose()", error);
    }
    return checkedAction(answer, allowed);
  }
  // A ddalab.State holding copies of `state` and `trace`: what choose() sees of the game.
  py::object view(const State& state, const MetricsTracker& trace) const {
    return py::cast(std::make_unique<PyState>(game_, gameId_, state, trace));
  }

 private:
  // `answer` as one of `allowed` (an int, or anything with __index__ such as a numpy integer).
  Action checkedAction(const py::object& answer, std::span<const Action> allowed) const {
    const std::string prefix = "Python player '" + id_ + "': choose() returned ";
    if (!PyIndex_Check(answer.ptr()) || PyBool_Check(answer.ptr()))
      throw PlayerError(prefix + std::string(py::repr(answer)) + "; expected an int");
    std::optional<long long> value;  // none: beyond 64 bits, or __index__ raised
    if (const auto index = py::reinterpret_steal<py::object>(PyNumber_Index(answer.ptr()))) {
      int overflow = 0;
      value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
      if (overflow || PyErr_Occurred()) value.reset();
    }
    PyErr_Clear();
    if (!value || std::find(allowed.begin(), allowed.end(), *value) == allowed.end()) {
      std::string list;
      for (size_t i = 0; i < allowed.size() && i < 32; ++i)
        list += (i ? ", " : "") + std::to_string(allowed[i]);
      throw PlayerError(prefix + std::string(py::repr(answer)) +
                        ", which is not legal here; legal: " + list +
                        (allowed.size() > 32 ? ", ..." : ""));
    }
    return static_cast<Action>(*value);
  }

  std::string id_;
  std::shared_ptr<const Game> game_;
  std::string gameId_;
  py::object object_, choose_;
};

class PythonPlayer final : public Player {
 public:
  PythonPlayer(const Registration& r, const PlayerSetup& setup) : chooser_(r, setup) {}
  Action chooseAction(const State& state, std::span<const Action> legal, Rng& rng) override {
    const Gil gil;
    return chooser_.choose(
        [&](const py::object& choose) {
          const LentStream own(rng);
          // A regular player is given no trace: the view's tracker starts at this state.
          return choose(chooser_.view(state, MetricsTracker(state)),
                        py::cast(std::vector<Action>(legal.begin(), legal.end())), own.object());
        },
        legal);
  }

 private:
  PythonChooser chooser_;
};

class PythonEnvironment final : public EnvironmentPlayer {
 public:
  PythonEnvironment(const Registration& r, const PlayerSetup& setup)
      : chooser_(r, setup), coefficients_(setup.coefficients) {}
  Action choose(const State& state, std::span<const Outcome> outcomes, const MetricsTracker& trace,
                Rng& own, Rng& nature) override {
    std::vector<Action> allowed;
    for (const Outcome& o : outcomes) allowed.push_back(o.action);
    Action chosen;
    {
      const Gil gil;
      chosen = chooser_.choose(
          [&](const py::object& choose) {
            const LentStream lentOwn(own), lentNature(nature);
            return choose(chooser_.view(state, trace), outcomeList(outcomes), lentOwn.object(),
                          lentNature.object());
          },
          allowed);
    }
    if (decision_)  // a detailed trace: what each outcome would have done (nothing drawn)
      describeDecision(state, trace, outcomes, coefficients_, chosen, false, {}, *decision_);
    return chosen;
  }

 private:
  PythonChooser chooser_;
  Coefficients coefficients_;  // only to describe decisions
};

// A spec of the `params` list: a dict {"name", "type", "default", "min", "max", "description",
// "choices"} or a sequence (name, type, default, min, max, description).
ParamSpec paramSpecFrom(py::handle item, const std::string& path) {
  static const std::vector<std::string> order = {"name", "type",        "default", "min",
                                                 "max",  "description", "choices"};
  Json fields = Json::object();
  if (py::isinstance<py::dict>(item)) {
    fields = fromPython(item, path);
  } else if (py::isinstance<py::sequence>(item) && !py::isinstance<py::str>(item)) {
    const Json list = fromPython(item, path);
    if (list.size() > 6) throw InputError(path, "expected at most 6 fields: " + jsonExcerpt(list));
    for (size_t i = 0; i < list.size(); ++i) fields[order[i]] = list[i];
  } else {
    throw InputError(path, "expected a dict {name, type, default, min, max, description}");
  }
  for (const auto& [key, value] : fields.items())
    if (std::find(order.begin(), order.end(), key) == order.end())
      throw InputError(path + "." + key,
                       "unknown field; valid: name, type, default, min, max, "
                       "description, choices");
  const auto text = [&](const char* key, bool required) {
    if (!fields.contains(key) && !required) return std::string();
    if (!fields.contains(key) || !fields[key].is_string())
      throw InputError(path + "." + key, "expected a string");
    return fields[key].get<std::string>();
  };
  const auto number = [&](const char* key, double otherwise) {
    if (!fields.contains(key) || fields[key].is_null()) return otherwise;
    if (!fields[key].is_number()) throw InputError(path + "." + key, "expected a number or None");
    return fields[key].get<double>();
  };
  static const std::vector<std::pair<std::string, ParamType>> types = {
      {"int", ParamType::Int},
      {"integer", ParamType::Int},
      {"float", ParamType::Double},
      {"number", ParamType::Double},
      {"bool", ParamType::Bool},
      {"boolean", ParamType::Bool},
      {"str", ParamType::String},
      {"string", ParamType::String},
      {"list of integers", ParamType::IntList},
      {"object", ParamType::Object}};
  const std::string type = text("type", true);
  const auto found = std::find_if(types.begin(), types.end(),
                                  [&](const auto& entry) { return entry.first == type; });
  if (found == types.end())
    throw InputError(path + ".type", "unknown type '" + textExcerpt(type) +
                                         "'; valid: int, float, bool, str, list of integers, "
                                         "object");
  if (!fields.contains("default")) throw InputError(path + ".default", "expected a default value");
  ParamSpec spec{text("name", true),    found->second,        fields["default"],
                 number("min", -1e300), number("max", 1e300), text("description", false)};
  if (fields.contains("choices") && !fields["choices"].is_null()) {
    if (!fields["choices"].is_array())
      throw InputError(path + ".choices", "expected a list of the allowed values");
    spec.choices = fields["choices"].get<std::vector<Json>>();
  }
  return spec;
}

// Registers the Python `factory` under `id` as a player of `kind` (origin "python").
void registerPythonPlayer(PlayerKind kind, const std::string& id, const py::object& factory,
                          std::string description, const py::object& params) {
  const std::string call =
      std::string(kind == PlayerKind::Regular ? "register_player" : "register_environment") + "('" +
      textExcerpt(id) + "')";
  // Ids land in file names, CSV cells and "id:level;id:level" lists: the characters built-in
  // ids use, nothing that would need quoting anywhere.
  constexpr size_t kMaxIdLength = 64;
  const bool plain = std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
  if (!plain || id.size() > kMaxIdLength)
    throw InputError(call + ".id", "expected letters, digits, '-', '_' or '.' (at most " +
                                       std::to_string(kMaxIdLength) + "), got '" + textExcerpt(id) +
                                       "'");
  if (!PyCallable_Check(factory.ptr()))
    throw py::type_error(call +
                         ": expected a callable factory (a class or a function taking the "
                         "set-up dict), got " +
                         std::string(py::repr(factory)));
  PlayerInfo info{.id = id, .kind = kind, .description = std::move(description), .params = {}};
  if (info.description.empty())
    info.description =
        "written in Python (" +
        std::string(py::str(py::getattr(factory, "__qualname__", py::repr(factory)))) + ")";
  if (!params.is_none()) {
    if (!py::isinstance<py::sequence>(params) || py::isinstance<py::str>(params))
      throw InputError(call + ".params", "expected a list of parameter specs");
    size_t index = 0;
    for (py::handle item : params)
      info.params.push_back(paramSpecFrom(item, call + ".params[" + std::to_string(index++) + "]"));
  }
  const auto registration = std::make_shared<const Registration>(Registration{id, kind, factory});
  if (kind == PlayerKind::Regular)
    info.makeRegular = [registration](const PlayerSetup& setup) {
      return std::make_unique<PythonPlayer>(*registration, setup);
    };
  else
    info.makeEnvironment = [registration](const PlayerSetup& setup) {
      return std::make_unique<PythonEnvironment>(*registration, setup);
    };
  playerRegistry();  // the built-ins come first
  catalog().add(std::move(info), "python");
  factory.inc_ref();  // kept for the process's life (Registration)
}

// ddalab.<name>(id, factory, description="", params=None) registering players of `kind`.
void defRegister(py::module_& m, const char* name, PlayerKind kind, const char* doc) {
  m.def(
      name,
      [kind](const std::string& id, const py::object& factory, std::string description,
             const py::object& params) {
        registerPythonPlayer(kind, id, factory, std::move(description), params);
      },
      py::arg("id"), py::arg("factory"), py::arg("description") = "",
      py::arg("params") = py::none(), doc);
}

}  // namespace

void bindPlayers(py::module_& m) {
  py::register_exception<PlayerError>(m, "PlayerError", PyExc_RuntimeError);
  py::class_<StreamRef>(m, "Rng",
                        "A random stream: ddalab.Rng(seed), or the C++ stream itself that a "
                        "Python player's choose() is lent (valid during that call only).")
      .def(py::init<uint64_t>(), py::arg("seed") = 0)
      .def(
          "uniform", [](StreamRef& r) { return r.get().uniform(); }, "A double in [0, 1).")
      .def(
          "below",
          [](StreamRef& r, long long n) {
            if (n < 1 || n > 0xFFFFFFFFll)
              throw py::value_error("below(" + std::to_string(n) + "): expected 1..4294967295");
            return r.get().below(static_cast<uint32_t>(n));
          },
          py::arg("n"), "An integer in [0, n), unbiased (what `random` draws).")
      .def(
          "normal", [](StreamRef& r) { return r.get().normal(); }, "A standard normal deviate.");
  m.def(
      "sample_outcome",
      [](const std::vector<std::pair<Action, double>>& outcomes, StreamRef& rng) {
        return sampleOutcome(outcomesFrom(outcomes), rng.get());
      },
      py::arg("outcomes"), py::arg("rng"),
      "An outcome of the (action, probability) list drawn by its probability with one uniform "
      "draw of `rng` (what e-random does with the natural-chance stream).");
  defRegister(m, "register_player", PlayerKind::Regular,
              "Registers a regular player: factory(setup) returns an object whose choose(state, "
              "legal, rng) returns one of `legal` (docs/python.md).");
  defRegister(m, "register_environment", PlayerKind::Environment,
              "Registers an environment player: factory(setup) returns an object whose "
              "choose(state, outcomes, rng, nature) returns the action of one of `outcomes` "
              "(docs/python.md).");
}

}  // namespace ddalab::python
