#!/usr/bin/env bash
# `ddalab slurm` on a real Slurm: a single-node cluster on localhost (scripts/slurm-local.sh)
# runs a swept batch as a job array of 3 shards and the merge job that waits for it, into a
# folder named with a space, both quotes, a '%' and a '#'; the merged folder must be
# byte-identical to a local `ddalab run`, and each task's log where its name says. An array task run again on its finished
# shard (a requeue) resumes it and changes nothing. Exit 77 (skipped) only where the cluster
# cannot start here, saying why.
# Usage: slurm_test.sh DDALAB_BINARY SOURCE_DIR
set -uo pipefail
ddalab=$1 src=$2
work=$(mktemp -d)
export DDALAB_SLURM_DIR="$work/cluster"
# A port of its own per run, so that a cluster left over elsewhere does not answer.
export DDALAB_SLURM_PORT=$((20000 + RANDOM % 20000))
export SLURM_CONF="$DDALAB_SLURM_DIR/slurm.conf"
cleanup() { bash "$src/scripts/slurm-local.sh" stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash "$src/scripts/slurm-local.sh" start
code=$?
if [ "$code" = 77 ]; then echo "SKIPPED: the local Slurm cluster cannot start here (above)"; exit 77; fi
[ "$code" = 0 ] || fail "the local Slurm cluster did not start"

batch="$src/experiments/sweeps/ludo-4mn-random-prob-believability.json"
merged="$work/res 'q\" 100%a #1"
slurm_dir="$merged.slurm"
out=$("$ddalab" slurm "$batch" --shards 3 --out "$merged" -n 6 --cpus-per-task 1 --time 10:00 --submit) ||
  fail "ddalab slurm --submit failed: $out"
echo "$out"
merge=$(sed -n 's/^submitted array job [0-9]* and merge job \([0-9]*\)$/\1/p' <<<"$out")
[ -n "$merge" ] || fail "no merge job id in: $out"
state=""
for _ in $(seq 600); do
  state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 0.5
done
[ "$state" = COMPLETED ] || { cat "$slurm_dir/logs/"* 2>/dev/null; fail "the merge job ended $state"; }

"$ddalab" run "$batch" -n 6 --out "$work/local" --quiet >/dev/null || fail "the local run failed"
diff -r -x .ddalab "$work/local" "$merged" || fail "the merged folder differs from a local run"
[ -f "$merged/sweep.csv" ] || fail "no sweep.csv"
[ "$(cd "$slurm_dir/logs" && echo *)" = "merge.out shard-0.out shard-1.out shard-2.out" ] ||
  fail "the jobs' logs are not where #SBATCH --output names them: $(ls "$slurm_dir/logs")"

# A requeued task finds its finished shard and resumes it: nothing changes.
before=$(cat "$slurm_dir/shards/1/"*.csv | sha256sum)
SLURM_ARRAY_TASK_ID=1 bash "$slurm_dir/array.sh" >/dev/null || fail "the array task run again failed"
[ "$before" = "$(cat "$slurm_dir/shards/1/"*.csv | sha256sum)" ] || fail "a requeued task changed its shard"
# A second submission to a folder holding results is refused before anything runs.
"$ddalab" slurm "$batch" --shards 3 --out "$merged" -n 6 >/dev/null 2>&1 && fail "a full --out was accepted"
echo "slurm test passed"
