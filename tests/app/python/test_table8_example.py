"""examples/python/thesis_table8.py on a small study the CLI runs here (the maze comparison, two
environment players, a few games): its table holds the ranks CSV's scores and intervals, its
figure is a PNG; a folder without results and a figure path that is a folder are refused."""
import csv
import json
import os
import subprocess
import sys

import pytest

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def experiment(environment):
    return {"name": f"maze/{environment}", "comparison": "maze",
            "game": {"id": "maze", "params": {"width": 21, "height": 15}},
            "players": [{"id": "random"}], "environment": {"id": environment},
            "coefficients": {"believability": 1000, "tension": 10, "lead": 3}, "iterations": 8}


@pytest.fixture(scope="module")
def study(cli, tmp_path_factory):
    folder = tmp_path_factory.mktemp("table8")
    batch = {"format": "ddalab-batch/1", "seed": 3,
             "experiments": [experiment("e-random"), experiment("e-hillclimber")]}
    (folder / "batch.json").write_text(json.dumps(batch))
    subprocess.run([cli, "run", str(folder / "batch.json"), "--out", str(folder / "out"),
                    "--threads", "1", "--quiet"], check=True, capture_output=True)
    return folder / "out"


def run_example(source_dir, *args):
    env = {**os.environ, "MPLCONFIGDIR": os.environ.get("MPLCONFIGDIR", "/tmp")}
    return subprocess.run([sys.executable, str(source_dir / "examples/python/thesis_table8.py"),
                           *map(str, args)], capture_output=True, text=True, env=env)


def test_the_table_holds_the_ranks_scores_and_the_figure_is_written(source_dir, study, tmp_path):
    figure = tmp_path / "table8.png"
    done = run_example(source_dir, study, "--figure", figure)
    assert done.returncode == 0, done.stderr
    with open(study / "maze.ranks.csv", newline="") as f:
        ranks = {r["experiment"].split("/")[1]: r for r in csv.DictReader(f)}
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["maze"]
    for short, row in (("none", "e-random"), ("E-HC", "e-hillclimber")):
        r = ranks[row]
        line = next(x for x in lines if x.split()[0] == short)
        cell = (f"{float(r['score9']):.2f} [{float(r['score9_low']):.2f}, "
                f"{float(r['score9_high']):.2f}]")
        assert cell in line
        assert line.rstrip().endswith({"none": "/ 4.21", "E-HC": "/ 6.71"}[short])  # the thesis
    assert next(x for x in lines if x.split()[0] == "POSM").split()[1] == "—"  # not run here
    assert figure.read_bytes()[:8] == PNG_SIGNATURE and figure.stat().st_size > 10_000


def test_a_folder_without_results_is_refused(source_dir, tmp_path):
    done = run_example(source_dir, tmp_path)
    assert done.returncode != 0 and "not a results folder" in done.stderr
    done = run_example(source_dir, tmp_path / "missing")
    assert done.returncode != 0 and "not a folder" in done.stderr


def test_a_figure_path_that_is_a_folder_is_refused(source_dir, study, tmp_path):
    done = run_example(source_dir, study, "--figure", tmp_path)
    assert done.returncode != 0 and "not a regular file" in done.stderr
    assert list(tmp_path.iterdir()) == []
