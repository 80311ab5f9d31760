#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest, stopping at the first failure. Each
# stage's time is printed as it ends and again in a table at the end (also after a failure), so a
# slow run shows where its time went: wall time, and the CPU time (user + system) of the stage's
# processes, which a busy machine changes far less than the wall time. STAGE_TIMES_FILE (set by .ci/run, which adds its install
# row) collects the rows; without it they go to a file of this run's own.
set -uo pipefail
cd "$(dirname "$0")/.."

own_file=
if [ -z "${STAGE_TIMES_FILE:-}" ]; then
  STAGE_TIMES_FILE="$(mktemp)"
  own_file=1
fi
export STAGE_TIMES_FILE

print_table() {
  echo
  echo "Stage times:"
  awk -F'\t' '{ printf "  %-18s %6s s wall  %6s s CPU  %s\n", $1, $2, $4, $3; wall += $2; cpu += $4 }
    END { printf "  %-18s %6s s wall  %6s s CPU\n", "total", wall, cpu }' "$STAGE_TIMES_FILE"
  rm -f "$cpu_file"
  if [ -n "$own_file" ]; then rm -f "$STAGE_TIMES_FILE"; fi
}
trap print_table EXIT

# The user + system CPU seconds of this shell's finished child processes (and theirs), from
# bash's `times`, which must run in this shell: a $(subshell) would count its own children.
cpu_file="$(mktemp)"
children_cpu() {
  times >"$cpu_file"
  CHILDREN_CPU=$(tail -n 1 "$cpu_file" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); sum += t[1] * 60 + t[2] } printf "%d", sum }')
}

# stage NAME COMMAND...: runs the command, records how long it took and whether it passed.
stage() {
  local name=$1
  shift
  echo
  echo "==> $name: $*"
  local started=$SECONDS
  children_cpu
  local cpu_before=$CHILDREN_CPU
  "$@"
  local status=$?
  local took=$((SECONDS - started))
  children_cpu
  local cpu=$((CHILDREN_CPU - cpu_before))
  local outcome=ok
  if [ "$status" -ne 0 ]; then outcome="FAILED (exit $status)"; fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$took" "$outcome" "$cpu" >>"$STAGE_TIMES_FILE"
  echo "<== $name: ${took} s wall, ${cpu} s CPU, $outcome"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}

stage typecheck npm run --silent typecheck
stage lint npm run --silent lint
# The import graph: no folder or file cycle, no import the layer table forbids (ADR 060).
stage dependencies npm run --silent check:deps
# Unit tests, then integration tests on PGlite and (with TEST_DATABASE_URL) on Postgres.
stage unit+integration npm run --silent test:unit
# npm run test:e2e is these two stages in one command.
stage build npm run --silent build
stage e2e npx playwright test
