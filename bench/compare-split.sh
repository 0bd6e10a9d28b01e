#!/usr/bin/env bash
# Oneway benchmark, before and after a change: the split deployment's catch-ups alone (as the split
# phases of bench/run.sh), for two revisions in turn on the same machine, as root like bench/run.sh:
#
#     bench/compare-split.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are git revisions (built in worktrees under target/compare/). ROUNDS times
# (default 2), for BEFORE then AFTER: new clusters and databases, a broker on each side made by that
# revision's bin/oneway create-broker and joined by core bridges, a backlog of N x 2 transactions
# (N x 10 changes) written with capture alone, the remote and central replicators started on it (the
# cold catch-up), then WARM_ROUNDS (2) catch-ups by the running replicators (the central database
# away while N x 2 transactions are written). Per drain: its rate (first apply to last) and the CPU
# seconds each of the four processes used (split-PHASE-cpu.txt; both replicators' JFR samples by area
# in split-profiles.txt, with each process's busiest threads; with PERF=1 the whole machine by process
# and function in target/compare/RUN/perf-PHASE.txt). One line per revision and round in target/compare/split.md.
# BEFORE_OPTS and AFTER_OPTS add JVM options to both replicators of either revision.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
compare_start compare-split.sh split.md "$@"
N=${N:-30000}; WARM_ROUNDS=${WARM_ROUNDS:-2}

split_catchups() { # $1 label, $2 source directory: one run; appends its line to RESULTS
  local cold running=""
  compare_prepare "$1" "$2"
  REPLICATOR_OPTS=$RUN_OPTS; split_prepare
  : > "$OUT/split-profiles.txt"
  start_broker branch; start_broker central
  pgb -t "$N" bench > /dev/null
  local backlog; backlog=$(captured)
  start_remote; start_central
  profiled cold wait_applied "$backlog"
  cold=$(drain_rate 0)
  for r in $(seq "$WARM_ROUNDS"); do
    catchup_backlog
    profiled "catchup-$r" catchup_wait; catchup_rate
    running="$running $CATCHUP_RATE"
  done
  split_stop
  record "| $1 | $cold | ${running# } | $(sed 's/^CPU seconds used in the phase, //' "$OUT/split-catchup-$WARM_ROUNDS-cpu.txt") |"
}

{ echo "# Split deployment's catch-ups, $1 (before) and $2 (after), $(date -u +%F\ %T) UTC, $(nproc) cores, backlogs of $((N * 10)) changes"
  echo
  echo "| run | cold catch-up (changes/s) | running replicators' catch-ups (changes/s) | CPU seconds of the last drain |"
  echo "|---|---|---|---|"; } > "$RESULTS"
compare_rounds split_catchups "$1" "$2"
