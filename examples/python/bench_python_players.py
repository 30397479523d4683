#!/usr/bin/env python3
"""What a Python player costs: µs per decision of a trivial Python player against the C++ one.

Four measurements, each the best of `repeats` runs of the same batch (the same games: a Python
`random` and `e-random` draw what the C++ ones draw, so both play identical games):

* regular: 4-player Ludo, every seat `random` (C++) or its Python copy, environment e-random;
* environment: 4-player Ludo, random seats, environment `e-random` or its Python copy;
* batch: experiments/quick.json's e-random row (Ludo 4, hill-climber seats, 200 games) with
  e-random or the Python e-random: the wall time of a realistic batch.

Per decision: the wall time of the whole run (game logic, the other players, writing the
results included) / the decisions the player took (counted by the Python player); the difference
between the two runs is the overhead of a decision taken in Python. Run from the repository with the module on the path:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/bench_python_players.py [threads]
"""
import json
import pathlib
import shutil
import sys
import tempfile
import time

import ddalab

HERE = pathlib.Path(__file__).resolve().parent
QUICK = HERE.parent.parent / "experiments" / "quick.json"
calls = {"regular": 0, "environment": 0}


class PyRandom:
    def __init__(self, setup):
        pass

    def choose(self, state, legal, rng):
        calls["regular"] += 1
        return legal[rng.below(len(legal))]


class PyNatural:
    def __init__(self, setup):
        pass

    def choose(self, state, outcomes, rng, nature):
        calls["environment"] += 1
        return ddalab.sample_outcome(outcomes, nature)


def run(batch, out, threads):
    ddalab.run(batch, out=str(out), threads=threads, progress=False)


def best_time(batch, threads, repeats):
    """The fastest of `repeats` runs of `batch` (seconds) and the Python calls of one run."""
    best = float("inf")
    for _ in range(repeats):
        folder = pathlib.Path(tempfile.mkdtemp(prefix="ddalab-bench-"))
        for key in calls:
            calls[key] = 0
        start = time.perf_counter()
        run(batch, folder / "out", threads)
        best = min(best, time.perf_counter() - start)
        shutil.rmtree(folder)
    return best, dict(calls)


def ludo(seat, environment, games):
    return {"format": "ddalab-batch/1", "seed": 5, "experiments": [{
        "name": "bench", "game": {"id": "ludo", "params": {"players": 4}},
        "players": [{"id": seat}] * 4, "environment": {"id": environment},
        "coefficients": {"fairness": 10, "tension": 10, "lead": 3}, "iterations": games}]}


def quick(environment):
    batch = json.loads(QUICK.read_text())
    row = batch["experiments"][0]
    row["environment"] = {"id": environment}
    batch["experiments"] = [row]
    return batch


def compare(label, cpp_batch, py_batch, kind, threads, repeats):
    cpp, _ = best_time(cpp_batch, threads, repeats)
    py, counted = best_time(py_batch, threads, repeats)
    decisions = counted[kind]
    print(f"{label:12s} threads={threads}: {decisions} decisions in Python; wall C++ {cpp:6.3f} s,"
          f" Python {py:6.3f} s; per decision C++ {cpp / decisions * 1e6:5.2f} µs, Python "
          f"{py / decisions * 1e6:5.2f} µs (+{(py - cpp) / decisions * 1e6:5.2f} µs)")

def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    repeats = 3
    ddalab.register_player("py-random", PyRandom, "random in Python (benchmark)")
    ddalab.register_environment("py-e-random", PyNatural, "e-random in Python (benchmark)")
    print(ddalab.build)
    compare("regular", ludo("random", "e-random", 400), ludo("py-random", "e-random", 400),
            "regular", threads, repeats)
    compare("environment", ludo("random", "e-random", 400), ludo("random", "py-e-random", 400),
            "environment", threads, repeats)
    compare("quick batch", quick("e-random"), quick("py-e-random"), "environment", threads, repeats)


if __name__ == "__main__":
    main()
