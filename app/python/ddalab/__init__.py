"""ddalab from Python: the catalog, games stepped by hand, batches and their results.

The C++ core is the extension module ``ddalab._ddalab``; this package re-exports it and adds
the parts written in Python. docs/python.md is the guide.
"""
from ._ddalab import (  # noqa: F401  (the package's public names)
    ENVIRONMENT,
    TERMINAL,
    Experiment,
    Game,
    InputError,
    Lineup,
    State,
    __version__,
    build,
    games,
    metrics,
    players,
)
from ._ddalab import game_seed  # noqa: F401,E402  (the runner's seed of a batch's game)
from ._ddalab import PlayerError, Rng, register_environment, register_player, sample_outcome  # noqa: F401,E501  (players in Python)
from . import rl  # noqa: F401,E402  (ddalab.rl.EnvironmentEnv: the Gymnasium environment)
from ._ddalab import WriteError, load_plugin  # noqa: F401,E402  (run_bindings, plugin_bindings)
from ._ddalab import csv_schema  # noqa: F401,E402  (the results files' columns: run_bindings)
from .results import Results, load  # noqa: F401,E402
from .run_batch import run  # noqa: F401,E402
