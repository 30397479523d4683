# Sourced by the shell tests of runs (run_safety_test.sh, rate_test.sh): same_files,
# games_checkpointed, no_temporary_files and handles_stops; they call the test's `fail`.

# same_files A B: every visible file of folder A is in B with the same bytes, and vice versa.
same_files() {
  local a=$1 b=$2 f
  for f in "$a"/* "$b"/*; do
    cmp -s "$a/$(basename "$f")" "$b/$(basename "$f")" || { fail "$a and $b differ in $(basename "$f")"; return; }
  done
}

# games_checkpointed DIR: waits until a game of the run into DIR is checkpointed (a journal
# longer than its one-line header); false after 120 s. A stop sent then finds games to keep and,
# with the batch's thousands of games, a run far from finished, however loaded the machine.
games_checkpointed() {
  local journal _
  for _ in $(seq 12000); do
    for journal in "$1"/.ddalab/*.journal; do
      [ -f "$journal" ] && [ "$(wc -c <"$journal")" -gt "$(head -n 1 "$journal" | wc -c)" ] && return 0
    done
    sleep 0.01
  done
  return 1
}

# no_temporary_files DIR: no half-written file is left.
no_temporary_files() {
  if find "$1" -name '*.ddalab-tmp-*' | grep -q .; then fail "temporary files left in $1"; fi
}

# handles_stops PID: waits until PID catches SIGHUP, SIGINT and SIGTERM (the kernel's caught-signal
# mask); false after 60 s. ddalab installs the handlers first thing, but on a loaded machine a
# signal sent a fixed time after the start could still find the default action (SIGINT ignored
# in a background job), which made the tests below flaky.
handles_stops() {
  local mask _
  for _ in $(seq 6000); do
    mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
    [ -n "$mask" ] && (((16#$mask & 0x4003) == 0x4003)) && return 0
    sleep 0.01
  done
  return 1
}
