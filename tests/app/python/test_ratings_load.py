"""ddalab.load of a tournament's and a balance run's folder: ratings, pairwise, level_curves,
balance and balance_summary as DataFrames typed by csv_schema(), holding the CSVs' values."""
import pandas as pd

import ddalab

from test_run_load import assert_frame_equals_csv

LUDO = {"id": "ludo", "params": {"players": 2}}
ENTRANTS = [("random", {"id": "random"}, None, None),
            ("hc10", {"id": "hillclimber", "level": 10}, "hillclimber", 10),
            ("hc100", {"id": "hillclimber", "level": 100}, "hillclimber", 100)]


def tournament(games):
    """A round robin of ENTRANTS in both seat orders, as experiments/tournament.h expands one."""
    experiments = [{"name": f"{a}-{b}", "game": LUDO, "players": [pa, pb], "iterations": games,
                    "entrants": [a, b]}
                   for a, pa, _, _ in ENTRANTS for b, pb, _, _ in ENTRANTS if a != b]
    entrants = [dict({"name": name, "player": player},
                     **({"curve": curve, "x": x} if curve else {}))
                for name, player, curve, x in ENTRANTS]
    return {"format": "ddalab-batch/1", "seed": 11, "experiments": experiments,
            "rating": {"kind": "tournament", "entrants": entrants,
                       "model": {"anchor": "random", "bootstrap": 20}}}


def test_a_tournaments_tables_load_as_typed_frames(tmp_path):
    ddalab.run(tournament(30), threads=1, out=tmp_path / "t", progress=False)
    results = ddalab.load(tmp_path / "t")
    assert {"ratings", "pairwise", "level_curves"} <= set(results.tables())
    assert results.balance is None and results.balance_summary is None
    ratings = results.ratings
    assert list(ratings["entrant"]) == ["random", "hc10", "hc100", "(first seat)"]
    assert str(ratings["entrant"].dtype) == "category"
    assert str(ratings["games"].dtype) == "Int64"  # the first seat's row has none
    assert pd.isna(ratings["games"].iloc[3])
    assert ratings["rating"].iloc[0] == 0  # the anchor
    assert (ratings["low"] <= ratings["rating"]).all()
    # an entrant of no curve has the name "" (as summary's experiments of no comparison)
    assert list(ratings["curve"]) == ["", "hillclimber", "hillclimber", ""]
    no_curve = ratings.assign(curve=[None if c == "" else c for c in ratings["curve"]])
    assert_frame_equals_csv(no_curve, tmp_path / "t" / "ratings.csv")
    for table, file in (("pairwise", "pairwise.csv"), ("level_curves", "level_curves.csv")):
        assert_frame_equals_csv(getattr(results, table), tmp_path / "t" / file)
    curve = results.level_curves
    assert list(curve["x"]) == [10, 100]
    assert pd.isna(curve["step"].iloc[0])
    assert curve["step"].iloc[1] == curve["rating"].iloc[1] - curve["rating"].iloc[0]


def test_a_balance_runs_tables_load(tmp_path):
    ladder = [{"name": "hc10", "player": {"id": "hillclimber", "level": 10}, "rating": -50,
               "low": -90, "high": -10},
              {"name": "hc100", "player": {"id": "hillclimber", "level": 100}, "rating": 60,
               "low": 20, "high": 100}]
    experiments = []
    for condition, opponent in (("random", {"id": "random"}), ("hc50", {"id": "hillclimber",
                                                                        "level": 50})):
        for rated in ladder:
            for seat in (0, 1):
                players = [rated["player"], opponent] if seat == 0 else [opponent, rated["player"]]
                names = [rated["name"], condition] if seat == 0 else [condition, rated["name"]]
                experiments.append({"name": f"{condition}-{rated['name']}@{seat}", "game": LUDO,
                                    "players": players, "iterations": 10, "entrants": names})
    batch = {"format": "ddalab-batch/1", "seed": 5, "experiments": experiments,
             "rating": {"kind": "balance", "ladder": ladder, "conditions": ["random", "hc50"]}}
    ddalab.run(batch, threads=1, out=tmp_path / "b", progress=False)
    results = ddalab.load(tmp_path / "b")
    balance, summary = results.balance, results.balance_summary
    assert results.ratings is None
    assert list(balance["condition"].cat.categories) == ["random", "hc50"]
    assert list(balance["entrant"]) == ["hc10", "hc100", "hc10", "hc100"]
    assert (balance["games"] == 20).all() and str(balance["wins"].dtype) == "int64"
    assert ((balance["wins"] + balance["draws"] / 2) / 20 == balance["win_rate"]).all()
    assert list(summary["points"]) == [2, 2]
    assert (summary["band_low"] == 0.4).all()
    assert_frame_equals_csv(balance, tmp_path / "b" / "balance.csv")
    assert_frame_equals_csv(summary, tmp_path / "b" / "balance_summary.csv")
