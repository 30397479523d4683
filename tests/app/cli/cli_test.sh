#!/usr/bin/env bash
# End-to-end checks of the ddalab CLI: exit codes, messages and the files a run writes.
# Usage: cli_test.sh DDALAB_BINARY SOURCE_DIR
set -uo pipefail
ddalab=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN COMMAND...: exit code CODE and PATTERN somewhere in stdout+stderr.
expect() {
  local code=$1 pattern=$2
  shift 2
  local output
  output=$("$@" 2>&1)
  local got=$?
  [ "$got" -eq "$code" ] || fail "$* exited $got, expected $code: $output"
  grep -q -- "$pattern" <<<"$output" || fail "$* printed no '$pattern': $output"
}

# Every shipped experiment file is valid.
for f in "$src"/experiments/*.json "$src"/experiments/thesis/*.json "$src"/experiments/investigations/*.json "$src"/studies/protocols/*.json \
  "$src"/experiments/sweeps/*.json; do
  expect 0 ": ok" "$ddalab" validate "$f"
done

# Bad usage and bad input give exit code 2 and say what and where.
expect 2 "unknown command" "$ddalab" frobnicate
expect 2 "usage" "$ddalab"
expect 0 "^ddalab [0-9][0-9.]* (commit \([0-9a-f]\{12\}\(-dirty\)\?\|unknown\), [A-Za-z]*)$" "$ddalab" --version
expect 2 "cannot open" "$ddalab" run "$work/missing.json"
printf '{"format": "ddalab-batch/1", "seed": 1, "experiments": [{"name": "x", "game": {"id": "lud"}, "players": [], "iterations": 1}]}' >"$work/bad.json"
expect 2 "bad.json: \$.experiments\[0\].game.id: unknown game 'lud'; valid: ludo" "$ddalab" run "$work/bad.json"
expect 2 "unrecognised option\|unrecognized option" "$ddalab" run "$src/experiments/quick.json" --thredas 2
expect 2 "unknown list" "$ddalab" list colours
expect 0 "e-hillclimber" "$ddalab" list players
expect 0 "--threads" "$ddalab" run --help
expect 0 "--scale" "$ddalab" bench --help

# A run writes the CSVs and the trace; score recomputes the same tables from them.
expect 0 "ratio to the best" "$ddalab" run "$src/experiments/quick.json" -n 6 -t 2 --seed 9 \
  --out "$work/out" --trace "$work/trace" --quiet
for f in batch.json summary.csv ludo-4hc.scores.csv ludo-4hc__e-random.games.csv \
  ludo-4hc__e-hillclimber.summary.csv; do
  [ -s "$work/out/$f" ] || fail "run wrote no $f"
done
[ "$(wc -l <"$work/out/ludo-4hc__e-random.games.csv")" -eq 7 ] || fail "games.csv is not header + 6 rows"
[ "$(wc -l <"$work/trace/ludo-4hc__e-hillclimber.trace.jsonl")" -eq 6 ] || fail "trace is not 6 lines"
"$ddalab" run "$work/out/batch.json" --out "$work/again" --quiet >"$work/again.txt" 2>&1 ||
  fail "batch.json of a run does not run again"
cmp -s "$work/out/ludo-4hc__e-random.games.csv" "$work/again/ludo-4hc__e-random.games.csv" ||
  fail "re-running batch.json gave different games"
"$ddalab" score "$work/out" >"$work/score.txt" 2>&1 || fail "score failed: $(cat "$work/score.txt")"
grep -q "score9" "$work/score.txt" || fail "score printed no scores"
expect 2 "summary.csv" "$ddalab" score "$work/nothing-here"

# A results folder written before the extended metrics (no drama_trailing..decisiveness_moves
# columns) still scores: the thesis's tables as they were, the extended metrics named as unknown.
# One written before Ludii's metrics has ddalab's four, two under their first names (drama,
# decisiveness): those are known, Ludii's three unknown.
extended='drama_trailing|decisiveness_final_lead|uncertainty|comeback|drama_average|decisiveness_threshold|decisiveness_moves'
mkdir -p "$work/older" "$work/first"
for f in "$work/out"/*.games.csv "$work/out/summary.csv"; do
  awk -F, -v OFS=, -v drop_re="^($extended)\$" 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i ~ drop_re) }
    { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line (line == "" ? "" : OFS) $i; print line }' \
    "$f" >"$work/older/$(basename "$f")"
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { drop[i] = ($i ~ /^(drama_average|decisiveness_threshold|decisiveness_moves)$/)
      if ($i == "drama_trailing") $i = "drama"; if ($i == "decisiveness_final_lead") $i = "decisiveness" } }
    { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line (line == "" ? "" : OFS) $i; print line }' \
    "$f" >"$work/first/$(basename "$f")"
done
cp "$work/out"/*.summary.csv "$work/out/batch.json" "$work/older/"
cp "$work/out"/*.summary.csv "$work/out/batch.json" "$work/first/"
"$ddalab" score "$work/older" >"$work/older.txt" 2>&1 || fail "score of an older folder: $(cat "$work/older.txt")"
grep -q "drama_trailing: not scored (unknown" "$work/older.txt" || fail "the unknown metrics are not named"
"$ddalab" score "$work/first" >"$work/first.txt" 2>&1 || fail "score of a folder before Ludii's metrics: $(cat "$work/first.txt")"
grep -q "drama_average: not scored (unknown" "$work/first.txt" || fail "Ludii's metrics are not named unknown"
! grep -q "drama_trailing: not scored" "$work/first.txt" || fail "drama (now drama_trailing) was not read"
grep -A30 "ratio to the best" "$work/first.txt" | grep -q "ludo-4hc" || fail "no ratio table of the folder before Ludii's metrics"
# score9 and score4 of each row (the ratio table) as the folder with every column gives them
thesis_scores() { sed -n '/ratio to the best/,/^  note\|^  \*/p' "$1" | awk '/^  ludo-4hc\// {print $1, $(NF-2), $(NF-1)}'; }
[ -n "$(thesis_scores "$work/score.txt")" ] || fail "no ratio table rows in $work/score.txt"
[ "$(thesis_scores "$work/older.txt")" = "$(thesis_scores "$work/score.txt")" ] ||
  fail "an older folder's tables 8 and 9 differ: $(thesis_scores "$work/older.txt")"

# Sweeps: the expanded batch is a batch file that runs, --vary adds an axis, a bad axis is named.
sweep="$src/experiments/sweeps/ludo-4mn-random-prob-believability.json"
expect 0 "40 experiments" "$ddalab" sweep expand "$sweep" --out "$work/expanded.json"
expect 0 "ok (40 experiments" "$ddalab" validate "$work/expanded.json"
expect 0 "ludo-4hc/e-hillclimber@tension=0" "$ddalab" run "$src/experiments/quick.json" -n 2 \
  --vary coefficients.tension=0,30 --out "$work/vary" --quiet
[ -f "$work/vary/ludo-4hc@tension=30.scores.csv" ] || { echo "FAIL: no scores of the point tension=30"; failures=$((failures + 1)); }
expect 2 "--vary coefficients.tensoin: at the grid point tensoin=1" "$ddalab" sweep expand "$sweep" \
  --vary coefficients.tensoin=1
expect 2 "unknown action 'grow'" "$ddalab" sweep grow "$sweep"

# Grid values that cannot name a point are refused at the axis by validate, sweep expand and
# run alike: each crashed (exit 139) when a row the sweep leaves alone stood first.
swept_beside() { # PATH VALUE: a comparison of an unvaried row and one sweeping PATH over VALUE, "e"
  local row='"comparison": "c", "game": {"id": "ludo", "params": {"players": 2}}, "iterations": 1'
  printf '{"format": "ddalab-batch/1", "seed": 1, "experiments": [{"name": "c/e-random", %s,
    "environment": {"id": "e-random"}}, {"name": "c/e-hc", %s, "environment": {"id": "e-hillclimber"},
    "sweep": [{"path": "%s", "values": [%s, "e"]}]}]}' "$row" "$row" "$1" "$2" >"$work/swept.json"
}
long_value="\"$(printf '%0190d' 0)\""
for case in "environment.params.random_prob|null|values\[0\]: expected a number, string or boolean" \
  "game.params.safe_squares|[0, 13]|values\[0\]: expected a number, string or boolean" \
  "environment.params|{\"random_prob\": 0.5}|values\[0\]: expected a number, string or boolean" \
  "environment.id|\"e-hill?climber\"|values\[0\]: value \"e-hill?climber\" has '?'" \
  "environment.id|$long_value|: at the grid point id=00.*the experiment \"c/e-random\" is refused: \$.name"; do
  IFS='|' read -r path value message <<<"$case"
  swept_beside "$path" "$value"
  for command in validate "sweep expand"; do
    # shellcheck disable=SC2086 # "sweep expand" is two words
    expect 2 "swept.json: \$.experiments\[1\].sweep\[0\].*$message" "$ddalab" $command "$work/swept.json"
  done
  expect 2 "swept.json: \$.experiments\[1\].sweep\[0\].*$message" "$ddalab" run "$work/swept.json" \
    --out "$work/swept-run" --quiet
  [ ! -e "$work/swept-run" ] || fail "a refused sweep left $work/swept-run"
done
# Two axes on one path (two --vary, --vary on the file's axis) and a repeated value are refused.
expect 2 "--vary coefficients.tension: varies \"coefficients.tension\", as \"coefficients.tension\" of --vary coefficients.tension" \
  "$ddalab" sweep expand "$sweep" --vary coefficients.tension=0,1 --vary coefficients.tension=2
expect 2 "experiments\[1\].sweep\[1\]: varies \"coefficients.believability\", as .* of --vary coefficients.believability" \
  "$ddalab" run "$sweep" --vary coefficients.believability=5 --out "$work/twice" --quiet
expect 2 "--vary coefficients.lead: value 1 (1.0) repeats value 0 (1)" "$ddalab" sweep expand "$sweep" \
  --vary coefficients.lead=1,1.0
# A grid is counted before it is expanded: 10^12 points are refused at once.
printf '{"format": "ddalab-experiment/1", "seed": 1, "name": "x", "game": {"id": "ludo"}, "iterations": 1,
  "sweep": [%s]}' "$(for k in lead tension freedom; do
    printf '{"path": "coefficients.%s", "range": {"from": 1, "to": 10000, "steps": 10000}},' "$k"
  done | sed 's/,$//')" >"$work/huge.json"
expect 2 "huge.json: \$.sweep\[0\]: the grid has 1000000000000 points .* expected at most 100000 experiments" \
  timeout 60 "$ddalab" sweep expand "$work/huge.json"
# sweep expand never writes over its input, however the path is spelled (a hard link too).
cp "$sweep" "$work/self.json"
ln "$work/self.json" "$work/self-link.json"
for out in "$work/self.json" "$work/../$(basename "$work")/self.json" "$work/self-link.json"; do
  expect 2 "--out: '$out' is the input file" "$ddalab" sweep expand "$work/self.json" --out "$out"
done
cmp -s "$sweep" "$work/self.json" || fail "sweep expand --out changed its input"
expect 2 "the file name is too long" "$ddalab" sweep expand "$sweep" --out "$work/$(printf 'a%.0s' {1..300}).json"

# Shards: three shard folders merge into the files of one run; a missing shard is named.
"$ddalab" run "$src/experiments/quick.json" -n 5 --out "$work/one" --quiet >/dev/null 2>&1
for k in 0 1 2; do
  expect 0 "results: $work/shard$k" "$ddalab" run "$src/experiments/quick.json" -n 5 --shard $k/3 \
    --out "$work/shard$k" --quiet
done
expect 0 "merged 3 shards" "$ddalab" merge "$work/shard2" "$work/shard0" "$work/shard1" --out "$work/merged"
diff -r -x .ddalab "$work/one" "$work/merged" >/dev/null || fail "merged shards differ from one run"
expect 2 "shard 1/3 is missing" "$ddalab" merge "$work/shard0" "$work/shard2" --out "$work/merged2"
expect 2 "expected K/N" "$ddalab" run "$src/experiments/quick.json" --shard 3/3
# A "shard" record splits a batch as --shard does: a win-rate objective is refused either way.
objective='{"kind": "win-rate", "seat": 0, "block": 2}'
printf '{"format": "ddalab-batch/1", "seed": 1, "shard": {"index": 1, "count": 2, "ddalab": "0.1.0", "batch_sha256": "%s"}, "experiments": [{"name": "w",
  "game": {"id": "ludo", "params": {"players": 2}}, "environment": {"id": "e-hillclimber"}, "objective": %s,
  "iterations": 4}]}' "$(printf '0%.0s' {1..64})" "$objective" >"$work/shard-record.json"
expect 2 "shard-record.json: \$.shard: experiment 'w' pursues a win-rate objective" "$ddalab" run \
  "$work/shard-record.json" --out "$work/shard-record" --quiet
# An objective on a metric the game cannot have steers nothing: refused (the one-player Maze).
printf '{"format": "ddalab-experiment/1", "seed": 1, "name": "m", "game": {"id": "maze"}, "iterations": 1,
  "environment": {"id": "e-hillclimber"}, "objective": {"kind": "target", "targets": {"fairness": 0}}}' \
  >"$work/maze-fairness.json"
expect 2 "maze-fairness.json: \$.objective.targets.fairness: a game of 1 player cannot have 'fairness'" \
  "$ddalab" validate "$work/maze-fairness.json"

# Merge hardened. A shard's record is input: named by file and JSON path, exit 2.
shards=("$work/shard0" "$work/shard1" "$work/shard2")
cp "$work/shard1/batch.json" "$work/shard1.json"
for edit in 's/"index": 1/"index": -1/' 's/"count": 3/"count": 0/' 's/"index": 1/"index": 5/' \
  's/"count": 3/"count": 2000000000/' 's/"ddalab": "[^"]*"/"ddalab": 5/'; do
  sed "$edit" "$work/shard1.json" >"$work/shard1/batch.json"
  expect 2 "shard1/batch.json: \$.shard.[a-z]*: expected" "$ddalab" merge "${shards[@]}" --out "$work/m-bad"
  [ -e "$work/m-bad" ] && fail "a refused merge ($edit) left --out"
done
cp "$work/shard1.json" "$work/shard1/batch.json"
# --out is never an input: a shard is left as it was, even with --overwrite.
cp -a "$work/shard0" "$work/shard0.copy"
expect 2 "is the shard folder" "$ddalab" merge "${shards[@]}" --out "$work/shard0" --overwrite
expect 2 "holds the shard folder" "$ddalab" merge "${shards[@]}" --out "$work" --overwrite
diff -r "$work/shard0.copy" "$work/shard0" >/dev/null || fail "merge --out SHARD changed the shard"
# A games CSV row edited after the shard ran is refused by file and line (the checkpoint says).
csv=$(ls "$work"/shard1/*.games.csv | head -1)
cp "$csv" "$work/row.csv"
sed -i '3s/\([^,]*\)$/1\1/' "$csv"
expect 2 "$csv: line 3: game [0-9]* differs from the game the shard's checkpoint records" \
  "$ddalab" merge "${shards[@]}" --out "$work/m-edited"
cp "$work/row.csv" "$csv"
# A games CSV that is a FIFO or a link to /dev/zero is refused before it is read (it would block
# the merge forever or fill the memory), and the refused merge leaves neither --out nor its work
# folder.
csv=$(ls "$work"/shard2/*.games.csv | tail -1)
mv "$csv" "$work/fifo.csv"
mkfifo "$csv"
expect 2 "$csv: not a regular file" timeout 20 "$ddalab" merge "${shards[@]}" --out "$work/m-fifo"
rm "$csv"
ln -s /dev/zero "$csv"
expect 2 "$csv: not a regular file" timeout 20 "$ddalab" merge "${shards[@]}" --out "$work/m-fifo"
rm "$csv"
mv "$work/fifo.csv" "$csv"
[ -e "$work/m-fifo" ] || [ -e "$work/.m-fifo.ddalab-merge" ] && fail "a refused merge left --out or its work folder"
# A merge killed midway (kill -9 once its work folder exists; it is stopped first, so that the
# kill lands while the merge is still under way) leaves no --out, and the next merge succeeds.
big=("$work/big0" "$work/big1")
for k in 0 1; do
  "$ddalab" run "$src/experiments/quick.json" -n 3000 --shard $k/2 --out "${big[$k]}" --quiet \
    >/dev/null 2>&1 || fail "the large shard $k did not run"
done
caught=0
for _ in 1 2 3 4 5; do
  rm -rf "$work/killed" "$work/.killed.ddalab-merge"
  "$ddalab" merge "${big[@]}" --out "$work/killed" >/dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && [ ! -d "$work/.killed.ddalab-merge" ]; do sleep 0.01; done
  kill -STOP "$pid" 2>/dev/null
  if [ -d "$work/.killed.ddalab-merge" ] && [ ! -e "$work/killed" ]; then
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    [ -e "$work/killed" ] && fail "a killed merge left --out"
    caught=1
    break
  fi
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
[ "$caught" -eq 1 ] || fail "no merge could be stopped under way in 5 tries"
expect 0 "merged 2 shards" "$ddalab" merge "${big[@]}" --out "$work/killed"
[ -e "$work/.killed.ddalab-merge" ] && fail "a merge left its work folder"
"$ddalab" merge "${shards[@]}" --out "$work/m-small" >/dev/null 2>&1 || fail "the small merge failed"
diff -r -x .ddalab "$work/one" "$work/m-small" >/dev/null || fail "merged shards differ from one run"
# No command replaces what is not a regular file: a FIFO and a symbolic link stay as they were.
mkfifo "$work/out.fifo"
echo keep >"$work/target.json"
ln -s "$work/target.json" "$work/link.json"
expect 2 "out.fifo: is a FIFO" "$ddalab" sweep expand "$sweep" --out "$work/out.fifo"
expect 2 "link.json: is a symbolic link" "$ddalab" sweep expand "$sweep" --out "$work/link.json"
[ -p "$work/out.fifo" ] || fail "sweep expand replaced a FIFO"
[ -L "$work/link.json" ] && [ "$(cat "$work/target.json")" = keep ] || fail "sweep expand replaced a symbolic link"

# User studies: a protocol is validated (its mistakes named by file and JSON path), simulated
# participants' sessions are analysed, and the power of the shipped Ludo protocol is estimated.
study="$src/studies/protocols/user-study-ludo.json"
# One run checks what validate prints (its design note simulates studies: the sanitizer stage
# pays for every run).
validated=$("$ddalab" study validate "$study" 2>&1) || fail "study validate $study failed: $validated"
for pattern in "ok (3 conditions x 2 games" "needs at least 10 participants" \
  "the mixed model with 24 participants (default variances, 100 simulated studies) detects" \
  "online: the participant's id in ?participant=, idle 30 minutes is a dropout; at the end no code, no redirect"; do
  grep -qF -- "$pattern" <<<"$validated" || fail "study validate printed no '$pattern': $validated"
done
sed 's/"latin-square"/"alphabetical"/' "$study" >"$work/bad-study.json"
expect 2 "bad-study.json: \$.order.scheme: expected \"latin-square\"" "$ddalab" study validate "$work/bad-study.json"
# Instruments: the GEQ ships without its texts and validate says so; an unknown one is
# refused at its JSON path.
igeq="$src/studies/protocols/user-study-ludo-igeq.json"
expect 0 "WARNING: 14 items have no text (igeq_01 ... igeq_14)" "$ddalab" study validate "$igeq"
expect 0 "WARNING: 14 items have no text" "$ddalab" validate "$igeq"
sed 's/"imi-interest"/"imi"/' "$igeq" >"$work/bad-instrument.json"
expect 2 "bad-instrument.json: \$.instruments\[1\]: unknown instrument 'imi'" "$ddalab" study validate "$work/bad-instrument.json"
expect 0 "simulated 4 participants" "$ddalab" study simulate "$study" -n 4 --out "$work/pilot" \
  --effect enjoyment:e-hillclimber=1
expect 0 "Within participants" "$ddalab" study analyze "$work/pilot" --out "$work/pilot-analysis"
[ -s "$work/pilot-analysis/fitted-coefficients.json" ] || fail "study analyze wrote no fitted coefficients"
[ ! -e "$work/pilot-analysis/fitted-batch.json" ] || fail "4 participants wrote a fitted batch"
expect 0 "simulated 4 participants" "$ddalab" study simulate "$study" -n 4 --out "$work/pilot" \
  --effect enjoyment:e-hillclimber=1
expect 0 "better than a constant" "$ddalab" study analyze "$work/pilot" --out "$work/pilot-analysis"
expect 0 "user-study-ludo/fitted" "$ddalab" run "$work/pilot-analysis/fitted-batch.json" --iterations 2 \
  --threads 2 --out "$work/fitted-run"
# People on the AI's scale: a ratings.json that rates the study's HillClimber level 100 rates each
# participant (participants_ratings.csv), skill enters the mixed model; a rating file of another
# game, a broken one and skill without ratings are refused.
version=$("$ddalab" --version | head -1 | awk '{print $2}')
cat >"$work/ludo-ratings.json" <<EOF_RATINGS
{"format": "ddalab-ratings/1", "ddalab": "$version", "game": {"id": "ludo", "params": {"players": 2}},
 "entrants": [{"name": "random", "player": {"id": "random", "level": 100, "params": {}}, "rating": 0, "low": 0, "high": 0},
              {"name": "hillclimber-100", "player": {"id": "hillclimber", "level": 100, "params": {}},
               "rating": 400, "low": 350, "high": 450}]}
EOF_RATINGS
expect 0 "Participants on the AI's scale" "$ddalab" study analyze "$work/pilot" --ratings "$work/ludo-ratings.json" \
  --covariate skill --out "$work/rated-analysis"
head -1 "$work/rated-analysis/participants_ratings.csv" | grep -qx \
  "participant,rated,rating,se,low,high,games,score,wins,draws,losses,prior_mean,prior_sd" ||
  fail "participants_ratings.csv has another header"
[ -s "$work/rated-analysis/study-covariate.csv" ] || fail "study analyze --covariate skill wrote no study-covariate.csv"
expect 0 "left out: e-hillclimber" "$ddalab" study analyze "$work/pilot" --ratings "$work/ludo-ratings.json"
sed 's/"players": 2/"players": 4/' "$work/ludo-ratings.json" >"$work/ludo4-ratings.json"
expect 2 "ludo4-ratings.json: \$.game: is" "$ddalab" study analyze "$work/pilot" --ratings "$work/ludo4-ratings.json"
printf '{"format": ' >"$work/broken-ratings.json"
expect 2 "broken-ratings.json" "$ddalab" study analyze "$work/pilot" --ratings "$work/broken-ratings.json"
expect 2 "--covariate: skill needs --ratings" "$ddalab" study analyze "$work/pilot" --covariate skill
expect 2 "--rating-prior-sd: expected --ratings" "$ddalab" study analyze "$work/pilot" --rating-prior-sd 200
expect 2 "--rating-conditions: expected no-dda or all" "$ddalab" study analyze "$work/pilot" \
  --ratings "$work/ludo-ratings.json" --rating-conditions some
# Six participants without a planted effect: the fit does not beat the constant model, so
# nothing runnable is written unless asked for, and then ddalab run refuses it.
expect 0 "simulated 6 participants" "$ddalab" study simulate "$study" -n 6 --out "$work/pilot-noise" \
  --threads 2
expect 0 "no fitted-batch.json" "$ddalab" study analyze "$work/pilot-noise" --out "$work/noise-analysis"
[ ! -e "$work/noise-analysis/fitted-batch.json" ] || fail "an unreliable fit was written runnable"
expect 2 "--write-unreliable-fit: expected --out" "$ddalab" study analyze "$work/pilot-noise" \
  --write-unreliable-fit
expect 0 "UNRELIABLE, not for use" "$ddalab" study analyze "$work/pilot-noise" \
  --out "$work/noise-analysis" --write-unreliable-fit
expect 2 "fitted-batch.json: \$.unreliable_fit: this batch's fitted coefficients did not beat" \
  "$ddalab" run "$work/noise-analysis/fitted-batch.json" --iterations 2 --threads 2 --out "$work/noise-run"
[ ! -e "$work/noise-run" ] || fail "ddalab run ran an unreliable fit"
[ "$(wc -l <"$work/pilot/p03/answers.csv")" -eq 7 ] || fail "a simulated session is not 6 answered games"
# A session read twice or an answer off its scale is refused; a refused simulate creates nothing.
expect 2 "p01: is participant 'p01' of protocol 'user-study-ludo' again" "$ddalab" study analyze \
  "$work/pilot" "$work/pilot/p01"
cp -r "$work/pilot" "$work/pilot-edited"
sed -i 's/"enjoyment": [0-9.]*/"enjoyment": 99/' "$work/pilot-edited/p02/answers-01.json"
expect 2 "p02/answers-01.json: \$.answers.enjoyment: expected a whole number" "$ddalab" study analyze \
  "$work/pilot-edited"
expect 2 "expected 0 (every core) or 1..1024" "$ddalab" study simulate "$study" -n 2 --out "$work/pilot2" \
  --threads 5000
[ ! -e "$work/pilot2" ] || fail "a refused study simulate left $work/pilot2 behind"
expect 0 "simulated 2 participants" "$ddalab" study simulate "$study" -n 2 --out "$work/pilot2" --threads 1
# Nothing to fit with two participants: the analysis is written, then the option is refused.
expect 2 "--write-unreliable-fit: there is no fit to write (2 participants" "$ddalab" study analyze \
  "$work/pilot2" --out "$work/pilot2-analysis" --write-unreliable-fit
[ -s "$work/pilot2-analysis/study-means.csv" ] || fail "a refused --write-unreliable-fit lost the analysis"
[ ! -e "$work/pilot2-analysis/fitted-batch.json" ] || fail "two participants wrote a fitted batch"
# More simulated participants join a study folder after the sessions it holds (p03, not p01 again).
expect 0 "simulated 1 participants" "$ddalab" study simulate "$study" -n 1 --out "$work/pilot2" --threads 1
[ -f "$work/pilot2/p03/session.json" ] || fail "a second simulate did not add p03"
expect 0 "Within participants" "$ddalab" study analyze "$work/pilot2"
# The analysis is never written into the folders it reads, nor onto a file or a FIFO.
expect 2 "--out $work/pilot2/p01: is the folder" "$ddalab" study analyze "$work/pilot2" --out "$work/pilot2/p01"
expect 2 "--out $work/pilot2: is the folder" "$ddalab" study analyze "$work/pilot2" --out "$work/pilot2"
# The tidy export: a row per participant, answered game and item; never written into a
# session folder, over a folder or a FIFO, and read through analyze's checks.
expect 0 "wrote $work/tidy.csv (3 participants, ids hashed)" "$ddalab" study export "$work/pilot2" \
  --out "$work/tidy.csv" --hash-ids
[ "$(wc -l <"$work/tidy.csv")" -eq $((3 * 6 * 5 + 1)) ] || fail "tidy.csv is not 3 x 6 games x 5 items"
head -1 "$work/tidy.csv" | grep -q '^participant,order_row,status,period,condition,condition_number,game,game_seed,decisions,decision_ms_median,' ||
  fail "tidy.csv has another header: $(head -1 "$work/tidy.csv")"
grep -q '^p01,' "$work/tidy.csv" && fail "--hash-ids left a participant id in tidy.csv"
expect 2 "--out: expected the CSV file" "$ddalab" study export "$work/pilot2"
expect 2 "--out $work/pilot2/p01/tidy.csv: is in $work/pilot2" "$ddalab" study export "$work/pilot2" \
  --out "$work/pilot2/p01/tidy.csv"
[ ! -e "$work/pilot2/p01/tidy.csv" ] || fail "study export wrote into a session folder"
expect 2 "--out $work/pilot2: is a folder" "$ddalab" study export "$work/pilot2" --out "$work/pilot2"
expect 2 "out.fifo: is a FIFO" "$ddalab" study export "$work/pilot2" --out "$work/out.fifo"
expect 2 "p01: is participant 'p01' of protocol 'user-study-ludo' again" "$ddalab" study export \
  "$work/pilot" "$work/pilot/p01" --out "$work/tidy2.csv"
expect 2 "p02/answers-01.json: \$.answers.enjoyment: expected a whole number" "$ddalab" study export \
  "$work/pilot-edited" --out "$work/tidy2.csv"
[ ! -e "$work/tidy2.csv" ] || fail "a refused study export wrote its file"
mkfifo "$work/analysis-fifo"
expect 2 "analysis-fifo: is not a folder" "$ddalab" study analyze "$work/pilot2" --out "$work/analysis-fifo"
[ -p "$work/analysis-fifo" ] || fail "study analyze replaced a FIFO"
# The mixed model of a long table (tests/studies/lme4_reference.R compares it with lme4 where R is).
expect 0 "Conditions compared: linear mixed model" "$ddalab" study analyze "$work/pilot2"
expect 0 "^conditione-hillclimber,0.805555" "$ddalab" study mixed-model "$src/tests/studies/data/mixed_crossover12.csv"
printf 'participant,condition,period,answer\na,x,1,3\nb,y,2,high\n' >"$work/bad-long.csv"
expect 2 "bad-long.csv:3: column answer: expected a finite number, got 'high'" "$ddalab" study \
  mixed-model "$work/bad-long.csv"
[ -e "$work/pilot2/p01/study-means.csv" ] && fail "study analyze wrote into a session folder"
expect 2 "unknown condition 'none'" "$ddalab" study simulate "$study" -n 2 --power 2 --effect enjoyment:none=1
# Power: drawn from the mixed model (--power-games plays every study instead); a design
# too small for its tests is warned about in simulate, validate and analyze, naming what it needs.
expect 0 "e-hillclimber - no-dda: planted +1.00, rejected" "$ddalab" study simulate "$study" -n 6 \
  --power 20 --effect enjoyment:e-hillclimber=1
expect 0 "WARNING: 6 participants .* at least 10 participants are needed" "$ddalab" study simulate \
  "$study" -n 6 --power 5
expect 0 "detected" "$ddalab" study simulate "$study" -n 6 --power 2 --power-games
expect 0 "WARNING: 6 participants" "$ddalab" study validate "$study" -n 6
"$ddalab" study validate "$study" -n 48 | grep -q WARNING && fail "study validate warned about 48 participants"
expect 0 "WARNING: 3 participants cannot" "$ddalab" study analyze "$work/pilot2"
expect 2 "--participant-sd: expected a finite standard deviation" "$ddalab" study simulate "$study" \
  -n 6 --power 2 --participant-sd=-1
expect 2 "--residual-sd: expected a finite number" "$ddalab" study simulate "$study" \
  -n 6 --power 2 --residual-sd nan
expect 2 "--residual-sd: applies to --power without --power-games" "$ddalab" study simulate "$study" \
  -n 6 --power 2 --power-games --residual-sd 1
expect 2 "--participant-sd: applies to --power" "$ddalab" study simulate "$study" -n 2 \
  --out "$work/never" --participant-sd 1
[ ! -e "$work/never" ] || fail "a refused study simulate left $work/never behind"
expect 2 "unknown item 'nothing'" "$ddalab" study simulate "$study" -n 6 --power 2 \
  --effect nothing:no-dda=1

# A protocol of one condition (the format allows 1-12): nothing to compare, said, never a crash
# (every study command segfaulted in minimumDetectableEffect).
one="$work/one-condition.json"
sed -e '/"name": "e-hillclimber/d' -e 's/"e-random"}},$/"e-random"}}/' "$study" >"$one"
nothing="protocol 'user-study-ludo' has one condition (no-dda): nothing to compare"
expect 0 "WARNING: $nothing" "$ddalab" study validate "$one"
expect 0 "WARNING: $nothing" "$ddalab" study validate "$one" -n 12
expect 2 "--power: $nothing" "$ddalab" study simulate "$one" -n 6 --power 5
expect 2 "--power: $nothing" "$ddalab" study simulate "$one" -n 6 --power 2 --power-games
expect 0 "simulated 3 participants" "$ddalab" study simulate "$one" -n 3 --out "$work/one" --threads 1
expect 0 "note: $nothing" "$ddalab" study analyze "$work/one" --out "$work/one-analysis"
[ -s "$work/one-analysis/study-means.csv" ] || fail "study analyze of one condition wrote no means"
expect 0 "wrote $work/one.csv (3 participants" "$ddalab" study export "$work/one" --out "$work/one.csv"

# analyze and export read the study folder's allocation log as serve does: a damaged one is
# refused, naming it (they never read it). A simulated study folder with a log written for it.
mkdir -p "$work/alloc"
cp -r "$work/pilot2" "$work/alloc/study"
sum=$(sed -n 's/.*"protocol_sha256": "\([0-9a-f]*\)".*/\1/p' "$work/alloc/study/p01/session.json" | head -1)
line() { printf '{"event":"allocated","participant":"%s","ordinal":%d,"row":%d,"protocol_sha256":"%s"}\n' "$@"; }
log="$work/alloc/study/allocation.jsonl"
{ line p01 0 0 "$sum"; line p02 1 1 "$sum"; line p03 2 2 "$sum"; } >"$work/alloc/good.jsonl"
{ line p01 0 0 "0$sum"; } >"$work/alloc-other.jsonl"
cp "$work/alloc/good.jsonl" "$log"
expect 0 "Within participants" "$ddalab" study analyze "$work/alloc/study"
{ line p01 0 0 "$sum"; echo '{"event": "allocated", "partic'; line p02 1 1 "$sum"; } >"$log"
expect 2 "allocation.jsonl:2:" "$ddalab" study analyze "$work/alloc/study"
expect 2 "allocation.jsonl:2:" "$ddalab" study export "$work/alloc/study" --out "$work/alloc.csv"
{ cat "$work/alloc/good.jsonl"; line p01 5 0 "$sum"; } >"$log"
expect 2 "allocation.jsonl:4: allocates participant 'p01' or number 5 a second time" "$ddalab" \
  study analyze "$work/alloc/study"
{ cat "$work/alloc/good.jsonl"; line p09 1 0 "$sum"; } >"$log"
expect 2 "allocation.jsonl:4: allocates participant 'p09' or number 1" "$ddalab" study export \
  "$work/alloc/study" --out "$work/alloc.csv"
{ cat "$work/alloc/good.jsonl"; echo '{"event":"dropout","participant":"nobody","reason":"withdrawn"}'; } >"$log"
expect 2 "allocation.jsonl:4: records a dropout of 'nobody', who was never allocated" "$ddalab" \
  study analyze "$work/alloc/study/p01"
cp "$work/alloc-other.jsonl" "$log"
expect 2 "allocation.jsonl: holds participants of another protocol" "$ddalab" study analyze \
  "$work/alloc/study"
rm "$log" && ln -s "$work/alloc/good.jsonl" "$log"
expect 2 "allocation.jsonl: is a symbolic link" "$ddalab" study export "$work/alloc/study" \
  --out "$work/alloc.csv"
rm "$log" && mkfifo "$log"
expect 2 "allocation.jsonl: is a FIFO" timeout 20 "$ddalab" study analyze "$work/alloc/study"
rm "$log" && mkdir "$log"
expect 2 "allocation.jsonl: is a folder" "$ddalab" study analyze "$work/alloc/study"
[ ! -e "$work/alloc.csv" ] || fail "a refused study export wrote its file"
# serve refuses it at start, exit 2 (it answered HTTP 500 to every new session).
expect 2 "alloc/study/allocation.jsonl: is a folder" timeout 60 "$ddalab" serve "$study" \
  --dir "$work/alloc/study" --port 0

# bench runs every workload on 1 and 2 threads with identical results, and writes them as
# batches that ddalab run runs.
expect 0 "signature: " "$ddalab" bench --scale 40
expect 0 "6-maze-41x41-hillclimber-thesis-set-up.json" "$ddalab" bench --scale 40 --batches "$work/bench"
expect 0 ": ok" "$ddalab" validate "$work"/bench/*.json

echo "$((failures == 0 ? 1 : 0)) passed, $failures failed"
[ "$failures" -eq 0 ]
