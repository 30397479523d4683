#!/usr/bin/env bash
# Installs everything ddalab needs to build and test on Debian 12, the GUI included (idempotent).
set -euo pipefail
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(
  cmake make g++ libboost-program-options-dev libboost-math-dev nlohmann-json3-dev catch2 locales
  # ddalab-gui: Qt 6 Widgets, Charts, Svg. Debian 12's Qt6Charts CMake package needs the OpenGL
  # development files, which --no-install-recommends leaves out; fonts for the offscreen platform.
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev fonts-dejavu-core
  # GUI tests in a real X server
  xvfb xauth
  # the libFuzzer target (scripts/fuzz.sh)
  clang libclang-rt-14-dev
  # the micro-benchmarks (-DDDALAB_BENCHMARKS=ON)
  libbenchmark-dev
  # a single-node Slurm cluster for `ddalab slurm` and its test (scripts/slurm-local.sh)
  slurmctld slurmd slurm-client munge
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# A comma-decimal locale, so the tests can prove the CSV output ignores the locale.
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  as_root localedef -i de_DE -c -f UTF-8 de_DE.UTF-8
fi
