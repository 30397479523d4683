#!/bin/bash
# Runs boards_test.py with a python3 that has Selenium (Debian's python3-selenium lives in
# /usr/bin/python3's path, which a pyenv python3 earlier on PATH does not see); exit 77 (skipped)
# when there is none.
here=$(cd "${0%/*}" && pwd)
script=boards_test.py  # --script NAME: another browser test of this folder (serve_browser_test.py)
if [ "${1:-}" = "--script" ]; then script=$2; shift 2; fi
for python in /usr/bin/python3 python3; do
  if command -v "$python" > /dev/null && "$python" -c 'import selenium' 2> /dev/null; then
    exec "$python" "$here/$script" "$@"
  fi
done
echo "SKIPPED: no python3 with Selenium (apt-get install python3-selenium, or scripts/install-deps.sh test)"
exit 77
