# bench: what bench/run.sh and bench/compare-live.sh share. Sourced; uses the caller's V, REM,
# CEN (PostgreSQL version and ports), DB (the database pair a phase works on), DIST (the
# distribution), CP (its class path), OUT (where logs and recordings go) and RESULTS.
log() { echo "[bench $(date +%T)] $*" >&2; }
q() { psql -h localhost -p "$1" -U postgres -d "$2" -qAtX -c "$3"; }
now() { date +%s.%N; }
rate() { python3 -c "print(int($1 / ($3 - $2)))"; }
record() { echo "$*" | tee -a "$RESULTS" >&2; }
create_clusters() { # the remote (REM) and central (CEN) clusters, set up as the anchor figures
  for c in onewayrem:$REM onewaycen:$CEN; do
    name=${c%%:*}; port=${c##*:}
    pg_createcluster $V "$name" -p "$port" -- -A trust >/dev/null
    cat >> /etc/postgresql/$V/$name/postgresql.conf <<CONF
wal_level = logical
shared_buffers = 512MB
synchronous_commit = ${SYNC:-off}
max_wal_size = 4GB
max_connections = 100
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
CONF
    pg_ctlcluster --skip-systemctl-redirect $V "$name" start
  done
}
make_db() { # $1: a database of the anchor schema on both clusters
  for p in $REM $CEN; do
    q $p postgres "create database $1"
    psql -h localhost -p $p -U postgres -d "$1" -qX -f bench/schema.sql >/dev/null
  done
}
same_customers() { # $1 database: the seed sets updated_at = now(), so the central side gets the remote's rows
  q $CEN "$1" "truncate customers cascade"
  psql -h localhost -p $REM -U postgres -d "$1" -qAtX -c "\copy customers to stdout" | psql -h localhost -p $CEN -U postgres -d "$1" -qX -c "\copy customers from stdin"
}
pgb() { pgbench -n -h localhost -p $REM -U postgres -c 2 -j 2 -f /tmp/oneway_bench_tx.sql "$@"; }
install() { # $1 database: Oneway's SQL on both sides, as an operator installs it
  for side in remote central; do
    JAVA_OPTS="-Doneway.remote.jdbc-url=jdbc:postgresql://localhost:$REM/$1 -Doneway.central.jdbc-url=jdbc:postgresql://localhost:$CEN/$1" \
      "$DIST/bin/oneway" install $side >/dev/null
  done
}
applied() { q $CEN $DB "select coalesce(max(applied_position), 0) from oneway.source_progress"; }
captured() { q $REM $DB "select (select last_position from oneway.position_counter) + (select count(*) from oneway.unpositioned_changes())"; }
wait_on() { # $1 port, $2 database, $3 a boolean query: waits in one session, up to 2 s, until it is true. A psql started
  # for every look cost a sixth of a core, taken from the replication being measured
  q "$1" "$2" "do \$\$ begin for i in 1..40 loop exit when ($3); commit; perform pg_sleep(0.05); end loop; end \$\$"
}
wait_applied() { # gives up after 20 minutes or when the replicator the phase started has stopped, so that the benchmark always ends
  local target=$1 deadline=$(( $(date +%s) + 1200 ))
  until [ "$(applied)" -ge "$target" ]; do
    [ "$(date +%s)" -lt $deadline ] || { log "gave up waiting for position $target (applied $(applied)); see $OUT/*.log"; exit 1; }
    [ -z "$REPLICATOR_PID" ] || kill -0 "$REPLICATOR_PID" 2>/dev/null || { log "the replicator stopped before position $target was applied (applied $(applied)); see $OUT/*.log"; exit 1; }
    wait_on $CEN $DB "select coalesce(max(applied_position), 0) >= $target from oneway.source_progress"
  done
}
drain_rate() { # changes/s over the receive log's apply times of positions after $1
  q $CEN $DB "select (count(*) / greatest(extract(epoch from max(applied_at) - min(applied_at)), 0.001))::int from oneway.receive_log where position > $1"
}
drain() { # $1 label, rest: replicator flags; a fresh backlog of LOSSY_N x 2 transactions, drained by a replicator
  # started on it; prints the rate
  local from; from=$(applied)
  pgb -t "$LOSSY_N" $DB > /dev/null
  local target; target=$(captured)
  start_replicator "$1" "${@:2}"; wait_applied "$target"; stop_replicator
  drain_rate "$from"
}
LOSSY_FLAGS="-Doneway.send.endpoint=direct:lossy-changes -Doneway.apply.reply-endpoint=direct:lossy-replies -Doneway.lossy.drop=0.1"
drain_stalls() { # the waits over 0.3 s between two apply times of positions after $1, the longest first (s)
  q $CEN $DB "select coalesce(string_agg(w::text, ' ' order by w desc), 'none') from (select round(extract(epoch from applied_at - lag(applied_at) over (order by position))::numeric, 2) as w from oneway.receive_log where position > $1) s where w > 0.3"
}
cpu_ticks() { # CPU ticks so far, for bench/cpu.py: this shell's waited-for children (pgbench, psql), each cluster, the
  # replicator (the all-in-one, else the split deployment's two), the machine
  local replicators=${REPLICATOR_PID:-"${REMOTE_PID:-0} ${CENTRAL_PID:-}"}
  # shellcheck disable=SC2086
  python3 bench/cpu.py ticks $$ "$(head -1 /var/lib/postgresql/$V/onewayrem/postmaster.pid)" \
    "$(head -1 /var/lib/postgresql/$V/onewaycen/postmaster.pid)" $replicators
}
start_replicator() { # $1 name (log and JFR file), rest: replicator flags; the all-in-one replicator on $DB, run in
  # APP_DIR (default: here), whose application.properties and routes/ it reads
  ( cd "${APP_DIR:-.}" && exec "${JAVA:-java}" -Xmx512m -XX:+UseParallelGC -XX:StartFlightRecording=filename="$OUT/$1.jfr",settings=${JFR_SETTINGS:-profile} \
    -Doneway.embedded.enabled=false -Doneway.embedded.broker=true -Doneway.embedded.data-dir="$OUT/data" \
    -Doneway.embedded.broker-port=61617 -Doneway.demo.enabled=false -Dcamel.management.port=9877 \
    -Doneway.remote.jdbc-url="jdbc:postgresql://localhost:$REM/$DB" -Doneway.central.jdbc-url="jdbc:postgresql://localhost:$CEN/$DB" \
    -Doneway.apply.tables=public.customers,public.orders ${REPLICATOR_OPTS:-} ${RUN_OPTS:-} "${@:2}" \
    -cp "$CP" io.oneway.main.OnewayMain > "$OUT/$1.log" 2>&1 ) &
  REPLICATOR_PID=$!
}
stop_replicator() {
  PEAK_RSS_KB=$(awk '/VmHWM/ {print $2}' /proc/$REPLICATOR_PID/status)
  kill "$REPLICATOR_PID"; wait "$REPLICATOR_PID" 2>/dev/null || true; REPLICATOR_PID=
}
build() { # $1 revision: a worktree of it, built; prints its directory
  local dir; dir=$COMPARE/src-$(git rev-parse --short "$1")
  [ -d "$dir" ] || git worktree add -f --detach "$dir" "$1" >/dev/null 2>&1
  (cd "$dir" && mvn -q -B package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null)
  echo "$dir"
}
thread_cpu() { # $1 before, $2 after (jcmd Thread.print): CPU seconds per thread in between, the $3 (default 15) largest
  python3 - "$1" "$2" "${3:-15}" <<'PY'
import re, sys
def load(f):
    return {m.group(1): float(m.group(2)) for m in (re.match(r'"(.*?)".*cpu=([\d.]+)ms', l) for l in open(f)) if m}
a, b = load(sys.argv[1]), load(sys.argv[2])
for v, k in sorted(((b[k] - a.get(k, 0.0), k) for k in b), reverse=True)[:int(sys.argv[3])]:
    print(f"{v / 1000:7.2f} s  {k}")
PY
}
catchup_backlog() { # on $DB: the central database away (connections refused, the replicator's sessions
  # ended) while N x 2 transactions are written and numbered; sets CATCHUP_FROM and CATCHUP_TARGET
  CATCHUP_FROM=$(applied)
  q $CEN postgres "alter database $DB allow_connections false"
  q $CEN postgres "select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = '$DB' and application_name = 'oneway-central'" > /dev/null
  pgb -t "$N" $DB > /dev/null
  until [ "$(q $REM $DB "select count(*) from oneway.unpositioned_changes()")" = 0 ]; do sleep 0.2; done
  CATCHUP_TARGET=$(captured)
}
catchup_drain() { # the central database back; sets CATCHUP_N and CATCHUP_RATE (changes/s)
  catchup_wait; catchup_rate
}
catchup_wait() { # the central database back, until the backlog is applied (what a profiled drain counts)
  q $CEN postgres "alter database $DB allow_connections true"
  wait_applied "$CATCHUP_TARGET"
}
catchup_rate() { # after catchup_wait: CATCHUP_N and CATCHUP_RATE (changes/s), by a query over the receive log
  # that costs about half a CPU second, kept out of the drain's CPU
  CATCHUP_N=$((CATCHUP_TARGET - CATCHUP_FROM)); CATCHUP_RATE=$(drain_rate "$CATCHUP_FROM")
}
compare_start() { # the start of bench/compare-*.sh: $1 script name, $2 results file name, the script's arguments after them
  [ $# -ge 4 ] || { echo "usage: bench/$1 BEFORE AFTER [ROUNDS]" >&2; exit 2; }
  V=15; REM=5433; CEN=5434; ROUNDS=${5:-2}
  ROOT=$(pwd); COMPARE=$ROOT/target/compare; mkdir -p "$COMPARE"; RESULTS=$COMPARE/$2
  REPLICATOR_PID=
  trap compare_cleanup EXIT
  cp bench/workload.sql /tmp/oneway_bench_tx.sql; chmod 644 /tmp/oneway_bench_tx.sql
}
compare_cleanup() { # the replicators and brokers, then both clusters
  [ -z "$REPLICATOR_PID" ] || kill "$REPLICATOR_PID" 2>/dev/null || true
  split_stop
  for c in onewayrem onewaycen; do pg_dropcluster --stop $V $c 2>/dev/null || true; done
}
compare_prepare() { # $1 label, $2 source directory, $3 'uncaptured' to leave the tables alone: OUT, DIST, CP, JAVA and
  # RUN_OPTS (BEFORE_OPTS or AFTER_OPTS, BEFORE_JAVA or AFTER_JAVA) of a run, new clusters, the anchor's tables captured
  OUT=$COMPARE/$1; rm -rf "$OUT"; mkdir -p "$OUT"
  case $1 in
    before*) RUN_OPTS=${BEFORE_OPTS:-}; JFR_SETTINGS=${BEFORE_JFR:-profile}; JAVA=${BEFORE_JAVA:-java} ;;
    *) RUN_OPTS=${AFTER_OPTS:-}; JFR_SETTINGS=${AFTER_JFR:-profile}; JAVA=${AFTER_JAVA:-java} ;;
  esac
  # the jar, not target/classes: an AOT cache (JDK 25's -XX:AOTCache) takes classes from jars only
  DIST=$(ls -d "$2"/target/oneway-*/ | head -1); CP="$(ls "$2"/target/oneway-*.jar | head -1):$(cat "$2/target/classpath.txt")"
  compare_cleanup; create_clusters; DB=bench; make_db bench; same_customers bench; install bench
  [ "${3:-}" = uncaptured ] || q $REM bench "select oneway.enable_capture('customers'), oneway.enable_capture('orders')" > /dev/null
}
compare_rounds() { # $1 the function that runs one revision ($1 label, $2 its source directory), $2 BEFORE, $3 AFTER:
  # both built, then ROUNDS runs of each in turn
  local before after round
  log "building $2 and $3"
  before=$(build "$2"); after=$(build "$3")
  for round in $(seq "$ROUNDS"); do
    log "round $round: $2"; "$1" "before-$round" "$before"
    log "round $round: $3"; "$1" "after-$round" "$after"
  done
  log "results: $RESULTS"
}
statements_reset() { # on the databases at these ports (default both)
  for p in ${@:-$REM $CEN}; do q $p bench "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()" > /dev/null; done
}
top_statements() { # on both databases, since statements_reset
  for side in remote:$REM central:$CEN; do
    echo "${side%%:*} database: statements by total time (ms, calls, mean ms; nested ones included)"
    q ${side##*:} bench "select round(total_exec_time) || ' ' || calls || ' ' || round(mean_exec_time::numeric, 2) || ' ' || case when toplevel then '' else '(nested) ' end || left(regexp_replace(query, '\s+', ' ', 'g'), 110) from pg_stat_statements where dbid = (select oid from pg_database where datname = 'bench') order by total_exec_time desc limit 8"
  done
}
# The split deployment (bench/run.sh, bench/compare-split.sh): the remote and central replicators as
# processes of the distribution ($DIST), each logged in to its own broker, the brokers joined by core bridges.
BROKER_PORT_BRANCH=61618; BROKER_PORT_CENTRAL=61619
REMOTE_PID=; CENTRAL_PID=; BRANCH_BROKER_PID=; CENTRAL_BROKER_PID=
split_prepare() { # the split deployment on $DB (its tables captured on the remote): the central side applies
  # them for branch1, and the two brokers are made under $OUT; sets DBS (the replicators' database settings)
  DBS="-Doneway.remote.jdbc-url=jdbc:postgresql://localhost:$REM/$DB -Doneway.central.jdbc-url=jdbc:postgresql://localhost:$CEN/$DB -Doneway.apply.tables=public.customers,public.orders"
  q $CEN $DB "select oneway.enable_apply('customers', 'branch1'), oneway.enable_apply('orders', 'branch1')" >/dev/null
  # branch: forwards the changes to the head office, logging in there as branch1; head office: the replies back, as central
  ARTEMIS_ADMIN_PASSWORD=bench-only ONEWAY_BRIDGE_PASSWORD=DEMO-ONLY-branch1-broker-password "$DIST/bin/oneway" create-broker "$OUT/broker-branch" \
    --port $BROKER_PORT_BRANCH --console-port 0 --memory 1G --forward oneway.branch1.changes=tcp://127.0.0.1:$BROKER_PORT_CENTRAL --bridge-user branch1 >/dev/null
  ARTEMIS_ADMIN_PASSWORD=bench-only ONEWAY_BRIDGE_PASSWORD=DEMO-ONLY-central-broker-password "$DIST/bin/oneway" create-broker "$OUT/broker-central" \
    --port $BROKER_PORT_CENTRAL --console-port 0 --memory 1G --forward oneway.branch1.replies=tcp://127.0.0.1:$BROKER_PORT_BRANCH --bridge-user central >/dev/null
}
start_broker() { # $1 branch|central
  local port; eval "port=\$BROKER_PORT_${1^^}"
  "$OUT/broker-$1/bin/artemis" run >> "$OUT/broker-$1.log" 2>&1 &
  eval "${1^^}_BROKER_PID=$!"
  until (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null; do sleep 0.2; done
}
start_role() { # $1 remote|central, $2 broker user, $3 management port, $4 broker port
  # the recording runs from the start: one started by jcmd mid-run makes the JIT throw away and
  # recompile the replicator's compiled code (JVMTI invalidates it), on the measured phase's cores
  JAVA_OPTS="$DBS -XX:StartFlightRecording=name=split,settings=profile -Doneway.broker.url=tcp://127.0.0.1:$4 -Doneway.broker.user=$2 -Doneway.broker.password=DEMO-ONLY-$2-broker-password -Dcamel.management.port=$3 ${REPLICATOR_OPTS:-}" \
    ONEWAY_LOG_DIR="$OUT/split-$1" "$DIST/bin/oneway" run --profile "$1" > /dev/null 2>&1 &
  eval "${1^^}_PID=$!"
}
start_remote() { start_role remote branch1 9881 $BROKER_PORT_BRANCH; }
start_central() { start_role central central 9882 $BROKER_PORT_CENTRAL; }
split_pids() { echo "$REMOTE_PID $CENTRAL_PID $BRANCH_BROKER_PID $CENTRAL_BROKER_PID"; }
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; } # the machine's busy CPU ticks so far
compiler_seconds() { # $1 before, $2 after (jcmd Thread.print of one JVM; more pairs for more JVMs): the JIT compilers' CPU seconds in between
  while [ $# -ge 2 ]; do thread_cpu "$1" "$2" 1000; shift 2; done | awk '/ C[12] CompilerThread/ {s += $1} END {printf "%.2f", s}'
}
cpu_now() { # the machine's busy CPU ticks, then each process's of split_pids
  echo "$(busy_ticks) $(for p in $(split_pids); do awk '{printf "%d ", $14 + $15}' /proc/$p/stat; done)"
}
profiled() { # $1 phase, rest: a command run with both replicators recorded by JFR and the CPU counted; sets
  # PROFILED_CPU (the machine's busy CPU seconds meanwhile) and PROFILED_JIT (those of the JIT compilers' threads)
  local pid before after begin end
  # each process's threads (jcmd, outside the counted CPU), and with PERF=1 the whole machine (perf)
  for pid in $(split_pids); do jcmd "$pid" Thread.print > "$OUT/threads-$1-$pid-before.txt" 2>/dev/null || true; done
  [ "${PERF:-0}" = 0 ] || { perf record -e cpu-clock -F 999 -a -g -o "$OUT/perf-$1.data" > /dev/null 2>&1 & PERF_PID=$!; }
  begin=$(date +%T); before=$(cpu_now)
  "${@:2}"
  after=$(cpu_now); end=$(date +%T)
  [ -z "${PERF_PID:-}" ] || { ps -eo pid,args > "$OUT/ps-$1.txt"; kill -INT "$PERF_PID"; wait "$PERF_PID" || true; PERF_PID=
    perf script -F comm,pid,tid,time,ip,sym,dso -i "$OUT/perf-$1.data" 2>/dev/null | python3 bench/perf-summary.py "$OUT/ps-$1.txt" > "$OUT/perf-$1.txt"; }
  for pid in $(split_pids); do jcmd "$pid" Thread.print > "$OUT/threads-$1-$pid-after.txt" 2>/dev/null || true; done
  { echo "split deployment, $1 phase, CPU seconds per thread (remote and central replicator, branch and central broker):"
    for pid in $(split_pids); do thread_cpu "$OUT/threads-$1-$pid-before.txt" "$OUT/threads-$1-$pid-after.txt" 8; echo; done; } > "$OUT/split-$1-threads.txt"
  # the JIT compilers' threads of all four processes: how far the JVMs still are from warm
  PROFILED_JIT=$(compiler_seconds $(for pid in $(split_pids); do echo "$OUT/threads-$1-$pid-before.txt $OUT/threads-$1-$pid-after.txt"; done))
  # none with -XX:-FlightRecorder in REPLICATOR_OPTS (measuring the recording's own cost)
  for pid in $REMOTE_PID $CENTRAL_PID; do jcmd "$pid" JFR.dump name=split begin="$begin" filename="$OUT/split-$1-$pid.jfr" > /dev/null || true; done
  PROFILED_CPU=$(python3 - "$(getconf CLK_TCK)" "$before" "$after" "$PROFILED_JIT" "$OUT/split-$1-cpu.txt" <<'PY'
import sys
hz = int(sys.argv[1]); b = [int(x) for x in sys.argv[2].split()]; a = [int(x) for x in sys.argv[3].split()]
d = [(y - x) / hz for x, y in zip(b, a)]
parts = dict(zip(["remote replicator", "central replicator", "branch broker", "central broker"], d[1:]))
parts["PostgreSQL, pgbench and the rest"] = d[0] - sum(d[1:])
with open(sys.argv[5], "w") as out:
    print(f"CPU seconds used in the phase, {d[0]:.1f} in all: " + ", ".join(f"{k} {v:.1f} ({100 * v / d[0]:.0f} %)" for k, v in parts.items())
          + f"; the four JVMs' JIT compilers {float(sys.argv[4]):.1f} of it", file=out)
print(f"{d[0]:.2f}")
PY
)
  { echo "split deployment, $1 phase:"; cat "$OUT/split-$1-cpu.txt" "$OUT/split-$1-threads.txt"
    for pid in $REMOTE_PID $CENTRAL_PID; do
      echo "$([ "$pid" = "$REMOTE_PID" ] && echo remote || echo central) replicator, CPU samples by area:"
      if [ -f "$OUT/split-$1-$pid.jfr" ]; then
        jfr print --stack-depth 64 --events jdk.ExecutionSample "$OUT/split-$1-$pid.jfr" | python3 bench/profile-summary.py "$begin" "$end"
      else echo "(no JFR recording)"; fi
    done; } >> "$OUT/split-profiles.txt"
}
split_stop() { # every process of the split deployment
  [ -z "$(split_pids | tr -d ' ')" ] || { kill $(split_pids) 2>/dev/null || true; wait $(split_pids) 2>/dev/null || true; }
  REMOTE_PID=; CENTRAL_PID=; BRANCH_BROKER_PID=; CENTRAL_BROKER_PID=
}
# Capture from the WAL (bench/run.sh, bench/compare-wal.sh)
start_wal_reader() { # $1 log name: a remote replicator alone (remote profile, an embedded broker, nowhere to send) reading
  # $DB's slot, run in APP_DIR (default: here); once its slot exists, the anchor's tables are captured from the WAL
  ( cd "${APP_DIR:-.}" && exec java -Xmx512m -XX:+UseParallelGC -Doneway.remote.jdbc-url="jdbc:postgresql://localhost:$REM/$DB" \
    -Doneway.capture.from-wal=true -Doneway.broker.url=vm://0 -Doneway.embedded.broker=true -Doneway.embedded.data-dir="$OUT/wal-data" \
    -Doneway.embedded.broker-port=61619 -Dcamel.management.port=9878 ${REPLICATOR_OPTS:-} ${RUN_OPTS:-} \
    -cp "$CP" io.oneway.main.OnewayMain -profile remote > "$OUT/$1.log" 2>&1 ) &
  REPLICATOR_PID=$!
  until [ "$(q $REM $DB "select count(wal_slot) from oneway.position_counter")" = 1 ]; do
    kill -0 "$REPLICATOR_PID" 2>/dev/null || { log "the WAL reader stopped before its slot was made; see $OUT/$1.log"; exit 1; }
    sleep 0.2
  done
  q $REM $DB "select oneway.enable_capture('customers', 'wal'), oneway.enable_capture('orders', 'wal')" > /dev/null
}
wal_read() { # waits until the slot was read past the WAL written so far
  local target; target=$(q $REM $DB "select pg_current_wal_lsn()")
  until [ "$(q $REM $DB "select confirmed_flush_lsn >= '$target' from pg_replication_slots where slot_name = 'oneway'")" = t ]; do sleep 0.1; done
}
wal_load() { # pgbench's N x 2 transactions on $DB beside the running WAL reader, until the reader read them; sets WAL_TPS,
  # WAL_AFTER (s from the writer's end to the reader's), WAL_SECONDS (the writer's start to the reader's end), WAL_CORES (the
  # cores each part used meanwhile), WAL_SENDER (the WAL sender's CPU s) and WAL_RECORDING (the recording's statements, s)
  local walsender ws0 ws1 cpu0 t0 t1 t2 ms
  q $REM $DB "checkpoint"
  q $REM $DB "create extension if not exists pg_stat_statements; select pg_stat_statements_reset()" > /dev/null
  walsender=$(q $REM $DB "select pid from pg_stat_replication where application_name = 'oneway-wal-reader'")
  # with PERF=1 the whole machine is recorded over the load (perf), into $OUT/perf-wal-load-N.txt
  [ "${PERF:-0}" = 0 ] || { WAL_LOADS=$(($(find "$OUT" -maxdepth 1 -name "perf-wal-load-*.txt" | wc -l) + 1)); perf record -e cpu-clock -F 999 -a -g -o "$OUT/perf-wal.data" > /dev/null 2>&1 & PERF_PID=$!; }
  ws0=$(awk '{print $14 + $15}' /proc/$walsender/stat); cpu0=$(cpu_ticks); t0=$(now)
  WAL_TPS=$(pgb -t "$N" $DB | awk '/^tps/ {print int($3)}')
  t1=$(now); wal_read; t2=$(now)
  ws1=$(awk '{print $14 + $15}' /proc/$walsender/stat)
  [ -z "${PERF_PID:-}" ] || { ps -eo pid,args > "$OUT/ps-wal.txt"; kill -INT "$PERF_PID"; wait "$PERF_PID" || true; PERF_PID=
    perf script -F comm,pid,tid,time,ip,sym,dso -i "$OUT/perf-wal.data" 2>/dev/null | python3 bench/perf-summary.py "$OUT/ps-wal.txt" > "$OUT/perf-wal-load-$WAL_LOADS.txt"; }
  WAL_CORES=$(python3 bench/cpu.py cores "$cpu0" "$(cpu_ticks)" "$(python3 -c "print($t2 - $t0)")")
  ms=$(q $REM $DB "select round(coalesce(sum(total_exec_time), 0)) from pg_stat_statements where toplevel and (query like '%wal_recording%' or query ilike '%copy oneway.change_%'
    or query like '%record_wal_changes%')")  # the last: the one statement of revisions before WalRecording
  WAL_AFTER=$(python3 -c "print(round($t2 - $t1, 2))"); WAL_SECONDS=$(python3 -c "print(round($t2 - $t0, 1))")
  WAL_SENDER=$(python3 -c "print(round(($ws1 - $ws0) / $(getconf CLK_TCK), 1))"); WAL_RECORDING=$(python3 -c "print(round($ms / 1000, 1))")
}
