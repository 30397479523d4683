#!/usr/bin/env bash
# The divergence ledger of docs/thesis-study.md, re-run from scratch with one command:
#   scripts/ledger.sh OUT [DDALAB]
# 1. the six thesis comparisons (experiments/thesis/<comparison>.json, 1000 games a row, seed 2016)
#    into OUT/base/<comparison>, unless a finished run is already there;
# 2. every ledger experiment (experiments/ledger/*.json) into OUT/<file stem> (traced ones with
#    --trace OUT/<file stem>/traces);
# 3. python3 scripts/ledger.py OUT: the ledger's numbers.
# Every run is nice'd and single-threaded (2026-11-27, shared 2-core VM under a load of 8-15: the
# base runs 46 min of wall time, the ledger experiments 30 min).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: scripts/ledger.sh OUT [DDALAB]}"
ddalab="${2:-$here/build/app/cli/ddalab}"
[ -x "$ddalab" ] || { echo "ledger.sh: no ddalab executable at $ddalab" >&2; exit 2; }
mkdir -p -- "$out/base"

run() {  # run BATCH FOLDER [extra options]: skipped when FOLDER holds a finished run
  local batch="$1" folder="$2"
  shift 2
  if [ -f "$folder/summary.csv" ] && [ ! -e "$folder/.ddalab.lock" ]; then
    echo "ledger.sh: $folder is done, kept" >&2
    return
  fi
  local start=$SECONDS
  nice -n 10 "$ddalab" run "$batch" --out "$folder" --threads 1 -q "$@"
  echo "ledger.sh: $(basename "$batch") $((SECONDS - start)) s" >&2
}

for comparison in maze lc-hcis lc-mmis ludo-2hc ludo-2mn ludo-4mn; do
  run "$here/experiments/thesis/$comparison.json" "$out/base/$comparison"
done
for batch in "$here"/experiments/ledger/*.json; do
  name="$(basename "$batch" .json)"
  case "$name" in
    *traces*) run "$batch" "$out/$name" --trace "$out/$name/traces" ;;
    *) run "$batch" "$out/$name" ;;
  esac
done
python3 "$here/scripts/ledger.py" "$out"
