#!/usr/bin/env bash
# `ddalab slurm` without a cluster: hostile paths (a space, quotes, '%', '#', a shell command)
# are quoted in array.sh and merge.sh, which bash parses and which, run by hand as Slurm would run
# them, give the same folder as a local run; sbatch is started without a shell (a fake sbatch
# first on PATH records its arguments); what sbatch cannot take (a newline, a backslash) and
# settings that would fail only after the shards ran are refused before anything is written.
# Usage: slurm_scripts_test.sh DDALAB_BINARY SOURCE_DIR
set -uo pipefail
ddalab=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work" || exit 1
batch="$src/experiments/sweeps/ludo-4mn-random-prob-believability.json"

# expect CODE PATTERN COMMAND...: exit code CODE and PATTERN somewhere in stdout+stderr.
expect() {
  local code=$1 pattern=$2 output got
  shift 2
  output=$(timeout 60 "$@" 2>&1)
  got=$?
  [ "$got" -eq "$code" ] || fail "$* exited $got, expected $code: $output"
  grep -q -- "$pattern" <<<"$output" || fail "$* printed no '$pattern': $output"
}

# A fake sbatch: records its arguments (NUL-separated, one file per call) and prints a job id.
mkdir -p fake
cat >fake/sbatch <<'EOF'
#!/usr/bin/env bash
n=$(ls "$FAKE_SBATCH_LOG" | wc -l)
printf '%s\0' "$@" >"$FAKE_SBATCH_LOG/$n"
[ "${FAKE_SBATCH_FAIL:-}" = "$n" ] && { echo "sbatch: error: refused by the fake" >&2; exit 1; }
[ -n "${FAKE_SBATCH_SAY:-}" ] && { echo "$FAKE_SBATCH_SAY"; exit 0; }
echo "424$n"
EOF
chmod +x fake/sbatch
mkdir calls
export FAKE_SBATCH_LOG="$work/calls"

# A results folder named with a space, both quotes, '%', '#' and a command that must not run.
hostile="$work/res \"q'; touch PWNED; echo '\" 100%a #x"
expect 0 "submitted array job 4240 and merge job 4241" env PATH="$work/fake:$PATH" "$ddalab" slurm "$batch" --shards 3 --out "$hostile" -n 4 --submit
slurm_dir="$hostile.slurm"
[ -z "$(find "$work" -name PWNED)" ] || fail "a command in --out ran"
printf '%s\0' --parsable "$slurm_dir/array.sh" | cmp -s - calls/0 ||
  fail "sbatch's arguments for the array: $(tr '\0' '|' <calls/0)"
printf '%s\0' --parsable --dependency=afterok:4240 "$slurm_dir/merge.sh" | cmp -s - calls/1 ||
  fail "sbatch's arguments for the merge: $(tr '\0' '|' <calls/1)"
for script in array.sh merge.sh; do
  bash -n "$slurm_dir/$script" || fail "bash cannot parse $script"
  # bash <= 4.3 calls an empty array unbound under set -u: the scripts use none.
  grep -q '\[@\]' "$slurm_dir/$script" && fail "$script expands an array"
done
grep -qF '#SBATCH --output="'"$work"'/res \"q'"'"'; touch PWNED; echo '"'"'\" 100%%a #x.slurm/logs/shard-%a.out"' \
  "$slurm_dir/array.sh" || fail "array.sh's --output is not one sbatch word with % doubled: $(grep output "$slurm_dir/array.sh")"
# Run as Slurm would, the three tasks and the merge give what a local run gives.
for k in 0 1 2; do
  SLURM_ARRAY_TASK_ID=$k bash "$slurm_dir/array.sh" >/dev/null || fail "array task $k failed"
done
bash "$slurm_dir/merge.sh" >/dev/null || fail "the merge script failed"
"$ddalab" run "$batch" -n 4 --out local --quiet >/dev/null || fail "the local run failed"
diff -r -x .ddalab local "$hostile" || fail "the merged folder differs from a local run"
[ -z "$(find "$work" -name PWNED)" ] || fail "a command in --out ran"

# sbatch refusing a job: exit 2 with its message; refusing the merge job: the array job to cancel.
rm -f calls/*
expect 2 "refused by the fake" env FAKE_SBATCH_FAIL=0 PATH="$work/fake:$PATH" \
  "$ddalab" slurm "$batch" --shards 2 --out "$work/r2" -n 4 --submit
rm -f calls/*
expect 2 "array job 4240 was submitted" env FAKE_SBATCH_FAIL=1 PATH="$work/fake:$PATH" \
  "$ddalab" slurm "$batch" --shards 2 --out "$work/r2" -n 4 --submit
rm -f calls/*
expect 2 "printed 'Submitted batch job 7', expected a job id" env FAKE_SBATCH_SAY="Submitted batch job 7" \
  PATH="$work/fake:$PATH" "$ddalab" slurm "$batch" --shards 2 --out "$work/r2" -n 4 --submit
expect 2 "cannot start sbatch" env PATH="$work/no-such-folder" \
  "$ddalab" slurm "$batch" --shards 2 --out "$work/r2" -n 4 --submit

# What sbatch cannot take, named; nothing written.
before=$(ls -A "$work")
expect 2 "error: --out .*a newline" "$ddalab" slurm "$batch" --shards 2 --out "$work/new"$'\n'"touch PWNED" -n 4
expect 2 "error: --out .*a backslash" "$ddalab" slurm "$batch" --shards 2 --out "$work/back\\slash" -n 4
expect 2 "error: --work .*a newline" "$ddalab" slurm "$batch" --shards 2 --out "$work/r3" \
  --work "$work/w"$'\n'"x" -n 4
[ "$before" = "$(ls -A "$work")" ] || fail "a refused path was created: $(ls -A "$work")"
[ -z "$(find "$work" -name PWNED)" ] || fail "a command in --out ran"
# A newline only in --out (not in a #SBATCH line) is quoted like any other character.
expect 0 "wrote" "$ddalab" slurm "$batch" --shards 2 --out "$work/nl"$'\n'"out" --work "$work/nlw" -n 4
bash -n "$work/nlw/merge.sh" || fail "bash cannot parse merge.sh of a --out with a newline"

# Settings that would fail only after the shards ran.
expect 2 "error: --ddalab /nonexistent: expected the ddalab executable" \
  "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" -n 4 --ddalab /nonexistent
touch not-executable
expect 2 "may not execute" "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" -n 4 \
  --ddalab "$work/not-executable"
expect 2 "not a regular file" "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" -n 4 --ddalab "$work"
expect 2 "give two separate folders" "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" \
  --work "$work/r4" -n 4
expect 2 "give two separate folders" "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" \
  --work "$work/r4/work" -n 4
touch a-file
expect 2 "error: --out .*a-file: exists and is not a folder" "$ddalab" slurm "$batch" --shards 2 \
  --out "$work/a-file" -n 4
expect 2 "error: --work .*a-file: exists and is not a folder" "$ddalab" slurm "$batch" --shards 2 \
  --out "$work/r4" --work "$work/a-file" -n 4
expect 2 "holds other files" "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" --work "$work/fake" -n 4
expect 2 "error: --cpus-per-task: expected a number of CPUs >= 1 (or 0: the cluster's default), got -1" \
  "$ddalab" slurm "$batch" --shards 2 --out "$work/r4" -n 4 --cpus-per-task -1
[ -e "$work/r4" ] || [ -e "$work/r4.slurm" ] && fail "a refused slurm wrote its folders"
expect 0 "wrote" "$ddalab" slurm "$batch" --shards 2 --out "$work/r5" -n 4
expect 2 "was written for 2 shards.*not --shards 3" "$ddalab" slurm "$batch" --shards 3 \
  --out "$work/r5" -n 4
expect 0 "wrote" "$ddalab" slurm "$batch" --shards 2 --out "$work/r5" -n 4 # the same: kept
mkfifo "$work/r5.slurm/array.sh.fifo" && rm "$work/r5.slurm/array.sh" && mv "$work/r5.slurm/array.sh.fifo" "$work/r5.slurm/array.sh"
expect 2 "array.sh is not a regular file" "$ddalab" slurm "$batch" --shards 2 --out "$work/r5" -n 4
[ -p "$work/r5.slurm/array.sh" ] || fail "the FIFO array.sh was replaced"

# 100,000 shards: the merge job's command line stays short (the folders are in shards.list).
expect 0 "wrote" "$ddalab" slurm "$batch" --shards 100000 --out "$work/big" -n 100000
size=$(wc -c <"$work/big.slurm/merge.sh")
[ "$size" -lt 4096 ] || fail "merge.sh of 100000 shards has $size bytes"
[ "$(wc -l <"$work/big.slurm/shards.list")" = 100000 ] || fail "shards.list does not list 100000 shards"

# merge --shard-list: lines relative to the list's folder; a bad list refused, naming the line.
printf 'shards/0\n\nshards/1\n' >"$work/r5.slurm/bad.list"
expect 2 "bad.list:2: expected a shard folder, got an empty line" \
  "$ddalab" merge --shard-list "$work/r5.slurm/bad.list" --out "$work/m"
mkfifo "$work/fifo.list"
expect 2 "fifo.list" "$ddalab" merge --shard-list "$work/fifo.list" --out "$work/m"
expect 2 "expected shard folders or --shard-list" "$ddalab" merge --out "$work/m"

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "slurm scripts test passed"
