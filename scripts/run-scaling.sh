#!/usr/bin/env bash
# How `ddalab run` (files written, as a researcher runs it) scales from 1 to 2 threads on the
# `ddalab bench` workloads: wall seconds, medians of R runs, 1 and 2 threads alternated so that
# the shared machine's noise falls on both; and the peak RSS of one experiment of 10^6 games.
#
#   scripts/run-scaling.sh [SCALE] [REPETITIONS] [RSS_GAMES]
#   (defaults: 2000 5 1000000; DDALAB=path/to/ddalab, default build/app/cli/ddalab)
set -euo pipefail
scale=${1:-2000}
reps=${2:-5}
rss_games=${3:-1000000}
ddalab=${DDALAB:-build/app/cli/ddalab}
work=$(mktemp -d /tmp/ddalab-run-scaling.XXXX)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
wall() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }

"$ddalab" bench --scale "$scale" --batches "$work/batches" >/dev/null
printf "%-46s %10s %10s %9s\n" "workload (ddalab run, files written)" "1 thread s" "2 threads s" "speed-up"
for batch in "$work"/batches/*.json; do
  for _ in $(seq "$reps"); do
    for threads in 1 2; do
      wall "$ddalab" run "$batch" -t "$threads" -q --out "$work/out" --overwrite >>"$work/t$threads"
    done
  done
  one=$(median <"$work/t1")
  two=$(median <"$work/t2")
  rm -f "$work/t1" "$work/t2"
  printf "%-46s %10s %10s %8.2fx\n" "$(basename "$batch" .json)" "$one" "$two" \
    "$(awk "BEGIN {print $one / $two}")"
done

# Peak RSS of 10^6 games of the first workload (Ludo, 4 random players) on 2 threads.
sed -E "s/\"iterations\": [0-9]+/\"iterations\": $rss_games/" "$work"/batches/1-*.json >"$work/rss.json"
/usr/bin/time -f "%M %e" "$ddalab" run "$work/rss.json" -t 2 -q --out "$work/rss" 2>"$work/rss.time" >/dev/null
read -r kb seconds < <(tail -1 "$work/rss.time")
echo "peak RSS of $rss_games games (Ludo, 4 random, 2 threads): $((kb / 1024)) MiB in $seconds s;" \
  "games CSV $(du -m "$work"/rss/*.games.csv | cut -f1) MiB"
