#!/usr/bin/env bash
# Installs everything ddalab needs to build and test on Debian 12 (idempotent).
# Usage: scripts/install-deps.sh [--gui]   (--gui adds Qt 6 for ddalab-gui)
set -euo pipefail
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(cmake make g++ libboost-program-options-dev nlohmann-json3-dev catch2 locales)
if [ "${1:-}" = "--gui" ]; then packages+=(qt6-base-dev qt6-charts-dev xvfb); fi

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
  as_root localedef -i de_DE -c -f UTF-8 de_DE.UTF-8 || echo "note: could not create de_DE.UTF-8"
fi
