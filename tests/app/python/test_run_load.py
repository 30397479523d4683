"""ddalab.run and ddalab.load: a batch run by the module writes the CLI's files byte for byte,
and the tables hold the CSVs' values exactly; Ctrl-C stops a run as the CLI's SIGINT does and
resume=True completes it; refusals name the file, the JSON path or the folder."""
import copy
import csv
import io
import json
import math
import numbers
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

import ddalab


@pytest.fixture(scope="module")
def quick(source_dir):
    """experiments/quick.json (two Ludo experiments of one comparison), as a dict."""
    return json.loads((source_dir / "experiments" / "quick.json").read_text())


def with_iterations(batch, iterations):
    batch = copy.deepcopy(batch)
    for experiment in batch["experiments"]:
        experiment["iterations"] = iterations
    return batch


def files_of(folder):
    """Every result file's bytes (the checkpoint folder .ddalab left out)."""
    folder = pathlib.Path(folder)
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def csv_files_of(folder):
    return {name: data for name, data in files_of(folder).items() if name.endswith(".csv")}


def run_cli(cli, batch_file, out, *options):
    subprocess.run([cli, "run", str(batch_file), "--out", str(out), "--threads", "1", "-q",
                    *options], check=True, capture_output=True)


def assert_frame_equals_csv(frame, path, key=None, value=None):
    """Every cell of the CSV at `path` (Python's csv module) equals the frame's rows that have
    `key` == `value` (all rows when key is None): floats exactly, ints, bools, names."""
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    header, rows = rows[0], rows[1:]
    part = frame if key is None else frame[frame[key] == value]
    assert len(part) == len(rows), path
    for column_index, column in enumerate(header):
        got = part[column].tolist()
        for row, cell in zip(rows, got):
            text = row[column_index]
            if text == "":
                assert pd.isna(cell), (path, column)
            elif isinstance(cell, bool) or str(part[column].dtype) == "bool":
                assert cell == (text == "1"), (path, column)
            elif isinstance(cell, float):
                assert cell == float(text) or (math.isnan(cell) and text == "nan"), (path, column)
            elif isinstance(cell, numbers.Integral):
                assert cell == int(text), (path, column)
            else:
                assert cell == text, (path, column)


def test_run_writes_the_clis_files_and_load_holds_their_values(cli, source_dir, tmp_path):
    batch_file = source_dir / "experiments" / "quick.json"
    run_cli(cli, batch_file, tmp_path / "cli")
    results = ddalab.run(batch_file, threads=1, out=tmp_path / "py", progress=False)
    assert files_of(tmp_path / "py") == files_of(tmp_path / "cli")
    assert isinstance(results, ddalab.Results)
    assert results.folder == tmp_path / "py"
    assert results.batch["seed"] == 42
    folder = tmp_path / "cli"
    assert_frame_equals_csv(results.summary, folder / "summary.csv")
    for name in results.summary["experiment"]:
        stem = name.replace("/", "__")
        assert_frame_equals_csv(results.games, folder / f"{stem}.games.csv", "experiment", name)
        assert_frame_equals_csv(results.stats, folder / f"{stem}.summary.csv", "experiment",
                                name)
    for table in ["scores", "ranks", "tests", "detectability"]:
        assert_frame_equals_csv(getattr(results, table), folder / f"ludo-4hc.{table}.csv")
    assert results.sweep is None
    assert len(results.games) == 400


def test_tables_have_proper_dtypes(quick, tmp_path):
    results = ddalab.run(with_iterations(quick, 20), threads=1, out=tmp_path / "r",
                         progress=False)
    games, summary, tests = results.games, results.summary, results.tests
    assert list(games["experiment"].cat.categories) == ["ludo-4hc/e-random",
                                                        "ludo-4hc/e-hillclimber"]
    assert str(games["seed"].dtype) == "uint64" and str(games["iteration"].dtype) == "int64"
    assert str(games["winner"].dtype) == "Int64" and str(games["capped"].dtype) == "bool"
    assert str(games["p0_moves"].dtype) == "int64" and str(games["tension"].dtype) == "float64"
    assert games["p0_chance"].str.count(" ").eq(9).all()
    assert str(summary["comparison"].dtype) == "category"
    assert str(summary["games"].dtype) == "int64"
    assert str(tests["metric"].dtype) == "category" and str(tests["significant"].dtype) == "bool"
    assert str(results.detectability["games_to_detect"].dtype) == "Int64"
    assert list(results.scores["comparison"].unique()) == ["ludo-4hc"]


def test_csv_schema_describes_the_files_load_reads(quick, tmp_path):
    """ddalab.csv_schema(): the C++ library's columns of each file, by which load types them."""
    schema = ddalab.csv_schema()
    assert set(schema) == {"summary", "games", "stats", "scores", "ranks", "tests",
                           "detectability", "sweep", "ratings", "pairwise", "level_curves",
                           "balance", "balance_summary"}
    assert schema["games"]["file"] == "<experiment>.games.csv"
    assert schema["games"]["columns"][:5] == [("iteration", "count"), ("seed", "seed"),
                                              ("rounds", "count"), ("winner", "optional count"),
                                              ("capped", "flag")]
    assert ("p<seat>_chance", "text") in schema["games"]["columns"]
    results = ddalab.run(with_iterations(quick, 4), threads=1, out=tmp_path / "r",
                         progress=False)
    for table in ("summary", "games", "stats", "scores", "ranks", "tests", "detectability"):
        leading = [name for name, _ in schema[table]["columns"][:schema[table]["leading"]]]
        columns = list(getattr(results, table).columns)
        if table != "summary":
            columns = columns[1:]  # the experiment or comparison column load puts first
        assert columns[:len(leading)] == leading, table


def test_threads_do_not_change_the_files_and_a_dict_runs_as_its_file(cli, quick, tmp_path):
    batch = with_iterations(quick, 30)
    ddalab.run(batch, threads=1, out=tmp_path / "one", progress=False)
    ddalab.run(batch, threads=2, out=tmp_path / "two", progress=False)
    assert files_of(tmp_path / "one") == files_of(tmp_path / "two")
    (tmp_path / "b.json").write_text(json.dumps(batch))
    run_cli(cli, tmp_path / "b.json", tmp_path / "cli")
    assert csv_files_of(tmp_path / "one") == csv_files_of(tmp_path / "cli")


def journal_game_bytes(folder):
    """The bytes of finished games in the run's checkpoints: each journal without its one-line
    header (written, and flushed, before any game has finished)."""
    total = 0
    for journal in pathlib.Path(folder, ".ddalab").glob("*.journal"):
        data = journal.read_bytes()
        if b"\n" in data:
            total += len(data) - (data.index(b"\n") + 1)
    return total


def test_other_python_threads_run_while_a_batch_runs(quick, tmp_path):
    # Another Python thread sees the run's first finished games on disk and interrupts it as
    # Ctrl-C does: it can only while the batch runs with the GIL released. Were the GIL held, the
    # thread would run only once the 1800 games were over (their checkpoints gone), and the run
    # would end complete. No clock is involved: it waits for games, not for a time.
    out = tmp_path / "r"
    done = threading.Event()
    interrupted = threading.Event()

    def interrupt_once_games_are_checkpointed():
        while not done.is_set():
            if journal_game_bytes(out) > 0:
                interrupted.set()
                os.kill(os.getpid(), signal.SIGINT)  # seen by the run's progress event
                return
            time.sleep(0.005)

    watcher = threading.Thread(target=interrupt_once_games_are_checkpointed)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt) as stop:
            ddalab.run(with_iterations(quick, 900), threads=1, out=out, progress=False)
    finally:
        done.set()
        watcher.join()
    assert interrupted.is_set() and "finished games kept" in str(stop.value)
    kept = sum(len(pd.read_csv(p)) for p in out.glob("*.games.csv"))
    assert 0 < kept < 1800


CHILD = """
import json, sys, ddalab
batch = json.loads(sys.argv[1])
print("ready", flush=True)
try:
    ddalab.run(batch, threads=1, out=sys.argv[2], progress=False)
except KeyboardInterrupt as stop:
    print("interrupted:", stop, flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_ctrl_c_stops_keeps_the_finished_games_and_resume_completes(cli, quick, tmp_path):
    batch = with_iterations(quick, 900)
    out = tmp_path / "stopped"
    child = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(batch), str(out)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "ready\n"
    # Waits until some games finished (the bound only ends a failing test, however loaded the
    # machine); the 1800 games take far longer than one.
    deadline = time.monotonic() + 300
    while journal_game_bytes(out) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert journal_game_bytes(out) > 0, "no game finished within 300 s"
    child.send_signal(signal.SIGINT)
    said = child.stdout.read()
    assert child.wait(timeout=60) == 3, said
    assert "finished games kept and saved in" in said and f"out={str(out)!r}, resume=True" in said
    kept = sum(len(pd.read_csv(p)) for p in out.glob("*.games.csv"))
    assert 0 < kept < 1800
    assert pd.read_csv(out / "summary.csv")["games"].sum() == kept

    resumed = ddalab.run(batch, threads=1, out=out, resume=True, progress=False)
    assert len(resumed.games) == 1800
    (tmp_path / "b.json").write_text(json.dumps(batch))
    run_cli(cli, tmp_path / "b.json", tmp_path / "whole")
    assert csv_files_of(out) == csv_files_of(tmp_path / "whole")


def refusal(call, *words):
    with pytest.raises(ddalab.InputError) as error:
        call()
    for word in words:
        assert word in str(error.value), str(error.value)


def test_bad_batches_and_folders_are_refused_with_the_clis_words(cli, quick, tmp_path):
    refusal(lambda: ddalab.run(tmp_path / "missing.json", progress=False), "missing.json")
    bad = with_iterations(quick, 2)
    bad["experiments"][1]["players"][2]["level"] = "high"
    refusal(lambda: ddalab.run(bad, out=tmp_path / "o", progress=False),
            "batch", "experiments[1].players[2]")
    batch_file = tmp_path / "b.json"
    batch_file.write_text(json.dumps(with_iterations(quick, 2)))
    cli_said = subprocess.run([cli, "run", str(batch_file), "--out", str(batch_file)],
                              capture_output=True, text=True)
    assert cli_said.returncode == 2
    refusal(lambda: ddalab.run(batch_file, out=batch_file, progress=False),
            cli_said.stderr.split("error: ", 1)[1].strip())
    os.mkfifo(tmp_path / "fifo")
    refusal(lambda: ddalab.run(batch_file, out=tmp_path / "fifo", progress=False), "fifo")
    refusal(lambda: ddalab.run(batch_file, out=tmp_path / "o", resume=True, overwrite=True,
                               progress=False), "resume", "overwrite")
    ddalab.run(batch_file, out=tmp_path / "done", progress=False)
    other = with_iterations(quick, 2)
    other["seed"] = 43
    refusal(lambda: ddalab.run(other, out=tmp_path / "done", resume=True, progress=False),
            str(tmp_path / "done"))
    assert len(ddalab.load(tmp_path / "done").games) == 4  # the refused run changed nothing


FULL_DISK_CHILD = """
import json, resource, signal, sys, ddalab
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
try:
    ddalab.run(json.loads(sys.argv[1]), threads=1, out=sys.argv[2], progress=False)
except OSError as error:
    print(type(error).__name__, error)
"""


def test_a_failed_write_is_an_os_error(quick, tmp_path):
    # A files-size limit stands for a full disk: the games CSV outgrows it.
    said = subprocess.run([sys.executable, "-c", FULL_DISK_CHILD,
                           json.dumps(with_iterations(quick, 30)), str(tmp_path / "r")],
                          capture_output=True, text=True)
    assert said.returncode == 0, said.stderr
    assert said.stdout.startswith("WriteError "), said.stdout


HOSTILE_DICTS_CHILD = """
import json, sys, ddalab
batch = json.loads(sys.argv[1])
deep = 0
for _ in range(20000):
    deep = [deep]
batch["experiments"][0]["coefficients"]["lead"] = deep
cyclic = json.loads(sys.argv[1])
cyclic["experiments"][1]["game"]["params"]["me"] = cyclic
looped = []
looped.append(looped)
for call in (lambda: ddalab.run(batch, out=sys.argv[2], progress=False),
             lambda: ddalab.run(cyclic, out=sys.argv[2], progress=False),
             lambda: ddalab.Game("ludo", {"players": looped})):
    try:
        call()
        print("accepted")
    except ddalab.InputError as error:
        print(error)
"""


def test_a_dict_nested_too_deeply_or_inside_itself_is_refused_naming_the_path(quick, tmp_path):
    # In a child process: before the fix the conversion recursed until the stack overflowed.
    said = subprocess.run([sys.executable, "-c", HOSTILE_DICTS_CHILD,
                           json.dumps(with_iterations(quick, 1)), str(tmp_path / "r")],
                          capture_output=True, text=True)
    assert said.returncode == 0, (said.returncode, said.stderr)
    deep, cyclic, looped = said.stdout.splitlines()
    # The batch, experiments, the experiment, coefficients, lead: the 65th level is lead + 60 [0].
    assert deep == ("$.experiments[0].coefficients.lead" + "[0]" * 60 + ": arrays and objects "
                    "nested more than 64 levels deep; expected at most 64 levels"), deep
    assert cyclic.startswith("$.experiments[1].game.params.me: the dict at $ contains itself"), \
        cyclic
    assert looped.startswith("params.players[0]: the list at params.players contains itself"), \
        looped
    assert not (tmp_path / "r").exists()  # refused before the folder was touched


def test_load_refuses_what_is_not_a_results_folder_naming_the_file(quick, tmp_path):
    refusal(lambda: ddalab.load(tmp_path / "missing"), "missing", "not a folder")
    refusal(lambda: ddalab.load(tmp_path), str(tmp_path), "no summary.csv")
    ddalab.run(with_iterations(quick, 3), threads=1, out=tmp_path / "r", progress=False)
    games = tmp_path / "r" / "ludo-4hc__e-random.games.csv"
    text = games.read_text()
    games.write_text(text.replace("iteration,seed", "iteration,sead", 1))
    refusal(lambda: ddalab.load(tmp_path / "r"), str(games), "header")
    lines = text.splitlines(keepends=True)
    lines[1] = lines[1].replace(",0,", ",x,", 1)  # capped is 0 or 1
    games.write_text("".join(lines))
    refusal(lambda: ddalab.load(tmp_path / "r"), str(games), "capped")
    games.unlink()
    refusal(lambda: ddalab.load(tmp_path / "r"), str(games), "missing")


def test_load_refuses_a_damaged_cell_as_ddalab_score_does(cli, quick, tmp_path):
    ddalab.run(with_iterations(quick, 3), threads=1, out=tmp_path / "r", progress=False)
    games = tmp_path / "r" / "ludo-4hc__e-random.games.csv"
    text = games.read_text()
    header = text.split("\n", 1)[0].split(",")
    column = header.index("tension")
    lines = text.splitlines(keepends=True)
    for damaged in ("", "0\0"):  # an empty metric cell, a NUL byte
        cells = lines[2].split(",")
        cells[column] = damaged
        games.write_text("".join(lines[:2] + [",".join(cells)] + lines[3:]))
        said = subprocess.run([cli, "score", str(tmp_path / "r")], capture_output=True,
                              text=True)
        assert said.returncode == 2, said.stderr
        message = said.stderr.split("error: ", 1)[1].strip()
        assert f"{games}:3: column {column + 1}: (tension) expected a number" in message
        refusal(lambda: ddalab.load(tmp_path / "r"), message)


def test_load_reads_a_sweeps_table(quick, tmp_path):
    batch = with_iterations(quick, 3)
    batch["experiments"][1]["sweep"] = [{"path": "environment.params.random_prob",
                                         "values": [0.1, 0.5]}]
    results = ddalab.run(batch, threads=1, out=tmp_path / "s", progress=False)
    assert_frame_equals_csv(results.sweep, tmp_path / "s" / "sweep.csv")
    assert str(results.sweep["@random_prob"].dtype) == "float64"
    assert set(results.sweep["@random_prob"].dropna()) == {0.1, 0.5}
    assert str(results.sweep["comparison"].dtype) == "category"


def example_plugin(cli, source_dir, tmp_path):
    """The example plug-in (examples/plugin-dice): the build's own (tests/plugins) when this
    build has the tests, else compiled here against the source tree's headers (~7 s of CPU)."""
    built = pathlib.Path(cli).resolve().parents[2] / "tests" / "plugins"
    if (built / "libddalab_test_plugin_dice.so").is_file():
        return built / "libddalab_test_plugin_dice.so"
    dice = source_dir / "examples" / "plugin-dice"
    plugin = tmp_path / "libdice.so"
    subprocess.run(["g++", "-std=c++20", "-shared", "-fPIC", "-O0", f"-I{source_dir}",
                    f'-DDDALAB_SDK_VERSION="{ddalab.__version__}"', '-DDICE_GAME_ID="pig"',
                    '-DDICE_VERSION="1.0.0"', str(dice / "pig.cpp"), str(dice / "swing.cpp"),
                    "-o", str(plugin)], check=True)
    return plugin


PLUGIN_CHILD = """
import json, sys, ddalab
assert "pig" not in [g["id"] for g in ddalab.games()]
loaded = ddalab.load_plugin(sys.argv[1])
again = ddalab.load_plugin(sys.argv[1])
games = {g["id"]: g for g in ddalab.games()}
players = [p["id"] for p in ddalab.players()]
batch = json.loads(open(sys.argv[2]).read())
for experiment in batch["experiments"]:
    experiment["iterations"] = 5
played = ddalab.run(batch, threads=1, out=sys.argv[3], progress=False)
print(json.dumps({"loaded": loaded["games"], "again": again == loaded,
                  "played": played.games.groupby("experiment", observed=True).size().tolist(),
                  "swing": "swing" in played.games.columns,
                  "origin": games["pig"]["origin"], "players": loaded["players"],
                  "listed": all(p in players for p in loaded["players"]),
                  "metrics": [m["key"] for m in ddalab.metrics()]}, default=str))
"""


def test_a_plugin_adds_its_games_and_players_to_the_catalog(cli, source_dir, tmp_path):
    # In a process of its own: the plug-in's metric would become a column of later results.
    plugin = example_plugin(cli, source_dir, tmp_path)
    comparison = source_dir / "examples" / "plugin-dice" / "pig-comparison.json"
    said = subprocess.run([sys.executable, "-c", PLUGIN_CHILD, str(plugin), str(comparison),
                           str(tmp_path / "pig")],
                          capture_output=True, text=True)
    assert said.returncode == 0, said.stderr
    got = json.loads(said.stdout)
    assert got["loaded"] == ["pig"] and got["again"] and got["listed"] and got["players"]
    assert str(plugin) in got["origin"]
    assert "swing" in got["metrics"]
    assert got["played"] == [5, 5] and got["swing"]  # a batch of its game, its metric a column


def test_a_plugin_that_cannot_be_loaded_is_refused_naming_it(cli, tmp_path):
    refusal(lambda: ddalab.load_plugin(tmp_path / "missing.so"), "missing.so")
    (tmp_path / "text.so").write_text("not a shared library")
    refusal(lambda: ddalab.load_plugin(tmp_path / "text.so"), "text.so")
    wrong_abi = (pathlib.Path(cli).resolve().parents[2] / "tests" / "plugins" /
                 "libddalab_test_plugin_wrong_abi.so")
    if wrong_abi.is_file():  # built with the tests (tests/plugins)
        refusal(lambda: ddalab.load_plugin(wrong_abi), wrong_abi.name, "ABI")
    assert "pig" not in [g["id"] for g in ddalab.games()]
