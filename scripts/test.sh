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
  # Stages that ran side by side (a fifth column names their group) add their longest lane's wall
  # time to the total, not each one's; a lane (sixth column) is the stages one slot of `together`
  # ran one after another (today one stage each).
  awk -F'\t' '{ printf "  %-18s %6s s wall  %6s s CPU  %s%s\n", $1, $2, $4, $3, ($5 == "" ? "" : "  (side by side)"); cpu += $4
      if ($5 == "") wall += $2; else { lane[$5 SUBSEP $6] += $2; if (lane[$5 SUBSEP $6] > longest[$5]) longest[$5] = lane[$5 SUBSEP $6] } }
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
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$took" "$outcome" "$cpu" "${STAGE_GROUP:-}" "${STAGE_LANE:-}" >>"$STAGE_TIMES_FILE"
  echo "<== $name: ${took} s wall, ${cpu} s CPU, $outcome"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}

# together NAME...: runs the stages side by side, each in a subshell and process group of its own
# (its `times` counts its own children). Each stage's output is kept and printed whole when it
# ends, so stages never interleave their lines; the first stage that fails stops the others
# (SIGTERM to their process groups, so a type error ends the run before the build finishes) and
# the run ends with its status.
together() {
  local dir name code status=0 done_pid
  dir="$(mktemp -d)"
  local -A name_of=()
  set -m
  for name in "$@"; do
    (
      cpu_file="$(mktemp)"
      STAGE_GROUP=$*
      STAGE_LANE=$name
      run_stage "$name"
      code=$?
      rm -f "$cpu_file"
      exit "$code"
    ) >"$dir/$name" 2>&1 &
    name_of[$!]=$name
    echo "==> started $name"
  done
  set +m
  # Polled rather than `wait -n`, which loses track of a job stopped by a signal: a stage that
  # has ended is waited for by its process id, whose status bash keeps.
  while ((${#name_of[@]})); do
    for done_pid in "${!name_of[@]}"; do
      if kill -0 "$done_pid" 2>/dev/null; then continue; fi
      wait "$done_pid"
      code=$?
      name=${name_of[$done_pid]}
      unset "name_of[$done_pid]"
      cat "$dir/$name"
      if ((code != 0 && status == 0)); then
        status=$code
        local other
        for other in "${!name_of[@]}"; do
          echo "<== stopping ${name_of[$other]}: $name failed"
          kill -TERM -- "-$other" 2>/dev/null
        done
      fi
    done
    sleep 1
  done
  rm -rf "$dir"
  if ((status != 0)); then exit "$status"; fi
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
# Unit tests, then integration tests on PGlite and (with TEST_DATABASE_URL) on Postgres, then the
# e2e specs. Not side by side (ADR 066): on two cores the two runners together took longer and
# more CPU than one after the other (895 s against 835 s, 1,614 s of CPU against 1,425 s).
stage unit+integration npm run --silent test:unit
stage e2e npx playwright test
# Three app processes behind Caddy through PgBouncer on Postgres, restarted and killed under
# load (scripts/cluster/drill.ts, ADR 096): it needs a Postgres server, as the Postgres half of
# the integration tests does.
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  stage cluster-drill npm run --silent drill:cluster
else
  echo
  echo "==> cluster-drill: not run (it needs TEST_DATABASE_URL: a Postgres server)"
fi
