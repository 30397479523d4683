#!/usr/bin/env python3
"""The objectives study (docs/study-objectives.md): in 4-player Ludo (the thesis's ludo-4mn
set-up) and Lost Cities (lc-hcis), the thesis's weighted sum against the target, constrained,
lexicographic and win-rate objectives, every steering row e-hillclimber with the thesis's
coefficients and the games of the no-DDA row (common random numbers).

  python3 scripts/study-objectives.py DDALAB [--games N] [--out DIR] [--write-batches]
  python3 scripts/study-objectives.py DDALAB --strength-sweep [--games N] [--out DIR]
      [--write-batches]

1. Calibrates on the no-DDA row (e-random) at N games: lead changes per round, tension, and the
   90th percentile of believability per game.
2. With --write-batches, writes experiments/investigations/objectives-<game>.json from them (targets:
   lead changes per round x 1.5 and tension x 0.5; bound: believability <= the 90th percentile;
   win-rate: the level-50 seat at its fair share, 1/n); otherwise runs the shipped files.
3. Runs them with ddalab and prints, per row, how close it came to what each objective aims at,
   with 95 % intervals and paired differences against the weighted-sum row.
4. Counts every paired comparison it prints (Δ distance, Δ seat 0 wins) and marks those that
   hold after Holm's correction over all of them (both games): `†`.
--doc-holm DOC pools the p of every comparison table in DOC (docs/study-objectives.md: the
study's and the strength sweep's, each printed by a run above) and prints Holm's correction over
all of them, the doc's own count.
--strength-sweep runs experiments/investigations/objectives-win-rate-strength.json instead (written
with --write-batches): the win-rate objective at STRENGTHS x two targets per game (seat 0's fair
share and the fair share + 0.15) against the weighted sum, and prints seat 0's win rate reached
(Wilson 95 %), the paired difference against the weighted sum with its exact McNemar p, and
Holm's correction over the sweep's comparisons.
Needs only Python 3's standard library."""
import csv
import json
import math
import os
import statistics
import subprocess
import sys

from coefficient_study_report import holm  # Holm's step-down adjustment (same folder)

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = {
    "ludo": ("experiments/thesis/ludo-4mn.json", "ludo-4mn/e-hillclimber"),
    "lost-cities": ("experiments/thesis/lc-hcis.json", "lc-hcis/e-hillclimber"),
}


def args():
    a = {"games": 1000, "out": "objectives-study", "write": False, "strengths": False}
    argv = sys.argv[1:]
    if not argv:
        sys.exit(__doc__)
    a["ddalab"] = argv.pop(0)
    while argv:
        flag = argv.pop(0)
        if flag == "--games":
            a["games"] = int(argv.pop(0))
        elif flag == "--out":
            a["out"] = argv.pop(0)
        elif flag == "--write-batches":
            a["write"] = True
        elif flag == "--strength-sweep":
            a["strengths"] = True
        else:
            sys.exit(f"unknown option {flag}")
    return a


def run(ddalab, batch, out):
    subprocess.run([ddalab, "run", batch, "--out", out, "--quiet", "--overwrite", "--threads", "1"],
                   check=True,
                   stdout=subprocess.DEVNULL)


def games(folder, name):
    with open(os.path.join(folder, name.replace("/", "__") + ".games.csv")) as f:
        return list(csv.DictReader(f))


def mean_ci(xs):
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def wilson(k, n):
    z, p = 1.96, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def percentile(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(math.ceil(q * len(s))) - 1)]


def base_experiment(game):
    path, steered = GAMES[game]
    with open(os.path.join(SOURCE, path)) as f:
        batch = json.load(f)
    by_name = {e["name"]: e for e in batch["experiments"]}
    return batch["seed"], by_name[steered]


def row(template, name, environment, objective=None, iterations=1000):
    e = json.loads(json.dumps(template))
    e["name"] = name
    e["comparison"] = name.split("/")[0]
    e["environment"] = {"id": environment}
    e["iterations"] = iterations
    e.pop("objective", None)
    if objective:
        e["objective"] = objective
    return e


def unweighted(e):
    """The row without the believability coefficient: the bound alone keeps the dice natural."""
    e["coefficients"] = {k: v for k, v in e["coefficients"].items() if k != "believability"}
    return e


def calibrate(a, game):
    seed, template = base_experiment(game)
    comparison = f"objectives-{game}"
    batch = {"format": "ddalab-batch/1", "seed": seed,
             "experiments": [row(template, f"{comparison}/no-dda", "e-random", None, a["games"])]}
    path = os.path.join(a["out"], f"calibrate-{game}.json")
    with open(path, "w") as f:
        json.dump(batch, f, indent=2)
    folder = os.path.join(a["out"], f"calibrate-{game}")
    run(a["ddalab"], path, folder)
    g = games(folder, f"{comparison}/no-dda")
    per_round = statistics.fmean(float(x["lead_changes"]) / float(x["rounds"]) for x in g)
    tension = statistics.fmean(float(x["tension"]) for x in g)
    believability = percentile([float(x["believability"]) for x in g], 0.9)
    return per_round, tension, believability


def study_batch(a, game, per_round, tension, believability):
    seed, template = base_experiment(game)
    comparison = f"objectives-{game}"
    seats = len(template["players"])
    n = a["games"]
    rows = [
        row(template, f"{comparison}/no-dda", "e-random", None, n),
        row(template, f"{comparison}/weighted-sum", "e-hillclimber", None, n),
        row(template, f"{comparison}/target", "e-hillclimber",
            {"kind": "target", "targets": {"lead_changes": round(1.5 * per_round, 4),
                                           "tension": round(0.5 * tension, 4)},
             "scales": {"lead_changes": round(1.5 * per_round, 4),
                        "tension": round(0.5 * tension, 4)}}, n),
        row(template, f"{comparison}/constrained", "e-hillclimber",
            {"kind": "constrained",
             "bounds": [{"metric": "believability", "max": round(believability, 4)}]}, n),
        unweighted(row(template, f"{comparison}/bound-only", "e-hillclimber",
                       {"kind": "constrained",
                        "bounds": [{"metric": "believability", "max": round(believability, 4)}]},
                       n)),
        row(template, f"{comparison}/lexicographic", "e-hillclimber",
            {"kind": "lexicographic",
             "order": [{"metric": "believability", "tolerance": 1},
                       {"metric": "lead_changes", "tolerance": 0}]}, n),
        row(template, f"{comparison}/win-rate", "e-hillclimber",
            {"kind": "win-rate", "seat": 0, "target": round(1 / seats, 4), "block": 50,
             "strength": 100}, n),
    ]
    return {"format": "ddalab-batch/1", "seed": seed,
            "description": f"The objectives study in {game} (docs/study-objectives.md): the "
                           "thesis's weighted sum against the target, constrained, "
                           "lexicographic and win-rate objectives; targets and the bound "
                           "calibrated on the no-DDA row by scripts/study-objectives.py.",
            "experiments": rows}


def paired(xs, ys):
    d = [x - y for x, y in zip(xs, ys)]
    return mean_ci(d)


def normal_p(mean, half):
    """Two-sided p of a paired mean difference from its 95 % half-width (normal approximation:
    every comparison here has 1,000 pairs or 500)."""
    if half == 0:
        return 1.0 if mean == 0 else 0.0
    return math.erfc(abs(mean) / (half / 1.96) / math.sqrt(2))


def mcnemar_exact(xs, ys):
    """Two-sided exact McNemar p of two paired 0/1 series: the binomial test of the discordant
    pairs (R: binom.test(b, b + c)$p.value)."""
    b = sum(1 for x, y in zip(xs, ys) if x > y)
    c = sum(1 for x, y in zip(xs, ys) if x < y)
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2 ** n)


# Every paired comparison the study prints: (game, row, what, difference, half-width, p).
COMPARED = []


def print_holm(title):
    """The comparisons printed so far with Holm's correction over all of them."""
    adjusted = holm([c[5] for c in COMPARED])
    print(f"\n{title}: {len(COMPARED)} paired comparisons, Holm's correction over all of them "
          "(α = 0.05; † = holds after it)\n")
    print("| game | row | difference (row − weighted sum) | estimate | p | Holm p |")
    print("|---|---|---|---|---|---|")
    for (game, name, what, m, h, p), q in zip(COMPARED, adjusted):
        print(f"| {game} | {name} | {what} | {m:+.3f} ± {h:.3f} | {p:.3g} | "
              f"{q:.3g}{' †' if q < 0.05 else ''} |")


def report(folder, batch):
    rows = batch["experiments"]
    names = [e["name"] for e in rows]
    data = {name: games(folder, name) for name in names}
    target = next(e["objective"] for e in rows if e.get("objective", {}).get("kind") == "target")
    bound = next(e["objective"] for e in rows if e.get("objective", {}).get("kind") == "constrained")
    win = next(e["objective"] for e in rows if e.get("objective", {}).get("kind") == "win-rate")
    t_lc = target["targets"]["lead_changes"]
    t_te = target["targets"]["tension"]
    b = bound["bounds"][0]["max"]

    def col(name, key):
        return [float(x[key]) for x in data[name]]

    def distance(name):  # the target objective's own distance: |lc/r - t|/t + |tension - t|/t
        return [abs(float(x["lead_changes"]) / float(x["rounds"]) - t_lc) / t_lc +
                abs(float(x["tension"]) - t_te) / t_te for x in data[name]]

    ws = names[1]
    wins = {name: [1.0 if x["winner"] == "0" else 0.0 for x in data[name]] for name in names}
    print(f"targets: lead changes/round {t_lc}, tension {t_te}; bound believability <= {b}; "
          f"win-rate seat 0 -> {win['target']}")
    print("\nWhat each objective aims at (mean ± 95 % CI half-width; Δ: paired difference of the "
          "row minus the weighted-sum row, same games):\n")
    print("| row | lead changes/round | tension | distance to the targets | Δ distance | "
          "believability | games over the bound | seat 0 wins | Δ seat 0 wins |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        lc = [float(x["lead_changes"]) / float(x["rounds"]) for x in data[name]]
        over = sum(1 for v in col(name, "believability") if v > b)
        won = sum(1 for x in data[name] if x["winner"] == "0")
        p, lo, hi = wilson(won, len(data[name]))
        op, olo, ohi = wilson(over, len(data[name]))
        dd = paired(distance(name), distance(ws)) if name != ws else (0.0, 0.0)
        game = name.split("/")[0].removeprefix("objectives-")
        cells = [name.split("/")[1]]
        for xs, digits in ((lc, 4), (col(name, "tension"), 3), (distance(name), 3)):
            m, h = mean_ci(xs)
            cells.append(f"{m:.{digits}f} ± {h:.{digits}f}")
        cells.append("—" if name == ws else f"{dd[0]:+.3f} ± {dd[1]:.3f}")
        m, h = mean_ci(col(name, "believability"))
        cells.append(f"{m:.2f} ± {h:.2f}")
        cells.append(f"{100 * op:.1f} % [{100 * olo:.1f}, {100 * ohi:.1f}]")
        cells.append(f"{p:.3f} [{lo:.3f}, {hi:.3f}]")
        dw = paired(wins[name], wins[ws]) if name != ws else None
        cells.append("—" if dw is None else f"{dw[0]:+.3f} ± {dw[1]:.3f}")
        if name != ws:
            row_name = name.split("/")[1]
            COMPARED.append((game, row_name, "distance to the targets", *dd,
                             normal_p(*dd)))
            COMPARED.append((game, row_name, "seat 0 wins", *dw,
                             mcnemar_exact(wins[name], wins[ws])))
        print("| " + " | ".join(cells) + " |")
    costs(folder, batch, data)


def costs(folder, batch, data):
    comparison = batch["experiments"][0]["comparison"]
    with open(os.path.join(folder, comparison + ".scores.csv")) as f:
        scores = {r["experiment"]: r for r in csv.DictReader(f)}
    detected = {}
    with open(os.path.join(folder, comparison + ".detectability.csv")) as f:
        for r in csv.DictReader(f):
            seats, fewest = detected.get(r["experiment"], (0, None))
            if r["detected"] == "1":
                g = int(r["games_to_detect"]) if r["games_to_detect"] else None
                fewest = g if fewest is None or (g is not None and g < fewest) else fewest
                seats += 1
            detected[r["experiment"]] = (seats, fewest)
    print("\nAt what cost (the thesis's score tables 8/9 and score-ext over this comparison; seats "
          "whose dice or cards a chi-square on deciles tells from nature, 5 %, and the fewest "
          "games that takes; the extended metrics, mean ± 95 % CI half-width):\n")
    print("| row | score9 | score4 | score-ext | lead | fairness | seats detected | games to detect | "
          "drama_trailing | decisiveness_final_lead | uncertainty | comeback | drama_average | "
          "decisiveness_moves |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rows in data.items():
        s = scores[name]
        seats, fewest = detected.get(name, (0, None))
        cells = [name.split("/")[1], f"{float(s['score9']):.2f}", f"{float(s['score4']):.2f}",
                 f"{float(s['score_ext']):.2f}"]
        for key, digits in (("lead", 2), ("fairness", 4)):
            m, h = mean_ci([float(x[key]) for x in rows])
            cells.append(f"{m:.{digits}f} ± {h:.{digits}f}")
        cells += [str(seats), "—" if fewest is None else str(fewest)]
        for key in ("drama_trailing", "decisiveness_final_lead", "uncertainty", "comeback",
                    "drama_average", "decisiveness_moves"):
            m, h = mean_ci([float(x[key]) for x in rows])
            cells.append(f"{m:.3f} ± {h:.3f}")
        print("| " + " | ".join(cells) + " |")


STRENGTHS = [1, 10, 100, 1000, 10000]
FAR = 0.15  # the second target: seat 0's fair share + FAR (a gap the weighted sum leaves open)


def strength_batch(a):
    """Per game: the weighted sum, then win-rate at every strength for two targets."""
    rows = []
    for game in GAMES:
        seed, template = base_experiment(game)
        seats = len(template["players"])
        comparison = f"win-rate-strength-{game}"
        rows.append(row(template, f"{comparison}/weighted-sum", "e-hillclimber", None,
                        a["games"]))
        for target in (1 / seats, 1 / seats + FAR):
            for strength in STRENGTHS:
                rows.append(row(template, f"{comparison}/target-{target:g}-strength-{strength}",
                                "e-hillclimber",
                                {"kind": "win-rate", "seat": 0, "target": round(target, 4),
                                 "block": 50, "strength": strength}, a["games"]))
    return {"format": "ddalab-batch/1", "seed": seed,
            "description": "The win-rate objective's strength (docs/study-objectives.md): seat 0 "
                           "steered to its fair share and to the fair share + 0.15 at strengths "
                           f"{', '.join(map(str, STRENGTHS))} (the status in units of the "
                           "game's tension), against the weighted sum on the same games; "
                           "written by scripts/study-objectives.py --strength-sweep.",
            "experiments": rows}


def strength_report(folder, batch):
    data = {e["name"]: games(folder, e["name"]) for e in batch["experiments"]}
    objective = {e["name"]: e.get("objective") for e in batch["experiments"]}
    print("Seat 0's win rate (Wilson 95 %) over all games and over the steered ones (after the "
          "first block); Δ: paired difference against the weighted sum (same games), exact "
          "McNemar p; the believability metric and lead changes per round (mean ± 95 %):\n")
    print("| game | target | strength | seat 0 wins | after block 1 | Δ wins | McNemar p | "
          "believability | lead changes/round |")
    print("|---|---|---|---|---|---|---|---|---|")
    base = None
    for name, rows in data.items():
        game = name.split("/")[0].removeprefix("win-rate-strength-")
        o = objective[name]
        won = [1.0 if x["winner"] == "0" else 0.0 for x in rows]
        if o is None:
            base = won
        block = o["block"] if o else 50
        steered = [w for x, w in zip(rows, won) if int(x["iteration"]) >= block]
        p, lo, hi = wilson(int(sum(won)), len(won))
        sp, slo, shi = wilson(int(sum(steered)), len(steered))
        cells = [game, "—" if o is None else f"{o['target']:g}",
                 "weighted sum" if o is None else f"{o['strength']:g}",
                 f"{p:.3f} [{lo:.3f}, {hi:.3f}]", f"{sp:.3f} [{slo:.3f}, {shi:.3f}]"]
        if o is None:
            cells += ["—", "—"]
        else:
            d = paired(won, base)
            q = mcnemar_exact(won, base)
            cells += [f"{d[0]:+.3f} ± {d[1]:.3f}", f"{q:.3g}"]
            COMPARED.append((game, f"target {o['target']:g}, strength {o['strength']:g}",
                             "seat 0 wins", *d, q))
        m, h = mean_ci([float(x["believability"]) for x in rows])
        cells.append(f"{m:.2f} ± {h:.2f}")
        m, h = mean_ci([float(x["lead_changes"]) / float(x["rounds"]) for x in rows])
        cells.append(f"{m:.4f} ± {h:.4f}")
        print("| " + " | ".join(cells) + " |")
    print_holm("The strength sweep")


def strength_sweep(a):
    shipped = os.path.join(SOURCE, "experiments", "investigations", "objectives-win-rate-strength.json")
    if a["write"]:
        with open(shipped, "w") as f:
            json.dump(strength_batch(a), f, indent=2)
            f.write("\n")
    with open(shipped) as f:
        batch = json.load(f)
    for e in batch["experiments"]:
        e["iterations"] = a["games"]
    path = os.path.join(a["out"], "objectives-win-rate-strength.json")
    with open(path, "w") as f:
        json.dump(batch, f, indent=2)
    folder = os.path.join(a["out"], "objectives-win-rate-strength")
    run(a["ddalab"], path, folder)
    print(f"## win-rate strength ({a['games']} games a row)\n")
    strength_report(folder, batch)


def doc_holm(path):
    """Holm over every comparison row (game | row | difference | estimate | p | Holm p) of a doc."""
    with open(path) as f:
        for line in f:
            parts = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(parts) == 6 and parts[0] in GAMES:
                m, h = (float(x) for x in parts[3].split(" ± "))
                COMPARED.append((parts[0], parts[1], parts[2], m, h, float(parts[4])))
    print_holm(f"{path}")


def main():
    if sys.argv[1:2] == ["--doc-holm"]:
        doc_holm(sys.argv[2])
        return
    a = args()
    os.makedirs(a["out"], exist_ok=True)
    if a["strengths"]:
        strength_sweep(a)
        return
    for game in GAMES:
        shipped = os.path.join(SOURCE, "experiments", "investigations", f"objectives-{game}.json")
        if a["write"]:
            per_round, tension, believability = calibrate(a, game)
            print(f"{game}: no-DDA lead changes/round {per_round:.4f}, tension {tension:.3f}, "
                  f"believability p90 {believability:.3f}")
            with open(shipped, "w") as f:
                json.dump(study_batch(a, game, per_round, tension, believability), f, indent=2)
                f.write("\n")
        with open(shipped) as f:
            batch = json.load(f)
        for e in batch["experiments"]:
            e["iterations"] = a["games"]
        path = os.path.join(a["out"], f"objectives-{game}.json")
        with open(path, "w") as f:
            json.dump(batch, f, indent=2)
        folder = os.path.join(a["out"], f"objectives-{game}")
        run(a["ddalab"], path, folder)
        print(f"\n## {game} ({a['games']} games a row; ddalab score {folder} has every table)\n")
        report(folder, batch)
    print_holm("The study")


if __name__ == "__main__":
    main()
