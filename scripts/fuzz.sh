#!/usr/bin/env bash
# Fuzzes the batch parser and validator (tests/fuzz/fuzz_batch.cpp) for a bounded time with
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: scripts/fuzz.sh [SECONDS]        (default 60)
# Needs clang (clang++-14 on Debian 12) and libclang-rt-14-dev (the fuzzer runtime).
# The seed corpus is tests/fuzz/corpus/ (read only); new inputs go to build-fuzz/corpus/, and
# any finding (crash, sanitizer report, other exception) to build-fuzz/findings/ with the exit
# code of the fuzzer. Replay one: build-fuzz/fuzz_batch build-fuzz/findings/crash-...
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
cmake --build "$build" -j2 --target fuzz_batch

mkdir -p "$build/corpus" "$build/findings"
# -max_len: above every seed but the shipped all.json, so mutations stay quick; -timeout: a
# validation taking over 10 s is a finding too.
"$build/fuzz_batch" "$build/corpus" tests/fuzz/corpus \
  -dict=tests/fuzz/batch.dict -max_total_time="$seconds" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings/" -print_final_stats=1
