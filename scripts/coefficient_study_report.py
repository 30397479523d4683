#!/usr/bin/env python3
"""Prints the tables of docs/study-coefficients.md from the results folders of
experiments/sweeps/coefficients-<game>.json (one folder a game):

1. sensitivity: for every swept parameter and metric, the paired difference of E-HillClimber's
   mean between the top and the bottom of the sweep (coefficient 1000 vs 0, random_prob 1 vs 0;
   the same 200 seeds at every point), its 95 % interval, and '*' where a paired t-test
   (normal approximation, 200 pairs) rejects no change after Holm's correction over the game's
   cells;
2. per parameter: E-HillClimber's mean of every metric at each value (the thesis's value marked),
   win_ratio, score9 with its bootstrap interval (sweep.csv) and the detectability test's verdict
   (seats detected of all, median games to detect), beside the e-random reference.

    python3 scripts/coefficient_study_report.py ddalab-out/coefficients-ludo ... > tables.md

A folder of experiments/sweeps/coefficients-recommended.json (rows e-random,
e-hillclimber-thesis, e-hillclimber-recommended per comparison) gets instead, per comparison,
each metric's mean in the three rows and the paired difference recommended - thesis with its
95 % interval ('*': Holm-corrected paired t-test over the comparison's metrics, p < 0.05).

    python3 scripts/coefficient_study_report.py --doc-holm docs/study-coefficients.md

checks the doc itself: every paired difference it prints as "mean ± half-width" (the four
sensitivity tables and the four recommended-set checks) becomes a two-sided p (normal
approximation, z = 1.959964 x mean / half-width), Holm's correction runs over all of them at
once, and it lists the cells marked '*' (Holm within one table) that do not hold over the doc.

The thesis has no HexaLines: its "thesis" set is Ludo's (ludo-4mn's coefficients), labelled
"Ludo's thesis" in every table (and its row in the recommended check e-hillclimber-ludo-thesis).
"""
import csv
import json
import math
import pathlib
import statistics
import sys

METRICS = ["rounds", "lead_changes", "lead", "tension", "leading_time", "freedom", "fairness",
           "believability", "randomness"]
SHORT = {"rounds": "rounds", "lead_changes": "lead ch.", "lead": "lead", "tension": "tension",
         "leading_time": "lead. time", "freedom": "freedom", "fairness": "fairness",
         "believability": "believ.", "randomness": "random."}


# Where the starting set is not the game's own thesis set (the thesis has no HexaLines).
BASELINE = {"hexalines": "Ludo's thesis"}


def baseline(batch):
    """What the sweep's starting set is called: "thesis", or whose thesis set it borrows."""
    ids = {e["game"]["id"] for e in batch["experiments"]}
    return BASELINE.get(ids.pop(), "thesis") if len(ids) == 1 else "thesis"


def fmt(x):
    """Three significant digits, no exponent for the values the study meets."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    digits = max(0, 2 - int(math.floor(math.log10(abs(x)))))
    return f"{x:.{digits}f}"


def games(folder, experiment):
    path = folder / (experiment.replace("/", "__") + ".games.csv")
    with open(path, newline="") as f:
        return {int(r["iteration"]): r for r in csv.DictReader(f)}


def paired(a, b, metric):
    """Mean of b - a over the games both have, its 95 % half-width and two-sided p."""
    d = [float(b[i][metric]) - float(a[i][metric]) for i in a if i in b]
    mean = statistics.fmean(d)
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    half = 1.959964 * sd / math.sqrt(len(d))
    p = 1.0 if sd == 0 else math.erfc(abs(mean) / (sd / math.sqrt(len(d))) / math.sqrt(2))
    if sd == 0 and mean != 0:
        p = 0.0
    return mean, half, p


def holm(pvalues):
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * len(pvalues), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def load(folder):
    batch = json.loads((folder / "batch.json").read_text())
    with open(folder / "sweep.csv", newline="") as f:
        sweep = {r["experiment"]: r for r in csv.DictReader(f)}
    families = {}  # parameter -> [(value, e-hc experiment, e-random experiment)]
    thesis = {}
    for e in batch["experiments"]:
        if e["environment"]["id"] != "e-hillclimber":
            continue
        (parameter, value), = e["point"].items()
        reference = e["name"].replace("e-hillclimber", "e-random")
        families.setdefault(parameter, []).append((value, e, reference))
    for parameter, rows in families.items():
        rows.sort(key=lambda r: r[0])
    # The thesis's set-up: the coefficients of the random_prob family, random_prob of any other.
    some = next(e for p, rows in families.items() if p != "random_prob" for _, e, _ in rows)
    thesis["random_prob"] = some["environment"].get("params", {}).get("random_prob", 0)
    for _, e, _ in families.get("random_prob", []):
        for k in families:
            if k != "random_prob":
                thesis[k] = e.get("coefficients", {}).get(k, 0)
    return batch, sweep, families, thesis


def detectability(folder, comparison, experiment):
    path = folder / (comparison + ".detectability.csv")
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["experiment"] == experiment]
    detected = [r for r in rows if r["detected"] == "1"]
    if not detected:
        return f"0/{len(rows)}"
    median = statistics.median(int(r["games_to_detect"]) for r in detected if r["games_to_detect"])
    return f"{len(detected)}/{len(rows)}, {median:g}"


def present(folder, families):
    """The metrics the game's games CSVs hold (maze: no fairness)."""
    _, e, _ = next(iter(families.values()))[0]
    header = next(iter(games(folder, e["name"]).values())).keys()
    return [m for m in METRICS if m in header]


def sensitivity(folder, families, metrics):
    cells, pvalues = {}, []
    for parameter, rows in families.items():
        low, high = games(folder, rows[0][1]["name"]), games(folder, rows[-1][1]["name"])
        for m in metrics:
            cells[parameter, m] = paired(low, high, m)
            pvalues.append(cells[parameter, m][2])
    adjusted = dict(zip(cells, holm(pvalues)))
    print("| parameter (from → to) | " + " | ".join(SHORT[m] for m in metrics) + " |")
    print("|---" * (len(metrics) + 1) + "|")
    for parameter, rows in families.items():
        span = f"{parameter} ({rows[0][0]:g} → {rows[-1][0]:g})"
        out = []
        for m in metrics:
            mean, half, _ = cells[parameter, m]
            mark = "*" if adjusted[parameter, m] < 0.05 else ""
            out.append(f"{fmt(mean)} ± {fmt(half)}{mark}")
        print(f"| {span} | " + " | ".join(out) + " |")
    print()


def interval(row, column):
    return f"{fmt(float(row[column]))} [{fmt(float(row[column + '_low']))}, " \
           f"{fmt(float(row[column + '_high']))}]"


def per_parameter(folder, sweep, families, thesis, metrics, label):
    for parameter, rows in families.items():
        print(f"**{parameter}** ({label} value {thesis.get(parameter, 0):g})\n")
        print("| value | " + " | ".join(SHORT[m] for m in metrics) +
              " | win_ratio | score9 [95 %] | detected, games |")
        print("|---" * (len(metrics) + 4) + "|")
        first = sweep[rows[0][2]]
        comparison = first["comparison"]
        print("| e-random | " + " | ".join(fmt(float(first[m])) for m in metrics) +
              f" | {fmt(float(first['win_ratio']))} | {interval(first, 'score9')} | "
              f"{detectability(folder, comparison, rows[0][2])} |")
        for value, e, _ in rows:
            r = sweep[e["name"]]
            name = f"{value:g}" + (f" ({label})" if value == thesis.get(parameter) else "")
            print(f"| {name} | " + " | ".join(fmt(float(r[m])) for m in metrics) +
                  f" | {fmt(float(r['win_ratio']))} | {interval(r, 'score9')} | "
                  f"{detectability(folder, r['comparison'], e['name'])} |")
        print()


BETTER = {"lead_changes": "higher", "lead": "lower", "tension": "lower", "leading_time": "lower",
          "freedom": "higher", "fairness": "lower", "believability": "lower"}


def check(folder, batch):
    comparisons = []
    for e in batch["experiments"]:
        if e["comparison"] not in comparisons:
            comparisons.append(e["comparison"])
    for comparison in comparisons:
        rows = {e["name"].split("/")[-1]: e["name"] for e in batch["experiments"]
                if e["comparison"] == comparison}
        reference = games(folder, rows["e-random"])
        start = next(k for k in rows if k.startswith("e-hillclimber-") and
                     k != "e-hillclimber-recommended")
        label = "Ludo's thesis" if start == "e-hillclimber-ludo-thesis" else "thesis"
        thesis = games(folder, rows[start])
        recommended = games(folder, rows["e-hillclimber-recommended"])
        header = next(iter(thesis.values())).keys()
        metrics = [m for m in METRICS if m in header]
        cells = [paired(thesis, recommended, m) for m in metrics]
        adjusted = holm([c[2] for c in cells])
        print(f"**{comparison}** ({len(thesis)} games a row)\n")
        print(f"| metric (better) | e-random | {label} set | recommended set | "
              f"recommended − {label} |")
        print("|---|---|---|---|---|")
        mean = lambda g, m: statistics.fmean(float(r[m]) for r in g.values())
        for m, (d, half, _), p in zip(metrics, cells, adjusted):
            print(f"| {m} ({BETTER.get(m, 'neither')}) | {fmt(mean(reference, m))} | "
                  f"{fmt(mean(thesis, m))} | {fmt(mean(recommended, m))} | "
                  f"{fmt(d)} ± {fmt(half)}{'*' if p < 0.05 else ''} |")
        print()


def doc_cells(text):
    """(section, row, column, mean, half, starred) of every "mean ± half" cell of the doc's
    tables before its appendix."""
    cells, section, header = [], "", []
    for line in text.split("\n"):
        if line.startswith("## Appendix"):
            break
        if line.startswith("## ") or line.startswith("**") and line.rstrip().endswith(")"):
            section = line.strip("#* ").split(" (")[0] if line.startswith("##") else \
                line.split("**")[1]
        if not line.startswith("|"):
            continue
        parts = [c.strip() for c in line.strip().strip("|").split("|")]
        if "±" not in line:
            header = parts if not parts[0].startswith("---") else header
            continue
        for column, cell in zip(header[1:], parts[1:]):
            if "±" not in cell:
                continue
            mean, half = cell.rstrip("*").split(" ± ")
            cells.append((section, parts[0], column, float(mean), float(half), cell.endswith("*")))
    return cells


def doc_holm(path):
    cells = doc_cells(pathlib.Path(path).read_text())
    pvalues = []
    for _, _, _, mean, half, _ in cells:
        if half == 0:
            pvalues.append(1.0 if mean == 0 else 0.0)
        else:
            pvalues.append(math.erfc(abs(1.959964 * mean / half) / math.sqrt(2)))
    adjusted = holm(pvalues)
    held = sum(1 for q in adjusted if q < 0.05)
    starred = sum(1 for c in cells if c[5])
    print(f"{len(cells)} paired differences in {path}; {starred} marked '*' (Holm within their "
          f"table); {held} hold after Holm over all {len(cells)}.\n")
    print("| table | row | column | difference | p | Holm p (doc) | verdict |")
    print("|---|---|---|---|---|---|---|")
    for (section, row, column, mean, half, star), p, q in zip(cells, pvalues, adjusted):
        if star != (q < 0.05):
            verdict = "lost over the doc" if star else "holds over the doc only"
            print(f"| {section} | {row} | {column} | {fmt(mean)} ± {fmt(half)} | {p:.2g} | "
                  f"{q:.2g} | {verdict} |")


def main():
    if sys.argv[1:2] == ["--doc-holm"]:
        doc_holm(sys.argv[2])
        return
    for arg in sys.argv[1:]:
        folder = pathlib.Path(arg)
        batch = json.loads((folder / "batch.json").read_text())
        if any(e["name"].endswith("e-hillclimber-recommended") for e in batch["experiments"]):
            check(folder, batch)
            continue
        batch, sweep, families, thesis = load(folder)
        metrics = present(folder, families)
        games_played = sum(e["iterations"] for e in batch["experiments"])
        print(f"### {folder.name} ({len(batch['experiments'])} experiments, {games_played} games)\n")
        sensitivity(folder, families, metrics)
        per_parameter(folder, sweep, families, thesis, metrics, baseline(batch))


if __name__ == "__main__":
    main()
