"""Stepping a game through the Python API plays the runner's games, value for value.

The CLI plays a small batch (every game of the catalog, defaults and variants, random players
and e-random, and a few searching players and environments); each game is then stepped from
Python: `Game.new_initial_state(ddalab.game_seed(batch seed, iteration))`, the experiment's
lineup choosing for every actor. Rounds, winner, capped, every metric and every seat's score
must equal the games CSV's row value for value (the CSV prints shortest round-trip doubles).
`ddalab check-game` reports only passed/failed per check, no per-seed results, so the games
CSV is the C++ reference here. Then the hostile cases of State and Game.
"""
import csv
import json
import subprocess

import pytest

import ddalab

BATCH_SEED = 20261127
GAMES_PER_EXPERIMENT = 5
RANDOM = {"id": "random"}
E_RANDOM = {"id": "e-random"}
LUDO_COEFFICIENTS = {"believability": 1000, "fairness": 10, "leading_time": 10, "tension": 10,
                     "lead": 3, "freedom": 1}

# name -> experiment (the batch format's); the names are the CSV files' stems.
EXPERIMENTS = {
    "ludo-4": {"game": {"id": "ludo"}, "players": [RANDOM] * 4},
    "ludo-2-house": {"game": {"id": "ludo", "params": {"players": 2, "start_on_board": False,
                                                       "safe_squares": [0, 10, 20, 30]}},
                     "players": [RANDOM] * 2},
    "maze": {"game": {"id": "maze"}, "players": [RANDOM]},
    "maze-small": {"game": {"id": "maze", "params": {"width": 21, "height": 15, "bombs": 3,
                                                     "max_steps": 150, "red_prob": 0.3}},
                   "players": [RANDOM]},
    "lost-cities": {"game": {"id": "lost-cities"}, "players": [RANDOM] * 2},
    "lost-cities-5": {"game": {"id": "lost-cities",
                               "params": {"hand_size": 5, "heuristic": "thesis"}},
                      "players": [RANDOM] * 2},
    "hexalines": {"game": {"id": "hexalines"}, "players": [RANDOM] * 3},
    "hexalines-2": {"game": {"id": "hexalines",
                             "params": {"radius": 2, "first_player": "blue",
                                        "recalc_order": "fixed-rbg"}},
                    "players": [RANDOM] * 3},
    # Searching players and environment players (their own streams, the tracker they read).
    "ludo-maxn": {"game": {"id": "ludo", "params": {"players": 2}},
                  "players": [{"id": "maxn", "level": 50}, {"id": "maxn", "level": 100}],
                  "environment": {"id": "e-hillclimber"}, "coefficients": LUDO_COEFFICIENTS},
    "lc-hcis": {"game": {"id": "lost-cities", "params": {"heuristic": "thesis"}},
                "players": [{"id": "hillclimber-is", "level": 50, "params": {"samples": 8}},
                            {"id": "hillclimber-is", "level": 100, "params": {"samples": 8}}]},
    "lc-mmis": {"game": {"id": "lost-cities", "params": {"heuristic": "thesis"}},
                "players": [{"id": "minimax-is", "level": 50}, {"id": "minimax-is", "level": 100}]},
    "hexalines-ai": {"game": {"id": "hexalines", "params": {"radius": 2}},
                     "players": [{"id": "hexalines-ai", "level": 50},
                                 {"id": "hexalines-ai", "level": 100}, RANDOM],
                     "environment": {"id": "e-hillclimber"}},
}


def experiment_of(name):
    return {"name": name, "environment": E_RANDOM, "iterations": GAMES_PER_EXPERIMENT,
            **EXPERIMENTS[name]}


@pytest.fixture(scope="module")
def games_csv(cli, tmp_path_factory):
    """name -> the CLI's games CSV rows for the whole batch (one run)."""
    folder = tmp_path_factory.mktemp("stepping")
    batch = {"format": "ddalab-batch/1", "seed": BATCH_SEED,
             "experiments": [experiment_of(name) for name in EXPERIMENTS]}
    (folder / "batch.json").write_text(json.dumps(batch))
    subprocess.run([cli, "run", str(folder / "batch.json"), "--out", str(folder / "out"),
                    "--threads", "1", "--quiet"], check=True, capture_output=True)
    rows = {}
    for name in EXPERIMENTS:
        with open(folder / "out" / f"{name}.games.csv", newline="") as f:
            rows[name] = list(csv.DictReader(f))
    return rows


def play(experiment, seed, natural=False):
    """The game of `seed` played to its end by `experiment`'s lineup (`natural`: environment
    nodes by State.apply_natural() instead of the environment player)."""
    state = experiment.game.new_initial_state(seed)
    lineup = experiment.lineup()
    while not state.is_terminal():
        if natural and state.is_environment_node():
            state.apply_natural()
        else:
            state.apply(lineup.choose(state))
    return state


def metric_columns(row):
    """The per-game metric columns of a games CSV row: between `capped` and `p0_score`."""
    keys = list(row)
    return keys[keys.index("capped") + 1:keys.index("p0_score")]


def assert_same_game(state, row):
    assert state.rounds() == int(row["rounds"])
    assert state.winner() == (int(row["winner"]) if row["winner"] else -1)  # empty: a draw
    assert state.capped() == bool(int(row["capped"]))
    metrics = state.metrics()
    columns = metric_columns(row)
    assert columns and set(columns) <= set(metrics)
    assert {key: metrics[key] for key in columns} == {key: float(row[key]) for key in columns}
    gains = state.gains()
    assert len(gains) == sum(1 for key in row if key.endswith("_score"))
    assert gains == [float(row[f"p{seat}_score"]) for seat in range(len(gains))]


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_python_stepping_plays_the_runners_games(games_csv, name):
    experiment = ddalab.Experiment(experiment_of(name))
    rows = games_csv[name]
    assert len(rows) == GAMES_PER_EXPERIMENT
    for row in rows:
        seed = ddalab.game_seed(BATCH_SEED, int(row["iteration"]))
        assert seed == int(row["seed"])
        assert_same_game(play(experiment, seed), row)


@pytest.mark.parametrize("name", [n for n in EXPERIMENTS
                                  if EXPERIMENTS[n].get("environment", E_RANDOM) == E_RANDOM])
def test_apply_natural_is_e_random(games_csv, name):
    """e-random draws every outcome by its natural probability from the nature stream:
    apply_natural() in its place plays the same games."""
    experiment = ddalab.Experiment(experiment_of(name))
    for row in games_csv[name]:
        assert_same_game(play(experiment, int(row["seed"]), natural=True), row)


def test_game_seed_takes_the_salt_and_the_iteration():
    seeds = {ddalab.game_seed(BATCH_SEED, i, salt) for i in range(4) for salt in range(3)}
    assert len(seeds) == 12
    assert ddalab.game_seed(BATCH_SEED, 2) == ddalab.game_seed(BATCH_SEED, 2, 0)
    with pytest.raises(TypeError):
        ddalab.game_seed(-1, 0)


def test_a_salted_experiment_plays_the_salted_seeds(cli, tmp_path):
    batch = {"format": "ddalab-batch/1", "seed": BATCH_SEED,
             "experiments": [{**experiment_of("ludo-4"), "salt": 5, "iterations": 2}]}
    (tmp_path / "batch.json").write_text(json.dumps(batch))
    subprocess.run([cli, "run", str(tmp_path / "batch.json"), "--out", str(tmp_path / "out"),
                    "--threads", "1", "--quiet"], check=True, capture_output=True)
    with open(tmp_path / "out" / "ludo-4.games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    experiment = ddalab.Experiment(experiment_of("ludo-4"))
    for row in rows:
        seed = ddalab.game_seed(BATCH_SEED, int(row["iteration"]), 5)
        assert seed == int(row["seed"]) != ddalab.game_seed(BATCH_SEED, int(row["iteration"]))
        assert_same_game(play(experiment, seed), row)


# --- hostile cases ------------------------------------------------------------------------

def snapshot(state):
    """Everything a caller can read of a state."""
    return (state.to_string(), state.current_player(), state.legal_actions(),
            state.chance_outcomes(), state.metrics(), state.gains(), state.statuses(),
            state.rounds(), state.is_terminal(), state.features(),
            [state.observation(seat) for seat in range(state.num_players())])


def walk(game_id, seed, steps, params=None):
    """A state `steps` actions into the game of `seed`: first legal actions, natural outcomes."""
    state = ddalab.Game(game_id, params).new_initial_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_environment_node():
            state.apply_natural()
        else:
            state.apply(state.legal_actions()[0])
    return state


def not_legal(state):
    legal = state.legal_actions()
    return [max(legal) + 1, -1, min(legal) - 7]


@pytest.mark.parametrize("game_id", ["ludo", "maze", "lost-cities", "hexalines"])
def test_an_illegal_action_raises_and_changes_nothing(game_id):
    state = walk(game_id, 3, 0)
    seen = {"decision": 0, "environment": 0}
    for step in range(60):
        if state.is_terminal():
            break
        kind = "environment" if state.is_environment_node() else "decision"
        before = snapshot(state)
        for action in not_legal(state):
            with pytest.raises(ValueError, match="not a legal action"):
                state.apply(action)
            assert snapshot(state) == before
        seen[kind] += 1
        state.apply_natural() if kind == "environment" else state.apply(state.legal_actions()[-1])
    assert seen["decision"] and seen["environment"]


@pytest.mark.parametrize("game_id", ["ludo", "maze", "lost-cities", "hexalines"])
def test_apply_after_the_end_raises_and_changes_nothing(game_id):
    state = walk(game_id, 11, 100_000)
    assert state.is_terminal() and state.legal_actions() == []
    before = snapshot(state)
    for action in (0, 1, -1):
        with pytest.raises(ValueError, match="the game is over"):
            state.apply(action)
    with pytest.raises(ValueError):
        state.apply_natural()
    lineup = ddalab.Experiment({"game": {"id": game_id},
                                "players": [RANDOM] * state.num_players()}).lineup()
    with pytest.raises(ValueError, match="the game is over"):
        lineup.choose(state)
    assert snapshot(state) == before


def test_apply_natural_refuses_a_regular_decision():
    state = walk("hexalines", 1, 0)
    while state.is_environment_node():
        state.apply_natural()
    before = snapshot(state)
    with pytest.raises(ValueError, match="not an environment node"):
        state.apply_natural()
    assert snapshot(state) == before


@pytest.mark.parametrize("game_id", ["ludo", "maze", "lost-cities", "hexalines"])
def test_observation_of_a_seat_out_of_range_raises_index_error(game_id):
    state = walk(game_id, 5, 10)
    n = state.num_players()
    for seat in (-1, n, n + 5, -1000):
        with pytest.raises(IndexError, match=f"seat {seat}"):
            state.observation(seat)
        with pytest.raises(IndexError):
            state.observation_json(seat)
    assert state.observation(n - 1)  # the last seat is in range


@pytest.mark.parametrize("game_id, params, where", [
    ("ludo", {"players": 3}, "params.players"),
    ("ludo", {"max_rounds": 0}, "params.max_rounds"),
    ("maze", {"width": 5}, "params.width"),
    ("maze", {"blue_prob": "high"}, "params.blue_prob"),
    ("lost-cities", {"hand_size": 6}, "params.hand_size"),
    ("lost-cities", {"heuristic": "greedy"}, "params.heuristic"),
    ("hexalines", {"radius": 9}, "params.radius"),
    ("hexalines", {"first_player": "yellow"}, "params.first_player"),
    ("hexalines", {"no_such_parameter": 1}, "no_such_parameter"),
])
def test_a_bad_parameter_raises_input_error_naming_it(game_id, params, where):
    with pytest.raises(ddalab.InputError, match=where.replace(".", r"\.")):
        ddalab.Game(game_id, params)


@pytest.mark.parametrize("game_id", ["ludo", "maze", "lost-cities", "hexalines"])
def test_a_clone_is_independent(game_id):
    original = walk(game_id, 9, 25)
    before = snapshot(original)
    clone = original.clone()
    assert snapshot(clone) == before
    moved = 0
    while not clone.is_terminal() and moved < 40:
        clone.apply_natural() if clone.is_environment_node() else clone.apply(
            clone.legal_actions()[-1])
        moved += 1
    assert moved and snapshot(clone) != before
    assert snapshot(original) == before  # its tracker included: metrics() is in the snapshot
    # The clone carries the random streams too: both continued alike end alike.
    twin = original.clone()
    for state in (original, twin):
        while not state.is_terminal():
            state.apply_natural() if state.is_environment_node() else state.apply(
                state.legal_actions()[0])
    assert snapshot(original) == snapshot(twin)


@pytest.mark.parametrize("game_id", ["ludo", "maze", "lost-cities", "hexalines"])
def test_the_declared_bounds_and_descriptions_hold_along_a_game(game_id):
    game = ddalab.Game(game_id)
    bounds = game.action_bounds()
    assert bounds["distinct_actions"] == game.num_distinct_actions() > 0
    assert 0 < bounds["max_chance_outcomes"] == game.max_chance_outcomes() <= bounds["outcome_ids"]
    state = game.new_initial_state(4)
    while not state.is_terminal():
        if state.is_environment_node():
            outcomes = state.chance_outcomes()
            assert len(outcomes) <= bounds["max_chance_outcomes"]
            assert all(0 <= a < bounds["outcome_ids"] for a, _ in outcomes)
            state.apply_natural()
            continue
        legal = state.legal_actions()
        assert all(0 <= a < bounds["distinct_actions"] for a in legal)
        described = [state.action_json(a) for a in legal]
        assert all(d.get("verb") for d in described)
        assert len({repr(sorted(d.items())) for d in described}) == len(legal)  # one per action
        state.apply(legal[0])
