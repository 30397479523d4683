#!/usr/bin/env bash
# `ddalab rate` end to end: a tiny tournament rated with 1 and 2 threads gives the same files, a
# run stopped by SIGTERM and resumed gives them too, a results folder is rated again (with
# overrides, --write), a balance run over the tournament's ratings.json; validate shows the
# expansion; hostile input (a batch that is neither, a missing folder, bad options, a rating file
# of another game) exits 2 naming the file and the JSON path.
# Usage: rate_test.sh DDALAB_BINARY SOURCE_DIR
set -uo pipefail
ddalab=$1
src=$2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/expect.sh"       # fail, expect CODE TEXT COMMAND...
source "$(dirname "$0")/run_helpers.sh"  # same_files, games_checkpointed, handles_stops

tournament() {  # tournament FILE GAMES: random and HillClimbers at 10 and 100 on 2-player Ludo
  cat >"$1" <<JSON
{"format": "ddalab-batch/1", "seed": 3, "tournament": {
  "name": "tiny", "game": {"id": "ludo", "params": {"players": 2}},
  "entrants": [{"name": "random", "player": {"id": "random"}},
               {"name": "hc", "player": {"id": "hillclimber"}, "levels": [10, 100]}],
  "design": {"kind": "round-robin"}, "games": $2,
  "model": {"bootstrap": 20, "prior_sd": 400}}}
JSON
}
tournament "$work/tiny.json" 6

# validate shows the expansion.
expect 0 "tournament tiny: 3 entrants, design round-robin, 6 experiments of 6 games, 36 games" \
  "$ddalab" validate "$work/tiny.json"
expect 0 "entrants: random, hc@10, hc@100" "$ddalab" validate "$work/tiny.json"
expect 0 ": ok" "$ddalab" validate "$src/experiments/ratings/ludo-levels.json"

# The same files whatever the thread count.
expect 0 "hc@100" "$ddalab" rate "$work/tiny.json" --out "$work/t1" --threads 1
expect 0 "results" "$ddalab" rate "$work/tiny.json" --out "$work/t2" --threads 2
for f in ratings.csv pairwise.csv level_curves.csv ratings.json batch.json; do
  [ -s "$work/t1/$f" ] || fail "rate wrote no $f"
done
same_files "$work/t1" "$work/t2"

# A game of one seat (the Maze): each player is rated against the game itself, "(maze)", and
# the first seat has no advantage of its own to fit.
cat >"$work/maze.json" <<JSON
{"format": "ddalab-batch/1", "seed": 5, "tournament": {
  "name": "alone", "game": {"id": "maze", "params": {"width": 21, "height": 21, "max_steps": 777}},
  "entrants": [{"name": "random", "player": {"id": "random"}},
               {"name": "hc", "player": {"id": "hillclimber"}, "levels": [10, 100]}],
  "design": {"kind": "round-robin"}, "games": 8, "model": {"bootstrap": 20, "prior_sd": 400}}}
JSON
expect 0 "(maze)" "$ddalab" rate "$work/maze.json" --out "$work/maze"
grep -q '^"(maze)",\|^(maze),' "$work/maze/ratings.csv" || fail "ratings.csv has no row of the game"
grep -q '"game_rating"' "$work/maze/ratings.json" || fail "ratings.json has no game_rating"
if grep -q '(first seat)' "$work/maze/ratings.csv"; then fail "a one-seat game fitted a first seat"; fi
# Its balance run: no opponents; a game without a winner is lost, the even share is one half.
cat >"$work/maze-balance.json" <<JSON
{"format": "ddalab-batch/1", "seed": 5, "balance": {"name": "alone-balance",
  "game": {"id": "maze", "params": {"width": 21, "height": 21, "max_steps": 777}},
  "ratings": "maze/ratings.json", "conditions": [{"name": "none", "opponents": []}], "games": 8}}
JSON
expect 0 "results" "$ddalab" rate "$work/maze-balance.json" --out "$work/maze-balance"
grep -q '^none,0.4,0.6,' "$work/maze-balance/balance_summary.csv" ||
  fail "a one-seat balance run's band is not 0.4 to 0.6"
awk -F, 'NR > 1 && ($8 != 0 || $12 != 0.5) { bad = 1 } END { exit bad }' \
  "$work/maze-balance/balance.csv" || fail "a one-seat game counted a draw or another even share"
grep -q '"rating"' "$work/t1/batch.json" || fail "batch.json has no rating section"

# A folder rated again: the same tables; overrides refit them, --write rewrites the CSVs.
expect 0 "hc@10" "$ddalab" rate "$work/t1"
cp "$work/t1/ratings.csv" "$work/ratings-before.csv"
expect 0 "hc@10" "$ddalab" rate "$work/t1" --prior-sd 50
cmp -s "$work/t1/ratings.csv" "$work/ratings-before.csv" || fail "rate DIR without --write changed ratings.csv"
expect 0 "hc@10" "$ddalab" rate "$work/t1" --prior-sd 50 --bootstrap 0 --confidence 0.9 --write
cmp -s "$work/t1/ratings.csv" "$work/ratings-before.csv" && fail "rate DIR --write kept ratings.csv"

# A run stopped by SIGTERM and resumed gives the files of an uninterrupted one.
tournament "$work/longer.json" 400
"$ddalab" rate "$work/longer.json" --out "$work/whole" --threads 2 >/dev/null 2>&1 || fail "longer run failed"
"$ddalab" rate "$work/longer.json" --out "$work/stopped" --threads 2 >"$work/stop.txt" 2>&1 &
pid=$!
handles_stops $pid || fail "the stop signals were never handled"
games_checkpointed "$work/stopped" || fail "no game was checkpointed"
kill -TERM $pid 2>/dev/null
wait $pid
got=$?
[ "$got" -eq 143 ] || [ "$got" -eq 0 ] || fail "stopped rate exited $got"
if [ "$got" -eq 143 ]; then
  grep -q "continue with: ddalab rate $work/longer.json .*--resume" "$work/stop.txt" || fail "no hint how to resume: $(cat "$work/stop.txt")"
fi
expect 0 "results" "$ddalab" rate "$work/longer.json" --out "$work/stopped" --threads 1 --resume
same_files "$work/stopped" "$work/whole"

# A balance run over the tournament's ratings (relative to the balance file).
cat >"$work/balance.json" <<JSON
{"format": "ddalab-batch/1", "seed": 3, "balance": {
  "name": "bal", "game": {"id": "ludo", "params": {"players": 2}}, "ratings": "t1/ratings.json",
  "conditions": [{"name": "none", "opponent": {"id": "hillclimber", "level": 50}},
                 {"name": "posm", "opponent": {"id": "posm", "params": {"base": "hillclimber"}}}],
  "games": 4}}
JSON
expect 0 "balance run bal: 3 rated players x 2 conditions x 2 seats = 12 experiments" \
  "$ddalab" validate "$work/balance.json"
expect 0 "results" "$ddalab" rate "$work/balance.json" --out "$work/b1" --threads 2
[ -s "$work/b1/balance.csv" ] || fail "rate wrote no balance.csv"
[ -s "$work/b1/balance_summary.csv" ] || fail "rate wrote no balance_summary.csv"

# Hostile input: exit 2, the file and what was expected.
expect 2 "quick.json: not a tournament or balance run" "$ddalab" rate "$src/experiments/quick.json" --out "$work/q"
[ -e "$work/q" ] && fail "a refused batch made its folder"
expect 2 "$work/nothing" "$ddalab" rate "$work/nothing"
mkdir -p "$work/empty"
expect 2 "empty/batch.json" "$ddalab" rate "$work/empty"
expect 2 "--prior-sd: expected a number in [0, 1000000]" "$ddalab" rate "$work/t1" --prior-sd -3
expect 2 "--prior-sd: expected a number" "$ddalab" rate "$work/t1" --prior-sd abc
expect 2 "--confidence: expected a number in [0.5, 0.999999]" "$ddalab" rate "$work/t1" --confidence 1
expect 2 "--bootstrap: expected a whole number in [0, 100000]" "$ddalab" rate "$work/t1" --bootstrap 100001
expect 2 "--prior-sd: applies to a results folder" "$ddalab" rate "$work/tiny.json" --prior-sd 10 --out "$work/t3"
expect 2 "--threads: applies to a batch file" "$ddalab" rate "$work/t1" --threads 2
sed 's/"players": 2}}, "ratings"/"players": 4}}, "ratings"/' "$work/balance.json" >"$work/other-game.json"
expect 2 "t1/ratings.json: $.game" "$ddalab" rate "$work/other-game.json" --out "$work/b2"
sed 's/"name": "random"/"name": "ra,ndom"/' "$work/tiny.json" >"$work/bad-name.json"
expect 2 "bad-name.json: $.tournament.entrants[0].name" "$ddalab" validate "$work/bad-name.json"
sed 's/"levels": \[10, 100\]/"levels": [10, 10]/' "$work/tiny.json" >"$work/twice.json"
expect 2 "twice.json: $.tournament.entrants[1].levels[1]: level 10 is given twice" \
  "$ddalab" rate "$work/twice.json" --out "$work/t4"

echo "rate: all passed"
