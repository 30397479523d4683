#!/usr/bin/env python3
"""Why POSM and Dynamic Level lose in Lost Cities (thesis 6.3): from `ddalab run --trace`
traces of the lc-* comparisons, per row and seat, how often a move opens a new expedition
(a colour the player has not played yet: worth -20 points until it reaches 20) when the
player leads (status > 0 before its move) and when it does not, how many expeditions a player
has started by the end, and its final score.

    build/app/cli/ddalab run experiments/investigations/lc-dda-traces.json --out OUT --trace TRACES
    python3 scripts/lc_dda_traces.py TRACES/*.trace.jsonl"""
import json
import sys


def analyse(path):
    seats = {}
    games = 0
    for line in open(path):
        game = json.loads(line)
        games += 1
        players = game["players"]
        statuses = game["initial"]["statuses"]
        started = [set() for _ in players]
        for rnd in game["rounds"]:
            actor = rnd["actor"]
            for action in rnd["actions"]:
                if action["by"] != "player" or not action["text"].startswith("play "):
                    if action["by"] == "player":
                        key = (actor, "leading" if statuses[actor] > 0 else "not leading")
                        seats.setdefault(key, [0, 0])[0] += 1
                    continue
                colour = action["text"][5]
                key = (actor, "leading" if statuses[actor] > 0 else "not leading")
                entry = seats.setdefault(key, [0, 0])
                entry[0] += 1
                if colour not in started[actor]:
                    entry[1] += 1
                    started[actor].add(colour)
            statuses = rnd["statuses"]
        for p, colours in enumerate(started):
            totals = seats.setdefault((p, "expeditions"), [0, 0])
            totals[0] += len(colours)
            totals[1] += game["result"]["scores"][p]
    return game["experiment"], players, games, seats


def main():
    print("| row | seat | moves when leading: new expedition | when not leading | expeditions per game | final gain per game |")
    print("|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        experiment, players, games, seats = analyse(path)
        for p, player in enumerate(players):
            cells = []
            for state in ("leading", "not leading"):
                moves, opened = seats.get((p, state), [0, 0])
                cells.append(f"{opened}/{moves} = {100 * opened / moves:.1f} %" if moves else "–")
            expeditions, score = seats[(p, "expeditions")]
            print(f"| {experiment} | {p} {player['id']}:{player['level']} | {cells[0]} | {cells[1]} | "
                  f"{expeditions / games:.2f} | {score / games:.0f} |")


if __name__ == "__main__":
    main()
