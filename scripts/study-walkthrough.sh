#!/usr/bin/env bash
# The user-study walk-through of docs/lab-studies.md, end to end: three participants play the
# shipped Ludo protocol by clicks in ddalab-gui under Xvfb (Qt Test: each starts from File → Run study…'s
# dialog, plays every game on the board and answers every questionnaire), the sessions are
# analysed, an experiment runs with the coefficients fitted to their answers, the power of the
# protocol is estimated with simulated participants, and the false-positive rate is checked on a
# variant whose two conditions are the same.
#
#   scripts/study-walkthrough.sh [OUT] [FITTED_GAMES] [POWER_REPETITIONS]
#   (defaults: study-walkthrough 200 400; BUILD=the build folder, default build)
set -euo pipefail
out=${1:-study-walkthrough}
games=${2:-200}
repetitions=${3:-400}
build=${BUILD:-build}
ddalab=$build/app/cli/ddalab
protocol=studies/protocols/user-study-ludo.json
rm -rf "$out" && mkdir -p "$out/sessions" "$out/img"

echo "== three participants play $protocol by clicks (Xvfb)"
DDALAB_WALKTHROUGH=$(realpath "$out/sessions") DDALAB_SCREENSHOTS=$(realpath "$out/img") \
  xvfb-run -a -s "-screen 0 1280x1024x24" \
  "$build/tests/app/gui/ddalab_study_tests" threeParticipantsPlayTheShippedLudoStudy | tail -3

echo "== the analysis"
"$ddalab" study analyze "$out/sessions" --out "$out/analysis"

# Three participants are too few for a fit (at least 6 are needed, and it must beat the constant
# model): no fitted-batch.json, and the walk-through says so instead of running noise.
if [ -e "$out/analysis/fitted-batch.json" ]; then
  echo "== an experiment with the fitted coefficients ($games games a row)"
  "$ddalab" run "$out/analysis/fitted-batch.json" --iterations "$games" --out "$out/fitted-run" -q
else
  echo "== no fitted-batch.json: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reason"])' "$out/analysis/fitted-coefficients.json")"
fi

echo "== power from the mixed model ($repetitions studies each; docs/user-study.md, Power)"
for n in 12 24 48; do
  for effect in 0 0.5 1; do
    echo "-- $n participants, enjoyment +$effect under e-hillclimber"
    planted=()
    [ "$effect" = 0 ] || planted=(--effect "enjoyment:e-hillclimber=$effect")
    "$ddalab" study simulate "$protocol" -n "$n" --power "$repetitions" --seed 1 "${planted[@]}" |
      grep -E "e-hillclimber - no-dda|minimum detectable"
  done
done

echo "== no difference at all: both conditions e-random, one 1-7 item (1000 studies each)"
python3 - "$protocol" "$out/null-protocol.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["conditions"] = [{"name": "a", "environment": {"id": "e-random"}},
                   {"name": "b", "environment": {"id": "e-random"}}]
p["questionnaire"] = {"items": [{"key": "enjoyment", "text": "How much did you enjoy this game?"}]}
json.dump(p, open(sys.argv[2], "w"))
PY
for n in 12 48; do
  "$ddalab" study simulate "$out/null-protocol.json" -n "$n" --power 1000 --seed 5 | grep "b - a:"
done
