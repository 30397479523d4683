#!/usr/bin/env python3
"""Prints the markdown tables of docs/thesis-study.md from a results folder of
experiments/thesis/all.json: per comparison the metric table (thesis tables 5-7: ours with 95 %
CI, the thesis's value where the thesis prints it, '*' where the row differs from no DDA by a
Holm-corrected paired test), per-round rates, win_ratio with its interval and balance test, and
detectability; then tables 8 and 9 with bootstrap intervals, P(above no DDA) and P(rank 1).

    python3 scripts/thesis_study_report.py ddalab-out/all > /tmp/tables.md

The thesis's numbers below are transcribed from its tables 5-9 (seeds/001, chapter 6)."""
import csv
import pathlib
import sys

ROWS = ["e-random", "e-hillclimber", "e-maxmax", "e-montecarlo", "e-maxn", "posm", "dynamic-level"]
SHORT = {"e-random": "none", "e-hillclimber": "E-HC", "e-maxmax": "E-MM", "e-montecarlo": "E-MC",
         "e-maxn": "E-MN", "posm": "POSM", "dynamic-level": "DL"}
COMPARISONS = ["maze", "lc-hcis", "lc-mmis", "ludo-2hc", "ludo-2mn", "ludo-4mn"]
EXTRA = ["hexalines-3"]  # comparisons the thesis does not have
METRICS = ["rounds", "lead_changes", "tension", "lead", "fairness", "believability", "freedom",
           "randomness", "leading_time"]

# Thesis tables 5 (maze), 6 (ludo-4mn), 7 (lc-mmis): row -> metric -> value.
T5_COLUMNS = ["rounds", "lead_changes", "tension", "lead", "believability", "freedom",
              "randomness", "leading_time", "win_ratio"]
T67_COLUMNS = ["rounds", "lead_changes", "tension", "lead", "fairness", "believability", "freedom",
               "randomness", "leading_time", "win_ratio"]
THESIS_METRICS = {
    "maze": (T5_COLUMNS, {
        "e-random": [93.127, 8.217, 343.685, 239.851, 81789.79, 12.199, 15.056, 33.048, 0.121],
        "e-hillclimber": [114.905, 19.176, 233.917, 177.951, 53868.86, 13.800, 12.922, 31.007,
                          0.002],
        "e-maxmax": [113.32, 14.64, 214.539, 169.935, 30377.59, 15.262, 11.296, 25.742, 0.024],
        "e-montecarlo": [105.494, 15.829, 187.585, 151.923, 46656.61, 13.845, 12.222, 22.056,
                         0.065],
        "posm": [99.902, 8.394, 455.766, 290.602, 73884.68, 6.766, 21.723, 40.550, 0.176],
        "dynamic-level": [95.431, 8.29, 483.727, 300.486, 83988.24, 7.450, 22.916, 40.460, 0.154],
    }),
    "ludo-4mn": (T67_COLUMNS, {
        "e-random": [321.629, 33.207, 10.961, 10.69, 0.0534, 24.574, 1.868, 1.189, 67.373, 0.0214],
        "e-hillclimber": [367.71, 86.401, 2.192, 4.576, 0.0302, 1.226, 1.951, 0.996, 67.021,
                          0.0782],
        "e-maxmax": [374.831, 95.074, 2.198, 4.911, 0.0291, 0.397, 1.909, 1.048, 61.581, 0.0357],
        "e-montecarlo": [370.011, 86.126, 2.048, 4.351, 0.0303, 1.079, 1.954, 0.963, 70.791,
                         0.0873],
        "e-maxn": [349.386, 97.275, 2.379, 5.096, 0.0317, 0.384, 1.976, 1.100, 52.281, 0.0557],
        "posm": [329.262, 35.024, 10.572, 10.292, 0.0791, 25.217, 1.798, 1.217, 68.672, 0.0350],
        "dynamic-level": [342.281, 47.836, 10.265, 10.484, 0.1134, 26.546, 1.777, 1.250, 86.854,
                          0.0962],
    }),
    "lc-mmis": (T67_COLUMNS, {
        "e-random": [51.21, 5.17, 169.379, 159.11, 2.979, 4.931, 30.064, 12.597, 15.751, 0.016],
        "e-hillclimber": [51.652, 6.219, 90.115, 109.66, 2.084, 0.612, 31.833, 10.615, 15.426,
                          0.055],
        "e-maxmax": [51.058, 15.105, 35.892, 92.52, 2.515, 0.467, 29.815, 11.630, 6.802, 0.093],
        "e-montecarlo": [51.076, 6.763, 84.529, 106.63, 2.407, 0.784, 31.623, 11.059, 14.119,
                         0.089],
        "e-maxn": [51.284, 16.647, 34.663, 78.3, 1.854, 0.524, 29.116, 11.523, 7.209, 0.081],
        "posm": [53.785, 5.038, 204.209, 217.97, 3.458, 4.956, 27.406, 12.976, 16.758, 0.358],
        "dynamic-level": [49.957, 4.838, 283.728, 228.54, 3.402, 4.944, 26.519, 14.252, 18.389,
                          0.408],
    }),
}
# Thesis tables 8 and 9: row -> scores in COMPARISONS order (None: not measured).
THESIS_SCORE9 = {
    "e-random": [4.21, 4.88, 4.94, 4.23, 5.22, 5.03],
    "e-hillclimber": [6.71, 6.35, 5.86, 7.40, 7.43, 7.06],
    "e-maxmax": [6.47, 7.62, 7.48, 8.47, 7.85, 8.10],
    "e-montecarlo": [6.34, 6.20, 5.53, 7.50, 7.46, 7.18],
    "e-maxn": [None, 8.87, 7.87, 8.00, 7.61, 7.89],
    "posm": [3.30, 4.59, 3.59, 4.23, 4.00, 4.43],
    "dynamic-level": [3.23, 4.14, 3.38, 4.20, 3.99, 3.87],
}
THESIS_SCORE4 = {
    "e-random": [1.62, 1.54, 2.01, 0.76, 1.67, 1.94],
    "e-hillclimber": [3.66, 2.09, 1.76, 3.36, 3.34, 3.05],
    "e-maxmax": [2.62, 3.09, 2.89, 3.83, 3.18, 3.39],
    "e-montecarlo": [2.86, 1.99, 1.73, 3.24, 3.15, 3.13],
    "e-maxn": [None, 4.00, 3.20, 3.38, 3.07, 3.10],
    "posm": [1.38, 1.39, 0.88, 1.07, 0.60, 1.59],
    "dynamic-level": [1.34, 1.27, 0.79, 1.08, 0.62, 1.33],
}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(x, digits=3):
    value = float(x)
    if abs(value) >= 1000:
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.{digits}f}"


def summary_of(folder, comparison, row):
    path = folder / f"{comparison}__{row}.summary.csv"
    return {r["metric"]: r for r in read_csv(path)} if path.exists() else None


def significant(tests, comparison, row, metric):
    for t in tests:
        if t["experiment"] == f"{comparison}/{row}" and t["metric"] == metric:
            return t["significant"] == "1"
    return False


def mean_cell(stat, fmt, marked):
    """'mean ± 95 % CI half-width' of a summary.csv row, '*' when `marked`."""
    half = (float(stat["ci95_high"]) - float(stat["ci95_low"])) / 2
    return f"{fmt(float(stat['mean']))} ± {fmt(half)}" + (" *" if marked else "")


def metric_table(folder, comparison):
    tests = read_csv(folder / f"{comparison}.tests.csv")
    columns, thesis = THESIS_METRICS.get(comparison, (None, {}))
    metrics = [m for m in METRICS if not (comparison == "maze" and m == "fairness")]
    out = ["| row | " + " | ".join(metrics) + " | win_ratio [95 % CI] | balance p |",
           "|---" * (len(metrics) + 3) + "|"]
    for row in ROWS:
        s = summary_of(folder, comparison, row)
        if s is None:
            continue
        cells = []
        for m in metrics:
            cell = mean_cell(s[m], number, significant(tests, comparison, row, m))
            if row in thesis and m in columns:
                cell += f" / {number(thesis[row][columns.index(m)])}"
            cells.append(cell)
        w = s["win_ratio"]
        cell = f"{number(w['mean'])} [{number(w['ci95_low'])}, {number(w['ci95_high'])}]"
        if significant(tests, comparison, row, "win_ratio"):
            cell += " *"
        if row in thesis:
            cell += f" / {number(thesis[row][columns.index('win_ratio')])}"
        cells.append(cell)
        cells.append(number(s["win_balance_p"]["mean"], 4))
        out.append(f"| {SHORT[row]} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def rates_table(folder, comparison):
    tests = read_csv(folder / f"{comparison}.tests.csv")
    out = ["| row | lead_changes / round | leading_time / round |", "|---|---|---|"]
    for row in ROWS:
        s = summary_of(folder, comparison, row)
        if s is None:
            continue
        cells = [mean_cell(s[m], lambda x: f"{x:.4f}", significant(tests, comparison, row, m))
                 for m in ["lead_changes_per_round", "leading_time_per_round"]]
        out.append(f"| {SHORT[row]} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def detectability_table(folder, comparison):
    rows = read_csv(folder / f"{comparison}.detectability.csv")
    out = ["| row | seat | outcomes | chi2 (9 df) | p | games to detect |", "|---|---|---|---|---|---|"]
    for r in rows:
        row = r["experiment"].split("/")[-1]
        p = r["p"] if r["p"] else "–"
        games = r["games_to_detect"] or "not detected"
        out.append(f"| {SHORT.get(row, row)} | {r['seat']} {r['player']} | {r['outcomes']} | "
                   f"{float(r['chi2']):.1f} | {float(p):.4f} | {games} |" if p != "–" else
                   f"| {SHORT.get(row, row)} | {r['seat']} {r['player']} | {r['outcomes']} | – | – | – |")
    return "\n".join(out)


def score_table(folder, which):
    thesis = THESIS_SCORE9 if which == "9" else THESIS_SCORE4
    header = "| row | " + " | ".join(COMPARISONS) + " |"
    out = [header, "|---" * (len(COMPARISONS) + 1) + "|"]
    ranks = {c: {r["experiment"].split("/")[-1]: r for r in read_csv(folder / f"{c}.ranks.csv")}
             for c in COMPARISONS}
    for row in ROWS:
        cells = []
        for i, c in enumerate(COMPARISONS):
            r = ranks[c].get(row)
            t = thesis[row][i]
            if r is None:
                cells.append("— / —" if t is None else f"— / {t:.2f}")
                continue
            cell = (f"{float(r['score' + which]):.2f} [{float(r['score' + which + '_low']):.2f}, "
                    f"{float(r['score' + which + '_high']):.2f}]")
            if row != "e-random":
                cell += f" P>{float(r['p_above_reference' + which]) * 100:.0f}%"
            cell += f" P1 {float(r['p_rank' + which + '_1']) * 100:.0f}%"
            cell += " / " + ("—" if t is None else f"{t:.2f}")
            cells.append(cell)
        out.append(f"| {SHORT[row]} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def comparison_score_table(folder, comparison):
    """Scores of one comparison without a thesis counterpart (hexalines-3): both tables."""
    out = ["| row | table 8 score (nine metrics) | table 9 score (four metrics) |", "|---|---|---|"]
    for r in read_csv(folder / f"{comparison}.ranks.csv"):
        row = r["experiment"].split("/")[-1]
        cells = []
        for which in ("9", "4"):
            cell = (f"{float(r['score' + which]):.2f} [{float(r['score' + which + '_low']):.2f}, "
                    f"{float(r['score' + which + '_high']):.2f}]")
            if row != "e-random":
                cell += f" P>{float(r['p_above_reference' + which]) * 100:.0f}%"
            cell += f" P1 {float(r['p_rank' + which + '_1']) * 100:.0f}%"
            cells.append(cell)
        out.append(f"| {SHORT.get(row, row)} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    folder = pathlib.Path(sys.argv[1])
    present = [c for c in COMPARISONS if (folder / f"{c}.tests.csv").exists()]
    for comparison in present + [c for c in EXTRA if (folder / f"{c}.tests.csv").exists()]:
        print(f"\n#### {comparison}: metric means ± 95 % CI (* differs from none, Holm) / thesis\n")
        print(metric_table(folder, comparison))
        print(f"\nPer-round rates ({comparison}):\n")
        print(rates_table(folder, comparison))
        print(f"\nDetectability ({comparison}):\n")
        print(detectability_table(folder, comparison))
    for comparison in EXTRA:
        if (folder / f"{comparison}.ranks.csv").exists():
            print(f"\n#### {comparison}: scores [bootstrap 95 % CI], P(above none), P(rank 1)\n")
            print(comparison_score_table(folder, comparison))
    if present != COMPARISONS:
        return  # tables 8 and 9 need all six comparisons
    for which, name in (("9", "Table 8 (nine metrics)"), ("4", "Table 9 (four metrics)")):
        print(f"\n#### {name}: ours [bootstrap 95 % CI], P(above none), P(rank 1) / thesis\n")
        print(score_table(folder, which))


if __name__ == "__main__":
    main()
