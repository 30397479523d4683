#!/usr/bin/env python3
"""Prints a markdown table of a `ddalab run` results folder: per experiment the games, and the
mean ± 95 % CI of rounds, lead, fairness and leading time, the win rates and win_ratio (the std
over the two players' win rates) with a 95 % percentile bootstrap CI over games (2000 resamples).
Usage: level_study_table.py RESULTS_DIR..."""
import csv
import pathlib
import random
import sys

METRICS = ["rounds", "lead", "fairness", "leading_time"]


def summary(path):
    rows = {r["metric"]: r for r in csv.DictReader(open(path))}
    cells = []
    for m in METRICS:
        mean = float(rows[m]["mean"])
        half = (float(rows[m]["ci95_high"]) - float(rows[m]["ci95_low"])) / 2
        cells.append(f"{mean:.1f} ± {half:.1f}" if m != "fairness" else f"{mean:.2f} ± {half:.2f}")
    return rows, cells


def win_ratio(winners):
    n = len(winners)
    w0 = sum(1 for w in winners if w == 0) / n
    w1 = sum(1 for w in winners if w == 1) / n
    return abs(w0 - w1) / 2


def bootstrap(winners, rng):
    values = sorted(win_ratio(rng.choices(winners, k=len(winners))) for _ in range(2000))
    return values[49], values[1949]


def main():
    rng = random.Random(1)
    print("| experiment | games | rounds | lead | fairness | leading time | p0 / p1 win rate "
          "| win_ratio [95 % CI] |")
    print("|---|---|---|---|---|---|---|---|")
    for folder in sys.argv[1:]:
        for path in sorted(pathlib.Path(folder).glob("*.summary.csv")):
            rows, cells = summary(path)
            games = list(csv.DictReader(open(str(path).replace(".summary.", ".games."))))
            winners = [int(g["winner"]) if g["winner"] not in ("", "-1") else -1 for g in games]
            low, high = bootstrap(winners, rng)
            name = path.name.replace(".summary.csv", "").replace("__", "/")
            rates = f'{float(rows["p0_win_rate"]["mean"]):.3f} / {float(rows["p1_win_rate"]["mean"]):.3f}'
            print(f"| {name} | {len(games)} | " + " | ".join(cells) +
                  f" | {rates} | {win_ratio(winners):.3f} [{low:.3f}, {high:.3f}] |")


if __name__ == "__main__":
    main()
