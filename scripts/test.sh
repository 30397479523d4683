#!/usr/bin/env bash
# Fresh Debian 12 machine -> every test: installs, builds (warnings are errors) and runs CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=ON \
  -DCMAKE_CXX_FLAGS="-Werror" > /dev/null
cmake --build build-test -j2
ctest --test-dir build-test --output-on-failure -j2
