#!/usr/bin/env bash
# Fresh Debian 12 machine -> the ddalab-gui window: installs what is missing, builds the GUI and
# opens it (extra arguments go to ddalab-gui, e.g. a batch file or a results folder to open).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh build gui
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=OFF -DDDALAB_GUI=ON > /dev/null
cmake --build build -j2 --target ddalab-gui
exec ./build/app/gui/ddalab-gui "$@"
