#!/usr/bin/env python3
"""The thesis study's table 8 rebuilt in Python: each DDA algorithm's nine-metric score (score9)
per comparison, with its bootstrap 95 % interval, beside the thesis's value, as a table and as a
figure with one panel per comparison.

    ddalab run experiments/thesis/all.json --out ddalab-out/all      # the study (hours)
    PYTHONPATH=build/python python3 examples/python/thesis_table8.py ddalab-out/all \\
        --figure docs/img/python-table8.png

The scores come from the results folder the CLI wrote (the `<comparison>.ranks.csv` files: the
score, its bootstrap interval, P(rank 1)); the thesis's numbers and the algorithms' short names
from scripts/thesis_study_report.py, which prints the same table as markdown.
"""
import argparse
import pathlib
import sys

import matplotlib
import pandas as pd

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from thesis_study_report import COMPARISONS, EXTRA, ROWS, SHORT, THESIS_SCORE9  # noqa: E402

import ddalab  # noqa: E402  (PYTHONPATH=build/python)


def ranks_of(folder):
    """The ranks table (score, interval, P(rank k) per experiment) of a results folder."""
    try:
        ranks = ddalab.load(folder).ranks
    except ddalab.InputError as error:  # not a results folder, or a damaged file: its message
        sys.exit(str(error))
    if ranks is None or ranks.empty:
        sys.exit(f"{folder}: no *.ranks.csv (expected a results folder of "
                 "experiments/thesis/all.json)")
    ranks = ranks.copy()
    parts = ranks["experiment"].astype(str).str.split("/", n=1, expand=True)
    ranks["comparison"], ranks["algorithm"] = parts[0], parts[1]
    return ranks


def table8(ranks):
    """Table 8 as a DataFrame: rows the algorithms, columns the comparisons, cells
    'ours [low, high] / thesis'."""
    comparisons = [c for c in COMPARISONS + EXTRA if c in set(ranks["comparison"])]
    cells = {}
    for comparison in comparisons:
        column = {}
        ours = ranks[ranks["comparison"] == comparison].set_index("algorithm")
        for row in ROWS:
            i = COMPARISONS.index(comparison) if comparison in COMPARISONS else None
            thesis = THESIS_SCORE9[row][i] if i is not None else None
            mine = (f"{ours.at[row, 'score9']:.2f} [{ours.at[row, 'score9_low']:.2f}, "
                    f"{ours.at[row, 'score9_high']:.2f}]") if row in ours.index else "—"
            column[SHORT[row]] = mine + (f" / {thesis:.2f}" if thesis is not None else "")
        cells[comparison] = column
    return pd.DataFrame(cells)


def figure(ranks, path):
    """One panel per comparison: each algorithm's score9 with its interval (ours) and the
    thesis's value."""
    comparisons = [c for c in COMPARISONS + EXTRA if c in set(ranks["comparison"])]
    columns = 4
    rows = -(-len(comparisons) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.4 * rows))
    axes = axes.ravel()
    lo = min(ranks["score9_low"].min(), 0.0)
    hi = max(ranks["score9_high"].max(), 10.0)
    for ax, comparison in zip(axes, comparisons):
        ours = ranks[ranks["comparison"] == comparison].set_index("algorithm")
        present = [r for r in ROWS if r in ours.index]
        y = [ROWS.index(r) for r in present]  # the same row of every panel for an algorithm
        scores = ours.loc[present, "score9"]
        errors = [scores - ours.loc[present, "score9_low"],
                  ours.loc[present, "score9_high"] - scores]
        ax.errorbar(scores, list(y), xerr=errors, fmt="o", color="tab:blue", capsize=3,
                    label="ddalab (bootstrap 95 % CI)")
        if comparison in COMPARISONS:
            i = COMPARISONS.index(comparison)
            thesis = [(ROWS.index(r), THESIS_SCORE9[r][i]) for r in present
                      if THESIS_SCORE9[r][i] is not None]
            ax.plot([t for _, t in thesis], [k for k, _ in thesis], "x", color="tab:red",
                    markersize=8, label="thesis (table 8)")
        ax.set_yticks(range(len(ROWS)), [SHORT[r] for r in ROWS])
        ax.set_ylim(len(ROWS) - 0.5, -0.5)  # the first algorithm on top
        ax.set_title(comparison + ("" if comparison in COMPARISONS else " (not in the thesis)"))
        ax.set_xlim(lo, hi)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes[len(comparisons):]:
        ax.axis("off")
    for k, ax in enumerate(axes[:len(comparisons)]):
        if k + columns >= len(comparisons):  # no panel below it
            ax.set_xlabel("score9 (nine metrics, higher is better)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower right", bbox_to_anchor=(0.98, 0.12), fontsize=11)
    fig.suptitle("Table 8: the DDA algorithms' score9 per comparison", fontsize=14)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path,
                        help="results folder of ddalab run experiments/thesis/all.json")
    parser.add_argument("--figure", type=pathlib.Path, help="where to save the figure (PNG)")
    args = parser.parse_args()
    if not args.folder.is_dir():
        sys.exit(f"{args.folder}: not a folder")
    ranks = ranks_of(args.folder)
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(table8(ranks).to_string())
    if args.figure:
        if args.figure.exists() and not args.figure.is_file():
            sys.exit(f"{args.figure}: exists and is not a regular file")
        figure(ranks, args.figure)
        print(f"figure: {args.figure}")


if __name__ == "__main__":
    main()
