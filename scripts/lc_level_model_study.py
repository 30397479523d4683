#!/usr/bin/env python3
"""Writes experiments/investigations/lc-level-model*.json: the level-model study (
docs/study-lc-level-model.md). Each file is the thesis's Lost Cities e-random row (level 50 vs
level 100, no DDA) once per level-model candidate; run one with
`ddalab run experiments/investigations/FILE --out DIR --threads 2`."""
import json
import pathlib

from thesis_experiments import ITERATIONS, LC_LEVEL_MODEL, LOST_CITIES, SEED

HERE = pathlib.Path(__file__).resolve().parent.parent / "experiments" / "investigations"
GAME = {"id": "lost-cities", "params": {"hand_size": 8, "heuristic": "thesis"}}

# name -> the level parameters of both seats (the rest of each player at its defaults).
CANDIDATES = {
    "actions": {"level_model": "actions"},
    "groups": {"level_model": "groups"},
    "states": {"level_model": "states"},
    "actions-top5": {"level_model": "actions", "level_top_k": 5},
    "groups-top5": {"level_model": "groups", "level_top_k": 5},
    "actions-proposed": {"level_model": "actions", "level_proposed": True},
    "groups-proposed": {"level_model": "groups", "level_proposed": True},
}
CHOSEN = "groups-proposed"  # pinned in the thesis presets (thesis_experiments.LC_LEVEL_MODEL)
assert CANDIDATES[CHOSEN] == LC_LEVEL_MODEL


def row(study, name, players, environment="e-random"):
    return {"name": f"{study}/{name}", "comparison": study, "game": GAME, "players": players,
            "environment": {"id": environment}, "coefficients": LOST_CITIES,
            "iterations": ITERATIONS}


def level_rows(study, base, candidates):
    return [row(study, name, [{"id": base, "level": 50, "params": params},
                              {"id": base, "level": 100, "params": params}])
            for name, params in candidates.items()]


def reference(study):
    """Both seats level 100, sigma 0: the pure algorithm, which every level model plays alike."""
    pure = {"id": "minimax-is", "level": 100, "params": {"sigma": 0}}
    return row(study, "reference-100-vs-100-sigma0", [pure, pure])


def dl_control(study, base, base_params, prefix="dl", dl_base_params=None):
    """DL replacing level 100 as in the thesis (starting at 50) and started at the seat's 100;
    DL ranks under `dl_base_params` (default: the seats' `base_params`)."""
    weak = {"id": base, "level": 50, "params": base_params}
    dl_params = base_params if dl_base_params is None else dl_base_params
    rows = []
    for start in (50, 100):
        dl = {"id": "dynamic-level", "level": 100,
              "params": {"base": base, "base_params": dl_params, "initial_level": start}}
        rows.append(row(study, f"{prefix}-from-{start}", [weak, dl]))
    return rows


def write(name, description, experiments):
    document = {"format": "ddalab-batch/1", "description": description, "seed": SEED,
                "experiments": experiments}
    HERE.mkdir(parents=True, exist_ok=True)
    (HERE / f"{name}.json").write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def main():
    write("lc-level-model",
          "Level-model candidates for Lost Cities, Minimax IS level 50 vs 100, e-random (the "
          "lc-mmis e-random row, thesis table 7); one row per level_model / level_top_k / "
          "level_proposed of both seats, and a reference row of both seats at level 100, sigma 0; "
          f"{ITERATIONS} games per row.",
          level_rows("lc-level-model", "minimax-is", CANDIDATES) + [reference("lc-level-model")])
    write("lc-level-model-hcis",
          "Level models for Lost Cities, HillClimber IS level 50 vs 100, e-random (the lc-hcis "
          f"e-random row); {ITERATIONS} games per row.",
          level_rows("lc-level-model-hcis", "hillclimber-is",
                     {k: CANDIDATES[k] for k in ("actions", "groups", "groups-proposed")}))
    write("lc-dl-control",
          "Control for DL: Dynamic Level replacing the level-100 seat, started at level 50 (as in "
          f"the thesis rows) and at the seat's level 100; level model '{CHOSEN}' (dl-actions: the "
          "old default 'actions', Minimax IS only), e-random; "
          f"{ITERATIONS} games per row.",
          dl_control("lc-dl-control", "minimax-is", CANDIDATES[CHOSEN]) +
          dl_control("lc-dl-control-hcis", "hillclimber-is", CANDIDATES[CHOSEN]) +
          dl_control("lc-dl-control", "minimax-is", CANDIDATES["actions"], "dl-actions"))
    write("lc-dl-preset-control",
          "Control for DL as the thesis presets run it: the level-50 seat under the level model "
          f"'{CHOSEN}', DL ranking every action of its base (thesis 6.3), started at level 50 (the "
          f"presets' rows) and at the seat's level 100; e-random; {ITERATIONS} games per row.",
          dl_control("lc-dl-preset-control", "minimax-is", CANDIDATES[CHOSEN], "dl-all-actions",
                     {}) +
          dl_control("lc-dl-preset-control-hcis", "hillclimber-is", CANDIDATES[CHOSEN],
                     "dl-all-actions", {}))


if __name__ == "__main__":
    main()
