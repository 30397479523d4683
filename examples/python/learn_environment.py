#!/usr/bin/env python3
"""A learned environment player for 4-player Ludo (the thesis comparison ludo-4mn).

The agent is the environment player of ddalab.rl.EnvironmentEnv: it picks each die face. Its
policy is a linear softmax over per-outcome features, trained with numpy alone by the
cross-entropy method (CEM) to maximise the episode's return, which is the game's final F under
ludo-4mn's thesis coefficients (read from experiments/thesis/ludo-4mn.json).

Per-outcome features (for outcome i of the current node), from a clone of the state with the
outcome applied: each term c_k * (metric_k after - metric_k now) of F's change, in thousands
(F's change split by metric, so the policy can weigh the terms); a one-hot of i (a bias per face);
and (face - mean face) x the status of the seat to move, over the game's status scale (lets the
policy learn to favour trailing seats, the usual rubber band).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/learn_environment.py
    ... --check   # the benchmark: retrain at the documented budget, exit 1 below the level

Writes docs/img/python-learning-curve.png and examples/python/ludo-policy.json (the weights),
prints the evaluation table (the learned policy against e-random on the same seeds, paired).
docs/python.md ("Reinforcement learning") reports the numbers of one run.
"""
import argparse
import json
import math
import pathlib
import sys
import time

import numpy as np

import ddalab
from ddalab.rl import EnvironmentEnv

REPO = pathlib.Path(__file__).resolve().parents[2]
BATCH = REPO / "experiments" / "thesis" / "ludo-4mn.json"

# The budget docs/python.md documents (one core): CEM generations x population x games each.
GENERATIONS = 10
POPULATION = 12
ELITES = 3
GAMES_PER_CANDIDATE = 4
EVALUATION_GAMES = 200
# --check passes when the learned policy's mean F over the evaluation games reaches this level
# (docs/python.md: e-random's mean there is about -66000; the learned policy's about -14000) and
# its paired interval against e-random lies above 0.
CHECK_LEVEL = -30000.0
TRAIN_SEED_BASE = 10**6  # training games' seeds: disjoint from the evaluation seeds 0..N-1


def thesis_experiment(path):
    """ludo-4mn's e-random row: the game, the seats and the coefficients F is scored with."""
    with open(path, encoding="utf-8") as f:
        batch = json.load(f)
    for experiment in batch["experiments"]:
        if experiment.get("environment", {}).get("id") == "e-random":
            return experiment
    raise SystemExit(f"{path}: no experiment with environment e-random")


class LinearSoftmaxPolicy:
    """pi(i | s) proportional to exp(theta . phi(s, i)); phi as in the module docstring."""

    def __init__(self, coefficients, status_scale, max_outcomes):
        self.keys = sorted(coefficients)
        better = {m["key"]: m["better"] for m in ddalab.metrics()}
        # F's term of metric k is c_k * sign_k * m_k, sign_k = -1 where lower is better.
        self.factors = [coefficients[k] * (-1.0 if better[k] == "lower" else 1.0) / 1000.0
                        for k in self.keys]
        self.scale = status_scale
        self.k = max_outcomes
        self.dim = len(self.keys) + self.k + 1

    @classmethod
    def of(cls, env):
        return cls(env.coefficients, env.game.status_scale(), env.max_outcomes)

    def features(self, state, outcomes):
        """phi(state, i) for every outcome i (rows) of `outcomes`, the (action, probability)
        pairs of `state`'s environment node; plain Python: numpy per outcome would cost more
        than the game itself."""
        now = state.metrics()
        base = [now[k] for k in self.keys]
        mean_face = sum(a for a, _ in outcomes) / len(outcomes)
        rows = []
        for i, (action, _) in enumerate(outcomes):
            after = state.clone()
            after.apply(action)
            metrics = after.metrics()
            row = [f * (metrics[k] - b) for k, f, b in zip(self.keys, self.factors, base)]
            one_hot = [0.0] * self.k
            one_hot[i] = 1.0
            mover = after.current_player()
            rubber = ((action - mean_face) * after.statuses()[mover] / self.scale
                      if mover >= 0 else 0.0)
            rows.append(row + one_hot + [rubber])
        return np.array(rows)

    def act(self, theta, state, outcomes, uniform):
        """The index of the outcome drawn by pi(. | state), `uniform` a draw in [0, 1)."""
        logits = self.features(state, outcomes) @ theta
        p = np.exp(logits - logits.max())
        cumulative = np.cumsum(p)
        return int(min(np.searchsorted(cumulative, uniform * cumulative[-1], side="right"),
                       len(p) - 1))


def play(env, policy, theta, seed, metrics=None):
    """One game of `seed` under `theta` (None: e-random, the env's natural draw); its F (the
    episode's return). `metrics`: a dict of lists the game's final metrics are appended to."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)  # the policy's own draws, fixed by the game's seed
    total, done = 0.0, False
    while not done:
        action = (env.natural_action() if theta is None
                  else policy.act(theta, env.state, env.outcomes(), rng.random()))
        _, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    if metrics is not None:
        final = env.state.metrics()
        for key, values in metrics.items():
            values.append(final[key])
    return total


def train(env, policy, log=print):
    """CEM over theta; returns (mean theta, curve rows)."""
    rng = np.random.default_rng(2016)
    mean = np.zeros(policy.dim)
    std = np.full(policy.dim, 2.0)
    curve = []
    for generation in range(GENERATIONS):
        seeds = [TRAIN_SEED_BASE + generation * GAMES_PER_CANDIDATE + j
                 for j in range(GAMES_PER_CANDIDATE)]
        candidates = mean + std * rng.standard_normal((POPULATION, policy.dim))
        scores = np.array([np.mean([play(env, policy, c, s) for s in seeds])
                           for c in candidates])
        baseline = np.mean([play(env, None, None, s) for s in seeds])
        elite = candidates[np.argsort(scores)[-ELITES:]]
        mean = elite.mean(axis=0)
        std = elite.std(axis=0) + 0.05  # a floor keeps exploring
        curve.append({"generation": generation + 1, "population_mean": float(scores.mean()),
                      "elite_mean": float(np.sort(scores)[-ELITES:].mean()),
                      "e_random": float(baseline)})
        log(f"generation {generation + 1:2d}: population mean F {scores.mean():10.1f}, "
            f"elite mean {curve[-1]['elite_mean']:10.1f}, e-random on these seeds "
            f"{baseline:10.1f}")
    return mean, curve


def paired_interval(differences):
    """Mean and 95 % t interval of paired differences."""
    d = np.asarray(differences)
    n = len(d)
    try:
        from scipy.stats import t
        q = t.ppf(0.975, n - 1)
    except ImportError:
        q = 1.96
    half = q * d.std(ddof=1) / math.sqrt(n)
    return d.mean(), d.mean() - half, d.mean() + half


REPORTED = ["rounds", "believability", "tension", "lead", "leading_time"]


def evaluate(env, policy, theta, games):
    """The learned policy and e-random on the same seeds 0..games-1: (F, metrics) of each."""
    learned_metrics = {k: [] for k in REPORTED}
    natural_metrics = {k: [] for k in REPORTED}
    learned = np.array([play(env, policy, theta, s, learned_metrics) for s in range(games)])
    natural = np.array([play(env, None, None, s, natural_metrics) for s in range(games)])
    return (learned, learned_metrics), (natural, natural_metrics)


class LearnedEnvironmentPlayer:
    """The learned policy as an environment player of a batch (ddalab.register_environment):
    it draws from pi with the environment player's own stream, so a batch stays reproducible."""

    def __init__(self, policy, theta):
        self.policy, self.theta = policy, theta

    def choose(self, state, outcomes, rng, nature):
        return outcomes[self.policy.act(self.theta, state, outcomes, rng.uniform())][0]


def register_learned(weights, player_id="e-learned"):
    """Registers the policy of `weights` (the JSON this script writes) as `player_id`."""
    saved = json.loads(pathlib.Path(weights).read_text())
    game = ddalab.Game(saved["game"]["id"], saved["game"].get("params"))
    policy = LinearSoftmaxPolicy(saved["coefficients"], game.status_scale(),
                                 saved["features"]["outcome_one_hot"])
    theta = np.array(saved["theta"], dtype=float)
    if theta.shape != (policy.dim,):
        raise SystemExit(f"{weights}: theta: expected {policy.dim} weights, got {theta.shape}")
    ddalab.register_environment(
        player_id, lambda setup: LearnedEnvironmentPlayer(policy, theta),
        "learned by examples/python/learn_environment.py (linear softmax, CEM)")
    return saved


def fun_of_row(row, coefficients, better):
    """F of one game from its games-CSV row: sum of c_k * sign_k * m_k."""
    return sum(c * (-1.0 if better[k] == "lower" else 1.0) * float(row[k])
               for k, c in coefficients.items())


def batch_check(weights, games, out):
    """The learned player in a batch, in one comparison with e-random and e-hillclimber on
    paired seeds: mean F per row, the paired difference, the detectability test's rows."""
    import csv
    saved = register_learned(weights)
    experiment = thesis_experiment(BATCH)
    rows = []
    for environment in ("e-random", "e-learned", "e-hillclimber"):
        row = dict(experiment, name=f"ludo-4mn-learned/{environment}",
                   comparison="ludo-4mn-learned", environment={"id": environment},
                   iterations=games)
        rows.append(row)
    batch = {"format": "ddalab-batch/1", "seed": 2016, "experiments": rows,
             "description": "ludo-4mn: the learned environment player against e-random and "
                            "e-hillclimber"}
    ddalab.run(batch, threads=1, out=str(out), progress=False)
    better = {m["key"]: m["better"] for m in ddalab.metrics()}
    fun = {}
    for row in rows:
        stem = row["name"].replace("/", "__")
        with open(pathlib.Path(out) / f"{stem}.games.csv", newline="") as f:
            fun[row["environment"]["id"]] = np.array(
                [fun_of_row(r, saved["coefficients"], better) for r in csv.DictReader(f)])
    print(f"batch: {games} games a row, seed 2016, results in {out}")
    print("| environment | mean F [95 % interval] | paired difference to e-random |")
    print("|---|---|---|")
    for name, values in fun.items():
        _, lo, hi = paired_interval(values)
        diff = ("" if name == "e-random" else
                "%.0f [%.0f, %.0f]" % paired_interval(values - fun["e-random"]))
        print(f"| {name} | {values.mean():.0f} [{lo:.0f}, {hi:.0f}] | {diff} |")
    with open(pathlib.Path(out) / "ludo-4mn-learned.detectability.csv", newline="") as f:
        print("| experiment | seat | outcomes | chi2 | p | detected | games to detect |")
        print("|---|---|---|---|---|---|---|")
        for r in csv.DictReader(f):
            print(f"| {r['experiment']} | {r['seat']} | {r['outcomes']} | "
                  f"{float(r['chi2']):.1f} | {float(r['p']):.3g} | {r['detected']} | "
                  f"{r['games_to_detect'] or ''} |")
    return 0


def plot(curve, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = [row["generation"] for row in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(x, [row["population_mean"] for row in curve], marker="o", label="CEM population mean")
    ax.plot(x, [row["elite_mean"] for row in curve], marker="^", label="elite mean")
    ax.plot(x, [row["e_random"] for row in curve], ls="--", color="grey",
            label="e-random, same seeds")
    ax.set_xlabel("generation (%d candidates x %d games)" % (POPULATION, GAMES_PER_CANDIDATE))
    ax.set_yscale("symlog", linthresh=1000)  # generation 1's worst candidates reach -1e8
    ax.set_ylabel("mean F of a game (symlog)")
    ax.set_title("Learned environment player, 4-player Ludo (Max^n seats)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=pathlib.Path, default=BATCH,
                        help="the batch whose e-random row gives game, seats and coefficients")
    parser.add_argument("--plot", type=pathlib.Path,
                        default=REPO / "docs" / "img" / "python-learning-curve.png")
    parser.add_argument("--weights", type=pathlib.Path,
                        default=REPO / "examples" / "python" / "ludo-policy.json")
    parser.add_argument("--games", type=int, default=EVALUATION_GAMES,
                        help="evaluation games (seeds 0..N-1)")
    parser.add_argument("--check", action="store_true",
                        help="benchmark: write nothing; exit 1 when the learned mean F is below "
                             f"{CHECK_LEVEL:.0f} or not above e-random's")
    parser.add_argument("--in-batch", type=int, metavar="GAMES",
                        help="no training: play the policy of --weights as a registered "
                             "environment player in a batch with e-random and e-hillclimber, "
                             "GAMES games a row, and print F and the detectability test")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/ddalab-learned"),
                        help="with --in-batch: the results folder (must not exist)")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games: expected at least 2")
    if args.in_batch is not None:
        if args.in_batch < 2:
            parser.error("--in-batch: expected at least 2 games")
        if not hasattr(ddalab, "register_environment"):
            parser.error("--in-batch: this ddalab has no register_environment")
        if args.out.exists():
            parser.error(f"--out: {args.out} exists; give a new folder")
        return batch_check(args.weights, args.in_batch, args.out)
    experiment = thesis_experiment(args.batch)
    env = EnvironmentEnv(experiment["game"]["id"], experiment["players"],
                         experiment["coefficients"], game_params=experiment["game"].get("params"))
    policy = LinearSoftmaxPolicy.of(env)
    start, cpu = time.perf_counter(), time.process_time()
    theta, curve = train(env, policy)
    trained, trained_cpu = time.perf_counter() - start, time.process_time() - cpu
    games = GENERATIONS * GAMES_PER_CANDIDATE * (POPULATION + 1)
    print(f"training: {games} games in {trained:.1f} s wall, {trained_cpu:.1f} s CPU")
    start, cpu = time.perf_counter(), time.process_time()
    (learned, learned_metrics), (natural, natural_metrics) = evaluate(env, policy, theta,
                                                                      args.games)
    evaluated, evaluated_cpu = time.perf_counter() - start, time.process_time() - cpu
    mean, low, high = paired_interval(learned - natural)
    print(f"evaluation: {args.games} seeds x 2 policies in {evaluated:.1f} s wall, "
          f"{evaluated_cpu:.1f} s CPU")
    print("| policy | mean F [95 % interval] | " + " | ".join(REPORTED) + " |")
    print("|---|---|" + "---|" * len(REPORTED))
    for name, values, metrics in (("e-random", natural, natural_metrics),
                                  ("learned (CEM)", learned, learned_metrics)):
        _, lo, hi = paired_interval(values)
        print(f"| {name} | {values.mean():.0f} [{lo:.0f}, {hi:.0f}] | "
              + " | ".join(f"{np.mean(metrics[k]):.2f}" for k in REPORTED) + " |")
    print(f"| learned - e-random (paired) | {mean:.0f} [{low:.0f}, {high:.0f}] |"
          + " |" * len(REPORTED))
    if args.check:
        ok = learned.mean() >= CHECK_LEVEL and low > 0
        print(f"check: learned mean F {learned.mean():.0f} (level {CHECK_LEVEL:.0f}), paired "
              f"lower bound {low:.0f} (> 0): {'pass' if ok else 'FAIL'}")
        return 0 if ok else 1
    plot(curve, args.plot)
    args.weights.parent.mkdir(parents=True, exist_ok=True)
    args.weights.write_text(json.dumps({
        "game": experiment["game"], "players": experiment["players"],
        "coefficients": experiment["coefficients"], "features": {
            "metric_terms": policy.keys, "outcome_one_hot": policy.k,
            "face_times_mover_status": 1},
        "theta": [float(x) for x in theta], "curve": curve,
        "training_games": games, "training_cpu_seconds": round(trained_cpu, 1),
    }, indent=1) + "\n")
    print(f"wrote {args.plot} and {args.weights}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
