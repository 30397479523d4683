#!/usr/bin/env bash
# Fresh Debian 12 machine -> the main job: installs, builds ddalab and runs the quick Ludo DDA
# comparison (no DDA vs E-HillClimber); tables on stdout, CSVs in ddalab-out/quick. Builds the
# Python module too (build/python/ddalab: import ddalab).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDDALAB_TESTS=OFF -DDDALAB_GUI=OFF > /dev/null
cmake --build build -j2 --target ddalab ddalab_python
./build/app/cli/ddalab run experiments/quick.json --out ddalab-out/quick "$@"
echo
echo "ddalab is $PWD/build/app/cli/ddalab; to type 'ddalab ...' in this shell:"
echo "  export PATH=\"$PWD/build/app/cli:\$PATH\""
echo "Python (docs/python.md): PYTHONPATH=$PWD/build/python /usr/bin/python3 -c \"import ddalab; print(ddalab.__version__)\""
