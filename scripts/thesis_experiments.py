#!/usr/bin/env python3
"""Writes experiments/thesis/*.json: the six comparisons of the thesis (games/*.md) with every
row, experiments/hexalines-3.json (the HexaLines comparison in the same style, which the thesis
does not have), and all.json running all seven. Run it after changing a set-up, then commit its
output."""
import json
import pathlib

SEED = 2016
ITERATIONS = 1000
HERE = pathlib.Path(__file__).resolve().parent.parent / "experiments" / "thesis"

LUDO = {"believability": 1000, "fairness": 10, "leading_time": 10, "tension": 10, "lead": 3,
        "freedom": 1}
LOST_CITIES = {"believability": 1000, "lead_changes": 100, "fairness": 100, "leading_time": 100,
               "tension": 100, "freedom": 10}
MAZE = {"believability": 10, "tension": 100, "lead": 500, "freedom": 100}

# The level model of the Lost Cities players (docs/study-lc-level-model.md): the level ranks the
# (card, play/discard) groups the algorithm proposes, each played with the algorithm's best draw.
# Scaling over all ~38 combined actions (the default `actions`) makes level 100 draw from a pile
# in most turns: ~145 rounds against the thesis's 51. The regular seats use it; POSM / DL do not.
LC_LEVEL_MODEL = {"level_model": "groups", "level_proposed": True}

E_PLAYERS = ["e-random", "e-hillclimber", "e-maxmax", "e-montecarlo", "e-maxn"]
DDA_PLAYERS = ["posm", "dynamic-level"]


def player(pid, level=100, params=None):
    entry = {"id": pid, "level": level}
    if params:
        entry["params"] = params
    return entry


def experiment(comparison, row, game, players, environment, coefficients):
    return {"name": f"{comparison}/{row}", "comparison": comparison, "game": game,
            "players": players, "environment": environment, "coefficients": coefficients,
            "iterations": ITERATIONS}


def two_player(comparison, game, base, coefficients, seat_params=None):
    """Level 50 vs level 100 of `base` (with `seat_params`); POSM / DL (base: the same algorithm)
    replace level 100. POSM / DL rank every action of their base, as in the thesis (6.3: "DL and
    POSM have these irrational moves at their disposal"); the seats' level model is a model of how
    a regular player plays at a level, not part of the DDA algorithms. experiments/investigations/
    lc-dl-control.json measures DL under the seats' model and started at the seat's level."""
    weak = player(base, 50, seat_params)
    rows = [experiment(comparison, env, game, [weak, player(base, 100, seat_params)],
                       {"id": env}, coefficients) for env in E_PLAYERS]
    for dda in DDA_PLAYERS:
        params = {"base": base}
        rows.append(experiment(comparison, dda, game, [weak, player(dda, 100, params)],
                               {"id": "e-random"}, coefficients))
    return rows


def ludo_4mn():
    game = {"id": "ludo", "params": {"players": 4}}
    maxn = [player("maxn", level) for level in (50, 100, 100, 100)]
    rows = [experiment("ludo-4mn", env, game, maxn, {"id": env}, LUDO) for env in E_PLAYERS]
    for dda in DDA_PLAYERS:
        players = [player("maxn", 50)] + [player(dda, 100, {"base": "maxn"})] * 3
        rows.append(experiment("ludo-4mn", dda, game, players, {"id": "e-random"}, LUDO))
    return rows


def maze():
    # The explorer plays the pure algorithm (sigma 0): with the default sigma 0.4, "level 100"
    # picks the best door in ~10 % of turns and wins ~10 % of games. E-Max^n equals E-MaxMax with
    # one explorer (maze.md), so it is left out; POSM / DL build the maze as the opponent.
    game = {"id": "maze", "params": {"width": 41, "height": 41, "max_steps": 777,
                                     "defuse_weight": 0}}
    # The search E-players play at their default budgets (depth 3; 200 iterations, horizon 6):
    # since the speed work (docs/performance.md) the Maze rows cost about 2.5 minutes of the study at them
    # (reduced to depth 2 and 100 iterations of horizon 4 before).
    explorer = [player("hillclimber", 100, {"sigma": 0})]
    environments = [{"id": "e-random"}, {"id": "e-hillclimber"},
                    {"id": "e-maxmax"}, {"id": "e-montecarlo"}]
    environments += [{"id": dda} for dda in DDA_PLAYERS]
    return [experiment("maze", env["id"], game, explorer, env, MAZE) for env in environments]


HEXALINES_ITERATIONS = 1000


def hexalines_3():
    """hexalines-ai levels 50, 100, 100 (games/hexalines.md, "Suggested experiment"), Ludo's
    coefficients; POSM / DL play the two level-100 seats over hexalines-ai, as in ludo-4mn. The
    seats play the author's AI through the level's exact rank (sigma 0, as the Maze explorer):
    with the default sigma 0.4 over ~100 legal moves, "level 100" plays the AI's own move in a few
    turns only, seldom adds a cell, and most games reach max_rounds as draws. Below level 100 the
    ranks are almost all rotations (~100 rotations, ~10 adds a decision), so the levels scale over
    the AI's proposals (level_proposed): when its loop guard fires it proposes only the adds, and
    a weak seat, POSM and DL then add a cell too instead of rotating until max_rounds. The searching
    E-players get budgets for a 42-outcome chance node with ~100 replies each: one simulated round
    (e-maxmax), 50 descents of 3 rounds (e-montecarlo); their defaults cost minutes per game.
    E-Max^n is left out: at depth 1 it plays every game exactly as E-HillClimber (checked game for
    game), and depth 2 with 2 replies and 4 outcomes costs ~30 s a game. 1000 games a row take
    about 12 minutes on two cores (the whole study under 20)."""
    game = {"id": "hexalines"}
    exact = {"sigma": 0, "level_proposed": True}
    seats = [player("hexalines-ai", level, exact) for level in (50, 100, 100)]
    environments = [{"id": "e-random"}, {"id": "e-hillclimber"},
                    {"id": "e-maxmax", "params": {"depth": 1}},
                    {"id": "e-montecarlo", "params": {"iterations": 50, "horizon": 3}}]
    rows = [dict(experiment("hexalines-3", env["id"], game, seats, env, LUDO),
                 iterations=HEXALINES_ITERATIONS) for env in environments]
    for dda in DDA_PLAYERS:
        params = {"base": "hexalines-ai", "base_params": exact}
        if dda == "posm":
            params["sigma"] = 0  # POSM's level through the exact rank; DL always takes it
        players = [seats[0]] + [player(dda, 100, params)] * 2
        rows.append(dict(experiment("hexalines-3", dda, game, players, {"id": "e-random"}, LUDO),
                         iterations=HEXALINES_ITERATIONS))
    return rows


def comparisons():
    lost_cities = {"id": "lost-cities", "params": {"hand_size": 8, "heuristic": "thesis"}}
    return {
        "maze": ("41 x 41 maze, 777 steps, HillClimber explorer", maze()),
        "ludo-2hc": ("2-player Ludo, HillClimber level 50 vs 100",
                     two_player("ludo-2hc", {"id": "ludo", "params": {"players": 2}},
                                "hillclimber", LUDO)),
        "ludo-2mn": ("2-player Ludo, Max^n level 50 vs 100",
                     two_player("ludo-2mn", {"id": "ludo", "params": {"players": 2}}, "maxn",
                                LUDO)),
        "ludo-4mn": ("4-player Ludo, Max^n levels 50, 100, 100, 100; POSM / DL play the last "
                     "three seats", ludo_4mn()),
        "lc-hcis": ("Lost Cities, HillClimber IS level 50 vs 100, heuristic 'thesis', level model "
                    "'groups' over proposals",
                    two_player("lc-hcis", lost_cities, "hillclimber-is", LOST_CITIES,
                               LC_LEVEL_MODEL)),
        "lc-mmis": ("Lost Cities, Minimax IS level 50 vs 100, heuristic 'thesis', level model "
                    "'groups' over proposals",
                    two_player("lc-mmis", lost_cities, "minimax-is", LOST_CITIES,
                               LC_LEVEL_MODEL)),
    }


def write(name, description, experiments, folder=HERE):
    document = {"format": "ddalab-batch/1", "description": description, "seed": SEED,
                "experiments": experiments}
    (folder / f"{name}.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def main():
    everything = []
    for name, (setup, rows) in comparisons().items():
        write(name, f"Thesis comparison {name} ({setup}); {ITERATIONS} games per row.", rows)
        everything += rows
    hexalines = hexalines_3()
    write("hexalines-3", "HexaLines comparison hexalines-3 (hexalines-ai levels 50, 100, 100, "
          "exact ranks; POSM / DL play the two level-100 seats); "
          f"{HEXALINES_ITERATIONS} games per row.", hexalines, HERE.parent)
    write("all", "The whole thesis study: all six comparisons, and hexalines-3.",
          everything + hexalines)


if __name__ == "__main__":
    main()
