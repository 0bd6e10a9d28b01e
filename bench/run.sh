#!/usr/bin/env bash
# Oneway benchmark: one command, as root, on a machine with PostgreSQL 15 (Debian's
# postgresql-15: pg_createcluster, pgbench), a JDK 17 and Maven:
#
#     bench/run.sh
#
# It makes two PostgreSQL 15 clusters (remote on 5433, central on 5434; synchronous_commit=off
# as in the anchor figures), runs the anchor workload (bench/schema.sql, bench/workload.sql:
# 5 single-row changes per transaction, 2 clients) and measures in the same run:
#   native logical replication (live rate, catch-up of a backlog),
#   capture write cost (pgbench tps with Oneway's capture trigger / without),
#   Oneway catch-up of a 300,000-change backlog (replicator started on it, and a running one after
#   its central database was away while as many were written: its second drain, and after live once
#   its JIT compilers settled), live lag under full-speed pgbench,
#   latency at 500 changes/s, throughput through a 10 % lossy link / lossless, peak memory,
#   capture from the WAL (oneway.capture.from-wal): write cost, catch-up, live rate and lag,
#   a live snapshot (onboarding) of a 1,000,000-row table / native copy_data, and lag meanwhile,
#   and in the split deployment (the remote and central replicators as processes of the
#   distribution, a broker on each side joined by core bridges): the catch-up of replicators
#   started on a backlog and of running ones (the first drain after start, and after live once the JIT
#   compilers settled), live at full speed (capture triggers, then from the WAL), each with a CPU
#   profile of both processes, and the drain after an
#   outage of the head office's broker / of the central replicator.
# Before the split deployment the replicator runs as one JVM (both halves, embedded broker,
# -Xmx512m) with a JFR recording for the profile. Results: target/bench/results.md. It stops by itself and drops
# its clusters. Settings: N (transactions per client for backlogs, default 30000),
# LIVE_SECONDS (60), RATE_TPS (100 transactions/s = 500 changes/s), LOSSY_N (10000),
# OUTAGE_MINUTES (2), OUTAGE_TPS (150 transactions/s during the outages), SNAPSHOT_ROWS (1000000),
# SETTLE_DRAINS (6: most catch-ups of a running replicator, all-in-one and split, to wait for its JIT to settle),
# REPLICATOR_OPTS (extra JVM options of the replicator, e.g. -Doneway.send.frame-size=2000).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
ROOT=$(pwd)
V=15; REM=5433; CEN=5434
N=${N:-30000}; LIVE_SECONDS=${LIVE_SECONDS:-60}; RATE_TPS=${RATE_TPS:-100}; LOSSY_N=${LOSSY_N:-10000}
OUTAGE_MINUTES=${OUTAGE_MINUTES:-2}; OUTAGE_TPS=${OUTAGE_TPS:-150}; SNAPSHOT_ROWS=${SNAPSHOT_ROWS:-1000000}
SETTLE_DRAINS=${SETTLE_DRAINS:-6}
OUT=$ROOT/target/bench; mkdir -p "$OUT"; rm -rf "$OUT/data" "$OUT"/broker-* "$OUT"/split-*
RESULTS=$OUT/results.md
REPLICATOR_PID=

cleanup() {
  for pid in $REPLICATOR_PID $REMOTE_PID $CENTRAL_PID $BRANCH_BROKER_PID $CENTRAL_BROKER_PID; do kill "$pid" 2>/dev/null || true; done
  for c in onewayrem onewaycen; do pg_dropcluster --stop $V $c 2>/dev/null || true; done
}
trap cleanup EXIT

log "building the replicator and its distribution"
mvn -q -B package -DskipTests dependency:build-classpath -Dmdep.outputFile="$OUT/classpath.txt" >/dev/null
CP="$ROOT/target/classes:$(cat "$OUT/classpath.txt")"
DIST=$(ls -d "$ROOT"/target/oneway-*/ | head -1)

log "creating clusters $REM (remote) and $CEN (central)"
cleanup
create_clusters
cp bench/workload.sql /tmp/oneway_bench_tx.sql; chmod 644 /tmp/oneway_bench_tx.sql
verify_db() { # $1 database, $2 tables, $3 output file: Oneway's verify of both sides
  java -cp "$CP" -Doneway.remote.jdbc-url="jdbc:postgresql://localhost:$REM/$1" -Doneway.central.jdbc-url="jdbc:postgresql://localhost:$CEN/$1" \
    -Doneway.apply.tables="$2" io.oneway.ops.OnewayCommand verify > "$3" 2>&1 || true
}
for db in bench native scratch; do make_db $db; done
for db in bench native; do same_customers $db; done

echo "# Oneway benchmark results ($(date -u +%F\ %T) UTC, $(nproc) cores, PostgreSQL $V, N=$N)" > "$RESULTS"

# --- native logical replication, same clusters, own databases -------------------------------
log "native logical replication: live"
q $REM native "create publication p for table customers, orders"
q $CEN native "create subscription s connection 'host=localhost port=$REM user=postgres dbname=native' publication p with (copy_data=false)"
sleep 2
changes=$((N * 2 * 5))
wait_sub() {
  local target; target=$(q $REM native "select pg_current_wal_lsn()")
  local deadline=$(( $(date +%s) + 600 ))
  local caught="select coalesce(latest_end_lsn,'0/0') >= '$target' from pg_stat_subscription where subname='s'"
  until [ "$(q $CEN native "$caught")" = t ]; do
    [ "$(date +%s)" -lt $deadline ] || { log "native subscription did not catch up"; exit 1; }
    wait_on $CEN native "$caught"
  done
}
t0=$(now); native_tps=$(pgb -t "$N" native | awk '/^tps/ {print int($3)}'); t1=$(now); wait_sub; t2=$(now)
native_live=$(rate $changes $t0 $t2)
record "native live: $changes changes, $native_live changes/s end to end, lag after load $(python3 -c "print(round($t2-$t1,2))") s; the writer at $native_tps tps while its WAL was decoded and applied"
log "native logical replication: catch-up"
q $CEN native "alter subscription s disable"
pgb -t "$N" native >/dev/null
t0=$(now); q $CEN native "alter subscription s enable"; wait_sub; t2=$(now)
native_catchup=$(rate $changes $t0 $t2)
record "native catch-up: $changes changes at $native_catchup changes/s"
q $CEN native "drop subscription s"

# --- capture write cost ---------------------------------------------------------------------
log "capture write cost"
install bench
q $REM scratch "checkpoint"
base_tps=$(pgb -t "$N" scratch | awk '/^tps/ {print int($3)}')
q $REM bench "select oneway.enable_capture('customers'), oneway.enable_capture('orders')"
q $REM bench "checkpoint"
capture_tps=$(pgb -t "$N" bench | awk '/^tps/ {print int($3)}')
record "capture write cost: pgbench tps without trigger $base_tps, with Oneway capture $capture_tps, ratio $(python3 -c "print(round($capture_tps/$base_tps,2))"); native logical replication's writer, its WAL decoded and applied on the same cores meanwhile: $native_tps tps, $(python3 -c "print(round($native_tps/$base_tps,2))") of the rate without"

# --- Oneway catch-up of the backlog the capture run left ----------------------------------------
DB=bench # the database pair the phases below work on

backlog=$(captured)
log "Oneway catch-up of $backlog changes"
t0=$(now); start_replicator catchup; wait_applied "$backlog"; t1=$(now)
oneway_catchup=$(drain_rate 0)
record "Oneway catch-up: $backlog changes at $oneway_catchup changes/s (first apply to last; $(rate $backlog $t0 $t1) changes/s including JVM start), $(python3 -c "print(round($oneway_catchup/$native_catchup,2))") x native"
verify_db bench public.customers,public.orders "$OUT/verify.txt"
record "verify after catch-up: $(tr '\n' ' ' < "$OUT/verify.txt")"

# --- catch-up by a running replicator: the central database away while the backlog is written --
# The same JVM, warm from the catch-up above: the central database refuses connections (its
# replicator's sessions ended), N x 2 transactions are written and numbered meanwhile, then it
# comes back; the drain rate counts from the first change applied after it to the last. The cold
# figure above includes the JIT compiling the replicator's code on the same two cores.
log "warm catch-up: central database away while $((N * 2)) transactions are written"
catchup_backlog; catchup_drain
record "Oneway catch-up, running replicator: $CATCHUP_N changes at $CATCHUP_RATE changes/s after the central database came back (first apply to last), $(python3 -c "print(round($CATCHUP_RATE/$native_catchup,2))") x native"

# --- live lag while pgbench writes at full speed ------------------------------------------------
sample_lag() { # $1 file: one line (changes behind, seconds behind) per 0.5 s while process $2 runs. One session per
  # database reads every 0.5 s (psql's \watch): a psql started for every sample cost a fifth of a core, taken from the
  # writer being measured. The seconds behind are worked out afterwards from the changes' logged times (bench/lag.py)
  local central remote logged
  printf '%s\n' "select extract(epoch from clock_timestamp()), coalesce(max(applied_position), 0) from oneway.source_progress" '\watch 0.5' \
    | psql -h localhost -p $CEN -U postgres -d $DB -qAtX -F ' ' > "$1.central" & central=$!
  printf '%s\n' "select extract(epoch from clock_timestamp()), (select last_position from oneway.position_counter) + (select count(*) from oneway.unpositioned_changes())" '\watch 0.5' \
    | psql -h localhost -p $REM -U postgres -d $DB -qAtX -F ' ' > "$1.remote" & remote=$!
  while kill -0 "$2" 2>/dev/null; do sleep 0.5; done
  kill $central $remote 2>/dev/null; wait $central $remote 2>/dev/null || true
  q $REM $DB "select p.position || ' ' || extract(epoch from l.logged_at) from oneway.change_position p join oneway.change_log l on l.log_id = p.log_id
              where p.position = any('{$(python3 bench/lag.py positions "$1.central" "$1.remote")}'::bigint[])" > "$1.logged"
  python3 bench/lag.py lines "$1.central" "$1.remote" "$1.logged" >> "$1"
}
live_run() { # $1 name; pgbench at full speed on $DB for LIVE_SECONDS; sets LIVE_TPS, LIVE_RATE (changes/s
  # replicated, first apply to last), LAG50/99/MAX (s behind), LAGC50/99/MAX (changes behind), CAUGHT (s) and
  # LIVE_CPU (the cores pgbench, each cluster and the replicator used while the writer ran)
  local from t0 t1 t2 writer cpu0; from=$(applied)
  : > "$OUT/$1-lag.txt"
  cpu0=$(cpu_ticks); t0=$(now)
  (pgb -T "$LIVE_SECONDS" $DB > "$OUT/$1-pgbench.txt") & writer=$!
  sample_lag "$OUT/$1-lag.txt" $writer
  wait $writer; t1=$(now); LIVE_CPU=$(python3 bench/cpu.py cores "$cpu0" "$(cpu_ticks)" "$(python3 -c "print($t1 - $t0)")")
  wait_applied "$(captured)"; t2=$(now)
  LIVE_TPS=$(awk '/^tps/ {print int($3)}' "$OUT/$1-pgbench.txt")
  LIVE_RATE=$(drain_rate "$from")
  read -r LAGC50 LAGC99 LAGCMAX < <(awk '{print $1}' "$OUT/$1-lag.txt" | python3 bench/stats.py)
  read -r LAG50 LAG99 LAGMAX < <(awk '{print $2}' "$OUT/$1-lag.txt" | python3 bench/stats.py)
  CAUGHT=$(python3 -c "print(round($t2 - $t1, 2))")
}
live_record() { # $1 what
  record "$1: pgbench $LIVE_TPS tps ($((LIVE_TPS * 5)) changes/s written; $capture_tps with capture alone); $LIVE_RATE changes/s replicated, $(python3 -c "print(round($LIVE_RATE/$native_live,2))") x native live; lag p50 $LAG50 s / $LAGC50 changes, p99 $LAG99 s / $LAGC99 changes, max $LAGMAX s; caught up $CAUGHT s after the load; CPU meanwhile: $LIVE_CPU"
}
log "live: pgbench at full speed for $LIVE_SECONDS s"
for p in $REM $CEN; do q $p bench "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()" > /dev/null; done
live_run live
live_record live
# where the databases' time went in the live phase (statements inside functions counted too)
for side in remote:$REM central:$CEN; do
  echo "${side%%:*} database, live phase: statements by total time (ms, calls, mean ms; nested ones included)"
  q ${side##*:} bench "select round(total_exec_time) || ' ' || calls || ' ' || round(mean_exec_time::numeric, 2) || ' ' || case when toplevel then '' else '(nested) ' end || left(regexp_replace(query, '\s+', ' ', 'g'), 110) from pg_stat_statements where dbid = (select oid from pg_database where datname = 'bench') order by total_exec_time desc limit 8"
done > "$OUT/live-statements.txt"

# --- latency at a light load ----------------------------------------------------------------------
log "latency at $((RATE_TPS * 5)) changes/s"
from=$(applied)
pgb -R "$RATE_TPS" -T 30 bench > /dev/null
wait_applied "$(captured)"
read -r l50 l99 lmax < <(q $CEN bench "select extract(epoch from applied_at - logged_at) from oneway.receive_log where position > $from" | python3 bench/stats.py)
record "latency commit->applied at $((RATE_TPS * 5)) changes/s: p50 $(python3 -c "print(int($l50*1000))") ms, p99 $(python3 -c "print(int($l99*1000))") ms, max $(python3 -c "print(int($lmax*1000))") ms"

# --- catch-up by the running replicator once its JIT has settled ------------------------------------
# The catch-up above is the JVM's second drain, its JIT compilers still busy. After live and latency, the
# running replicator's catch-up again, as often as it takes (at most SETTLE_DRAINS times) for the
# compilers to use under a tenth of a drain's CPU: a replicator that has run for a while.
settle_catchups() { # $1 what, $2 the command that runs a drain ($2 PHASE catchup_wait) and sets PROFILED_JIT and PROFILED_CPU
  local r rates="" settled=no
  for r in $(seq "$SETTLE_DRAINS"); do
    catchup_backlog
    $2 "catchup-settle-$r" catchup_wait; catchup_rate
    rates="$rates $CATCHUP_RATE"
    if python3 -c "import sys; sys.exit(0 if $PROFILED_JIT < 0.1 * $PROFILED_CPU else 1)"; then settled=yes; break; fi
  done
  record "$1, drain $r (compilers settled: $settled, $PROFILED_JIT of $PROFILED_CPU CPU s): $CATCHUP_N changes at $CATCHUP_RATE changes/s, $(python3 -c "print(round($CATCHUP_RATE/$native_catchup,2))") x native; each drain after live: ${rates# } changes/s"
}
jit_counted() { # $1 phase, rest: a command run with the all-in-one replicator's compiler threads and the machine's CPU counted
  local before
  jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-$1-before.txt"; before=$(busy_ticks)
  "${@:2}"
  PROFILED_CPU=$(python3 -c "print(round(($(busy_ticks) - $before) / $(getconf CLK_TCK), 2))")
  jcmd "$REPLICATOR_PID" Thread.print > "$OUT/threads-$1-after.txt"
  PROFILED_JIT=$(compiler_seconds "$OUT/threads-$1-before.txt" "$OUT/threads-$1-after.txt")
}
log "catch-ups until the JIT compilers settle"
settle_catchups "Oneway catch-up, running replicator after live" jit_counted
stop_replicator
record "peak memory (RSS, VmHWM) of the replicator JVM (-Xmx512m): $((PEAK_RSS_KB / 1024)) MB"

# --- lossless and lossy drain of the same size ---------------------------------------------------
log "lossless drain"
lossless=$(drain lossless)
log "lossy drain (10 % drop, both directions)"
lossy_from=$(applied)
# shellcheck disable=SC2086
lossy=$(drain lossy $LOSSY_FLAGS)
record "lossy link 10 % drop both directions: $lossy changes/s vs lossless $lossless changes/s, ratio $(python3 -c "print(round($lossy/$lossless,2))"); waits over 0.3 s with nothing applied: $(drain_stalls "$lossy_from")"

# --- capture from the WAL (oneway.capture.from-wal): write cost, catch-up, live ------------------
# A database pair of its own (walbench), the anchor tables captured with enable_capture(t, 'wal').
# Write cost: pgbench tps while a remote replicator alone (remote profile, with nowhere to send)
# reads the slot and records the change log on the same two cores, and while no replicator runs
# (the changes wait in the slot), against tps without capture on the same database just before.
# Catch-up: a backlog written while no replicator ran (it waits in the slot) read, numbered, sent
# and applied. Live: as above; lag is each change's commit-to-applied time (what waits in the slot
# is not in the change log yet, so the remote's sample would not see it).
log "capture from the WAL"
make_db walbench
# the base: the same database without capture, just before (the scratch database's tables are fresh);
# what it wrote is never captured, so its orders go and the customers are copied to the central side after it
q $REM walbench "checkpoint"
wal_base_tps=$(pgb -t "$N" walbench | awk '/^tps/ {print int($3)}')
q $REM walbench "truncate orders"
same_customers walbench
install walbench
DB=walbench
WAL_OPTS=-Doneway.capture.from-wal=true
start_wal_reader wal-capture
q $REM walbench "checkpoint"
wal_tps=$(pgb -t "$N" walbench | awk '/^tps/ {print int($3)}')
t1=$(now); wal_read; t2=$(now)
record "capture from the WAL, write cost: pgbench tps without capture $wal_base_tps (same database, just before), with the WAL read and recorded meanwhile by a reader started just before it $wal_tps, ratio $(python3 -c "print(round($wal_tps/$wal_base_tps,2))") (the reader finished $(python3 -c "print(round($t2-$t1,2))") s after the writer)"
# the same again, the reader's JVM now compiled (it ran through the load above): a reader runs for days.
# Where its cost goes: the cores each part used, the WAL sender decoding for the reader, and the
# recording statement's time
wal_load
stop_replicator
record "capture from the WAL, write cost with the reader running before the load: pgbench tps $WAL_TPS, ratio $(python3 -c "print(round($WAL_TPS/$wal_base_tps,2))") (the reader finished $WAL_AFTER s after the writer); CPU from the writer's start to the reader's end ($WAL_SECONDS s): $WAL_CORES; of the remote PostgreSQL's, the WAL sender $WAL_SENDER s and the recording's statements $WAL_RECORDING s"
q $REM walbench "checkpoint"
wal_deferred_tps=$(pgb -t "$N" walbench | awk '/^tps/ {print int($3)}')
record "capture from the WAL, write cost with no replicator running (the changes wait in the slot, read after): pgbench tps $wal_deferred_tps, ratio $(python3 -c "print(round($wal_deferred_tps/$wal_base_tps,2))")"
t0=$(now); start_replicator wal-catchup $WAL_OPTS; wal_read; wal_backlog=$(captured); wait_applied "$wal_backlog"; t1=$(now)
wal_catchup=$(drain_rate 0)
record "capture from the WAL, catch-up: $wal_backlog changes (the two write-cost runs', recorded but not sent, and the run's with no replicator, waiting in the slot) at $wal_catchup changes/s (first apply to last; $(rate "$wal_backlog" $t0 $t1) changes/s including JVM start), $(python3 -c "print(round($wal_catchup/$native_catchup,2))") x native"
from=$(applied)
(pgb -T "$LIVE_SECONDS" walbench > "$OUT/wal-live-pgbench.txt") & PGB=$!
wait $PGB; t1=$(now); wal_read; wait_applied "$(captured)"; t2=$(now)
wal_live_tps=$(awk '/^tps/ {print int($3)}' "$OUT/wal-live-pgbench.txt")
wal_live_rate=$(drain_rate "$from")
read -r wl50 wl99 wlmax < <(q $CEN walbench "select extract(epoch from applied_at - logged_at) from oneway.receive_log where position > $from" | python3 bench/stats.py)
record "capture from the WAL, live: pgbench $wal_live_tps tps ($((wal_live_tps * 5)) changes/s written); $wal_live_rate changes/s replicated, $(python3 -c "print(round($wal_live_rate/$native_live,2))") x native live; commit-to-applied p50 $wl50 s, p99 $wl99 s, max $wlmax s; caught up $(python3 -c "print(round($t2-$t1,2))") s after the load"
stop_replicator
verify_db walbench public.customers,public.orders "$OUT/wal-verify.txt"
record "verify after the WAL phases: $(tr '\n' ' ' < "$OUT/wal-verify.txt")"
q $REM walbench "select pg_drop_replication_slot('oneway')" > /dev/null
DB=bench

# --- snapshot: onboarding a SNAPSHOT_ROWS-row table live, against native copy_data -----------------
# The same table on both sides' databases; native: a subscription with copy_data = true, timed
# until every table of it is ready; Oneway: oneway.onboard() with the replicator running and the
# anchor writer at RATE_TPS throughout, timed until the central side applied the end mark; the
# live lag of the anchor tables is sampled meanwhile.
log "snapshot of a $SNAPSHOT_ROWS-row table"
for db in native bench; do
  for p in $REM $CEN; do
    q $p $db "create table items(id bigint primary key, name text not null, qty int not null, price numeric(12,2) not null, note text, updated_at timestamptz not null default now())"
  done
  q $REM $db "insert into items select g, 'item ' || g, g % 1000, g / 100.0, md5(g::text), now() from generate_series(1, $SNAPSHOT_ROWS) g"
  q $REM $db "vacuum analyze items"
done
items_bytes=$(q $REM bench "select pg_table_size('items')")
q $REM native "create publication pi for table items"
t0=$(now)
q $CEN native "create subscription si connection 'host=localhost port=$REM user=postgres dbname=native' publication pi with (copy_data = true)"
until [ "$(q $CEN native "select count(*) = 0 from pg_subscription_rel r join pg_subscription s on s.oid = r.srsubid where s.subname = 'si' and r.srsubstate <> 'r'")" = t ]; do sleep 0.1; done
t1=$(now); native_snapshot=$(rate "$SNAPSHOT_ROWS" "$t0" "$t1")
q $CEN native "drop subscription si"
q $CEN bench "select oneway.enable_apply('items')" > /dev/null
start_replicator snapshot -Doneway.apply.tables=public.customers,public.orders,public.items
# one change through the whole path first: nothing is pending, so waiting for what is captured
# alone would return before the JVM is up, and its start would count as the snapshot's lag
q $REM bench "update customers set updated_at = now() where id = 1"
wait_applied "$(captured)"
: > "$OUT/snapshot-lag.txt"
# pgbench itself in the background (not a subshell around it), so that killing it stops the writer
pgbench -n -h localhost -p $REM -U postgres -c 2 -j 2 -f /tmp/oneway_bench_tx.sql -R "$RATE_TPS" -T 3600 bench > /dev/null & PGB=$!
sample_lag "$OUT/snapshot-lag.txt" $PGB & SAMPLER=$!
t0=$(now); q $REM bench "select oneway.onboard('items')" > /dev/null
deadline=$(( $(date +%s) + 1800 ))
until [ "$(q $REM bench "select state from oneway.snapshot where table_name = 'public.items'")" = done ] \
      && [ "$(q $CEN bench "select count(*) from oneway.snapshot_state")" = 0 ]; do
  [ "$(date +%s)" -lt $deadline ] || { log "the snapshot did not end in 30 minutes; see $OUT/snapshot.log"; exit 1; }
  sleep 0.2
done
t1=$(now)
kill $PGB; wait $PGB 2>/dev/null || true; wait $SAMPLER 2>/dev/null || true
wait_applied "$(captured)"; stop_replicator
# per second of the snapshot: changes and chunks logged on the remote, and applied on the central side
{ echo "second logged chunks_logged"; q $REM bench "select to_char(date_trunc('second', logged_at), 'HH24:MI:SS'), count(*), count(*) filter (where op = 'C')
    from oneway.change_log where logged_at >= to_timestamp($t0) group by 1 order by 1"
  echo "second applied chunks_applied highest_position"; q $CEN bench "select to_char(date_trunc('second', applied_at), 'HH24:MI:SS'), count(*),
    count(*) filter (where op = 'C'), max(position) from oneway.receive_log where applied_at >= to_timestamp($t0) group by 1 order by 1"
} > "$OUT/snapshot-timeline.txt"
oneway_snapshot=$(rate "$SNAPSHOT_ROWS" "$t0" "$t1")
verify_db bench public.customers,public.orders,public.items "$OUT/snapshot-verify.txt"
read -r sl50 sl99 slmax < <(awk '{print $2}' "$OUT/snapshot-lag.txt" | python3 bench/stats.py)
record "snapshot of a $SNAPSHOT_ROWS-row table ($((items_bytes / 1048576)) MB): Oneway $oneway_snapshot rows/s ($(python3 -c "print(round($items_bytes / 1048576 / ($t1 - $t0), 1))") MB/s), native copy_data $native_snapshot rows/s, ratio $(python3 -c "print(round($oneway_snapshot/$native_snapshot,2))"); live lag meanwhile (writer at $((RATE_TPS * 5)) changes/s) p50 $sl50 s, p99 $sl99 s, max $slmax s; $(tr '\n' ' ' < "$OUT/snapshot-verify.txt")"

# --- the split deployment: a broker on each side, joined by core bridges ------------------------
# As README "Deployment": the remote and central replicators as processes of the distribution
# (bin/oneway run --profile), each logged in to its own broker from bin/oneway create-broker, the
# brokers joined by core bridges (changes to the head office's broker, replies back). Measured in
# this topology: the catch-up of replicators started on a backlog, a running replicator's catch-up
# and live at full speed, each with a CPU profile of both replicators (JFR, the phase's part of a recording that runs from their start) and the CPU seconds each process
# used; then the drains after an outage: a writer at OUTAGE_TPS runs through OUTAGE_MINUTES without
# the central replicator, then without the head office's broker, and 90 s beyond; the figure is how
# fast the backlog drains once the part is back.
log "split deployment: a broker on each side, joined by core bridges"
DB=split
make_db split
same_customers split
install split
q $REM split "select oneway.enable_capture('customers'), oneway.enable_capture('orders')" >/dev/null
split_prepare
: > "$OUT/split-profiles.txt"
start_broker branch; start_broker central
# the phases in the all-in-one order: both replicators started on a backlog written with capture alone
# (their JIT compiling meanwhile), then the running replicators' catch-up, then live; each of the
# last two after as many changes through both JVMs as the all-in-one replicator's
log "split deployment: catch-up of $((N * 10)) changes by replicators started on them"
pgb -t "$N" split > /dev/null
split_backlog=$(captured)
start_remote; start_central
profiled cold wait_applied "$split_backlog"
split_cold=$(drain_rate 0)
record "split deployment, catch-up by replicators started on the backlog: $split_backlog changes at $split_cold changes/s (first apply to last), $(python3 -c "print(round($split_cold/$native_catchup,2))") x native"
log "split deployment: catch-up, the central database away while $((N * 2)) transactions are written"
catchup_backlog
profiled catchup catchup_wait; catchup_rate
record "split deployment, catch-up by the running replicators: $CATCHUP_N changes at $CATCHUP_RATE changes/s after the central database came back (first apply to last), $(python3 -c "print(round($CATCHUP_RATE/$native_catchup,2))") x native"
log "split deployment: live at full speed for $LIVE_SECONDS s"
profiled live live_run split-live
live_record "split deployment, live"
# The running replicators' catch-up once more, after live and as often as it takes (at most SETTLE_DRAINS
# times) for the four JVMs' JIT compilers to use under a tenth of a drain's CPU: a deployment that has
# replicated for a while. The first running catch-up above still has the compilers at a quarter or more
# of its CPU (BENCHMARKS.md "The split deployment's JIT warm-up").
log "split deployment: catch-ups until the JIT compilers settle"
settle_catchups "split deployment, catch-up by the running replicators after live" profiled
outage() { # $1 stop command, $2 start command; sets BACKLOG and DRAIN (changes/s)
  local from t0 target t1 t2 writer
  from=$(applied); t0=$(date +%s)
  (pgb -R "$OUTAGE_TPS" -T $((OUTAGE_MINUTES * 60 + 90)) split > /dev/null) & writer=$!
  eval "$1"
  while [ $(( $(date +%s) - t0 )) -lt $((OUTAGE_MINUTES * 60)) ]; do sleep 1; done
  target=$(captured)
  eval "$2"; t1=$(now); wait_applied "$target"; t2=$(now)
  wait $writer || true; wait_applied "$(captured)"
  BACKLOG=$((target - from)); DRAIN=$(rate $BACKLOG "$t1" "$t2")
}
log "split deployment: outages of $OUTAGE_MINUTES min"
outage 'kill $CENTRAL_PID; wait $CENTRAL_PID || true' start_central
central_backlog=$BACKLOG; central_drain=$DRAIN
outage 'kill -9 $CENTRAL_BROKER_PID; wait $CENTRAL_BROKER_PID 2>/dev/null || true' 'start_broker central'
broker_backlog=$BACKLOG; broker_drain=$DRAIN
record "split deployment, outage ($OUTAGE_MINUTES min, writer at $((OUTAGE_TPS * 5)) changes/s throughout): after the head office's broker was killed, $broker_backlog changes drained at $broker_drain changes/s (from the broker's start, the writer still running); after the central replicator was stopped, $central_backlog at $central_drain changes/s (from its start, JVM start included); ratio $(python3 -c "print(round($broker_drain/$central_drain,2))")"
# live again with the tables captured from the WAL: the remote replicator started again with
# oneway.capture.from-wal, as README "Capture from the WAL" turns it on, warmed by as many changes
split_wal_live() { # sets LIVE_TPS, LIVE_RATE, WL50/99/MAX (commit to applied, s) and CAUGHT
  local from t1 t2; from=$(applied)
  (pgb -T "$LIVE_SECONDS" split > "$OUT/split-wal-live-pgbench.txt") & PGB=$!
  wait $PGB; t1=$(now); wal_read; wait_applied "$(captured)"; t2=$(now)
  LIVE_TPS=$(awk '/^tps/ {print int($3)}' "$OUT/split-wal-live-pgbench.txt"); LIVE_RATE=$(drain_rate "$from")
  read -r WL50 WL99 WLMAX < <(q $CEN split "select extract(epoch from applied_at - logged_at) from oneway.receive_log where position > $from" | python3 bench/stats.py)
  CAUGHT=$(python3 -c "print(round($t2 - $t1, 2))")
}
log "split deployment: live from the WAL at full speed for $LIVE_SECONDS s"
kill $REMOTE_PID; wait $REMOTE_PID || true
REPLICATOR_OPTS="${REPLICATOR_OPTS:-} -Doneway.capture.from-wal=true" start_remote
until [ "$(q $REM split "select count(wal_slot) from oneway.position_counter")" = 1 ]; do sleep 0.2; done
q $REM split "select oneway.enable_capture('customers', 'wal'), oneway.enable_capture('orders', 'wal')" > /dev/null
pgb -t "$N" split > /dev/null; wal_read; wait_applied "$(captured)"
profiled live-wal split_wal_live
record "split deployment, live from the WAL: pgbench $LIVE_TPS tps ($((LIVE_TPS * 5)) changes/s written); $LIVE_RATE changes/s replicated, $(python3 -c "print(round($LIVE_RATE/$native_live,2))") x native live; commit-to-applied p50 $WL50 s, p99 $WL99 s, max $WLMAX s; caught up $CAUGHT s after the load"
verify_db split public.customers,public.orders "$OUT/split-verify.txt"
record "verify after the split deployment's phases: $(tr '\n' ' ' < "$OUT/split-verify.txt")"
split_stop
DB=bench

peak_heap=$(jfr print --events jdk.GCHeapSummary "$OUT/catchup.jfr" | awk '/heapUsed/ {v = $3; if ($4 == "GB") v *= 1024; if ($4 == "kB") v /= 1024; if (v > m) m = v} END {print int(m)}')
record "peak heap used (JFR, catch-up, live, latency and settled catch-up phases): $peak_heap MB of 512 MB"
log "profile of the catch-up (JFR)"
{ echo; echo '```'; jfr print --stack-depth 64 --events jdk.ExecutionSample "$OUT/catchup.jfr" | python3 bench/profile-summary.py
  echo "waits for a database (socket reads over 10 ms):"; jfr print --events jdk.SocketRead "$OUT/catchup.jfr" | python3 bench/db-waits.py
  cat "$OUT/live-statements.txt"
  cat "$OUT/split-profiles.txt"
  echo '```'; } >> "$RESULTS"
log "done: $RESULTS"
cat "$RESULTS"
