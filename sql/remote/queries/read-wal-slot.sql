-- The WAL capture's slot, looked at by the transfer monitor (io.oneway.capture.SlotWatch): whether WAL
-- it needs is kept, how far behind the WAL it is, and whether it moves: its confirmed position, the
-- position its WAL sender has decoded up to, and what that sender waits on.
select s.wal_status, s.active,
       coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn), 0)::bigint as behind_bytes,
       s.confirmed_flush_lsn::text as confirmed_lsn, r.sent_lsn::text as sent_lsn, a.wait_event
  from pg_replication_slots s
  left join pg_stat_replication r on r.pid = s.active_pid
  left join pg_stat_activity a on a.pid = s.active_pid
 where s.slot_name = ?
