#!/usr/bin/env bash
# Makes the guide's screenshots of ddalab-gui (docs/gui.md) from shipped experiments
# (docs/img/): the queue with a finished comparison, a histogram overlay, the comparison chart, the scores and the
# settings dialog. Needs no display (the offscreen platform).
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default build; ddalab and ddalab-gui built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A settings and data folder of its own: no recent files or window layout of the person running it.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
mkdir -p docs/img
# The thesis's two-HillClimber Ludo comparison, every DDA row, 500 games each.
"$build/app/cli/ddalab" run experiments/thesis/ludo-2hc.json --out "$work/ludo-2hc" -n 500 --quiet >/dev/null
# The GUI runs inside the work folder and opens results by their bare names, so the status bar
# says "games read from ludo-2hc", not a temporary path.
gui() { (cd "$work" && "$build/app/gui/ddalab-gui" "$@"); }
gui --screenshot "$root"/docs/img/gui-queue.png --view queue --open ludo-2hc --size 1500x900
gui --screenshot "$root"/docs/img/gui-histogram.png --view histogram --open ludo-2hc --select 0,1 --size 1500x900
gui --screenshot "$root"/docs/img/gui-compare.png --view compare --open ludo-2hc --size 1500x900
gui --screenshot "$root"/docs/img/gui-scores.png --view scores --open ludo-2hc --size 1500x900
gui --screenshot "$root"/docs/img/gui-tests.png --view tests --open ludo-2hc --select 1 --size 1500x900
gui --screenshot "$root"/docs/img/gui-detectability.png --view detectability --open ludo-2hc --select 1 --size 1500x900
"$build/app/cli/ddalab" run experiments/sweeps/ludo-4mn-random-prob-believability.json \
  --out "$work/sweep" --quiet >/dev/null
gui --screenshot "$root"/docs/img/gui-sweep-line.png --view sweep-line --open sweep --size 1024x700
gui --screenshot "$root"/docs/img/gui-sweep-heatmap.png --view sweep-heatmap --open sweep --size 1024x700
gui --screenshot "$root"/docs/img/gui-start.png --view queue --size 1024x700
gui --screenshot "$root"/docs/img/gui-settings.png --view settings --open "$root"/experiments/thesis/ludo-2hc.json --size 1100x800
# Game mode: each game a few rounds in, a person on seat 0 (their moves highlighted), the
# environment's last decision with F broken down; its settings; a replay of a detailed trace.
for game in ludo lost-cities maze; do
  gui --screenshot "$root/docs/img/game-$game.png" --view "$game" --seed 1 --rounds 14 --size 1500x950
done
# HexaLines later on, when all three colours flow.
gui --screenshot "$root"/docs/img/game-hexalines.png --view hexalines --seed 4 --rounds 30 --size 1500x950
gui --screenshot "$root"/docs/img/game-settings.png --view game-settings --size 1100x800
"$build/app/cli/ddalab" run experiments/quick.json --out "$work/quick" --trace "$work/trace" \
  --trace-detail -n 2 --quiet >/dev/null
gui --screenshot "$root"/docs/img/game-replay.png --view replay \
  --open "trace/ludo-4hc__e-hillclimber.trace.jsonl" --rounds 40 --size 1500x950
echo "wrote docs/img/gui-*.png and docs/img/game-*.png"
