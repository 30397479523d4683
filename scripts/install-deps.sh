#!/usr/bin/env bash
# Installs the Debian 12 packages a use of ddalab needs (idempotent). Each caller names its
# profiles, so the quick comparison does not bring the test tools or the Slurm daemons:
#   build    the CLI and the libraries               (scripts/quick.sh)
#   gui      ddalab-gui: Qt 6                        (scripts/gui.sh: build gui)
#   test     the test suite's tools                  (scripts/test.sh: build gui test cluster)
#   cluster  a single-node Slurm for `ddalab slurm` and its test; its daemons are installed
#            without being started or enabled (scripts/slurm-local.sh starts them for the test)
#   bench    Google Benchmark for -DDDALAB_BENCHMARKS=ON, valgrind and perf for scripts/profile.sh
# usage: install-deps.sh PROFILE...   (no profile: build)
set -euo pipefail
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

packages_of() {
  case "$1" in
    # python3-pybind11 and python3-dev build the Python module (import ddalab), which reads results
    # into pandas tables.
    build) echo cmake make g++ libboost-program-options-dev libboost-math-dev nlohmann-json3-dev libeigen3-dev libcpp-httplib-dev pkgconf git \
      python3-dev python3-pybind11 python3-numpy python3-pandas ;;
    # Debian 12's Qt6Charts CMake package needs the OpenGL development files, which
    # --no-install-recommends leaves out; fonts for the offscreen platform.
    gui) echo qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev fonts-dejavu-core ;;
    # Catch2; a comma-decimal locale; a real X server for the GUI tests; clang's libFuzzer;
    # python3 for the check that every test case runs exactly once; R with lme4 and lmerTest,
    # the reference the study's mixed model is checked against live (lme4_live, export_r_live);
    # nginx and openssl for ddalab serve behind TLS (serve_tls runs its own nginx; +6 s); pytest
    # and matplotlib for the Python module's tests and examples; mkdocs builds the user guide as a
    # site in strict mode (scripts/docs.sh), its own theme shipped with it.
    test) echo catch2 locales xvfb xauth clang libclang-rt-14-dev python3 r-base-core \
      r-cran-lme4 r-cran-lmertest r-cran-bradleyterry2 chromium chromium-driver python3-selenium nginx openssl \
      python3-pytest python3-matplotlib mkdocs ;;
    cluster) echo slurmctld slurmd slurm-client munge ;;
    bench) echo libbenchmark-dev valgrind linux-perf jq ;;
    *) echo "install-deps.sh: unknown profile '$1'; valid: build gui test cluster bench" >&2
       return 2 ;;
  esac
}

profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(build)
wanted=()
for profile in "${profiles[@]}"; do
  list=$(packages_of "$profile") || exit 2
  read -ra part <<<"$list"
  wanted+=("${part[@]}")
done

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# Daemons (slurmctld, slurmd, munge, nginx) must not start or be enabled as system services: Debian's
# maintainer scripts ask policy-rc.d, and 101 means "not now". A policy already there is kept.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ${#missing[@]} -gt 0 ]; then
  if [ ! -e "$policy" ]; then
    as_root sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 755 $policy"
    own_policy=1
  fi
  trap '[ "$own_policy" -eq 0 ] || as_root rm -f "$policy"' EXIT
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}"
  # On a machine with systemd the units were enabled for the next boot: undo that for the ones
  # this run installed.
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    for unit in slurmctld slurmd munge nginx; do
      if printf '%s\n' "${missing[@]}" | grep -qx "$unit"; then
        as_root systemctl disable "$unit" >/dev/null 2>&1 || true
      fi
    done
  fi
fi
# The tests prove that CSV output ignores the locale with a comma-decimal one.
if printf '%s\n' "${profiles[@]}" | grep -qx test &&
  ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  as_root localedef -i de_DE -c -f UTF-8 de_DE.UTF-8
fi
