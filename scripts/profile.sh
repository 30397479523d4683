#!/usr/bin/env bash
# Instruction counts per game (callgrind, 1 thread) of the workloads in docs/performance.md's
# table, so every figure there can be repeated:
#   engine   `ddalab run` of N games minus a 1-game run (every metric tracked, the chance deciles
#            recorded, the games CSV and summaries written), divided by N - 1: Ludo 4 random,
#            Lost Cities 2 random (hand 8), HexaLines 3 random, and the bare HexaLines simulator
#            (scripts/bare_hexalines.cpp: the same rules, no metrics, no files) likewise;
#   search   each searching E-player row of the thesis comparisons (and hexalines-3's E-MaxMax)
#            at G games minus 1 game, per game (6 games; HexaLines' rows 2).
# Usage: scripts/profile.sh [engine|search|all] [BUILD_DIR]   (default: all, build-profile)
#        COMPARISONS="maze lc-mmis" scripts/profile.sh search   (some comparisons' rows only)
# Needs valgrind and jq; builds BUILD_DIR (Release with -g) if ddalab is missing, and the bare
# simulator with the same flags. On the development VM (16ba514) the engine part takes under a
# minute, the six comparisons' search rows about 10 min; hexalines-3's rows take longer (its
# E-MaxMax is 1.3 x 10^10 instructions a game, about a minute a game under callgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
build=${2:-build-profile}
comparisons=${COMPARISONS:-ludo-2hc ludo-2mn ludo-4mn lc-hcis lc-mmis maze hexalines-3}
ddalab=$build/app/cli/ddalab
bare=$build/bare_hexalines
if [ ! -x "$ddalab" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=OFF -DDDALAB_GUI=OFF \
    -DCMAKE_CXX_FLAGS=-g >/dev/null
  cmake --build "$build" -j2 --target ddalab >/dev/null
fi
[ -x "$bare" ] || g++ -std=c++20 -O3 -march=x86-64-v2 -g -o "$bare" scripts/bare_hexalines.cpp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# instructions COMMAND...: the instructions callgrind counts for COMMAND (program and libraries).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/cg.log"
  sed -nE 's/.*Collected : ([0-9]+).*/\1/p' "$work/cg.log"
}

# batch NAME GAMES EXPERIMENT_JSON [SEED]: writes a one-experiment batch of GAMES games to
# $work/NAME.json.
batch() {
  local name=$1 games=$2 experiment=$3 seed=${4:-20261122}
  echo "{\"format\": \"ddalab-batch/1\", \"seed\": $seed, \"experiments\": [$(
    jq -c --argjson n "$games" '. + {iterations: $n}' <<<"$experiment")]}" >"$work/$name.json"
}

# per_game LABEL GAMES EXPERIMENT_JSON [SEED]: (I(GAMES) - I(1)) / (GAMES - 1) of `ddalab run`.
per_game() {
  local label=$1 games=$2 experiment=$3 seed=${4:-20261122}
  batch many "$games" "$experiment" "$seed"
  batch one 1 "$experiment" "$seed"
  rm -rf "$work/out-many" "$work/out-one"
  local many one
  many=$(instructions "$ddalab" run "$work/many.json" --threads 1 --out "$work/out-many" --quiet)
  one=$(instructions "$ddalab" run "$work/one.json" --threads 1 --out "$work/out-one" --quiet)
  printf "%-44s %8d games %14d instructions a game\n" "$label" "$games" \
    $(((many - one) / (games - 1)))
}

engine() {
  per_game "ludo, 4 random" 2000 \
    '{"name": "ludo", "game": {"id": "ludo"}, "players": [{"id": "random"}, {"id": "random"}, {"id": "random"}, {"id": "random"}], "environment": {"id": "e-random"}}'
  per_game "lost-cities, 2 random (hand 8)" 2000 \
    '{"name": "lc", "game": {"id": "lost-cities", "params": {"hand_size": 8}}, "players": [{"id": "random"}, {"id": "random"}], "environment": {"id": "e-random"}}'
  per_game "hexalines, 3 random" 200 \
    '{"name": "hexalines", "game": {"id": "hexalines"}, "players": [{"id": "random"}, {"id": "random"}, {"id": "random"}], "environment": {"id": "e-random"}}'
  local many one
  many=$(instructions "$bare" 200)
  one=$(instructions "$bare" 1)
  printf "%-44s %8d games %14d instructions a game\n" "bare hexalines simulator, 3 random" 200 \
    $(((many - one) / 199))
  # CPU time (user + system, median of 5) of the same 200 HexaLines games' worth of work.
  printf "%-44s %8d games %14s CPU seconds (median of 5)\n" "hexalines, 3 random: ddalab run" 200 \
    "$(cpu_seconds "$ddalab" run "$work/many.json" --threads 1 --out "$work/out-cpu" --quiet --overwrite)"
  printf "%-44s %8d games %14s CPU seconds (median of 5)\n" "hexalines, 3 random: bare simulator" 200 \
    "$(cpu_seconds "$bare" 200)"
}

# cpu_seconds COMMAND...: the median over 5 runs of COMMAND's user + system CPU time.
cpu_seconds() {
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'
  done | sort -n | sed -n 3p
}

# The searching E-player rows of a thesis comparison file at G games (per game, minus 1 game).
search_rows() {
  local file=$1 games=$2
  local names
  names=$(jq -r '.experiments[] | select(.environment.id | test("^e-(hillclimber|maxmax|maxn|montecarlo)$")) | .name' "$file")
  for name in $names; do
    per_game "$name" "$games" "$(jq -c --arg n "$name" '.experiments[] | select(.name == $n)' "$file")" \
      "$(jq .seed "$file")"
  done
}

search() {
  for c in $comparisons; do
    if [ "$c" = hexalines-3 ]; then
      jq '{format, seed, experiments: [.experiments[] | select(.comparison == "hexalines-3")]}' \
        experiments/thesis/all.json >"$work/hexalines-3.json"
      search_rows "$work/hexalines-3.json" 2
    else
      search_rows "experiments/thesis/$c.json" 6
    fi
  done
}

case $what in
  engine) engine ;;
  search) search ;;
  all) engine && search ;;
  *) echo "usage: scripts/profile.sh [engine|search|all] [BUILD_DIR]" >&2; exit 2 ;;
esac
