#!/usr/bin/env bash
# Oneway benchmark, before and after a change: the live phase of bench/run.sh alone, for two
# revisions in turn on the same machine, as root like bench/run.sh:
#
#     bench/compare-live.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are git revisions (built in worktrees under target/compare/). ROUNDS times
# (default 2), for BEFORE then AFTER: new clusters and databases as bench/run.sh makes them, the
# writer with capture alone (pgbench at full speed, WARM_SECONDS), the all-in-one replicator of
# that revision started on that backlog and warmed by WARM_SECONDS more at full speed, then
# pgbench at full speed for LIVE_SECONDS (40). Per run: the writer's tps beside the replicator
# and with capture alone, the changes/s replicated, the latency commit -> applied with the writer
# at 100 transactions/s (500 changes/s) for WARM_SECONDS after the load, the cores that pgbench, each cluster, the
# replicator and the rest used during the load (bench/cpu.py), the replicator's threads' CPU from
# `jcmd Thread.print`, its threads'; the statements that took the most time on each database.
# One figure per revision and round in target/compare/results.md; each run's detail beside it.
# BEFORE_OPTS and AFTER_OPTS add JVM options to the replicator of either; with the same revision
# twice they compare options (AFTER_OPTS="-XX:-UseParallelGC -XX:+UseG1GC": G1 instead of the default).
# BEFORE_JFR and AFTER_JFR set the settings of either replicator's JFR recording (profile by default);
# -XX:-FlightRecorder in BEFORE_OPTS or AFTER_OPTS runs it without one.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
compare_start compare-live.sh results.md "$@"
LIVE_SECONDS=${LIVE_SECONDS:-40}; WARM_SECONDS=${WARM_SECONDS:-20}

live() { # $1 label, $2 source directory: one run; appends its line to RESULTS
  local src=$2 from cap tps t0 t1 cpu0 cpu1 rate cores alone l50 l99
  compare_prepare "$1" "$src"
  q $REM bench "checkpoint"
  cpu0=$(cpu_ticks); t0=$(now); cap=$(pgb -T "$WARM_SECONDS" bench | awk '/^tps/ {print int($3)}'); t1=$(now); cpu1=$(cpu_ticks)
  alone=$(python3 bench/cpu.py cores "$cpu0" "$cpu1" "$(python3 -c "print($t1 - $t0)")")
  APP_DIR=$src start_replicator replicator; wait_applied "$(captured)"
  pgb -T "$WARM_SECONDS" bench > /dev/null; wait_applied "$(captured)"
  statements_reset
  from=$(applied)
  jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-before.txt"; cpu0=$(cpu_ticks)
  t0=$(now); tps=$(pgb -T "$LIVE_SECONDS" bench | awk '/^tps/ {print int($3)}'); t1=$(now)
  cpu1=$(cpu_ticks); jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-after.txt"
  wait_applied "$(captured)"
  rate=$(drain_rate "$from")
  thread_cpu "$OUT/threads-before.txt" "$OUT/threads-after.txt" > "$OUT/threads.txt"
  top_statements > "$OUT/statements.txt"
  # a change that makes fewer, larger frames trades latency for rate: the light load shows the price
  from=$(applied); pgb -R 100 -T "$WARM_SECONDS" bench > /dev/null; wait_applied "$(captured)"
  read -r l50 l99 _ < <(q $CEN bench "select extract(epoch from applied_at - logged_at) from oneway.receive_log where position > $from" | python3 bench/stats.py)
  stop_replicator
  cores=$(python3 bench/cpu.py cores "$cpu0" "$cpu1" "$(python3 -c "print($t1 - $t0)")")
  record "| $1 | $tps | $cap | $(python3 -c "print(round($tps / $cap, 2))") | $rate | $(python3 -c "print(int($l50*1000), '/', int($l99*1000))") | $cores | $alone |"
}

{ echo "# Live phase, $1 (before) and $2 (after), $(date -u +%F\ %T) UTC, $(nproc) cores, $LIVE_SECONDS s at full speed"
  echo
  echo "| run | writer tps beside the replicator | with capture alone | ratio | changes/s replicated | latency p50 / p99 at 500 changes/s (ms) | CPU in cores during the load | CPU in cores with capture alone |"
  echo "|---|---|---|---|---|---|---|---|"; } > "$RESULTS"
compare_rounds live "$1" "$2"
