#!/usr/bin/env python3
"""A new environment player written in Python, compared in a batch with e-random and E-HillClimber.

`e-closest` (a simple DDA): at every environment node (a Ludo die roll) it looks one move ahead
for each outcome -- a copy of the game, the outcome applied, the mover's best reply for its own
status -- and picks the outcome that leaves the trailing seat closest to the leader (the smallest
spread of the statuses); with probability `random_prob` it lets nature draw instead (as e-random
would), so the dice do not look fixed.

The comparison is the thesis's ludo-4mn set-up (experiments/thesis/ludo-4mn.json: 4-player Ludo,
Max^n seats at levels 50, 100, 100, 100, the thesis's coefficients) with fewer games per row.
Run from the repository with the module on the path:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/python_environment.py [games] [out]

It prints the comparison table (the scores CSV) and writes the results folder (default
/tmp/ddalab-python-environment). docs/python.md quotes its output.
"""
import json
import pathlib
import sys

import pandas as pd

import ddalab

HERE = pathlib.Path(__file__).resolve().parent
THESIS = HERE.parent.parent / "experiments" / "thesis" / "ludo-4mn.json"
SCORE_COLUMNS = ["experiment", "fairness", "tension", "lead", "leading_time", "freedom",
                 "believability", "win_ratio", "score9", "score4", "score_ext"]
DETECT_COLUMNS = ["experiment", "seat", "player", "outcomes", "p", "detected", "games_to_detect"]


class ClosestToLeader:
    """The environment player: one object per game (the factory is the class)."""

    def __init__(self, setup):
        self.random_prob = setup["params"]["random_prob"]

    def choose(self, state, outcomes, rng, nature):
        if rng.uniform() < self.random_prob:
            return ddalab.sample_outcome(outcomes, nature)
        spreads = [self.spread_after(state, action) for action, _ in outcomes]
        return outcomes[spreads.index(min(spreads))][0]

    @staticmethod
    def spread_after(state, action):
        """The statuses' spread once `action` is applied and the mover replied for itself."""
        after = state.clone()
        after.apply(action)
        seat = after.current_player()
        if seat >= 0:  # a seat moves next: its best reply for its own status
            def own_status(move):
                reply = after.clone()
                reply.apply(move)
                return reply.statuses()[seat]
            after.apply(max(after.legal_actions(), key=own_status))
        statuses = after.statuses()
        return max(statuses) - min(statuses)


def register():
    ddalab.register_environment(
        "e-closest", ClosestToLeader,
        "Python example: the outcome that keeps the trailing seat closest to the leader",
        params=[{"name": "random_prob", "type": "number", "default": 0.2, "min": 0, "max": 1,
                 "description": "probability of a natural draw instead"}])


def comparison_batch(games):
    """The thesis's ludo-4mn batch: e-random, e-closest and e-hillclimber, `games` games each."""
    thesis = json.loads(THESIS.read_text())
    rows = {e["name"]: e for e in thesis["experiments"]}
    chosen = []
    for environment in ["e-random", "e-closest", "e-hillclimber"]:
        # e-closest plays the seats of the e-random row (Max^n), as E-HillClimber's row does
        experiment = dict(rows[f"ludo-4mn/{environment}"] if environment != "e-closest"
                          else rows["ludo-4mn/e-random"])
        experiment["name"] = f"ludo-4mn/{environment}"
        experiment["environment"] = {"id": environment}
        experiment["iterations"] = games
        chosen.append(experiment)
    return {"format": "ddalab-batch/1", "seed": thesis["seed"],
            "description": f"ludo-4mn with e-closest (Python), {games} games per row",
            "experiments": chosen}


def run(batch, out):
    """The batch run into `out` (every core); its tables (ddalab.load)."""
    return ddalab.run(batch, out=str(out), threads=0, progress=False)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/ddalab-python-environment")
    if out.exists():
        sys.exit(f"{out} exists: give a new folder")
    register()
    results = run(comparison_batch(games), out)
    pd.set_option("display.width", 200)
    print(f"{out}/ludo-4mn.scores.csv (the comparison: each metric's mean, the scores):")
    print(results.scores[[c for c in SCORE_COLUMNS if c in results.scores]].to_string(index=False))
    print(f"\n{out}/ludo-4mn.detectability.csv (is the DDA visible in the dice a seat is dealt?):")
    table = results.detectability
    print(table[[c for c in DETECT_COLUMNS if c in table]].to_string(index=False))

if __name__ == "__main__":
    main()
