#!/usr/bin/env python3
"""Runs a batch one experiment at a time into one results folder and records each experiment's
wall and CPU time, so a study reports time per game beside the scores (CPU time, of the
ddalab process and its threads, is the steadier figure on a shared machine).

  scripts/run_timed.py BATCH.json OUT [--threads 2] [--ddalab build/app/cli/ddalab]

Each experiment runs alone (same master seed and salt, so the same games as the whole batch);
OUT then holds every experiment's CSVs, the batch.json of the whole batch (so `ddalab score OUT`
scores the comparisons together) and times.csv (experiment, games, wall seconds, wall seconds per
game, CPU seconds, CPU seconds per game).
An experiment already in times.csv is skipped, so an interrupted study resumes."""
import argparse
import csv
import json
import resource
import pathlib
import shutil
import subprocess
import tempfile
import time


def cpu_seconds():
    """User + system time of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def append_summary(single, combined):
    """Adds the experiment rows of one run's summary.csv to the folder's (header once)."""
    lines = single.read_text().splitlines(keepends=True)
    if not combined.exists():
        combined.write_text(lines[0])
    with combined.open("a") as f:
        f.writelines(lines[1:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("batch")
    parser.add_argument("out")
    parser.add_argument("--threads", default="2")
    parser.add_argument("--ddalab", default="build/app/cli/ddalab")
    args = parser.parse_args()
    batch = json.loads(pathlib.Path(args.batch).read_text())
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    times = out / "times.csv"
    done = set()
    if times.exists():
        done = {row["experiment"] for row in csv.DictReader(times.open())}
    else:
        times.write_text("experiment,games,seconds,seconds_per_game,cpu_seconds,cpu_per_game\n")
    for experiment in batch["experiments"]:
        if experiment["name"] in done:
            continue
        single = {k: v for k, v in batch.items() if k != "experiments"}
        single["experiments"] = [experiment]
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "batch.json"
            path.write_text(json.dumps(single))
            start = time.monotonic()
            cpu_start = cpu_seconds()
            subprocess.run([args.ddalab, "run", str(path), "--out", f"{tmp}/out", "--threads",
                            args.threads, "--quiet"], check=True, stdout=subprocess.DEVNULL)
            seconds = time.monotonic() - start
            cpu = cpu_seconds() - cpu_start
            for f in pathlib.Path(f"{tmp}/out").glob("*.csv"):
                if f.name == "summary.csv":
                    append_summary(f, out / "summary.csv")
                elif not f.name.endswith(".scores.csv"):
                    shutil.copy(f, out / f.name)
        games = experiment["iterations"]
        with times.open("a") as f:
            f.write(f"{experiment['name']},{games},{seconds:.2f},{seconds / games:.4f},"
                    f"{cpu:.2f},{cpu / games:.4f}\n")
        print(f"{experiment['name']}: {games} games, {seconds:.1f} s, CPU {cpu:.1f} s", flush=True)
    shutil.copy(args.batch, out / "batch.json")


if __name__ == "__main__":
    main()
