#!/usr/bin/env bash
# Games that break the state contract, loaded as a plug-in (tests/plugins/hostile.cpp, the flaws
# of tests/flawed_game.h): `ddalab check-game` ends each in a FAILED line naming the game, the
# method, the value and the state, and `ddalab run` of each stops with that message and exit 1,
# the games finished before kept in the results folder; the game without end is cut off at
# ddalab's bound and counted as capped. Each command is bounded by `timeout`: a regression fails
# instead of hanging (a crash shows as exit 134-139).
# Usage: hostile_plugin_test.sh DDALAB HOSTILE_PLUGIN
set -uo pipefail
ddalab=$1 plugin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect.sh"  # fail, expect CODE TEXT COMMAND...
batch() {  # batch GAME ITERATIONS: a batch of one experiment of GAME between random players
  cat >"$work/$1.json" <<JSON
{"format": "ddalab-batch/1", "seed": 7, "experiments": [{"name": "x", "game": {"id": "$1"},
 "players": [{"id": "random"}, {"id": "random"}], "environment": {"id": "e-random"},
 "iterations": $2}]}
JSON
  echo "$work/$1.json"
}

# What the match loop says of each flaw (tests/flawed_game.h, contractFlaws()).
declare -A says=(
  [actor]="expected actor() to be a seat 0..1, kEnvironment (-1) or kTerminal (-2), got 5; the state: pile "
  [no-legal]="expected legalActions() to hold an action at a decision (actor() 0), got none"
  [no-outcomes]="expected outcomes() to hold an outcome at an environment node, got none"
  [nan]="expected every probability of outcomes() to be finite and in (0, 1], outcome 1 has nan"
  [double]="expected the probabilities of outcomes() to sum to 1, they sum to 2.000000"
  [rounds]="expected roundsCompleted() to grow by at most one an action, it went from 2 to 4"
  [winner]="expected winner() to be -1 or a seat 0..1, got 7"
  [seats]="expected numPlayers() of the dealt state to be the game's (2) and within 1..4, got 6"
  [endless]="expected the game to end within 10000 actions through the match loop"
)
[ ${#says[@]} -ge 5 ] || fail "fewer than five hostile games"
expect 0 "hostile 1" "$ddalab" list --plugin "$plugin"
for flaw in "${!says[@]}"; do
  game="hostile-$flaw"
  expect 1 "${says[$flaw]}" timeout 300 "$ddalab" check-game "$game" --plugin "$plugin" --games 4
  grep -q "^  FAILED  match        .* first: $game (defaults) params {} seed .*${says[$flaw]}" "$work/out.txt" ||
    { cat "$work/out.txt"; fail "check-game $game: no FAILED match line naming the game and the flaw"; }
  [ "$flaw" = endless ] && continue  # a run cuts it off (below)
  out="$work/run-$flaw"
  expect 1 "ddalab run: error: game '$game' of experiment 'x', iteration " \
    timeout 300 "$ddalab" run "$(batch "$game" 30)" --plugin "$plugin" --out "$out" -t 1 --quiet
  grep -qF -- "${says[$flaw]}" "$work/out.txt" || { cat "$work/out.txt"; fail "run $game: not the check's words"; }
  # The games before the failing iteration are finished and kept (one thread: in order).
  failed=$(grep -o "iteration [0-9]*" "$work/out.txt" | head -1 | cut -d' ' -f2)
  rows=$(($(wc -l <"$out/x.games.csv") - 1))
  [ "$rows" = "$failed" ] || fail "run $game: $rows games kept, expected the $failed before iteration $failed"
  [ "$flaw" = seats ] || [ "$rows" -gt 0 ] || fail "run $game: no game finished before the failing one"
done

# A game without end is cut off at ddalab's bound (10^7 actions): capped, a draw.
out="$work/run-endless"
expect 0 "results: $out" timeout 300 "$ddalab" run "$(batch hostile-endless 1)" --plugin "$plugin" --out "$out" -t 1 --quiet
column=$(head -1 "$out/x.games.csv" | tr ',' '\n' | grep -nx capped | cut -d: -f1)
[ -n "$column" ] || fail "no capped column in the games CSV"
[ "$(sed -n 2p "$out/x.games.csv" | cut -d, -f"$column")" = 1 ] || fail "the endless game is not counted as capped"
echo "hostile plug-in test passed"
