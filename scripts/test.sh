#!/usr/bin/env bash
# Fresh Debian 12 machine -> every test: installs, builds everything (GUI included, warnings are
# errors) and runs CTest (the GUI tests on the offscreen platform and one in a real X server
# under Xvfb); then runs the tests again under AddressSanitizer and UndefinedBehaviorSanitizer;
# then fuzzes the batch parser for a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=ON -DDDALAB_GUI=ON \
  -DCMAKE_CXX_FLAGS="-Werror" > /dev/null
cmake --build build-test -j2
ctest --test-dir build-test --output-on-failure -j2

# Memory errors and undefined behaviour (dangling references, overflows) fail the run.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DDDALAB_TESTS=ON -DDDALAB_GUI=${SANITIZE_GUI:-ON} \
  -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Wno-maybe-uninitialized" \
  > /dev/null
cmake --build build-sanitize -j2
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp ctest --test-dir build-sanitize --output-on-failure -j2

# The batch parser and validator under libFuzzer (findings fail the run).
bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
