"""ddalab.rl.EnvironmentEnv: the Gymnasium contract without gymnasium (spaces, signatures,
rewards, termination, determinism, the action mask), the return = the game's final F, the
e-random policy = the runner's e-random games, no memory growth; check_env where gymnasium is."""
import csv
import inspect
import json
import subprocess
import time

import numpy as np
import pytest

import ddalab
from ddalab import rl
from ddalab.rl import Box, Discrete, EnvironmentEnv

LUDO_COEFFICIENTS = {"believability": 1000, "fairness": 10, "leading_time": 10, "tension": 10,
                     "lead": 3, "freedom": 1}


def ludo_env(**kwargs):
    return EnvironmentEnv("ludo", ["random"] * 4, LUDO_COEFFICIENTS, **kwargs)


def lost_cities_env(**kwargs):
    # Lost Cities: the outcome count shrinks with the deck and F of the game as dealt is not 0.
    return EnvironmentEnv("lost-cities", ["random"] * 2, LUDO_COEFFICIENTS, **kwargs)


def masked_choice(rng, info):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def play_episode(env, seed, policy_seed=0):
    """(observations, rewards, flags, chosen outcomes) of one episode under a masked random
    policy."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    observations, rewards, flags, chosen = [obs], [], [], []
    done = False
    while not done:
        action = masked_choice(rng, info)
        chosen.append(info["outcomes"][action])
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        rewards.append(reward)
        flags.append((terminated, truncated))
        done = terminated or truncated
    return observations, rewards, flags, chosen


def test_signatures_and_spaces():
    env = ludo_env(seed=1)
    reset = inspect.signature(env.reset).parameters
    assert reset["seed"].default is None and reset["options"].default is None
    assert list(inspect.signature(env.step).parameters) == ["action"]
    assert env.action_space.n == 6  # Ludo's die
    features = len(ddalab.Game("ludo").new_initial_state(0).features())
    assert env.observation_space.shape == (features + 6,)
    assert env.observation_space.dtype == np.float32
    obs, info = env.reset(seed=5)
    assert isinstance(info, dict)
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (6,)
    assert env.action_space.contains(env.action_space.sample())
    assert env.render() is None
    ansi = ludo_env(render_mode="ansi")
    ansi.reset(seed=5)
    assert ansi.render() == ansi.state.to_string()
    env.close()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_episode_rewards_and_termination():
    env = ludo_env()
    observations, rewards, flags, _ = play_episode(env, seed=11)
    assert all(type(r) is float for r in rewards)
    assert all(env.observation_space.contains(o) for o in observations)
    assert all(isinstance(t, bool) and isinstance(u, bool) for t, u in flags)
    assert flags[-1] == (True, False) and env.state.is_terminal()
    assert all(f == (False, False) for f in flags[:-1])  # nothing ends early or twice
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_max_rounds_truncates_not_terminates():
    env = ludo_env(max_rounds=5)
    _, _, flags, _ = play_episode(env, seed=11)
    assert flags[-1] == (False, True)
    assert env.state.rounds() == 5 and not env.state.is_terminal()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_return_is_final_fun_of_the_game_stepped_by_hand():
    # Lost Cities: its F as dealt is not 0 (so a return counted from it would differ) and its
    # outcome count varies (so action i must be the i-th outcome of that node).
    for make, seed in ((ludo_env, 3), (lost_cities_env, 1)):
        env = make()
        assert make is ludo_env or env.reset(seed=seed)[1]["fun"] != 0  # F before the 1st decision
        _, rewards, _, chosen = play_episode(env, seed=seed, policy_seed=seed)
        experiment = env.experiment
        state = experiment.game.new_initial_state(seed)
        lineup = experiment.lineup()
        for outcome in chosen:
            while not state.is_environment_node():
                state.apply(lineup.choose(state))
            state.apply(outcome)
        while not state.is_terminal():
            assert not state.is_environment_node()
            state.apply(lineup.choose(state))
        assert sum(rewards) == pytest.approx(state.fun(env.coefficients), rel=1e-9, abs=1e-6)
        assert env.state.to_string() == state.to_string()


def test_determinism_under_a_seed():
    first = play_episode(ludo_env(), seed=21, policy_seed=2)
    again = play_episode(ludo_env(), seed=21, policy_seed=2)
    other = play_episode(ludo_env(), seed=22, policy_seed=2)
    assert first[3] == again[3] and first[1] == again[1]
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0]))
    assert first[3] != other[3]
    # Seedless resets draw the game seeds from the constructor's seed, then from reset's.
    seeds = [[env.reset()[1]["seed"] for _ in range(3)] for env in (ludo_env(seed=9),
                                                                     ludo_env(seed=9))]
    assert seeds[0] == seeds[1] and len(set(seeds[0])) == 3
    env = ludo_env(seed=1)
    env.reset(seed=40)
    after_40 = env.reset()[1]["seed"]
    env = ludo_env(seed=2)
    env.reset(seed=40)
    assert env.reset()[1]["seed"] == after_40


def test_mask_and_observation_follow_the_node():
    env = lost_cities_env()
    obs, info = env.reset(seed=8)
    rng = np.random.default_rng(0)
    counts = set()
    for _ in range(60):
        outcomes = env.state.chance_outcomes()
        k = len(outcomes)
        counts.add(k)
        expected = np.zeros(env.max_outcomes, dtype=np.int8)
        expected[:k] = 1
        assert np.array_equal(info["action_mask"], expected)
        assert info["outcomes"] == [a for a, _ in outcomes]
        probabilities = np.zeros(env.max_outcomes, dtype=np.float32)
        probabilities[:k] = [p for _, p in outcomes]
        assert np.array_equal(obs[env.num_features:], probabilities)
        assert np.array_equal(obs[:env.num_features],
                              np.asarray(env.state.features(), dtype=np.float32))
        action = masked_choice(rng, info)
        obs, _, terminated, _, info = env.step(action)
        if terminated:
            break
    assert len(counts) > 1  # the deck shrank: the mask really varied


def test_invalid_actions_are_refused_and_change_nothing():
    env = lost_cities_env()
    obs, info = env.reset(seed=8)
    valid = int(info["action_mask"].sum())
    assert valid < env.max_outcomes
    before = env.state.to_string()
    for bad in (valid, env.max_outcomes, -1, 2.0, True, "0", np.array([0])):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.state.to_string() == before
    env.step(np.int64(valid - 1))  # numpy integers are actions


def test_invalid_actions_drawn_naturally_when_asked():
    """invalid_action="natural": an action outside the mask (but inside the action space) plays
    the natural draw, e-random's, and says so; the episode is the runner's e-random game."""
    env = lost_cities_env(invalid_action="natural")
    reference = lost_cities_env()
    _, info = env.reset(seed=8)
    reference.reset(seed=8)
    steps = invalid_steps = 0
    done = False
    while not done:
        valid = int(info["action_mask"].sum())
        action = env.max_outcomes - 1 if steps % 2 and valid < env.max_outcomes else valid - 1
        expected = reference.natural_action() if action >= valid else action
        _, _, terminated, truncated, info = env.step(action)
        assert info["invalid_action"] == (action >= valid)
        reference.step(expected)
        assert env.state.to_string() == reference.state.to_string()
        invalid_steps += info["invalid_action"]
        steps += 1
        done = terminated or truncated
    assert invalid_steps > 0 and steps > invalid_steps
    with pytest.raises(ValueError):  # outside the action space it is still refused
        env2 = lost_cities_env(invalid_action="natural")
        env2.reset(seed=8)
        env2.step(env2.max_outcomes)
    with pytest.raises(ValueError, match="invalid_action"):
        lost_cities_env(invalid_action="skip")


def test_hostile_arguments():
    with pytest.raises(ddalab.InputError):
        EnvironmentEnv("no-such-game", ["random"], {"tension": 1})
    with pytest.raises(ddalab.InputError):
        EnvironmentEnv("ludo", ["random"] * 3, LUDO_COEFFICIENTS)  # 4 seats
    for kwargs in ({"max_rounds": 0}, {"max_rounds": True}, {"seed": -1}, {"max_outcomes": 0},
                   {"render_mode": "human"}, {"game_params": {"players": 2}}):
        with pytest.raises(ValueError):
            EnvironmentEnv(ddalab.Game("ludo"), ["random"] * 4, LUDO_COEFFICIENTS, **kwargs)
    for players in ("random", {"id": "random"}, 4):
        with pytest.raises(ValueError, match="players"):
            EnvironmentEnv("ludo", players, LUDO_COEFFICIENTS)
    for seed in (-3, 2**64, 1.5):
        with pytest.raises(ValueError):
            ludo_env().reset(seed=seed)
    assert ludo_env().reset(seed=2**64 - 1)[1]["seed"] == 2**64 - 1
    with pytest.raises(ValueError):
        ludo_env().reset(options=[1])
    # Too small a K is said at the first node that exceeds it, never truncated silently.
    with pytest.raises(RuntimeError, match="max_outcomes"):
        ludo_env(max_outcomes=5).reset(seed=0)


def test_a_game_without_a_known_bound_needs_max_outcomes(monkeypatch):
    # As a plug-in game that declares no bounds (Game.max_chance_outcomes() is None).
    monkeypatch.setattr(rl, "default_max_outcomes", lambda game: None)
    with pytest.raises(ValueError, match="max_outcomes"):
        ludo_env()
    assert ludo_env(max_outcomes=6).action_space.n == 6


def test_default_bounds_are_the_games_declarations():
    # K as the rules give it (what this module hard-coded before the games declared it).
    for game, k in (("ludo", 6), ("lost-cities", 50), ("maze", 36), ("hexalines", 42)):
        assert rl.default_max_outcomes(ddalab.Game(game)) == k
        assert ddalab.Game(game).action_bounds()["max_chance_outcomes"] == k


def test_default_bounds_hold_in_playouts(tmp_path):
    catalogue = tmp_path / "three.txt"
    catalogue.write_text("# three shapes\naa....\n\na.a...  # a comment\na..a..\n")
    cases = [("ludo", {}, ["random"] * 4), ("lost-cities", {}, ["random"] * 2),
             ("maze", {}, ["random"]), ("hexalines", {}, ["random"] * 3),
             ("hexalines", {"catalogue_file": str(catalogue)}, ["random"] * 3)]
    for game, params, players in cases:
        env = EnvironmentEnv(game, players, {"tension": 1} if game != "maze" else {"lead": 1},
                             game_params=params)
        if params:
            assert env.max_outcomes == 3
        largest = 0
        for seed in range(3):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                largest = max(largest, int(info["action_mask"].sum()))
                _, _, terminated, truncated, info = env.step(env.natural_action())
                done = terminated or truncated
        assert 0 < largest <= env.max_outcomes
        if game == "ludo":
            assert largest == 6


def test_natural_action_plays_the_runners_e_random_games(cli, tmp_path):
    batch = {"format": "ddalab-batch/1", "seed": 7, "experiments": [{
        "name": "ludo/e-random", "game": {"id": "ludo", "params": {"players": 4}},
        "players": [{"id": "maxn", "level": 50}] + [{"id": "maxn", "level": 100}] * 3,
        "environment": {"id": "e-random"}, "coefficients": LUDO_COEFFICIENTS,
        "iterations": 8}]}
    (tmp_path / "batch.json").write_text(json.dumps(batch))
    subprocess.run([cli, "run", str(tmp_path / "batch.json"), "--threads", "1", "-q", "-o",
                    str(tmp_path / "out")], check=True, capture_output=True)
    with open(tmp_path / "out" / "ludo__e-random.games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8
    experiment = batch["experiments"][0]
    env = EnvironmentEnv("ludo", experiment["players"], LUDO_COEFFICIENTS,
                         game_params={"players": 4})
    for row in rows:
        env.reset(seed=int(row["seed"]))
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, _ = env.step(env.natural_action())
            total += reward
            done = terminated or truncated
        metrics = env.state.metrics()
        assert env.state.rounds() == int(row["rounds"])
        assert env.state.winner() == int(row["winner"])
        for key in LUDO_COEFFICIENTS:
            assert metrics[key] == pytest.approx(float(row[key]), rel=1e-12, abs=1e-12), key
        assert total == pytest.approx(env.state.fun(LUDO_COEFFICIENTS), rel=1e-9)


def test_stand_in_spaces():
    space = Discrete(4, seed=0)
    assert space.n == 4 and space.shape == () and space.dtype == np.int64
    assert all(space.contains(space.sample()) for _ in range(50))
    assert 3 in space and 4 not in space and -1 not in space
    assert not space.contains(1.0) and not space.contains(True)
    mask = np.array([0, 0, 1, 0], dtype=np.int8)
    assert {int(space.sample(mask)) for _ in range(20)} == {2}
    with pytest.raises(ValueError):
        space.sample(np.zeros(4, dtype=np.int8))
    with pytest.raises(ValueError):
        Discrete(0)
    box = Box(-np.inf, np.inf, (3,), np.float32, seed=0)
    assert box.shape == (3,) and box.dtype == np.float32
    assert box.contains(box.sample())
    assert not box.contains(np.zeros(3, dtype=np.float64))  # not float32
    assert not box.contains(np.zeros(4, dtype=np.float32))
    assert not box.contains([0.0, 0.0, 0.0])
    bounded = Box(0, 1, (2,))
    assert bounded.contains(np.array([0.5, 1.0], dtype=np.float32))
    assert not bounded.contains(np.array([0.5, 1.5], dtype=np.float32))


def test_spaces_are_gymnasiums_when_it_is_there():
    if rl.GYMNASIUM:
        import gymnasium
        assert isinstance(ludo_env(), gymnasium.Env)
        assert isinstance(ludo_env().action_space, gymnasium.spaces.Discrete)
    else:
        assert isinstance(ludo_env().action_space, Discrete)
        assert isinstance(ludo_env().observation_space, Box)


def test_gymnasium_check_env():
    gymnasium = pytest.importorskip(
        "gymnasium", reason="gymnasium is not installed (not a Debian package); "
        "test_signatures_and_spaces and the others check the same contract without it")
    from gymnasium.utils.env_checker import check_env
    check_env(ludo_env(seed=0), skip_render_check=True)
    # Lost Cities' nodes have fewer outcomes than the action space: check_env samples without
    # the mask, so the natural draw stands in for an action outside it.
    check_env(lost_cities_env(seed=0, invalid_action="natural"), skip_render_check=True)


def resident_kib():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    import resource
    return pages * resource.getpagesize() // 1024


def test_no_memory_growth_over_1e5_steps():
    # 10^5 steps with the cheapest seats ('random'); a warm-up first so that caches and the
    # allocator's pools are in place. A State or a Lineup kept per step would add 10^5 of them.
    env = ludo_env(seed=3)
    obs, info = env.reset()

    def run(steps):
        nonlocal info
        for _ in range(steps):
            _, _, terminated, truncated, info = env.step(env.natural_action())
            if terminated or truncated:
                _, info = env.reset()

    run(10_000)
    before = resident_kib()
    start = time.perf_counter()
    run(100_000)
    elapsed = time.perf_counter() - start
    growth = resident_kib() - before
    print(f"10^5 steps in {elapsed:.1f} s; resident memory grew by {growth} KiB")
    assert growth < 4096
