#!/usr/bin/env python3
"""Prints a Markdown table of a results folder written by scripts/run_timed.py: per experiment
the games, the thesis table-8 score (score9), the same without win_ratio (score8: win_ratio is
the noisiest term at a few hundred games), table 9 (score4), the mean fun score F of the
finished games and the wall and CPU time per game.

  scripts/opponent_study_table.py OUT [--ddalab build/app/cli/ddalab]

F = sum_k c_k * sign_k * m_k over the game's final metrics (metrics.md; sign -1 where lower is
better), with the experiment's coefficients."""
import argparse
import csv
import json
import pathlib
import re
import subprocess

LOWER = {"lead", "tension", "leading_time", "fairness", "believability"}


def mean_fun(out, experiment):
    stem = experiment["name"].replace("/", "__")
    rows = list(csv.DictReader((out / f"{stem}.games.csv").open()))
    coefficients = experiment["coefficients"]
    total = 0.0
    for row in rows:
        total += sum(c * (-1 if k in LOWER else 1) * float(row[k])
                     for k, c in coefficients.items())
    return total / len(rows), len(rows)


def scores(out, ddalab):
    text = subprocess.run([ddalab, "score", str(out)], check=True, capture_output=True,
                          text=True).stdout
    table = {}
    header = None
    for line in text.splitlines():
        if "score9" in line and "experiment" in line:
            header = line.split()
        elif header and re.match(r"^\s+\S+/", line):
            cells = line.split()
            if len(cells) == len(header):
                table[cells[0]] = dict(zip(header[1:], map(float, cells[1:])))
    return table


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--ddalab", default="build/app/cli/ddalab")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    batch = json.loads((out / "batch.json").read_text())
    times = {r["experiment"]: r for r in csv.DictReader((out / "times.csv").open())}
    table = scores(out, args.ddalab)
    print("| row | games | score9 | score8 (no win_ratio) | score4 | mean F | wall s/game | "
          "CPU s/game |")
    print("|---|---|---|---|---|---|---|---|")
    for e in batch["experiments"]:
        s = table[e["name"]]
        fun, games = mean_fun(out, e)
        t = times[e["name"]]
        cpu = f"{float(t['cpu_per_game']):.3f}" if t.get("cpu_per_game") else "-"
        print(f"| {e['name'].split('/', 1)[1]} | {games} | {s['score9']:.2f} | "
              f"{s['score9'] - s['win_ratio']:.2f} | {s['score4']:.2f} | {fun:.1f} | "
              f"{float(t['seconds_per_game']):.3f} | {cpu} |")


if __name__ == "__main__":
    main()
