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
  # Stages that ran side by side (a fifth column names their group) add their longest wall time
  # to the total, not each one's.
  awk -F'\t' '{ printf "  %-18s %6s s wall  %6s s CPU  %s%s\n", $1, $2, $4, $3, ($5 == "" ? "" : "  (side by side)"); cpu += $4
      if ($5 == "") wall += $2; else if ($2 > longest[$5]) longest[$5] = $2 }
    END { for (group in longest) wall += longest[group]
      printf "  %-18s %6s s wall  %6s s CPU\n", "total", wall, cpu }' "$STAGE_TIMES_FILE"
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
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$took" "$outcome" "$cpu" "${STAGE_GROUP:-}" >>"$STAGE_TIMES_FILE"
  echo "<== $name: ${took} s wall, ${cpu} s CPU, $outcome"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}

# together NAME... -- runs the stages side by side (each in a subshell of its own, whose `times`
# counts its own children), their output kept and printed in order once all have ended; stops
# the run when any failed. For stages that read the sources and write nothing another reads:
# tsc, Biome and dependency-cruiser are about one thread each, so on two cores the build runs
# beside them for nothing.
together() {
  local dir name status=0
  dir="$(mktemp -d)"
  local -a names=() pids=()
  for name in "$@"; do
    (
      cpu_file="$(mktemp)"
      STAGE_GROUP=$*
      run_stage "$name"
      rm -f "$cpu_file"
    ) >"$dir/$name" 2>&1 &
    names+=("$name")
    pids+=("$!")
  done
  for i in "${!names[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$dir/${names[$i]}"
  done
  rm -rf "$dir"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}

run_stage() {
  case $1 in
  typecheck) stage typecheck npm run --silent typecheck ;;
  lint) stage lint npm run --silent lint ;;
  # The import graph: no folder or file cycle, no import the layer table forbids (ADR 060).
  dependencies) stage dependencies npm run --silent check:deps ;;
  # npm run test:e2e is the build and the e2e stage in one command.
  build) stage build npm run --silent build ;;
  esac
}

# The static checks and the build first, side by side: the quickest failures, and build/ ready
# for the e2e stage. (No vitest test reads build/: tests/unit/build-if-stale.test.ts and
# tests/unit/server-command.test.ts work on copies and on package.json.)
together typecheck lint dependencies build
# Unit tests, then integration tests on PGlite and (with TEST_DATABASE_URL) on Postgres.
stage unit+integration npm run --silent test:unit
stage e2e npx playwright test
