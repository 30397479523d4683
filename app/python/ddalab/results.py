"""ddalab.load: a results folder (written by ``ddalab run`` or ``ddalab.run``) as pandas tables.

Every number equals the CSV's: floats are parsed with pandas' round-trip precision, counts as
integers, flags as booleans; names (experiments, comparisons, metrics, players, tests) become
categoricals in the order the files list them. docs/python.md lists the tables.
"""
import json
import pathlib
import re

import pandas as pd

from ._ddalab import InputError, _check_results_folder, csv_schema

__all__ = ["Results", "load"]

# Column kinds; a column of no listed kind holds floats (a metric, a statistic, a score).
_CATEGORY, _INT, _UINT, _NULLABLE_INT, _BOOL, _TEXT, _AXIS = (
    "category", "int", "uint", "nullable int", "bool", "text", "axis")

# The kind of each column type of csv_schema(); a number has none (a float).
_KIND_OF_TYPE = {"name": _CATEGORY, "count": _INT, "seed": _UINT, "optional count": _NULLABLE_INT,
                 "flag": _BOOL, "text": _TEXT, "swept value": _AXIS, "number": None}

# Every file kind's columns, as the C++ library writes them.
_SCHEMA = csv_schema()

# A placeholder of a column pattern ("p<seat>_moves"): <seat> and <rank> a number, others a name.
_PLACEHOLDER = re.compile(r"<(\w+)>")


def _pattern(name):
    """The regular expression of the column pattern `name` of csv_schema()."""
    parts = _PLACEHOLDER.split(name)  # text, placeholder, text, ...
    return re.compile("".join(re.escape(part) if i % 2 == 0 else
                              (r"\d+" if part in ("seat", "rank") else ".*")
                              for i, part in enumerate(parts)), re.DOTALL)


def _file_kind(table):
    """A file kind of csv_schema(): the columns its header must start with, the kind of each
    named column, and (regular expression, kind) of each run of columns, typed by the C++
    library's description of the file."""
    schema = _SCHEMA[table]
    columns = schema["columns"]
    leading = [name for name, _ in columns[:schema["leading"]]]
    kinds, patterns = {}, []
    for name, column_type in columns:
        kind = _KIND_OF_TYPE[column_type]
        if kind is None:
            continue
        if _PLACEHOLDER.search(name):
            patterns.append((_pattern(name), kind))
        else:
            kinds[name] = kind
    return leading, kinds, patterns


def _file_name(table):
    """The file name of `table` in csv_schema() (<experiment> and <comparison> standing for a
    name's stem)."""
    return _SCHEMA[table]["file"]


def _suffix(table):
    """The file name of `table` after its <experiment> or <comparison>: ".games.csv"."""
    return _file_name(table).split(">", 1)[1]


# Each file kind: the columns its header must start with, the kinds of its columns.
_GAMES, _SUMMARY, _STATS, _SCORES, _RANKS, _TESTS, _DETECTABILITY, _SWEEP = (
    _file_kind(table) for table in
    ("games", "summary", "stats", "scores", "ranks", "tests", "detectability", "sweep"))

# The files one per folder: a sweep's, a tournament's (ratings, pairwise, level_curves) and a
# balance run's (balance, balance_summary): attribute (the schema's table) -> kind.
_RATING_TABLES = ("ratings", "pairwise", "level_curves", "balance", "balance_summary")
_FOLDER_FILES = {"sweep": _SWEEP, **{table: _file_kind(table) for table in _RATING_TABLES}}

# The per-comparison files: attribute -> file suffix and kind.
_COMPARISON_FILES = {"scores": (_suffix("scores"), _SCORES), "ranks": (_suffix("ranks"), _RANKS),
                     "tests": (_suffix("tests"), _TESTS),
                     "detectability": (_suffix("detectability"), _DETECTABILITY)}


class Results:
    """The tables of one results folder; a table the folder does not hold is None.

    folder: the folder (pathlib.Path); batch: its batch.json (a dict), None if absent.
    summary: summary.csv, one row per experiment.
    games: every experiment's <name>.games.csv, one row per game, an ``experiment`` column first.
    stats: every experiment's <name>.summary.csv (each metric's mean, std, interval, n), an
        ``experiment`` column first.
    scores, ranks, tests, detectability: every comparison's <comparison>.*.csv, a
        ``comparison`` column first.
    sweep: sweep.csv (a sweep batch's points: the swept values in the @<axis> columns).
    ratings, pairwise, level_curves: a tournament's ratings.csv (one row per entrant, then the
        "(first seat)" and "(draw)" parameters), pairwise.csv and level_curves.csv.
    balance, balance_summary: a balance run's balance.csv (each condition's win rate of each
        rated player) and balance_summary.csv (each condition's balanced range).
    """

    def __init__(self, folder, batch, summary, games, stats, scores=None, ranks=None,
                 tests=None, detectability=None, sweep=None, ratings=None, pairwise=None,
                 level_curves=None, balance=None, balance_summary=None):
        self.folder = folder
        self.batch = batch
        self.summary = summary
        self.games = games
        self.stats = stats
        self.scores = scores
        self.ranks = ranks
        self.tests = tests
        self.detectability = detectability
        self.sweep = sweep
        self.ratings = ratings
        self.pairwise = pairwise
        self.level_curves = level_curves
        self.balance = balance
        self.balance_summary = balance_summary

    def tables(self):
        """The names of the tables this folder holds."""
        names = ["summary", "games", "stats", *_COMPARISON_FILES, "sweep", *_RATING_TABLES]
        return [name for name in names if getattr(self, name) is not None]

    def __repr__(self):
        shapes = ", ".join(f"{name} {getattr(self, name).shape}" for name in self.tables())
        return f"<ddalab.Results {str(self.folder)!r}: {shapes}>"


def load(folder):
    """The tables of the results folder ``folder`` (str or os.PathLike) as a Results.

    Raises InputError (a ValueError) naming the file when the folder is missing or holds no
    results (no summary.csv), a file a table needs is missing, a header is not the expected
    one, or a value is not of its column's type; summary.csv and the games files are checked by
    the reader of ``ddalab score`` and the GUI, which refuses what they refuse.
    """
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder}: not a folder (expected a results folder of ddalab run)")
    summary_file = folder / _file_name("summary")
    if not summary_file.is_file():
        raise InputError(f"{folder}: not a results folder (no summary.csv)")
    summary = _read(summary_file, _SUMMARY)
    experiments = list(summary["experiment"].cat.categories)
    comparisons = [c for c in summary["comparison"].cat.categories if c != ""]
    games_files = [_experiment_file(folder, name, _suffix("games")) for name in experiments]
    # The games as `ddalab score` and the GUI read them: what they refuse (an empty metric cell,
    # a NUL byte, games out of order, a count summary.csv contradicts) is refused here too, with
    # their message, instead of becoming NaN.
    _check_results_folder(folder)
    games = _concat([_read(path, _GAMES) for path in games_files], "experiment", experiments,
                    _GAMES)
    stats = _concat([_read(_experiment_file(folder, name, _suffix("stats")), _STATS)
                     for name in experiments], "experiment", experiments, _STATS)
    tables = {}
    for attribute, (suffix, kind) in _COMPARISON_FILES.items():
        files = [folder / (_file_stem(c) + suffix) for c in comparisons]
        present = [(c, f) for c, f in zip(comparisons, files) if f.is_file()]
        if present:
            tables[attribute] = _concat([_read(f, kind) for _, f in present], "comparison",
                                        [c for c, _ in present], kind)
    for table, kind in _FOLDER_FILES.items():
        path = folder / _file_name(table)
        if path.is_file():
            tables[table] = _read(path, kind)
    return Results(folder, _batch(folder / "batch.json"), summary, games, stats, **tables)


def _file_stem(name):
    """The file stem of an experiment or comparison name (results/experiment_result.cpp)."""
    return name.replace("/", "__")


def _experiment_file(folder, name, suffix):
    path = folder / (_file_stem(name) + suffix)
    if not path.is_file():
        raise InputError(f"{path}: missing (summary.csv lists the experiment {name!r})")
    return path


def _batch(path):
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"{path}: not a batch.json ({error})") from None


def _concat(frames, key, names, kind):
    """The frames one under the other, the column `key` (a categorical of `names`) first."""
    if not frames:
        return None
    for frame, name in zip(frames, names):
        frame.insert(0, key, name)
    table = pd.concat(frames, ignore_index=True)
    table[key] = pd.Categorical(table[key], categories=names)
    for column in table.columns:
        column_kind = _kind_of(column, kind)
        if column_kind == _CATEGORY and str(table[column].dtype) != "category":
            # the files listed different names: the categories of all, in order of appearance
            order = list(dict.fromkeys(table[column].dropna()))
            table[column] = pd.Categorical(table[column], categories=order)
        elif column_kind in (_INT, _NULLABLE_INT) and table[column].isna().any():
            # a column only some files have (seats of games with fewer players) stays integer,
            # with <NA> in the gaps
            table[column] = table[column].astype("Int64")
    return table


def _kind_of(column, kind):
    _, kinds, patterns = kind
    if column in kinds:
        return kinds[column]
    for pattern, pattern_kind in patterns:
        if pattern.fullmatch(column):
            return pattern_kind
    return None


def _read(path, kind):
    """The CSV at `path` as a DataFrame typed by `kind` (its leading columns and column kinds)."""
    leading = kind[0]
    try:
        with open(path, encoding="utf-8", newline="") as file:
            header = file.readline().rstrip("\r\n").split(",")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot read it ({error})") from None
    if header[:len(leading)] != leading or len(set(header)) != len(header):
        raise InputError(f"{path}: unexpected header; expected its columns to start with "
                         f"{','.join(leading)} (each column once), got {','.join(header[:12])}")
    floats = [c for c in header if _kind_of(c, kind) is None]
    try:
        frame = pd.read_csv(path, dtype={c: (float if c in floats else str) for c in header},
                            keep_default_na=False, na_values={c: [""] for c in floats},
                            float_precision="round_trip", encoding="utf-8")
    except (ValueError, pd.errors.ParserError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: not a CSV of the expected columns ({error})") from None
    for column in header:
        column_kind = _kind_of(column, kind)
        if column_kind is not None:
            frame[column] = _typed(frame[column], column_kind, path, column)
    return frame


def _typed(values, kind, path, column):
    """`values` (the column's text) as `kind`; InputError naming the file and column if not."""
    try:
        if kind == _CATEGORY:
            return pd.Categorical(values, categories=list(dict.fromkeys(values)))
        if kind == _TEXT:
            return values
        if kind == _BOOL:
            return values.map({"0": False, "1": True}.__getitem__).astype(bool)
        if kind == _INT:
            return pd.Series([int(v) for v in values], dtype="int64", index=values.index)
        if kind == _UINT:
            return pd.Series([int(v) for v in values], dtype="uint64", index=values.index)
        if kind == _NULLABLE_INT:
            return pd.array([int(v) if v != "" else pd.NA for v in values], dtype="Int64")
        return _axis(values)
    except (ValueError, KeyError, OverflowError, TypeError) as error:
        raise InputError(f"{path}: column {column}: expected {kind} values ({error})") from None


def _axis(values):
    """A swept value: numbers where every point has one (gaps NaN), else a categorical."""
    try:
        return pd.Series([float(v) if v != "" else float("nan") for v in values],
                         index=values.index)
    except ValueError:
        return pd.Categorical(values, categories=list(dict.fromkeys(values)))
