#!/usr/bin/env bash
# Fuzzes, for a bounded time with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer, the
# batch parser and validator (tests/fuzz/fuzz_batch.cpp) and the online study's JSON API
# (tests/fuzz/fuzz_online.cpp), each for half of the seconds.
# Usage: scripts/fuzz.sh [SECONDS]        (default 60, the total of both)
# Needs clang (clang++-14 on Debian 12) and libclang-rt-14-dev (the fuzzer runtime).
# The seed corpora are tests/fuzz/corpus/ and tests/fuzz/corpus-online/ (read only); new inputs
# go to build-fuzz/corpus/ and build-fuzz/corpus-online/, and any finding (crash, sanitizer
# report, 5xx reply, other exception) to build-fuzz/findings/; the script then exits non-zero.
# Replay one: build-fuzz/fuzz_batch build-fuzz/findings/crash-... (or fuzz_online).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=build-fuzz
cxx=${FUZZ_CXX:-$(command -v clang++-14 || command -v clang++ || true)}
if [ -z "$cxx" ]; then
  echo "fuzz.sh: no clang++; install clang and libclang-rt-14-dev" >&2
  exit 2
fi

cmake -S tests/fuzz -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$build" -j2 --target fuzz_batch fuzz_online

mkdir -p "$build/corpus" "$build/corpus-online" "$build/findings"
first=$(((seconds + 1) / 2))
status=0
# -max_len: above every seed but the shipped all.json, so mutations stay quick; -timeout: a
# validation taking over 10 s is a finding too.
"$build/fuzz_batch" "$build/corpus" tests/fuzz/corpus \
  -dict=tests/fuzz/batch.dict -max_total_time="$first" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings/" -print_final_stats=1 || status=$?
# fuzz_online: up to 200 requests an input, each session in a fresh folder (on /dev/shm).
"$build/fuzz_online" "$build/corpus-online" tests/fuzz/corpus-online \
  -dict=tests/fuzz/online.dict -max_total_time="$((seconds - first))" -max_len=4096 -timeout=20 \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings/" -print_final_stats=1 || status=$?
exit "$status"
