#!/usr/bin/env bash
# Oneway benchmark, before and after a change: the catch-up phases of bench/run.sh alone, for two
# revisions in turn on the same machine, as root like bench/run.sh:
#
#     bench/compare-catchup.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are git revisions (built in worktrees under target/compare/). ROUNDS times
# (default 2), for BEFORE then AFTER: new clusters and databases as bench/run.sh makes them, a
# backlog of N x 2 transactions (N x 10 changes) written with capture alone, the all-in-one
# replicator of that revision started on it (the cold catch-up: its JIT compiles meanwhile), then
# WARM_ROUNDS (2) catch-ups by the running replicator (the central database away while N x 2
# transactions are written, as bench/run.sh does). Per run: each drain's rate (first apply to
# last), the replicator's CPU per thread over the last drain (`jcmd Thread.print`) and the
# statements that took the most time on each database during it. One line per revision and round
# in target/compare/catchup.md; each run's detail beside it.
# PERF=1 records the whole machine (`perf record -a -g`, Debian's linux-perf) over each run's last drain:
# perf.txt has each process's CPU seconds (idle included) and where the busiest PostgreSQL
# backends spent theirs (bench/perf-summary.py).
# BEFORE_OPTS and AFTER_OPTS add JVM options to the replicator of either; with the same revision
# twice they compare options (AFTER_OPTS="-XX:-UseParallelGC -XX:+UseG1GC": G1 instead of the default).
# BEFORE_JFR and AFTER_JFR set the settings of either replicator's JFR recording (profile by default);
# -XX:-FlightRecorder in BEFORE_OPTS or AFTER_OPTS runs it without one.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
compare_start compare-catchup.sh catchup.md "$@"
N=${N:-30000}; WARM_ROUNDS=${WARM_ROUNDS:-2}

catchup() { # $1 label, $2 source directory: one run; appends its line to RESULTS
  local src=$2 cold running=""
  compare_prepare "$1" "$src"
  pgb -t "$N" bench > /dev/null
  q $REM bench "checkpoint"
  APP_DIR=$src start_replicator catchup; wait_applied "$(captured)"
  cold=$(drain_rate 0)
  for r in $(seq "$WARM_ROUNDS"); do
    statements_reset $CEN # the remote's once the backlog is written: the drain's statements, not the writer's
    catchup_backlog
    statements_reset $REM
    jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-before.txt"
    [ "${PERF:-0}" = 0 ] || [ "$r" != "$WARM_ROUNDS" ] || { perf record -e cpu-clock -F 999 -a -g -o "$OUT/perf.data" > /dev/null 2>&1 & PERF_PID=$!; }
    catchup_wait
    [ -z "${PERF_PID:-}" ] || { ps -eo pid,args > "$OUT/ps.txt"; kill -INT "$PERF_PID"; wait "$PERF_PID" || true; PERF_PID=; }
    jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-after.txt"
    catchup_rate
    running="$running $CATCHUP_RATE"
  done
  thread_cpu "$OUT/threads-before.txt" "$OUT/threads-after.txt" > "$OUT/threads.txt"
  top_statements > "$OUT/statements.txt"
  [ ! -f "$OUT/perf.data" ] || perf script -F comm,pid,tid,time,ip,sym,dso -i "$OUT/perf.data" 2>/dev/null \
    | python3 bench/perf-summary.py "$OUT/ps.txt" > "$OUT/perf.txt"
  stop_replicator
  record "| $1 | $cold | ${running# } |"
}

{ echo "# Catch-up, $1 (before) and $2 (after), $(date -u +%F\ %T) UTC, $(nproc) cores, backlogs of $((N * 10)) changes"
  echo
  echo "| run | cold catch-up (changes/s) | running replicator's catch-ups (changes/s) |"
  echo "|---|---|---|"; } > "$RESULTS"
compare_rounds catchup "$1" "$2"
