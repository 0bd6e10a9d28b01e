-- The longest lock wait of this replicator's sessions (those with its application_name), if it
-- has lasted the given seconds, with the session that holds the lock. Another user's statement
-- reads as null unless the replicator's user may read it (pg_read_all_stats).
select extract(epoch from now() - w.query_start)::bigint as waiting_seconds, w.wait_event,
       left(btrim(regexp_replace(regexp_replace(w.query, '--[^\n]*', '', 'g'), '\s+', ' ', 'g')), 100) as query,
       b.pid as blocker_pid, b.usename as blocker_user, b.application_name as blocker_application, b.state as blocker_state,
       left(btrim(regexp_replace(regexp_replace(b.query, '--[^\n]*', '', 'g'), '\s+', ' ', 'g')), 100) as blocker_query,
       extract(epoch from now() - b.xact_start)::bigint as blocker_transaction_seconds
  from pg_stat_activity w
  cross join lateral unnest(pg_blocking_pids(w.pid)) as blocking(pid)
  join pg_stat_activity b on b.pid = blocking.pid
 where w.application_name = ? and w.wait_event_type = 'Lock' and w.pid <> pg_backend_pid()
   and w.query_start <= now() - make_interval(secs => ?)
 order by w.query_start
 limit 1
