#!/usr/bin/env python3
"""Writes experiments/investigations/opponent-model-*.json: the opponent-model study
(docs/study-opponent-model.md). Each file is one comparison of the thesis set-up (seats and
coefficients copied from experiments/thesis/) with the reference rows e-random and
e-hillclimber and one row per variant of the searching E-players, scored together."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
THESIS = ROOT / "experiments" / "thesis"
HERE = ROOT / "experiments" / "investigations"

MODELS = ["greedy", "ranking", "players"]


def ludo_variants():
    rows = [("e-random", {}), ("e-hillclimber", {})]
    rows += [(f"e-maxmax/model={m}", {"opponent_model": m}) for m in MODELS]
    rows += [(f"e-maxmax/depth={d}", {"depth": d}) for d in (1, 2, 5)]
    rows += [(f"e-maxn/model={m}", {"opponent_model": m}) for m in MODELS]
    rows += [(f"e-maxn/depth={d}", {"depth": d}) for d in (1, 3)]
    rows += [(f"e-montecarlo/choose={c}/model={m}", {"choose": c, "opponent_model": m})
             for c in ("most-visited", "best-value") for m in ("greedy", "players")]
    rows += [(f"e-montecarlo/choose={c}/horizon=3", {"choose": c, "horizon": 3})
             for c in ("most-visited", "best-value")]
    return rows


def lc_variants():
    rows = [("e-random", {}), ("e-hillclimber", {})]
    rows += [(f"e-maxmax/model={m}", {"opponent_model": m}) for m in MODELS]
    rows += [("e-maxmax/depth=1", {"depth": 1})]
    rows += [(f"e-maxn/model={m}", {"opponent_model": m}) for m in MODELS]
    rows += [("e-maxn/depth=3", {"depth": 3})]
    rows += [("e-maxn/width=3", {"width": 3}), ("e-maxn/width=10", {"width": 10}),
             ("e-maxn/chance_width=3", {"chance_width": 3}),
             ("e-maxn/chance_width=12", {"chance_width": 12}),
             ("e-maxn/chance_order=probability", {"chance_order": "probability"})]
    rows += [(f"e-montecarlo/choose={c}/model={m}", {"choose": c, "opponent_model": m})
             for c in ("most-visited", "best-value") for m in ("greedy", "players")]
    return rows


def study(thesis_name, variants, iterations):
    template = json.loads((THESIS / f"{thesis_name}.json").read_text())["experiments"][0]
    comparison = f"om-{thesis_name}"
    experiments = []
    for name, params in variants:
        env = {"id": name.split("/")[0]}
        if params:
            env["params"] = params
        experiments.append({"name": f"{comparison}/{name.replace('/', '.')}",
                            "comparison": comparison, "game": template["game"],
                            "players": template["players"], "environment": env,
                            "coefficients": template["coefficients"], "iterations": iterations})
    return experiments


def write(name, description, experiments, seed=2016):
    document = {"format": "ddalab-batch/1", "description": description, "seed": seed,
                "experiments": experiments}
    (HERE / f"{name}.json").write_text(json.dumps(document, indent=2) + "\n")


def main():
    HERE.mkdir(parents=True, exist_ok=True)
    for thesis_name, games in (("ludo-2hc", 200), ("ludo-2mn", 200)):
        write(f"opponent-model-{thesis_name}",
              f"Opponent model, depth and final-choice variants of the searching E-players on the "
              f"thesis set-up {thesis_name}, with e-random and e-hillclimber as references; "
              f"{games} games per row, all rows one comparison.",
              study(thesis_name, ludo_variants(), games))
    write("opponent-model-ludo-2hc-1000",
          "The rows of opponent-model-ludo-2hc with 1000 games per row (the final numbers: at "
          "200 games win_ratio alone moves a score by up to 0.9).",
          study("ludo-2hc", ludo_variants(), 1000))
    models_and_choice = [row for row in ludo_variants()
                         if "depth" not in row[0] and "horizon" not in row[0]
                         and not ("montecarlo" in row[0] and "players" in row[0])]
    write("opponent-model-ludo-2mn-1000",
          "The opponent-model and final-choice rows of opponent-model-ludo-2mn with 1000 games "
          "per row (e-montecarlo with the players model, ~1 s per game, left out).",
          study("ludo-2mn", models_and_choice, 1000))
    lc_check = [row for row in lc_variants()
                if row[0] in ("e-random", "e-hillclimber", "e-maxmax/model=greedy",
                              "e-maxmax/model=ranking", "e-maxn/model=greedy",
                              "e-maxn/model=players", "e-montecarlo/choose=most-visited/model=greedy",
                              "e-montecarlo/choose=best-value/model=greedy")]
    write("opponent-model-lc-hcis-400",
          "The cheaper opponent-model and final-choice rows of opponent-model-lc-hcis with 400 "
          "games per row (e-montecarlo with the players model, ~3 s per game, left out).",
          study("lc-hcis", lc_check, 400))
    write("opponent-model-lc-hcis",
          "Opponent model, width / chance-expansion and final-choice variants of the searching "
          "E-players on the thesis set-up lc-hcis, with e-random and e-hillclimber as references; "
          "100 games per row, all rows one comparison.",
          study("lc-hcis", lc_variants(), 100))


if __name__ == "__main__":
    main()
