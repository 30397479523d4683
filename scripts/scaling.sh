#!/usr/bin/env bash
# Scaling figures of docs/slurm.md ("How it scales"): one batch run on 1 thread, on 2 threads,
# and as 2 shards (two processes of 1 thread each, side by side) merged; games a second, CPU seconds a game
# and bytes written a game, medians of R repetitions. Checks that the merged shards equal the
# local run byte for byte (without the .ddalab checkpoint folder).
#
#   scripts/scaling.sh [BATCH] [GAMES_PER_ROW] [REPETITIONS]
#   (defaults: experiments/thesis/all.json 6 3; DDALAB=path/to/ddalab, default build/app/cli/ddalab)
set -euo pipefail
batch=${1:-experiments/thesis/all.json}
n=${2:-6}
reps=${3:-3}
ddalab=${DDALAB:-build/app/cli/ddalab}
work=$(mktemp -d /tmp/ddalab-scaling.XXXX)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
calc() { awk "BEGIN {print $*}"; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

for r in $(seq "$reps"); do
  for threads in 1 2; do
    start=$(now)
    "$ddalab" run "$batch" -n "$n" -t "$threads" -q --out "$work/local$threads" --overwrite >/dev/null
    calc "$(now) - $start" >>"$work/wall.t$threads"
  done
  start=$(now)
  for k in 0 1; do
    "$ddalab" run "$batch" -n "$n" -t 1 -q --shard $k/2 --out "$work/shard$k" --overwrite >/dev/null &
  done
  wait
  shards_done=$(now)
  rm -rf "$work/merged"
  "$ddalab" merge "$work/shard0" "$work/shard1" --out "$work/merged" >/dev/null
  calc "$(now) - $start" >>"$work/wall.shards"
  calc "$(now) - $shards_done" >>"$work/wall.merge"
  diff -r -x .ddalab "$work/local2" "$work/merged" >/dev/null ||
    { echo "merged shards differ from the local run" >&2; exit 1; }
done

files=("$work"/local2/*.games.csv)
games=$(($(cat "${files[@]}" | wc -l) - ${#files[@]}))
bytes=$(du -sb --exclude=.ddalab "$work/local2" | cut -f1)
checkpoint=$(du -sb "$work/local2/.ddalab" | cut -f1)
csv=$(cat "${files[@]}" | wc -c)
printf 'batch %s, %s games (%s a row), median of %s runs\n' "$batch" "$games" "$n" "$reps"
for mode in t1 t2 shards; do
  wall=$(median <"$work/wall.$mode")
  printf '%-8s %8.2f s  %8.2f games/s\n' "$mode" "$wall" "$(calc "$games / $wall")"
done
printf 'merge    %8.2f s\n' "$(median <"$work/wall.merge")"
printf 'bytes a game: results %.0f (games CSVs %.0f), checkpoints %.0f\n' \
  "$(calc "$bytes / $games")" "$(calc "$csv / $games")" "$(calc "$checkpoint / $games")"
