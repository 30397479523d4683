#!/usr/bin/env python3
"""Writes experiments/ledger/*.json: the experiments of the divergence ledger
(docs/thesis-study.md, "Divergence ledger"). Each toggles one suspected cause of a divergence
from the thesis; scripts/ledger.sh runs them all and scripts/ledger.py prints their numbers.
Every file keeps the thesis study's seed (2016), so game i of a row here is game i of the same
row of the study (rows differ only in what the experiment toggles). Run it after changing a
set-up, then commit its output."""
import copy
import pathlib

import thesis_experiments as thesis

HERE = pathlib.Path(__file__).resolve().parent.parent / "experiments" / "ledger"


def rows_of(comparison_rows, names, iterations, comparison=None):
    """The rows `names` of a thesis comparison, at `iterations` games, renamed to `comparison`."""
    picked = []
    for experiment in comparison_rows:
        row = experiment["name"].split("/")[-1]
        if row not in names:
            continue
        experiment = copy.deepcopy(experiment)
        experiment["iterations"] = iterations
        if comparison:
            experiment["comparison"] = comparison
            experiment["name"] = f"{comparison}/{row}"
        picked.append(experiment)
    return picked


def ludo_4mn_traces():
    """Item 2 and 3: the first 200 games of four ludo-4mn rows, traced (per-round statuses and
    rolls), to recompute leading_time and believability under other definitions."""
    return rows_of(thesis.ludo_4mn(), ["e-random", "e-hillclimber", "e-maxmax", "e-maxn"], 200)


def seat_order():
    """Item 1: the weak seat moved (lc-mmis: level 100 moves first; ludo-4mn: level 50 plays
    seat 3, last in the round), 400 games a row."""
    lost_cities = thesis.comparisons()["lc-mmis"][1]
    lc = rows_of(lost_cities, ["e-random", "e-hillclimber", "e-maxmax"], 400, "lc-mmis-swapped")
    for experiment in lc:
        experiment["players"].reverse()
    ludo = rows_of(thesis.ludo_4mn(), ["e-random", "e-hillclimber", "e-maxn"], 400,
                   "ludo-4mn-swapped")
    for experiment in ludo:
        experiment["players"].reverse()
    return lc + ludo


def balanced_seats():
    """Item 1: every seat at level 100 (the thesis's no-DDA Lost Cities row is balanced, 0.016,
    ours is not, 0.066): do the E-players unbalance a balanced game, as the thesis's do? 400
    games a row."""
    lost_cities = thesis.comparisons()["lc-mmis"][1]
    lc = rows_of(lost_cities, ["e-random", "e-hillclimber", "e-maxmax"], 400, "lc-mmis-balanced")
    ludo = rows_of(thesis.ludo_4mn(), ["e-random", "e-hillclimber", "e-maxn"], 400,
                   "ludo-4mn-balanced")
    for experiment in lc + ludo:
        for seat in experiment["players"]:
            seat["level"] = 100
    return lc + ludo


def leading_time_off():
    """Item 2: ludo-4mn's E-HillClimber and E-Max^n with the leading_time coefficient 0 (10 in the
    study): whether the E-players shorten leading_time because F rewards it; 400 games a row."""
    rows = rows_of(thesis.ludo_4mn(), ["e-hillclimber", "e-maxn"], 400, "ludo-4mn-lt0")
    for experiment in rows:
        experiment["coefficients"] = dict(experiment["coefficients"], leading_time=0)
    return rows


def believability_threshold(threshold, streak_penalty):
    """Item 3: ludo-4mn with the believability parameters that bring the no-DDA row to the
    thesis's scale (chosen by rescoring the traced games, scripts/ledger.py), so the E-players
    optimise the same definition they are measured by; 300 games a row."""
    rows = rows_of(thesis.ludo_4mn(), ["e-random", "e-hillclimber", "e-maxmax", "e-maxn"], 300,
                   "ludo-4mn-believability")
    for experiment in rows:
        experiment["game"]["params"].update(
            {"believability_threshold": threshold, "streak_penalty": streak_penalty})
    return rows


MONTECARLO_VARIANTS = {  # row name -> e-montecarlo params (defaults: 200 descents, horizon 6)
    "e-montecarlo-h3": {"horizon": 3},
    "e-montecarlo-h12": {"horizon": 12},
    "e-montecarlo-i50": {"iterations": 50},
    "e-montecarlo-i800": {"iterations": 800},
    "e-montecarlo-visits": {"choose": "most-visited"},
}


def lc_montecarlo():
    """Item 4: E-MonteCarlo in lc-hcis with another horizon, budget or choice rule, 400 games a
    row; scripts/ledger.py scores each variant in place of the E-MC row among the study's other
    rows (their first 400 games: the same seeds)."""
    template = rows_of(thesis.comparisons()["lc-hcis"][1], ["e-montecarlo"], 400)[0]
    rows = []
    for name, params in MONTECARLO_VARIANTS.items():
        experiment = copy.deepcopy(template)
        experiment["comparison"] = "lc-hcis-montecarlo"
        experiment["name"] = f"lc-hcis-montecarlo/{name}"
        experiment["environment"]["params"] = params
        rows.append(experiment)
    return rows


def main():
    HERE.mkdir(exist_ok=True)
    thesis.write("ludo-4mn-traces", "Ledger item 2-3: ludo-4mn none, E-HC, E-MM, E-MN, 200 "
                 "games, run with --trace (scripts/ledger.sh does).", ludo_4mn_traces(), HERE)
    thesis.write("seat-order", "Ledger item 1: the weak seat moved (lc-mmis level 100 first; "
                 "ludo-4mn level 50 last), 400 games a row.", seat_order(), HERE)
    thesis.write("balanced-seats", "Ledger item 1: every seat at level 100 (lc-mmis, "
                 "ludo-4mn), 400 games a row.", balanced_seats(), HERE)
    thesis.write("leading-time-off", "Ledger item 2: ludo-4mn E-HC and E-MN without the "
                 "leading_time term in F, 400 games a row.", leading_time_off(), HERE)
    thesis.write("believability-threshold", "Ledger item 3: ludo-4mn with believability "
                 "threshold 8 and streak penalty 0.5 (the rescoring that puts the no-DDA row on "
                 "the thesis's scale), 300 games a row.", believability_threshold(8.0, 0.5), HERE)
    thesis.write("lc-montecarlo", "Ledger item 4: E-MonteCarlo's horizon, budget and choice "
                 "rule in lc-hcis, 400 games a row.", lc_montecarlo(), HERE)


if __name__ == "__main__":
    main()
