#!/usr/bin/env bash
# The plug-in path end to end, as a researcher takes it (README "Writing a plug-in"): ddalab is
# installed into a prefix, examples/plugin-dice is configured and built against it out of tree,
# loaded with --plugin and DDALAB_PLUGIN_PATH, passes `ddalab check-game` (the conformance checks
# every game passes) while a flawed game fails it with a readable summary, its metric (swing) is followed by the tracker and becomes a column of every results file,
# runs a comparison byte-identically for 1 and 2 threads and after a kill and --resume; a
# missing file, another ABI, a failing registration, a game without make, a player without a
# factory, a clashing id, a changed plug-in on --resume, and a FIFO, a device, a folder, a
# dangling link or a huge file in DDALAB_PLUGIN_PATH are refused with their messages (bounded by
# `timeout`: a regression fails instead of hanging).
# Usage: plugin_test.sh BUILD_DIR SOURCE_DIR DDALAB_TESTS WRONG_ABI FAILING NO_ENTRY NO_MAKE
# NO_FACTORY FLAWED_GAME (the last six: tests/plugins/)
set -uo pipefail
build=$1 source=$2 unit_tests=$3 wrong_abi=$4 failing=$5 no_entry=$6 no_make=$7 no_factory=$8
flawed=$9
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/expect.sh"  # fail, expect CODE TEXT COMMAND...

cmake --install "$build" --prefix "$work/prefix" >/dev/null || fail "cmake --install failed"
ddalab="$work/prefix/bin/ddalab"
build_plugin() {  # build_plugin DIR [CMAKE ARGS...]
  local dir=$1
  shift
  cmake -S "$source/examples/plugin-dice" -B "$dir" -DCMAKE_PREFIX_PATH="$work/prefix" \
    -DCMAKE_BUILD_TYPE=Release "$@" >"$work/cmake.txt" 2>&1 &&
    cmake --build "$dir" >>"$work/cmake.txt" 2>&1 || { cat "$work/cmake.txt"; fail "building the plug-in failed"; }
}
build_plugin "$work/dice"
plugin="$work/dice/libddalab_dice.so"
[ -f "$plugin" ] || fail "no $plugin"

# Listed with where it comes from; check-game runs the conformance checks on its game.
expect 0 "pig - Pig" "$ddalab" list games --plugin "$plugin"
expect 0 "[plug-in dice ($plugin)]" "$ddalab" list players --plugin "$plugin"
DDALAB_PLUGIN_PATH="$work/dice" expect 0 "dice 1.0.0" "$ddalab" list
expect 0 "7 of 7 checks passed" "$ddalab" check-game pig --plugin "$plugin"
grep -q "check-game pig \[plug-in dice ($plugin)\]: 24 random playouts" "$work/out.txt" ||
  { cat "$work/out.txt"; fail "check-game does not say which game it checked"; }
grep -q "configurations: pig (defaults); pig (players 3); pig (players 4);" "$work/out.txt" ||
  { cat "$work/out.txt"; fail "check-game did not check every player count of pig"; }
DDALAB_PLUGIN_PATH="$plugin" expect 0 "7 of 7 checks passed" "$ddalab" check-game pig --games 3 --seed 99
# A game that breaks a promise (gains() is not gain(p)) fails, on one screen, saying where.
expect 1 "FAILED  shortcuts    " "$ddalab" check-game flawed-pile --plugin "$flawed" --games 2
grep -qF "first: flawed-pile (defaults) params {} seed 1 move 0: expected gains() to equal gain(p) for every seat" \
  "$work/out.txt" || { cat "$work/out.txt"; fail "check-game did not say where the flawed game failed"; }
grep -q "^4 of 7 checks passed; what each checks: ddalab check-game --help$" "$work/out.txt" ||
  { cat "$work/out.txt"; fail "check-game's summary does not count the failed check"; }
[ "$(wc -l <"$work/out.txt")" -le 12 ] || { cat "$work/out.txt"; fail "check-game's summary is longer than a screen"; }
expect 0 "shortcuts    assign, gains()" "$ddalab" check-game --help
expect 2 "unknown game 'chess'; valid: ludo, maze" "$ddalab" check-game chess
expect 2 "--games: expected a whole number in [1, 100000], got '0'" "$ddalab" check-game pig --plugin "$plugin" --games 0
expect 2 "--seed: expected a whole number" "$ddalab" check-game pig --plugin "$plugin" --seed -1
expect 2 "the option '--game' is required" "$ddalab" check-game
DDALAB_PLUGIN_PATH="$plugin" "$unit_tests" "[plugin-metric]" >"$work/metric.txt" 2>&1 ||
  { tail -30 "$work/metric.txt"; fail "the plug-in's metric is not followed as swing.cpp defines it"; }
expect 0 "swing (Swing) - mean gap" "$ddalab" list metrics --plugin "$plugin"

# A comparison: the same files for 1 and 2 threads; batch.json names the plug-in and its sha256.
batch="$source/examples/plugin-dice/pig-comparison.json"
"$ddalab" run "$batch" --plugin "$plugin" --out "$work/t1" -n 300 -t 1 --quiet >/dev/null 2>&1 || fail "run -t 1 failed"
"$ddalab" run "$batch" --plugin "$plugin" --out "$work/t2" -n 300 -t 2 --quiet >/dev/null 2>&1 || fail "run -t 2 failed"
diff -r "$work/t1" "$work/t2" >/dev/null || fail "1 and 2 threads differ"
sha=$(sha256sum "$plugin" | cut -d' ' -f1)
grep -q "\"sha256\": \"$sha\"" "$work/t1/batch.json" || fail "batch.json does not record the plug-in's sha256"
grep -q "pig__e-hillclimber.games.csv" <(ls "$work/t1") || fail "no games CSV of the plug-in's game"
# The plug-in's metric is a column of every file, scored with the others, tested against e-random.
# Plug-in metrics follow the built-ins (the thesis's nine, then the extended four) and score in
# table 8 (before win_ratio); the extended columns come after win_ratio (score-ext).
head -1 "$work/t1/pig__e-hillclimber.games.csv" | grep -q ",randomness,drama_trailing,decisiveness_final_lead,uncertainty,comeback,drama_average,decisiveness_threshold,decisiveness_moves,swing,p0_score," ||
  fail "the games CSV has no swing column after the built-in metrics"
grep -q "^swing," "$work/t1/pig__e-hillclimber.summary.csv" || fail "no swing row in the summary"
head -1 "$work/t1/pig.scores.csv" | grep -q ",swing,win_ratio,drama_trailing,decisiveness_final_lead,uncertainty,comeback,drama_average,decisiveness_moves,.*,swing_ratio,win_ratio_ratio,drama_trailing_ratio," ||
  fail "swing is not a scored column of table 8"
grep -q "^pig/e-hillclimber,pig/e-random,swing," "$work/t1/pig.tests.csv" || fail "swing is not tested against e-random"
# A built-in batch run with the plug-in loaded has the column too, so batch.json names the plug-in.
"$ddalab" run "$source/experiments/quick.json" --plugin "$plugin" --out "$work/q" -n 20 --quiet >/dev/null 2>&1 ||
  fail "quick.json with the plug-in failed"
grep -q "\"sha256\": \"$sha\"" "$work/q/batch.json" || fail "a run with the plug-in's metric does not record it"
expect 2 "the batch uses plug-in 'dice', which is not loaded" \
  "$ddalab" run "$work/q/batch.json" --out "$work/q" --resume

# Killed at random points, then --resume: the files of an uninterrupted run.
"$ddalab" run "$batch" --plugin "$plugin" --out "$work/ref" -n 20000 -t 2 --quiet >/dev/null 2>&1 || fail "reference run failed"
for pause in 0.4 0.9 1.5; do
  out="$work/kill-$pause"
  "$ddalab" run "$batch" --plugin "$plugin" --out "$out" -n 20000 -t 2 --quiet >/dev/null 2>&1 &
  pid=$!
  sleep "$pause"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  "$ddalab" run "$batch" --plugin "$plugin" --out "$out" -n 20000 -t 2 --resume --quiet >/dev/null 2>&1 ||
    fail "resume after SIGKILL at $pause s failed"
  diff -r "$out" "$work/ref" >/dev/null || fail "resumed after SIGKILL at $pause s: files differ"
done

# The same plug-in file moved elsewhere (a cluster node's copy) resumes the same run.
mkdir -p "$work/moved" && cp "$plugin" "$work/moved/"
"$ddalab" run "$batch" --plugin "$work/moved/libddalab_dice.so" --out "$work/ref" -n 20000 --resume \
  --quiet >/dev/null 2>&1 || fail "the moved plug-in was refused on --resume"

# Refusals, each naming the file and the reason.
expect 2 "$work/none.so: no such plug-in file" "$ddalab" list --plugin "$work/none.so"
expect 2 "built for plug-in ABI 998, this ddalab" "$ddalab" list --plugin "$wrong_abi"
expect 2 "its registration failed: the game's data file is missing" "$ddalab" list --plugin "$failing"
expect 2 "not a ddalab plug-in: no ddalab_plugin_entry" "$ddalab" list --plugin "$no_entry"
expect 2 "expected a plug-in file after it" "$ddalab" list --plugin
expect 2 "plug-in no-make ($no_make): game 'makeless': expected GameInfo::make: the factory" \
  "$ddalab" list --plugin "$no_make"
expect 2 "plug-in no-factory ($no_factory): player 'factoryless': expected PlayerInfo::makeRegular" \
  "$ddalab" list --plugin "$no_factory"
# What DDALAB_PLUGIN_PATH names is checked before it is read, like --plugin FILE: a FIFO (no
# writer: reading would wait forever), a device (endless bytes), a folder named *.so, a dangling
# link and a file over the size bound are refused, each within the timeout.
mkdir -p "$work/hostile" "$work/with-folder/sub.so" "$work/in-folder"
mkfifo "$work/hostile/fifo.so" "$work/in-folder/fifo.so"
ln -s "$work/hostile/gone.so" "$work/hostile/dangling.so"
truncate -s 1025M "$work/hostile/huge.so"  # sparse
hostile() {  # hostile TEXT DDALAB_PLUGIN_PATH
  DDALAB_PLUGIN_PATH="$2" expect 2 "$1" timeout 20 "$ddalab" list games
}
hostile "$work/hostile/fifo.so: expected a plug-in file (a shared library), found a FIFO (named by DDALAB_PLUGIN_PATH)" \
  "$work/hostile/fifo.so"
hostile "$work/in-folder/fifo.so: expected a plug-in file (a shared library), found a FIFO" "$work/in-folder"
hostile "/dev/zero: expected a plug-in file (a shared library), found a device" "/dev/zero"
hostile "$work/with-folder/sub.so: expected a plug-in file (a shared library), found a folder" "$work/with-folder"
hostile "$work/hostile/dangling.so: no such plug-in file (named by DDALAB_PLUGIN_PATH)" "$work/hostile/dangling.so"
hostile "$work/hostile/huge.so: expected a plug-in file of at most 1024 MiB, found 1025 MiB" "$work/hostile/huge.so"
expect 2 "$work/hostile/fifo.so: expected a plug-in file (a shared library), found a FIFO" \
  timeout 20 "$ddalab" list --plugin "$work/hostile/fifo.so"
expect 2 "/dev/zero: expected a plug-in file (a shared library), found a device" \
  timeout 20 "$ddalab" check-game pig --plugin /dev/zero
if [ -f "$work/dice/libddalab_dice_view.so" ]; then  # built where the installed ddalab has Qt
  expect 2 "a plug-in's view library: ddalab-gui loads it" \
    "$ddalab" list --plugin "$work/dice/libddalab_dice_view.so"
  DDALAB_PLUGIN_PATH="$work/dice" expect 0 "pig - Pig" "$ddalab" list games  # passed by
fi
build_plugin "$work/clash" -DDICE_GAME_ID=ludo
expect 2 "game 'ludo' is already registered by built-in" "$ddalab" list --plugin "$work/clash/libddalab_dice.so"
expect 2 "the batch uses plug-in 'dice', which is not loaded; load it with --plugin $plugin" \
  "$ddalab" run "$work/t1/batch.json" --out "$work/t1" --resume
# The same plug-in rebuilt differently (another optimisation level): its checksum changes.
build_plugin "$work/changed" -DCMAKE_BUILD_TYPE=Debug
expect 2 "plug-in 'dice' changed since the run started" \
  "$ddalab" run "$batch" -n 300 --plugin "$work/changed/libddalab_dice.so" --out "$work/t1" --resume
# Shards: the same plug-in at another path merges; another build of it is refused by merge.
"$ddalab" run "$batch" --plugin "$plugin" -n 40 --shard 0/2 --out "$work/sh0" --quiet >/dev/null 2>&1 || fail "shard 0 failed"
"$ddalab" run "$batch" --plugin "$work/moved/libddalab_dice.so" -n 40 --shard 1/2 --out "$work/sh1" --quiet >/dev/null 2>&1 ||
  fail "shard 1 failed"
"$ddalab" run "$batch" --plugin "$work/changed/libddalab_dice.so" -n 40 --shard 1/2 --out "$work/shx" --quiet >/dev/null 2>&1 ||
  fail "shard 1 with the changed plug-in failed"
"$ddalab" run "$batch" --plugin "$plugin" -n 40 --out "$work/sh-whole" --quiet >/dev/null 2>&1 || fail "whole run failed"
expect 0 "merged 2 shards" "$ddalab" merge "$work/sh0" "$work/sh1" --plugin "$plugin" --out "$work/sh-merged"
diff -r -x .ddalab "$work/sh-whole" "$work/sh-merged" >/dev/null || fail "merged plug-in shards differ from one run"
expect 2 "ran plug-in 'dice' with sha256" "$ddalab" merge "$work/sh0" "$work/shx" --plugin "$plugin" --out "$work/sh-bad"
echo "plug-in test passed"
