#!/usr/bin/env python3
"""The divergence ledger of docs/thesis-study.md: reads the run folders scripts/ledger.sh writes
and prints every number the ledger quotes.

    python3 scripts/ledger.py OUT [--replicates B] [--seed S]

OUT holds base/<comparison>/ (experiments/thesis/<comparison>.json, 1000 games a row) and one
folder per experiments/ledger/*.json. Only the csv and json modules of Debian's python3 are used.
Sections whose runs are missing are skipped with a note, so the script also reads a partial OUT.

Items: 1 win_ratio's direction (definitions, seats, the noise floor, how often the thesis's sign
arises at its 1000 games), 2 leading_time under other tie rules (traces), 3 believability under
other thresholds and streak penalties (traces, then a re-run), 4 E-MonteCarlo's horizon, budget
and choice rule in lc-hcis, 5 tables 8/9 re-drawn at the thesis's game count (a bootstrap of the
games), with the thesis's value against ddalab's interval."""
import argparse
import csv
import json
import math
import operator
import pathlib
import random
import statistics

from thesis_study_report import (COMPARISONS, ROWS, SHORT, THESIS_METRICS, THESIS_SCORE4,
                                 THESIS_SCORE9)

SCORED = ["lead_changes", "tension", "lead", "fairness", "believability", "freedom", "randomness",
          "leading_time", "win_ratio"]
MAXIMIZED = {"lead_changes", "freedom"}
FOUR = ["lead_changes", "tension", "lead", "win_ratio"]
THESIS_GAMES = 1000  # thesis 6: "Každý z experimentů obsahoval celkem 1000 iterací."
# win_ratio of the thesis's ludo-2hc / ludo-2mn / lc-hcis rows is not printed (tables 6/7 only).
THESIS_WIN_RATIO = {c: {row: values[T.index("win_ratio")] for row, values in rows.items()}
                    for c, (T, rows) in THESIS_METRICS.items()}


# ---------------------------------------------------------------- reading
def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Row:
    """One experiment's games: per-metric value lists, winners and the number of seats."""

    def __init__(self, path):
        games = read_csv(path)
        if not games:
            raise SystemExit(f"ledger.py: {path}: no games")
        self.path = path
        self.seats = sum(1 for key in games[0] if key.endswith("_score"))
        self.n = len(games)
        self.values = {m: [float(g[m]) for g in games] for m in SCORED if m in games[0]}
        self.winners = [int(g["winner"]) if g["winner"] else -1 for g in games]  # -1: a draw

    def head(self, n):
        """The first n games (the same seeds as the first n games of every other row)."""
        cut = object.__new__(Row)
        cut.path, cut.seats, cut.n = self.path, self.seats, min(n, self.n)
        cut.values = {m: v[:n] for m, v in self.values.items()}
        cut.winners = self.winners[:n]
        return cut


def load_rows(folder, comparison, names=None):
    rows = {}
    for name in names or ROWS:
        path = folder / f"{comparison}__{name}.games.csv"
        if path.exists():
            rows[name] = Row(path)
    return rows


# ---------------------------------------------------------------- win_ratio
def seat_rates(winners, seats, draws="nobody"):
    """Win rate per seat. draws: 'nobody' (the spec), 'seat0' (a draw is seat 0's win, as an
    argmax that keeps the first maximum would score it), 'split' (1/seats to every seat)."""
    counts = [0.0] * seats
    for w in winners:
        if w >= 0:
            counts[w] += 1
        elif draws == "seat0":
            counts[0] += 1
        elif draws == "split":
            for s in range(seats):
                counts[s] += 1 / seats
    return [c / len(winners) for c in counts]


def win_ratio(winners, seats, draws="nobody", sample=False):
    """metrics.md: population std over the seats of their win rates (n = 1: |w - 1/2|);
    sample=True divides by seats - 1 instead."""
    rates = seat_rates(winners, seats, draws)
    if seats == 1:
        return abs(rates[0] - 0.5)
    return statistics.stdev(rates) if sample else statistics.pstdev(rates)


def scored_win_ratio(winners, seats, reference_games=1000):
    """The score's win_ratio term (results/aggregate.cpp scoredWinRatio, docs/score-intervals.md):
    sqrt(V + S / N) at N = reference_games, estimated without bias, at least sqrt(S / N)."""
    rates = seat_rates(winners, seats)
    n = len(winners)
    if len(rates) == 1:
        noise = rates[0] * (1 - rates[0])
    else:
        k = len(rates)
        draws = 1 - math.fsum(rates)
        noise = (math.fsum(p * (1 - p) for p in rates) - draws * (1 - draws) / k) / k
    noise = noise * n / (n - 1) if n >= 2 else 0.0
    observed = win_ratio(winners, seats)
    variance = observed * observed + noise * (1 / reference_games - 1 / n)
    return math.sqrt(max(noise / reference_games, variance))


def noise_floor(seats, n, rng, replicates=2000):
    """Mean and 95th percentile of win_ratio over n games whose seats win equally often."""
    values = []
    for _ in range(replicates):
        winners = [rng.randrange(seats) for _ in range(n)]
        values.append(win_ratio(winners, seats))
    values.sort()
    return statistics.fmean(values), values[int(0.95 * len(values))]


def resample(values, idx):
    return operator.itemgetter(*idx)(values)


def p_sign(row, reference, rng, replicates, n=THESIS_GAMES):
    """Share of paired bootstrap replicates of n games in which row's win_ratio exceeds the
    reference row's: how often a study of n games drawn from ddalab's games reports the sign
    'row worse than reference'."""
    above = 0
    for _ in range(replicates):
        idx = [rng.randrange(min(row.n, reference.n)) for _ in range(n)]
        a = win_ratio(resample(row.winners, idx), row.seats)
        b = win_ratio(resample(reference.winners, idx), reference.seats)
        above += a > b
    return above / replicates


def header(line):
    """Prints a markdown table's header line and its separator."""
    print(line)
    print("|---" * line.count(" | ") + "|---|")


def fmt_rates(rates):
    return "/".join(f"{100 * r:.1f}" for r in rates)


def item_win_ratio(out, rng, replicates):
    print("\n## 1. win_ratio: direction against no DDA\n")
    print("Per row: seat win % (seat order), draws %, win_ratio as specified (pop. std), "
          "sample std, draws to seat 0, draws split; P(row > none) = share of paired bootstraps "
          f"of {THESIS_GAMES} games in which the row's win_ratio exceeds none's; thesis value.\n")
    for comparison in ["lc-mmis", "lc-hcis", "ludo-4mn", "ludo-2hc", "ludo-2mn"]:
        rows = load_rows(out / "base" / comparison, comparison)
        if "e-random" not in rows:
            print(f"({comparison}: no base run)")
            continue
        none = rows["e-random"]
        mean, p95 = noise_floor(none.seats, THESIS_GAMES, rng, max(500, replicates))
        print(f"### {comparison} (noise floor at {THESIS_GAMES} games, equal chances: "
              f"mean {mean:.4f}, 95th percentile {p95:.4f})\n")
        print("| row | seat win % | draws % | win_ratio | sample std | draws→seat 0 | draws split "
              "| P(row > none) | thesis |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, row in rows.items():
            draws = sum(w < 0 for w in row.winners) / row.n
            thesis = THESIS_WIN_RATIO.get(comparison, {}).get(name)
            p = "—" if name == "e-random" else f"{p_sign(row, none, rng, replicates):.3f}"
            print(f"| {SHORT[name]} | {fmt_rates(seat_rates(row.winners, row.seats))} | "
                  f"{100 * draws:.1f} | {win_ratio(row.winners, row.seats):.4f} | "
                  f"{win_ratio(row.winners, row.seats, sample=True):.4f} | "
                  f"{win_ratio(row.winners, row.seats, 'seat0'):.4f} | "
                  f"{win_ratio(row.winners, row.seats, 'split'):.4f} | {p} | "
                  f"{'—' if thesis is None else thesis} |")
        print()
    balanced = out / "balanced-seats"
    if balanced.exists():
        print("### Every seat at level 100 (experiments/ledger/balanced-seats.json, 400 games a "
              "row; P(row > none) over paired bootstraps of 400 games)\n")
        header("| comparison | row | seat win % | draws % | win_ratio | P(row > none) |")
        for comparison in ("lc-mmis-balanced", "ludo-4mn-balanced"):
            rows = load_rows(balanced, comparison)
            for name, row in rows.items():
                p = "—" if name == "e-random" or "e-random" not in rows else \
                    f"{p_sign(row, rows['e-random'], rng, replicates, row.n):.3f}"
                draws = sum(w < 0 for w in row.winners) / row.n
                print(f"| {comparison} | {SHORT[name]} | "
                      f"{fmt_rates(seat_rates(row.winners, row.seats))} | {100 * draws:.1f} | "
                      f"{win_ratio(row.winners, row.seats):.4f} | {p} |")
        print()
    swapped = out / "seat-order"
    if not swapped.exists():
        print("(seat-order: not run)")
        return
    print("### Seats moved (experiments/ledger/seat-order.json, 400 games a row)\n")
    header("| comparison | row | seat win % (seat order) | win_ratio | base, same 400 seeds |")
    for comparison, base in (("lc-mmis-swapped", "lc-mmis"), ("ludo-4mn-swapped", "ludo-4mn")):
        base_rows = load_rows(out / "base" / base, base)
        for name, row in load_rows(swapped, comparison).items():
            ref = base_rows.get(name)
            ref_text = "—" if ref is None else (
                f"{win_ratio(ref.head(row.n).winners, ref.seats):.4f} "
                f"({fmt_rates(seat_rates(ref.head(row.n).winners, ref.seats))})")
            print(f"| {comparison} | {SHORT[name]} | {fmt_rates(seat_rates(row.winners, row.seats))}"
                  f" | {win_ratio(row.winners, row.seats):.4f} | {ref_text} |")
    print()


# ---------------------------------------------------------------- traces
def read_traces(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def leaders(game, ties):
    """The leader of every round: the seat with the unique positive status (metrics.md); on a
    tie ties='none' (the spec: no leader), 'keep' (the last leader stays), 'first' (the lowest
    tied seat)."""
    last = None
    for r in game["rounds"]:
        statuses = r["statuses"]
        positive = [p for p, s in enumerate(statuses) if s > 1e-9]
        if positive:
            last = positive[0]
            yield last
        elif ties == "keep":
            yield last
        elif ties == "first":
            top = max(r["gains"])
            yield min(p for p, g in enumerate(r["gains"]) if abs(g - top) <= 1e-9)
        else:
            yield None


def leading_time(game, ties):
    seats = len(game["players"])
    counts = [0] * seats
    for leader in leaders(game, ties):
        if leader is not None:
            counts[leader] += 1
    return statistics.pstdev(counts) if seats > 1 else 0.0


def rolls_by_seat(game):
    seats = len(game["players"])
    rolls = [[] for _ in range(seats)]
    for r in game["rounds"]:
        for action in r["actions"]:
            if action["by"] == "environment" and action["text"].startswith("roll "):
                rolls[r["actor"]].append(int(action["text"].split()[1]))
    return rolls


def bel_pc(counts, threshold, sample=False):
    """belPC (metrics.md) with the population variance, or the sample variance (k - 1)."""
    k, total = len(counts), sum(counts)
    low, high_bins = divmod(total, k)
    even = [low + 1] * high_bins + [low] * (k - high_bins)
    var = statistics.variance if sample else statistics.pvariance
    return max(0.0, (var(counts) - var(even)) - threshold)


def ludo_believability(game, threshold, penalty, sample=False):
    total = 0.0
    for rolls in rolls_by_seat(game):
        counts = [rolls.count(face) for face in range(1, 7)]
        streaks, run = 0, 0
        for i, face in enumerate(rolls):
            run = run + 1 if i and face == rolls[i - 1] else 1
            streaks += run >= 3
        total += bel_pc(counts, threshold, sample) + penalty * streaks
    return total


BELIEVABILITY_GRID = ([(1, pen, sample) for pen in (0, 1, 5) for sample in (False, True)] +
                      [(t, pen, False) for t in (4, 6, 8, 10) for pen in (0, 0.5, 1)])


def item_traces(out):
    folder = out / "ludo-4mn-traces" / "traces"
    if not folder.exists():
        print("\n(ludo-4mn-traces: not run; items 2 and 3 skipped)")
        return
    games = {name: read_traces(folder / f"ludo-4mn__{name}.trace.jsonl")
             for name in ["e-random", "e-hillclimber", "e-maxmax", "e-maxn"]}
    thesis_lt = {r: v[T_INDEX["leading_time"]] for r, v in THESIS_METRICS["ludo-4mn"][1].items()}
    print("\n## 2. leading_time in ludo-4mn under other tie rules (first 200 games, traced)\n")
    print("| row | as in the CSV | recomputed (ties: no leader) | ties: last leader stays | "
          "ties: lowest seat | share of rounds tied | thesis |")
    print("|---|---|---|---|---|---|---|")
    for name, gs in games.items():
        csv_mean = statistics.fmean(g["result"]["metrics"]["leading_time"] for g in gs)
        cells = [statistics.fmean(leading_time(g, ties) for g in gs)
                 for ties in ("none", "keep", "first")]
        tied = sum(sum(1 for x in leaders(g, "none") if x is None) for g in gs) / sum(
            len(g["rounds"]) for g in gs)
        print(f"| {SHORT[name]} | {csv_mean:.2f} | " + " | ".join(f"{c:.2f}" for c in cells) +
              f" | {100 * tied:.1f} % | {thesis_lt[name]:.1f} |")
    off = out / "leading-time-off"
    if off.exists():
        base = load_rows(out / "base" / "ludo-4mn", "ludo-4mn")
        print("\nWithout the leading_time term in F (experiments/ledger/leading-time-off.json, "
              "coefficient 0 instead of 10):\n")
        print("| row | leading_time, coefficient 0 | coefficient 10 (study, same seeds) | "
              "none (same seeds) | lead_changes, coefficient 0 | thesis |")
        print("|---|---|---|---|---|---|")
        for name, row in load_rows(off, "ludo-4mn-lt0").items():
            ref, none = base[name].head(row.n), base["e-random"].head(row.n)
            print(f"| {SHORT[name]} | {metric_mean(row, 'leading_time'):.2f} | "
                  f"{metric_mean(ref, 'leading_time'):.2f} | "
                  f"{metric_mean(none, 'leading_time'):.2f} | "
                  f"{metric_mean(row, 'lead_changes'):.2f} | {thesis_lt[name]:.1f} |")
    thesis_bel = {r: v[T_INDEX["believability"]] for r, v in THESIS_METRICS["ludo-4mn"][1].items()}
    print("\n## 3. believability in ludo-4mn rescored (same 200 games; T threshold, streak "
          "penalty, variance)\n")
    check = statistics.fmean(g["result"]["metrics"]["believability"] for g in games["e-random"])
    print(f"As in the CSV (T 1, penalty 5, population): none {check:.2f}; "
          f"recomputed {statistics.fmean(ludo_believability(g, 1, 5) for g in games['e-random']):.2f}.\n")
    print("| T | penalty | variance | " + " | ".join(
        f"{SHORT[n]} (ratio to thesis)" for n in games) + " |")
    print("|---|---|---|" + "---|" * len(games))
    for t, pen, sample in BELIEVABILITY_GRID:
        cells = []
        for name, gs in games.items():
            mean = statistics.fmean(ludo_believability(g, t, pen, sample) for g in gs)
            cells.append(f"{mean:.2f} ({mean / thesis_bel[name]:.1f}×)")
        print(f"| {t} | {pen} | {'sample' if sample else 'pop.'} | " + " | ".join(cells) + " |")
    rerun = out / "believability-threshold"
    if rerun.exists():
        print("\nRe-run with that definition in F too (experiments/ledger/believability-threshold"
              ".json, 300 games a row):\n")
        header("| row | believability | ratio to thesis | win_ratio | leading_time |")
        for name, row in load_rows(rerun, "ludo-4mn-believability").items():
            bel = statistics.fmean(row.values["believability"])
            print(f"| {SHORT[name]} | {bel:.3f} | {bel / thesis_bel[name]:.1f}× | "
                  f"{win_ratio(row.winners, row.seats):.4f} | "
                  f"{statistics.fmean(row.values['leading_time']):.2f} |")


T_INDEX = {m: i for i, m in enumerate(THESIS_METRICS["ludo-4mn"][0])}


# ---------------------------------------------------------------- scores
def metric_mean(row, metric, idx=None):
    if metric == "win_ratio":  # the score's term, as ddalab scores it
        winners = row.winners if idx is None else resample(row.winners, idx)
        return scored_win_ratio(winners, row.seats)
    values = row.values[metric] if idx is None else resample(row.values[metric], idx)
    return math.fsum(values) / len(values)


def scores(rows, idx=None):
    """score9 and score4 per row (results/scoring.cpp: ratio to the best mean, reciprocals for
    minimized metrics, a minimized 0 the best; fairness only with two or more seats)."""
    names = list(rows)
    seats = next(iter(rows.values())).seats
    ratios = {name: {} for name in names}
    for metric in SCORED:
        if metric == "fairness" and seats < 2:
            continue
        means = [metric_mean(rows[n], metric, idx) for n in names]
        if metric in MAXIMIZED:
            best = max(means)
            r = [m / best if best > 0 else 1.0 for m in means]
        else:
            positive = [m for m in means if m > 0]
            ref = min(positive) if positive else None
            r = [1.0 if ref is None or m <= 0 else ref / m for m in means]
        for name, value in zip(names, r):
            ratios[name][metric] = value
    return {n: (sum(ratios[n].values()), sum(ratios[n][m] for m in FOUR)) for n in names}


def ranks_of(score_of):
    order = sorted(score_of, key=lambda n: -score_of[n])
    return {n: i + 1 for i, n in enumerate(order)}


def spearman(a, b):
    names = [n for n in a if n in b]
    ra, rb = ranks_of({n: a[n] for n in names}), ranks_of({n: b[n] for n in names})
    k = len(names)
    return 1 - 6 * sum((ra[n] - rb[n]) ** 2 for n in names) / (k * (k * k - 1))


def item_montecarlo(out):
    folder = out / "lc-montecarlo"
    base = load_rows(out / "base" / "lc-hcis", "lc-hcis")
    if not folder.exists() or not base:
        print("\n(lc-montecarlo or base lc-hcis: not run; item 4 skipped)")
        return
    variants = {}
    for path in sorted(folder.glob("lc-hcis-montecarlo__*.games.csv")):
        variants[path.name.split("__")[1].split(".")[0]] = Row(path)
    n = min(r.n for r in variants.values())
    print(f"\n## 4. E-MonteCarlo in lc-hcis: each variant in place of the E-MC row "
          f"(every row's first {n} games)\n")
    print("| E-MC variant | score9 (rank) | E-MN score9 | E-MM score9 | score4 (rank) | "
          "lead_changes | tension | win_ratio |")
    print("|---|---|---|---|---|---|---|---|")
    candidates = {"e-montecarlo (study)": base["e-montecarlo"]}
    candidates.update(variants)
    for label, row in candidates.items():
        rows = {k: v.head(n) for k, v in base.items()}
        rows["e-montecarlo"] = row.head(n)
        s = scores(rows)
        r9 = ranks_of({k: v[0] for k, v in s.items()})
        r4 = ranks_of({k: v[1] for k, v in s.items()})
        print(f"| {label} | {s['e-montecarlo'][0]:.2f} ({r9['e-montecarlo']}) | "
              f"{s['e-maxn'][0]:.2f} | {s['e-maxmax'][0]:.2f} | "
              f"{s['e-montecarlo'][1]:.2f} ({r4['e-montecarlo']}) | "
              f"{metric_mean(row.head(n), 'lead_changes'):.2f} | "
              f"{metric_mean(row.head(n), 'tension'):.2f} | "
              f"{win_ratio(row.head(n).winners, row.seats):.4f} |")


def item_tables(out, rng, replicates):
    print(f"\n## 5. Tables 8/9 at the thesis's {THESIS_GAMES} games (bootstrap of ddalab's games, "
          f"{replicates} replicates)\n")
    print("in = thesis value inside ddalab's interval (ranks.csv); expected = the number of rows "
          "in which a second, independent study of 1000 games from ddalab's distributions lands "
          "inside the first one's interval; P1 thesis best = share of redraws in which the "
          "thesis's best row ranks first; ρ = Spearman between ddalab's order and the thesis's.\n")
    print("| table | comparison | in (of rows) | expected in if the thesis were a redraw | "
          "thesis best | P1 thesis best | ρ ours–thesis | ρ redraw–thesis, 95 % range |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {"9": [0, 0, 0.0], "4": [0, 0, 0.0]}
    for ci, comparison in enumerate(COMPARISONS):
        folder = out / "base" / comparison
        rows = load_rows(folder, comparison)
        if len(rows) < 2 or not (folder / f"{comparison}.ranks.csv").exists():
            print(f"| — | {comparison} | not run | | | | | |")
            continue
        ranks = {r["experiment"].split("/")[-1]: r for r in read_csv(folder /
                                                                     f"{comparison}.ranks.csv")}
        point = scores(rows)
        n = min(r.n for r in rows.values())
        redraws = [scores(rows, [rng.randrange(n) for _ in range(THESIS_GAMES)])
                   for _ in range(replicates)]
        for which, k, thesis in (("9", 0, THESIS_SCORE9), ("4", 1, THESIS_SCORE4)):
            names = [r for r in rows if thesis[r][ci] is not None]
            th = {r: thesis[r][ci] for r in names}
            inside = expected = 0
            for r in names:
                low, high = float(ranks[r][f"score{which}_low"]), float(ranks[r][f"score{which}_high"])
                inside += low <= th[r] <= high
                # Two independent studies: ours (redraw i, its interval moved with it) and the
                # thesis's (redraw i + 1); a redraw's value inside its own interval would give
                # ~95 %, two studies' difference has sqrt(2) times the spread (~83 % if normal).
                for i, d in enumerate(redraws):
                    shift = d[r][k] - point[r][k]
                    other = redraws[(i + 1) % replicates][r][k]
                    expected += (low + shift <= other <= high + shift) / replicates
            best = max(th, key=th.get)
            p1 = sum(ranks_of({r: d[r][k] for r in names})[best] == 1 for d in redraws)
            rhos = sorted(spearman({r: d[r][k] for r in names}, th) for d in redraws)
            ours = {r: point[r][k] for r in names}
            totals[which][0] += inside
            totals[which][1] += len(names)
            totals[which][2] += expected
            print(f"| {'8' if which == '9' else '9'} | {comparison} | {inside} of {len(names)} | "
                  f"{expected:.1f} | {SHORT[best]} | {p1 / replicates:.3f} | "
                  f"{spearman(ours, th):.2f} | [{rhos[int(0.025 * len(rhos))]:.2f}, "
                  f"{rhos[int(0.975 * len(rhos)) - 1]:.2f}] |")
    for which, (inside, cells, expected) in totals.items():
        if cells:
            print(f"\nTable {'8' if which == '9' else '9'}: thesis inside {inside} of {cells} "
                  f"cells; {expected:.1f} expected if the thesis were a redraw of ddalab.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--replicates", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()
    if not args.out.is_dir():
        raise SystemExit(f"ledger.py: {args.out}: not a folder")
    # One stream per item, so an item's numbers do not depend on which other runs are present.
    item_win_ratio(args.out, random.Random(args.seed * 10 + 1), args.replicates)
    item_traces(args.out)
    item_montecarlo(args.out)
    item_tables(args.out, random.Random(args.seed * 10 + 5), args.replicates)


if __name__ == "__main__":
    main()
