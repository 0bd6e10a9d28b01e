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
wait_applied() { # gives up after 20 minutes or when the replicator the phase started has stopped, so that the benchmark always ends
  local target=$1 deadline=$(( $(date +%s) + 1200 ))
  until [ "$(applied)" -ge "$target" ]; do
    [ "$(date +%s)" -lt $deadline ] || { log "gave up waiting for position $target (applied $(applied)); see $OUT/*.log"; exit 1; }
    [ -z "$REPLICATOR_PID" ] || kill -0 "$REPLICATOR_PID" 2>/dev/null || { log "the replicator stopped before position $target was applied (applied $(applied)); see $OUT/*.log"; exit 1; }
    sleep 0.2
  done
}
drain_rate() { # changes/s over the receive log's apply times of positions after $1
  q $CEN $DB "select (count(*) / greatest(extract(epoch from max(applied_at) - min(applied_at)), 0.001))::int from oneway.receive_log where position > $1"
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
  ( cd "${APP_DIR:-.}" && exec java -Xmx512m -XX:StartFlightRecording=filename="$OUT/$1.jfr",settings=profile \
    -Doneway.embedded.enabled=false -Doneway.embedded.broker=true -Doneway.embedded.data-dir="$OUT/data" \
    -Doneway.embedded.broker-port=61617 -Doneway.demo.enabled=false -Dcamel.management.port=9877 \
    -Doneway.remote.jdbc-url="jdbc:postgresql://localhost:$REM/$DB" -Doneway.central.jdbc-url="jdbc:postgresql://localhost:$CEN/$DB" \
    -Doneway.apply.tables=public.customers,public.orders ${REPLICATOR_OPTS:-} "${@:2}" \
    -cp "$CP" io.oneway.main.OnewayMain > "$OUT/$1.log" 2>&1 ) &
  REPLICATOR_PID=$!
}
stop_replicator() {
  PEAK_RSS_KB=$(awk '/VmHWM/ {print $2}' /proc/$REPLICATOR_PID/status)
  kill "$REPLICATOR_PID"; wait "$REPLICATOR_PID" 2>/dev/null || true; REPLICATOR_PID=
}
