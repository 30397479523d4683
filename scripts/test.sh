#!/usr/bin/env bash
# Fresh Debian 12 machine -> every test: installs, builds the user guide as a site (strict mode),
# builds everything (GUI included, warnings are errors) and runs CTest (the GUI tests on the
# offscreen platform and one in a real X server under Xvfb); then runs the tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer (all but the GUI and the tests labelled
# RELEASE_ONLY); then fuzzes the batch parser and the online API for 30 s (both at once). Ends
# with one line of what passed and failed over the stages (every CTest test counted, the docs and
# the fuzzing stage counted as one each); a failed stage makes the script exit non-zero, after the
# stages that can still run have run.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0
failed=0
logs=$(mktemp -d)
# What went wrong is printed when it happens; the logs themselves are not kept.
trap 'rm -rf "$logs"' EXIT

# ctest_stage NAME BUILD_DIR [CTEST ARGS...]: runs CTest in BUILD_DIR, counts its tests.
ctest_stage() {
  local name=$1 dir=$2 log="$logs/$1.log"
  shift 2
  ctest --test-dir "$dir" --output-on-failure -j2 "$@" 2>&1 | tee "$log"
  local summary
  summary=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log" | tail -1)
  if [ -z "$summary" ]; then
    echo "$name: CTest gave no summary"
    failed=$((failed + 1))
    return
  fi
  echo "$name: the slowest tests"
  grep -E 'Test +#[0-9]+: .* sec$' "$log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+).* ([0-9.]+) sec$/\2 \1/' |
    sort -rn | head -8 | sed 's/^/  /'
  local total bad
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$summary")
  bad=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$summary")
  passed=$((passed + total - bad))
  failed=$((failed + bad))
}

# stage_time NAME: prints how long the stage since the last call took (the 40-minute budget).
stage_start=$SECONDS
stage_time() {
  local took=$((SECONDS - stage_start))
  echo "time: $1 $((took / 60)) min $((took % 60)) s"
  timings+="$1 $((took / 60))m$((took % 60))s; "
  stage_start=$SECONDS
}
timings=""

# build NAME COMMAND...: a build step; a failure counts once and skips that stage's tests.
build() {
  local name=$1
  shift
  if "$@"; then return 0; fi
  echo "$name: the build failed"
  failed=$((failed + 1))
  return 1
}

bash scripts/install-deps.sh build gui test cluster || { echo "0 passed, 1 failed"; exit 1; }
stage_time install

# The user guide as a site (mkdocs, strict: a broken link or a missing page fails) and the
# README's links; counted as one test.
if bash scripts/docs.sh; then
  passed=$((passed + 1))
else
  echo "docs: failed"
  failed=$((failed + 1))
fi
stage_time docs

# Unity builds (eight sources a compilation: json.hpp and the shared templates compiled once per
# eight files) halve the CPU time of the libraries' compile; developers' builds stay one file a
# compilation (what ccache and incremental builds want). Both kinds are warning-free.
unity="-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8"
if build release cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=ON \
  -DDDALAB_GUI=ON -DCMAKE_CXX_FLAGS="-Werror" $unity >/dev/null &&
  build release cmake --build build-test -j2; then
  stage_time release-build
  ctest_stage release build-test
fi
stage_time release-tests

# Memory errors and undefined behaviour (dangling references, overflows) fail the run. The GUI
# and its Qt Tests run in the release stage; under the sanitizers (SANITIZE_GUI=ON) they cost
# about ten of the CI's 40 minutes (Qt's headers compiled with AddressSanitizer, the GUI tests
# three times slower), so the CI leaves them out. Line tables (-g1) are all a report needs.
if build sanitize cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DDDALAB_TESTS=ON \
  -DDDALAB_GUI="${SANITIZE_GUI:-OFF}" -DDDALAB_PYTHON=OFF -DCMAKE_CXX_FLAGS_DEBUG=-g1 $unity \
  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Wno-maybe-uninitialized" \
  >/dev/null && build sanitize cmake --build build-sanitize -j2; then
  stage_time sanitize-build
  export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp
  # The tests labelled RELEASE_ONLY (whole workloads, the registration check) ran above.
  ctest_stage sanitize build-sanitize -LE RELEASE_ONLY
fi
stage_time sanitize-tests

# The batch parser and validator and the online study's API, under libFuzzer (findings fail
# the run; both at once, one core each, for the seconds); its thousands of lines of progress go to a log, shown in
# part only when it fails.
if bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}" >"$logs/fuzz.log" 2>&1; then
  echo "fuzz (batch, online): $(grep -E 'stat::number_of_executed_units' "$logs/fuzz.log" | paste -sd' ')"
  passed=$((passed + 1))
else
  tail -60 "$logs/fuzz.log"
  echo "fuzz: failed (the findings are in build-fuzz/findings/)"
  failed=$((failed + 1))
fi
stage_time fuzz

echo "stages: ${timings}total $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
