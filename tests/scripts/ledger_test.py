#!/usr/bin/env python3
"""scripts/ledger.py recomputes what ddalab computes (so its variants differ from ddalab's
numbers only by what they toggle): on 30 traced games of two ludo-2hc rows, its scores equal
ddalab's <comparison>.scores.csv, its win_ratio the summary's, its leading_time (ties: no leader)
and believability (T 1, penalty 5) every game's CSV value; a folder that is not one is refused.

    python3 tests/scripts/ledger_test.py path/to/ddalab"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ledger  # noqa: E402


def check(condition, message):
    if not condition:
        raise SystemExit(f"ledger_test: FAIL: {message}")


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def main():
    ddalab = sys.argv[1]
    batch = json.loads((ROOT / "experiments" / "thesis" / "ludo-2hc.json").read_text())
    batch["experiments"] = [e for e in batch["experiments"]
                            if e["name"].split("/")[-1] in ("e-random", "e-hillclimber")]
    for experiment in batch["experiments"]:
        experiment["iterations"] = 30
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "batch.json").write_text(json.dumps(batch))
        out = tmp / "out"
        subprocess.run([ddalab, "run", str(tmp / "batch.json"), "--out", str(out), "--threads",
                        "1", "-q", "--trace", str(tmp / "traces")], check=True,
                       stdout=subprocess.DEVNULL)
        rows = ledger.load_rows(out, "ludo-2hc")
        check(set(rows) == {"e-random", "e-hillclimber"}, f"rows read: {sorted(rows)}")
        ours = ledger.scores(rows)
        for line in ledger.read_csv(out / "ludo-2hc.scores.csv"):
            name = line["experiment"].split("/")[-1]
            check(close(ours[name][0], float(line["score9"])),
                  f"{name} score9 {ours[name][0]} != ddalab's {line['score9']}")
            check(close(ours[name][1], float(line["score4"])),
                  f"{name} score4 {ours[name][1]} != ddalab's {line['score4']}")
        for name, row in rows.items():
            summary = {r["metric"]: r for r in ledger.read_csv(out / f"ludo-2hc__{name}.summary.csv")}
            check(close(ledger.win_ratio(row.winners, row.seats),
                        float(summary["win_ratio"]["mean"])), f"{name} win_ratio")
            games = ledger.read_traces(tmp / "traces" / f"ludo-2hc__{name}.trace.jsonl")
            check(len(games) == 30, f"{name}: {len(games)} traced games")
            for game in games:
                metrics = game["result"]["metrics"]
                check(close(ledger.leading_time(game, "none"), metrics["leading_time"]),
                      f"{name} game {game['iteration']} leading_time")
                check(close(ledger.ludo_believability(game, 1.0, 5.0), metrics["believability"]),
                      f"{name} game {game['iteration']} believability")
        refused = subprocess.run([sys.executable, str(ROOT / "scripts" / "ledger.py"),
                                  str(tmp / "batch.json")], capture_output=True, text=True)
        check(refused.returncode != 0 and "not a folder" in refused.stderr,
              f"a file as OUT: rc {refused.returncode}, {refused.stderr!r}")
    print("ledger_test: ok")


if __name__ == "__main__":
    main()
