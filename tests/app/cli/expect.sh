# Sourced by shell tests (plugin_test.sh, hostile_plugin_test.sh): `fail MESSAGE` and
# `expect CODE TEXT COMMAND...`, which runs the command and fails unless it exits with CODE and
# says TEXT (its output is left in $work/out.txt; $work is the test's scratch folder).
fail() { echo "FAIL: $*"; exit 1; }
expect() {
  local code=$1 text=$2
  shift 2
  "$@" >"$work/out.txt" 2>&1
  local got=$?
  [ "$got" = "$code" ] || { cat "$work/out.txt"; fail "$* exited $got, expected $code"; }
  grep -qF -- "$text" "$work/out.txt" || { cat "$work/out.txt"; fail "$* did not say: $text"; }
}
