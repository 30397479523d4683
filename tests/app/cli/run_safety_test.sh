#!/usr/bin/env bash
# Runs that never lose or corrupt results, end to end through the CLI: SIGKILL at random
# points then --resume gives byte-identical files; SIGTERM, SIGHUP and a double Ctrl-C leave
# only complete files that `ddalab score` reads; busy, foreign and unwritable folders are refused
# before anything is computed; a failing disk gives exit 1 and no truncated file; a slow player
# stops within seconds; bad numbers in options and result files are refused.
# Usage: run_safety_test.sh DDALAB_BINARY
set -uo pipefail
ddalab=$1
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f", a - b }'; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }   # calc EXPRESSION
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }  # below A B: A < B

# expect CODE PATTERN COMMAND...: exit code CODE and PATTERN somewhere in stdout+stderr.
expect() {
  local code=$1 pattern=$2
  shift 2
  local output got
  output=$("$@" 2>&1)
  got=$?
  [ "$got" -eq "$code" ] || fail "$* exited $got, expected $code: ${output: -400}"
  grep -q -- "$pattern" <<<"$output" || fail "$* printed no '$pattern': ${output: -400}"
}

source "$(dirname "$0")/run_helpers.sh"  # same_files, games_checkpointed, handles_stops, ...

batch() {  # batch FILE GAMES: two Ludo experiments (no DDA and E-HillClimber) of GAMES games each
  cat >"$1" <<JSON
{"format": "ddalab-batch/1", "seed": 11, "experiments": [
 {"name": "hc/e-hillclimber", "comparison": "hc", "game": {"id": "ludo", "params": {"players": 4}},
  "players": [{"id": "hillclimber", "level": 50}, {"id": "hillclimber"}, {"id": "hillclimber"}, {"id": "hillclimber"}],
  "environment": {"id": "e-hillclimber"}, "coefficients": {"believability": 1000, "tension": 10, "lead": 3},
  "iterations": $2},
 {"name": "hc/e-random", "comparison": "hc", "game": {"id": "ludo", "params": {"players": 4}},
  "players": [{"id": "hillclimber", "level": 50}, {"id": "hillclimber"}, {"id": "hillclimber"}, {"id": "hillclimber"}],
  "iterations": $2}]}
JSON
}

batch "$work/b.json" 1500
start=$(now)
"$ddalab" run "$work/b.json" --out "$work/ref" -t 2 --quiet >/dev/null 2>&1 || fail "reference run failed"
reference_seconds=$(elapsed "$start")
echo "reference run: $reference_seconds s"

# SIGKILL at random points of the run, then --resume: byte-identical (1 and 2 threads).
for threads in 1 2; do
  for trial in 1 2 3; do
    out="$work/kill-$threads-$trial"
    pause=$(calc "$reference_seconds * (5 + $RANDOM % 90) / 100 * (3 - $threads)")
    "$ddalab" run "$work/b.json" --out "$out" -t "$threads" --quiet >/dev/null 2>&1 &
    pid=$!
    sleep "$pause"
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    "$ddalab" run "$work/b.json" --out "$out" -t "$threads" --resume --quiet >/dev/null 2>&1 ||
      fail "resume after SIGKILL at $pause s failed"
    same_files "$out" "$work/ref"
    no_temporary_files "$out"
  done
done

# A graceful stop by each signal: its exit code, only complete files, a folder score reads.
stop_with() {  # stop_with NAME CODE SIGNAL...
  local name=$1 code=$2 out="$work/$1"
  shift 2
  "$ddalab" run "$work/b.json" --out "$out" -t 2 --quiet >"$work/$name.txt" 2>&1 &
  local pid=$!
  handles_stops $pid || fail "$name: the stop signals were never handled"
  games_checkpointed "$out" || fail "$name: no game was checkpointed"
  for signal in "$@"; do
    kill -"$signal" $pid 2>/dev/null
    sleep 0.02
  done
  wait $pid
  local got=$?
  [ "$got" -eq "$code" ] || fail "$name: exit $got, expected $code"
  grep -q "resume" "$work/$name.txt" || fail "$name: no hint how to resume"
  [ -s "$out/summary.csv" ] || fail "$name: no summary.csv"
  "$ddalab" score "$out" >/dev/null 2>&1 || fail "$name: score cannot read the folder"
  no_temporary_files "$out"
  "$ddalab" run "$work/b.json" --out "$out" -t 2 --resume --quiet >/dev/null 2>&1 ||
    fail "$name: resume failed"
  same_files "$out" "$work/ref"
}
stop_with sigterm 143 TERM
stop_with sighup 129 HUP
stop_with sigint 130 INT
stop_with double-sigint 130 INT INT

# A folder in use by another run is refused, and so is one holding another batch.
"$ddalab" run "$work/b.json" --out "$work/busy" -t 1 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 2400); do [ -s "$work/busy/.ddalab.lock" ] && break; sleep 0.05; done  # <= 120 s
expect 2 "in use by another run" "$ddalab" run "$work/b.json" --out "$work/busy" --quiet
kill -TERM $pid
wait $pid
expect 2 "different batch" "$ddalab" run "$work/b.json" --out "$work/ref" --seed 5 --quiet
expect 2 "unfinished run" "$ddalab" run "$work/b.json" --out "$work/busy" --quiet
expect 0 "results" "$ddalab" run "$work/b.json" --out "$work/busy" --overwrite -n 3 --quiet

# Never onto the input file.
cp "$work/ref/batch.json" "$work/ref-batch.json"
expect 2 "input file" "$ddalab" run "$work/ref/batch.json" --out "$work/ref" --iterations 2 --quiet
expect 2 "input file" "$ddalab" run "$work/ref/batch.json" --out "$work/ref" --iterations 2 --overwrite --quiet
cmp -s "$work/ref/batch.json" "$work/ref-batch.json" || fail "the input batch.json was changed"

# An unwritable --out or --trace is found before anything is computed: no game checkpointed,
# no results written (a wall-clock bound failed on a loaded machine).
touch "$work/plain-file"
expect 2 "--out" "$ddalab" run "$work/b.json" --out "$work/plain-file/out" --quiet
expect 2 "--trace" "$ddalab" run "$work/b.json" --out "$work/t-out" --trace "$work/plain-file/t" --quiet
[ -z "$(find "$work/t-out" -name '*.journal' -o -name '*.csv' 2>/dev/null)" ] ||
  fail "a refused --trace computed games first: $(ls -A "$work/t-out")"

# A failing disk (writes beyond the file-size limit fail with EFBIG): exit 1, the file and the
# reason named, and no file under a final name that differs from the complete one.
batch "$work/small.json" 300
"$ddalab" run "$work/small.json" --out "$work/small-ref" --quiet >/dev/null 2>&1
for limit in 1 20 70; do  # batch.json, a checkpoint, a games CSV
  out="$work/full-$limit"
  output=$( (trap '' XFSZ; ulimit -f $limit; "$ddalab" run "$work/small.json" --out "$out" --quiet) 2>&1)
  got=$?
  [ "$got" -eq 1 ] || fail "file-size limit $limit KiB: exit $got, expected 1: ${output: -300}"
  grep -q "File too large" <<<"$output" || fail "file-size limit $limit KiB: no OS reason: ${output: -300}"
  for f in "$out"/*; do
    [ -e "$f" ] || continue
    cmp -s "$f" "$work/small-ref/$(basename "$f")" || fail "limit $limit KiB left a different $(basename "$f")"
  done
  no_temporary_files "$out"
done

# A stop takes effect within a few seconds even while a player thinks for minutes per move.
cat >"$work/slow.json" <<'JSON'
{"format": "ddalab-batch/1", "seed": 1, "experiments": [
 {"name": "slow", "game": {"id": "ludo", "params": {"players": 2}},
  "players": [{"id": "mcts", "params": {"iterations": 10000000}}, {"id": "random"}],
  "environment": {"id": "e-montecarlo", "params": {"iterations": 10000000}}, "iterations": 4}]}
JSON
"$ddalab" run "$work/slow.json" --out "$work/slow" -t 2 --quiet >/dev/null 2>&1 &
pid=$!
handles_stops $pid || fail "slow: the stop signals were never handled"
sleep 1.5
start=$(now)
kill -INT $pid
wait $pid
latency=$(elapsed "$start")
echo "stop latency with mcts and e-montecarlo at 10^7 iterations: $latency s"
below "$latency" 5 || fail "stop took $latency s"
[ -s "$work/slow/summary.csv" ] || fail "the stopped slow run wrote no summary.csv"

# Option values are checked, never wrapped or clamped silently.
expect 2 "--threads" "$ddalab" run "$work/b.json" --out "$work/o1" --threads -1
expect 2 "--threads" "$ddalab" run "$work/b.json" --out "$work/o2" --threads 100000
expect 2 "--seed" "$ddalab" run "$work/b.json" --out "$work/o3" --seed -1
expect 2 "--seed" "$ddalab" run "$work/b.json" --out "$work/o4" --seed 18446744073709551616
expect 2 "--iterations" "$ddalab" run "$work/b.json" --out "$work/o5" --iterations 0
expect 2 "--iterations" "$ddalab" run "$work/b.json" --out "$work/o6" --iterations 1e9
expect 2 "resume" "$ddalab" run "$work/b.json" --out "$work/o7" --resume --overwrite
expect 2 "no run to resume" "$ddalab" run "$work/b.json" --out "$work/o8" --resume

# score refuses what ddalab never writes, naming the file and the line.
corrupt() {  # corrupt NAME SED_SCRIPT: a copy of small-ref whose first games file is edited
  rm -rf "$work/$1"
  cp -r "$work/small-ref" "$work/$1"
  sed -i "$2" "$work/$1/hc__e-hillclimber.games.csv"
}
corrupt nan '2s/^\(0,[0-9]*,[0-9]*,[0-9]*,[01],\)[^,]*/\1nan/'
expect 2 "hc__e-hillclimber.games.csv:2.*finite" "$ddalab" score "$work/nan"
corrupt inf '3s/^\(1,[0-9]*,[0-9]*,[0-9]*,[01],\)[^,]*/\1inf/'
expect 2 "hc__e-hillclimber.games.csv:3.*finite" "$ddalab" score "$work/inf"
corrupt negative '2s/^\(0,[0-9]*,\)[0-9]*/\1-5/'
expect 2 "hc__e-hillclimber.games.csv:2.*rounds" "$ddalab" score "$work/negative"
corrupt duplicate '3s/^1,/0,/'
expect 2 "hc__e-hillclimber.games.csv:3.*increasing" "$ddalab" score "$work/duplicate"
corrupt negative-lead-changes '2s/^\(0,[0-9]*,[0-9]*,[0-9]*,[01],\)[^,]*/\1-3/'
expect 2 "hc__e-hillclimber.games.csv:2.*lead_changes.*>= 0" "$ddalab" score "$work/negative-lead-changes"
corrupt negative-freedom '2s/^\(\([^,]*,\)\{9\}\)[^,]*/\1-1.5/'
expect 2 "hc__e-hillclimber.games.csv:2.*freedom.*>= 0" "$ddalab" score "$work/negative-freedom"

# A stop signal at once (before the first experiment has started) is a stop, not an error.
for signal in INT TERM HUP; do
  "$ddalab" run "$work/b.json" --out "$work/early-$signal" -t 2 --quiet >"$work/early.out" 2>&1 &
  pid=$!
  handles_stops $pid || fail "SIG$signal at once: the stop signals were never handled"
  kill -$signal $pid
  wait $pid
  code=$?
  case $signal in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
  [ "$code" -eq "$want" ] || fail "SIG$signal at once exited $code, expected $want: $(tail -c 300 "$work/early.out")"
  grep -q "stopped by SIG$signal" "$work/early.out" || fail "SIG$signal at once: no stop line"
done

# The "continue with" hint repeats --iterations and --seed, so the command it prints resumes.
"$ddalab" run "$work/b.json" --out "$work/hint" -t 2 -n 20000 --seed 5 --quiet >"$work/hint.out" 2>&1 &
pid=$!
handles_stops $pid || fail "hint: the stop signals were never handled"
sleep 0.5
kill -INT $pid
wait $pid
hint=$(grep -o "continue with: .*" "$work/hint.out" | sed 's/^continue with: //')
case "$hint" in *"--iterations 20000"*"--seed 5"*) ;; *) fail "the hint lacks the overrides: $hint" ;; esac
if [ -n "$hint" ]; then  # the printed command is accepted: it resumes (stopped again here)
  eval "exec ${hint/ddalab/\"$ddalab\"} --quiet" >"$work/hint2.out" 2>&1 &
  pid=$!
  handles_stops $pid || fail "the printed command: the stop signals were never handled"
  sleep 0.5
  kill -INT $pid
  wait $pid
  code=$?
  [ "$code" -eq 130 ] || fail "the printed command exited $code: $(tail -c 300 "$work/hint2.out")"
fi

# Past a file-size limit (ulimit -f) the write fails like a full disk: exit 1, the file named.
expect 1 "File too large\|too large" bash -c "ulimit -f 16; exec \"$ddalab\" run \"$work/b.json\" --out \"$work/fsize\" -t 2 -n 300 --quiet"
no_temporary_files "$work/fsize"

# A pipe as the batch file is refused at once instead of blocking; a key given twice is refused.
mkfifo "$work/fifo.json"
expect 2 "not a regular file" timeout 10 "$ddalab" run "$work/fifo.json" --out "$work/fifo"
sed 's/"iterations": 1500}]}/"iterations": 1500, "iterations": 3}]}/' "$work/b.json" >"$work/twice.json"
expect 2 'experiments\[1\].iterations.*twice' "$ddalab" validate "$work/twice.json"

echo "$((failures == 0 ? 1 : 0)) passed, $failures failed"
[ "$failures" -eq 0 ]
