"""Players and environment players written in Python: registered under an id,
played in batches like any built-in, drawing from the same C++ streams, and refused clearly when
they misbehave."""
import itertools

import pytest

import ddalab
from ddalab import _ddalab

_ids = itertools.count()


def fresh_id(stem):
    """A catalog id nobody has taken: the catalog lives as long as the process."""
    return f"{stem}-{next(_ids)}"


class PyNatural:
    """e-random in Python: one uniform draw of the game's natural-chance stream."""

    def __init__(self, setup):
        self.setup = setup

    def choose(self, state, outcomes, rng, nature):
        return ddalab.sample_outcome(outcomes, nature)


class PyRandom:
    """`random` in Python: one below(n) draw of the seat's own stream."""

    def __init__(self, setup):
        pass

    def choose(self, state, legal, rng):
        return legal[rng.below(len(legal))]


def ludo_experiment(environment="e-random", seat="random", iterations=24, name="x"):
    return {
        "name": name,
        "game": {"id": "ludo", "params": {"players": 4}},
        "players": [{"id": seat}] * 4,
        "environment": {"id": environment},
        "coefficients": {"fairness": 10, "tension": 10, "lead": 3},
        "iterations": iterations,
    }


def run_games_csv(tmp_path, experiments, threads=1, tag="run"):
    """The games CSV of experiment "x" of a batch of `experiments`, run into a fresh folder."""
    out = tmp_path / f"{tag}-{next(_ids)}"
    ddalab.run({"format": "ddalab-batch/1", "seed": 7, "experiments": experiments},
               threads=threads, out=out, progress=False)
    return (out / "x.games.csv").read_bytes()


@pytest.fixture(scope="module")
def natural_id():
    player = fresh_id("py-e-random")
    ddalab.register_environment(player, PyNatural, "e-random written in Python")
    return player


@pytest.mark.parametrize("threads", [1, 2])
def test_a_python_e_random_plays_the_games_of_e_random(tmp_path, natural_id, threads):
    expected = run_games_csv(tmp_path, [ludo_experiment("e-random")], threads)
    played = run_games_csv(tmp_path, [ludo_experiment(natural_id)], threads)
    assert expected.count(b"\n") == 25  # the header and 24 games
    assert played == expected


def test_a_python_random_seat_plays_the_games_of_random_twice_alike(tmp_path):
    player = fresh_id("py-random")
    ddalab.register_player(player, PyRandom)
    first = run_games_csv(tmp_path, [ludo_experiment(seat=player)], 2)
    assert run_games_csv(tmp_path, [ludo_experiment(seat=player)], 1) == first
    # The same draws of the same streams as the C++ player: the very same games.
    assert run_games_csv(tmp_path, [ludo_experiment(seat="random")], 1) == first


def test_the_state_is_a_copy_the_player_cannot_change_the_game(tmp_path):
    class Meddler(PyNatural):
        def choose(self, state, outcomes, rng, nature):
            state.apply(outcomes[-1][0])  # its own copy only
            while not state.is_terminal() and not state.is_environment_node():
                state.apply(state.legal_actions()[0])
            return ddalab.sample_outcome(outcomes, nature)

    player = fresh_id("py-meddler")
    ddalab.register_environment(player, Meddler)
    assert (run_games_csv(tmp_path, [ludo_experiment(player, iterations=6)]) ==
            run_games_csv(tmp_path, [ludo_experiment("e-random", iterations=6)]))


def test_the_view_holds_the_game_so_far_and_the_setup_the_experiment():
    seen = {"setups": [], "metrics": []}

    class Recorder(PyNatural):
        def __init__(self, setup):
            seen["setups"].append(setup)

        def choose(self, state, outcomes, rng, nature):
            seen["metrics"].append(state.metrics())
            return ddalab.sample_outcome(outcomes, nature)

    player = fresh_id("py-recorder")
    ddalab.register_environment(player, Recorder)
    experiment = ddalab.Experiment(ludo_experiment(player))
    lineup = experiment.lineup()
    state = experiment.game.new_initial_state(11)
    expected = []
    while not state.is_terminal():
        if state.is_environment_node():
            expected.append(state.metrics())
        state.apply(lineup.choose(state))
    assert len(expected) > 10 and seen["metrics"] == expected
    assert expected[-1] != expected[0]  # the metrics moved: the view is not a fresh game
    assert seen["setups"] == [{
        "id": player, "game": "ludo", "game_params": experiment.game.params, "level": 100,
        "params": {}, "coefficients": {"fairness": 10.0, "tension": 10.0, "lead": 3.0},
        "players": 4}]


def test_parameters_are_validated_like_any_players():
    given = []

    class Tempered(PyNatural):
        def __init__(self, setup):
            given.append(setup["params"])

    player = fresh_id("py-tempered")
    ddalab.register_environment(player, Tempered, "with a parameter", params=[
        {"name": "temperature", "type": "number", "default": 1.0, "min": 0, "max": 5,
         "description": "how random"},
        ("greedy", "bool", False)])
    entry = next(p for p in ddalab.players() if p["id"] == player)
    assert entry["origin"] == "python" and entry["roles"] == ["environment"]
    assert [p["name"] for p in entry["params"]] == ["temperature", "greedy"]
    experiment = ludo_experiment(player)
    experiment["environment"]["params"] = {"temperature": 2}
    ddalab.Experiment(experiment).lineup()
    assert given == [{"temperature": 2.0, "greedy": False}]
    experiment["environment"]["params"] = {"temperature": 9}
    with pytest.raises(ddalab.InputError, match="temperature"):
        ddalab.Experiment(experiment)
    with pytest.raises(ddalab.InputError, match=r"params\[0\].type"):
        ddalab.register_environment(fresh_id("py-bad"), PyNatural, params=[("t", "complex", 1)])
    with pytest.raises(ddalab.InputError, match="default is refused"):
        ddalab.register_environment(fresh_id("py-bad"), PyNatural,
                                    params=[("t", "int", 9, 0, 5)])


def test_a_taken_id_and_a_factory_that_is_not_callable_are_refused():
    with pytest.raises(ddalab.InputError, match="taken by the player from built-in"):
        ddalab.register_player("random", PyRandom)
    player = fresh_id("py-twice")
    ddalab.register_player(player, PyRandom)
    with pytest.raises(ddalab.InputError, match="taken by the player from python"):
        ddalab.register_environment(player, PyNatural)
    for bad in ["a\x01b", "two words", "x:50", "a;b", "a,b", "x" * 65, "é"]:
        with pytest.raises(ddalab.InputError, match=r"\.id: expected letters, digits"):
            ddalab.register_player(bad, PyRandom)
    with pytest.raises(ddalab.InputError, match="without an id"):
        ddalab.register_player("", PyRandom)
    with pytest.raises(TypeError, match="callable factory"):
        ddalab.register_player(fresh_id("py-object"), PyRandom(None))
    player = fresh_id("py-no-choose")
    ddalab.register_player(player, lambda setup: object())
    with pytest.raises(ddalab.PlayerError, match=f"'{player}'.*no callable choose"):
        ddalab.Experiment(ludo_experiment(seat=player)).lineup()


def first_decision(player_id, environment=False):
    """Lineup.choose at the first decision of the player `player_id`."""
    experiment = ddalab.Experiment(ludo_experiment(player_id if environment else "e-random",
                                                   "random" if environment else player_id))
    lineup = experiment.lineup()
    state = experiment.game.new_initial_state(3)
    while state.is_environment_node() != environment:
        state.apply(lineup.choose(state))
    return lineup.choose(state)


@pytest.mark.parametrize("answer, shown", [("a", "'a'"), (1.0, "1.0"), (True, "True"),
                                           (None, "None")])
def test_an_answer_that_is_not_an_int_names_the_player_and_the_answer(answer, shown):
    player = fresh_id("py-wrong-type")
    ddalab.register_player(player, lambda setup: type("P", (), {
        "choose": lambda self, state, legal, rng: answer})())
    with pytest.raises(ddalab.PlayerError) as error:
        first_decision(player)
    assert f"'{player}'" in str(error.value) and f"returned {shown}; expected an int" in str(
        error.value)


def test_an_illegal_action_names_the_player_and_the_action_and_stops_the_run(tmp_path):
    class Cheat(PyNatural):
        def choose(self, state, outcomes, rng, nature):
            return 977

    player = fresh_id("py-cheat")
    ddalab.register_environment(player, Cheat)
    with pytest.raises(ddalab.PlayerError, match=f"'{player}'.*returned 977, which is not legal"):
        first_decision(player, environment=True)
    # Out of a run: the experiment before it is written in full (nothing computed is lost).
    before = ludo_experiment(iterations=5, name="x")
    cheating = ludo_experiment(player, iterations=5, name="cheating")
    out = tmp_path / "stopped"
    with pytest.raises(ddalab.PlayerError, match=f"'{player}'.*977"):
        ddalab.run({"format": "ddalab-batch/1", "seed": 7, "experiments": [before, cheating]},
                   threads=2, out=out, progress=False)
    assert (out / "x.games.csv").read_bytes().count(b"\n") == 6


def held_back(kept, expected):
    """The rows of `kept` after its first gap (written, not checkpointed: a resume replays them)."""
    rows, reference = kept.splitlines()[1:], expected.splitlines()[1:]
    contiguous = next((i for i, row in enumerate(rows) if row != reference[i]), len(rows))
    return len(rows) - contiguous


@pytest.mark.parametrize("threads", [1, 2])
def test_a_failing_game_keeps_the_finished_ones_and_the_run_resumes(tmp_path, threads):
    """Nothing computed is lost: the games before the failure are written and checkpointed, and
    the resumed run (the player fixed) ends with the games of an uninterrupted run."""
    broken = {"game": 6}
    started = []

    class Flaky(PyNatural):
        def __init__(self, setup):
            started.append(self)
            self.game = len(started)

        def choose(self, state, outcomes, rng, nature):
            if self.game == broken["game"]:
                raise RuntimeError("flaky")
            return ddalab.sample_outcome(outcomes, nature)

    player = fresh_id("py-flaky")
    ddalab.register_environment(player, Flaky)
    batch = {"format": "ddalab-batch/1", "seed": 7,
             "experiments": [ludo_experiment(iterations=4, name="before"),
                             ludo_experiment(player, iterations=12)]}
    out = tmp_path / "flaky"
    with pytest.raises(ddalab.PlayerError, match="flaky"):
        ddalab.run(batch, threads=threads, out=out, progress=False)
    kept = (out / "x.games.csv").read_bytes()
    expected = run_games_csv(tmp_path, [ludo_experiment(iterations=12)])
    assert (out / "before.games.csv").read_bytes().count(b"\n") == 5
    if threads == 1:  # games 1..5 finished before the sixth failed
        assert kept.count(b"\n") == 6
    assert set(kept.splitlines()) < set(expected.splitlines())  # (a stop's held-back games too)
    broken["game"] = None
    # the engine of ddalab.run, for the counts (threads, out, resume, overwrite, on_progress)
    counts = _ddalab._run(batch, threads, str(out), True, False, None)
    assert counts["games_resumed"] == 4 + kept.count(b"\n") - 1 - held_back(kept, expected)
    assert counts["games_played"] == 12 - counts["games_resumed"] + 4
    assert (out / "x.games.csv").read_bytes() == expected


def test_an_exception_in_choose_reaches_the_caller_with_its_message_and_traceback(tmp_path):
    class Fragile(PyNatural):
        def choose(self, state, outcomes, rng, nature):
            raise KeyError("the weights file is missing")

    player = fresh_id("py-fragile")
    ddalab.register_environment(player, Fragile)
    for call in (lambda: first_decision(player, environment=True),
                 lambda: run_games_csv(tmp_path, [ludo_experiment(player)], 2)):
        with pytest.raises(ddalab.PlayerError) as error:
            call()
        text = str(error.value)
        assert f"'{player}': choose() raised" in text
        assert "Traceback (most recent call last)" in text and "in choose" in text
        assert "KeyError: 'the weights file is missing'" in text


def test_a_factory_that_raises_is_reported_with_its_traceback():
    def factory(setup):
        raise RuntimeError("no model for " + setup["game"])

    player = fresh_id("py-no-model")
    ddalab.register_player(player, factory)
    with pytest.raises(ddalab.PlayerError, match=f"'{player}': its factory raised(.|\n)*"
                                                 "RuntimeError: no model for ludo"):
        ddalab.Experiment(ludo_experiment(seat=player)).lineup()


def test_a_lent_stream_expires_when_choose_returns():
    kept = []

    class Hoarder(PyRandom):
        def choose(self, state, legal, rng):
            kept.append(rng)
            return legal[rng.below(len(legal))]

    player = fresh_id("py-hoarder")
    ddalab.register_player(player, Hoarder)
    first_decision(player)
    with pytest.raises(ValueError, match="lent to one choose"):
        kept[0].uniform()


def test_an_rng_of_its_own_and_sample_outcome_check_their_input():
    rng = ddalab.Rng(5)
    draws = [rng.below(6) for _ in range(200)]
    assert set(draws) == set(range(6)) and ddalab.Rng(5).below(6) == draws[0]
    assert 0 <= ddalab.Rng(1).uniform() < 1
    with pytest.raises(ValueError, match="below"):
        rng.below(0)
    with pytest.raises(ValueError, match="at least one outcome"):
        ddalab.sample_outcome([], rng)
    counts = [0, 0]
    for _ in range(2000):
        counts[ddalab.sample_outcome([(0, 0.25), (1, 0.75)], rng)] += 1
    assert 350 < counts[0] < 650


def test_python_players_work_from_threads_python_started(tmp_path, natural_id):
    """A run or a Lineup driven from a threading.Thread: Python owns that thread's state."""
    import threading

    results = []

    def work():
        results.append(run_games_csv(tmp_path, [ludo_experiment(natural_id, iterations=8)], 2))
        results.append(first_decision(natural_id, environment=True))

    for _ in range(2):
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
    assert results[0] == results[2] == run_games_csv(
        tmp_path, [ludo_experiment("e-random", iterations=8)], 1)
    assert results[1] == results[3]


def test_the_python_environment_example_plays_its_comparison(tmp_path, source_dir):
    """examples/python/python_environment.py: e-closest registers and plays the ludo-4mn rows."""
    import importlib.util

    path = source_dir / "examples" / "python" / "python_environment.py"
    spec = importlib.util.spec_from_file_location("python_environment", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.register()
    results = example.run(example.comparison_batch(3), tmp_path / "out")
    assert list(results.scores["experiment"]) == [
        "ludo-4mn/e-random", "ludo-4mn/e-closest", "ludo-4mn/e-hillclimber"]
    assert list(results.summary["games"]) == [3, 3, 3]


def test_a_python_seat_is_an_environment_players_model_of_that_seat(tmp_path):
    """E-MaxMax simulating the seats with their own players ("players") builds the Python
    seat's player too (its set-up names the game) and plays the games it plays with `random`."""
    games = []

    class Seat(PyRandom):
        def __init__(self, setup):
            games.append(setup["game"])

    player = fresh_id("py-seat")
    ddalab.register_player(player, Seat)

    def experiment(seat):
        e = ludo_experiment("e-maxmax", seat, iterations=3)
        e["environment"]["params"] = {"opponent_model": "players"}
        return e

    played = run_games_csv(tmp_path, [experiment(player)], 2)
    assert played == run_games_csv(tmp_path, [experiment("random")], 1)
    assert len(games) == 3 * 8 and set(games) == {"ludo"}  # 4 seats + 4 models per game


def test_a_numpy_integer_is_an_action_and_a_huge_int_is_not_legal():
    import numpy as np

    numpy_player, huge_player = fresh_id("py-numpy"), fresh_id("py-huge")
    ddalab.register_player(numpy_player, lambda setup: type("P", (), {
        "choose": lambda self, state, legal, rng: np.int64(legal[-1])})())
    ddalab.register_player(huge_player, lambda setup: type("P", (), {
        "choose": lambda self, state, legal, rng: 2**70})())
    assert isinstance(first_decision(numpy_player), int)
    with pytest.raises(ddalab.PlayerError, match=f"'{huge_player}'.*returned {2**70}, which is "
                                                 "not legal here; legal: 0"):
        first_decision(huge_player)
