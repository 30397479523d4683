#!/usr/bin/env bash
# End-to-end checks of the ddalab CLI: exit codes, messages and the files a run writes.
# Usage: cli_test.sh DDALAB_BINARY SOURCE_DIR
set -uo pipefail
ddalab=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN COMMAND...: exit code CODE and PATTERN somewhere in stdout+stderr.
expect() {
  local code=$1 pattern=$2
  shift 2
  local output
  output=$("$@" 2>&1)
  local got=$?
  [ "$got" -eq "$code" ] || fail "$* exited $got, expected $code: $output"
  grep -q -- "$pattern" <<<"$output" || fail "$* printed no '$pattern': $output"
}

# Every shipped experiment file is valid.
for f in "$src"/experiments/*.json "$src"/experiments/thesis/*.json "$src"/experiments/studies/*.json \
  "$src"/experiments/sweeps/*.json; do
  expect 0 ": ok" "$ddalab" validate "$f"
done

# Bad usage and bad input give exit code 2 and say what and where.
expect 2 "unknown command" "$ddalab" frobnicate
expect 2 "usage" "$ddalab"
expect 0 "^ddalab [0-9][0-9.]*$" "$ddalab" --version
expect 2 "cannot open" "$ddalab" run "$work/missing.json"
printf '{"format": "ddalab-batch/1", "seed": 1, "experiments": [{"name": "x", "game": {"id": "lud"}, "players": [], "iterations": 1}]}' >"$work/bad.json"
expect 2 "bad.json: \$.experiments\[0\].game.id: unknown game 'lud'; valid: ludo" "$ddalab" run "$work/bad.json"
expect 2 "unrecognised option\|unrecognized option" "$ddalab" run "$src/experiments/quick.json" --thredas 2
expect 2 "unknown list" "$ddalab" list colours
expect 0 "e-hillclimber" "$ddalab" list players
expect 0 "--threads" "$ddalab" run --help
expect 0 "--scale" "$ddalab" bench --help

# A run writes the CSVs and the trace; score recomputes the same tables from them.
expect 0 "ratio to the best" "$ddalab" run "$src/experiments/quick.json" -n 6 -t 2 --seed 9 \
  --out "$work/out" --trace "$work/trace" --quiet
for f in batch.json summary.csv ludo-4hc.scores.csv ludo-4hc__e-random.games.csv \
  ludo-4hc__e-hillclimber.summary.csv; do
  [ -s "$work/out/$f" ] || fail "run wrote no $f"
done
[ "$(wc -l <"$work/out/ludo-4hc__e-random.games.csv")" -eq 7 ] || fail "games.csv is not header + 6 rows"
[ "$(wc -l <"$work/trace/ludo-4hc__e-hillclimber.trace.jsonl")" -eq 6 ] || fail "trace is not 6 lines"
"$ddalab" run "$work/out/batch.json" --out "$work/again" --quiet >"$work/again.txt" 2>&1 ||
  fail "batch.json of a run does not run again"
cmp -s "$work/out/ludo-4hc__e-random.games.csv" "$work/again/ludo-4hc__e-random.games.csv" ||
  fail "re-running batch.json gave different games"
"$ddalab" score "$work/out" >"$work/score.txt" 2>&1 || fail "score failed: $(cat "$work/score.txt")"
grep -q "score9" "$work/score.txt" || fail "score printed no scores"
expect 2 "summary.csv" "$ddalab" score "$work/nothing-here"

# A results folder written before the extended metrics (no drama..comeback columns) still
# scores: the thesis's tables as they were, the extended metrics named as unknown.
mkdir -p "$work/older"
for f in "$work/out"/*.games.csv "$work/out/summary.csv"; do
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i ~ /^(drama|decisiveness|uncertainty|comeback)$/) }
    { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line (line == "" ? "" : OFS) $i; print line }' \
    "$f" >"$work/older/$(basename "$f")"
done
cp "$work/out"/*.summary.csv "$work/out/batch.json" "$work/older/"
"$ddalab" score "$work/older" >"$work/older.txt" 2>&1 || fail "score of an older folder: $(cat "$work/older.txt")"
grep -q "drama: not scored (unknown" "$work/older.txt" || fail "the unknown metrics are not named"
# score9 and score4 of each row (the ratio table) as the folder with every column gives them
thesis_scores() { sed -n '/ratio to the best/,/^  note\|^  \*/p' "$1" | awk '/^  ludo-4hc\// {print $1, $(NF-2), $(NF-1)}'; }
[ -n "$(thesis_scores "$work/score.txt")" ] || fail "no ratio table rows in $work/score.txt"
[ "$(thesis_scores "$work/older.txt")" = "$(thesis_scores "$work/score.txt")" ] ||
  fail "an older folder's tables 8 and 9 differ: $(thesis_scores "$work/older.txt")"

# Sweeps: the expanded batch is a batch file that runs, --vary adds an axis, a bad axis is named.
sweep="$src/experiments/sweeps/ludo-4mn-random-prob-believability.json"
expect 0 "40 experiments" "$ddalab" sweep expand "$sweep" --out "$work/expanded.json"
expect 0 "ok (40 experiments" "$ddalab" validate "$work/expanded.json"
expect 0 "ludo-4hc/e-hillclimber@tension=0" "$ddalab" run "$src/experiments/quick.json" -n 2 \
  --vary coefficients.tension=0,30 --out "$work/vary" --quiet
[ -f "$work/vary/ludo-4hc@tension=30.scores.csv" ] || { echo "FAIL: no scores of the point tension=30"; failures=$((failures + 1)); }
expect 2 "--vary coefficients.tensoin: at the grid point tensoin=1" "$ddalab" sweep expand "$sweep" \
  --vary coefficients.tensoin=1
expect 2 "unknown action 'grow'" "$ddalab" sweep grow "$sweep"

# Shards: three shard folders merge into the files of one run; a missing shard is named.
"$ddalab" run "$src/experiments/quick.json" -n 5 --out "$work/one" --quiet >/dev/null 2>&1
for k in 0 1 2; do
  expect 0 "results: $work/shard$k" "$ddalab" run "$src/experiments/quick.json" -n 5 --shard $k/3 \
    --out "$work/shard$k" --quiet
done
expect 0 "merged 3 shards" "$ddalab" merge "$work/shard2" "$work/shard0" "$work/shard1" --out "$work/merged"
diff -r -x .ddalab "$work/one" "$work/merged" >/dev/null || fail "merged shards differ from one run"
expect 2 "shard 1/3 is missing" "$ddalab" merge "$work/shard0" "$work/shard2" --out "$work/merged2"
expect 2 "expected K/N" "$ddalab" run "$src/experiments/quick.json" --shard 3/3

# User studies: a protocol is validated (its mistakes named by file and JSON path), simulated
# participants' sessions are analysed, and the power of the shipped Ludo protocol is estimated.
study="$src/experiments/studies/user-study-ludo.json"
expect 0 "ok (3 conditions x 2 games" "$ddalab" study validate "$study"
sed 's/"latin-square"/"alphabetical"/' "$study" >"$work/bad-study.json"
expect 2 "bad-study.json: \$.order.scheme: expected \"latin-square\"" "$ddalab" study validate "$work/bad-study.json"
expect 0 "simulated 4 participants" "$ddalab" study simulate "$study" -n 4 --out "$work/pilot" \
  --effect enjoyment:e-hillclimber=1
expect 0 "Within participants" "$ddalab" study analyze "$work/pilot" --out "$work/pilot-analysis"
[ -s "$work/pilot-analysis/fitted-coefficients.json" ] || fail "study analyze wrote no fitted coefficients"
expect 0 "user-study-ludo/fitted" "$ddalab" run "$work/pilot-analysis/fitted-batch.json" --iterations 2 \
  --threads 2 --out "$work/fitted-run"
[ "$(wc -l <"$work/pilot/p03/answers.csv")" -eq 7 ] || fail "a simulated session is not 6 answered games"
# A session read twice or an answer off its scale is refused; a refused simulate creates nothing.
expect 2 "p01: is participant 'p01' of protocol 'user-study-ludo' again" "$ddalab" study analyze \
  "$work/pilot" "$work/pilot/p01"
cp -r "$work/pilot" "$work/pilot-edited"
sed -i 's/"enjoyment": [0-9.]*/"enjoyment": 99/' "$work/pilot-edited/p02/answers-01.json"
expect 2 "p02/answers-01.json: \$.answers.enjoyment: expected a whole number" "$ddalab" study analyze \
  "$work/pilot-edited"
expect 2 "expected 0 (every core) or 1..1024" "$ddalab" study simulate "$study" -n 2 --out "$work/pilot2" \
  --threads 5000
[ ! -e "$work/pilot2" ] || fail "a refused study simulate left $work/pilot2 behind"
expect 0 "simulated 2 participants" "$ddalab" study simulate "$study" -n 2 --out "$work/pilot2" --threads 1
expect 2 "unknown condition 'none'" "$ddalab" study simulate "$study" -n 2 --power 2 --effect enjoyment:none=1
expect 0 "detected" "$ddalab" study simulate "$study" -n 6 --power 3

# bench runs every workload on 1 and 2 threads with identical results, and writes them as
# batches that ddalab run runs.
expect 0 "signature: " "$ddalab" bench --scale 40
expect 0 "6-maze-41x41-hillclimber-thesis-set-up.json" "$ddalab" bench --scale 40 --batches "$work/bench"
expect 0 ": ok" "$ddalab" validate "$work"/bench/*.json

echo "$((failures == 0 ? 1 : 0)) passed, $failures failed"
[ "$failures" -eq 0 ]
