#!/usr/bin/env bash
# Oneway benchmark, before and after a change: the lossy-link phase of bench/run.sh alone, for two
# revisions in turn on the same machine, as root like bench/run.sh:
#
#     bench/compare-lossy.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are git revisions (built in worktrees under target/compare/). ROUNDS times
# (default 2), for BEFORE then AFTER: new clusters and databases as bench/run.sh makes them, then,
# as bench/run.sh does, a backlog of LOSSY_N x 2 transactions (LOSSY_N x 10 changes) drained by an
# all-in-one replicator started on it over a lossless link, then LOSSY_DRAINS (3) such drains
# through the lossy link (10 % of the messages dropped both ways). Per run: each drain's rate (first
# apply to last) and, for the lossy ones, the waits over 0.3 s with nothing applied (what a lost
# message cost). One line per revision and round in target/compare/lossy.md; each drain's log beside it.
# BEFORE_OPTS and AFTER_OPTS add JVM options to the replicator of either.
# BEFORE_JFR and AFTER_JFR set the settings of either replicator's JFR recording (profile by default);
# -XX:-FlightRecorder in BEFORE_OPTS or AFTER_OPTS runs it without one.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
compare_start compare-lossy.sh lossy.md "$@"
LOSSY_N=${LOSSY_N:-10000}; LOSSY_DRAINS=${LOSSY_DRAINS:-3}

lossy_drains() { # $1 label, $2 source directory: one run; appends its line to RESULTS
  local lossless lossy="" stalls="" from r
  compare_prepare "$1" "$2"
  APP_DIR=$2
  lossless=$(drain lossless)
  for r in $(seq "$LOSSY_DRAINS"); do
    from=$(applied)
    # shellcheck disable=SC2086
    lossy="$lossy $(drain "lossy-$r" $LOSSY_FLAGS)"
    stalls="$stalls; $(drain_stalls "$from")"
  done
  unset APP_DIR
  record "| $1 | $lossless | ${lossy# } | ${stalls#; } |"
}

{ echo "# Lossy link, $1 (before) and $2 (after), $(date -u +%F\ %T) UTC, $(nproc) cores, drains of $((LOSSY_N * 10)) changes"
  echo
  echo "| run | lossless (changes/s) | 10 % lossy (changes/s) | waits over 0.3 s with nothing applied, per lossy drain (s) |"
  echo "|---|---|---|---|"; } > "$RESULTS"
compare_rounds lossy_drains "$1" "$2"
