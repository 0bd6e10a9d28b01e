#!/usr/bin/env bash
# Oneway benchmark, before and after a change: the write cost of capture from the WAL, as bench/run.sh
# measures it, for two revisions in turn on the same machine, as root like bench/run.sh:
#
#     bench/compare-wal.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are git revisions (built in worktrees under target/compare/). ROUNDS times
# (default 2), for BEFORE then AFTER: new clusters and databases as bench/run.sh makes them,
# pgbench's N x 2 transactions (300,000 changes) without capture (the base), then the anchor's
# tables captured from the WAL with that revision's remote replicator alone reading the slot
# (remote profile, nowhere to send): one load with the reader started just before it (its JIT
# compiling meanwhile), then WARM_LOADS (2) loads beside the same reader, warm. Per load: pgbench's
# tps and its ratio to the base; per warm load also the WAL sender's CPU seconds, the time spent in
# the recording's statements and the cores each part used. One line per revision and round in
# target/compare/wal.md. BEFORE_OPTS and AFTER_OPTS add JVM options to the reader of either.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
compare_start compare-wal.sh wal.md "$@"
N=${N:-30000}; WARM_LOADS=${WARM_LOADS:-2}

ratio() { python3 -c "print(round($1 / $2, 2))"; }

wal() { # $1 label, $2 source directory: one run; appends its line to RESULTS
  local base cold line i
  compare_prepare "$1" "$2" uncaptured
  q $REM bench "checkpoint"
  base=$(pgb -t "$N" bench | awk '/^tps/ {print int($3)}')
  APP_DIR=$2 start_wal_reader wal-reader
  q $REM bench "checkpoint"
  cold=$(pgb -t "$N" bench | awk '/^tps/ {print int($3)}'); wal_read
  line="| $1 | $base | $cold, $(ratio "$cold" "$base") |"
  for i in $(seq "$WARM_LOADS"); do
    wal_load
    line="$line $WAL_TPS, **$(ratio "$WAL_TPS" "$base")**; WAL sender $WAL_SENDER s, recording $WAL_RECORDING s; $WAL_CORES |"
  done
  stop_replicator
  record "$line"
}

{ echo "# Capture from the WAL, write cost, $1 (before) and $2 (after), $(date -u +%F\ %T) UTC, $(nproc) cores, $((N * 10)) changes a load"
  echo
  echo "| run | tps without capture | reader started just before: tps, ratio |$(for i in $(seq "$WARM_LOADS"); do echo -n " warm load $i: tps, ratio; CPU |"; done)"
  echo "|---|---|---|$(for i in $(seq "$WARM_LOADS"); do echo -n "---|"; done)"; } > "$RESULTS"
compare_rounds wal "$1" "$2"
